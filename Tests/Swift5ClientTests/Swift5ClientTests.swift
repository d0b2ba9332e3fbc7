// Swift 5 language-mode clients: code written the way Tomorrowland 1.x users write it.
//
// Sendable choice (see also Tests/Swift6ClientTests): every public callback parameter of
// Tomorrowland is `@_inheritActorContext @escaping @isolated(any) @Sendable`, *without*
// `@preconcurrency`, and the generic types (`Promise`, `Promise.Resolver`, `PromiseResult`,
// `TokenPromise`) are conditionally `Sendable` (`where Value: Sendable, Error: Sendable`);
// `Value`/`Error` are never constrained. In Swift 5 language mode (minimal concurrency
// checking) this means 1.x code keeps compiling unchanged: capturing non-Sendable classes is
// silent and mutating a captured `var` is a *warning* ("mutation of captured var ... in
// concurrently-executing code; this is an error in the Swift 6 language mode"). The same
// code in Swift 6 mode is an error, which Swift6ClientTests proves with compile-failure
// fixtures.
//
// Callbacks keep their caller's actor: inside a `@MainActor` type (every UIKit/AppKit view
// controller) or an actor, a callback literal such as the README's
// `.then { self.refreshUI(with: items) }` with no context, `.main`, `.auto` or `.immediate` is
// isolated to that actor, compiles as it did with 1.x, and runs on that actor
// (IsolatedCallbackTests); one given a named queue or a `PromiseContext` value runs on that
// queue, nonisolated (NamedContextPlacementTests).
//
// Nothing in this target may be "modernised": if a construct here stops compiling, that is
// a source-compatibility regression of the library, not a test to fix. The exceptions are the
// edits `tomorrowland-migrate adopt` makes (MIGRATION.md, "What no longer compiles, and the
// fix") and the 1.x data races it lists: the value-context rule made two helpers of
// IsolatedCallbackTests that touched main-actor or actor state from a `PromiseContext` value
// take `PromiseContext.CallerIsolated` instead, the documented way to keep the actor.

import Foundation
import Tomorrowland
import XCTest

// MARK: - Fakes shared by the tests (non-Sendable on purpose, like typical app classes)

/// Stands in for `UIImage`: a plain, non-Sendable class.
class FakeImage {
    let data: Data
    init?(data: Data) {
        guard data.first == 0x89 else { return nil }
        self.data = data
    }
}

/// Stands in for `UIImageView`.
class FakeImageView {
    var image: FakeImage?
}

/// Stands in for `URLSessionDataTask`: a non-Sendable class with `cancel()`/`resume()`.
class FakeDataTask {
    private let body: (FakeDataTask) -> Void
    var isCancelled = false
    var completion: ((Data?, Swift.Error?) -> Void)?

    init(body: @escaping (FakeDataTask) -> Void) { self.body = body }

    func resume() { body(self) }

    func cancel() {
        isCancelled = true
        let completion = self.completion
        self.completion = nil
        completion?(nil, URLError(.cancelled))
    }

    func finish(data: Data?, error: Swift.Error?) {
        let completion = self.completion
        self.completion = nil
        completion?(data, error)
    }
}

/// Stands in for `URLSession`: the "dataTaskAsPromise" from the README, written 1.x style.
class FakeSession {
    /// What a task does once resumed; defaults to never finishing (tests finish it).
    var respond: (URL, FakeDataTask) -> Void = { _, _ in }
    private(set) var tasks: [FakeDataTask] = []
    private let lock = NSLock()

    func dataTask(with url: URL, completionHandler: @escaping (Data?, Swift.Error?) -> Void) -> FakeDataTask {
        let respond = self.respond
        let task = FakeDataTask(body: { task in respond(url, task) })
        task.completion = completionHandler
        lock.lock()
        tasks.append(task)
        lock.unlock()
        return task
    }

    var allTasks: [FakeDataTask] {
        lock.lock()
        defer { lock.unlock() }
        return tasks
    }

    func dataTaskAsPromise(with url: URL) -> StdPromise<Data> {
        return Promise(on: .immediate, { (resolver) in
            let task = self.dataTask(with: url, completionHandler: { (data, error) in
                if let data = data {
                    resolver.fulfill(with: data)
                } else if case URLError.cancelled? = error {
                    resolver.cancel()
                } else {
                    resolver.reject(with: error!)
                }
            })
            resolver.onRequestCancel(on: .immediate, { _ in
                task.cancel()
            })
            task.resume()
        })
    }
}

enum APIError: Swift.Error, Equatable {
    case notFound
    case badData
}

let pngBytes = Data([0x89, 0x50, 0x4E, 0x47])

// MARK: - Smoke test of the fakes themselves

final class FakeSessionTests: XCTestCase {
    func testDataTaskAsPromiseFulfillsRejectsAndCancels() {
        let session = FakeSession()
        session.respond = { url, task in
            switch url.lastPathComponent {
            case "ok": task.finish(data: pngBytes, error: nil)
            case "missing": task.finish(data: nil, error: APIError.notFound)
            default: break // hangs until cancelled
            }
        }
        let ok = session.dataTaskAsPromise(with: URL(string: "https://example.com/ok")!)
        let missing = session.dataTaskAsPromise(with: URL(string: "https://example.com/missing")!)
        let slow = session.dataTaskAsPromise(with: URL(string: "https://example.com/slow")!)
        XCTAssertEqual(ok.result?.value, pngBytes)
        XCTAssertEqual(missing.result?.error as? APIError, .notFound)
        XCTAssertNil(slow.result)
        slow.requestCancel()
        XCTAssertEqual(slow.result?.isCancelled, true)
        XCTAssertTrue(session.allTasks[2].isCancelled)
    }
}
