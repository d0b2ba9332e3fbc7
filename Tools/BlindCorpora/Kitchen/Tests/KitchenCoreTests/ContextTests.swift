import Foundation
import Tomorrowland
import XCTest
@testable import KitchenCore

/// Where and when the kitchen's callbacks run, as the code around them relies on it.
final class ContextTests: XCTestCase {
    func testPassCallbackRunsAfterTheCallersNextStatement() {
        var events: [String] = []
        let done = expectation(description: "callback")
        KitchenQueues.pass.sync {
            Promise<Int, NoError>(fulfilled: 1).then(on: .pass) { _ in
                events.append("callback")
                done.fulfill()
            }
            events.append("next statement")
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(events, ["next statement", "callback"])
    }

    func testImmediateCallbackRunsDuringTheCall() {
        var events: [String] = []
        Promise<Int, NoError>(fulfilled: 1).then(on: .immediate) { _ in
            events.append("callback")
        }
        events.append("next statement")
        XCTAssertEqual(events, ["callback", "next statement"])
    }

    func testImmediateCallbackOfAPendingPromiseRunsWhenItIsResolved() {
        var events: [String] = []
        let (promise, resolver) = Promise<Int, NoError>.makeWithResolver()
        promise.then(on: .immediate) { value in events.append("callback \(value)") }
        events.append("registered")
        resolver.fulfill(with: 2)
        events.append("resolved")
        XCTAssertEqual(events, ["registered", "callback 2", "resolved"])
    }

    func testPassContextRunsOnThePassQueue() {
        let done = expectation(description: "callback")
        var queue: String?
        Promise<Int, NoError>(fulfilled: 1).then(on: .pass) { _ in
            queue = KitchenQueues.current
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(queue, "kitchen.pass")
    }

    func testPrintingContextRunsOnThePrinterQueue() {
        let done = expectation(description: "callback")
        var queue: String?
        StdPromise<Int>(on: .printing) { resolver in
            queue = KitchenQueues.current
            resolver.fulfill(with: 1)
        }.always(on: .immediate) { _ in done.fulfill() }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(queue, "kitchen.printer")
    }

    func testMainCallbackRunsOnTheMainQueue() {
        _ = mainKey
        let done = expectation(description: "callback")
        var onMain = false
        Promise<Int, NoError>(on: .utility, fulfilled: 1, after: 0).then(on: .main) { _ in
            onMain = DispatchQueue.getSpecific(key: mainKey) == "main"
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertTrue(onMain)
    }

    func testTokenSilencesCallbacksRegisteredBeforeInvalidate() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, NoError>.makeWithResolver()
        var ran = false
        let observed = promise.then(on: .immediate, token: token) { _ in ran = true }
        token.invalidate()
        resolver.fulfill(with: 1)
        XCTAssertFalse(ran)
        XCTAssertEqual(observed.result?.value, 1)
    }

    func testTokenPromiseCancelsItsTransformsAfterInvalidate() {
        let token = PromiseInvalidationToken()
        let (promise, resolver) = Promise<Int, NoError>.makeWithResolver()
        let mapped = promise.withToken(token).map(on: .immediate) { $0 * 2 }.inner
        token.invalidate()
        resolver.fulfill(with: 1)
        XCTAssertEqual(mapped.result?.isCancelled, true)
    }

    func testDelayedPromiseStartsOnFirstAccess() throws {
        var started = 0
        let delayed = DelayedPromise<Int, NoError>(on: .utility) { resolver in
            started += 1
            resolver.fulfill(with: 5)
        }
        XCTAssertEqual(started, 0)
        XCTAssertEqual(try value(of: delayed.promise), 5)
        XCTAssertEqual(delayed.promise, delayed.promise)
        XCTAssertEqual(started, 1)
    }

    func testRequestCancelReachesTheHandlerOfWorkInFlight() {
        let cancelled = expectation(description: "handler ran")
        let child = StdPromise<Int>(on: .utility) { resolver in
            resolver.onRequestCancel(on: .immediate) { resolver in
                cancelled.fulfill()
                resolver.cancel()
            }
        }.map(on: .utility) { $0 + 1 }
        child.requestCancel()
        wait(for: [cancelled], timeout: 10)
        XCTAssertEqual(result(of: child)?.isCancelled, true)
    }
}

/// Marks the main queue, so that a callback can tell it runs there whatever thread drains it.
let mainKey: DispatchSpecificKey<String> = {
    let key = DispatchSpecificKey<String>()
    DispatchQueue.main.setSpecific(key: key, value: "main")
    return key
}()
