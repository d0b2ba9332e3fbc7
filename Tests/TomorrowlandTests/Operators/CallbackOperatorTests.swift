// Every callback operator on `Promise`, each once for the result that invokes it and once
// for a result that passes through; `fork`, `upcast`, and the Swift.Result conveniences.

import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class CallbackOperatorTests: XCTestCase {
    typealias P = Promise<Int, String>
    let value = P(fulfilled: 2)
    let error = P(rejected: "bad")
    let cancelled = P(with: .cancelled)

    func testThen() {
        let seen = Recorder<Int>()
        XCTAssertEqual(value.then(on: .immediate) { seen.append($0) }.result, .value(2))
        XCTAssertEqual(error.then(on: .immediate) { seen.append($0) }.result, .error("bad"))
        XCTAssertEqual(cancelled.then(on: .immediate) { seen.append($0) }.result, .cancelled)
        XCTAssertEqual(seen.values, [2])
    }

    func testMap() {
        XCTAssertEqual(value.map(on: .immediate) { "\($0)" }.result, .value("2"))
        XCTAssertEqual(error.map(on: .immediate) { "\($0)" }.result, .error("bad"))
        XCTAssertEqual(cancelled.map(on: .immediate) { "\($0)" }.result, .cancelled)
    }

    func testFlatMap() {
        XCTAssertEqual(value.flatMap(on: .immediate) { P(rejected: "inner \($0)") }.result, .error("inner 2"))
        XCTAssertEqual(error.flatMap(on: .immediate) { P(fulfilled: $0) }.result, .error("bad"))
        XCTAssertEqual(cancelled.flatMap(on: .immediate) { P(fulfilled: $0) }.result, .cancelled)
        let (inner, r) = P.makeWithResolver()
        let adopted = value.flatMap(on: .immediate) { _ in inner }
        XCTAssertNil(adopted.result)
        r.fulfill(with: 10)
        XCTAssertEqual(adopted.result, .value(10))
    }

    func testCatch() {
        let seen = Recorder<String>()
        XCTAssertEqual(value.catch(on: .immediate) { seen.append($0) }.result, .value(2))
        XCTAssertEqual(error.catch(on: .immediate) { seen.append($0) }.result, .error("bad"))
        XCTAssertEqual(cancelled.catch(on: .immediate) { seen.append($0) }.result, .cancelled)
        XCTAssertEqual(seen.values, ["bad"])
    }

    func testRecover() {
        XCTAssertEqual(value.recover(on: .immediate) { _ in 0 }.result, .value(2))
        XCTAssertEqual(error.recover(on: .immediate) { $0.count }.result, .value(3))
        XCTAssertEqual(cancelled.recover(on: .immediate) { _ in 0 }.result, .cancelled)
    }

    func testMapError() {
        XCTAssertEqual(value.mapError(on: .immediate) { TestError($0.count) }.result, .value(2))
        XCTAssertEqual(error.mapError(on: .immediate) { TestError($0.count) }.result, .error(TestError(3)))
        XCTAssertEqual(cancelled.mapError(on: .immediate) { TestError($0.count) }.result, .cancelled)
    }

    func testFlatMapError() {
        XCTAssertEqual(value.flatMapError(on: .immediate) { _ in Promise<Int, TestError>(fulfilled: 0) }.result, .value(2))
        XCTAssertEqual(error.flatMapError(on: .immediate) { Promise<Int, TestError>(rejected: TestError($0.count)) }.result, .error(TestError(3)))
        XCTAssertEqual(cancelled.flatMapError(on: .immediate) { _ in Promise<Int, TestError>(fulfilled: 0) }.result, .cancelled)
    }

    func testTryMapErrorAndTryFlatMapError() {
        let mapped = error.tryMapError(on: .immediate) { TestError($0.count) }
        XCTAssertEqual(mapped.result?.error as? TestError, TestError(3))
        let thrown = error.tryMapError(on: .immediate) { _ -> TestError in throw TestError(9) }
        XCTAssertEqual(thrown.result?.error as? TestError, TestError(9))
        XCTAssertEqual(value.tryMapError(on: .immediate) { TestError($0.count) }.result?.value, 2)
        XCTAssertEqual(cancelled.tryMapError(on: .immediate) { TestError($0.count) }.result?.isCancelled, true)

        let flat = error.tryFlatMapError(on: .immediate) { Promise<Int, TestError>(rejected: TestError($0.count)) }
        XCTAssertEqual(flat.result?.error as? TestError, TestError(3))
        let flatThrown = error.tryFlatMapError(on: .immediate) { _ -> Promise<Int, TestError> in throw TestError(8) }
        XCTAssertEqual(flatThrown.result?.error as? TestError, TestError(8))
        XCTAssertEqual(value.tryFlatMapError(on: .immediate) { _ in Promise<Int, TestError>(fulfilled: 0) }.result?.value, 2)
    }

    func testAlways() {
        let seen = Recorder<PromiseResult<Int, String>>()
        for promise in [value, error, cancelled] {
            XCTAssertEqual(promise.always(on: .immediate) { seen.append($0) }.result, promise.result)
        }
        XCTAssertEqual(seen.values, [.value(2), .error("bad"), .cancelled])
    }

    func testMapResultAndFlatMapResult() {
        XCTAssertEqual(cancelled.mapResult(on: .immediate) { _ in PromiseResult<String, Int>.value("c") }.result, .value("c"))
        XCTAssertEqual(value.mapResult(on: .immediate) { $0.map { $0 * 3 } }.result, .value(6))
        XCTAssertEqual(error.flatMapResult(on: .immediate) { Promise<Int, Int>(rejected: $0.error!.count) }.result, .error(3))
        XCTAssertEqual(cancelled.flatMapResult(on: .immediate) { _ in Promise<Int, Int>(fulfilled: 1) }.result, .value(1))
    }

    func testTryMapResultAndTryFlatMapResult() {
        XCTAssertEqual(value.tryMapResult(on: .immediate) { $0.mapError { TestError($0.count) } }.result?.value, 2)
        XCTAssertEqual(error.tryMapResult(on: .immediate) { $0.mapError { TestError($0.count) } }.result?.error as? TestError, TestError(3))
        let thrown = value.tryMapResult(on: .immediate) { _ -> PromiseResult<Int, TestError> in throw TestError(5) }
        XCTAssertEqual(thrown.result?.error as? TestError, TestError(5))
        let flat = cancelled.tryFlatMapResult(on: .immediate) { _ in Promise<Int, TestError>(fulfilled: 4) }
        XCTAssertEqual(flat.result?.value, 4)
        let flatThrown = cancelled.tryFlatMapResult(on: .immediate) { _ -> Promise<Int, TestError> in throw TestError(6) }
        XCTAssertEqual(flatThrown.result?.error as? TestError, TestError(6))
    }

    func testStdPromiseThrowingOperators() {
        let std = StdPromise<Int>(fulfilled: 2)
        let failed = StdPromise<Int>(rejected: TestError(1))
        XCTAssertEqual(std.tryThen(on: .immediate) { _ in }.result?.value, 2)
        XCTAssertEqual(std.tryThen(on: .immediate) { _ in throw TestError(2) }.result?.error as? TestError, TestError(2))
        XCTAssertEqual(std.tryMap(on: .immediate) { $0 + 1 }.result?.value, 3)
        XCTAssertEqual(std.tryMap(on: .immediate) { _ -> Int in throw TestError(3) }.result?.error as? TestError, TestError(3))
        XCTAssertEqual(std.tryFlatMap(on: .immediate) { Promise<Int, TestError>(fulfilled: $0 * 5) }.result?.value, 10)
        XCTAssertEqual(std.tryFlatMap(on: .immediate) { _ -> Promise<Int, TestError> in throw TestError(4) }.result?.error as? TestError, TestError(4))
        XCTAssertEqual(std.tryFlatMap(on: .immediate) { _ in Promise<Int, TestError>(rejected: TestError(7)) }.result?.error as? TestError, TestError(7))
        XCTAssertEqual(failed.tryRecover(on: .immediate) { _ in 9 }.result?.value, 9)
        XCTAssertEqual(failed.tryRecover(on: .immediate) { _ -> Int in throw TestError(10) }.result?.error as? TestError, TestError(10))
        XCTAssertEqual(failed.tryMap(on: .immediate) { $0 }.result?.error as? TestError, TestError(1))
    }

    func testTapReturnsSelfAndTapChildIsNewPromise() {
        let seen = Recorder<PromiseResult<Int, String>>()
        XCTAssertEqual(value.tap(on: .immediate) { seen.append($0) }, value)
        XCTAssertEqual(seen.values, [.value(2)])
        let (pending, r) = P.makeWithResolver()
        let tapped = pending.tap()
        XCTAssertNotEqual(tapped, pending)
        r.reject(with: "x")
        XCTAssertEqual(tapped.result, .error("x"))
    }

    func testMakeChildAdoptsResult() {
        let (pending, r) = P.makeWithResolver()
        let child = pending.makeChild()
        XCTAssertNil(child.result)
        r.fulfill(with: 8)
        XCTAssertEqual(child.result, .value(8))
    }

    func testIgnoringCancelAdoptsResult() {
        let (pending, r) = P.makeWithResolver()
        let child = pending.ignoringCancel()
        child.requestCancel()
        XCTAssertFalse(r.hasRequestedCancel)
        r.fulfill(with: 1)
        XCTAssertEqual(child.result, .value(1))
    }

    func testForkReturnsSelf() {
        let inside = Slot<Bool?>()
        let forked = value.fork { inside.value = $0 == value }
        XCTAssertEqual(forked, value)
        XCTAssertEqual(inside.value, true)
        struct Stop: Swift.Error {}
        XCTAssertThrowsError(try value.fork { _ in throw Stop() })
    }

    func testUpcast() {
        let typed = Promise<Int, TestError>(rejected: TestError(1)).upcast
        XCTAssertEqual(typed.result?.error as? TestError, TestError(1))
        let std = StdPromise<Int>(fulfilled: 1)
        XCTAssertEqual(std.upcast, std, "already Swift.Error: the same promise")
        let noError = value.recover(on: .immediate) { _ in 0 }.upcast
        XCTAssertEqual(noError.result?.value, 2)
        let noErrorCancelled = cancelled.recover(on: .immediate) { _ in 0 }.upcast
        XCTAssertEqual(noErrorCancelled.result?.isCancelled, true)
        let (pending, r) = Promise<Int, TestError>.makeWithResolver()
        let up = pending.upcast
        r.fulfill(with: 3)
        XCTAssertEqual(up.result?.value, 3)
    }

    func testAsynchronousContextCallbacksResolveChildrenLater() {
        let (pending, r) = P.makeWithResolver()
        let mapped = pending.map(on: .default) { $0 * 10 }
        r.fulfill(with: 4)
        waitUntil { mapped.result != nil }
        XCTAssertEqual(mapped.result, .value(40))
    }
}
