import Foundation
import GalleryCore
import GalleryUpload
import Tomorrowland
import XCTest

/// A value written by a callback and read by the test after the wait.
final class Box<T> {
    private let lock = NSLock()
    private var stored: T?

    var value: T? {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}

extension XCTestCase {
    func result<T, E>(of promise: Promise<T, E>, timeout: TimeInterval = 10) -> PromiseResult<T, E>? {
        let resolved = expectation(description: "promise resolved")
        let box = Box<PromiseResult<T, E>>()
        promise.always(on: .immediate) { result in
            box.value = result
            resolved.fulfill()
        }
        wait(for: [resolved], timeout: timeout)
        return box.value
    }

    func value<T>(of promise: GalleryPromise<T>, file: StaticString = #filePath, line: UInt = #line) throws -> T {
        let outcome = result(of: promise)
        guard let value = outcome?.value else {
            XCTFail("no value: \(String(describing: outcome))", file: file, line: line)
            throw GalleryError.transport("no value")
        }
        return value
    }

    func error<T>(of promise: GalleryPromise<T>, file: StaticString = #filePath, line: UInt = #line) -> GalleryError? {
        let outcome = result(of: promise)
        guard let error = outcome?.error else {
            XCTFail("no error: \(String(describing: outcome))", file: file, line: line)
            return nil
        }
        return error
    }

    /// Waits until every block already queued on the main queue has run.
    func drainMainQueue() {
        let drained = expectation(description: "main queue drained")
        DispatchQueue.main.async { drained.fulfill() }
        wait(for: [drained], timeout: 10)
    }
}

/// An upload endpoint whose answers the test chooses per path.
final class FakeUploadClient: UploadClient {
    enum Behaviour {
        case succeed
        case fail(GalleryError)
        case hold
    }

    private let lock = NSLock()
    private var behaviours: [String: Behaviour] = [:]
    private var held: [String: (Result<String, GalleryError>) -> Void] = [:]
    private var progressHandlers: [String: (Double) -> Void] = [:]
    private var sent: [String] = []
    private var cancelled: [String] = []
    var whenSent: ((String) -> Void)?
    var whenCancelled: ((String) -> Void)?

    func behave(_ behaviour: Behaviour, for assetID: String) {
        lock.lock()
        behaviours["uploads/\(assetID)"] = behaviour
        lock.unlock()
    }

    func send(_ data: Data, path: String, progress: @escaping (Double) -> Void, completion: @escaping (Result<String, GalleryError>) -> Void) -> CloudRequest {
        lock.lock()
        sent.append(path)
        let behaviour = behaviours[path] ?? .succeed
        if case .hold = behaviour {
            held[path] = completion
            progressHandlers[path] = progress
        }
        lock.unlock()
        let request = CloudRequest { [weak self] in
            guard let self = self else { return }
            self.lock.lock()
            self.cancelled.append(path)
            let hook = self.whenCancelled
            self.lock.unlock()
            hook?(path)
        }
        switch behaviour {
        case .succeed:
            DispatchQueue.global().async {
                progress(1)
                completion(.success("https://cdn.example/\(path)"))
            }
        case .fail(let error):
            DispatchQueue.global().async { completion(.failure(error)) }
        case .hold:
            break
        }
        whenSent?(path)
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

    func reportProgress(_ fraction: Double, for assetID: String) {
        lock.lock()
        let handler = progressHandlers["uploads/\(assetID)"]
        lock.unlock()
        handler?(fraction)
    }

    func complete(_ assetID: String, with result: Result<String, GalleryError>) {
        lock.lock()
        let completion = held.removeValue(forKey: "uploads/\(assetID)")
        lock.unlock()
        completion?(result)
    }
}

/// A cloud transport that answers each path from a script, on a background queue.
final class ScriptedTransport: CloudTransport {
    private let lock = NSLock()
    private var script: [String: [Result<Data, GalleryError>]] = [:]
    private var requests: [String] = []

    func answer(_ path: String, with replies: [Result<Data, GalleryError>]) {
        lock.lock()
        script[path] = replies
        lock.unlock()
    }

    func get(_ path: String, completion: @escaping (Data?, Swift.Error?) -> Void) -> CloudRequest {
        lock.lock()
        requests.append(path)
        var replies = script[path] ?? []
        let reply = replies.isEmpty ? nil : replies.removeFirst()
        script[path] = replies
        lock.unlock()
        if let reply = reply {
            DispatchQueue.global().async {
                switch reply {
                case .success(let data): completion(data, nil)
                case .failure(let error): completion(nil, error)
                }
            }
        }
        return CloudRequest()
    }

    var requestedPaths: [String] {
        lock.lock()
        defer { lock.unlock() }
        return requests
    }
}
