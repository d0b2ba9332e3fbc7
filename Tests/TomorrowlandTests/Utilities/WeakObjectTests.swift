import Dispatch
import Foundation
import XCTest
@testable import Tomorrowland

final class UtilitiesWeakObjectTests: XCTestCase {
    func testCallbacksReceiveTheLiveObject() {
        let owner = UtilObject("owner")
        let seen = UtilBox<[String]>([])
        let value = Promise<Int, UtilError>(fulfilled: 1)
        let error = Promise<Int, UtilError>(rejected: UtilError(2))
        _ = value.then(on: .immediate, with: owner) { owner, value in seen.append("then \(owner.name) \(value)") }
        error.catch(on: .immediate, with: owner) { owner, error in seen.append("catch \(owner.name) \(error.code)") }
        value.always(on: .immediate, with: owner) { owner, result in seen.append("always \(owner.name) \(result.value ?? -1)") }
        XCTAssertEqual(value.map(on: .immediate, with: owner) { owner, value in owner.name.count + value }.result, .value(6))
        XCTAssertEqual(value.flatMap(on: .immediate, with: owner) { _, value in Promise(fulfilled: value + 1) }.result, .value(2))
        XCTAssertEqual(error.recover(on: .immediate, with: owner) { _, error in error.code * 10 }.result, .value(20))
        XCTAssertEqual(error.mapResult(on: .immediate, with: owner) { _, result in PromiseResult<String, Never>.value("\(result.error!.code)") }.result, .value("2"))
        XCTAssertEqual(value.flatMapResult(on: .immediate, with: owner) { _, result in Promise<Int, String>(rejected: "\(result.value!)") }.result, .error("1"))
        XCTAssertEqual(seen.value, ["then owner 1", "catch owner 2", "always owner 1"])
    }

    func testObjectIsHeldWeakly() {
        weak var weakOwner: UtilObject?
        let (promise, resolver) = Promise<Int, UtilError>.makeWithResolver()
        let ran = UtilBox(false)
        var child: Promise<Int, UtilError>!
        do {
            let owner = UtilObject()
            weakOwner = owner
            child = promise.then(on: .immediate, with: owner) { _, _ in ran.value = true }
        }
        XCTAssertNil(weakOwner, "a pending callback does not keep the object alive")
        resolver.fulfill(with: 1)
        XCTAssertFalse(ran.value, "skipped once the object is gone")
        XCTAssertEqual(child.result, .value(1), "an observer still takes the parent's result")
    }

    func testTransformersCancelOnceTheObjectIsGone() {
        let (promise, resolver) = Promise<Int, UtilError>.makeWithResolver()
        let (failing, rejecter) = Promise<Int, UtilError>.makeWithResolver()
        var owner: UtilObject? = UtilObject()
        let mapped = promise.map(on: .immediate, with: owner!) { _, value in value }
        let flatMapped = promise.flatMap(on: .immediate, with: owner!) { _, value in Promise(fulfilled: value) }
        let mappedResult = promise.mapResult(on: .immediate, with: owner!) { _, result in result }
        let flatMappedResult = promise.flatMapResult(on: .immediate, with: owner!) { _, result in Promise(with: result) }
        let recovered = failing.recover(on: .immediate, with: owner!) { _, _ in 0 }
        let caught = UtilBox(false)
        let catching = failing.catch(on: .immediate, with: owner!) { _, _ in caught.value = true }
        owner = nil
        resolver.fulfill(with: 1)
        rejecter.reject(with: UtilError(1))
        XCTAssertEqual(mapped.result, .cancelled)
        XCTAssertEqual(flatMapped.result, .cancelled)
        XCTAssertEqual(mappedResult.result, .cancelled)
        XCTAssertEqual(flatMappedResult.result, .cancelled)
        XCTAssertEqual(recovered.result?.isCancelled, true)
        XCTAssertFalse(caught.value)
        XCTAssertEqual(catching.result, .error(UtilError(1)))
    }

    func testNonTriggeringResultsPassThroughEvenWithoutTheObject() {
        // Like tokens: `map` on a rejected parent passes the error through (rule 14).
        var owner: UtilObject? = UtilObject()
        let mapped = Promise<Int, UtilError>.makeWithResolver()
        let promise = mapped.0.map(on: .immediate, with: owner!) { _, value in value }
        owner = nil
        mapped.1.reject(with: UtilError(3))
        XCTAssertEqual(promise.result, .error(UtilError(3)))
    }

    func testObjectIsCheckedWhenTheCallbackRuns() {
        let owner = UtilObject()
        let ran = UtilBox(false)
        let (promise, resolver) = Promise<Int, UtilError>.makeWithResolver()
        let child = promise.then(on: .utility, with: owner) { _, _ in ran.value = true }
        resolver.fulfill(with: 1)
        XCTAssertEqual(utilAwait(child), .value(1))
        XCTAssertTrue(ran.value, "alive when the callback runs: it runs")
        withExtendedLifetime(owner) {}
    }

    func testCombinesWithATokenBothMustAllow() {
        let owner = UtilObject()
        let token = PromiseInvalidationToken()
        let ran = UtilBox(false)
        let (promise, resolver) = Promise<Int, UtilError>.makeWithResolver()
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
        let asked = UtilBox(false)
        let owner = UtilObject()
        var child: Promise<Int, UtilError>!
        do {
            child = utilCancellable(Int.self, asked: asked).then(on: .immediate, with: owner) { _, _ in }
        }
        child.requestCancel()
        XCTAssertTrue(asked.value, "a normal propagating child")
        withExtendedLifetime(owner) {}
    }
}
