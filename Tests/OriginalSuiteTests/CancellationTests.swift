// The original suite's cancellation tests: `requestCancel`, `onRequestCancel`,
// `hasRequestedCancel`, automatic propagation from children (which children count, and when
// the parent is asked), `propagatingCancellation`, `makeChild`, `ignoringCancel`, `tap`,
// `onCancel`, `resolve(with:)` and flatMap pipes, `cancellable`.

import Foundation
import TestSupport
import Tomorrowland
import XCTest

final class CancellationTests: XCTestCase {
    // MARK: - Requests and handlers

    func testRequestCancelIsOnlyARequest() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var handlerCalls = 0
        resolver.onRequestCancel(on: .immediate, { _ in
            handlerCalls += 1
        })
        XCTAssertFalse(resolver.hasRequestedCancel)
        promise.requestCancel()
        XCTAssertEqual(handlerCalls, 1)
        XCTAssertNil(promise.result)
        XCTAssertTrue(resolver.hasRequestedCancel)
        resolver.fulfill(with: 42)
        XCTAssertEqual(promise.result, .value(42))
        XCTAssertFalse(resolver.hasRequestedCancel)
    }

    func testRequestCancelTwiceRunsHandlersOnce() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var handlerCalls = 0
        resolver.onRequestCancel(on: .immediate, { _ in handlerCalls += 1 })
        promise.requestCancel()
        promise.requestCancel()
        XCTAssertEqual(handlerCalls, 1)
        withExtendedLifetime(resolver) {}
    }

    func testRequestCancelHandlerCancels() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.onRequestCancel(on: .utility, { (resolver) in
            resolver.cancel()
        })
        let expectation = XCTestExpectation(onCancel: promise)
        promise.requestCancel()
        wait(for: [expectation], timeout: 10)
    }

    func testRequestCancelHandlerRunsOnItsContext() {
        let queue = TestQueue()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let expectation = XCTestExpectation(description: "onRequestCancel")
        resolver.onRequestCancel(on: .queue(queue.queue), { _ in
            XCTAssertTrue(queue.isCurrent)
            expectation.fulfill()
        })
        promise.requestCancel()
        wait(for: [expectation], timeout: 10)
        withExtendedLifetime(resolver) {}
    }

    func testRequestCancelHandlersRunInRegistrationOrder() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var order: [Int] = []
        for i in 0..<5 {
            resolver.onRequestCancel(on: .immediate, { _ in order.append(i) })
        }
        promise.requestCancel()
        XCTAssertEqual(order, [0, 1, 2, 3, 4])
        withExtendedLifetime(resolver) {}
    }

    func testOnRequestCancelAfterRequestRunsAtOnce() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        promise.requestCancel()
        var invoked = false
        resolver.onRequestCancel(on: .immediate, { _ in invoked = true })
        XCTAssertTrue(invoked)
        var invokedNowOr = false
        resolver.onRequestCancel(on: .nowOr(.main), { _ in invokedNowOr = true })
        XCTAssertTrue(invokedNowOr, ".nowOr runs synchronously once cancel was requested")
        let expectation = XCTestExpectation(description: "utility")
        resolver.onRequestCancel(on: .utility, { _ in expectation.fulfill() })
        wait(for: [expectation], timeout: 10)
    }

    func testOnRequestCancelNowOrBeforeRequestRunsOnContext() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let expectation = XCTestExpectation(description: "nowOr")
        resolver.onRequestCancel(on: .nowOr(.utility), { _ in
            XCTAssertFalse(Thread.isMainThread)
            XCTAssertFalse(PromiseContext.isExecutingNow)
            expectation.fulfill()
        })
        promise.requestCancel()
        wait(for: [expectation], timeout: 10)
        withExtendedLifetime(resolver) {}
    }

    func testOnRequestCancelAfterCancelRunsAtOnce() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.cancel()
        var invoked = false
        resolver.onRequestCancel(on: .immediate, { _ in invoked = true })
        XCTAssertTrue(invoked)
        XCTAssertEqual(promise.result, .cancelled)
    }

    func testOnRequestCancelAfterFulfillNeverRuns() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.fulfill(with: 1)
        resolver.onRequestCancel(on: .immediate, { _ in XCTFail("handler ran after fulfil") })
        promise.requestCancel()
        let (promise2, resolver2) = Promise<Int, String>.makeWithResolver()
        resolver2.reject(with: "foo")
        resolver2.onRequestCancel(on: .immediate, { _ in XCTFail("handler ran after reject") })
        promise2.requestCancel()
        XCTAssertEqual(promise.result, .value(1))
        XCTAssertEqual(promise2.result, .error("foo"))
    }

    func testRequestCancelOnResolvedPromiseDoesNothing() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate, { _ in XCTFail("handler ran") })
        resolver.fulfill(with: 42)
        promise.requestCancel()
        XCTAssertEqual(promise.result, .value(42))
        XCTAssertFalse(resolver.hasRequestedCancel)
    }

    func testOnRequestCancelHandlerReleasedOnResolution() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var released = false
        do {
            let notifier = NotifyOnDeinit { released = true }
            resolver.onRequestCancel(on: .immediate, { _ in withExtendedLifetime(notifier) {} })
        }
        XCTAssertFalse(released)
        resolver.fulfill(with: 1)
        XCTAssertTrue(released)
        withExtendedLifetime(promise) {}
    }

    func testScheduledHandlerStillRunsWhenCancelledMeanwhile() {
        // Handlers that each call `resolver.cancel()` all run, in order.
        let queue = TestQueue()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var order: [Int] = []
        let expectation = XCTestExpectation(description: "handlers")
        expectation.expectedFulfillmentCount = 3
        for i in 0..<3 {
            resolver.onRequestCancel(on: .queue(queue.queue), { (resolver) in
                order.append(i)
                resolver.cancel()
                expectation.fulfill()
            })
        }
        promise.requestCancel()
        wait(for: [expectation], timeout: 10)
        queue.queue.sync {
            XCTAssertEqual(order, [0, 1, 2])
        }
        XCTAssertEqual(promise.result, .cancelled)
    }

    func testHasRequestedCancel() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        XCTAssertFalse(resolver.hasRequestedCancel)
        promise.requestCancel()
        XCTAssertTrue(resolver.hasRequestedCancel)
        resolver.cancel()
        XCTAssertTrue(resolver.hasRequestedCancel)

        let (promise2, resolver2) = Promise<Int, String>.makeWithResolver()
        promise2.requestCancel()
        resolver2.reject(with: "foo")
        XCTAssertFalse(resolver2.hasRequestedCancel)

        let (_, resolver3) = Promise<Int, String>.makeWithResolver()
        resolver3.cancel()
        XCTAssertTrue(resolver3.hasRequestedCancel)
    }

    func testHasRequestedCancelInsideHandler() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var seen: Bool?
        resolver.onRequestCancel(on: .immediate, { (resolver) in
            seen = resolver.hasRequestedCancel
        })
        promise.requestCancel()
        XCTAssertEqual(seen, true)
    }

    func testLongRunningInitObservesHasRequestedCancel() {
        let sema = DispatchSemaphore(value: 0)
        let promise = Promise<Int, String>(on: .utility, { (resolver) in
            sema.wait()
            if resolver.hasRequestedCancel {
                resolver.cancel()
            } else {
                resolver.fulfill(with: 42)
            }
        })
        let expectation = XCTestExpectation(onCancel: promise)
        promise.requestCancel()
        sema.signal()
        wait(for: [expectation], timeout: 10)
    }

    // MARK: - Propagation from children

    /// A child made by `makeChild` from a parent whose only handle is gone: cancelling the child
    /// asks the parent, whose handler cancels it, so the child ends cancelled.
    private func assertCancelPropagates<T, E>(file: StaticString = #file, line: UInt = #line, _ makeChild: (Promise<Int, String>) -> Promise<T, E>) {
        let requested = Locked(0)
        let child: Promise<T, E>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { (resolver) in
                requested.modify({ $0 += 1 })
                resolver.cancel()
            })
            resolver = r
            child = makeChild(parent)
        }
        let expectation = XCTestExpectation(onCancel: child, file: file, line: line)
        child.requestCancel()
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(requested.value, 1, "parent asked to cancel once", file: file, line: line)
        withExtendedLifetime(resolver) {}
    }

    func testPropagateCancelThen() {
        assertCancelPropagates({ $0.then(on: .utility, { _ in XCTFail() }) })
    }

    func testPropagateCancelMap() {
        assertCancelPropagates({ $0.map(on: .utility, { String($0) }) })
    }

    func testPropagateCancelFlatMap() {
        assertCancelPropagates({ $0.flatMap(on: .utility, { Promise<String, String>(fulfilled: String($0)) }) })
    }

    func testPropagateCancelCatch() {
        assertCancelPropagates({ $0.catch(on: .utility, { _ in XCTFail() }) })
    }

    func testPropagateCancelRecover() {
        assertCancelPropagates({ $0.recover(on: .utility, { _ in 0 }) })
    }

    func testPropagateCancelMapError() {
        assertCancelPropagates({ $0.mapError(on: .utility, { $0.count }) })
    }

    func testPropagateCancelFlatMapError() {
        assertCancelPropagates({ $0.flatMapError(on: .utility, { Promise<Int, Int>(rejected: $0.count) }) })
    }

    func testPropagateCancelTryMapError() {
        assertCancelPropagates({ $0.tryMapError(on: .utility, { TestError($0.count) }) })
    }

    func testPropagateCancelTryFlatMapError() {
        assertCancelPropagates({ $0.tryFlatMapError(on: .utility, { Promise<Int, TestError>(rejected: TestError($0.count)) }) })
    }

    func testPropagateCancelAlways() {
        assertCancelPropagates({ $0.always(on: .utility, { _ in }) })
    }

    func testPropagateCancelMapResult() {
        assertCancelPropagates({ $0.mapResult(on: .utility, { $0 }) })
    }

    func testPropagateCancelFlatMapResult() {
        assertCancelPropagates({ $0.flatMapResult(on: .utility, { Promise(with: $0) }) })
    }

    func testPropagateCancelTryMapResult() {
        assertCancelPropagates({ $0.tryMapResult(on: .utility, { (result) -> PromiseResult<Int, TestError> in .cancelled }) })
    }

    func testPropagateCancelTryFlatMapResult() {
        assertCancelPropagates({ $0.tryFlatMapResult(on: .utility, { (result) -> Promise<Int, TestError> in Promise(with: .cancelled) }) })
    }

    func testPropagateCancelMakeChild() {
        assertCancelPropagates({ $0.makeChild() })
    }

    func testPropagateCancelOnCancelAsOnlyChild() {
        assertCancelPropagates({ $0.onCancel(on: .utility, {}) })
    }

    func testPropagateCancelDelay() {
        assertCancelPropagates({ $0.delay(on: .utility, 0.05) })
    }

    func testPropagateCancelTimeout() {
        assertCancelPropagates({ $0.timeout(on: .utility, delay: 10) })
    }

    func testPropagateCancelStdTryVariants() {
        func check<T>(_ makeChild: (StdPromise<Int>) -> StdPromise<T>, line: UInt = #line) {
            let requested = Locked(false)
            let child: StdPromise<T>
            let resolver: StdPromise<Int>.Resolver
            do {
                let (parent, r) = StdPromise<Int>.makeWithResolver()
                r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
                resolver = r
                child = makeChild(parent)
            }
            let expectation = XCTestExpectation(onCancel: child, line: line)
            child.requestCancel()
            wait(for: [expectation], timeout: 10)
            XCTAssertTrue(requested.value, line: line)
            withExtendedLifetime(resolver) {}
        }
        check({ $0.tryThen(on: .utility, { _ in }) })
        check({ $0.tryMap(on: .utility, { $0 + 1 }) })
        check({ $0.tryFlatMap(on: .utility, { Promise<Int, TestError>(fulfilled: $0) }) })
        check({ $0.tryRecover(on: .utility, { _ in 0 }) })
    }

    func testPropagateCancelThroughAChain() {
        let requested = Locked(false)
        let grandchild: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            grandchild = parent.map(on: .utility, { $0 + 1 }).then(on: .utility, { _ in }).map(on: .utility, { $0 * 2 })
        }
        let expectation = XCTestExpectation(onCancel: grandchild)
        grandchild.requestCancel()
        wait(for: [expectation], timeout: 10)
        XCTAssertTrue(requested.value)
        withExtendedLifetime(resolver) {}
    }

    func testChildRequestWaitsForLastParentHandle() {
        let requested = Locked(false)
        var parent: Promise<Int, String>?
        let child: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (p, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            parent = p
            child = p.map(on: .utility, { $0 + 1 })
        }
        let expectation = XCTestExpectation(onCancel: child)
        child.requestCancel()
        XCTAssertFalse(requested.value, "the parent may still get more children")
        XCTAssertNil(child.result)
        parent = nil
        wait(for: [expectation], timeout: 10)
        XCTAssertTrue(requested.value)
        withExtendedLifetime(resolver) {}
    }

    func testChildRequestDoesNotCancelChildItself() {
        let (parent, resolver) = Promise<Int, String>.makeWithResolver()
        let child = parent.map(on: .immediate, { $0 + 1 })
        child.requestCancel()
        XCTAssertNil(child.result)
        resolver.fulfill(with: 41)
        XCTAssertEqual(child.result, .value(42))
    }

    func testPropagateCancelOnlyWhenAllChildrenRequest() {
        let requested = Locked(false)
        let child1: Promise<Int, String>
        let child2: Promise<String, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            child1 = parent.map(on: .utility, { $0 + 1 })
            child2 = parent.map(on: .utility, { String($0) })
        }
        let expectation1 = XCTestExpectation(onCancel: child1)
        let expectation2 = XCTestExpectation(onCancel: child2)
        child1.requestCancel()
        XCTAssertFalse(requested.value)
        child2.requestCancel()
        wait(for: [expectation1, expectation2], timeout: 10)
        XCTAssertTrue(requested.value)
        withExtendedLifetime(resolver) {}
    }

    func testChildThatDoesNotRequestKeepsParentRunning() {
        let requested = Locked(false)
        let child1: Promise<Int, String>
        let child2: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            child1 = parent.map(on: .utility, { $0 + 1 })
            child2 = parent.map(on: .utility, { $0 + 2 })
        }
        child1.requestCancel()
        let expectation1 = XCTestExpectation(onSuccess: child1, expectedValue: 2)
        let expectation2 = XCTestExpectation(onSuccess: child2, expectedValue: 3)
        resolver.fulfill(with: 1)
        wait(for: [expectation1, expectation2], timeout: 10)
        XCTAssertFalse(requested.value)
    }

    func testParentWithoutObserversIsNotCancelledWhenDropped() {
        let requested = Locked(false)
        let resolver: Promise<Int, String>.Resolver
        do {
            let (_, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { _ in requested.value = true })
            resolver = r
        }
        XCTAssertFalse(requested.value)
        XCTAssertFalse(resolver.hasRequestedCancel)
    }

    func testTapDoesNotCountAsObserver() {
        let requested = Locked(false)
        let child: Promise<Int, String>
        let tapped: Promise<Int, String>
        var tapCallbackResult: PromiseResult<Int, String>?
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            child = parent.map(on: .utility, { $0 + 1 })
            tapped = parent.tap()
            parent.tap(on: .immediate, { tapCallbackResult = $0 })
        }
        let expectation = XCTestExpectation(onCancel: child)
        let expectation2 = XCTestExpectation(onCancel: tapped)
        child.requestCancel()
        wait(for: [expectation, expectation2], timeout: 10)
        XCTAssertTrue(requested.value)
        XCTAssertEqual(tapCallbackResult, .cancelled)
        withExtendedLifetime(resolver) {}
    }

    func testTapRequestCancelDoesNotPropagate() {
        let requested = Locked(false)
        let tapped: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            tapped = parent.tap()
        }
        tapped.requestCancel()
        XCTAssertFalse(requested.value)
        XCTAssertNil(tapped.result)
        resolver.fulfill(with: 1)
        XCTAssertEqual(tapped.result, .value(1))
    }

    func testIgnoringCancel() {
        let requested = Locked(false)
        let promise: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            promise = parent.ignoringCancel()
        }
        promise.requestCancel()
        XCTAssertFalse(requested.value)
        XCTAssertNil(promise.result)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        resolver.fulfill(with: 42)
        wait(for: [expectation], timeout: 10)
    }

    func testIgnoringCancelBlocksPropagationFromSiblings() {
        let requested = Locked(false)
        let child: Promise<Int, String>
        let ignoring: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            child = parent.map(on: .immediate, { $0 + 1 })
            ignoring = parent.ignoringCancel()
        }
        child.requestCancel()
        ignoring.requestCancel()
        XCTAssertFalse(requested.value)
        resolver.fulfill(with: 1)
        XCTAssertEqual(child.result, .value(2))
        XCTAssertEqual(ignoring.result, .value(1))
    }

    func testIgnoringCancelPassesCancellationThrough() {
        let promise = Promise<Int, String>(with: .cancelled).ignoringCancel()
        let expectation = XCTestExpectation(onCancel: promise)
        wait(for: [expectation], timeout: 10)
    }

    func testOnCancelDoesNotBlockPropagationFromSiblings() {
        let requested = Locked(false)
        let child: Promise<Int, String>
        var onCancelInvoked = false
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            child = parent.map(on: .immediate, { $0 + 1 })
            parent.onCancel(on: .immediate, { onCancelInvoked = true })
        }
        child.requestCancel()
        XCTAssertTrue(requested.value)
        XCTAssertTrue(onCancelInvoked)
        XCTAssertEqual(child.result, .cancelled)
        withExtendedLifetime(resolver) {}
    }

    func testObserverAddedAfterPropagatedCancelGetsCancelled() {
        let (parent, resolver) = Promise<Int, String>.makeCancellable()
        let child = parent.map(on: .immediate, { $0 + 1 })
        parent.requestCancel()
        XCTAssertEqual(parent.result, .cancelled)
        XCTAssertEqual(child.result, .cancelled)
        let late = parent.map(on: .immediate, { $0 + 2 })
        XCTAssertEqual(late.result, .cancelled)
        withExtendedLifetime(resolver) {}
    }

    // MARK: - makeChild / propagatingCancellation

    func testMakeChildrenMustAllRequest() {
        let requested = Locked(false)
        let child1: Promise<Int, String>
        let child2: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            child1 = parent.makeChild()
            child2 = parent.makeChild()
        }
        child1.requestCancel()
        XCTAssertFalse(requested.value)
        child2.requestCancel()
        XCTAssertTrue(requested.value)
        XCTAssertEqual(child1.result, .cancelled)
        XCTAssertEqual(child2.result, .cancelled)
        withExtendedLifetime(resolver) {}
    }

    func testPropagatingCancellation() {
        let requested = Locked(false)
        var cancelRequestedCalls: [Promise<Int, String>] = []
        let promise: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            promise = parent.propagatingCancellation(on: .immediate, cancelRequested: { (promise) in
                cancelRequestedCalls.append(promise)
            })
        }
        let child1 = promise.makeChild()
        let child2 = promise.map(on: .immediate, { $0 + 1 })
        child1.requestCancel()
        XCTAssertFalse(requested.value)
        XCTAssertTrue(cancelRequestedCalls.isEmpty)
        // `promise` is still held here: propagatingCancellation forwards anyway.
        child2.requestCancel()
        XCTAssertEqual(cancelRequestedCalls, [promise])
        XCTAssertTrue(requested.value)
        XCTAssertEqual(promise.result, .cancelled)
        XCTAssertEqual(child1.result, .cancelled)
        XCTAssertEqual(child2.result, .cancelled)
        withExtendedLifetime(resolver) {}
    }

    func testPropagatingCancellationOnOtherContext() {
        let queue = TestQueue()
        let requested = Locked(false)
        let promise: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        let expectation = XCTestExpectation(description: "cancelRequested")
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            promise = parent.propagatingCancellation(on: .queue(queue.queue), cancelRequested: { _ in
                XCTAssertTrue(queue.isCurrent)
                expectation.fulfill()
            })
        }
        let child = promise.makeChild()
        let expectation2 = XCTestExpectation(onCancel: child)
        child.requestCancel()
        wait(for: [expectation, expectation2], timeout: 10)
        XCTAssertTrue(requested.value)
        withExtendedLifetime(resolver) {}
    }

    func testPropagatingCancellationRequestCancelDirectly() {
        let requested = Locked(false)
        var cancelRequestedCalls = 0
        let promise: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            promise = parent.propagatingCancellation(on: .immediate, cancelRequested: { _ in
                cancelRequestedCalls += 1
            })
        }
        promise.requestCancel()
        XCTAssertEqual(cancelRequestedCalls, 1)
        XCTAssertTrue(requested.value)
        XCTAssertEqual(promise.result, .cancelled)
        withExtendedLifetime(resolver) {}
    }

    func testPropagatingCancellationDoesNotCancelItselfIfUpstreamIgnores() {
        var cancelRequestedCalls = 0
        let promise: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            resolver = r
            promise = parent.propagatingCancellation(on: .immediate, cancelRequested: { _ in
                cancelRequestedCalls += 1
            })
        }
        let child = promise.makeChild()
        child.requestCancel()
        XCTAssertEqual(cancelRequestedCalls, 1)
        XCTAssertTrue(resolver.hasRequestedCancel)
        XCTAssertNil(promise.result)
        resolver.fulfill(with: 42)
        XCTAssertEqual(promise.result, .value(42))
        XCTAssertEqual(child.result, .value(42))
    }

    func testPropagatingCancellationDedupPattern() {
        // The README's pattern: a shared load, each caller gets its own child.
        let requested = Locked(0)
        var loads: [Int: Promise<Int, String>] = [:]
        var resolvers: [Promise<Int, String>.Resolver] = []
        func load(_ key: Int) -> Promise<Int, String> {
            let promise: Promise<Int, String>
            if let existing = loads[key] {
                promise = existing
            } else {
                let (p, r) = Promise<Int, String>.makeWithResolver()
                r.onRequestCancel(on: .immediate, { requested.modify({ $0 += 1 }); $0.cancel() })
                resolvers.append(r)
                promise = p.propagatingCancellation(on: .immediate, cancelRequested: { (promise) in
                    if loads[key] == promise {
                        loads[key] = nil
                    }
                })
                loads[key] = promise
            }
            return promise.makeChild()
        }
        let a = load(1)
        let b = load(1)
        XCTAssertEqual(resolvers.count, 1)
        a.requestCancel()
        XCTAssertEqual(requested.value, 0)
        XCTAssertNotNil(loads[1])
        b.requestCancel()
        XCTAssertEqual(requested.value, 1)
        XCTAssertNil(loads[1])
        XCTAssertEqual(a.result, .cancelled)
        XCTAssertEqual(b.result, .cancelled)
    }

    // MARK: - Pipes: resolve(with:) and flatMap

    func testResolveWithPromiseParticipatesInPropagation() {
        // Cancelling the resolver's promise asks the other promise only once every one of its
        // children asked.
        let requested = Locked(false)
        let outer: Promise<Int, String>
        let sibling: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (inner, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            sibling = inner.map(on: .immediate, { $0 + 1 })
            outer = Promise<Int, String>(on: .immediate, { $0.resolve(with: inner) })
        }
        outer.requestCancel()
        XCTAssertFalse(requested.value, "the inner promise has another child")
        XCTAssertNil(outer.result)
        sibling.requestCancel()
        XCTAssertTrue(requested.value)
        XCTAssertEqual(outer.result, .cancelled)
        XCTAssertEqual(sibling.result, .cancelled)
        withExtendedLifetime(resolver) {}
    }

    func testResolveWithPromisePropagatesCancelWhenOnlyChild() {
        let requested = Locked(false)
        let outer: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (inner, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            outer = Promise<Int, String>(on: .immediate, { $0.resolve(with: inner) })
        }
        let expectation = XCTestExpectation(onCancel: outer)
        outer.requestCancel()
        wait(for: [expectation], timeout: 10)
        XCTAssertTrue(requested.value)
        withExtendedLifetime(resolver) {}
    }

    func testResolveWithIgnoringCancelBreaksLink() {
        let requested = Locked(false)
        let outer: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (inner, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            outer = Promise<Int, String>(on: .immediate, { $0.resolve(with: inner.ignoringCancel()) })
        }
        outer.requestCancel()
        XCTAssertFalse(requested.value)
        resolver.fulfill(with: 5)
        XCTAssertEqual(outer.result, .value(5))
    }

    func testFlatMapInnerPromiseParticipatesInPropagation() {
        let requested = Locked(false)
        let sibling: Promise<String, String>
        let innerResolver: Promise<String, String>.Resolver
        var innerHandle: Promise<String, String>?
        do {
            let (innerPromise, r) = Promise<String, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            innerResolver = r
            sibling = innerPromise.map(on: .immediate, { $0 + "!" })
            innerHandle = innerPromise
        }
        let (parent, resolver) = Promise<Int, String>.makeWithResolver()
        let outer = parent.flatMap(on: .immediate, { _ -> Promise<String, String> in
            let inner = innerHandle!
            innerHandle = nil
            return inner
        })
        resolver.fulfill(with: 1)
        XCTAssertNil(outer.result)
        XCTAssertNil(innerHandle)
        outer.requestCancel()
        XCTAssertFalse(requested.value, "the inner promise has another child")
        sibling.requestCancel()
        XCTAssertTrue(requested.value)
        XCTAssertEqual(outer.result, .cancelled)
        withExtendedLifetime(innerResolver) {}
    }

    func testFlatMapPropagatesCancelToInnerPromise() {
        let requested = Locked(false)
        let (parent, resolver) = Promise<Int, String>.makeWithResolver()
        let outer = parent.flatMap(on: .immediate, { (x) -> Promise<Int, String> in
            let (inner, innerResolver) = Promise<Int, String>.makeWithResolver()
            innerResolver.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            return inner
        })
        resolver.fulfill(with: 1)
        let expectation = XCTestExpectation(onCancel: outer)
        outer.requestCancel()
        wait(for: [expectation], timeout: 10)
        XCTAssertTrue(requested.value)
    }

    // MARK: - cancellable / requestCancelOnInvalidate

    func testCancellable() {
        let (promise, resolver) = Promise<Int, String>.makeCancellable()
        let cancellable = promise.cancellable
        cancellable.requestCancel()
        XCTAssertEqual(promise.result, .cancelled)
        withExtendedLifetime(resolver) {}
    }

    func testCancellableHoldsPromiseWeakly() {
        let cancellable: PromiseCancellable
        var released = false
        do {
            let notifier = NotifyOnDeinit { released = true }
            let promise = Promise<Int, String>(fulfilled: 1).map(on: .immediate, { (x) -> Int in
                withExtendedLifetime(notifier) {}
                return x
            })
            cancellable = promise.cancellable
        }
        XCTAssertTrue(released)
        cancellable.requestCancel()
    }

    func testPromiseRequestCancelOnInvalidate() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeCancellable()
        let returned = promise.requestCancelOnInvalidate(token)
        XCTAssertEqual(returned, promise)
        XCTAssertNil(promise.result)
        token.invalidate()
        XCTAssertEqual(promise.result, .cancelled)
        withExtendedLifetime(resolver) {}
    }
}
