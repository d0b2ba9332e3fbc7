import Foundation
import GalleryCore
import GalleryUpload
import TomorrowlandAsync
import XCTest

/// A cloud transport answering from a table; unknown paths stay pending until cancelled.
final class TableTransport: CloudTransport, @unchecked Sendable {
    // Safe to share: every var is only touched under `lock`.
    private let lock = NSLock()
    private var replies: [String: Data] = [:]
    private var sent: [String] = []
    private var cancelled: [String] = []
    var whenSent: (@Sendable (String) -> Void)?

    init(_ replies: [String: Data] = [:]) {
        self.replies = replies
    }

    func get(_ path: String, completion: @escaping (Data?, Swift.Error?) -> Void) -> CloudRequest {
        lock.lock()
        sent.append(path)
        let reply = replies[path]
        let hook = whenSent
        lock.unlock()
        let request = CloudRequest { [weak self] in
            guard let self = self else { return }
            self.lock.lock()
            self.cancelled.append(path)
            self.lock.unlock()
        }
        if let reply = reply {
            nonisolated(unsafe) let completion = completion
            DispatchQueue.global().async { completion(reply, nil) }
        }
        hook?(path)
        return request
    }

    var cancelledPaths: [String] {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }
}

/// An upload endpoint that accepts everything.
final class AcceptingUploadClient: UploadClient, @unchecked Sendable {
    func send(_ data: Data, path: String, progress: @escaping (Double) -> Void, completion: @escaping (Result<String, GalleryError>) -> Void) -> CloudRequest {
        nonisolated(unsafe) let completion = completion
        DispatchQueue.global().async { completion(.success("https://cdn.example/\(path)")) }
        return CloudRequest()
    }
}

final class RecordingSource: AssetSource, @unchecked Sendable {
    let name = "Recording"
    let assets: [Asset]
    let originals: [String: Data]

    init(assets: [Asset], originals: [String: Data]) {
        self.assets = assets
        self.originals = originals
    }

    func listAssets() -> GalleryPromise<[Asset]> {
        return Promise(fulfilled: assets)
    }

    func loadData(for asset: Asset) -> GalleryPromise<Data> {
        guard let data = originals[asset.id] else { return Promise(rejected: .notFound(asset.id)) }
        return Promise(on: .utility) { $0.fulfill(with: data) }
    }
}

func assetJSON(_ assets: [Asset]) -> Data {
    return try! JSONEncoder().encode(assets)
}
