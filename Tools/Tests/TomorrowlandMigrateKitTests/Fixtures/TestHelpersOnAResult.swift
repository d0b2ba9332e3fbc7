// The fixture of `convert-calls` in synchronous XCTest methods that wait through a value and an
// error helper built on a result helper with `guard let v = result?.value` (Relay's `awaitValue(_:)`
// and `awaitError(_:)`, `TestBridges.guardedRead`), and of where a converted test runs: `Outbox`'s
// `always` has no context (`.auto`), so it journals "@main" only when the test runs on the main thread.

import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest

enum SendError: Error, Equatable { case offline }

/// Checked by hand: the tests use it from one thread at a time.
final class Outbox: @unchecked Sendable {
    var isOnline = true
    var journal: [String] = []

    func send(_ text: String) -> Promise<Int, SendError> {
        journal.append("send \(text)")
        let answer: Promise<Int, SendError> = isOnline ? Promise(fulfilled: text.count) : Promise(rejected: .offline)
        return answer.always { _ in
            self.journal.append("settled \(text) @\(Thread.isMainThread ? "main" : "other")")
        }
    }

    /// Async twin of `send(_:)` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func send(_ text: String) async throws -> Int {
        try await (send(text) as Promise<Int, SendError>).value
    }
}

/// Holds what a callback saw.
final class Seen<T>: @unchecked Sendable {
    var value: T?
}

extension XCTestCase {
    /// Waits for the promise and returns its result, or nil (and a failure) on timeout.
    func awaitResult<T, E>(_ promise: Promise<T, E>, timeout: TimeInterval = 10,
                           file: StaticString = #filePath, line: UInt = #line) -> PromiseResult<T, E>? {
        let resolved = expectation(description: "promise resolved")
        let seen = Seen<PromiseResult<T, E>>()
        promise.always(on: .immediate) { result in
            seen.value = result
            resolved.fulfill()
        }
        wait(for: [resolved], timeout: timeout)
        return seen.value
    }

    /// The promise's value, or nil and a failure if it rejected or was cancelled.
    func awaitValue<T, E>(_ promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) -> T? {
        let result = awaitResult(promise, file: file, line: line)
        guard let value = result?.value else {
            XCTFail("expected a value, got \(String(describing: result))", file: file, line: line)
            return nil
        }
        return value
    }

    /// The promise's error, or nil and a failure if it fulfilled or was cancelled.
    func awaitError<T, E>(_ promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) -> E? {
        let result = awaitResult(promise, file: file, line: line)
        guard let error = result?.error else {
            XCTFail("expected an error, got \(String(describing: result))", file: file, line: line)
            return nil
        }
        return error
    }
}

final class OutboxTests: XCTestCase {
    func testSendSettlesOnMain() {
        let outbox = Outbox()
        XCTAssertEqual(awaitValue(outbox.send("ab")), 2)
        XCTAssertEqual(outbox.journal, ["send ab", "settled ab @main"])
    }

    func testOfflineSendIsTyped() {
        let outbox = Outbox()
        outbox.isOnline = false
        XCTAssertEqual(awaitError(outbox.send("a")), .offline)
        XCTAssertEqual(outbox.journal.last, "settled a @main")
    }

    func testAKeptPromise() {
        let outbox = Outbox()
        let promise = outbox.send("a")
        XCTAssertEqual(outbox.journal, ["send a"])
        XCTAssertEqual(awaitValue(promise), 1)
    }
}
