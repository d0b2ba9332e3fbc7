import Foundation
import GalleryCore
import Tomorrowland

/// The server's answer to one upload.
public struct UploadReceipt: Equatable, Sendable {
    public var assetID: String
    public var remoteURL: String

    public init(assetID: String, remoteURL: String) {
        self.assetID = assetID
        self.remoteURL = remoteURL
    }
}

/// The upload endpoint of the backend, callback based.
public protocol UploadClient: AnyObject {
    func send(
        _ data: Data,
        path: String,
        progress: @escaping (Double) -> Void,
        completion: @escaping (Result<String, GalleryError>) -> Void
    ) -> CloudRequest
}

public typealias UploadPromise = GalleryPromise<UploadReceipt>

/// Uploads originals, tracks their progress and enforces the account's quota. Shared by the
/// share sheet, the background uploader and the UI, so its state is behind a lock.
public final class UploadManager: @unchecked Sendable {
    // Safe to share: `progress`, `usedBytes` and `started` are only touched while holding
    // `lock`; the other stored properties are immutable after `init`.
    private let lock = NSLock()
    private var progress: [String: Double] = [:]
    private var usedBytes = 0
    private var started = 0
    private let client: UploadClient
    private let quotaBytes: Int
    public let timeout: TimeInterval

    public init(client: UploadClient, quotaBytes: Int = 1 << 30, timeout: TimeInterval = 60) {
        self.client = client
        self.quotaBytes = quotaBytes
        self.timeout = timeout
    }

    /// Uploads started so far.
    public var startedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return started
    }

    /// Progress of each upload in flight, 0…1.
    public func progress(of assetID: String) -> Double? {
        lock.lock()
        defer { lock.unlock() }
        return progress[assetID]
    }

    /// Uploads one original. A cancel request cancels the request in flight.
    public func upload(_ data: Data, for assetID: String) -> UploadPromise {
        lock.lock()
        guard usedBytes + data.count <= quotaBytes else {
            let used = usedBytes
            lock.unlock()
            return Promise(rejected: .quotaExceeded(used: used, limit: quotaBytes))
        }
        usedBytes += data.count
        started += 1
        progress[assetID] = 0
        lock.unlock()
        GalleryLog.shared.log("upload \(assetID): \(data.count) bytes")

        let client = self.client
        return UploadPromise(on: .utility) { [weak self] resolver in
            let request = client.send(data, path: "uploads/\(assetID)", progress: { fraction in
                self?.setProgress(fraction, for: assetID)
            }, completion: { result in
                resolver.resolve(with: result.map { UploadReceipt(assetID: assetID, remoteURL: $0) })
            })
            resolver.onRequestCancel(on: .immediate) { resolver in
                request.cancel()
                resolver.cancel()
            }
        }
        .timeout(delay: timeout)
        .mapError(on: .immediate) { GalleryError($0) }
        .onCancel(on: .utility) {
            GalleryLog.shared.log("upload \(assetID): cancelled")
        }
        .always(on: .utility) { [weak self] result in
            self?.finish(assetID, bytes: data.count, succeeded: result.value != nil)
        }
    }

    /// Uploads each original; the first failure cancels the rest.
    public func uploadAll(_ originals: [String: Data]) -> GalleryPromise<[UploadReceipt]> {
        let ids = originals.keys.sorted()
        return when(fulfilled: ids.map { upload(originals[$0]!, for: $0) }, cancelOnFailure: true)
    }

    private func setProgress(_ fraction: Double, for assetID: String) {
        lock.lock()
        if progress[assetID] != nil {
            progress[assetID] = fraction
        }
        lock.unlock()
    }

    private func finish(_ assetID: String, bytes: Int, succeeded: Bool) {
        lock.lock()
        progress[assetID] = nil
        if !succeeded {
            usedBytes -= bytes
        }
        lock.unlock()
    }
}
