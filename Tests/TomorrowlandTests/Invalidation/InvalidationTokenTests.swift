// Invalidation tokens: rules 14–17, chains (including cycles), and tokens used from many
// threads at once.

import Dispatch
import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class InvalidationTokenTests: XCTestCase {
    typealias P = Promise<Int, String>

    // MARK: validity()

    func testValidity_falseOnceInvalidatedSinceTaken() {
        let token = PromiseInvalidationToken()
        token.invalidate()
        let validity = token.validity()
        XCTAssertTrue(validity.isValid, "an invalidation before it was taken does not count")
        token.cancelWithoutInvalidating()
        XCTAssertTrue(validity.isValid, "cancelWithoutInvalidating() is not an invalidation")
        token.invalidate()
        XCTAssertFalse(validity.isValid)
        XCTAssertTrue(token.validity().isValid, "a new validity starts valid: the token is reusable")
    }

    func testValidity_chainedInvalidationAndReleaseCount() {
        let source = PromiseInvalidationToken()
        var chained: PromiseInvalidationToken? = PromiseInvalidationToken()
        chained!.chainInvalidation(from: source)
        let fromChain = chained!.validity()
        source.invalidate()
        XCTAssertFalse(fromChain.isValid, "an invalidation passed on through a chain counts")
        let released = chained!.validity()
        chained = nil
        XCTAssertFalse(released.isValid, "it does not keep the token alive: releasing the last copy invalidates it")
    }

    func testValidity_agreesWithARegisteredCallback() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = P.makeWithResolver()
        let validity = token.validity()
        let mapped = promise.map(on: .immediate, token: token) { $0 + 1 }
        token.invalidate()
        resolver.fulfill(with: 1)
        XCTAssertEqual(mapped.result?.isCancelled, true)
        XCTAssertFalse(validity.isValid, "skipped callback, invalid validity: the same rule")
    }

    // MARK: Rule 14

    func testRule14_tokenCheckedWhenCallbackWouldRunNotAtRegistration() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = P.makeWithResolver()
        let ran = Counter()
        let child = promise.then(on: .immediate, token: token) { _ in ran.increment() }
        token.invalidate()
        resolver.fulfill(with: 1)
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(child.result, .value(1), "an invalidated observer still passes the result on")
    }

    func testRule14_invalidatedBetweenSchedulingAndRunning() {
        let token = PromiseInvalidationToken()
        let queue = TaggedQueue("core.token")
        let ran = Counter()
        let gate = DispatchSemaphore(value: 0)
        queue.queue.async { gate.wait() } // hold the queue
        let mapped = P(fulfilled: 1).map(on: .queue(queue.queue), token: token) { _ in ran.increment() }
        token.invalidate() // after scheduling, before running
        gate.signal()
        waitUntil { mapped.result != nil }
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(mapped.result?.isCancelled, true)
    }

    func testRule14_observersSkipAndPassResultThrough() {
        let token = PromiseInvalidationToken()
        let ran = Counter()
        let (promise, resolver) = P.makeWithResolver()
        let then = promise.then(on: .immediate, token: token) { _ in ran.increment() }
        let always = promise.always(on: .immediate, token: token) { _ in ran.increment() }
        let tapped = promise.tap(on: .immediate, token: token) { _ in ran.increment() }
        let (rejected, rejecter) = P.makeWithResolver()
        let caught = rejected.catch(on: .immediate, token: token) { _ in ran.increment() }
        let (cancelled, canceller) = P.makeWithResolver()
        let onCancel = cancelled.onCancel(on: .immediate, token: token) { ran.increment() }
        token.invalidate()
        resolver.fulfill(with: 1)
        rejecter.reject(with: "e")
        canceller.cancel()
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(then.result, .value(1))
        XCTAssertEqual(always.result, .value(1))
        XCTAssertEqual(tapped.result, .value(1))
        XCTAssertEqual(caught.result, .error("e"))
        XCTAssertEqual(onCancel.result, .cancelled)
    }

    func testRule14_transformersCancelOnlyWhenTheCallbackWouldRun() {
        let token = PromiseInvalidationToken()
        let ran = Counter()
        let (fulfilled, fulfill) = P.makeWithResolver()
        let (rejected, reject) = P.makeWithResolver()
        let mapOnValue = fulfilled.map(on: .immediate, token: token) { _ in ran.increment() }
        let flatMapOnValue = fulfilled.flatMap(on: .immediate, token: token) { _ in ran.increment(); return P(fulfilled: 0) }
        let mapResultOnValue = fulfilled.mapResult(on: .immediate, token: token) { _ in ran.increment(); return PromiseResult<Int, String>.value(0) }
        let flatMapResultOnValue = fulfilled.flatMapResult(on: .immediate, token: token) { _ in ran.increment(); return P(fulfilled: 0) }
        let recoverOnValue = fulfilled.recover(on: .immediate, token: token) { _ in ran.increment() }
        let mapOnError = rejected.map(on: .immediate, token: token) { _ in ran.increment() }
        let recoverOnError = rejected.recover(on: .immediate, token: token) { _ in ran.increment() }
        let mapErrorOnError = rejected.mapError(on: .immediate, token: token) { _ in ran.increment() }
        let flatMapErrorOnError = rejected.flatMapError(on: .immediate, token: token) { _ -> Promise<Int, Int> in ran.increment(); return Promise(fulfilled: 0) }
        let tryMapErrorOnError = rejected.tryMapError(on: .immediate, token: token) { _ -> TestError in ran.increment(); return TestError() }
        let tryFlatMapErrorOnError = rejected.tryFlatMapError(on: .immediate, token: token) { _ -> Promise<Int, TestError> in ran.increment(); return Promise(fulfilled: 0) }
        let tryMapResultOnError = rejected.tryMapResult(on: .immediate, token: token) { _ -> PromiseResult<Int, TestError> in ran.increment(); return .value(0) }
        let tryFlatMapResultOnError = rejected.tryFlatMapResult(on: .immediate, token: token) { _ -> Promise<Int, TestError> in ran.increment(); return Promise(fulfilled: 0) }
        token.invalidate()
        fulfill.fulfill(with: 1)
        reject.reject(with: "e")
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(mapOnValue.result?.isCancelled, true)
        XCTAssertEqual(flatMapOnValue.result, .cancelled)
        XCTAssertEqual(mapResultOnValue.result, .cancelled)
        XCTAssertEqual(flatMapResultOnValue.result, .cancelled)
        XCTAssertEqual(recoverOnValue.result?.value, 1, "recover on a value does not invoke the callback")
        XCTAssertEqual(mapOnError.result?.error, "e", "map on a rejected parent passes the error through")
        XCTAssertEqual(recoverOnError.result?.isCancelled, true)
        XCTAssertEqual(mapErrorOnError.result?.isCancelled, true)
        XCTAssertEqual(flatMapErrorOnError.result, .cancelled)
        XCTAssertEqual(tryMapErrorOnError.result?.isCancelled, true)
        XCTAssertEqual(tryFlatMapErrorOnError.result?.isCancelled, true)
        XCTAssertEqual(tryMapResultOnError.result?.isCancelled, true)
        XCTAssertEqual(tryFlatMapResultOnError.result?.isCancelled, true)
    }

    func testRule14_stdTransformersWithToken() {
        let token = PromiseInvalidationToken()
        let ran = Counter()
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let tryThen = promise.tryThen(on: .immediate, token: token) { _ in ran.increment() }
        let tryMap = promise.tryMap(on: .immediate, token: token) { _ in ran.increment() }
        let tryFlatMap = promise.tryFlatMap(on: .immediate, token: token) { _ -> Promise<Int, TestError> in ran.increment(); return Promise(fulfilled: 0) }
        let (failing, failer) = StdPromise<Int>.makeWithResolver()
        let tryRecover = failing.tryRecover(on: .immediate, token: token) { _ in ran.increment(); return 0 }
        token.invalidate()
        resolver.fulfill(with: 1)
        failer.reject(with: TestError())
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(tryThen.result?.value, 1, "observer")
        XCTAssertEqual(tryMap.result?.isCancelled, true)
        XCTAssertEqual(tryFlatMap.result?.isCancelled, true)
        XCTAssertEqual(tryRecover.result?.isCancelled, true)
    }

    // MARK: Rule 15

    func testRule15_invalidateOnlyAffectsEarlierCallbacks() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = P.makeWithResolver()
        let ran = Recorder<String>()
        _ = promise.then(on: .immediate, token: token) { _ in ran.append("before") }
        token.invalidate()
        _ = promise.then(on: .immediate, token: token) { _ in ran.append("after") }
        resolver.fulfill(with: 1)
        XCTAssertEqual(ran.values, ["after"])
    }

    func testRule15_invalidateRequestsCancelAndClearsList() {
        let token = PromiseInvalidationToken()
        let requests = Counter()
        let (promise, resolver) = P.makeWithResolver()
        resolver.onRequestCancel(on: .immediate) { _ in requests.increment() }
        token.requestCancelOnInvalidate(promise)
        XCTAssertTrue(token.debugDescription.contains("callbackLinkedList=(1 node"))
        token.invalidate()
        XCTAssertEqual(requests.value, 1)
        XCTAssertTrue(token.debugDescription.contains("callbackLinkedList=(0 node"), token.debugDescription)
        token.invalidate()
        XCTAssertEqual(requests.value, 1)
    }

    /// The token is invalidated before its cancel requests are made: a callback registered
    /// with it never runs because of the cancellation its own invalidation caused.
    func testRule15_invalidationsOwnCancelRequestDoesNotRunItsCallbacks() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = P.makeWithResolver()
        resolver.onRequestCancel(on: .immediate) { $0.cancel() }
        token.requestCancelOnInvalidate(promise)
        let ran = Counter()
        _ = promise.always(on: .immediate, token: token) { _ in ran.increment() }
        token.invalidate()
        XCTAssertEqual(promise.result.map(\.isCancelled), true)
        XCTAssertEqual(ran.value, 0)
    }

    func testRule15_cancelWithoutInvalidatingKeepsCallbacks() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = P.makeWithResolver()
        token.requestCancelOnInvalidate(promise)
        let ran = Counter()
        _ = promise.then(on: .immediate, token: token) { _ in ran.increment() }
        token.cancelWithoutInvalidating()
        XCTAssertTrue(resolver.hasRequestedCancel)
        resolver.fulfill(with: 1)
        XCTAssertEqual(ran.value, 1)
    }

    func testRule15_chainInvalidation() {
        let parent = PromiseInvalidationToken()
        let child = PromiseInvalidationToken()
        let quiet = PromiseInvalidationToken()
        child.chainInvalidation(from: parent)
        quiet.chainInvalidation(from: parent, includingCancelWithoutInvalidating: false)
        let (a, ra) = P.makeWithResolver()
        let (b, rb) = P.makeWithResolver()
        child.requestCancelOnInvalidate(a)
        quiet.requestCancelOnInvalidate(b)
        parent.cancelWithoutInvalidating()
        XCTAssertTrue(ra.hasRequestedCancel, "passed on to child")
        XCTAssertFalse(rb.hasRequestedCancel, "not passed on when includingCancelWithoutInvalidating is false")
        let ran = Counter()
        let (c, rc) = P.makeWithResolver()
        _ = c.then(on: .immediate, token: child) { _ in ran.increment() }
        _ = c.then(on: .immediate, token: quiet) { _ in ran.increment() }
        parent.invalidate()
        XCTAssertTrue(rb.hasRequestedCancel, "invalidation always passes on")
        rc.fulfill(with: 1)
        XCTAssertEqual(ran.value, 0)
    }

    func testRule15_chainRetainsNeitherToken() {
        let parent = PromiseInvalidationToken()
        weak var childBox: TokenBox?
        let ran = Counter()
        let (promise, resolver) = P.makeWithResolver()
        do {
            let child = PromiseInvalidationToken(invalidateOnDeinit: false)
            child.chainInvalidation(from: parent)
            childBox = child.box
            _ = promise.then(on: .immediate, token: child) { _ in ran.increment() }
            XCTAssertTrue(parent.debugDescription.contains("tokenChainLinkedList=(1 node"))
        }
        XCTAssertNotNil(childBox, "the callback holds the token's state (not the token)")
        resolver.fulfill(with: 1)
        XCTAssertNil(childBox, "the parent's chain does not retain the child")
        XCTAssertEqual(ran.value, 1)
        weak var parentBox: TokenBox?
        do {
            let p = PromiseInvalidationToken()
            let c = PromiseInvalidationToken()
            c.chainInvalidation(from: p)
            parentBox = p.box
        }
        XCTAssertNil(parentBox)
    }

    func testRule15_chainFromSelfDoesNothing() {
        let token = PromiseInvalidationToken()
        token.chainInvalidation(from: token)
        XCTAssertTrue(token.debugDescription.contains("tokenChainLinkedList=(0 node"))
        token.invalidate()
    }

    func testRule15_chainCycleDoesNotRecurseForever() {
        let a = PromiseInvalidationToken()
        let b = PromiseInvalidationToken()
        a.chainInvalidation(from: b)
        b.chainInvalidation(from: a)
        let (pa, ra) = P.makeWithResolver()
        let (pb, rb) = P.makeWithResolver()
        a.requestCancelOnInvalidate(pa)
        b.requestCancelOnInvalidate(pb)
        let ran = Counter()
        let (p, r) = P.makeWithResolver()
        _ = p.then(on: .immediate, token: a) { _ in ran.increment() }
        _ = p.then(on: .immediate, token: b) { _ in ran.increment() }
        a.invalidate()
        XCTAssertTrue(ra.hasRequestedCancel)
        XCTAssertTrue(rb.hasRequestedCancel)
        b.cancelWithoutInvalidating()
        r.fulfill(with: 1)
        XCTAssertEqual(ran.value, 0)
    }

    func testRule15_longChainIsIterative() {
        runOnSmallStack(self, stackSize: 64 * 1024) {
            let root = PromiseInvalidationToken()
            var tokens = [root]
            for _ in 0..<20_000 {
                let next = PromiseInvalidationToken()
                next.chainInvalidation(from: tokens.last!)
                tokens.append(next)
            }
            let (p, r) = Promise<Int, String>.makeWithResolver()
            tokens.last!.requestCancelOnInvalidate(p)
            root.invalidate()
            precondition(r.hasRequestedCancel)
            // Release from the end: each released token invalidates what is chained from it.
            while tokens.popLast() != nil {}
        }
    }

    // MARK: Rule 16

    func testRule16_droppingLastCopyInvalidates() {
        let (promise, resolver) = P.makeWithResolver()
        let ran = Counter()
        let cancelRequested = Counter()
        resolver.onRequestCancel(on: .immediate) { _ in cancelRequested.increment() }
        do {
            let token = PromiseInvalidationToken()
            let copy = token
            _ = promise.then(on: .immediate, token: copy) { _ in ran.increment() }
            token.requestCancelOnInvalidate(promise)
        }
        XCTAssertEqual(cancelRequested.value, 1, "invalidated on deinit")
        resolver.fulfill(with: 1)
        XCTAssertEqual(ran.value, 0)
    }

    func testRule16_invalidateOnDeinitFalse() {
        let (promise, resolver) = P.makeWithResolver()
        let ran = Counter()
        do {
            let token = PromiseInvalidationToken(invalidateOnDeinit: false)
            _ = promise.then(on: .immediate, token: token) { _ in ran.increment() }
        }
        resolver.fulfill(with: 1)
        XCTAssertEqual(ran.value, 1)
    }

    // MARK: Rule 17

    func testRule17_debugDescriptionFormat() {
        let token = PromiseInvalidationToken()
        XCTAssertTrue(token.debugDescription.contains("callbackLinkedList=(0 node"), token.debugDescription)
        XCTAssertTrue(token.debugDescription.contains("tokenChainLinkedList=(0 node"), token.debugDescription)
        let keep = (0..<2).map { _ in P.makeWithResolver() }
        keep.forEach { token.requestCancelOnInvalidate($0.0) }
        let chained = PromiseInvalidationToken()
        chained.chainInvalidation(from: token)
        XCTAssertTrue(token.debugDescription.contains("callbackLinkedList=(2 node"), token.debugDescription)
        XCTAssertTrue(token.debugDescription.contains("tokenChainLinkedList=(1 node"), token.debugDescription)
        XCTAssertFalse(token.description.isEmpty)
    }

    func testRule17_prunesDeadEntriesOnlyFromTheHead() {
        let token = PromiseInvalidationToken()
        var first: P? = P(fulfilled: 1)
        var second: P? = P(fulfilled: 2)
        token.requestCancelOnInvalidate(first!)
        token.requestCancelOnInvalidate(second!)
        first = nil // dies behind a live entry
        var third: P? = P(fulfilled: 3)
        token.requestCancelOnInvalidate(third!)
        XCTAssertTrue(token.debugDescription.contains("callbackLinkedList=(3 node"), token.debugDescription)
        third = nil // dies at the head
        token.requestCancelOnInvalidate(P(fulfilled: 4))
        XCTAssertTrue(token.debugDescription.contains("callbackLinkedList=(3 nodes)"),
                      "only the dead head is pruned; the dead entry behind a live one stays: \(token.debugDescription)")
        second = nil // now the whole list behind the (dead) head is dead
        token.requestCancelOnInvalidate(P(fulfilled: 5))
        XCTAssertTrue(token.debugDescription.contains("callbackLinkedList=(1 node)"), token.debugDescription)
        XCTAssertNil(first ?? second ?? third)
    }

    func testRule17_chainPrunesTheSameWay() {
        let token = PromiseInvalidationToken()
        var first: PromiseInvalidationToken? = PromiseInvalidationToken()
        let second = PromiseInvalidationToken()
        first!.chainInvalidation(from: token)
        second.chainInvalidation(from: token)
        first = nil
        var third: PromiseInvalidationToken? = PromiseInvalidationToken()
        third!.chainInvalidation(from: token)
        XCTAssertTrue(token.debugDescription.contains("tokenChainLinkedList=(3 node"), token.debugDescription)
        third = nil
        let fourth = PromiseInvalidationToken()
        fourth.chainInvalidation(from: token)
        XCTAssertTrue(token.debugDescription.contains("tokenChainLinkedList=(3 nodes)"), token.debugDescription)
        withExtendedLifetime(second) {}
        XCTAssertNil(first ?? third)
    }

    // MARK: Equality and threads

    func testTokenEqualityAndHashing() {
        let a = PromiseInvalidationToken()
        let copy = a
        let b = PromiseInvalidationToken()
        XCTAssertEqual(a, copy)
        XCTAssertNotEqual(a, b)
        XCTAssertEqual(Set([a, copy, b]).count, 2)
    }

    func testTokensHammeredFromManyThreads() {
        let token = PromiseInvalidationToken()
        let other = PromiseInvalidationToken()
        let ran = Counter()
        let resolvedCount = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for i in 0..<500 {
                let (promise, resolver) = Promise<Int, String>.makeWithResolver()
                let child = promise.then(on: .immediate, token: token) { _ in ran.increment() }
                token.requestCancelOnInvalidate(child)
                switch (worker + i) % 4 {
                case 0: token.invalidate()
                case 1: token.cancelWithoutInvalidating()
                case 2: other.chainInvalidation(from: token)
                default: _ = token.debugDescription
                }
                resolver.fulfill(with: i)
                if child.result == .value(i) { resolvedCount.increment() }
            }
        }
        XCTAssertEqual(resolvedCount.value, 8 * 500, "every child took its parent's result")
        XCTAssertLessThanOrEqual(ran.value, 8 * 500)
    }
}
