import Foundation
import GalleryCore
import Tomorrowland
import XCTest

/// A value written by a callback and read by the test after the wait.
final class Captured<T> {
    private let lock = NSLock()
    private var stored: T?

    var value: T? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}

/// Lines appended from callbacks and from the test, in the order they happened.
final class OrderLog {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}

extension XCTestCase {
    /// Waits for `promise` and gives its result (nil if it did not resolve in time).
    func result<T, E>(of promise: Promise<T, E>, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) -> PromiseResult<T, E>? {
        let resolved = expectation(description: "promise resolved")
        let outcome = Captured<PromiseResult<T, E>>()
        promise.always(on: .immediate) { result in
            outcome.value = result
            resolved.fulfill()
        }
        wait(for: [resolved], timeout: timeout)
        return outcome.value
    }

    /// Waits for `promise` and gives its value, or throws (and fails) without one.
    func value<T>(of promise: GalleryPromise<T>, file: StaticString = #filePath, line: UInt = #line) throws -> T {
        switch result(of: promise, file: file, line: line) {
        case .value(let value)?:
            return value
        case .error(let error)?:
            XCTFail("rejected with \(error)", file: file, line: line)
            throw error
        case .cancelled?, nil:
            XCTFail("cancelled or not resolved", file: file, line: line)
            throw GalleryError.transport("no value")
        }
    }

    /// Waits for `promise` and gives its error, failing if it has none.
    func error<T>(of promise: GalleryPromise<T>, file: StaticString = #filePath, line: UInt = #line) -> GalleryError? {
        let outcome = result(of: promise, file: file, line: line)
        guard case .error(let error)? = outcome else {
            XCTFail("expected an error, got \(String(describing: outcome))", file: file, line: line)
            return nil
        }
        return error
    }
}

/// A cloud transport the test answers by hand.
final class ManualTransport: CloudTransport {
    struct Pending {
        var path: String
        var request: CloudRequest
        var completion: (Data?, Swift.Error?) -> Void
    }

    private let lock = NSLock()
    private var pending: [Pending] = []
    private var sent: [String] = []
    private var cancelled: [String] = []
    /// Told the path of each request that gets cancelled.
    var whenCancelled: ((String) -> Void)?
    /// Told the path of each request, after it is pending.
    var whenSent: ((String) -> Void)?
    /// Answered at once, on a background queue, instead of waiting for the test.
    var autoReplies: [String: Data] = [:]

    func get(_ path: String, completion: @escaping (Data?, Swift.Error?) -> Void) -> CloudRequest {
        let request = CloudRequest { [weak self] in
            guard let self = self else { return }
            self.lock.lock()
            self.cancelled.append(path)
            let hook = self.whenCancelled
            self.lock.unlock()
            hook?(path)
        }
        lock.lock()
        sent.append(path)
        let reply = autoReplies[path]
        if reply == nil {
            pending.append(Pending(path: path, request: request, completion: completion))
        }
        lock.unlock()
        whenSent?(path)
        if let reply = reply {
            DispatchQueue.global().async { completion(reply, nil) }
        }
        return request
    }

    var sentPaths: [String] {
        lock.lock()
        defer { lock.unlock() }
        return sent
    }

    var cancelledPaths: [String] {
        lock.lock()
        defer { lock.unlock() }
        return cancelled
    }

    /// Completes the oldest pending request for `path`.
    func reply(to path: String, data: Data? = nil, error: Swift.Error? = nil) {
        lock.lock()
        guard let index = pending.firstIndex(where: { $0.path == path }) else {
            lock.unlock()
            XCTFail("no pending request for \(path)")
            return
        }
        let request = pending.remove(at: index)
        lock.unlock()
        request.completion(data, error)
    }
}

/// An asset source whose answers the test sets up.
final class StubSource: AssetSource {
    let name: String
    var assets: [Asset]
    var listError: GalleryError?
    var originals: [String: Data] = [:]
    let loads = OrderLog()

    init(name: String, assets: [Asset], listError: GalleryError? = nil) {
        self.name = name
        self.assets = assets
        self.listError = listError
    }

    func listAssets() -> GalleryPromise<[Asset]> {
        if let error = listError {
            return Promise(rejected: error)
        }
        return Promise(on: .utility) { [assets] resolver in resolver.fulfill(with: assets) }
    }

    func loadData(for asset: Asset) -> GalleryPromise<Data> {
        loads.append(asset.id)
        guard let data = originals[asset.id] else {
            return Promise(rejected: .notFound(asset.id))
        }
        return Promise(on: .utility) { resolver in resolver.fulfill(with: data) }
    }
}

func assetJSON(_ assets: [Asset]) -> Data {
    return try! JSONEncoder().encode(assets)
}

let mainQueueKey: DispatchSpecificKey<String> = {
    let key = DispatchSpecificKey<String>()
    DispatchQueue.main.setSpecific(key: key, value: "main")
    return key
}()
