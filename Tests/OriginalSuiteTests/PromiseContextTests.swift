// The original suite's context tests beyond the basics: `.main` runs callbacks triggered from a
// `.main` callback in the same main-queue turn, `isExecutingNow` everywhere it must be false,
// `.nowOr` where it means its wrapped context, `.immediate` on the registering thread, and the
// order of callbacks across a chain.

import Foundation
import TestSupport
import Tomorrowland
import XCTest

final class PromiseContextTests: XCTestCase {
    func testMainCallbackRegisteredFromMainCallbackRunsBeforeQueuedMainBlocks() {
        var order: [String] = []
        let expectation = XCTestExpectation(description: "done")
        _ = Promise<Int, String>(on: .utility, { $0.fulfill(with: 1) }).then(on: .main, { _ in
            order.append("first")
            DispatchQueue.main.async {
                order.append("main.async")
                expectation.fulfill()
            }
            _ = Promise<Int, String>(fulfilled: 2).then(on: .main, { _ in
                order.append("registered from first")
            })
            order.append("first returns")
        })
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(order, ["first", "first returns", "registered from first", "main.async"])
    }

    func testMainCallbackFromBackgroundRegistration() {
        let expectation = XCTestExpectation(description: "main")
        DispatchQueue.global(qos: .utility).async {
            _ = Promise<Int, String>(fulfilled: 1).then(on: .main, { _ in
                XCTAssertTrue(Thread.isMainThread)
                XCTAssertFalse(PromiseContext.isExecutingNow)
                expectation.fulfill()
            })
        }
        wait(for: [expectation], timeout: 10)
    }

    func testPromiseInitOnMainFromBackground() {
        let expectation = XCTestExpectation(description: "main")
        DispatchQueue.global(qos: .utility).async {
            _ = Promise<Int, String>(on: .main, { (resolver) in
                XCTAssertTrue(Thread.isMainThread)
                XCTAssertFalse(PromiseContext.isExecutingNow)
                resolver.fulfill(with: 1)
                expectation.fulfill()
            })
        }
        wait(for: [expectation], timeout: 10)
    }

    func testPromiseInitOnOperationQueue() {
        let queue = OperationQueue()
        let promise = Promise<Bool, String>(on: .operationQueue(queue), { (resolver) in
            resolver.fulfill(with: OperationQueue.current === queue)
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: true)
        wait(for: [expectation], timeout: 10)
    }

    func testPromiseInitOnQueueIsNotExecutingNow() {
        let promise = Promise<Bool, String>(on: .utility, { (resolver) in
            resolver.fulfill(with: PromiseContext.isExecutingNow)
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: false)
        wait(for: [expectation], timeout: 10)
    }

    func testIsExecutingNowFalseInsideMainSyncFromNowOrCallback() {
        let expectation = XCTestExpectation(description: "checked")
        DispatchQueue.global(qos: .utility).async {
            _ = Promise<Int, String>(fulfilled: 1).then(on: .nowOr(.utility), { _ in
                XCTAssertTrue(PromiseContext.isExecutingNow)
                DispatchQueue.main.sync {
                    XCTAssertFalse(PromiseContext.isExecutingNow)
                }
                XCTAssertTrue(PromiseContext.isExecutingNow)
                expectation.fulfill()
            })
        }
        wait(for: [expectation], timeout: 10)
    }

    func testImmediateOnResolvedPromiseRunsOnRegisteringThread() {
        let queue = TestQueue()
        let expectation = XCTestExpectation(description: "immediate")
        let promise = Promise<Int, String>(fulfilled: 1)
        queue.queue.async {
            var ran = false
            _ = promise.then(on: .immediate, { _ in
                XCTAssertTrue(queue.isCurrent)
                ran = true
            })
            XCTAssertTrue(ran)
            expectation.fulfill()
        }
        wait(for: [expectation], timeout: 10)
    }

    func testNowOrFlatMapOnResolvedPromisesIsResolved() {
        let promise = Promise<Int, String>(fulfilled: 1).flatMap(on: .nowOr(.main), { Promise<Int, String>(fulfilled: $0 + 1) })
        XCTAssertEqual(promise.result, .value(2))
        let promise2 = Promise<Int, String>(rejected: "e").recover(on: .nowOr(.main), { $0.count })
        XCTAssertEqual(promise2.result, .value(1))
    }

    func testNowOrAlwaysOnPendingPromiseIsAsync() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var ran = false
        let expectation = XCTestExpectation(description: "main")
        promise.always(on: .nowOr(.main), { _ in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertFalse(PromiseContext.isExecutingNow)
            ran = true
            expectation.fulfill()
        })
        resolver.fulfill(with: 1)
        XCTAssertFalse(ran, "resolved after registration: runs on .main, later")
        wait(for: [expectation], timeout: 10)
    }

    func testDelayNowOrMeansItsContext() {
        let promise = Promise<Int, String>(fulfilled: 1).delay(on: .nowOr(.main), 0)
        XCTAssertNil(promise.result)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 1)
        wait(for: [expectation], timeout: 10)
    }

