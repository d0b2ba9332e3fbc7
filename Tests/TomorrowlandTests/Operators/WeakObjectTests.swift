import Dispatch
import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class UtilitiesWeakObjectTests: XCTestCase {
    func testCallbacksReceiveTheLiveObject() {
        let owner = TestObject("owner")
        let seen = Recorder<String>()
        let value = Promise<Int, TestError>(fulfilled: 1)
        let error = Promise<Int, TestError>(rejected: TestError(2))
        _ = value.then(on: .immediate, with: owner) { owner, value in seen.append("then \(owner.name) \(value)") }
        error.catch(on: .immediate, with: owner) { owner, error in seen.append("catch \(owner.name) \(error.code)") }
        value.always(on: .immediate, with: owner) { owner, result in seen.append("always \(owner.name) \(result.value ?? -1)") }
        XCTAssertEqual(value.map(on: .immediate, with: owner) { owner, value in owner.name.count + value }.result, .value(6))
        XCTAssertEqual(value.flatMap(on: .immediate, with: owner) { _, value in Promise(fulfilled: value + 1) }.result, .value(2))
        XCTAssertEqual(error.recover(on: .immediate, with: owner) { _, error in error.code * 10 }.result, .value(20))
        XCTAssertEqual(error.mapResult(on: .immediate, with: owner) { _, result in PromiseResult<String, Never>.value("\(result.error!.code)") }.result, .value("2"))
        XCTAssertEqual(value.flatMapResult(on: .immediate, with: owner) { _, result in Promise<Int, String>(rejected: "\(result.value!)") }.result, .error("1"))
        XCTAssertEqual(seen.values, ["then owner 1", "catch owner 2", "always owner 1"])
    }

    func testObjectIsHeldWeakly() {
        weak var weakOwner: TestObject?
        let (promise, resolver) = Promise<Int, TestError>.makeWithResolver()
        let ran = Slot(false)
        var child: Promise<Int, TestError>!
        do {
            let owner = TestObject()
            weakOwner = owner
            child = promise.then(on: .immediate, with: owner) { _, _ in ran.value = true }
        }
        XCTAssertNil(weakOwner, "a pending callback does not keep the object alive")
        resolver.fulfill(with: 1)
        XCTAssertFalse(ran.value, "skipped once the object is gone")
        XCTAssertEqual(child.result, .value(1), "an observer still takes the parent's result")
    }

    func testTransformersCancelOnceTheObjectIsGone() {
        let (promise, resolver) = Promise<Int, TestError>.makeWithResolver()
        let (failing, rejecter) = Promise<Int, TestError>.makeWithResolver()
        var owner: TestObject? = TestObject()
        let mapped = promise.map(on: .immediate, with: owner!) { _, value in value }
        let flatMapped = promise.flatMap(on: .immediate, with: owner!) { _, value in Promise(fulfilled: value) }
        let mappedResult = promise.mapResult(on: .immediate, with: owner!) { _, result in result }
        let flatMappedResult = promise.flatMapResult(on: .immediate, with: owner!) { _, result in Promise(with: result) }
        let recovered = failing.recover(on: .immediate, with: owner!) { _, _ in 0 }
        let caught = Slot(false)
        let catching = failing.catch(on: .immediate, with: owner!) { _, _ in caught.value = true }
        owner = nil
        resolver.fulfill(with: 1)
        rejecter.reject(with: TestError(1))
        XCTAssertEqual(mapped.result, .cancelled)
        XCTAssertEqual(flatMapped.result, .cancelled)
        XCTAssertEqual(mappedResult.result, .cancelled)
        XCTAssertEqual(flatMappedResult.result, .cancelled)
        XCTAssertEqual(recovered.result?.isCancelled, true)
        XCTAssertFalse(caught.value)
        XCTAssertEqual(catching.result, .error(TestError(1)))
    }

    func testNonTriggeringResultsPassThroughEvenWithoutTheObject() {
        // Like tokens: `map` on a rejected parent passes the error through (rule 14).
        var owner: TestObject? = TestObject()
        let mapped = Promise<Int, TestError>.makeWithResolver()
        let promise = mapped.0.map(on: .immediate, with: owner!) { _, value in value }
        owner = nil
        mapped.1.reject(with: TestError(3))
        XCTAssertEqual(promise.result, .error(TestError(3)))
    }

    func testObjectIsCheckedWhenTheCallbackRuns() {
        let owner = TestObject()
        let ran = Slot(false)
        let (promise, resolver) = Promise<Int, TestError>.makeWithResolver()
        let child = promise.then(on: .utility, with: owner) { _, _ in ran.value = true }
        resolver.fulfill(with: 1)
        XCTAssertEqual(waitForResult(child), .value(1))
        XCTAssertTrue(ran.value, "alive when the callback runs: it runs")
        withExtendedLifetime(owner) {}
    }

    func testCombinesWithATokenBothMustAllow() {
        let owner = TestObject()
        let token = PromiseInvalidationToken()
        let ran = Slot(false)
        let (promise, resolver) = Promise<Int, TestError>.makeWithResolver()
        let mapped = promise.map(on: .immediate, with: owner, token: token) { _, value in
            ran.value = true
            return value
        }
        token.invalidate()
        resolver.fulfill(with: 1)
        XCTAssertFalse(ran.value)
        XCTAssertEqual(mapped.result, .cancelled)
        withExtendedLifetime(owner) {}
    }

    func testCancelPropagationIsThatOfTheUnderlyingOperator() {
        let asked = Slot(false)
        let owner = TestObject()
        var child: Promise<Int, TestError>!
        do {
            child = cancellablePromise(Int.self, asked: asked).then(on: .immediate, with: owner) { _, _ in }
        }
        child.requestCancel()
        XCTAssertTrue(asked.value, "a normal propagating child")
        withExtendedLifetime(owner) {}
    }
}
