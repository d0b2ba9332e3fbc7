// What TestBridges+RunLoopWaits rests on, at run time under XCTest (as the corpora's tests run):
// a synchronous test that waits through a helper's `wait(for:)` sees a callback the promise runs
// on `.main`, because the run loop drains the main queue while it waits; the same wait in a test
// made `@MainActor async` (what convert-calls wrote for Orders' two checkout tests) runs inside a
// job of the main actor, the run loop does not drain the main queue there, and the callback only
// runs once the test suspends. `Till.pay(_:)` is the fixture's (TestsThatStillWait.swift) chain.
// What convert-calls writes for a wait on a promise the test keeps (TestBridges+KeptPromises), an
// await of it where the helper waited, suspends the test there: the callback runs, as it did in
// the synchronous test, and the checks before the await still see the call in progress.

import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest

final class StillWaitingAtRunTimeTests: XCTestCase {
    enum Failure: Error { case declined }

    /// Checked by hand: each test uses it from one thread at a time.
    final class Till: @unchecked Sendable {
        var isBusy = false

        func quote() -> Promise<Int, Failure> {
            Promise(on: .utility, fulfilled: 12, after: 0.01)
        }

        /// Busy during the call; not busy once the main queue ran the `always`.
        func pay(_ amount: Int) -> Promise<String, Failure> {
            isBusy = true
            return Promise<Int, Failure>(on: .utility, fulfilled: amount, after: 0.01)
                .map(on: .utility) { "paid \($0)" }
                .always(on: .main) { _ in self.isBusy = false }
        }
    }

    /// The fixture's `result(of:)`, with an `XCTWaiter` that reports a timeout instead of failing the test.
    func waitForResult(of promise: Promise<String, Failure>, timeout: TimeInterval) -> (XCTWaiter.Result, String?) {
        let done = expectation(description: "resolved")
        let seen = Seen()
        promise.always(on: .immediate) { result in
            seen.value = result.value
            done.fulfill()
        }
        return (XCTWaiter().wait(for: [done], timeout: timeout), seen.value)
    }

    final class Seen: @unchecked Sendable {
        var value: String?
    }

    /// What convert-calls now leaves: the 1.x test, synchronous.
    func testASynchronousTestSeesTheMainQueueCallback() {
        let till = Till()
        let payment = till.pay(12)
        XCTAssertTrue(till.isBusy)
        let (waited, value) = waitForResult(of: payment, timeout: 5)
        XCTAssertEqual(waited, .completed)
        XCTAssertEqual(value, "paid 12")
        XCTAssertFalse(till.isBusy)
    }

    /// What convert-calls writes now: the kept payment awaited where `value(of:)` waited for it.
    @MainActor func testAMainActorTestThatAwaitsTheKeptPromiseSeesTheCallback() async throws {
        let till = Till()
        let quote = try await till.quote().value
        let payment = till.pay(quote)
        XCTAssertTrue(till.isBusy)
        XCTAssertNil(payment.result)
        let paymentValue = try await payment.value
        XCTAssertEqual(paymentValue, "paid 12")
        XCTAssertFalse(till.isBusy)
    }

    /// An assertion helper's check of a kept promise, inlined: a cancel request handled on the main queue.
    @MainActor func testAnInlinedCancellationCheckSeesTheMainQueueCancel() async throws {
        let held = Promise<String, Failure>(on: .immediate) { resolver in
            resolver.onRequestCancel(on: .main) { $0.cancel() }
        }
        held.requestCancel()
        XCTAssertNil(held.result, "cancelled before the main queue ran")
        let heldResult = await held.resolvedResult
        XCTAssertEqual(heldResult.isCancelled, true, "expected cancelled, got \(String(describing: heldResult))")
    }

    /// What convert-calls wrote before: the test `@MainActor async`, an await, then the same wait.
    @MainActor func testAMainActorTestDoesNotSeeItWhileItWaits() async throws {
        let till = Till()
        let quote = try await till.quote().value
        let payment = till.pay(quote)
        let (waited, value) = waitForResult(of: payment, timeout: 1)
        XCTAssertEqual(waited, .timedOut, "the run loop drained the main queue inside a main-actor job")
        XCTAssertNil(value)
        XCTAssertTrue(till.isBusy, "the `.main` callback ran during the wait")
        // Once the test suspends, the main queue runs the callback.
        _ = try await payment.value
        XCTAssertFalse(till.isBusy)
    }
}
