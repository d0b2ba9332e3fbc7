// The helpers of the original Tomorrowland 1.x test suite (its XCTestUtilities.swift), rebuilt on
// the public API: expectations that watch a promise through an `.immediate` `always` callback.

import Foundation
import TestSupport
import Tomorrowland
import XCTest

extension XCTestExpectation {
    /// Fulfilled when `promise` resolves, whatever the result; `handler` sees the result first.
    convenience init<T, E>(on promise: Promise<T, E>, file: StaticString = #file, line: UInt = #line, handler: @escaping (PromiseResult<T, E>) -> Void) {
        self.init(description: "Expectation for \(type(of: promise)) on line \(line)")
        promise.always(on: .immediate, { (result) in
            handler(result)
            self.fulfill()
        })
    }

    /// Fulfilled when `promise` resolves; fails the test unless it fulfilled.
    convenience init<T, E>(onSuccess promise: Promise<T, E>, file: StaticString = #file, line: UInt = #line, handler: @escaping (T) -> Void) {
        self.init(description: "Expectation for \(type(of: promise)) success on line \(line)")
        promise.always(on: .immediate, { (result) in
            switch result {
            case .value(let value): handler(value)
            case .error(let error): XCTFail("Expected promise success, got error \(error)", file: file, line: line)
            case .cancelled: XCTFail("Expected promise success, got cancellation", file: file, line: line)
            }
            self.fulfill()
        })
    }

    /// Fulfilled when `promise` resolves; fails the test unless it fulfilled with `expectedValue`.
    convenience init<T: Equatable, E>(onSuccess promise: Promise<T, E>, expectedValue: T, file: StaticString = #file, line: UInt = #line) {
        self.init(onSuccess: promise, file: file, line: line, handler: { (value) in
            XCTAssertEqual(value, expectedValue, file: file, line: line)
        })
    }

    /// Fulfilled when `promise` resolves; fails the test unless it was rejected.
    convenience init<T, E>(onError promise: Promise<T, E>, file: StaticString = #file, line: UInt = #line, handler: @escaping (E) -> Void) {
        self.init(description: "Expectation for \(type(of: promise)) error on line \(line)")
        promise.always(on: .immediate, { (result) in
            switch result {
            case .value(let value): XCTFail("Expected promise error, got value \(value)", file: file, line: line)
            case .error(let error): handler(error)
            case .cancelled: XCTFail("Expected promise error, got cancellation", file: file, line: line)
            }
            self.fulfill()
        })
    }

    /// Fulfilled when `promise` resolves; fails the test unless it was rejected with `expectedError`.
    convenience init<T, E: Equatable>(onError promise: Promise<T, E>, expectedError: E, file: StaticString = #file, line: UInt = #line) {
        self.init(onError: promise, file: file, line: line, handler: { (error) in
            XCTAssertEqual(error, expectedError, file: file, line: line)
        })
    }

    /// Fulfilled when `promise` resolves; fails the test unless it was cancelled.
    convenience init<T, E>(onCancel promise: Promise<T, E>, file: StaticString = #file, line: UInt = #line) {
        self.init(description: "Expectation for \(type(of: promise)) cancel on line \(line)")
        promise.always(on: .immediate, { (result) in
            switch result {
            case .value(let value): XCTFail("Expected promise cancellation, got value \(value)", file: file, line: line)
            case .error(let error): XCTFail("Expected promise cancellation, got error \(error)", file: file, line: line)
            case .cancelled: break
            }
            self.fulfill()
        })
    }
}

/// Runs a closure when it is deinitialized; captured by a callback, it tells when (and where)
/// the callback was released.
final class NotifyOnDeinit {
    private let callback: () -> Void
    init(_ callback: @escaping () -> Void) { self.callback = callback }
    deinit { callback() }
}

/// A serial queue that can tell whether the current code runs on it.
final class TestQueue {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Int>()
    init(label: String = "OriginalSuiteTests.queue") {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
    }
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
}

/// Whether the current code runs on the main queue (the test's thread or a main-queue block).
func isOnMainQueue() -> Bool {
    Thread.isMainThread
}

extension Promise {
    /// A pending promise and its resolver whose `onRequestCancel` handler cancels it, as the
    /// original tests build them for the cancellation tests.
    static func makeCancellable(on context: PromiseContext = .immediate) -> (Promise<Value, Error>, Promise<Value, Error>.Resolver) {
        let (promise, resolver) = Promise<Value, Error>.makeWithResolver()
        resolver.onRequestCancel(on: context) { (resolver) in
            resolver.cancel()
        }
        return (promise, resolver)
    }
}

/// `count` pending promises whose `onRequestCancel` handler records the promise's index in
/// `requested` and cancels it, with their resolvers (kept, so that they stay pending).
func makeCancellableInputs(_ count: Int) -> ([Promise<Int, String>], [Promise<Int, String>.Resolver], Locked<[Int]>) {
    let requested = Locked<[Int]>([])
    var resolvers: [Promise<Int, String>.Resolver] = []
    let inputs = (0..<count).map({ i -> Promise<Int, String> in
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate, { (resolver) in
            requested.modify({ $0.append(i) })
            resolver.cancel()
        })
        resolvers.append(resolver)
        return promise
    })
    return (inputs, resolvers, requested)
}
