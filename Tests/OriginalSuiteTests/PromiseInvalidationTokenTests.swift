// The original suite's invalidation-token tests: suppressed callbacks (observers pass the result
// on, transformers cancel), when tokens are checked, invalidate-on-deinit, requestCancelOnInvalidate,
// cancelWithoutInvalidating, chainInvalidation, equality, and the list pruning seen through
// debugDescription.

import Foundation
import TestSupport
import Tomorrowland
import XCTest

final class PromiseInvalidationTokenTests: XCTestCase {
    func testInvalidationTokenSuppressesThen() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let child = promise.then(on: .immediate, token: token, { _ in
            XCTFail("invalidated callback invoked")
        })
        token.invalidate()
        resolver.fulfill(with: 42)
        XCTAssertEqual(child.result, .value(42), "an observer's promise still takes the result")
    }

    func testInvalidationTokenSuppressesObservers() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let then = promise.then(on: .immediate, token: token, { _ in XCTFail() })
        let catchPromise = promise.catch(on: .immediate, token: token, { _ in XCTFail() })
        let always = promise.always(on: .immediate, token: token, { _ in XCTFail() })
        let tapped = promise.tap(on: .immediate, token: token, { _ in XCTFail() })
        let onCancel = promise.onCancel(on: .immediate, token: token, { XCTFail() })
        token.invalidate()
        resolver.reject(with: "foo")
        XCTAssertEqual(then.result, .error("foo"))
        XCTAssertEqual(catchPromise.result, .error("foo"))
        XCTAssertEqual(always.result, .error("foo"))
        XCTAssertEqual(tapped.result, .error("foo"))
        XCTAssertEqual(onCancel.result, .error("foo"))
    }

    func testInvalidationTokenCancelsTransformers() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let map = promise.map(on: .immediate, token: token, { (x) -> Int in XCTFail(); return x })
        let flatMap = promise.flatMap(on: .immediate, token: token, { (x) -> Promise<Int, String> in XCTFail(); return Promise(fulfilled: x) })
        let mapResult = promise.mapResult(on: .immediate, token: token, { (r) -> PromiseResult<Int, String> in XCTFail(); return r })
        let flatMapResult = promise.flatMapResult(on: .immediate, token: token, { (r) -> Promise<Int, String> in XCTFail(); return Promise(with: r) })
        let tryMapResult = promise.tryMapResult(on: .immediate, token: token, { (r) -> PromiseResult<Int, TestError> in XCTFail(); return .cancelled })
        token.invalidate()
        resolver.fulfill(with: 42)
        XCTAssertEqual(map.result, .cancelled)
        XCTAssertEqual(flatMap.result, .cancelled)
        XCTAssertEqual(mapResult.result, .cancelled)
        XCTAssertEqual(flatMapResult.result, .cancelled)
        XCTAssertEqual(tryMapResult.result?.isCancelled, true)
    }

    func testInvalidationTokenCancelsErrorTransformers() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let recover = promise.recover(on: .immediate, token: token, { _ in XCTFail(); return 0 })
        let mapError = promise.mapError(on: .immediate, token: token, { (e) -> Int in XCTFail(); return 0 })
        let flatMapError = promise.flatMapError(on: .immediate, token: token, { (e) -> Promise<Int, Int> in XCTFail(); return Promise(rejected: 0) })
        let tryMapError = promise.tryMapError(on: .immediate, token: token, { (e) -> TestError in XCTFail(); return TestError() })
        token.invalidate()
        resolver.reject(with: "foo")
        XCTAssertEqual(recover.result, .cancelled)
        XCTAssertEqual(mapError.result, .cancelled)
        XCTAssertEqual(flatMapError.result, .cancelled)
        XCTAssertEqual(tryMapError.result?.isCancelled, true)
    }

    func testInvalidatedTransformerOnlyCancelsWhenItWouldHaveRun() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let map = promise.map(on: .immediate, token: token, { $0 + 1 })
        let recover = promise.recover(on: .immediate, token: token, { _ in 0 })
        token.invalidate()
        resolver.reject(with: "foo")
        XCTAssertEqual(map.result, .error("foo"), "map on a rejected parent passes the error through")
        XCTAssertEqual(recover.result, .cancelled)
    }

    func testInvalidationTokenStdTryVariants() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let tryThen = promise.tryThen(on: .immediate, token: token, { _ in XCTFail() })
        let tryMap = promise.tryMap(on: .immediate, token: token, { (x) -> Int in XCTFail(); return x })
        let tryFlatMap = promise.tryFlatMap(on: .immediate, token: token, { (x) -> Promise<Int, TestError> in XCTFail(); return Promise(fulfilled: x) })
        token.invalidate()
        resolver.fulfill(with: 1)
        XCTAssertEqual(tryThen.result?.value, 1)
        XCTAssertEqual(tryMap.result?.isCancelled, true)
        XCTAssertEqual(tryFlatMap.result?.isCancelled, true)
    }

    func testInvalidationTokenRemainingTryVariants() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let tryRecover = promise.tryRecover(on: .immediate, token: token, { _ in XCTFail(); return 0 })
        let tryFlatMapError = promise.tryFlatMapError(on: .immediate, token: token, { (e) -> Promise<Int, TestError> in XCTFail(); return Promise(fulfilled: 0) })
        let tryFlatMapResult = promise.tryFlatMapResult(on: .immediate, token: token, { (r) -> Promise<Int, TestError> in XCTFail(); return Promise(fulfilled: 0) })
        let catchPromise = promise.catch(on: .immediate, token: token, { _ in XCTFail() })
        token.invalidate()
        resolver.reject(with: TestError(1))
        XCTAssertEqual(tryRecover.result?.isCancelled, true)
        XCTAssertEqual(tryFlatMapError.result?.isCancelled, true)
        XCTAssertEqual(tryFlatMapResult.result?.isCancelled, true)
        XCTAssertEqual(catchPromise.result?.error as? TestError, TestError(1))
    }

    func testInvalidationTokenOnQueueCallbacks() {
        let token = PromiseInvalidationToken()
        let queue = TestQueue()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let map = promise.map(on: .queue(queue.queue), token: token, { (x) -> Int in XCTFail(); return x })
        let then = promise.then(on: .queue(queue.queue), token: token, { _ in XCTFail() })
        token.invalidate()
        resolver.fulfill(with: 1)
        let expectation = XCTestExpectation(onCancel: map)
        let expectation2 = XCTestExpectation(onSuccess: then, expectedValue: 1)
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testTokenIsCheckedWhenTheCallbackRuns() {
        let token = PromiseInvalidationToken()
        let expectation = XCTestExpectation(description: "later main block")
        let promise = Promise<Int, String>(fulfilled: 42)
        let child = promise.then(on: .main, token: token, { _ in
            XCTFail("callback ran after its token was invalidated")
        })
        // The callback is already queued on main; invalidating now still suppresses it.
        token.invalidate()
        let expectation2 = XCTestExpectation(onSuccess: child, expectedValue: 42)
        DispatchQueue.main.async { expectation.fulfill() }
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testInvalidateOnlyAffectsEarlierCallbacks() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        _ = promise.then(on: .immediate, token: token, { _ in XCTFail() })
        token.invalidate()
        var invoked = false
        _ = promise.then(on: .immediate, token: token, { _ in invoked = true })
        resolver.fulfill(with: 42)
        XCTAssertTrue(invoked, "a token can be reused after invalidation")
    }

    func testInvalidationTokenMultiplePromises() {
        let token = PromiseInvalidationToken()
        let (promise1, resolver1) = Promise<Int, String>.makeWithResolver()
        let (promise2, resolver2) = Promise<String, String>.makeWithResolver()
        _ = promise1.then(on: .immediate, token: token, { _ in XCTFail() })
        _ = promise2.then(on: .immediate, token: token, { _ in XCTFail() })
        token.invalidate()
        resolver1.fulfill(with: 1)
        resolver2.fulfill(with: "a")
    }

    func testInvalidateOnDeinit() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let child: Promise<Int, String>
        do {
            let token = PromiseInvalidationToken()
            child = promise.map(on: .immediate, token: token, { (x) -> Int in
                XCTFail("callback ran after its token was dropped")
                return x
            })
        }
        resolver.fulfill(with: 42)
        XCTAssertEqual(child.result, .cancelled)
    }

    func testNoInvalidateOnDeinit() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var invoked = false
        do {
            let token = PromiseInvalidationToken(invalidateOnDeinit: false)
            _ = promise.then(on: .immediate, token: token, { _ in invoked = true })
        }
        resolver.fulfill(with: 42)
        XCTAssertTrue(invoked)
    }

    func testPendingCallbacksDoNotKeepTokenAlive() {
        // The token deinits (and so invalidates, cancelling its promises) while a callback
        // registered with it is still pending.
        let requested = Locked(false)
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate, { _ in requested.value = true })
        do {
            let token = PromiseInvalidationToken()
            _ = promise.then(on: .immediate, token: token, { _ in XCTFail() })
            token.requestCancelOnInvalidate(promise)
        }
        XCTAssertTrue(requested.value)
        resolver.fulfill(with: 1)
    }

    func testRequestCancelOnInvalidate() {
        let token = PromiseInvalidationToken()
        let (promise1, resolver1) = Promise<Int, String>.makeCancellable()
        let (promise2, resolver2) = Promise<Int, String>.makeCancellable()
        token.requestCancelOnInvalidate(promise1)
        token.requestCancelOnInvalidate(promise2)
        XCTAssertNil(promise1.result)
        token.invalidate()
        XCTAssertEqual(promise1.result, .cancelled)
        XCTAssertEqual(promise2.result, .cancelled)
        withExtendedLifetime((resolver1, resolver2)) {}
    }

    func testRequestCancelOnInvalidateListIsClearedByInvalidate() {
        let token = PromiseInvalidationToken()
        var requests = 0
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate, { _ in requests += 1 })
        token.requestCancelOnInvalidate(promise)
        XCTAssertTrue(token.debugDescription.contains("callbackLinkedList=(1 node"), token.debugDescription)
        token.invalidate()
        XCTAssertEqual(requests, 1)
        XCTAssertTrue(token.debugDescription.contains("callbackLinkedList=(0 node"), token.debugDescription)
        token.invalidate()
        XCTAssertEqual(requests, 1)
    }

    func testRequestCancelOnInvalidateDoesNotRetainPromise() {
        let token = PromiseInvalidationToken()
        var released = false
        do {
            let notifier = NotifyOnDeinit { released = true }
            let promise = Promise<Int, String>(fulfilled: 1).map(on: .immediate, { (x) -> Int in
                withExtendedLifetime(notifier) {}
                return x
            })
            token.requestCancelOnInvalidate(promise)
        }
        XCTAssertTrue(released)
        token.invalidate()
    }

    func testRequestCancelOnInvalidatePrunesDeadNodesAtHead() {
        let token = PromiseInvalidationToken()
        for _ in 0..<5 {
            let (promise, resolver) = Promise<Int, String>.makeWithResolver()
            token.requestCancelOnInvalidate(promise)
            resolver.fulfill(with: 1)
        }
        // Every earlier promise was gone when the next was pushed: one node left.
        XCTAssertTrue(token.debugDescription.contains("callbackLinkedList=(1 node"), token.debugDescription)

        let (live, liveResolver) = Promise<Int, String>.makeWithResolver()
        token.requestCancelOnInvalidate(live)
        for _ in 0..<3 {
            let (promise, resolver) = Promise<Int, String>.makeWithResolver()
            token.requestCancelOnInvalidate(promise)
            resolver.fulfill(with: 1)
        }
        // Pruning stops at the first live node.
        XCTAssertTrue(token.debugDescription.contains("callbackLinkedList=(2 node"), token.debugDescription)
        withExtendedLifetime((live, liveResolver)) {}
    }

    func testCancelWithoutInvalidating() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeCancellable()
        token.requestCancelOnInvalidate(promise)
        var onCancelInvoked = false
        promise.onCancel(on: .immediate, token: token, { onCancelInvoked = true })
        token.cancelWithoutInvalidating()
        XCTAssertEqual(promise.result, .cancelled)
        XCTAssertTrue(onCancelInvoked, "callbacks still run")
        withExtendedLifetime(resolver) {}
    }

    func testChainInvalidation() {
        let parent = PromiseInvalidationToken()
        let child = PromiseInvalidationToken()
        child.chainInvalidation(from: parent)
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        _ = promise.then(on: .immediate, token: child, { _ in XCTFail("child token not invalidated") })
        parent.invalidate()
        resolver.fulfill(with: 1)
    }

    func testChainInvalidationDoesNotGoUpstream() {
        let parent = PromiseInvalidationToken()
        let child = PromiseInvalidationToken()
        child.chainInvalidation(from: parent)
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var invoked = false
        _ = promise.then(on: .immediate, token: parent, { _ in invoked = true })
        child.invalidate()
        resolver.fulfill(with: 1)
        XCTAssertTrue(invoked)
    }

    func testChainInvalidationMultipleLevels() {
        let a = PromiseInvalidationToken()
        let b = PromiseInvalidationToken()
        let c = PromiseInvalidationToken()
        b.chainInvalidation(from: a)
        c.chainInvalidation(from: b)
        let (promise, resolver) = Promise<Int, String>.makeCancellable()
        c.requestCancelOnInvalidate(promise)
        a.invalidate()
        XCTAssertEqual(promise.result, .cancelled)
        withExtendedLifetime(resolver) {}
    }

    func testChainInvalidationPassesCancelWithoutInvalidating() {
        let parent = PromiseInvalidationToken()
        let child = PromiseInvalidationToken()
        child.chainInvalidation(from: parent)
        let (promise, resolver) = Promise<Int, String>.makeCancellable()
        child.requestCancelOnInvalidate(promise)
        var invoked = false
        _ = promise.onCancel(on: .immediate, token: child, { invoked = true })
        parent.cancelWithoutInvalidating()
        XCTAssertEqual(promise.result, .cancelled)
        XCTAssertTrue(invoked)
        withExtendedLifetime(resolver) {}
    }

    func testChainInvalidationWithoutCancelWithoutInvalidating() {
        let parent = PromiseInvalidationToken()
        let child = PromiseInvalidationToken()
        child.chainInvalidation(from: parent, includingCancelWithoutInvalidating: false)
        let (promise, resolver) = Promise<Int, String>.makeCancellable()
        child.requestCancelOnInvalidate(promise)
        parent.cancelWithoutInvalidating()
        XCTAssertNil(promise.result)
        parent.invalidate()
        XCTAssertEqual(promise.result, .cancelled, "invalidation is still passed on")
        withExtendedLifetime(resolver) {}
    }

    func testChainInvalidationDoesNotRetainChild() {
        let parent = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let child: Promise<Int, String>
        do {
            let token = PromiseInvalidationToken()
            token.chainInvalidation(from: parent)
            child = promise.map(on: .immediate, token: token, { $0 })
        }
        // The chained token was dropped, so it invalidated itself.
        resolver.fulfill(with: 1)
        XCTAssertEqual(child.result, .cancelled)
    }

    func testChainInvalidationPrunesDeadTokensAtHead() {
        let parent = PromiseInvalidationToken()
        for _ in 0..<3 {
            let token = PromiseInvalidationToken()
            token.chainInvalidation(from: parent)
        }
        XCTAssertTrue(parent.debugDescription.contains("tokenChainLinkedList=(1 node"), parent.debugDescription)
        let live = PromiseInvalidationToken()
        live.chainInvalidation(from: parent)
        for _ in 0..<3 {
            let token = PromiseInvalidationToken()
            token.chainInvalidation(from: parent)
        }
        XCTAssertTrue(parent.debugDescription.contains("tokenChainLinkedList=(2 node"), "pruning stops at the first live token: \(parent.debugDescription)")
        withExtendedLifetime(live) {}
    }

    func testChainInvalidationFromSelfDoesNothing() {
        let token = PromiseInvalidationToken()
        token.chainInvalidation(from: token)
        XCTAssertTrue(token.debugDescription.contains("tokenChainLinkedList=(0 node"), token.debugDescription)
        token.invalidate()
    }

    func testTokenEquality() {
        let token = PromiseInvalidationToken()
        let copy = token
        XCTAssertEqual(token, copy)
        XCTAssertNotEqual(token, PromiseInvalidationToken())
        XCTAssertEqual(Set([token, copy, PromiseInvalidationToken()]).count, 2)
        XCTAssertFalse(token.description.isEmpty)
    }
}

