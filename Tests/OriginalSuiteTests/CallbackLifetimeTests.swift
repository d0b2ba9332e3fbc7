// The original suite's callback-lifetime tests: an invoked callback is released on the context
// it ran on, before the next chained `.main` callback runs; a callback that is not invoked is
// released on the resolving thread; every callback is released once the promise resolves.

import Foundation
import Tomorrowland
import XCTest

final class CallbackLifetimeTests: XCTestCase {
    func testInvokedCallbackReleasedOnItsContext() {
        let queue = TestQueue()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let expectation = XCTestExpectation(description: "released")
        do {
            let notifier = NotifyOnDeinit {
                XCTAssertTrue(queue.isCurrent, "released on the callback's queue")
                expectation.fulfill()
            }
            _ = promise.then(on: .queue(queue.queue), { _ in
                withExtendedLifetime(notifier) {}
            })
        }
        resolver.fulfill(with: 42)
        wait(for: [expectation], timeout: 10)
    }

    func testInvokedCallbackReleasedOnMain() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let expectation = XCTestExpectation(description: "released")
        do {
            let notifier = NotifyOnDeinit {
                XCTAssertTrue(Thread.isMainThread)
                expectation.fulfill()
            }
            _ = promise.map(on: .main, { (x) -> Int in
                withExtendedLifetime(notifier) {}
                return x
            })
        }
        DispatchQueue.global(qos: .utility).async {
            resolver.fulfill(with: 42)
        }
        wait(for: [expectation], timeout: 10)
    }

    func testEveryInvokedCallbackKindReleasedOnItsContext() {
        let queue = TestQueue()
        var expectations: [XCTestExpectation] = []
        func notifier(_ name: String) -> NotifyOnDeinit {
            let expectation = XCTestExpectation(description: name)
            expectations.append(expectation)
            return NotifyOnDeinit {
                XCTAssertTrue(queue.isCurrent, "\(name) released off its queue")
                expectation.fulfill()
            }
        }
        let context = PromiseContext.queue(queue.queue)
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let (rejected, rejecter) = Promise<Int, String>.makeWithResolver()
        do {
            let n1 = notifier("always")
            promise.always(on: context, { _ in withExtendedLifetime(n1) {} })
            let n2 = notifier("mapResult")
            _ = promise.mapResult(on: context, { (r) -> PromiseResult<Int, String> in withExtendedLifetime(n2) {}; return r })
            let n3 = notifier("flatMap")
            _ = promise.flatMap(on: context, { (x) -> Promise<Int, String> in withExtendedLifetime(n3) {}; return Promise(fulfilled: x) })
            let n4 = notifier("tap")
            promise.tap(on: context, { _ in withExtendedLifetime(n4) {} })
            let n5 = notifier("catch")
            rejected.catch(on: context, { _ in withExtendedLifetime(n5) {} })
            let n6 = notifier("recover")
            _ = rejected.recover(on: context, { _ in withExtendedLifetime(n6) {}; return 0 })
            let n7 = notifier("mapError")
            _ = rejected.mapError(on: context, { (e) -> Int in withExtendedLifetime(n7) {}; return 0 })
        }
        resolver.fulfill(with: 1)
        rejecter.reject(with: "foo")
        wait(for: expectations, timeout: 10)
    }

    func testNotInvokedCallbackReleasedOnResolvingThread() {
        let resolvingQueue = TestQueue(label: "resolving")
        let callbackQueue = TestQueue(label: "callback")
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let expectation = XCTestExpectation(description: "released")
        do {
            let notifier = NotifyOnDeinit {
                XCTAssertTrue(resolvingQueue.isCurrent, "a callback that does not run is released where the promise resolved")
                expectation.fulfill()
            }
            _ = promise.then(on: .queue(callbackQueue.queue), { _ in
                withExtendedLifetime(notifier) {}
                XCTFail("then invoked on rejection")
            })
        }
        resolvingQueue.queue.async {
            resolver.reject(with: "foo")
        }
        wait(for: [expectation], timeout: 10)
    }

    func testCallbacksReleasedWhenPromiseResolves() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var released = 0
        do {
            let notifier1 = NotifyOnDeinit { released += 1 }
            let notifier2 = NotifyOnDeinit { released += 1 }
            promise.catch(on: .immediate, { _ in withExtendedLifetime(notifier1) {} })
            promise.onCancel(on: .immediate, { withExtendedLifetime(notifier2) {} })
        }
        XCTAssertEqual(released, 0)
        resolver.fulfill(with: 1)
        XCTAssertEqual(released, 2)
    }

    func testImmediateCallbackReleasedAfterRunning() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var events: [String] = []
        do {
            let notifier = NotifyOnDeinit { events.append("released") }
            _ = promise.then(on: .immediate, { _ in
                withExtendedLifetime(notifier) {}
                events.append("ran")
            })
        }
        resolver.fulfill(with: 1)
        XCTAssertEqual(events, ["ran", "released"])
    }

    func testChainedMainCallbacksReleasedBeforeTheNextRuns() {
        var events: [String] = []
        let expectation = XCTestExpectation(description: "done")
        let promise = Promise<Int, String>(on: .utility, { $0.fulfill(with: 1) })
        let next: Promise<Int, String>
        do {
            let notifier = NotifyOnDeinit { events.append("first released") }
            next = promise.then(on: .main, { _ in
                withExtendedLifetime(notifier) {}
                events.append("first ran")
            })
        }
        _ = next.then(on: .main, { _ in
            events.append("second ran")
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(events, ["first ran", "first released", "second ran"])
    }

    func testInitHandlerReleasedOnItsContext() {
        let queue = TestQueue()
        let expectation = XCTestExpectation(description: "released")
        let promise: Promise<Int, String>
        // The handler waits until `init` has returned, so that the caller's reference to it
        // is gone before it finishes.
        let initReturned = DispatchSemaphore(value: 0)
        do {
            let notifier = NotifyOnDeinit {
                XCTAssertTrue(queue.isCurrent)
                expectation.fulfill()
            }
            promise = Promise(on: .queue(queue.queue), { (resolver) in
                initReturned.wait()
                withExtendedLifetime(notifier) {}
                resolver.fulfill(with: 1)
            })
        }
        initReturned.signal()
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(promise.result, .value(1))
    }

    func testInvalidatedCallbackReleased() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let queue = TestQueue()
        let expectation = XCTestExpectation(description: "released")
        do {
            let notifier = NotifyOnDeinit { expectation.fulfill() }
            _ = promise.then(on: .queue(queue.queue), token: token, { _ in
                withExtendedLifetime(notifier) {}
                XCTFail()
            })
        }
        token.invalidate()
        resolver.fulfill(with: 1)
        wait(for: [expectation], timeout: 10)
    }

    func testPropagatingCancellationHandlerReleasedAfterRunning() {
        var released = false
        let promise: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            resolver = r
            let notifier = NotifyOnDeinit { released = true }
            promise = parent.propagatingCancellation(on: .immediate, cancelRequested: { _ in
                withExtendedLifetime(notifier) {}
            })
        }
        XCTAssertFalse(released)
        promise.requestCancel()
        resolver.cancel()
        XCTAssertTrue(released)
    }
}
