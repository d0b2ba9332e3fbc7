// One file, compiled in both language modes: this is the Swift 5 client target's file, and
// Tests/Swift6ClientTests/TaskPromiseIsolationTests.swift is a symbolic link to it.
// Async → promise from isolated code: `StdPromise { … }` and `Promise<T, E> { … }` compile in
// `@MainActor` code, in actors and in nonisolated code, and the operation runs isolated to the
// actor it was written in.

import Foundation
import TomorrowlandAsync
import XCTest

@MainActor final class AvatarController {
    var loads = 0

    func load() async throws -> Int {
        MainActor.preconditionIsolated()
        loads += 1
        return loads
    }

    // The README's `legacyAvatar` pattern, in a view controller.
    func legacyAvatar() -> StdPromise<Int> {
        StdPromise { try await self.load() }
    }

    func constant() -> StdPromise<Int> {
        StdPromise<Int> {
            MainActor.preconditionIsolated()
            return 2
        }
    }

    func typed() -> Promise<Int, FeedError> {
        Promise<Int, FeedError> {
            MainActor.preconditionIsolated()
            return 3
        }
    }
}

actor AvatarStore {
    var count = 0

    func load() async throws -> Int {
        count += 1
        return count
    }

    func legacyAvatar() -> StdPromise<Int> {
        StdPromise { try await self.load() }
    }

    func constant() -> StdPromise<Int> {
        StdPromise<Int> {
            self.preconditionIsolated()
            self.count += 10
            return self.count
        }
    }

    func typed() -> Promise<Int, FeedError> {
        Promise<Int, FeedError> {
            self.preconditionIsolated()
            return 5
        }
    }
}

func nonisolatedTaskPromises() -> (StdPromise<Int>, Promise<Int, FeedError>) {
    (StdPromise<Int> { 2 }, Promise<Int, FeedError> { 3 })
}

final class TaskPromiseIsolationTests: XCTestCase {
    /// The promise's value, waiting at most 10 seconds.
    func value<Error>(of promise: Promise<Int, Error>) -> Int? {
        let done = expectation(description: "resolved")
        promise.always(on: .immediate) { _ in done.fulfill() }
        wait(for: [done], timeout: 10)
        return promise.result?.value
    }

    func testMainActorCode() {
        let controller = MainActor.assumeIsolated { AvatarController() }
        let (legacy, constant, typed) = MainActor.assumeIsolated {
            (controller.legacyAvatar(), controller.constant(), controller.typed())
        }
        XCTAssertEqual(value(of: legacy), 1)
        XCTAssertEqual(value(of: constant), 2)
        XCTAssertEqual(value(of: typed), 3)
    }

    func testActorCode() async {
        let store = AvatarStore()
        let legacy = await store.legacyAvatar()
        let constant = await store.constant()
        let typed = await store.typed()
        let done = XCTestExpectation(description: "resolved")
        done.expectedFulfillmentCount = 3
        for promise in [legacy, constant] { promise.always(on: .immediate) { _ in done.fulfill() } }
        typed.always(on: .immediate) { _ in done.fulfill() }
        _ = await XCTWaiter().fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(Set([legacy.result?.value, constant.result?.value]), [1, 11], "one ran after the other, on the actor")
        XCTAssertEqual(typed.result?.value, 5)
    }

    func testNonisolatedCode() {
        let (std, typed) = nonisolatedTaskPromises()
        XCTAssertEqual(value(of: std), 2)
        XCTAssertEqual(value(of: typed), 3)
    }
}
