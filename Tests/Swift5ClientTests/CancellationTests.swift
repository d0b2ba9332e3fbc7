// 1.x-style cancellation: tokens, TokenPromise, requestCancelOnInvalidate, cancellable,
// propagatingCancellation + makeChild (the README's resource de-duplication).

import Foundation
import Tomorrowland
import XCTest

/// The README's `loadResource(at:)`, with the dictionary of in-flight loads kept on an
/// ordinary (non-Sendable) class and mutated from `.main` callbacks.
class ResourceLoader {
    var resourceLoads: [URL: StdPromise<Data>] = [:]
    var requestsMade: [URL] = []
    var resolvers: [URL: StdPromise<Data>.Resolver] = [:]
    var cancelledURLs: [URL] = []

    func makeResourceRequest(for url: URL) -> StdPromise<Data> {
        requestsMade.append(url)
        let (promise, resolver) = StdPromise<Data>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate) { resolver in
            self.cancelledURLs.append(url)
            resolver.cancel()
        }
        resolvers[url] = resolver
        return promise
    }

    func loadResource(at url: URL) -> StdPromise<Data> {
        let promise: StdPromise<Data>
        if let existingPromise = resourceLoads[url] {
            promise = existingPromise
        } else {
            promise = makeResourceRequest(for: url).propagatingCancellation(on: .immediate, cancelRequested: { (promise) in
                if self.resourceLoads[url] == promise {
                    self.resourceLoads[url] = nil
                }
            })
            resourceLoads[url] = promise
        }
        // Return a new child for each request so all clients have to cancel, not just one.
        return promise.makeChild()
    }
}

/// The README's `loadModel()` with a `promiseToken` property, both spellings.
class ModelViewController {
    let promiseToken = PromiseInvalidationToken()
    var shownModels: [String] = []
    var shownErrors: [String] = []

    func loadModelVerbose(_ fetch: Promise<String, String>) {
        promiseToken.invalidate()
        fetch
            .then(token: promiseToken, { [weak self] (model) in
                self?.shownModels.append(model)
            }).catch(token: promiseToken, { [weak self] (error) in
                self?.shownErrors.append(error)
            }).requestCancelOnInvalidate(promiseToken)
    }

    func loadModel(_ fetch: Promise<String, String>) {
        promiseToken.invalidate()
        fetch
            .withToken(promiseToken)
            .then({ [weak self] (model) in
                self?.shownModels.append(model)
            }).catch({ [weak self] (error) in
                self?.shownErrors.append(error)
            })
    }
}

final class CancellationTests: XCTestCase {
    func testResourceDedupWithPropagatingCancellationAndMakeChild() {
        let loader = ResourceLoader()
        let url = URL(string: "https://example.com/a.png")!
        let first = loader.loadResource(at: url)
        let second = loader.loadResource(at: url)
        XCTAssertEqual(loader.requestsMade, [url], "second client shares the load")
        XCTAssertFalse(first == second, "each client gets its own child")

        first.requestCancel()
        XCTAssertEqual(loader.cancelledURLs, [], "one client cancelling is not enough")
        XCTAssertNotNil(loader.resourceLoads[url])

        second.requestCancel()
        XCTAssertEqual(loader.cancelledURLs, [url])
        XCTAssertNil(loader.resourceLoads[url], "cancelRequested removed the entry")
        XCTAssertEqual(first.result?.isCancelled, true)
        XCTAssertEqual(second.result?.isCancelled, true)

        // A new request after that starts a fresh load, which can fulfil normally.
        let third = loader.loadResource(at: url)
        XCTAssertEqual(loader.requestsMade, [url, url])
        loader.resolvers[url]?.fulfill(with: pngBytes)
        XCTAssertEqual(third.result?.value, pngBytes)
    }

    func testTokenSuppressesCallbacksAndRequestsCancel() {
        let controller = ModelViewController()
        var staleResolver: Promise<String, String>.Resolver!
        var staleCancelRequested = false
        do {
            // Our own handle must be gone for the cancel request to propagate (rule 5).
            let (stale, resolver) = Promise<String, String>.makeWithResolver()
            staleResolver = resolver
            resolver.onRequestCancel(on: .immediate) { _ in staleCancelRequested = true }
            controller.loadModelVerbose(stale)
        }
        let (fresh, freshResolver) = Promise<String, String>.makeWithResolver()
        controller.loadModelVerbose(fresh)
        XCTAssertTrue(staleCancelRequested, "invalidate() requested cancel of the stale chain")

        let expectation = self.expectation(description: "delivered")
        fresh.always(on: .main) { _ in expectation.fulfill() }
        staleResolver.fulfill(with: "stale")
        freshResolver.fulfill(with: "fresh")
        wait(for: [expectation], timeout: 10)
        let drained = self.expectation(description: "main drained")
        DispatchQueue.main.async { drained.fulfill() }
        wait(for: [drained], timeout: 10)
        XCTAssertEqual(controller.shownModels, ["fresh"])
        XCTAssertEqual(controller.shownErrors, [])
    }

