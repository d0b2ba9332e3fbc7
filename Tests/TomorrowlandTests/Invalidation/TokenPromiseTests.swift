// TokenPromise: rule 29 (which promises are registered for cancellation) and the token
// applied to every method, including the fixed `mapError`.

import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class TokenPromiseTests: XCTestCase {
    typealias P = Promise<Int, String>

    private func countNodes(_ token: PromiseInvalidationToken) -> Int {
        let text = token.debugDescription
        guard let range = text.range(of: "callbackLinkedList=(") else { return -1 }
        return Int(text[range.upperBound...].prefix { $0.isNumber }) ?? -1
    }

    func testRule29_onlyChildrenOfTheInitialWrapperAreRegistered() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = P.makeWithResolver()
        let wrapped = promise.withToken(token)
        XCTAssertEqual(countNodes(token), 0)
        let child = wrapped.map(on: .immediate) { $0 + 1 }
        XCTAssertEqual(countNodes(token), 1)
        let grandchild = child.then(on: .immediate) { _ in }
        XCTAssertEqual(countNodes(token), 1, "grandchildren are not registered")
        _ = wrapped.tap()
        wrapped.tap(on: .immediate) { _ in }
        _ = wrapped.ignoringCancel()
        XCTAssertEqual(countNodes(token), 1, "tap()/tap(on:)/ignoringCancel() are never registered")
        _ = wrapped.then(on: .immediate) { _ in }
        XCTAssertEqual(countNodes(token), 2)
        token.invalidate()
        XCTAssertTrue(child.inner == child.inner && grandchild.token == token)
        _ = resolver
    }

    func testRule29_tapOnReturnsTheSameWrapper() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = P.makeWithResolver()
        let wrapped = promise.withToken(token)
        let tapped = wrapped.tap(on: .immediate) { _ in }
        XCTAssertEqual(tapped, wrapped)
        _ = tapped.map(on: .immediate) { $0 }
        XCTAssertEqual(countNodes(token), 1, "still the initial wrapper: its children are registered")
        _ = wrapped.tap().map(on: .immediate) { $0 }
        XCTAssertEqual(countNodes(token), 1, "tap() gives a new wrapper whose children are not")
        _ = resolver
    }

    func testRule29_invalidateRequestsCancelOfRegisteredChildren() {
        let token = PromiseInvalidationToken()
        let requests = Counter()
        var promise: P?
        let resolver: P.Resolver
        do {
            let (p, r) = P.makeWithResolver()
            promise = p
            resolver = r
        }
        resolver.onRequestCancel(on: .immediate) { $0.cancel(); requests.increment() }
        do {
            let wrapped = promise!.withToken(token)
            _ = wrapped.map(on: .immediate) { $0 }
            _ = wrapped.then(on: .immediate) { _ in }
        }
        token.invalidate()
        XCTAssertEqual(requests.value, 0, "the parent handle is still held")
        promise = nil
        XCTAssertEqual(requests.value, 1, "both children requested: the parent is asked once its handles go")
    }

    func testRule29_mapErrorSuppressesItsCallback() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = P.makeWithResolver()
        let ran = Counter()
        let mapped = promise.withToken(token).mapError(on: .immediate) { e -> TestError in ran.increment(); return TestError(e.count) }
        token.invalidate()
        resolver.reject(with: "e")
        XCTAssertEqual(ran.value, 0, "fixed: the token is passed on to mapError")
        XCTAssertEqual(mapped.inner.result?.isCancelled, true)
    }

    func testEveryMethodUsesTheToken() {
        let token = PromiseInvalidationToken()
        let ran = Counter()
        let (value, fulfill) = P.makeWithResolver()
        let (error, reject) = P.makeWithResolver()
        let v = value.withToken(token)
        let e = error.withToken(token)
        var results: [PromiseResult<Int, String>?] = []
        let then = v.then { _ in ran.increment() }
        let map = v.map(on: .immediate) { _ in ran.increment() }
        let flatMap = v.flatMap(on: .immediate) { _ in ran.increment(); return P(fulfilled: 0) }
        let caught = e.catch { _ in ran.increment() }
        let recover = e.recover(on: .immediate) { _ in ran.increment() }
        let flatMapError = e.flatMapError(on: .immediate) { _ -> Promise<Int, Int> in ran.increment(); return Promise(fulfilled: 0) }
        let tryMapError = e.tryMapError(on: .immediate) { _ -> TestError in ran.increment(); return TestError() }
        let tryFlatMapError = e.tryFlatMapError(on: .immediate) { _ -> Promise<Int, TestError> in ran.increment(); return Promise(fulfilled: 0) }
        let always = v.always { _ in ran.increment() }
        let mapResult = v.mapResult(on: .immediate, onComplete: { _ -> PromiseResult<Int, Int> in ran.increment(); return .value(0) })
        let flatMapResult = v.flatMapResult(on: .immediate) { _ -> Promise<Int, Int> in ran.increment(); return Promise(fulfilled: 0) }
        let tryMapResult = v.tryMapResult(on: .immediate) { _ -> PromiseResult<Int, TestError> in ran.increment(); return .value(0) }
        let tryFlatMapResult = v.tryFlatMapResult(on: .immediate) { _ -> Promise<Int, TestError> in ran.increment(); return Promise(fulfilled: 0) }
        let tapped = v.tap { _ in ran.increment() }
        let onCancel = v.onCancel { ran.increment() }
        let forked = v.fork { _ in }
        XCTAssertEqual(forked, v)
        XCTAssertEqual(tapped, v)
        token.invalidate()
        fulfill.fulfill(with: 1)
        reject.reject(with: "x")
        settle()
        XCTAssertEqual(ran.value, 0)
        results = [then.inner.result, caught.inner.result, always.inner.result, onCancel.inner.result]
        XCTAssertEqual(results, [.value(1), .error("x"), .value(1), .value(1)])
        XCTAssertEqual(map.inner.result?.isCancelled, true)
        XCTAssertEqual(flatMap.inner.result, .cancelled)
        XCTAssertEqual(recover.inner.result?.isCancelled, true)
        XCTAssertEqual(flatMapError.inner.result, .cancelled)
        XCTAssertEqual(tryMapError.inner.result?.isCancelled, true)
        XCTAssertEqual(tryFlatMapError.inner.result?.isCancelled, true)
        XCTAssertEqual(mapResult.inner.result, .cancelled)
        XCTAssertEqual(flatMapResult.inner.result, .cancelled)
        XCTAssertEqual(tryMapResult.inner.result?.isCancelled, true)
        XCTAssertEqual(tryFlatMapResult.inner.result?.isCancelled, true)
    }

    func testStdTokenPromiseMethods() {
        let token = PromiseInvalidationToken()
        let std = StdPromise<Int>(fulfilled: 2).withToken(token)
        let failed = StdPromise<Int>(rejected: TestError(1)).withToken(token)
        XCTAssertEqual(std.tryThen(on: .immediate) { _ in throw TestError(3) }.inner.result?.error as? TestError, TestError(3))
        XCTAssertEqual(std.tryMap(on: .immediate) { $0 * 2 }.inner.result?.value, 4)
        XCTAssertEqual(std.tryFlatMap(on: .immediate) { Promise<Int, TestError>(fulfilled: $0 + 1) }.inner.result?.value, 3)
        XCTAssertEqual(failed.tryRecover(on: .immediate) { _ in 7 }.inner.result?.value, 7)
        XCTAssertEqual(failed.tryFlatMapError(on: .immediate) { _ in Promise<Int, TestError>(fulfilled: 8) }.inner.result?.value, 8)
    }

    func testTokenPromiseEqualityAndInit() {
        let token = PromiseInvalidationToken()
        let other = PromiseInvalidationToken()
        let promise = P(fulfilled: 1)
        XCTAssertEqual(TokenPromise(promise: promise, token: token), promise.withToken(token))
        XCTAssertNotEqual(TokenPromise(promise: promise, token: token), TokenPromise(promise: promise, token: other))
        let plain = TokenPromise(promise: P.makeWithResolver().0, token: token)
        _ = plain.map(on: .immediate) { $0 }
        XCTAssertEqual(countNodes(token), 0, "init(promise:token:) does not register children")
    }
}
