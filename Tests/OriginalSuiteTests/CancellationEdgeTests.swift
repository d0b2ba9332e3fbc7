// More of the original suite's cancellation expectations: requests on children whose parent
// already resolved, cancelRequested running once, when() over duplicate inputs, and cancel
// requests that reach a DelayedPromise or PromiseOperation before its handler ran.

import Foundation
import TestSupport
import Tomorrowland
import XCTest

final class CancellationEdgeTests: XCTestCase {
    func testRequestCancelOnChildOfResolvedParentDoesNotStopItsCallback() {
        let child = Promise<Int, String>(fulfilled: 1).map(on: .main, { $0 + 1 })
        child.requestCancel()
        let expectation = XCTestExpectation(onSuccess: child, expectedValue: 2)
        wait(for: [expectation], timeout: 10)
    }

    func testCancelRequestedRunsOnce() {
        var calls = 0
        let promise: Promise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (parent, r) = Promise<Int, String>.makeWithResolver()
            resolver = r
            promise = parent.propagatingCancellation(on: .immediate, cancelRequested: { _ in calls += 1 })
        }
        let child = promise.makeChild()
        child.requestCancel()
        XCTAssertEqual(calls, 1)
        promise.requestCancel()
        child.requestCancel()
        XCTAssertEqual(calls, 1)
        resolver.fulfill(with: 1)
        XCTAssertEqual(promise.result, .value(1))
    }

    func testWhenWithDuplicateInputsPropagatesCancel() {
        let requested = Locked(0)
        let promise: Promise<[Int], String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (input, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.modify({ $0 += 1 }); $0.cancel() })
            resolver = r
            promise = when(fulfilled: [input, input, input])
        }
        let expectation = XCTestExpectation(onCancel: promise)
        promise.requestCancel()
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(requested.value, 1)
        withExtendedLifetime(resolver) {}
    }

    func testWhenCancelOnFailureWithDuplicateInputs() {
        let (failing, failingResolver) = Promise<Int, String>.makeWithResolver()
        let (other, otherResolver) = Promise<Int, String>.makeCancellable()
        let promise = when(fulfilled: [other, failing, other, failing], cancelOnFailure: true)
        failingResolver.reject(with: "x")
        let expectation = XCTestExpectation(onError: promise, expectedError: "x")
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(other.result, .cancelled)
        withExtendedLifetime(otherResolver) {}
    }

    func testDelayedPromiseCancelRequestedBeforeHandlerRuns() {
        let dp = DelayedPromise<Int, String>(on: .main, { (resolver) in
            XCTAssertTrue(resolver.hasRequestedCancel)
            var ran = false
            resolver.onRequestCancel(on: .immediate, { (resolver) in
                ran = true
                resolver.cancel()
            })
            XCTAssertTrue(ran, "a handler registered after the request runs at once")
        })
        let promise = dp.promise
        promise.requestCancel()
        let expectation = XCTestExpectation(onCancel: promise)
        wait(for: [expectation], timeout: 10)
    }

    func testOperationCancelledOnQueueWhileWaitingForDependency() {
        let queue = OperationQueue()
        let blocker = PromiseOperation<Int, String>(on: .immediate, { _ in })
        let op = PromiseOperation<Int, String>(on: .utility, { (resolver) in
            XCTFail("handler of a cancelled operation ran")
            resolver.fulfill(with: 1)
        })
        op.addDependency(blocker)
        queue.addOperation(op)
        let expectation = XCTestExpectation(onCancel: op.promise)
        op.promise.requestCancel()
        XCTAssertTrue(op.isCancelled)
        wait(for: [expectation], timeout: 10)
        XCTAssertTrue(op.isFinished)
        blocker.cancel()
    }

    func testInvalidatingTokenCancelsTokenPromiseChainAndSuppressesCallbacks() {
        let token = PromiseInvalidationToken()
        let requested = Locked(false)
        let chain: TokenPromise<Int, String>
        let resolver: Promise<Int, String>.Resolver
        do {
            let (promise, r) = Promise<Int, String>.makeWithResolver()
            r.onRequestCancel(on: .immediate, { requested.value = true; $0.cancel() })
            resolver = r
            chain = promise.withToken(token)
                .then(on: .immediate, { _ in XCTFail() })
                .catch(on: .immediate, { _ in XCTFail() })
                .onCancel(on: .immediate, { XCTFail("onCancel suppressed by the token") })
        }
        token.invalidate()
        XCTAssertTrue(requested.value)
        XCTAssertEqual(chain.inner.result, .cancelled)
        withExtendedLifetime(resolver) {}
    }
}