    func testWithTokenChain() {
        let controller = ModelViewController()
        var firstResolver: Promise<String, String>.Resolver!
        var firstCancelRequested = false
        do {
            let (first, resolver) = Promise<String, String>.makeWithResolver()
            firstResolver = resolver
            resolver.onRequestCancel(on: .immediate) { _ in firstCancelRequested = true }
            controller.loadModel(first)
        }
        let second = Promise<String, String>(rejected: "offline")
        controller.loadModel(second)
        XCTAssertTrue(firstCancelRequested)
        firstResolver.fulfill(with: "late")

        let done = expectation(description: "drained")
        second.always(on: .main) { _ in DispatchQueue.main.async { done.fulfill() } }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(controller.shownModels, [])
        XCTAssertEqual(controller.shownErrors, ["offline"])
    }

    func testTokenPromiseOperatorsSkipAfterInvalidate() {
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        var log: [String] = []
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let wrapped = promise.withToken(token)
        let mapped = wrapped.map(on: .immediate) { $0 + 1 }
        let tried = wrapped.tryMap(on: .immediate) { value -> Int in
            if value < 0 { throw APIError.badData }
            return value * 2
        }
        wrapped.then(on: .immediate) { log.append("then \($0)") }
            .catch(on: .immediate) { _ in log.append("catch") }
            .always(on: .immediate) { _ in log.append("always") }
        wrapped.tryThen(on: .immediate) { _ in log.append("tryThen") }
        wrapped.tap(on: .immediate) { _ in log.append("tap") }
        wrapped.onCancel(on: .immediate) { log.append("onCancel") }
        let recovered = wrapped.recover(on: .immediate) { _ in 0 }
        XCTAssertTrue(wrapped.inner == promise)
        XCTAssertEqual(wrapped.token, token)
        XCTAssertTrue(wrapped == TokenPromise(promise: promise, token: token))
        token.invalidate()
        resolver.fulfill(with: 1)
        XCTAssertEqual(log, [], "every callback registered before invalidate() is skipped")
        XCTAssertEqual(mapped.inner.result?.isCancelled, true, "skipped transformer cancels")
        XCTAssertEqual(tried.inner.result?.isCancelled, true)
        XCTAssertEqual(recovered.inner.result?.value, 1, "recover passes the value through")

        // The token is reusable: callbacks registered after invalidate() run.
        let later = promise.withToken(token).map(on: .immediate) { "\($0)" }
        XCTAssertEqual(later.inner.result?.value, "1")
    }

