// Cancel handlers and automatic cancellation propagation: rules 4–8 and 27.

import Dispatch
import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class CancelPropagationTests: XCTestCase {
    /// A pending promise whose cancel handler counts requests (and keeps it resolvable).
    private func makeCancellable() -> (Promise<Int, String>, Promise<Int, String>.Resolver, Counter) {
        let requests = Counter()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate) { _ in requests.increment() }
        return (promise, resolver, requests)
    }

    /// `propagatingCancellation` on a parent to which no handle is left (only its resolver).
    private func makeShared(on context: PromiseContext, _ hook: @escaping @Sendable (Promise<Int, String>) -> Void) -> (Promise<Int, String>, Promise<Int, String>.Resolver) {
        let (parent, resolver) = Promise<Int, String>.makeWithResolver()
        return (parent.propagatingCancellation(on: context, cancelRequested: hook), resolver)
    }

    // MARK: Rule 4: onRequestCancel

    func testRule04_handlerRegisteredAfterRequestRunsAtOnce() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        promise.requestCancel()
        let ran = Counter()
        resolver.onRequestCancel(on: .immediate) { _ in ran.increment() }
        XCTAssertEqual(ran.value, 1)
        let queued = Counter()
        resolver.onRequestCancel(on: .default) { _ in queued.increment() }
        waitUntil { queued.value == 1 }
    }

    func testRule04_handlerRegisteredAfterResolutionNeverRuns() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.fulfill(with: 1)
        let ran = Counter()
        let released = Counter()
        do {
            let spy = DeinitSpy { released.increment() }
            resolver.onRequestCancel(on: .immediate) { _ in spy.touch(); ran.increment() }
        }
        promise.requestCancel()
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(released.value, 1, "the handler is dropped at once")
    }

    func testRule04_handlersDroppedOnResolution() {
        let (_, resolver) = Promise<Int, String>.makeWithResolver()
        let released = Counter()
        do {
            let spy = DeinitSpy { released.increment() }
            resolver.onRequestCancel(on: .main) { _ in spy.touch() }
        }
        XCTAssertEqual(released.value, 0)
        resolver.fulfill(with: 1)
        XCTAssertEqual(released.value, 1)
    }

    func testRule04_scheduledHandlerSkippedIfResolvedMeanwhile() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let ran = Counter()
        resolver.onRequestCancel(on: .main) { _ in ran.increment() }
        promise.requestCancel() // schedules the handler on the main queue
        resolver.fulfill(with: 1) // resolves before the main queue runs it
        settle()
        XCTAssertEqual(ran.value, 0)
    }

    func testRule04_queuedHandlersThatEachCancelAllRunInOrder() {
        let queue = DispatchQueue(label: "core.cancel-handlers")
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let order = Recorder<Int>()
        for i in 0..<3 {
            resolver.onRequestCancel(on: .queue(queue)) { resolver in
                order.append(i)
                resolver.cancel()
            }
        }
        promise.requestCancel()
        waitUntil { order.count == 3 }
        settle()
        XCTAssertEqual(order.values, [0, 1, 2], "a handler is skipped only if the promise was fulfilled or rejected")
        XCTAssertEqual(promise.result, .cancelled)
    }

    func testRule04_queuedHandlerStillRunsWhenCancelledMeanwhile() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let ran = Counter()
        resolver.onRequestCancel(on: .main) { _ in ran.increment() }
        promise.requestCancel() // schedules the handler on the main queue
        resolver.cancel() // cancels before the main queue runs it
        waitUntil { ran.value == 1 }
    }

    func testRule04_handlerRegisteredAfterCancellationRunsAtOnce() {
        for requestFirst in [false, true] {
            let (promise, resolver) = Promise<Int, String>.makeWithResolver()
            if requestFirst { promise.requestCancel() }
            resolver.cancel()
            let ran = Counter()
            resolver.onRequestCancel(on: .immediate) { _ in ran.increment() }
            XCTAssertEqual(ran.value, 1, ".immediate runs at once")
            let executingNow = Slot<Bool?>()
            resolver.onRequestCancel(on: .nowOr(.main)) { _ in
                ran.increment()
                executingNow.value = PromiseContext.isExecutingNow
            }
            XCTAssertEqual(ran.value, 2, ".nowOr runs synchronously")
            XCTAssertEqual(executingNow.value, true)
            resolver.onRequestCancel(on: .default) { _ in ran.increment() }
            waitUntil { ran.value == 3 }
        }
    }

    func testRule04_handlerRegisteredAfterRejectionNeverRuns() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        promise.requestCancel()
        resolver.reject(with: "no")
        let ran = Counter()
        resolver.onRequestCancel(on: .immediate) { _ in ran.increment() }
        resolver.onRequestCancel(on: .nowOr(.main)) { _ in ran.increment() }
        XCTAssertEqual(ran.value, 0)
    }

    func testRule04_immediateHandlerRunsWithResolverThatCanCancel() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate) { $0.cancel() }
        promise.requestCancel()
        XCTAssertEqual(promise.result, .cancelled)
    }

    func testRule04_handlersRunInRegistrationOrder() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let order = Recorder<Int>()
        for i in 0..<5 { resolver.onRequestCancel(on: .immediate) { _ in order.append(i) } }
        promise.requestCancel()
        XCTAssertEqual(order.values, [0, 1, 2, 3, 4])
    }

    // MARK: Rule 5: propagation needs every child and no handle

    func testRule05_parentCancelsOnlyWhenAllChildrenRequestAndNoHandleLeft() {
        let rootRequests = Counter()
        var handle: Promise<Int, String>?
        let a: Promise<Int, String>, b: Promise<Int, String>
        let rootResolver: Promise<Int, String>.Resolver
        do {
            let (root, resolver) = Promise<Int, String>.makeWithResolver()
            resolver.onRequestCancel(on: .immediate) { _ in rootRequests.increment() }
            rootResolver = resolver
            handle = root
            XCTAssertNotNil(handle)
            a = root.map(on: .immediate) { $0 }
            b = root.then(on: .immediate) { _ in }
            a.requestCancel()
            XCTAssertEqual(rootRequests.value, 0, "b has not requested cancel")
            b.requestCancel()
            XCTAssertEqual(rootRequests.value, 0, "handles to the parent are still held")
            XCTAssertNil(a.result, "requestCancel on a child does not cancel the child itself")
        }
        XCTAssertEqual(rootRequests.value, 0, "one handle is still held")
        handle = nil
        XCTAssertEqual(rootRequests.value, 1, "fires when the last handle goes")
        XCTAssertTrue(rootResolver.hasRequestedCancel)
    }

    func testRule05_childRequestWaitsForLastHandle() {
        var child: Promise<Int, String>!
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate) { $0.cancel() }
            child = parent.map(on: .immediate) { $0 + 1 }
            child.requestCancel()
            XCTAssertNil(child.result)
        }
        XCTAssertEqual(child.result, .cancelled, "parent cancelled once its handles are gone")
    }

    func testRule05_eachOperatorIsAPropagatingChild() {
        typealias P = Promise<Int, String>
        let makers: [(String, (P) -> Promise<Int, String>)] = [
            ("then", { $0.then(on: .immediate) { _ in } }),
            ("map", { $0.map(on: .immediate) { $0 } }),
            ("flatMap", { $0.flatMap(on: .immediate) { Promise(fulfilled: $0) } }),
            ("catch", { $0.catch(on: .immediate) { _ in } }),
            ("mapError", { $0.mapError(on: .immediate) { $0 } }),
            ("flatMapError", { $0.flatMapError(on: .immediate) { Promise(rejected: $0) } }),
            ("always", { $0.always(on: .immediate) { _ in } }),
            ("mapResult", { $0.mapResult(on: .immediate) { $0 } }),
            ("flatMapResult", { $0.flatMapResult(on: .immediate) { Promise(with: $0) } }),
            ("makeChild", { $0.makeChild() }),
        ]
        for (name, make) in makers {
            let requests = Counter()
            let child: P
            do {
                let (parent, r) = P.makeWithResolver()
                r.onRequestCancel(on: .immediate) { _ in requests.increment() }
                child = make(parent)
                child.requestCancel()
            }
            XCTAssertEqual(requests.value, 1, "\(name) must propagate cancel")
            XCTAssertEqual(child.result, .cancelled, "\(name): after its handler ran nothing can resolve the parent")
        }
    }

    func testRule05_recoverPropagates() {
        let requests = Counter()
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate) { _ in requests.increment() }
            parent.recover(on: .immediate) { _ in 0 }.requestCancel()
        }
        XCTAssertEqual(requests.value, 1)
    }

    // MARK: Rule 6

    func testRule06_parentWithoutObserversIsNotCancelledWhenDropped() {
        let (_, resolver, requests) = makeCancellable()
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate) { _ in requests.increment() }
            _ = parent
        }
        XCTAssertEqual(requests.value, 0)
        _ = resolver
    }

    func testRule06_observersAddedAfterPropagatedCancelGetCancelled() {
        let (promise, r) = makeShared(on: .immediate) { _ in }
        r.onRequestCancel(on: .immediate) { $0.cancel() }
        promise.makeChild().requestCancel()
        XCTAssertTrue(r.hasRequestedCancel)
        let late = promise.map(on: .immediate) { $0 }
        XCTAssertEqual(late.result, .cancelled)
    }

    // MARK: Rule 7: tap, ignoringCancel, onCancel

    func testRule07_tapIsNotAnObserver() {
        let requests = Counter()
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate) { _ in requests.increment() }
            let child = parent.map(on: .immediate) { $0 }
            parent.tap(on: .immediate) { _ in }
            let tapped = parent.tap()
            tapped.requestCancel() // not passed on
            XCTAssertEqual(requests.value, 0)
            child.requestCancel()
        }
        XCTAssertEqual(requests.value, 1, "taps neither block nor trigger propagation")
    }

    func testRule07_tapAloneNeverTriggersPropagation() {
        let requests = Counter()
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate) { _ in requests.increment() }
            parent.tap().requestCancel()
        }
        XCTAssertEqual(requests.value, 0)
    }

    func testRule07_ignoringCancelBlocksPropagationForGood() {
        let requests = Counter()
        var ignoring: Promise<Int, String>?
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate) { _ in requests.increment() }
            let child = parent.map(on: .immediate) { $0 }
            ignoring = parent.ignoringCancel()
            ignoring!.requestCancel()
            child.requestCancel()
        }
        XCTAssertEqual(requests.value, 0)
        ignoring = nil
        XCTAssertEqual(requests.value, 0)
    }

    func testRule07_ignoringCancelBreaksResolveWithLink() {
        let requests = Counter()
        let (outer, outerResolver) = Promise<Int, String>.makeWithResolver()
        do {
            let (inner, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate) { _ in requests.increment() }
            outerResolver.resolve(with: inner.ignoringCancel())
        }
        outer.requestCancel()
        XCTAssertEqual(requests.value, 0)
    }

    func testRule07_onCancelDoesNotBlockPropagation() {
        let requests = Counter()
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate) { _ in requests.increment() }
            parent.onCancel(on: .immediate) {}
            parent.map(on: .immediate) { $0 }.requestCancel()
        }
        XCTAssertEqual(requests.value, 1)
    }

    func testRule07_onCancelCountsOnceAskedToCancel() {
        let requests = Counter()
        let cancelled = Counter()
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate) { $0.cancel(); requests.increment() }
            parent.onCancel(on: .immediate) { cancelled.increment() }.requestCancel()
        }
        XCTAssertEqual(requests.value, 1)
        XCTAssertEqual(cancelled.value, 1)
    }

    func testRule07_onCancelRunsOnlyOnCancellation() {
        let ran = Counter()
        let (p, r) = Promise<Int, String>.makeWithResolver()
        let child = p.onCancel(on: .immediate) { ran.increment() }
        r.fulfill(with: 1)
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(child.result, .value(1))
        Promise<Int, String>(with: .cancelled).onCancel(on: .immediate) { ran.increment() }
        XCTAssertEqual(ran.value, 1)
    }

    // MARK: Rule 8: propagatingCancellation

    func testRule08_propagatingCancellationForwardsWhileHandleIsHeld() {
        let hooks = Recorder<Bool>()
        let requests = Counter()
        let (shared, r) = makeShared(on: .immediate) { _ in hooks.append(requests.value == 0) } // before forwarding
        r.onRequestCancel(on: .immediate) { _ in requests.increment() }
        let a = shared.makeChild()
        let b = shared.makeChild()
        a.requestCancel()
        XCTAssertEqual(requests.value, 0)
        b.requestCancel()
        XCTAssertEqual(hooks.values, [true], "cancelRequested runs once, before forwarding")
        XCTAssertEqual(requests.value, 1, "forwarded although `shared` is still held")
        XCTAssertNil(shared.result, "forwarding does not cancel `shared` itself (rule 8)")
        let late = shared.makeChild()
        XCTAssertNil(late.result, "a child attached later waits for the upstream like any child")
        XCTAssertEqual(hooks.count, 1)
        r.fulfill(with: 4)
        XCTAssertEqual(shared.result, .value(4), "the upstream ignored the request and fulfilled")
        XCTAssertEqual(late.result, .value(4))
    }

    func testRule08_directRequestCancelRunsHookOnceAndForwardsWithoutCancelling() {
        let hooks = Recorder<Bool>()
        let requests = Counter()
        let (shared, r) = makeShared(on: .immediate) { _ in hooks.append(requests.value == 0) } // before forwarding
        r.onRequestCancel(on: .immediate) { _ in requests.increment() } // the upstream ignores requests
        shared.requestCancel()
        XCTAssertEqual(hooks.values, [true], "cancelRequested runs once, before forwarding")
        XCTAssertEqual(requests.value, 1, "forwarded upstream like automatic propagation")
        XCTAssertNil(shared.result, "forwarding does not cancel the returned promise")
        shared.requestCancel()
        shared.makeChild().requestCancel()
        XCTAssertEqual(hooks.count, 1, "cancelRequested runs once")
        r.fulfill(with: 3)
        XCTAssertEqual(shared.result, .value(3))
    }

    func testRule08_directRequestCancelRunsHookOnItsContextThenForwards() {
        let queue = TaggedQueue("core.propagating.direct")
        let onQueue = Slot<Bool?>()
        let (shared, r) = makeShared(on: .queue(queue.queue)) { _ in onQueue.value = queue.isCurrent }
        r.onRequestCancel(on: .immediate) { $0.cancel() }
        shared.requestCancel()
        waitUntil { shared.result != nil }
        XCTAssertEqual(onQueue.value, true)
        XCTAssertEqual(shared.result, .cancelled, "the upstream cancelled, so `shared` takes that result")
    }

    /// Rule 8's order with a queued hook: the hook runs while the returned promise is still
    /// pending, before the request is forwarded (here the upstream's handler cancels it at
    /// once, which would cancel the returned promise through the pipe). With `.immediate`
    /// the cancel stack defers the upstream's handler anyway; a queued hook shows the order.
    func testRule08_queuedHookRunsBeforeTheRequestIsForwarded() {
        let queue = TaggedQueue("core.propagating.order")
        let requests = Counter()
        let seen = Recorder<String>()
        let (shared, r) = makeShared(on: .queue(queue.queue)) { promise in
            seen.append("hook: promise \(promise.result.map { "\($0)" } ?? "pending"), upstream asked \(requests.value)")
        }
        r.onRequestCancel(on: .immediate) { resolver in
            seen.append("upstream handler")
            requests.increment()
            resolver.cancel()
        }
        shared.requestCancel()
        XCTAssertEqual(waitForResult(shared), .cancelled, "the upstream cancelled, so `shared` takes that result")
        XCTAssertEqual(seen.values, ["hook: promise pending, upstream asked 0", "upstream handler"],
                       "cancelRequested runs once, just before the request is forwarded (rule 8)")
    }

    func testRule08_hookRunsOnItsContextWithThePromise() {
        let queue = TaggedQueue("core.propagating")
        let onQueue = Slot<Bool?>()
        let same = Slot<Bool?>()
        let holder = Slot<Promise<Int, String>?>()
        let (shared, r) = makeShared(on: .queue(queue.queue)) { promise in
            onQueue.value = queue.isCurrent
            same.value = promise == holder.value
        }
        holder.value = shared
        shared.makeChild().requestCancel()
        waitUntil { r.hasRequestedCancel }
        XCTAssertEqual(onQueue.value, true)
        XCTAssertEqual(same.value, true)
    }

    func testRule08_resultPassesThroughWhenNotCancelled() {
        let (shared, r) = makeShared(on: .immediate) { _ in }
        let child = shared.makeChild()
        r.fulfill(with: 5)
        XCTAssertEqual(shared.result, .value(5))
        XCTAssertEqual(child.result, .value(5))
    }

    // MARK: Rule 27: resolve(with:) and flatMap pipe like a child

    /// A pending promise whose cancel handler counts the request and cancels it.
    private static func innerCancelledOnRequest(counting requests: Counter) -> Promise<Int, String> {
        let (inner, r) = Promise<Int, String>.makeWithResolver()
        r.onRequestCancel(on: .immediate) { $0.cancel(); requests.increment() }
        return inner
    }

    func testRule27_resolveWithPromisePropagatesCancel() {
        let requests = Counter()
        let (outer, outerResolver) = Promise<Int, String>.makeWithResolver()
        do {
            let (inner, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate) { $0.cancel(); requests.increment() }
            outerResolver.resolve(with: inner)
        }
        outer.requestCancel()
        XCTAssertEqual(requests.value, 1)
        XCTAssertEqual(outer.result, .cancelled)
    }

    func testRule27_resolveWithPromiseDoesNotHopContext() {
        let (outer, outerResolver) = Promise<Int, String>.makeWithResolver()
        let (inner, innerResolver) = Promise<Int, String>.makeWithResolver()
        outerResolver.resolve(with: inner)
        innerResolver.fulfill(with: 4)
        XCTAssertEqual(outer.result, .value(4), "adopted synchronously")
    }

    func testRule27_flatMapInnerPromiseIsACancelPropagatingChild() {
        let requests = Counter()
        let (parent, parentResolver) = Promise<Int, String>.makeWithResolver()
        let mapped = parent.flatMap(on: .immediate) { _ in Self.innerCancelledOnRequest(counting: requests) }
        parentResolver.fulfill(with: 1)
        XCTAssertNil(mapped.result)
        mapped.requestCancel()
        XCTAssertEqual(requests.value, 1)
        XCTAssertEqual(mapped.result, .cancelled)
    }

    func testRule27_cancelRequestedBeforeFlatMapRunsReachesInner() {
        let requests = Counter()
        let (parent, parentResolver) = Promise<Int, String>.makeWithResolver()
        let mapped = parent.flatMap(on: .immediate) { _ in Self.innerCancelledOnRequest(counting: requests) }
        mapped.requestCancel()
        parentResolver.fulfill(with: 1) // parent still held: not cancelled, callback runs
        XCTAssertEqual(requests.value, 1, "the earlier request is passed on to the inner promise")
        XCTAssertEqual(mapped.result, .cancelled)
    }

    // MARK: cancellable / requestCancelOnInvalidate

    func testCancellableHoldsWeaklyAndRequests() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let cancellable = promise.cancellable
        cancellable.requestCancel()
        XCTAssertTrue(resolver.hasRequestedCancel)
        var weakCheck: PromiseCancellable!
        do {
            let resolved = Promise<Int, String>(fulfilled: 1)
            weakCheck = resolved.cancellable
        }
        weakCheck.requestCancel() // no-op on a freed promise, must not crash
    }

    func testRequestCancelOnInvalidateReturnsSelf() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        XCTAssertEqual(promise.requestCancelOnInvalidate(token), promise)
        token.invalidate()
        XCTAssertTrue(resolver.hasRequestedCancel)
    }

    func testDeepCancelPropagationIsIterative() {
        let requests = Counter()
        runOnSmallStack(self, stackSize: 64 * 1024) {
            var leaf: Promise<Int, String>?
            do {
                let (root, r) = Promise<Int, String>.makeWithResolver()
                r.onRequestCancel(on: .immediate) { $0.cancel(); requests.increment() }
                var p = root
                for _ in 0..<reducedUnderThreadSanitizer(100_000) { p = p.makeChild() }
                leaf = p
            }
            leaf!.requestCancel()
            precondition(leaf!.result == .cancelled)
        }
        XCTAssertEqual(requests.value, 1)
    }

    /// Rule 19, cancel requests do not nest: a cancel handler that asks another promise to cancel does not nest
    /// that request; 100,000 such levels run on a 64 KiB stack.
    func testRule19_cancelRequestsMadeByHandlersDoNotRecurse() {
        let requests = Counter()
        runOnSmallStack(self, stackSize: 64 * 1024) {
            let (root, rootResolver) = Promise<Int, String>.makeWithResolver()
            rootResolver.onRequestCancel(on: .immediate) { $0.cancel(); requests.increment() }
            var resolvers = [rootResolver]
            var previous = root
            for _ in 0..<reducedUnderThreadSanitizer(100_000) {
                let (next, r) = Promise<Int, String>.makeWithResolver()
                let upstream = previous
                r.onRequestCancel(on: .immediate) { _ in upstream.requestCancel() }
                resolvers.append(r)
                previous = next
            }
            previous.requestCancel()
            precondition(root.result == .cancelled)
            withExtendedLifetime(resolvers) {}
        }
        XCTAssertEqual(requests.value, 1)
    }

    func testRule19_cancelRequestMadeInsideAHandlerRunsAfterItReturnsAndBeforeTheNextHandler() {
        let (a, ra) = Promise<Int, String>.makeWithResolver()
        let (b, rb) = Promise<Int, String>.makeWithResolver()
        let (c, rc) = Promise<Int, String>.makeWithResolver()
        let order = Recorder<String>()
        rb.onRequestCancel(on: .immediate) { _ in order.append("b") }
        rc.onRequestCancel(on: .immediate) { _ in order.append("c") }
        ra.onRequestCancel(on: .immediate) { _ in
            b.requestCancel()
            c.requestCancel()
            order.append("a1 returns: b \(rb.hasRequestedCancel ? "requested" : "not requested")")
        }
        ra.onRequestCancel(on: .immediate) { _ in order.append("a2") }
        a.requestCancel()
        XCTAssertEqual(order.values, ["a1 returns: b requested", "b", "c", "a2"])
    }
}
