// The original suite's DelayedPromiseTests: the handler runs once, on first access, on its
// context; every access gives the same promise; the handler is released after it runs or when
// the DelayedPromise is dropped unused.

import Foundation
import TestSupport
import Tomorrowland
import XCTest

final class DelayedPromiseTests: XCTestCase {
    func testDelayedPromiseRunsOnFirstAccess() {
        let invoked = Locked(0)
        let queue = DispatchQueue(label: "delayed-promise")
        let dp = DelayedPromise<Int, String>(on: .queue(queue), { (resolver) in
            invoked.modify({ $0 += 1 })
            resolver.fulfill(with: 42)
        })
        // Upstream slept here; a gate instead: a handler scheduled by the initializer would
        // have run on the serial queue by the time this empty block did.
        queue.sync {}
        XCTAssertEqual(invoked.value, 0, "the handler waits for the first access")
        let expectation = XCTestExpectation(onSuccess: dp.promise, expectedValue: 42)
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(invoked.value, 1)
    }

    func testDelayedPromiseRunsOnce() {
        let invoked = Locked(0)
        let dp = DelayedPromise<Int, String>(on: .utility, { (resolver) in
            invoked.modify({ $0 += 1 })
            resolver.fulfill(with: 42)
        })
        let promise1 = dp.promise
        let promise2 = dp.promise
        XCTAssertEqual(promise1, promise2)
        let expectation = XCTestExpectation(onSuccess: promise1, expectedValue: 42)
        let expectation2 = XCTestExpectation(onSuccess: promise2, expectedValue: 42)
        wait(for: [expectation, expectation2], timeout: 10)
        XCTAssertEqual(dp.promise, promise1)
        XCTAssertEqual(invoked.value, 1)
    }

    func testDelayedPromiseUsesContext() {
        let queue = TestQueue()
        let dp = DelayedPromise<Bool, String>(on: .queue(queue.queue), { (resolver) in
            resolver.fulfill(with: queue.isCurrent)
        })
        let expectation = XCTestExpectation(onSuccess: dp.promise, expectedValue: true)
        wait(for: [expectation], timeout: 10)
    }

    func testDelayedPromiseOnMainIsAsynchronous() {
        var invoked = false
        let dp = DelayedPromise<Int, String>(on: .main, { (resolver) in
            invoked = true
            resolver.fulfill(with: 1)
        })
        let promise = dp.promise
        XCTAssertFalse(invoked)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 1)
        wait(for: [expectation], timeout: 10)
        XCTAssertTrue(invoked)
    }

    func testDelayedPromiseNowOrIsItsContext() {
        var invoked = false
        let dp = DelayedPromise<Int, String>(on: .nowOr(.main), { (resolver) in
            XCTAssertFalse(PromiseContext.isExecutingNow)
            invoked = true
            resolver.fulfill(with: 1)
        })
        let promise = dp.promise
        XCTAssertFalse(invoked, ".nowOr(ctx) in a DelayedPromise means ctx")
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 1)
        wait(for: [expectation], timeout: 10)
    }

    func testDelayedPromiseImmediateRunsOnAccess() {
        var invoked = false
        let dp = DelayedPromise<Int, String>(on: .immediate, { (resolver) in
            invoked = true
            resolver.fulfill(with: 1)
        })
        XCTAssertFalse(invoked)
        let promise = dp.promise
        XCTAssertTrue(invoked)
        XCTAssertEqual(promise.result, .value(1))
    }

    func testDelayedPromiseEquality() {
        let dp = DelayedPromise<Int, String>(on: .immediate, { $0.fulfill(with: 1) })
        let copy = dp
        XCTAssertEqual(dp, copy)
        XCTAssertNotEqual(dp, DelayedPromise<Int, String>(on: .immediate, { $0.fulfill(with: 1) }))
    }

    func testDelayedPromiseHandlerReleasedAfterRunning() {
        let released = Locked(false)
        let dp: DelayedPromise<Int, String>
        do {
            let notifier = NotifyOnDeinit { released.value = true }
            dp = DelayedPromise(on: .immediate, { (resolver) in
                withExtendedLifetime(notifier) {}
                resolver.fulfill(with: 1)
            })
        }
        XCTAssertFalse(released.value)
        _ = dp.promise
        XCTAssertTrue(released.value)
    }

    func testDelayedPromiseHandlerReleasedOnContextAfterRunning() {
        let queue = TestQueue()
        let expectation = XCTestExpectation(description: "released")
        let dp: DelayedPromise<Int, String>
        // The handler waits until the access has returned.
        let accessed = DispatchSemaphore(value: 0)
        do {
            let notifier = NotifyOnDeinit {
                XCTAssertTrue(queue.isCurrent)
                expectation.fulfill()
            }
            dp = DelayedPromise(on: .queue(queue.queue), { (resolver) in
                accessed.wait()
                withExtendedLifetime(notifier) {}
                resolver.fulfill(with: 1)
            })
        }
        let promise = dp.promise
        accessed.signal()
        wait(for: [expectation], timeout: 10)
        withExtendedLifetime(promise) {}
    }

    func testDelayedPromiseHandlerReleasedWhenDroppedUnused() {
        var released = false
        do {
            let notifier = NotifyOnDeinit { released = true }
            let dp = DelayedPromise<Int, String>(on: .utility, { (resolver) in
                withExtendedLifetime(notifier) {}
                XCTFail("handler of a never-accessed DelayedPromise ran")
            })
            withExtendedLifetime(dp) {}
        }
        XCTAssertTrue(released)
    }

    func testDelayedPromiseCancel() {
        let dp = DelayedPromise<Int, String>(on: .utility, { (resolver) in
            resolver.onRequestCancel(on: .immediate, { $0.cancel() })
        })
        let promise = dp.promise
        let expectation = XCTestExpectation(onCancel: promise)
        promise.requestCancel()
        wait(for: [expectation], timeout: 10)
    }

    func testStdDelayedPromise() {
        let dp = StdDelayedPromise<Int>(on: .utility, { $0.reject(with: TestError(1)) })
        let expectation = XCTestExpectation(onError: dp.promise, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(1))
        })
        wait(for: [expectation], timeout: 10)
    }
}
