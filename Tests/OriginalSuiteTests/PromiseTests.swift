// The original suite's PromiseTests: creating and resolving promises, every callback method and
// its result, contexts, `.nowOr`, `isExecutingNow`, resolvers, `handleCallback` and the small
// utilities (`fork`, `upcast`, `result`, equality, `Swift.Result`).

import Foundation
import TestSupport
import Tomorrowland
import XCTest

final class PromiseTests: XCTestCase {
    // MARK: - Basics

    func testBasicFulfill() {
        let promise = Promise<Int, String>(on: .utility, { (resolver) in
            resolver.fulfill(with: 42)
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(promise.result, .value(42))
    }

    func testBasicReject() {
        let promise = Promise<Int, String>(on: .utility, { (resolver) in
            resolver.reject(with: "error")
        })
        let expectation = XCTestExpectation(onError: promise, expectedError: "error")
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(promise.result, .error("error"))
    }

    func testBasicCancel() {
        let promise = Promise<Int, String>(on: .utility, { (resolver) in
            resolver.cancel()
        })
        let expectation = XCTestExpectation(onCancel: promise)
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(promise.result, .cancelled)
    }

    func testBasicResolveWithResult() {
        let promise1 = Promise<Int, String>(on: .immediate, { $0.resolve(with: .value(42)) })
        let promise2 = Promise<Int, String>(on: .immediate, { $0.resolve(with: .error("foo")) })
        let promise3 = Promise<Int, String>(on: .immediate, { $0.resolve(with: .cancelled) })
        XCTAssertEqual(promise1.result, .value(42))
        XCTAssertEqual(promise2.result, .error("foo"))
        XCTAssertEqual(promise3.result, .cancelled)
    }

    func testResultIsNilWhileUnresolved() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        XCTAssertNil(promise.result)
        resolver.fulfill(with: 1)
        XCTAssertEqual(promise.result, .value(1))
    }

    func testFirstResolutionWins() {
        let promise = Promise<Int, String>(on: .immediate, { (resolver) in
            resolver.fulfill(with: 42)
            resolver.reject(with: "error")
            resolver.cancel()
            resolver.fulfill(with: 43)
            resolver.resolve(with: .value(44))
        })
        XCTAssertEqual(promise.result, .value(42))
        let promise2 = Promise<Int, String>(on: .immediate, { (resolver) in
            resolver.cancel()
            resolver.fulfill(with: 42)
            resolver.reject(with: "error")
        })
        XCTAssertEqual(promise2.result, .cancelled)
    }

    func testResolveOnAnotherThread() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 0.01) {
            resolver.fulfill(with: 42)
        }
        wait(for: [expectation], timeout: 10)
    }

    func testAlreadyFulfilled() {
        let promise = Promise<Int, String>(fulfilled: 42)
        XCTAssertEqual(promise.result, .value(42))
        var invoked = false
        _ = promise.then(on: .immediate, { (x) in
            XCTAssertEqual(x, 42)
            invoked = true
        })
        XCTAssertTrue(invoked)
    }

    func testAlreadyRejected() {
        let promise = Promise<Int, String>(rejected: "foo")
        XCTAssertEqual(promise.result, .error("foo"))
        var invoked = false
        promise.catch(on: .immediate, { (x) in
            XCTAssertEqual(x, "foo")
            invoked = true
        })
        XCTAssertTrue(invoked)
    }

    func testPromiseWithResult() {
        XCTAssertEqual(Promise<Int, String>(with: .value(42)).result, .value(42))
        XCTAssertEqual(Promise<Int, String>(with: .error("foo")).result, .error("foo"))
        XCTAssertEqual(Promise<Int, String>(with: .cancelled).result, .cancelled)
        var invoked = false
        Promise<Int, String>(with: .cancelled).onCancel(on: .immediate, {
            invoked = true
        })
        XCTAssertTrue(invoked)
    }

    func testMakeWithResolver() {
        let (promise, resolver) = Promise<String, Int>.makeWithResolver()
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: "foo")
        DispatchQueue.global(qos: .utility).async {
            resolver.fulfill(with: "foo")
        }
        wait(for: [expectation], timeout: 10)
    }

    func testInitOnImmediateRunsSynchronously() {
        var invoked = false
        let promise = Promise<Int, String>(on: .immediate, { (resolver) in
            invoked = true
            resolver.fulfill(with: 1)
        })
        XCTAssertTrue(invoked)
        XCTAssertEqual(promise.result, .value(1))
    }

    func testInitOnQueueRunsOnThatQueue() {
        let queue = TestQueue()
        let promise = Promise<Bool, String>(on: .queue(queue.queue), { (resolver) in
            resolver.fulfill(with: queue.isCurrent)
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: true)
        wait(for: [expectation], timeout: 10)
    }

    func testPromiseHandlerDroppingResolverCancels() {
        // A promise whose handler returns without resolving and without keeping the resolver is
        // cancelled once nothing can resolve it.
        let expectation: XCTestExpectation
        do {
            let promise = Promise<Int, String>(on: .utility, { _ in })
            expectation = XCTestExpectation(onCancel: promise)
        }
        wait(for: [expectation], timeout: 10)
    }

    // MARK: - then

    func testThen() {
        let promise = Promise<Int, String>(on: .utility, { (resolver) in
            resolver.fulfill(with: 42)
        })
        let expectation = XCTestExpectation(description: "then")
        let promise2 = promise.then(on: .utility, { (x) in
            XCTAssertEqual(x, 42)
            expectation.fulfill()
        })
        let expectation2 = XCTestExpectation(onSuccess: promise2, expectedValue: 42)
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testThenNotInvokedOnError() {
        let promise = Promise<Int, String>(on: .utility, { (resolver) in
            resolver.reject(with: "foo")
        })
        let promise2 = promise.then(on: .utility, { (x) in
            XCTFail("then callback invoked on rejection")
        })
        let expectation = XCTestExpectation(onError: promise2, expectedError: "foo")
        wait(for: [expectation], timeout: 10)
    }

    func testThenNotInvokedOnCancel() {
        let promise = Promise<Int, String>(on: .utility, { (resolver) in
            resolver.cancel()
        })
        let promise2 = promise.then(on: .utility, { (x) in
            XCTFail("then callback invoked on cancellation")
        })
        let expectation = XCTestExpectation(onCancel: promise2)
        wait(for: [expectation], timeout: 10)
    }

    func testThenDefaultContextOffMainIsDefaultQueue() {
        // `.auto` off the main thread is `.default`: the callback runs off the main thread.
        let expectation = XCTestExpectation(description: "then")
        DispatchQueue.global(qos: .utility).async {
            _ = Promise<Int, String>(fulfilled: 42).then({ (x) in
                XCTAssertFalse(Thread.isMainThread)
                expectation.fulfill()
            })
        }
        wait(for: [expectation], timeout: 10)
    }

    func testThenDefaultContextOnMainIsMain() {
        let expectation = XCTestExpectation(description: "then")
        var invoked = false
        _ = Promise<Int, String>(fulfilled: 42).then({ (x) in
            XCTAssertTrue(Thread.isMainThread)
            invoked = true
            expectation.fulfill()
        })
        // `.main` never runs synchronously.
        XCTAssertFalse(invoked)
        wait(for: [expectation], timeout: 10)
    }

    func testThenWithNonVoidSingleExpressionClosure() {
        // A single-expression closure whose value is not Void still resolves to `then(_:)`.
        var values: [Int] = []
        let promise = Promise<Int, String>(fulfilled: 42)
        let promise2: Promise<Int, String> = promise.then(on: .immediate, { values.append($0) })
        XCTAssertEqual(values, [42])
        XCTAssertEqual(promise2.result, .value(42))
    }

    // MARK: - map / flatMap

    func testMap() {
        let promise = Promise<Int, String>(on: .utility, { (resolver) in
            resolver.fulfill(with: 42)
        }).map(on: .utility, { (x) in
            return x + 1
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 43)
        wait(for: [expectation], timeout: 10)
    }

    func testMapChangesType() {
        let promise = Promise<Int, String>(fulfilled: 42).map(on: .utility, { (x) -> String in
            return String(x)
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: "42")
        wait(for: [expectation], timeout: 10)
    }

    func testMapPassesErrorAndCancelThrough() {
        let promise = Promise<Int, String>(rejected: "foo").map(on: .utility, { (x) -> Int in
            XCTFail("map invoked on error")
            return x
        })
        let promise2 = Promise<Int, String>(with: .cancelled).map(on: .utility, { (x) -> Int in
            XCTFail("map invoked on cancel")
            return x
        })
        let expectation = XCTestExpectation(onError: promise, expectedError: "foo")
        let expectation2 = XCTestExpectation(onCancel: promise2)
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testFlatMapReturningFulfilledPromise() {
        let promise = Promise<Int, String>(on: .utility, { (resolver) in
            resolver.fulfill(with: 42)
        }).flatMap(on: .utility, { (x) -> Promise<String, String> in
            return Promise(on: .utility, { (resolver) in
                resolver.fulfill(with: String(x + 1))
            })
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: "43")
        wait(for: [expectation], timeout: 10)
    }

    func testFlatMapReturningRejectedPromise() {
        let promise = Promise<Int, String>(fulfilled: 42).flatMap(on: .utility, { (x) -> Promise<String, String> in
            return Promise(on: .utility, { (resolver) in
                resolver.reject(with: "foo")
            })
        })
        let expectation = XCTestExpectation(onError: promise, expectedError: "foo")
        wait(for: [expectation], timeout: 10)
    }

    func testFlatMapReturningCancelledPromise() {
        let promise = Promise<Int, String>(fulfilled: 42).flatMap(on: .utility, { (x) -> Promise<String, String> in
            return Promise(on: .utility, { (resolver) in
                resolver.cancel()
            })
        })
        let expectation = XCTestExpectation(onCancel: promise)
        wait(for: [expectation], timeout: 10)
    }

    func testFlatMapOnRejectedParentPassesError() {
        let promise = Promise<Int, String>(rejected: "foo").flatMap(on: .utility, { (x) -> Promise<String, String> in
            XCTFail("flatMap invoked on error")
            return Promise(fulfilled: "bar")
        })
        let expectation = XCTestExpectation(onError: promise, expectedError: "foo")
        wait(for: [expectation], timeout: 10)
    }

    func testFlatMapReturningAlreadyResolvedPromiseResolvesSynchronouslyOnImmediate() {
        let promise = Promise<Int, String>(fulfilled: 42).flatMap(on: .immediate, { (x) in
            Promise<Int, String>(fulfilled: x + 1)
        })
        XCTAssertEqual(promise.result, .value(43))
    }

    // MARK: - catch / recover / mapError / flatMapError

    func testCatch() {
        let promise = Promise<Int, String>(on: .utility, { (resolver) in
            resolver.reject(with: "foo")
        })
        let expectation = XCTestExpectation(description: "catch")
        let promise2 = promise.catch(on: .utility, { (error) in
            XCTAssertEqual(error, "foo")
            expectation.fulfill()
        })
        let expectation2 = XCTestExpectation(onError: promise2, expectedError: "foo")
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testCatchNotInvokedOnSuccessOrCancel() {
        let promise = Promise<Int, String>(fulfilled: 42).catch(on: .utility, { (error) in
            XCTFail("catch invoked on success")
        })
        let promise2 = Promise<Int, String>(with: .cancelled).catch(on: .utility, { (error) in
            XCTFail("catch invoked on cancel")
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        let expectation2 = XCTestExpectation(onCancel: promise2)
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testRecover() {
        let promise = Promise<Int, String>(on: .utility, { (resolver) in
            resolver.reject(with: "foo")
        }).recover(on: .utility, { (error) in
            XCTAssertEqual(error, "foo")
            return 42
        })
        let _: Promise<Int, NoError> = promise
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        wait(for: [expectation], timeout: 10)
    }

    func testRecoverPassesValueAndCancelThrough() {
        let promise = Promise<Int, String>(fulfilled: 1).recover(on: .utility, { (error) -> Int in
            XCTFail("recover invoked on success")
            return 42
        })
        let promise2 = Promise<Int, String>(with: .cancelled).recover(on: .utility, { (error) -> Int in
            XCTFail("recover invoked on cancel")
            return 42
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 1)
        let expectation2 = XCTestExpectation(onCancel: promise2)
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testMapError() {
        let promise = Promise<Int, String>(rejected: "foo").mapError(on: .utility, { (error) -> Int in
            return error.count
        })
        let _: Promise<Int, Int> = promise
        let expectation = XCTestExpectation(onError: promise, expectedError: 3)
        let promise2 = Promise<Int, String>(fulfilled: 42).mapError(on: .utility, { (error) -> Int in
            XCTFail("mapError invoked on success")
            return 0
        })
        let expectation2 = XCTestExpectation(onSuccess: promise2, expectedValue: 42)
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testFlatMapError() {
        let promise = Promise<Int, String>(rejected: "foo").flatMapError(on: .utility, { (error) -> Promise<Int, Int> in
            return Promise(on: .utility, { $0.reject(with: error.count) })
        })
        let expectation = XCTestExpectation(onError: promise, expectedError: 3)
        let promise2 = Promise<Int, String>(rejected: "foo").flatMapError(on: .utility, { (error) -> Promise<Int, Int> in
            return Promise(fulfilled: 42)
        })
        let expectation2 = XCTestExpectation(onSuccess: promise2, expectedValue: 42)
        let promise3 = Promise<Int, String>(rejected: "foo").flatMapError(on: .utility, { (error) -> Promise<Int, Int> in
            return Promise(with: .cancelled)
        })
        let expectation3 = XCTestExpectation(onCancel: promise3)
        wait(for: [expectation, expectation2, expectation3], timeout: 10)
    }

    func testTryMapError() {
        let promise = Promise<Int, String>(rejected: "foo").tryMapError(on: .utility, { (error) -> TestError in
            return TestError(error.count)
        })
        let _: Promise<Int, Swift.Error> = promise
        let expectation = XCTestExpectation(onError: promise, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(3))
        })
        let promise2 = Promise<Int, String>(rejected: "foo").tryMapError(on: .utility, { (error) -> TestError in
            throw TestError(99)
        })
        let expectation2 = XCTestExpectation(onError: promise2, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(99))
        })
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testTryFlatMapError() {
        let promise = Promise<Int, String>(rejected: "foo").tryFlatMapError(on: .utility, { (error) -> Promise<Int, TestError> in
            return Promise(rejected: TestError(error.count))
        })
        let expectation = XCTestExpectation(onError: promise, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(3))
        })
        let promise2 = Promise<Int, String>(rejected: "foo").tryFlatMapError(on: .utility, { (error) -> Promise<Int, TestError> in
            throw TestError(7)
        })
        let expectation2 = XCTestExpectation(onError: promise2, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(7))
        })
        let promise3 = Promise<Int, String>(rejected: "foo").tryFlatMapError(on: .utility, { (error) -> Promise<Int, TestError> in
            return Promise(fulfilled: 42)
        })
        let expectation3 = XCTestExpectation(onSuccess: promise3, expectedValue: 42)
        wait(for: [expectation, expectation2, expectation3], timeout: 10)
    }

    // MARK: - always / mapResult / flatMapResult

    func testAlways() {
        let expectations = [PromiseResult<Int, String>.value(42), .error("foo"), .cancelled].map { (result) -> [XCTestExpectation] in
            let promise = Promise<Int, String>(on: .utility, { $0.resolve(with: result) })
            let expectation = XCTestExpectation(description: "always \(result)")
            let promise2 = promise.always(on: .utility, { (r) in
                XCTAssertEqual(r, result)
                expectation.fulfill()
            })
            let expectation2 = XCTestExpectation(on: promise2, handler: { (r) in
                XCTAssertEqual(r, result)
            })
            return [expectation, expectation2]
        }
        wait(for: Array(expectations.joined()), timeout: 10)
    }

    func testMapResult() {
        let promise = Promise<Int, String>(fulfilled: 42).mapResult(on: .utility, { (result) -> PromiseResult<String, Int> in
            switch result {
            case .value(let x): return .error(x)
            case .error(let e): return .value(e)
            case .cancelled: return .cancelled
            }
        })
        let expectation = XCTestExpectation(onError: promise, expectedError: 42)
        let promise2 = Promise<Int, String>(with: .cancelled).mapResult(on: .utility, { (result) -> PromiseResult<String, Int> in
            XCTAssertEqual(result, .cancelled)
            return .value("recovered")
        })
        let expectation2 = XCTestExpectation(onSuccess: promise2, expectedValue: "recovered")
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testFlatMapResult() {
        let promise = Promise<Int, String>(rejected: "foo").flatMapResult(on: .utility, { (result) -> Promise<String, Int> in
            XCTAssertEqual(result, .error("foo"))
            return Promise(on: .utility, { $0.fulfill(with: "bar") })
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: "bar")
        let promise2 = Promise<Int, String>(fulfilled: 1).flatMapResult(on: .utility, { (result) -> Promise<String, Int> in
            return Promise(with: .cancelled)
        })
        let expectation2 = XCTestExpectation(onCancel: promise2)
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testTryMapResult() {
        let promise = Promise<Int, String>(fulfilled: 42).tryMapResult(on: .utility, { (result) -> PromiseResult<String, TestError> in
            return .value(String(result.value ?? 0))
        })
        let _: Promise<String, Swift.Error> = promise
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: "42")
        let promise2 = Promise<Int, String>(fulfilled: 42).tryMapResult(on: .utility, { (result) -> PromiseResult<String, TestError> in
            throw TestError(1)
        })
        let expectation2 = XCTestExpectation(onError: promise2, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(1))
        })
        let promise3 = Promise<Int, String>(fulfilled: 42).tryMapResult(on: .utility, { (result) -> PromiseResult<String, TestError> in
            return .error(TestError(2))
        })
        let expectation3 = XCTestExpectation(onError: promise3, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(2))
        })
        wait(for: [expectation, expectation2, expectation3], timeout: 10)
    }

    func testTryFlatMapResult() {
        let promise = Promise<Int, String>(fulfilled: 42).tryFlatMapResult(on: .utility, { (result) -> Promise<String, TestError> in
            return Promise(fulfilled: "x")
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: "x")
        let promise2 = Promise<Int, String>(fulfilled: 42).tryFlatMapResult(on: .utility, { (result) -> Promise<String, TestError> in
            throw TestError(3)
        })
        let expectation2 = XCTestExpectation(onError: promise2, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(3))
        })
        let promise3 = Promise<Int, String>(fulfilled: 42).tryFlatMapResult(on: .utility, { (result) -> Promise<String, TestError> in
            return Promise(with: .cancelled)
        })
        let expectation3 = XCTestExpectation(onCancel: promise3)
        wait(for: [expectation, expectation2, expectation3], timeout: 10)
    }

    // MARK: - Swift.Error promises: try… variants

    func testThrowingInit() {
        let promise = StdPromise<Int>(on: .utility, { (resolver) in
            throw TestError(1)
        })
        let expectation = XCTestExpectation(onError: promise, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(1))
        })
        let promise2 = StdPromise<Int>(on: .utility, { (resolver) in
            resolver.fulfill(with: 42)
        })
        let expectation2 = XCTestExpectation(onSuccess: promise2, expectedValue: 42)
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testTryThen() {
        let promise = StdPromise<Int>(fulfilled: 42).tryThen(on: .utility, { (x) in
            XCTAssertEqual(x, 42)
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        let promise2 = StdPromise<Int>(fulfilled: 42).tryThen(on: .utility, { (x) in
            throw TestError(1)
        })
        let expectation2 = XCTestExpectation(onError: promise2, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(1))
        })
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testTryMap() {
        let promise = StdPromise<Int>(fulfilled: 42).tryMap(on: .utility, { (x) -> String in
            return String(x)
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: "42")
        let promise2 = StdPromise<Int>(fulfilled: 42).tryMap(on: .utility, { (x) -> String in
            throw TestError(2)
        })
        let expectation2 = XCTestExpectation(onError: promise2, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(2))
        })
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testTryFlatMap() {
        let promise = StdPromise<Int>(fulfilled: 42).tryFlatMap(on: .utility, { (x) -> Promise<String, TestError> in
            return Promise(fulfilled: String(x))
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: "42")
        let promise2 = StdPromise<Int>(fulfilled: 42).tryFlatMap(on: .utility, { (x) -> Promise<String, TestError> in
            return Promise(rejected: TestError(4))
        })
        let expectation2 = XCTestExpectation(onError: promise2, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(4))
        })
        let promise3 = StdPromise<Int>(fulfilled: 42).tryFlatMap(on: .utility, { (x) -> StdPromise<String> in
            throw TestError(5)
        })
        let expectation3 = XCTestExpectation(onError: promise3, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(5))
        })
        wait(for: [expectation, expectation2, expectation3], timeout: 10)
    }

    func testTryRecover() {
        let promise = StdPromise<Int>(rejected: TestError(1)).tryRecover(on: .utility, { (error) -> Int in
            XCTAssertEqual(error as? TestError, TestError(1))
            return 42
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        let promise2 = StdPromise<Int>(rejected: TestError(1)).tryRecover(on: .utility, { (error) -> Int in
            throw TestError(2)
        })
        let expectation2 = XCTestExpectation(onError: promise2, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(2))
        })
        wait(for: [expectation, expectation2], timeout: 10)
    }

    // MARK: - onCancel

    func testOnCancel() {
        let promise = Promise<Int, String>(on: .utility, { $0.cancel() })
        let expectation = XCTestExpectation(description: "onCancel")
        let promise2 = promise.onCancel(on: .utility, {
            expectation.fulfill()
        })
        let expectation2 = XCTestExpectation(onCancel: promise2)
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testOnCancelNotInvokedOnValueOrError() {
        let promise = Promise<Int, String>(fulfilled: 42).onCancel(on: .utility, {
            XCTFail("onCancel invoked on success")
        })
        let promise2 = Promise<Int, String>(rejected: "foo").onCancel(on: .utility, {
            XCTFail("onCancel invoked on error")
        })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        let expectation2 = XCTestExpectation(onError: promise2, expectedError: "foo")
        wait(for: [expectation, expectation2], timeout: 10)
    }

    // MARK: - Callback order and contexts

    func testCallbacksRunInRegistrationOrder() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var order: [Int] = []
        for i in 0..<10 {
            _ = promise.then(on: .immediate, { _ in order.append(i) })
        }
        resolver.fulfill(with: 1)
        XCTAssertEqual(order, Array(0..<10))
    }

    func testContextMain() {
        let expectation = XCTestExpectation(description: "main")
        _ = Promise<Int, String>(on: .utility, { $0.fulfill(with: 42) }).then(on: .main, { _ in
            XCTAssertTrue(Thread.isMainThread)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
    }

    func testContextQueue() {
        let queue = TestQueue()
        let expectation = XCTestExpectation(description: "queue")
        _ = Promise<Int, String>(fulfilled: 42).then(on: .queue(queue.queue), { _ in
            XCTAssertTrue(queue.isCurrent)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
    }

    func testContextOperationQueue() {
        let queue = OperationQueue()
        let expectation = XCTestExpectation(description: "operation queue")
        _ = Promise<Int, String>(fulfilled: 42).then(on: .operationQueue(queue), { _ in
            XCTAssertTrue(OperationQueue.current === queue)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
    }

    func testContextQoSQueuesRunAsynchronously() {
        let contexts: [PromiseContext] = [.background, .utility, .default, .userInitiated, .userInteractive]
        var expectations: [XCTestExpectation] = []
        for context in contexts {
            let expectation = XCTestExpectation(description: "\(context)")
            let registering = Thread.current
            _ = Promise<Int, String>(fulfilled: 42).then(on: context, { _ in
                XCTAssertFalse(Thread.current === registering)
                expectation.fulfill()
            })
            expectations.append(expectation)
        }
        wait(for: expectations, timeout: 10)
    }

    func testContextImmediateRunsOnResolvingThread() {
        let queue = TestQueue()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let expectation = XCTestExpectation(description: "immediate")
        _ = promise.then(on: .immediate, { _ in
            XCTAssertTrue(queue.isCurrent)
            expectation.fulfill()
        })
        queue.queue.async {
            resolver.fulfill(with: 42)
        }
        wait(for: [expectation], timeout: 10)
    }

    func testContextAuto() {
        XCTAssertEqual(PromiseContext.auto, .main)
        let expectation = XCTestExpectation(description: "auto")
        DispatchQueue.global().async {
            XCTAssertEqual(PromiseContext.auto, .default)
            expectation.fulfill()
        }
        wait(for: [expectation], timeout: 10)
    }

    func testContextInitQoS() {
        XCTAssertEqual(PromiseContext(qos: .background), .background)
        XCTAssertEqual(PromiseContext(qos: .utility), .utility)
        XCTAssertEqual(PromiseContext(qos: .default), .default)
        XCTAssertEqual(PromiseContext(qos: .userInitiated), .userInitiated)
        XCTAssertEqual(PromiseContext(qos: .userInteractive), .userInteractive)
    }

    func testContextEquality() {
        let queue = DispatchQueue(label: "a")
        let queue2 = DispatchQueue(label: "a")
        XCTAssertEqual(PromiseContext.queue(queue), .queue(queue))
        XCTAssertNotEqual(PromiseContext.queue(queue), .queue(queue2))
        let opQueue = OperationQueue()
        XCTAssertEqual(PromiseContext.operationQueue(opQueue), .operationQueue(opQueue))
        XCTAssertNotEqual(PromiseContext.operationQueue(opQueue), .operationQueue(OperationQueue()))
        XCTAssertEqual(PromiseContext.nowOr(.main), .nowOr(.main))
        XCTAssertNotEqual(PromiseContext.nowOr(.main), .main)
        XCTAssertNotEqual(PromiseContext.main, .queue(.main))
        XCTAssertEqual(Set<PromiseContext>([.main, .main, .immediate, .queue(queue), .queue(queue)]).count, 3)
    }

    func testMainContextChainsRunInOneMainQueuePass() {
        // Chained `.main` callbacks run one after the other before anything else queued on main.
        var order: [Int] = []
        let expectation = XCTestExpectation(description: "done")
        _ = Promise<Int, String>(on: .utility, { $0.fulfill(with: 42) }).then(on: .main, { _ in
            order.append(1)
            DispatchQueue.main.async {
                order.append(4)
                expectation.fulfill()
            }
        }).then(on: .main, { _ in
            order.append(2)
        }).then(on: .main, { _ in
            order.append(3)
        })
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(order, [1, 2, 3, 4])
    }

    func testQueueMainContextIsAFreshDispatch() {
        var order: [Int] = []
        let expectation = XCTestExpectation(description: "done")
        _ = Promise<Int, String>(on: .utility, { $0.fulfill(with: 42) }).then(on: .queue(.main), { _ in
            order.append(1)
            DispatchQueue.main.async {
                order.append(2)
            }
        }).then(on: .queue(.main), { _ in
            order.append(3)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(order, [1, 2, 3])
    }

    func testMainContextIsNeverSynchronous() {
        // Even when already on main and the promise is resolved, `.main` runs later.
        var invoked = false
        let expectation = XCTestExpectation(description: "main")
        _ = Promise<Int, String>(fulfilled: 1).then(on: .main, { _ in
            invoked = true
            expectation.fulfill()
        })
        XCTAssertFalse(invoked)
        wait(for: [expectation], timeout: 10)
        XCTAssertTrue(invoked)
    }

    // MARK: - nowOr and isExecutingNow

    func testNowOrOnResolvedPromiseRunsSynchronously() {
        var invoked = false
        _ = Promise<Int, String>(fulfilled: 42).then(on: .nowOr(.main), { (x) in
            XCTAssertEqual(x, 42)
            XCTAssertTrue(PromiseContext.isExecutingNow)
            invoked = true
        })
        XCTAssertTrue(invoked)
    }

    func testNowOrOnUnresolvedPromiseRunsOnContext() {
        let queue = TestQueue()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let expectation = XCTestExpectation(description: "nowOr")
        _ = promise.then(on: .nowOr(.queue(queue.queue)), { (x) in
            XCTAssertTrue(queue.isCurrent)
            XCTAssertFalse(PromiseContext.isExecutingNow)
            expectation.fulfill()
        })
        resolver.fulfill(with: 42)
        wait(for: [expectation], timeout: 10)
    }

    func testNowOrInInitRunsSynchronously() {
        var invoked = false
        let promise = Promise<Int, String>(on: .nowOr(.utility), { (resolver) in
            XCTAssertTrue(PromiseContext.isExecutingNow)
            invoked = true
            resolver.fulfill(with: 1)
        })
        XCTAssertTrue(invoked)
        XCTAssertEqual(promise.result, .value(1))
    }

    func testNowOrMapOnResolvedPromiseReturnsResolvedPromise() {
        let promise = Promise<Int, String>(fulfilled: 42).map(on: .nowOr(.utility), { $0 + 1 })
        XCTAssertEqual(promise.result, .value(43))
    }

    func testIsExecutingNowIsFalseElsewhere() {
        XCTAssertFalse(PromiseContext.isExecutingNow)
        var invoked = false
        _ = Promise<Int, String>(fulfilled: 42).then(on: .immediate, { _ in
            XCTAssertFalse(PromiseContext.isExecutingNow)
            invoked = true
        })
        XCTAssertTrue(invoked)
        let expectation = XCTestExpectation(description: "utility")
        _ = Promise<Int, String>(fulfilled: 42).then(on: .utility, { _ in
            XCTAssertFalse(PromiseContext.isExecutingNow)
            expectation.fulfill()
        })
        wait(for: [expectation], timeout: 10)
    }

    func testIsExecutingNowInheritedByImmediate() {
        var checked = 0
        _ = Promise<Int, String>(fulfilled: 42).then(on: .nowOr(.main), { _ in
            XCTAssertTrue(PromiseContext.isExecutingNow)
            _ = Promise<Int, String>(on: .immediate, { (resolver) in
                XCTAssertTrue(PromiseContext.isExecutingNow)
                checked += 1
                resolver.fulfill(with: 1)
            }).then(on: .immediate, { _ in
                XCTAssertTrue(PromiseContext.isExecutingNow)
                checked += 1
            })
            XCTAssertTrue(PromiseContext.isExecutingNow)
        })
        XCTAssertFalse(PromiseContext.isExecutingNow)
        XCTAssertEqual(checked, 2)
    }

    func testIsExecutingNowFalseForImmediateFiredByLaterResolution() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var checked = false
        _ = promise.then(on: .immediate, { _ in
            XCTAssertFalse(PromiseContext.isExecutingNow)
            checked = true
        })
        _ = Promise<Int, String>(fulfilled: 1).then(on: .nowOr(.main), { _ in
            XCTAssertTrue(PromiseContext.isExecutingNow)
            resolver.fulfill(with: 2)
            XCTAssertTrue(PromiseContext.isExecutingNow)
        })
        XCTAssertTrue(checked)
    }

    // MARK: - Resolver

    func testResolverResolveWithPromise() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let other = Promise<Int, String>(on: .utility, { $0.fulfill(with: 42) })
        resolver.resolve(with: other)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 42)
        let promise2 = Promise<Int, String>(on: .immediate, { $0.resolve(with: Promise(rejected: "foo")) })
        XCTAssertEqual(promise2.result, .error("foo"))
        let promise3 = Promise<Int, String>(on: .immediate, { $0.resolve(with: Promise(with: .cancelled)) })
        XCTAssertEqual(promise3.result, .cancelled)
        wait(for: [expectation], timeout: 10)
    }

    func testResolverResolveWithSwiftResult() {
        let promise = Promise<Int, TestError>(on: .immediate, { $0.resolve(with: Result<Int, TestError>.success(42)) })
        XCTAssertEqual(promise.result, .value(42))
        let promise2 = Promise<Int, TestError>(on: .immediate, { $0.resolve(with: Result<Int, TestError>.failure(TestError(1))) })
        XCTAssertEqual(promise2.result, .error(TestError(1)))
    }

    func testStdResolverResolveWithTypedResult() {
        let promise = StdPromise<Int>(on: .immediate, { (resolver) in
            resolver.resolve(with: PromiseResult<Int, TestError>.error(TestError(3)))
        })
        XCTAssertEqual(promise.result?.error as? TestError, TestError(3))
        let promise2 = StdPromise<Int>(on: .immediate, { (resolver) in
            resolver.resolve(with: PromiseResult<Int, TestError>.value(3))
        })
        XCTAssertEqual(promise2.result?.value, 3)
    }

    func testResolverHandleCallback() {
        let promise = StdPromise<Int>(on: .immediate, { (resolver) in
            resolver.handleCallback()(42, nil)
        })
        XCTAssertEqual(promise.result?.value, 42)
        let promise2 = StdPromise<Int>(on: .immediate, { (resolver) in
            resolver.handleCallback()(nil, TestError(1))
        })
        XCTAssertEqual(promise2.result?.error as? TestError, TestError(1))
        let promise3 = StdPromise<Int>(on: .immediate, { (resolver) in
            resolver.handleCallback()(42, TestError(1))
        })
        XCTAssertEqual(promise3.result?.value, 42, "a value wins over an error")
    }

    func testResolverHandleCallbackAPIMismatch() {
        let promise = StdPromise<Int>(on: .immediate, { (resolver) in
            resolver.handleCallback()(nil, nil)
        })
        XCTAssertEqual(promise.result?.error as? PromiseCallbackError, .apiMismatch)
        XCTAssertEqual(PromiseCallbackError.apiMismatch.rawValue, 0)
    }

    func testResolverHandleCallbackCancelError() {
        let promise = StdPromise<Int>(on: .immediate, { (resolver) in
            resolver.handleCallback(isCancelError: { $0 is TestError })(nil, TestError(1))
        })
        XCTAssertEqual(promise.result?.isCancelled, true)
        let promise2 = StdPromise<Int>(on: .immediate, { (resolver) in
            resolver.handleCallback(isCancelError: { ($0 as? TestError)?.code == 2 })(nil, TestError(1))
        })
        XCTAssertEqual(promise2.result?.error as? TestError, TestError(1))
    }

    // MARK: - Utilities

    func testPromiseEquality() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let copy = promise
        XCTAssertEqual(promise, copy)
        let child = promise.then(on: .immediate, { _ in })
        XCTAssertNotEqual(promise, child)
        XCTAssertNotEqual(promise, Promise<Int, String>(fulfilled: 1))
        XCTAssertEqual(promise, promise.tap(on: .immediate, { _ in }), "tap(on:_:) returns the receiver")
        withExtendedLifetime(resolver) {}
    }

    func testFork() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var forked: [Promise<Int, String>] = []
        let result = promise.fork({ (p) in
            forked.append(p.map(on: .immediate, { $0 + 1 }))
            forked.append(p.map(on: .immediate, { $0 + 2 }))
        })
        XCTAssertEqual(result, promise)
        XCTAssertEqual(forked.count, 2)
        resolver.fulfill(with: 40)
        XCTAssertEqual(forked.map({ $0.result }), [.value(41), .value(42)])
    }

    func testForkRethrows() {
        let promise = Promise<Int, String>(fulfilled: 1)
        XCTAssertThrowsError(try promise.fork({ _ in throw TestError(1) })) { (error) in
            XCTAssertEqual(error as? TestError, TestError(1))
        }
    }

    func testUpcast() {
        let promise = Promise<Int, TestError>(rejected: TestError(5))
        let upcast: StdPromise<Int> = promise.upcast
        let expectation = XCTestExpectation(onError: upcast, handler: { (error) in
            XCTAssertEqual(error as? TestError, TestError(5))
        })
        let promise2 = Promise<Int, NoError>(fulfilled: 42)
        let upcast2: StdPromise<Int> = promise2.upcast
        let expectation2 = XCTestExpectation(onSuccess: upcast2, expectedValue: 42)
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testPromiseWithSwiftResult() {
        let promise = Promise<Int, TestError>(with: Result<Int, TestError>.success(42))
        XCTAssertEqual(promise.result, .value(42))
        let promise2 = Promise<Int, TestError>(with: Result<Int, TestError>.failure(TestError(1)))
        XCTAssertEqual(promise2.result, .error(TestError(1)))
    }

    func testTapReturnsReceiverAndSeesResult() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        var seen: [PromiseResult<Int, String>] = []
        let tapped = promise.tap(on: .immediate, { seen.append($0) })
        XCTAssertEqual(tapped, promise)
        resolver.fulfill(with: 42)
        XCTAssertEqual(seen, [.value(42)])
    }

    func testTapWithoutCallback() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let tapped = promise.tap()
        XCTAssertNotEqual(tapped, promise)
        let expectation = XCTestExpectation(onError: tapped, expectedError: "foo")
        resolver.reject(with: "foo")
        wait(for: [expectation], timeout: 10)
    }

    func testMakeChild() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let child = promise.makeChild()
        XCTAssertNotEqual(child, promise)
        let expectation = XCTestExpectation(onSuccess: child, expectedValue: 42)
        resolver.fulfill(with: 42)
        wait(for: [expectation], timeout: 10)
    }

    func testChainOfManyPromises() {
        var promise = Promise<Int, String>(on: .utility, { $0.fulfill(with: 0) })
        for _ in 0..<100 {
            promise = promise.map(on: .utility, { $0 + 1 })
        }
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 100)
        wait(for: [expectation], timeout: 10)
    }

    func testDeepImmediateChainResolvesWithoutRecursion() {
        let (root, resolver) = Promise<Int, String>.makeWithResolver()
        var promise = root
        for _ in 0..<5000 {
            promise = promise.tap()
        }
        var promise2 = root
        for _ in 0..<5000 {
            promise2 = promise2.flatMap(on: .immediate, { Promise(fulfilled: $0) })
        }
        resolver.fulfill(with: 7)
        XCTAssertEqual(promise.result, .value(7))
        XCTAssertEqual(promise2.result, .value(7))
    }
}
