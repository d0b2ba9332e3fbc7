// The fixture of `convert-calls` in synchronous XCTest methods whose body is one
// `MainActor.assumeIsolated { … }` statement (TestBridges+AssumeIsolated): XCTest on Linux aborts on
// a `@MainActor` test class's synchronous tests, so a test of main-actor state runs its body on the
// main actor itself. The closure's statements are the test's own; the wrapper goes once the test is
// `@MainActor async`. A wrapper beside other statements, one whose value is used, and one whose test
// would still spin the run loop stay as they were.

import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest

enum StationError: Error, Equatable { case offline }

/// Checked by hand: the tests use it from one thread at a time.
final class Station: @unchecked Sendable {
    func refresh() -> Promise<Int, StationError> {
        Promise(on: .utility, fulfilled: 2, after: 0.01)
    }

    /// Async twin of `refresh()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func refresh() async throws -> Int {
        try await (refresh() as Promise<Int, StationError>).value
    }

    func fail() -> Promise<Int, StationError> {
        Promise(on: .utility, rejected: .offline, after: 0.01)
    }

    /// Async twin of `fail()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func fail() async throws -> Int {
        try await (fail() as Promise<Int, StationError>).value
    }
}

/// Main-actor state, as a view model's.
@MainActor final class Board {
    var log: [String] = []
}

final class StationBox<T>: @unchecked Sendable {
    var value: T?
}

extension XCTestCase {
    /// Waits for `promise` and returns its result.
    func result<T, E>(of promise: Promise<T, E>, timeout: TimeInterval = 5) -> PromiseResult<T, E>? {
        let done = expectation(description: "resolved")
        let box = StationBox<PromiseResult<T, E>>()
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
            throw StationError.offline
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
}

/// Checked by hand (Swift 6 mode: a main-actor closure captures `self`): XCTest runs one test at a time.
final class StationTests: XCTestCase, @unchecked Sendable {
    let station = Station()

    func testAWrappedBodyIsTheTestsOwn() throws {
        try MainActor.assumeIsolated {
            let board = Board()
            board.log.append("refresh")
            XCTAssertEqual(try value(of: station.refresh()), 2)
            // The error, checked as at the top level of a test.
            XCTAssertEqual(error(of: station.fail()), .offline)
            XCTAssertEqual(board.log, ["refresh"])
        }
    }

    func testAReturnInTheClosureEndsTheTest() {
        MainActor.assumeIsolated {
            let board = Board()
            let count = result(of: station.refresh())?.value
            guard count == 2 else { return }
            board.log.append("counted")
            XCTAssertEqual(board.log, ["counted"])
        }
    }

    func testAWrapperBesideOtherStatementsStays() {
        let station = Station()
        MainActor.assumeIsolated {
            XCTAssertEqual(result(of: station.refresh())?.value, 2)
        }
    }

    func testAWrapperWhoseValueIsUsedStays() throws {
        let count = try MainActor.assumeIsolated {
            try value(of: station.refresh())
        }
        XCTAssertEqual(count, 2)
    }

    func testAWrappedTestThatStillSpinsTheRunLoopStays() {
        MainActor.assumeIsolated {
            XCTAssertEqual(result(of: station.refresh())?.value, 2)
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.01))
        }
    }
}