    func testTokenPromiseErrorAndResultOperators() {
        let token = PromiseInvalidationToken()
        let failing = Promise<Int, String>(rejected: "e").withToken(token)
        XCTAssertEqual(failing.mapError(on: .immediate) { $0.count }.inner.result?.error, 1)
        XCTAssertEqual(failing.flatMapError(on: .immediate) { _ in Promise<Int, NoError>(fulfilled: 2) }.inner.result?.value, 2)
        XCTAssertEqual(failing.tryMapError(on: .immediate) { _ in APIError.badData }.inner.result?.error as? APIError, .badData)
        XCTAssertEqual(failing.tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(rejected: .notFound) }.inner.result?.error as? APIError, .notFound)
        XCTAssertEqual(failing.mapResult(on: .immediate, onComplete: { _ in PromiseResult<Int, NoError>.value(3) }).inner.result?.value, 3)
        XCTAssertEqual(failing.flatMapResult(on: .immediate) { _ in Promise<Int, String>(fulfilled: 4) }.inner.result?.value, 4)
        XCTAssertEqual(failing.tryMapResult(on: .immediate) { _ in PromiseResult<Int, APIError>.value(5) }.inner.result?.value, 5)
        XCTAssertEqual(failing.tryFlatMapResult(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 6) }.inner.result?.value, 6)
        XCTAssertEqual(failing.tap().inner.result, .error("e"))
        XCTAssertEqual(failing.ignoringCancel().inner.result, .error("e"))

        let std = StdPromise<Int>(fulfilled: 1).withToken(token)
        XCTAssertEqual(std.flatMap(on: .immediate) { StdPromise(fulfilled: $0 + 1) }.inner.result?.value, 2)
        XCTAssertEqual(std.tryFlatMap(on: .immediate) { Promise<Int, APIError>(fulfilled: $0 + 2) }.inner.result?.value, 3)
        let rejected = StdPromise<Int>(rejected: APIError.notFound).withToken(token)
        XCTAssertEqual(rejected.tryRecover(on: .immediate) { _ in 7 }.inner.result?.value, 7)
        XCTAssertEqual(rejected.tryFlatMapError(on: .immediate) { _ in Promise<Int, APIError>(fulfilled: 8) }.inner.result?.value, 8)
        var forkedCount = 0
        _ = std.fork { _ in forkedCount += 1 }
        XCTAssertEqual(forkedCount, 1)
    }

    func testChainInvalidationAndCancelWithoutInvalidating() {
        let logoutToken = PromiseInvalidationToken()
        let screenToken = PromiseInvalidationToken()
        screenToken.chainInvalidation(from: logoutToken)
        var calls: [String] = []
        let (p, r) = Promise<Int, String>.makeWithResolver()
        var cancelRequests = 0
        r.onRequestCancel(on: .immediate) { _ in cancelRequests += 1 }
        p.requestCancelOnInvalidate(screenToken)
        let child = p.then(on: .immediate, token: screenToken) { _ in calls.append("screen") }
        logoutToken.cancelWithoutInvalidating()
        XCTAssertEqual(cancelRequests, 1, "cancelWithoutInvalidating is passed down the chain")
        logoutToken.invalidate()
        r.fulfill(with: 1)
        XCTAssertEqual(calls, [], "invalidating the parent token invalidated the child token")
        XCTAssertEqual(child.result, .value(1))
        XCTAssertTrue(screenToken.debugDescription.contains("tokenChainLinkedList="))
        XCTAssertFalse(screenToken.description.isEmpty)
        XCTAssertNotEqual(screenToken, logoutToken)
        XCTAssertEqual(Set([screenToken, screenToken, logoutToken]).count, 2)
    }

    func testTokenRegistrationOnTheTokenAndChainWithoutCancelPassing() {
        let parent = PromiseInvalidationToken()
        let child = PromiseInvalidationToken(invalidateOnDeinit: false)
        child.chainInvalidation(from: parent, includingCancelWithoutInvalidating: false)
        var requests = 0
        let work = Promise<Int, String>(on: .background) { resolver in
            resolver.onRequestCancel(on: .immediate) { _ in requests += 1 }
        }
        child.requestCancelOnInvalidate(work)
        parent.cancelWithoutInvalidating()
        XCTAssertEqual(requests, 0, "cancelWithoutInvalidating is not passed on")
        parent.invalidate()
        let done = expectation(description: "cancel request seen")
        work.onCancel { done.fulfill() }
        // The .background handler may not have registered its cancel handler yet; a later
        // registration runs at once because cancel was already requested (rule 4).
        wait(for: [done], timeout: 10)
        XCTAssertEqual(requests, 1, "invalidating the parent invalidated the child")
    }

    func testTokenInvalidatesOnDeinit() {
        var called = false
        var requested = false
        var r: Promise<Int, String>.Resolver!
        do {
            let (p, resolver) = Promise<Int, String>.makeWithResolver()
            r = resolver
            resolver.onRequestCancel(on: .immediate) { _ in requested = true }
            let token = PromiseInvalidationToken()
            p.then(on: .immediate, token: token) { _ in called = true }.requestCancelOnInvalidate(token)
        }
        XCTAssertTrue(requested, "dropping the token invalidated it and requested cancel")
        r.fulfill(with: 1)
        XCTAssertFalse(called)
    }

    func testCancellableAndIgnoringCancelAndOnCancel() {
        var onCancelCalled = false
        var cancelRequested = false
        let (p, r) = Promise<Int, String>.makeWithResolver()
        r.onRequestCancel(on: .immediate) { resolver in
            cancelRequested = true
            resolver.cancel()
        }
        let cancellable: PromiseCancellable = p.onCancel(on: .immediate) { onCancelCalled = true }.cancellable
        let shielded = p.ignoringCancel()
        shielded.requestCancel()
        XCTAssertFalse(cancelRequested, "ignoringCancel never passes cancel upstream")
        cancellable.requestCancel()
        XCTAssertFalse(cancelRequested, "still held by our handle `p` and the ignoringCancel observer")
        p.requestCancel()
        XCTAssertTrue(cancelRequested)
        XCTAssertTrue(onCancelCalled)
        XCTAssertEqual(shielded.result, .cancelled)
    }

    func testAutomaticCancellationPropagationThroughChain() {
        var cancelled = false
        var chain: Promise<String, String>?
        do {
            let root = Promise<Int, String>(on: .immediate) { resolver in
                resolver.onRequestCancel(on: .immediate) { resolver in
                    cancelled = true
                    resolver.cancel()
                }
            }
            chain = root.map(on: .default) { "\($0)" }.then { _ in }
        }
        chain?.requestCancel()
        let done = expectation(description: "cancelled")
        chain?.onCancel { done.fulfill() }
        wait(for: [done], timeout: 10)
        XCTAssertTrue(cancelled)
    }
}
