// Promise.Resolver extras: handleCallback (rule 28), onRequestCancel contexts, and misuse.

import Dispatch
import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class ResolverTests: XCTestCase {
    func testRule28_valueWinsOverError() {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        resolver.handleCallback()(42, TestError(1))
        XCTAssertEqual(promise.result?.value, 42)
    }

    func testRule28_errorRejects() {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        resolver.handleCallback()(nil, TestError(2))
        XCTAssertEqual(promise.result?.error as? TestError, TestError(2))
    }

    func testRule28_nilNilRejectsWithApiMismatch() {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        resolver.handleCallback()(nil, nil)
        XCTAssertEqual(promise.result?.error as? PromiseCallbackError, .apiMismatch)
        XCTAssertEqual(PromiseCallbackError.apiMismatch.rawValue, 0)
    }

    func testRule28_isCancelErrorCancels() {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let callback = resolver.handleCallback(isCancelError: { ($0 as? TestError)?.code == 99 })
        callback(nil, TestError(99))
        XCTAssertEqual(promise.result?.isCancelled, true)
        let (other, otherResolver) = StdPromise<Int>.makeWithResolver()
        otherResolver.handleCallback(isCancelError: { ($0 as? TestError)?.code == 99 })(nil, TestError(1))
        XCTAssertEqual(other.result?.error as? TestError, TestError(1))
    }

    func testRule28_callbackKeepsPromiseResolvableAndCalledTwiceIsHarmless() {
        let promise: StdPromise<Int>
        let callback: @Sendable (Int?, Swift.Error?) -> Void
        do {
            let (p, resolver) = StdPromise<Int>.makeWithResolver()
            promise = p
            callback = resolver.handleCallback()
        }
        XCTAssertNil(promise.result, "the callback holds the resolver")
        DispatchQueue.global().async { callback(1, nil); callback(2, nil) }
        waitUntil { promise.result != nil }
        XCTAssertEqual(promise.result?.value, 1)
    }

    func testOnRequestCancelOnQueueGetsAWorkingResolver() {
        let queue = TaggedQueue("core.onRequestCancel")
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.onRequestCancel(on: .queue(queue.queue)) { r in
            if queue.isCurrent { r.reject(with: "on queue") } else { r.reject(with: "elsewhere") }
        }
        promise.requestCancel()
        waitUntil { promise.result != nil }
        XCTAssertEqual(promise.result, .error("on queue"))
    }

    func testMisuseNeverCrashes() {
        // Resolve from many threads at once: one wins, nothing crashes.
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            switch i % 4 {
            case 0: resolver.fulfill(with: i)
            case 1: resolver.reject(with: "\(i)")
            case 2: resolver.cancel()
            default: resolver.resolve(with: Promise(fulfilled: i))
            }
            promise.requestCancel()
            resolver.onRequestCancel(on: .immediate) { $0.cancel() }
        }
        XCTAssertNotNil(promise.result)
        let first = promise.result
        resolver.fulfill(with: -1)
        XCTAssertEqual(promise.result, first)
    }
}
