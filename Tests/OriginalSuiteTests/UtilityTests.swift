// The original suite's UtilityTests: `delay(on:_:)`, `Promise(on:fulfilled:after:)` and its
// siblings, `timeout(on:delay:)` (both overloads), with operation queues and cancellation.

import Foundation
import TestSupport
import Tomorrowland
import XCTest

final class DelayTests: XCTestCase {
    func testDelay() {
        let start = Date()
        let promise = Promise<Int, String>(fulfilled: 42).delay(on: .utility, 0.05)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        wait(for: [expectation], timeout: 10)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.05)
    }

    func testDelayPassesErrorsAndCancellation() {
        let promise = Promise<Int, String>(rejected: "foo").delay(on: .utility, 0.01)
        let promise2 = Promise<Int, String>(with: .cancelled).delay(on: .utility, 0.01)
        let expectation = XCTestExpectation(onError: promise, expectedError: "foo")
        let expectation2 = XCTestExpectation(onCancel: promise2)
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testDelayDoesNotResolveEarly() {
        let promise = Promise<Int, String>(fulfilled: 42).delay(on: .utility, 1)
        XCTAssertNil(promise.result)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        wait(for: [expectation], timeout: 10)
    }

    func testDelayUsingMainContext() {
        let expectation = XCTestExpectation(description: "main")
        _ = Promise<Int, String>(fulfilled: 42).delay(on: .main, 0.01).then(on: .immediate, { _ in
            XCTAssertTrue(Thread.isMainThread)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
    }

    func testDelayDefaultContextIsAuto() {
        let expectation = XCTestExpectation(description: "auto on main")
        _ = Promise<Int, String>(fulfilled: 42).delay(0.01).then(on: .immediate, { _ in
            XCTAssertTrue(Thread.isMainThread)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
    }

    func testDelayImmediateMeansAuto() {
        let expectation = XCTestExpectation(description: "immediate is auto")
        _ = Promise<Int, String>(fulfilled: 42).delay(on: .immediate, 0.01).then(on: .immediate, { _ in
            XCTAssertTrue(Thread.isMainThread)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
    }

    func testDelayUsingQueue() {
        let queue = TestQueue()
        let expectation = XCTestExpectation(description: "queue")
        _ = Promise<Int, String>(fulfilled: 42).delay(on: .queue(queue.queue), 0.01).then(on: .immediate, { _ in
            XCTAssertTrue(queue.isCurrent)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
    }

    func testDelayUsingOperationQueue() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let expectation = XCTestExpectation(description: "operation queue")
        let promise = Promise<Int, String>(fulfilled: 42).delay(on: .operationQueue(queue), 0.2)
        // The operation is on the queue at once and becomes ready when the delay is over.
        XCTAssertEqual(queue.operations.count, 1)
        _ = promise.then(on: .immediate, { _ in
            XCTAssertTrue(OperationQueue.current === queue)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
    }

    func testDelayRequestCancelOnCancelledUpstreamSkipsDelay() {
        let promise: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (upstream, r) = Promise<Int, String>.makeCancellable()
            resolver = r
            promise = upstream.delay(on: .utility, 30)
        }
        let expectation = XCTestExpectation(onCancel: promise)
        promise.requestCancel()
        wait(for: [expectation], timeout: 10)
        withExtendedLifetime(resolver) {}
    }

    func testDelayRequestCancelAfterUpstreamCancelledSkipsDelay() {
        let promise = Promise<Int, String>(with: .cancelled).delay(on: .utility, 30)
        let expectation = XCTestExpectation(onCancel: promise)
        promise.requestCancel()
        wait(for: [expectation], timeout: 10)
    }

    func testDelayRequestCancelDoesNotShortenFulfilledDelay() {
        let promise = Promise<Int, String>(fulfilled: 42).delay(on: .utility, 0.1)
        promise.requestCancel()
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        wait(for: [expectation], timeout: 10)
    }

    func testDelayOfUnexpectedCancelIsStillDelayed() {
        let start = Date()
        let promise = Promise<Int, String>(with: .cancelled).delay(on: .utility, 0.1)
        let expectation = XCTestExpectation(onCancel: promise)
        wait(for: [expectation], timeout: 10)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.1)
    }

    // MARK: - init(after:)

    func testInitFulfilledAfter() {
        let start = Date()
        let promise = Promise<Int, String>(on: .utility, fulfilled: 42, after: 1)
        XCTAssertNil(promise.result)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        wait(for: [expectation], timeout: 10)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 1)
    }

    func testInitRejectedAfter() {
        let promise = Promise<Int, String>(on: .utility, rejected: "foo", after: 0.01)
        let expectation = XCTestExpectation(onError: promise, expectedError: "foo")
        wait(for: [expectation], timeout: 10)
    }

    func testInitWithResultAfter() {
        let promise = Promise<Int, String>(on: .utility, with: .value(1), after: 0.01)
        let promise2 = Promise<Int, String>(on: .utility, with: .cancelled, after: 0.01)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 1)
        let expectation2 = XCTestExpectation(onCancel: promise2)
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testInitAfterDefaultContextIsAuto() {
        let expectation = XCTestExpectation(description: "main")
        _ = Promise<Int, String>(fulfilled: 1, after: 0.01).then(on: .immediate, { _ in
            XCTAssertTrue(Thread.isMainThread)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
    }

    func testInitAfterOnQueue() {
        let queue = TestQueue()
        let expectation = XCTestExpectation(description: "queue")
        _ = Promise<Int, String>(on: .queue(queue.queue), fulfilled: 1, after: 0.01).then(on: .immediate, { _ in
            XCTAssertTrue(queue.isCurrent)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
    }

    func testInitAfterRequestCancelCancelsAtOnce() {
        let promise = Promise<Int, String>(on: .utility, fulfilled: 42, after: 30)
        promise.requestCancel()
        XCTAssertEqual(promise.result, .cancelled)
    }

    func testInitAfterRequestCancelReleasesValue() {
        var released = false
        let promise: Promise<NotifyOnDeinit, String>
        do {
            let value = NotifyOnDeinit { released = true }
            promise = Promise(on: .utility, fulfilled: value, after: 30)
        }
        XCTAssertFalse(released)
        promise.requestCancel()
        XCTAssertTrue(released)
    }

    func testInitAfterUsingOperationQueue() {
        let queue = OperationQueue()
        let expectation = XCTestExpectation(description: "operation queue")
        let promise = Promise<Int, String>(on: .operationQueue(queue), fulfilled: 1, after: 0.2)
        XCTAssertEqual(queue.operations.count, 1)
        _ = promise.then(on: .immediate, { _ in
            XCTAssertTrue(OperationQueue.current === queue)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
    }
}

final class TimeoutTests: XCTestCase {
    func testTimeout() {
        let (upstream, resolver) = Promise<Int, String>.makeWithResolver()
        let promise = upstream.timeout(on: .utility, delay: 0.05)
        let expectation = XCTestExpectation(onError: promise, expectedError: .timedOut)
        wait(for: [expectation], timeout: 10)
        withExtendedLifetime(resolver) {}
    }

    func testTimeoutSucceeds() {
        let promise = Promise<Int, String>(on: .utility, { $0.fulfill(with: 42) }).timeout(on: .utility, delay: 10)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        wait(for: [expectation], timeout: 10)
    }

    func testTimeoutRejected() {
        let promise = Promise<Int, String>(on: .utility, { $0.reject(with: "foo") }).timeout(on: .utility, delay: 10)
        let expectation = XCTestExpectation(onError: promise, expectedError: .rejected("foo"))
        wait(for: [expectation], timeout: 10)
    }

    func testTimeoutCancelled() {
        let promise = Promise<Int, String>(on: .utility, { $0.cancel() }).timeout(on: .utility, delay: 10)
        let expectation = XCTestExpectation(onCancel: promise)
        wait(for: [expectation], timeout: 10)
    }

    func testTimeoutResultAfterTimeoutIsIgnored() {
        let (upstream, resolver) = Promise<Int, String>.makeWithResolver()
        let promise = upstream.timeout(on: .utility, delay: 0.01)
        let expectation = XCTestExpectation(onError: promise, expectedError: .timedOut)
        wait(for: [expectation], timeout: 10)
        resolver.fulfill(with: 1)
        XCTAssertEqual(promise.result, .error(.timedOut))
    }

    func testTimeoutOnQueue() {
        let queue = TestQueue()
        let (upstream, resolver) = Promise<Int, String>.makeWithResolver()
        let expectation = XCTestExpectation(description: "queue")
        upstream.timeout(on: .queue(queue.queue), delay: 10).always(on: .immediate, { (result) in
            XCTAssertTrue(queue.isCurrent)
            XCTAssertEqual(result, .value(1))
            expectation.fulfill()
        })
        resolver.fulfill(with: 1)
        wait(for: [expectation], timeout: 10)
    }

    func testTimeoutUsingOperationQueue() {
        let queue = OperationQueue()
        let (upstream, resolver) = Promise<Int, String>.makeWithResolver()
        let expectation = XCTestExpectation(description: "operation queue")
        upstream.timeout(on: .operationQueue(queue), delay: 0.05).always(on: .immediate, { (result) in
            XCTAssertTrue(OperationQueue.current === queue)
            XCTAssertEqual(result, .error(.timedOut))
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
        withExtendedLifetime(resolver) {}
    }

    func testTimeoutOperationIsAddedAtOnce() {
        let queue = OperationQueue()
        let (upstream, resolver) = Promise<Int, String>.makeWithResolver()
        let promise = upstream.timeout(on: .operationQueue(queue), delay: 30)
        XCTAssertEqual(queue.operations.count, 1, "the timeout's operation waits in the queue, not ready")
        resolver.fulfill(with: 1)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 1)
        wait(for: [expectation], timeout: 10)
    }

    func testTimeoutDefaultContextOnResolvedPromiseIsResolved() {
        let promise = Promise<Int, String>(fulfilled: 42).timeout(delay: 1)
        XCTAssertEqual(promise.result, .value(42))
        let promise2 = Promise<Int, String>(rejected: "foo").timeout(delay: 1)
        XCTAssertEqual(promise2.result, .error(.rejected("foo")))
        let promise3 = StdPromise<Int>(fulfilled: 42).timeout(delay: 1)
        XCTAssertEqual(promise3.result?.value, 42)
    }

    func testTimeoutZeroDelayImmediateIsSynchronous() {
        let (upstream, resolver) = Promise<Int, String>.makeWithResolver()
        let promise = upstream.timeout(on: .immediate, delay: 0)
        XCTAssertEqual(promise.result, .error(.timedOut))
        let promise2 = upstream.timeout(on: .nowOr(.utility), delay: 0)
        XCTAssertEqual(promise2.result, .error(.timedOut))
        let promise3 = upstream.timeout(on: .nowOr(.utility), delay: -1)
        XCTAssertEqual(promise3.result, .error(.timedOut))
        withExtendedLifetime(resolver) {}
    }

    func testTimeoutZeroDelayOnQueueTimesOut() {
        let (upstream, resolver) = Promise<Int, String>.makeWithResolver()
        let promise = upstream.timeout(on: .utility, delay: 0)
        let expectation = XCTestExpectation(onError: promise, expectedError: .timedOut)
        wait(for: [expectation], timeout: 10)
        withExtendedLifetime(resolver) {}
    }

    func testTimeoutZeroDelayLosesToUpstreamResolvedFirst() {
        let queue = TestQueue()
        let (upstream, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate, { $0.cancel() })
        var promise: Promise<Int, PromiseTimeoutError<String>>!
        queue.queue.sync {
            // The timer's work is queued behind this block: the upstream resolves first.
            promise = upstream.timeout(on: .queue(queue.queue), delay: 0)
            upstream.requestCancel()
        }
        let expectation = XCTestExpectation(onCancel: promise)
        wait(for: [expectation], timeout: 10)
    }

    func testTimeoutPropagatesCancel() {
        let requested = Locked(false)
        let promise: Promise<Int, PromiseTimeoutError<String>>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (upstream, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            promise = upstream.timeout(on: .utility, delay: 10)
        }
        let expectation = XCTestExpectation(onCancel: promise)
        promise.requestCancel()
        wait(for: [expectation], timeout: 10)
        XCTAssertTrue(requested.value)
        withExtendedLifetime(resolver) {}
    }

    func testTimeoutGivesUpObserverSlotWhenItFires() {
        let requested = Locked(false)
        let promise: Promise<Int, PromiseTimeoutError<String>>
        let sibling: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (upstream, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            sibling = upstream.map(on: .immediate, { $0 })
            promise = upstream.timeout(on: .utility, delay: 0.5)
        }
        sibling.requestCancel()
        XCTAssertFalse(requested.value, "the pending timeout is still an observer")
        let expectation = XCTestExpectation(onError: promise, expectedError: .timedOut)
        let expectation2 = XCTestExpectation(onCancel: sibling)
        wait(for: [expectation, expectation2], timeout: 10)
        XCTAssertTrue(requested.value)
        withExtendedLifetime(resolver) {}
    }

    func testTimeoutAsOnlyChildCancelsUpstreamWhenItFires() {
        let requested = Locked(false)
        let promise: Promise<Int, PromiseTimeoutError<String>>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (upstream, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            promise = upstream.timeout(on: .utility, delay: 0.05)
        }
        let expectation = XCTestExpectation(onError: promise, expectedError: .timedOut)
        wait(for: [expectation], timeout: 10)
        let deadline = Date().addingTimeInterval(10)
        while !requested.value && Date() < deadline {
            usleep(1000)
        }
        XCTAssertTrue(requested.value)
        withExtendedLifetime(resolver) {}
    }

    // MARK: - Error == Swift.Error

    func testStdTimeout() {
        let (upstream, resolver) = StdPromise<Int>.makeWithResolver()
        let promise: StdPromise<Int> = upstream.timeout(on: .utility, delay: 0.05)
        let expectation = XCTestExpectation(onError: promise, handler: { (error) in
            guard let error = error as? PromiseTimeoutError<Swift.Error>, case .timedOut = error else {
                return XCTFail("expected PromiseTimeoutError<Swift.Error>.timedOut, got \(error)")
            }
        })
        wait(for: [expectation], timeout: 10)
        withExtendedLifetime(resolver) {}
    }

    func testStdTimeoutPassesErrorsThrough() {
        let promise = StdPromise<Int>(on: .utility, { $0.reject(with: TestError(3)) }).timeout(on: .utility, delay: 10)
        let expectation = XCTestExpectation(onError: promise, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(3))
        })
        let promise2 = StdPromise<Int>(on: .utility, { $0.fulfill(with: 5) }).timeout(on: .utility, delay: 10)
        let expectation2 = XCTestExpectation(onSuccess: promise2, expectedValue: 5)
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testStdTimeoutZeroDelayImmediate() {
        let (upstream, resolver) = StdPromise<Int>.makeWithResolver()
        let promise = upstream.timeout(on: .immediate, delay: 0)
        XCTAssertNotNil(promise.result?.error as? PromiseTimeoutError<Swift.Error>)
        withExtendedLifetime(resolver) {}
    }

    // MARK: - PromiseTimeoutError

    func testPromiseTimeoutErrorEquality() {
        XCTAssertEqual(PromiseTimeoutError<String>.timedOut, .timedOut)
        XCTAssertEqual(PromiseTimeoutError<String>.rejected("a"), .rejected("a"))
        XCTAssertNotEqual(PromiseTimeoutError<String>.rejected("a"), .rejected("b"))
        XCTAssertNotEqual(PromiseTimeoutError<String>.rejected("a"), .timedOut)
        XCTAssertEqual(Set<PromiseTimeoutError<String>>([.timedOut, .timedOut, .rejected("a")]).count, 2)
    }

    func testPromiseTimeoutErrorUserInfo() {
        let timedOut = PromiseTimeoutError<String>.timedOut
        XCTAssertEqual(timedOut.errorUserInfo[NSLocalizedFailureReasonErrorKey] as? String, "The operation timed out.")
        let rejected = PromiseTimeoutError<String>.rejected("foo")
        XCTAssertEqual(rejected.errorUserInfo[NSLocalizedFailureReasonErrorKey] as? String, "foo")
        let underlying = NSError(domain: "TestDomain", code: 7, userInfo: [NSLocalizedDescriptionKey: "underlying failure"])
        let rejectedError = PromiseTimeoutError<Swift.Error>.rejected(underlying)
        XCTAssertEqual(rejectedError.errorUserInfo[NSLocalizedDescriptionKey] as? String, "underlying failure")
        let nsUnderlying = rejectedError.errorUserInfo[NSUnderlyingErrorKey] as? NSError
        XCTAssertEqual(nsUnderlying?.domain, "TestDomain")
        XCTAssertEqual(nsUnderlying?.code, 7)
    }
}
