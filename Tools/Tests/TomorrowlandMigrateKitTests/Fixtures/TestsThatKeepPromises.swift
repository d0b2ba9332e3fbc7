// The fixture of `convert-calls` in synchronous XCTest methods that, besides waiting for a call
// through a helper, wait through one on a promise they keep (TestBridges+KeptPromises): started
// earlier to check something during the call (the kiosk busy, `.result` read at once, a cancel
// request), then waited for. `Kiosk.pay(_:)` ends in `always(on: .main)`, as Orders' checkout did:
// a wait left synchronous in a test made `@MainActor async` would time out. A call's promise whose
// twin is not awaited (a reading convert-calls does not rewrite, an optional value, no twin) is
// awaited the same way.

import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest

enum KioskError: Error, Equatable { case declined, busy }

/// Checked by hand: the tests use it from one thread at a time.
final class Kiosk: @unchecked Sendable {
    var isBusy = false

    func quote() -> Promise<Int, KioskError> {
        Promise(on: .utility, fulfilled: 12, after: 0.01)
    }

    /// Async twin of `quote()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func quote() async throws -> Int {
        try await (quote() as Promise<Int, KioskError>).value
    }

    /// Busy during the call; not busy once the main queue ran the `always`.
    func pay(_ amount: Int) -> Promise<String, KioskError> {
        isBusy = true
        return Promise<Int, KioskError>(on: .utility, fulfilled: amount, after: 0.01)
            .map(on: .utility) { "paid \($0)" }
            .always(on: .main) { _ in self.isBusy = false }
    }

    /// Async twin of `pay(_:)` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func pay(_ amount: Int) async throws -> String {
        try await (pay(amount) as Promise<String, KioskError>).value
    }

    func refuse() -> Promise<String, KioskError> {
        Promise(on: .utility, rejected: .declined, after: 0.01)
    }

    /// Async twin of `refuse()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func refuse() async throws -> String {
        try await (refuse() as Promise<String, KioskError>).value
    }

    func nickname() -> Promise<String?, KioskError> {
        Promise(on: .utility, fulfilled: nil, after: 0.01)
    }

    /// Async twin of `nickname()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func nickname() async throws -> String? {
        try await (nickname() as Promise<String?, KioskError>).value
    }

    /// No async counterpart.
    func receipt() -> Promise<String, KioskError> {
        Promise(on: .main, fulfilled: "receipt", after: 0.01)
    }

    /// Pending until it is asked to cancel; cancels on the main queue.
    func hold() -> Promise<String, KioskError> {
        Promise(on: .immediate) { resolver in
            resolver.onRequestCancel(on: .main) { $0.cancel() }
        }
    }

    /// Async twin of `hold()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func hold() async throws -> String {
        try await (hold() as Promise<String, KioskError>).value
    }
}

final class KioskBox<T>: @unchecked Sendable {
    var value: T?
}

extension XCTestCase {
    /// Waits for `promise` and returns its result.
    func result<T, E>(of promise: Promise<T, E>, timeout: TimeInterval = 5) -> PromiseResult<T, E>? {
        let done = expectation(description: "resolved")
        let box = KioskBox<PromiseResult<T, E>>()
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
            throw KioskError.busy
        }
        return value
    }

    /// The value `promise` resolves with; a failure, and nil, without one.
    func valueIfAny<T, E>(of promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) -> T? {
        let result = self.result(of: promise)
        guard case .value(let value)? = result else {
            XCTFail("expected a value, got \(String(describing: result))", file: file, line: line)
            return nil
        }
        return value
    }

    /// The error `promise` rejects with; a failure, and nil, without one.
    func error<T, E>(of promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) -> E? {
        let result = self.result(of: promise)
        guard case .error(let error)? = result else {
            XCTFail("expected an error, got \(String(describing: result))", file: file, line: line)
            return nil
        }
        return error
    }

    /// Fails unless `promise` is cancelled.
    func assertCancelled<T, E>(_ promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) {
        let result = self.result(of: promise)
        XCTAssertEqual(result?.isCancelled, true, "expected cancelled, got \(String(describing: result))", file: file, line: line)
    }
}

final class KioskTests: XCTestCase {
    let kiosk = Kiosk()
    let kept = Promise<String, KioskError>(fulfilled: "kept")

    func testAKeptPaymentIsAwaitedWhereItWasWaitedFor() throws {
        let quote = try value(of: kiosk.quote())
        let payment = kiosk.pay(quote)
        XCTAssertTrue(kiosk.isBusy)
        XCTAssertNil(payment.result)
        XCTAssertEqual(result(of: payment)?.value, "paid 12")
        XCTAssertFalse(kiosk.isBusy)
    }

    func testACancelRequestedRightAfterTheCall() throws {
        let quote = try value(of: kiosk.quote())
        let held = kiosk.hold()
        held.requestCancel()
        assertCancelled(held)
        XCTAssertEqual(result(of: held), .cancelled)
        let cancelled = result(of: held)?.isCancelled
        XCTAssertEqual(cancelled, true)
        XCTAssertEqual(quote, 12)
    }

    func testValueAndErrorHelpersOnKeptPromises() throws {
        XCTAssertEqual(try value(of: kiosk.quote()), 12)
        let refusal = kiosk.refuse()
        let payment = kiosk.pay(5)
        XCTAssertEqual(error(of: refusal), .declined)
        let paid = valueIfAny(of: payment)
        XCTAssertEqual(paid?.count, 6)
        XCTAssertEqual(try value(of: self.kept), "kept")
    }

    func testCallsWhoseTwinsAreNotAwaitedAwaitTheirPromises() throws {
        XCTAssertEqual(try value(of: kiosk.quote()), 12)
        XCTAssertEqual(result(of: kiosk.quote())?.isCancelled, false)
        let nickname = result(of: kiosk.nickname())?.value
        XCTAssertEqual(nickname, .some(nil))
        XCTAssertEqual(try value(of: kiosk.receipt()), "receipt")
    }

    func testAKeptErrorBoundToALetStaysSynchronous() throws {
        XCTAssertEqual(try value(of: kiosk.quote()), 12)
        let refusal = kiosk.refuse()
        let failure = error(of: refusal)
        XCTAssertEqual(failure, .declined)
    }
}