    func testDelayImmediateZeroMeansAuto() {
        let promise = Promise<Int, String>(fulfilled: 1).delay(on: .immediate, 0)
        XCTAssertNil(promise.result, "on the main thread `.auto` is `.main`")
        let expectation = XCTestExpectation(description: "main")
        _ = promise.then(on: .immediate, { _ in
            XCTAssertTrue(Thread.isMainThread)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
    }

    func testInitAfterNowOrMeansItsContext() {
        let promise = Promise<Int, String>(on: .nowOr(.main), fulfilled: 1, after: 0)
        XCTAssertNil(promise.result)
        let promise2 = Promise<Int, String>(on: .immediate, rejected: "foo", after: -1)
        XCTAssertNil(promise2.result)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 1)
        let expectation2 = XCTestExpectation(onError: promise2, expectedError: "foo")
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testTimeoutDefaultContextZeroDelayIsSynchronous() {
        let (upstream, resolver) = Promise<Int, String>.makeWithResolver()
        XCTAssertEqual(upstream.timeout(delay: 0).result, .error(.timedOut))
        let (stdUpstream, stdResolver) = StdPromise<Int>.makeWithResolver()
        let std = stdUpstream.timeout(delay: 0)
        guard let error = std.result?.error as? PromiseTimeoutError<Swift.Error>, case .timedOut = error else {
            return XCTFail("expected an already timed-out promise, got \(String(describing: std.result))")
        }
        withExtendedLifetime((resolver, stdResolver)) {}
    }

    func testCallbackOrderAcrossAChain() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var order: [String] = []
        _ = promise.then(on: .immediate, { _ in order.append("a") })
        let child = promise.map(on: .immediate, { (x) -> Int in
            order.append("map")
            return x
        })
        _ = child.then(on: .immediate, { _ in order.append("child 1") })
        _ = child.map(on: .immediate, { $0 }).then(on: .immediate, { _ in order.append("grandchild") })
        _ = child.then(on: .immediate, { _ in order.append("child 2") })
        _ = promise.then(on: .immediate, { _ in order.append("b") })
        resolver.fulfill(with: 1)
        XCTAssertEqual(order, ["a", "map", "child 1", "grandchild", "child 2", "b"])
    }

    func testThenWithOptionalChainingClosure() {
        // `promise.then({ foo?($0) })` picks then(_:), as in 1.x after the deprecated
        // overloads became unavailable.
        var received: [Int] = []
        let foo: ((Int) -> Void)? = { received.append($0) }
        let promise = Promise<Int, String>(fulfilled: 5)
        _ = promise.then(on: .immediate, { foo?($0) })
        XCTAssertEqual(received, [5])
    }

    func testOnRequestCancelOnMain() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let expectation = XCTestExpectation(description: "main")
        resolver.onRequestCancel(on: .main, { (resolver) in
            XCTAssertTrue(Thread.isMainThread)
            resolver.cancel()
            expectation.fulfill()
        })
        promise.requestCancel()
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(promise.result, .cancelled)
    }

    func testScheduledCancelHandlerSkippedIfFulfilledMeanwhile() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.onRequestCancel(on: .main, { _ in
            XCTFail("handler ran after the promise was fulfilled")
        })
        promise.requestCancel()
        resolver.fulfill(with: 1)
        let expectation = XCTestExpectation(description: "later main block")
        DispatchQueue.main.async { expectation.fulfill() }
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(promise.result, .value(1))
    }

    func testResolveWithItselfDoesNothing() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.resolve(with: promise)
        XCTAssertNil(promise.result)
        resolver.fulfill(with: 3)
        XCTAssertEqual(promise.result, .value(3))
    }

    func testWhenValuesKeepInputOrder() {
        let pairs = (0..<5).map({ _ in Promise<Int, String>.makeWithResolver() })
        let promise = when(fulfilled: pairs.map({ $0.0 }))
        for (i, pair) in pairs.enumerated().reversed() {
            pair.1.fulfill(with: i * 10)
        }
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: [0, 10, 20, 30, 40])
        wait(for: [expectation], timeout: 10)
    }

    func testWhenFirstRejectedWithCancelRemaining() {
        let (inputs, resolvers, requested) = makeCancellableInputs(3)
        let promise = when(first: inputs, cancelRemaining: true)
        let expectation = XCTestExpectation(onError: promise, expectedError: "first")
        resolvers[2].reject(with: "first")
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(requested.value.sorted(), [0, 1])
    }

    func testOnCancelCountsOnceItsOwnPromiseIsAsked() {
        let requested = Locked(false)
        let child: Promise<Int, String>
        let onCancelPromise: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            child = parent.map(on: .immediate, { $0 })
            onCancelPromise = parent.onCancel(on: .immediate, {})
        }
        onCancelPromise.requestCancel()
        XCTAssertFalse(requested.value, "the map child has not asked")
        child.requestCancel()
        XCTAssertTrue(requested.value)
        XCTAssertEqual(onCancelPromise.result, .cancelled)
        withExtendedLifetime(resolver) {}
    }

    func testPropagatingCancellationWithoutChildrenNeverForwards() {
        let requested = Locked(false)
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { _ in requested.value = true })
            resolver = r
            _ = parent.propagatingCancellation(on: .immediate, cancelRequested: { _ in
                XCTFail("cancelRequested without a request")
            })
        }
        XCTAssertFalse(requested.value)
        resolver.fulfill(with: 1)
    }

    func testDroppedChildWithoutRequestDoesNotCancelParent() {
        let requested = Locked(false)
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { _ in requested.value = true })
            resolver = r
            _ = parent.map(on: .immediate, { $0 + 1 })
            _ = parent.then(on: .immediate, { _ in })
        }
        XCTAssertFalse(requested.value, "dropping children is not asking to cancel")
        withExtendedLifetime(resolver) {}
    }

    func testRequestCancelOnStartedOperationPromise() {
        var handlerRan = false
        let op = PromiseOperation<Int, String>(on: .immediate, { (resolver) in
            resolver.onRequestCancel(on: .immediate, { handlerRan = true; $0.cancel() })
        })
        op.start()
        op.promise.requestCancel()
        XCTAssertTrue(op.isCancelled)
        XCTAssertTrue(handlerRan)
        XCTAssertEqual(op.promise.result, .cancelled)
    }
}

