// The fixture of `convert-calls` in synchronous XCTest methods that, once their helper calls
// are awaited, would still wait synchronously (TestBridges+RunLoopWaits): Orders'
// `testCheckoutIsInProgressDuringTheCallAndRefusesASecondOne()` awaited its quote, then waited
// through `value(of:)` for the checkout it keeps, whose chain ends in `always(on: .main)`. Made
// `@MainActor async`, that wait ran inside a job of the main actor, the `.main` callback never ran,
// and the test failed after its timeout. `Till.pay(_:)` is that chain. Such a wait on a kept
// promise is now awaited (TestBridges+KeptPromises); the other waits here still keep their tests
// synchronous.

import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest

enum TillError: Error, Equatable { case declined }

/// Checked by hand: the tests use it from one thread at a time.
final class Till: @unchecked Sendable {
    var isBusy = false

    func quote() -> Promise<Int, TillError> {
        Promise(on: .utility, fulfilled: 12, after: 0.01)
    }

    /// Async twin of `quote()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func quote() async throws -> Int {
        try await (quote() as Promise<Int, TillError>).value
    }

    /// Busy during the call; not busy once the main queue ran the `always`.
    func pay(_ amount: Int) -> Promise<String, TillError> {
        isBusy = true
        return Promise<Int, TillError>(on: .utility, fulfilled: amount, after: 0.01)
            .map(on: .utility) { "paid \($0)" }
            .always(on: .main) { _ in self.isBusy = false }
    }

    /// Async twin of `pay(_:)` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func pay(_ amount: Int) async throws -> String {
        try await (pay(amount) as Promise<String, TillError>).value
    }
}

final class TillBox<T>: @unchecked Sendable {
    var value: T?
}

extension XCTestCase {
    /// Waits for `promise` and returns its result.
    func result<T, E>(of promise: Promise<T, E>, timeout: TimeInterval = 5) -> PromiseResult<T, E>? {
        let done = expectation(description: "resolved")
        let box = TillBox<PromiseResult<T, E>>()
        promise.always(on: .immediate) { result in
            box.value = result
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        return box.value
    }

    /// The value `promise` resolves with; a failure, and a thrown error, without one.
    func value<T, E>(of promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) throws -> T {
        let result = self.result(of: promise)
        guard case .value(let value)? = result else {
            XCTFail("expected a value, got \(String(describing: result))", file: file, line: line)
            throw TillError.declined
        }
        return value
    }

    /// Fails unless `promise` resolves with "paid …" (waits through `value(of:)`).
    func assertPaid(_ promise: Promise<String, TillError>, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual((try? value(of: promise))?.hasPrefix("paid"), true, file: file, line: line)
    }

    /// Pumps the run loop until `condition` holds, for up to 5 s.
    func waitUntil(_ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(5)
        while !condition(), Date() < deadline {
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
        }
    }
}

final class TillTests: XCTestCase {
    let till = Till()

    func testAKeptPaymentWaitedForAfterTheQuote() throws {
        let quote = try value(of: till.quote())
        let payment = till.pay(quote)
        XCTAssertTrue(till.isBusy)
        XCTAssertEqual(try value(of: payment), "paid 12")
        XCTAssertFalse(till.isBusy)
    }

    func testSpinningUntilPaid() throws {
        let quote = try value(of: till.quote())
        let payment = till.pay(quote)
        waitUntil { !till.isBusy }
        XCTAssertEqual(payment.result?.value, "paid 12")
    }

    func testThroughAnotherHelper() throws {
        XCTAssertEqual(try value(of: till.quote()), 12)
        assertPaid(till.pay(1))
    }

    @MainActor func testExpectationsWaitedForByName() throws {
        let quote = try value(of: till.quote())
        let paid = expectation(description: "paid")
        _ = till.pay(quote).then(on: .immediate) { _ in paid.fulfill() }
        waitForExpectations(timeout: 5)
    }

    func testItsOwnWaitIsAwaited() throws {
        let quote = try value(of: till.quote())
        let paid = expectation(description: "paid")
        _ = till.pay(quote).then(on: .immediate) { _ in paid.fulfill() }
        wait(for: [paid], timeout: 5)
        XCTAssertFalse(till.isBusy)
    }

    func testTheQuoteOnly() throws {
        XCTAssertEqual(try value(of: till.quote()), 12)
        let payment = till.pay(1)
        payment.requestCancel()
    }
}
