// The fixture of `convert-calls` in synchronous XCTest methods that poll through a helper of the
// tests' own (TestBridges+PollingWaits): Ledger's `waitUntil(_:timeout:file:line:_:)` spins the run
// loop until its condition holds or its deadline passes, and its test support already has the async
// counterpart, `eventually(_:timeout:isolation:file:line:_:)`, which sleeps instead. A converted test
// awaits the counterpart. `waitAWhile` has none: it gets its async overload, written after it, and a
// synchronous caller (`settle`) keeps calling the synchronous one. A test whose condition waits
// itself (through `result(of:)`) stays synchronous.

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

let pollTimeout: TimeInterval = 5

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

    /// Polls `condition` on the main run loop until it holds.
    func waitUntil(_ description: String, timeout: TimeInterval = pollTimeout,
                   file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline {
                XCTFail("timed out waiting until \(description)", file: file, line: line)
                return
            }
            RunLoop.current.run(until: Date().addingTimeInterval(0.01))
        }
    }

    /// Polls `condition` every 50 ms: the async function below sleeps 10 ms, so it is not this one's counterpart.
    func waitAWhile(_ description: String, timeout: TimeInterval = pollTimeout,
                    file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline {
                XCTFail("timed out waiting until \(description)", file: file, line: line)
                return
            }
            RunLoop.current.run(until: Date().addingTimeInterval(0.05))
        }
    }

    /// A synchronous caller of `waitAWhile`: it keeps naming the synchronous helper.
    func settle(_ till: Till) {
        waitAWhile("settled") { !till.isBusy }
    }
}

/// Polls `condition` (on the caller's actor) until it holds.
func eventually(_ description: String, timeout: TimeInterval = pollTimeout,
                isolation: isolated (any Actor)? = #isolation,
                file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) async {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline {
            XCTFail("timed out waiting until \(description)", file: file, line: line)
            return
        }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
}

final class TillTests: XCTestCase {
    let till = Till()

    func testPollsUntilPaid() throws {
        let quote = try value(of: till.quote())
        let payment = till.pay(quote)
        waitUntil("paid") { !till.isBusy }
        XCTAssertEqual(payment.result?.value, "paid 12")
        _ = till.pay(1)
        self.waitUntil("paid again", timeout: 2) { !self.till.isBusy }
    }

    func testPollsWithoutACounterpart() throws {
        let quote = try value(of: till.quote())
        _ = till.pay(quote)
        waitAWhile("paid") { !till.isBusy }
    }

    func testPollsWithAWaitInTheCondition() throws {
        let quote = try value(of: till.quote())
        waitAWhile("quoted again") { self.result(of: till.quote())?.value == quote }
    }
}