final class TokenPromiseTests: XCTestCase {
    func testWithToken() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let tokenPromise = promise.withToken(token)
        XCTAssertEqual(tokenPromise.inner, promise)
        XCTAssertEqual(tokenPromise.token, token)
        XCTAssertEqual(TokenPromise(promise: promise, token: token), tokenPromise)
        withExtendedLifetime(resolver) {}
    }

    func testTokenPromiseCallbacksSuppressed() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let then = promise.withToken(token).then(on: .immediate, { _ in XCTFail() })
        let map = promise.withToken(token).map(on: .immediate, { (x) -> Int in XCTFail(); return x })
        let always = promise.withToken(token).always(on: .immediate, { _ in XCTFail() })
        token.invalidate()
        resolver.fulfill(with: 1)
        XCTAssertEqual(then.inner.result, .value(1))
        XCTAssertEqual(map.inner.result, .cancelled)
        XCTAssertEqual(always.inner.result, .value(1))
    }

    func testTokenPromiseCallbacksRun() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var log: [String] = []
        let chain = promise.withToken(token)
            .then(on: .immediate, { log.append("then \($0)") })
            .map(on: .immediate, { $0 * 2 })
            .flatMap(on: .immediate, { Promise<Int, String>(rejected: "err \($0)") })
            .catch(on: .immediate, { log.append("catch \($0)") })
            .recover(on: .immediate, { $0.count })
            .always(on: .immediate, { log.append("always \($0)") })
        resolver.fulfill(with: 3)
        XCTAssertEqual(log, ["then 3", "catch err 6", "always value(5)"])
        XCTAssertEqual(chain.inner.result, .value(5))
    }

    func testTokenPromiseResultVariants() {
        let token = PromiseInvalidationToken()
        let promise = Promise<Int, String>(fulfilled: 2).withToken(token)
        let mapResult = promise.mapResult(on: .immediate, onComplete: { (r) -> PromiseResult<String, Int> in .error(r.value ?? 0) })
        XCTAssertEqual(mapResult.inner.result, .error(2))
        let flatMapResult = promise.flatMapResult(on: .immediate, { (r) -> Promise<String, Int> in Promise(fulfilled: "x") })
        XCTAssertEqual(flatMapResult.inner.result, .value("x"))
        let tryMapResult = promise.tryMapResult(on: .immediate, { (r) -> PromiseResult<Int, TestError> in throw TestError(9) })
        XCTAssertEqual(tryMapResult.inner.result?.error as? TestError, TestError(9))
        let tryFlatMapResult = promise.tryFlatMapResult(on: .immediate, { (r) -> Promise<Int, TestError> in Promise(fulfilled: 4) })
        XCTAssertEqual(tryFlatMapResult.inner.result?.value, 4)
    }

    func testTokenPromiseErrorVariants() {
        let token = PromiseInvalidationToken()
        let promise = Promise<Int, String>(rejected: "abc").withToken(token)
        XCTAssertEqual(promise.mapError(on: .immediate, { $0.count }).inner.result, .error(3))
        XCTAssertEqual(promise.flatMapError(on: .immediate, { Promise<Int, Int>(rejected: $0.count) }).inner.result, .error(3))
        XCTAssertEqual(promise.tryMapError(on: .immediate, { TestError($0.count) }).inner.result?.error as? TestError, TestError(3))
        XCTAssertEqual(promise.tryFlatMapError(on: .immediate, { (e) -> Promise<Int, TestError> in Promise(fulfilled: 1) }).inner.result?.value, 1)
    }

    func testTokenPromiseStdVariants() {
        let token = PromiseInvalidationToken()
        let promise = StdPromise<Int>(fulfilled: 2).withToken(token)
        XCTAssertEqual(promise.tryMap(on: .immediate, { $0 + 1 }).inner.result?.value, 3)
        XCTAssertEqual(promise.tryThen(on: .immediate, { _ in throw TestError(1) }).inner.result?.error as? TestError, TestError(1))
        XCTAssertEqual(promise.tryFlatMap(on: .immediate, { Promise<Int, TestError>(fulfilled: $0 * 5) }).inner.result?.value, 10)
        let rejected = StdPromise<Int>(rejected: TestError(2)).withToken(token)
        XCTAssertEqual(rejected.tryRecover(on: .immediate, { _ in 7 }).inner.result?.value, 7)
        XCTAssertEqual(rejected.tryFlatMapError(on: .immediate, { _ in Promise<Int, TestError>(fulfilled: 8) }).inner.result?.value, 8)
    }

    func testTokenPromiseChildrenCancelledOnInvalidate() {
        let requested = Locked(false)
        let resolver: Promise<Int, String>.Resolver
        let child: TokenPromise<Int, String>
        let token = PromiseInvalidationToken()
        do {
            let (promise, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            child = promise.withToken(token).map(on: .immediate, { $0 + 1 })
        }
        token.invalidate()
        XCTAssertTrue(requested.value)
        XCTAssertEqual(child.inner.result, .cancelled)
        withExtendedLifetime(resolver) {}
    }

    func testTokenPromiseReadmeLoadModel() {
        let token = PromiseInvalidationToken()
        var shown: [Int] = []
        var cancelledLoads = 0
        func fetch() -> Promise<Int, String> {
            let (promise, resolver) = Promise<Int, String>.makeWithResolver()
            resolver.onRequestCancel(on: .immediate, { cancelledLoads += 1; $0.cancel() })
            return promise
        }
        func loadModel() {
            token.invalidate()
            fetch()
                .withToken(token)
                .then(on: .immediate, { shown.append($0) })
                .catch(on: .immediate, { _ in XCTFail() })
        }
        loadModel()
        loadModel()
        XCTAssertEqual(cancelledLoads, 1, "the first load was cancelled by the second")
    }

    func testTokenPromiseTapAndIgnoringCancelAreNotRegistered() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var requests = 0
        resolver.onRequestCancel(on: .immediate, { _ in requests += 1 })
        let tokenPromise = promise.withToken(token)
        let tapped = tokenPromise.tap()
        let ignoring = tokenPromise.ignoringCancel()
        XCTAssertEqual(tokenPromise.tap(on: .immediate, { _ in }), tokenPromise)
        token.invalidate()
        XCTAssertEqual(requests, 0)
        resolver.fulfill(with: 1)
        XCTAssertEqual(tapped.inner.result, .value(1))
        XCTAssertEqual(ignoring.inner.result, .value(1))
    }

    func testTokenPromiseOnCancelAndFork() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var invoked = 0
        let tokenPromise = promise.withToken(token)
        let forked = tokenPromise.fork({ (p) in
            p.onCancel(on: .immediate, { invoked += 1 })
            p.onCancel(on: .immediate, { invoked += 1 })
        })
        XCTAssertEqual(forked, tokenPromise)
        resolver.cancel()
        XCTAssertEqual(invoked, 2)
    }

    func testTokenPromiseEquality() {
        let token = PromiseInvalidationToken()
        let promise = Promise<Int, String>(fulfilled: 1)
        XCTAssertEqual(promise.withToken(token), promise.withToken(token))
        XCTAssertNotEqual(promise.withToken(token), promise.withToken(PromiseInvalidationToken()))
        XCTAssertNotEqual(promise.withToken(token), Promise<Int, String>(fulfilled: 1).withToken(token))
    }
}
