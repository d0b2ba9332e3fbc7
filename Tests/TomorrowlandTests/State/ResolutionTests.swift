// Resolution: rules 1–3, the initializers, `result`, equality, and misuse that must not crash.

import Dispatch
import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class ResolutionTests: XCTestCase {
    // MARK: Rule 1: unresolvable promises cancel at once

    func testRule01_droppedResolverCancelsEvenWhileHandlesAreHeld() {
        var promise: Promise<Int, String>!
        do {
            let (p, _) = Promise<Int, String>.makeWithResolver()
            promise = p
        }
        let copy = promise!
        XCTAssertEqual(promise.result, .cancelled)
        XCTAssertEqual(copy.result, .cancelled)
    }

    func testRule01_lastResolverCopyDecides() {
        var promise: Promise<Int, String>!
        var copy: Promise<Int, String>.Resolver?
        do {
            let (p, resolver) = Promise<Int, String>.makeWithResolver()
            promise = p
            copy = resolver
        }
        XCTAssertNil(promise.result, "a copy of the resolver still exists")
        XCTAssertFalse(copy!.hasRequestedCancel)
        copy = nil
        XCTAssertEqual(promise.result, .cancelled)
    }

    func testRule01_awaitingObserverGetsCancelledWhenResolverIsDropped() async {
        let holder = Slot<Promise<Int, String>.Resolver?>()
        let promise: Promise<Int, String>
        do {
            let (p, resolver) = Promise<Int, String>.makeWithResolver()
            promise = p
            holder.value = resolver
        }
        let result: PromiseResult<Int, String>? = await waitFor { complete in
            promise.always(on: .immediate) { complete($0) }
            DispatchQueue.global().async { holder.value = nil } // the last resolver goes
        }
        XCTAssertEqual(result, .cancelled)
    }

    func testRule01_handlerThatDropsResolverCancels() {
        let promise = Promise<Int, String>(on: .immediate) { _ in }
        XCTAssertEqual(promise.result, .cancelled)
    }

    func testRule01_pendingCancelHandlerKeepsPromiseResolvable() {
        let promise = Promise<Int, String>(on: .immediate) { resolver in
            resolver.onRequestCancel(on: .immediate) { $0.reject(with: "stopped") }
        }
        XCTAssertNil(promise.result, "the handler holds a resolver")
        promise.requestCancel()
        XCTAssertEqual(promise.result, .error("stopped"))
    }

    func testRule01_cancelHandlerThatDoesNotResolveLetsPromiseCancel() {
        let ran = Counter()
        let promise = Promise<Int, String>(on: .immediate) { resolver in
            resolver.onRequestCancel(on: .immediate) { _ in ran.increment() }
        }
        promise.requestCancel()
        XCTAssertEqual(ran.value, 1)
        XCTAssertEqual(promise.result, .cancelled, "nothing can resolve it any more")
    }

    func testRule01_upstreamPipeKeepsPromiseResolvable() {
        let (inner, innerResolver) = Promise<Int, String>.makeWithResolver()
        let outer = Promise<Int, String>(on: .immediate) { $0.resolve(with: inner) }
        XCTAssertNil(outer.result, "piped from a pending promise")
        innerResolver.fulfill(with: 3)
        XCTAssertEqual(outer.result, .value(3))
    }

    func testRule01_childOfPendingParentStaysPendingUntilParentResolves() {
        let (parent, resolver) = Promise<Int, String>.makeWithResolver()
        let child = parent.map(on: .immediate) { $0 * 2 }
        XCTAssertNil(child.result)
        resolver.fulfill(with: 21)
        XCTAssertEqual(child.result, .value(42))
    }

    // MARK: Rule 2: first wins

    func testRule02_firstResolutionWinsAndNeverChanges() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.fulfill(with: 1)
        resolver.reject(with: "late")
        resolver.cancel()
        resolver.resolve(with: .value(2))
        resolver.resolve(with: Promise(fulfilled: 3))
        XCTAssertEqual(promise.result, .value(1))
    }

    func testRule02_rejectThenFulfillKeepsError() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.reject(with: "first")
        resolver.fulfill(with: 1)
        XCTAssertEqual(promise.result, .error("first"))
    }

    func testRule02_cancelThenFulfillStaysCancelled() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.cancel()
        resolver.fulfill(with: 1)
        XCTAssertEqual(promise.result, .cancelled)
        XCTAssertTrue(resolver.hasRequestedCancel)
    }

    func testRule02_resolveWithPromiseAfterResolutionDoesNotBlockThatPromise() {
        // A late `resolve(with:)` must not make the other promise wait for an observer
        // that never asks to cancel (rule 2: later resolve calls do nothing).
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.fulfill(with: 1)
        let cancelRequested = Counter()
        var other: Promise<Int, String>? = Promise(on: .immediate) { r in
            r.onRequestCancel(on: .immediate) { _ in cancelRequested.increment() }
        }
        resolver.resolve(with: other!)
        let child = other!.map(on: .immediate) { $0 }
        child.requestCancel()
        other = nil
        XCTAssertEqual(cancelRequested.value, 1, "only the real child decides")
        XCTAssertEqual(promise.result, .value(1))
    }

    func testRule02_resolveWithItselfDoesNothing() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.resolve(with: promise)
        XCTAssertNil(promise.result)
        resolver.fulfill(with: 5)
        XCTAssertEqual(promise.result, .value(5))
    }

    func testRule02_resolveWithItselfThenDropResolverCancels() {
        var promise: Promise<Int, String>!
        do {
            let (p, resolver) = Promise<Int, String>.makeWithResolver()
            resolver.resolve(with: p)
            promise = p
        }
        XCTAssertEqual(promise.result, .cancelled, "a self-pipe must not keep the promise pending")
    }

    // MARK: Rule 3: requestCancel is a request

    func testRule03_requestCancelIsOnlyARequest() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        XCTAssertFalse(resolver.hasRequestedCancel)
        promise.requestCancel()
        XCTAssertNil(promise.result)
        XCTAssertTrue(resolver.hasRequestedCancel)
        resolver.fulfill(with: 9)
        XCTAssertEqual(promise.result, .value(9))
        XCTAssertFalse(resolver.hasRequestedCancel, "fulfilled: no longer a pending request (rule 3)")
    }

    func testRule03_hasRequestedCancelIsFalseOnceFulfilledOrRejectedAfterARequest() {
        let (fulfilled, fulfilResolver) = Promise<Int, String>.makeWithResolver()
        fulfilled.requestCancel()
        XCTAssertTrue(fulfilResolver.hasRequestedCancel, "pending request")
        fulfilResolver.fulfill(with: 1)
        XCTAssertFalse(fulfilResolver.hasRequestedCancel, "fulfilled after the request")
        let (rejected, rejectResolver) = Promise<Int, String>.makeWithResolver()
        rejected.requestCancel()
        rejectResolver.reject(with: "no")
        XCTAssertFalse(rejectResolver.hasRequestedCancel, "rejected after the request")
        let (cancelled, cancelResolver) = Promise<Int, String>.makeWithResolver()
        cancelled.requestCancel()
        cancelResolver.cancel()
        XCTAssertTrue(cancelResolver.hasRequestedCancel, "cancelled after the request")
    }

    func testRule03_requestCancelOnResolvedPromiseDoesNothing() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let handlerRuns = Counter()
        resolver.onRequestCancel(on: .immediate) { _ in handlerRuns.increment() }
        resolver.fulfill(with: 1)
        promise.requestCancel()
        XCTAssertEqual(promise.result, .value(1))
        XCTAssertFalse(resolver.hasRequestedCancel)
        XCTAssertEqual(handlerRuns.value, 0)
    }

    func testRule03_hasRequestedCancelAfterCancel() {
        let (_, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.cancel()
        XCTAssertTrue(resolver.hasRequestedCancel)
    }

    func testRule03_requestCancelTwiceRunsHandlersOnce() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let runs = Counter()
        resolver.onRequestCancel(on: .immediate) { _ in runs.increment() }
        promise.requestCancel()
        promise.requestCancel()
        XCTAssertEqual(runs.value, 1)
        _ = resolver
    }

    // MARK: Initializers and basic API

    func testResolvedInitializers() {
        XCTAssertEqual(Promise<Int, String>(fulfilled: 1).result, .value(1))
        XCTAssertEqual(Promise<Int, String>(rejected: "e").result, .error("e"))
        XCTAssertEqual(Promise<Int, String>(with: .cancelled).result, .cancelled)
        XCTAssertEqual(Promise<Int, TestError>(with: Result<Int, TestError>.failure(TestError(4))).result, .error(TestError(4)))
        XCTAssertEqual(Promise<Int, TestError>(with: Result<Int, TestError>.success(4)).result, .value(4))
    }

    @available(*, deprecated)
    func testDeprecatedResultInitializer() {
        XCTAssertEqual(Promise<Int, String>(result: .value(2)).result, .value(2))
    }

    func testInitOnQueueRunsHandlerThere() {
        let queue = TaggedQueue("core.init")
        let onQueue = Slot<Bool?>()
        let promise = Promise<Int, String>(on: .queue(queue.queue)) { resolver in
            onQueue.value = queue.isCurrent
            resolver.fulfill(with: 1)
        }
        waitUntil { promise.result != nil }
        XCTAssertEqual(onQueue.value, true)
        XCTAssertEqual(promise.result, .value(1))
    }

    func testThrowingInitRejects() {
        let promise = StdPromise<Int>(on: .immediate) { _ in throw TestError(7) }
        XCTAssertEqual(promise.result?.error as? TestError, TestError(7))
    }

    func testPromiseEqualityIsIdentity() {
        let (a, resolver) = Promise<Int, String>.makeWithResolver()
        let copy = a
        let b = Promise<Int, String>(fulfilled: 1)
        XCTAssertEqual(a, copy)
        XCTAssertNotEqual(a, b)
        XCTAssertNotEqual(a, a.makeChild())
        _ = resolver
    }

    func testRegisteringOnResolvedPromiseWorks() {
        let promise = Promise<Int, String>(fulfilled: 2)
        let seen = Recorder<Int>()
        _ = promise.then(on: .immediate) { seen.append($0) }
        let mapped = promise.map(on: .immediate) { $0 + 1 }
        XCTAssertEqual(seen.values, [2])
        XCTAssertEqual(mapped.result, .value(3))
        let async = promise.map(on: .default) { $0 + 2 }
        waitUntil { async.result != nil }
        XCTAssertEqual(async.result, .value(4))
    }

    func testResolverResolveWithSwiftResultAndUpcastResult() {
        let (a, ra) = Promise<Int, TestError>.makeWithResolver()
        ra.resolve(with: Result<Int, TestError>.failure(TestError(1)))
        XCTAssertEqual(a.result, .error(TestError(1)))
        let (b, rb) = StdPromise<Int>.makeWithResolver()
        rb.resolve(with: PromiseResult<Int, TestError>.error(TestError(2)))
        XCTAssertEqual(b.result?.error as? TestError, TestError(2))
        let (c, rc) = StdPromise<Int>.makeWithResolver()
        rc.resolve(with: PromiseResult<Int, TestError>.value(3))
        XCTAssertEqual(c.result?.value, 3)
    }
}
