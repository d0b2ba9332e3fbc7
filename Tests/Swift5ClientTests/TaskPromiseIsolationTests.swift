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

    // `.immediate`: the operation uses main-actor state and starts in the call.
    func immediate() -> StdPromise<Int> {
        StdPromise(on: .immediate) {
            MainActor.preconditionIsolated()
            self.loads += 100
            await Task.yield()
            return try await self.load()
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

    // `.immediate`: the operation uses the actor's state and starts in the call, on the actor.
    func immediate() -> (Promise<Int, FeedError>, countWhenCreated: Int) {
        let promise = Promise<Int, FeedError>(on: .immediate) {
            self.preconditionIsolated()
            self.count += 100
            await Task.yield()
            return self.count
        }
        return (promise, count)
    }
}

func nonisolatedTaskPromises() -> (StdPromise<Int>, Promise<Int, FeedError>) {
    (StdPromise<Int> { 2 }, Promise<Int, FeedError> { 3 })
}

func nonisolatedImmediateTaskPromises() -> (StdPromise<Int>, Promise<Int, FeedError>, Promise<Int, NoError>) {
    (StdPromise<Int>(on: .immediate) { 2 }, Promise<Int, FeedError>(on: .immediate) { 3 }, Promise<Int, NoError>(on: .immediate) { 4 })
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

    func testImmediateStartsInTheCall() async {
        let controller = await AvatarController()
        // Read in the same turn of the main actor: the operation resumes there after its yield.
        let (fromMain, loadsWhenCreated) = await MainActor.run { (controller.immediate(), controller.loads) }
        XCTAssertEqual(loadsWhenCreated, 100, "ran on the main actor before the initializer returned")
        let (fromActor, countWhenCreated) = await AvatarStore().immediate()
        XCTAssertEqual(countWhenCreated, 100, "ran on the actor before the initializer returned")
        let (std, typed, noError) = nonisolatedImmediateTaskPromises()
        XCTAssertEqual([std.result?.value, typed.result?.value, noError.result?.value], [2, 3, 4], "resolved in the call")
        let done = XCTestExpectation(description: "resolved")
        done.expectedFulfillmentCount = 2
        fromMain.always(on: .immediate) { _ in done.fulfill() }
        fromActor.always(on: .immediate) { _ in done.fulfill() }
        _ = await XCTWaiter().fulfillment(of: [done], timeout: 10)
        XCTAssertEqual(fromMain.result?.value, 101)
        XCTAssertEqual(fromActor.result?.value, 100)
    }
}