// MARK: - 1.4's testChainedMainContextCallbacks (rule 10), in a main-queue block and in @MainActor code

/// The steps of a chain and of the main-queue blocks they enqueue, in the order they ran.
private final class TurnOrder: @unchecked Sendable { // safe: `recorded` only under `lock`
    private let lock = NSLock()
    private var recorded: [String] = []

    /// Records `step`; with `enqueue`, also enqueues a plain main-queue block that records it.
    func step(_ step: String, enqueue: String? = nil) {
        append(step)
        if let enqueue = enqueue {
            DispatchQueue.main.async { self.append(enqueue) }
        }
    }

    private func append(_ step: String) {
        lock.lock()
        recorded.append(step)
        lock.unlock()
    }

    var steps: [String] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }
}

/// Chained `.main` callbacks run in one main-queue turn: a block the first enqueues runs after
/// the second. Each `.queue(.main)` callback is a plain `DispatchQueue.main.async`: a block the
/// previous callback enqueued runs before it.
private let chainedMainContextOrder = [
    "main 1", "main 2", "enqueued by main 1", "queue(.main) 1", "enqueued by queue(.main) 1", "queue(.main) 2",
]

/// The chain written in main-actor code: its `.main` callbacks are main-actor isolated,
/// its `.queue(.main)` ones are not (a named context).
@MainActor private enum MainActorChain {
    static var mainCallbacks = 0

    static func register(_ order: TurnOrder, _ done: XCTestExpectation) {
        _ = Promise<Int, String>(on: .utility, { $0.fulfill(with: 42) })
            .then(on: .main, { _ in mainCallbacks += 1; order.step("main 1", enqueue: "enqueued by main 1") })
            .then(on: .main, { _ in mainCallbacks += 1; order.step("main 2") })
            .then(on: .queue(.main), { _ in order.step("queue(.main) 1", enqueue: "enqueued by queue(.main) 1") })
            .then(on: .queue(.main), { _ in order.step("queue(.main) 2"); done.fulfill() })
    }
}

extension PromiseContextTests {
    /// 1.4's shape: the chain written inside `DispatchQueue.main.async { }`.
    func testChainedMainContextCallbacks() {
        let order = TurnOrder()
        let done = XCTestExpectation(description: "chain done")
        DispatchQueue.main.async {
            _ = Promise<Int, String>(on: .utility, { $0.fulfill(with: 42) })
                .then(on: .main, { _ in order.step("main 1", enqueue: "enqueued by main 1") })
                .then(on: .main, { _ in order.step("main 2") })
                .then(on: .queue(.main), { _ in order.step("queue(.main) 1", enqueue: "enqueued by queue(.main) 1") })
                .then(on: .queue(.main), { _ in order.step("queue(.main) 2"); done.fulfill() })
        }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(order.steps, chainedMainContextOrder)
    }

    /// The same chain written in `@MainActor` code.
    func testChainedMainContextCallbacksWrittenInMainActorCode() {
        let order = TurnOrder()
        let done = XCTestExpectation(description: "chain done")
        MainActor.assumeIsolated { MainActorChain.register(order, done) }
        wait(for: [done], timeout: 30)
        XCTAssertEqual(order.steps, chainedMainContextOrder)
        MainActor.assumeIsolated { XCTAssertEqual(MainActorChain.mainCallbacks, 2) }
    }
}
