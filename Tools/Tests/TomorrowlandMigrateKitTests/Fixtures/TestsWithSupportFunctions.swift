// The fixture of `convert-calls` in synchronous XCTest methods that call a support function of
// their class which waits through a helper (TestBridges+SupportFunctions): Ledger's `private func
// seededStore() throws -> LedgerStore`, which inserts with `_ = try value(of: store.insert(…))`.
// Awaited in its tests, it is made async with them; one whose own wait is not rewritten stays, and its test too.

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

    func refund(to other: Till) -> Promise<Int, TillError> {
        Promise(on: .utility, fulfilled: 3, after: 0.01)
    }

    /// Async twin of `refund(to:)` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func refund(to other: Till) async throws -> Int {
        try await (refund(to: other) as Promise<Int, TillError>).value
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
}

final class TillTests: XCTestCase {
    let till = Till()

    private func paidTill() throws -> Till {
        _ = try value(of: till.pay(5))
        return till
    }

    /// Returns the helper's value at once: a reading convert-calls does not rewrite, so it and its test stay.
    private func quoted() throws -> Int {
        try value(of: till.quote())
    }

    func testQuotesAfterPaying() throws {
        let paid = try paidTill()
        XCTAssertEqual(try value(of: paid.quote()), 12)
    }

    func testRefundsAPaidTill() throws {
        let refund = try value(of: till.refund(to: try self.paidTill()))
        XCTAssertEqual(refund, 3)
    }

    func testQuotedInARewrite() throws {
        XCTAssertEqual(try value(of: till.pay(try quoted())), "paid 12")
    }

    func testQuotedDirectly() throws {
        XCTAssertEqual(try value(of: till.pay(1)), "paid 1")
        XCTAssertEqual(try quoted(), 12)
    }
}
