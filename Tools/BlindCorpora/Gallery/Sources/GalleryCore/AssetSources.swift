import Foundation
import Tomorrowland

/// Anything the gallery can import assets from: the device's camera roll or a cloud account.
public protocol AssetSource: AnyObject {
    /// Shown in the import sheet.
    var name: String { get }
    /// Every asset the source offers.
    func listAssets() -> GalleryPromise<[Asset]>
    /// The original bytes of one asset.
    func loadData(for asset: Asset) -> GalleryPromise<Data>
}

/// The device's photo library. Not thread-safe: the app only touches it from the main thread.
public final class CameraRollSource: AssetSource {
    public let name = "Camera Roll"
    public var permissionGranted: Bool
    public private(set) var loadCount = 0
    private var assets: [Asset]
    private var originals: [String: Data]

    public init(assets: [Asset], originals: [String: Data] = [:], permissionGranted: Bool = true) {
        self.assets = assets
        self.originals = originals
        self.permissionGranted = permissionGranted
    }

    public func listAssets() -> GalleryPromise<[Asset]> {
        guard permissionGranted else {
            return Promise(rejected: .permissionDenied)
        }
        let snapshot = assets
        return Promise(on: .utility) { resolver in
            resolver.fulfill(with: snapshot.sorted { $0.id < $1.id })
        }
    }

    public func loadData(for asset: Asset) -> GalleryPromise<Data> {
        loadCount += 1
        guard let data = originals[asset.id] else {
            return Promise(rejected: .notFound(asset.id))
        }
        return Promise(on: .utility) { resolver in
            resolver.fulfill(with: data)
        }
    }

    /// Adds a freshly taken photo (the camera screen calls this).
    public func add(_ asset: Asset, data: Data) {
        assets.append(asset)
        originals[asset.id] = data
    }
}

/// One request in flight on a cloud transport.
public final class CloudRequest: @unchecked Sendable {
    // Safe to share: `cancelled` is only touched under `lock`, `onCancel` is immutable.
    private let lock = NSLock()
    private var cancelled = false
    private let onCancel: () -> Void

    public init(onCancel: @escaping () -> Void = {}) {
        self.onCancel = onCancel
    }

    public var isCancelled: Bool {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    public func cancel() {
        lock.lock()
        let first = !cancelled
        cancelled = true
        lock.unlock()
        if first { onCancel() }
    }
}

/// The vendor SDK of a cloud photo service, completion-handler based.
public protocol CloudTransport: AnyObject {
    func get(_ path: String, completion: @escaping (Data?, Swift.Error?) -> Void) -> CloudRequest
}

/// A cloud account (Dropbox, Google Photos, …). Subclassed per service.
open class CloudAccountSource: AssetSource {
    public let name: String
    public let transport: CloudTransport
    public var requestTimeout: TimeInterval = 30
    /// How many requests this source made (the settings screen shows it). Not thread-safe.
    public private(set) var requestCount = 0

    public init(name: String, transport: CloudTransport) {
        self.name = name
        self.transport = transport
    }

    open func listAssets() -> GalleryPromise<[Asset]> {
        requestCount += 1
        GalleryLog.shared.log("\(name): listing assets")
        return fetch("assets")
            .mapResult(on: .utility) { result -> GalleryResult<[Asset]> in
                switch result {
                case .value(let data):
                    do {
                        var assets = try JSONDecoder().decode([Asset].self, from: data)
                        for index in assets.indices { assets[index].origin = .cloud }
                        return .value(assets)
                    } catch {
                        return .error(.decodeFailed("asset list"))
                    }
                case .error(let error):
                    return .error(error)
                case .cancelled:
                    return .cancelled
                }
            }
    }

    open func loadData(for asset: Asset) -> GalleryPromise<Data> {
        requestCount += 1
        return fetch("assets/\(asset.id)/original")
    }

    /// Wraps one transport request; a cancel request cancels the request in flight.
    public func fetch(_ path: String) -> GalleryPromise<Data> {
        let transport = self.transport
        return StdPromise<Data>(on: .immediate) { resolver in
            let request = transport.get(path, completion: resolver.handleCallback())
            resolver.onRequestCancel(on: .immediate) { resolver in
                request.cancel()
                resolver.cancel()
            }
        }
        .timeout(on: .utility, delay: requestTimeout)
        .mapError(on: .immediate) { error in GalleryError(error) }
    }
}

/// A shared album on a cloud account: only the assets of that album.
public final class SharedAlbumSource: CloudAccountSource {
    public let albumIDs: Set<String>

    public init(name: String, transport: CloudTransport, albumIDs: Set<String>) {
        self.albumIDs = albumIDs
        super.init(name: name, transport: transport)
    }

    public override func listAssets() -> GalleryPromise<[Asset]> {
        let albumIDs = self.albumIDs
        return super.listAssets().map(on: .immediate) { assets in
            assets.filter { albumIDs.contains($0.id) }
        }
    }
}
