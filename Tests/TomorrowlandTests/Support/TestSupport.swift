// The helpers every TomorrowlandTests file shares: thread-safe slots and logs, deinit spies,
// tagged queues, bounded waits (TestError and Counter are TestSupport's, shared by every target).

import Dispatch
import Foundation
import Synchronization
import TestSupport
import XCTest
@testable import Tomorrowland

// Locks are `Locked` (NSLock), not `Synchronization.Mutex`, which the thread sanitizer
// cannot see through on Linux.

/// A thread-safe append-only log.
final class Recorder<T: Sendable>: Sendable {
    private let items = Locked<[T]>([])
    func append(_ item: T) { items.withLock { $0.append(item) } }
    var values: [T] { items.withLock { $0 } }
    var count: Int { items.withLock { $0.count } }
    subscript(index: Int) -> T? { items.withLock { index < $0.count ? $0[index] : nil } }
}

/// A thread-safe variable. `Slot<T?>()` starts empty.
final class Slot<Value: Sendable>: Sendable {
    private let storage: Locked<Value>
    init(_ value: Value) { storage = Locked(value) }
    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
    @discardableResult func mutate<R>(_ body: (inout Value) -> R) -> R { storage.withLock { body(&$0) } }
}

extension Slot where Value: ExpressibleByNilLiteral {
    convenience init() { self.init(nil) }
}

/// Runs `onDeinit` when released; used to see when and where a callback is released.
final class DeinitSpy: Sendable {
    private let onDeinit: @Sendable () -> Void
    init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    func touch() {}
    deinit { onDeinit() }
}

/// A serial queue that can tell whether the caller is running on it.
final class TaggedQueue: @unchecked Sendable {
    // Safety: both properties are immutable; DispatchSpecificKey is only read.
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<UInt8>()

    init(_ label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
    }

    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) != nil }
}

/// An object whose lifetime the tests watch (e.g. the owner of a `with:` callback).
final class TestObject: Sendable {
    let name: String
    init(_ name: String = "object") { self.name = name }
}

/// A key the tests set on their own queues, to tell by name which queue code runs on.
let queueNameKey = DispatchSpecificKey<String>()

/// Monotonic seconds since an arbitrary origin.
func monotonicNow() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
}

/// A pending promise kept resolvable only by its cancel handler, which records the request
/// in `asked` and (if `cancels`) cancels the promise.
func cancellablePromise<V>(_ type: V.Type = V.self, asked: Slot<Bool>, cancels: Bool = true) -> Promise<V, TestError> {
    Promise(on: .immediate) { resolver in
        resolver.onRequestCancel(on: .immediate) { resolver in
            asked.value = true
            if cancels { resolver.cancel() }
        }
    }
}

/// Waits for `register` to call its completion, or returns `nil` after `seconds`.
func waitFor<T: Sendable>(seconds: Double = 10, _ register: @escaping @Sendable (@escaping @Sendable (T) -> Void) -> Void) async -> T? {
    await withCheckedContinuation { (continuation: CheckedContinuation<T?, Never>) in
        let once = Slot<Bool>(false)
        let finish: @Sendable (T?) -> Void = { value in
            if once.exchangeFalseForTrue() { continuation.resume(returning: value) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { finish(nil) }
        register { finish($0) }
    }
}

extension Slot where Value == Bool {
    /// Atomically turns `false` into `true`; returns whether this call did it.
    func exchangeFalseForTrue() -> Bool {
        mutate { value in
            if value { return false }
            value = true
            return true
        }
    }
}

/// Runs `body` on a fresh thread with the given stack size and waits (bounded) for it.
func runOnSmallStack(_ test: XCTestCase, stackSize: Int, timeout: TimeInterval = 120, _ body: @escaping @Sendable () -> Void) {
    let done = test.expectation(description: "small-stack thread finished")
    let thread = Thread {
        body()
        done.fulfill()
    }
    thread.stackSize = stackSize
    thread.start()
    test.wait(for: [done], timeout: timeout)
}

extension XCTestCase {
    /// Waits until `condition` holds, letting the main queue run; fails after `timeout`.
    func waitUntil(timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else {
                XCTFail("condition not met within \(timeout)s", file: file, line: line)
                return
            }
            settle(0.005)
        }
    }

    /// Waits (up to `timeout`) for `promise` to resolve and returns its result; a hang fails.
    func waitForResult<V, E>(_ promise: Promise<V, E>, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) -> PromiseResult<V, E>? {
        let done = expectation(description: "resolved")
        promise.tap(on: .immediate) { _ in done.fulfill() }
        wait(for: [done], timeout: timeout)
        let result = promise.result
        if result == nil { XCTFail("promise did not resolve", file: file, line: line) }
        return result
    }

    /// Lets the main queue and the global queues run for a moment (to show that something
    /// does *not* happen).
    func settle(_ seconds: TimeInterval = 0.1) {
        let e = expectation(description: "settle")
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            DispatchQueue.main.async { e.fulfill() }
        }
        wait(for: [e], timeout: seconds + 10)
    }
}
