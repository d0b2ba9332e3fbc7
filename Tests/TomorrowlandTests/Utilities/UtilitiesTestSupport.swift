// Helpers for the Utilities tests (timers, combinators, DelayedPromise, PromiseOperation,
// retry, weak-object callbacks). Prefixed `Util` to stay clear of other test files.

import Dispatch
import Foundation
import XCTest
@testable import Tomorrowland

/// A thread-safe box for test observations.
final class UtilBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
    func mutate<R>(_ body: (inout T) -> R) -> R {
        lock.lock(); defer { lock.unlock() }
        return body(&stored)
    }
}

extension UtilBox where T == [String] {
    func append(_ entry: String) { mutate { $0.append(entry) } }
}

extension UtilBox where T == Int {
    @discardableResult func increment() -> Int { mutate { $0 += 1; return $0 } }
}

/// An error type for these tests.
struct UtilError: Swift.Error, Equatable, Hashable, Sendable {
    let code: Int
    init(_ code: Int) { self.code = code }
}

/// An object whose lifetime the tests watch.
final class UtilObject: Sendable {
    let name: String
    init(_ name: String = "object") { self.name = name }
}

/// Monotonic seconds since an arbitrary origin.
func utilNow() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}

extension XCTestCase {
    /// Waits (up to `timeout`) for `promise` to resolve and returns its result; a hang fails.
    func utilAwait<V, E>(_ promise: Promise<V, E>, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) -> PromiseResult<V, E>? {
        let done = expectation(description: "resolved")
        promise.tap(on: .immediate) { _ in done.fulfill() }
        wait(for: [done], timeout: timeout)
        let result = promise.result
        if result == nil { XCTFail("promise did not resolve", file: file, line: line) }
        return result
    }

    /// Polls `condition` (up to `timeout`), spinning the main run loop in between.
    func utilEventually(timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let deadline = utilNow() + timeout
        while !condition() {
            if utilNow() > deadline {
                XCTFail("condition not met in \(timeout)s", file: file, line: line)
                return
            }
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.002))
        }
    }
}

/// A pending promise kept resolvable only by its cancel handler, which records the request
/// in `asked` and (if `cancels`) cancels the promise.
func utilCancellable<V>(_ type: V.Type = V.self, asked: UtilBox<Bool>, cancels: Bool = true) -> Promise<V, UtilError> {
    Promise(on: .immediate) { resolver in
        resolver.onRequestCancel(on: .immediate) { resolver in
            asked.value = true
            if cancels { resolver.cancel() }
        }
    }
}
