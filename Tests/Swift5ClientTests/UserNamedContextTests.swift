// Contexts of a user's own that name a queue: declared on `PromiseContext.Named` (as
// MIGRATION.md says), `.decoding` picks the named overload from a `@MainActor` class, so its
// closure is nonisolated and runs on that queue; `Named(qos:)` and `Named(PromiseContext.x)`
// (the twin `tomorrowland-migrate adopt` writes) likewise. The same context held as a
// `PromiseContext` value (`PromiseContext.decoding`) runs there too.

import Foundation
import Tomorrowland
import XCTest

private let decodingQueue: DispatchQueue = {
    let queue = DispatchQueue(label: "user.decoding")
    queue.setSpecific(key: decodingKey, value: true)
    return queue
}()
private let decodingKey = DispatchSpecificKey<Bool>()
private let mainKey = DispatchSpecificKey<Bool>()

extension PromiseContext.Named {
    static let decoding = PromiseContext.Named.queue(decodingQueue)
}

extension PromiseContext {
    static let decoding = PromiseContext.queue(decodingQueue)
    static let parsing = PromiseContext.queue(decodingQueue)
}

extension PromiseContext.Named {
    /// The twin `adopt` writes for `PromiseContext.parsing`.
    static var parsing: Self { Self(PromiseContext.parsing) }
}

@MainActor
private final class DecodingScreen {
    var shown: [String] = []

    /// `.decoding` (the `Named` member): the closure runs on the decoding queue.
    func decode(_ data: StdPromise<Int>) -> StdPromise<Bool> {
        data.map(on: .decoding) { _ in DispatchQueue.getSpecific(key: decodingKey) == true }
    }

    /// `Named(qos:)`: a global queue, not the main queue.
    func decodeOnQoS(_ data: StdPromise<Int>) -> StdPromise<Bool> {
        data.map(on: PromiseContext.Named(qos: .utility)) { _ in DispatchQueue.getSpecific(key: mainKey) == true }
    }

    /// `.parsing` (a twin wrapping the `PromiseContext` member): on the decoding queue.
    func parse(_ data: StdPromise<Int>) -> StdPromise<Bool> {
        data.map(on: .parsing) { _ in DispatchQueue.getSpecific(key: decodingKey) == true }
    }

    /// `PromiseContext.decoding` (a value): the closure is nonisolated and runs on the
    /// decoding queue; back on the main actor with `.main`.
    func decodeWithValue(_ data: StdPromise<Int>) -> StdPromise<Bool> {
        data.map(on: PromiseContext.decoding) { _ in
            DispatchQueue.getSpecific(key: decodingKey) == true
        }.map(on: .main) { onDecodingQueue in
            self.shown.append("value")
            return onDecodingQueue
        }
    }
}

final class UserNamedContextTests: XCTestCase {
    override func setUp() {
        super.setUp()
        DispatchQueue.main.setSpecific(key: mainKey, value: true)
    }

    private func value(of promise: StdPromise<Bool>) -> Bool? {
        let done = expectation(description: "resolved")
        promise.always(on: .immediate) { _ in done.fulfill() }
        wait(for: [done], timeout: 30)
        return promise.result?.value
    }

    func testUserContextDeclaredOnNamedRunsOnItsQueue() {
        let screen = MainActor.assumeIsolated { DecodingScreen() }
        let onQueue = MainActor.assumeIsolated { screen.decode(StdPromise(fulfilled: 1)) }
        XCTAssertEqual(value(of: onQueue), true)
        let offMain = MainActor.assumeIsolated { screen.decodeOnQoS(StdPromise(fulfilled: 1)) }
        XCTAssertEqual(value(of: offMain), false)
        let twin = MainActor.assumeIsolated { screen.parse(StdPromise(fulfilled: 1)) }
        XCTAssertEqual(value(of: twin), true)
    }

    func testUserContextHeldAsAValueRunsOnItsQueue() {
        let screen = MainActor.assumeIsolated { DecodingScreen() }
        let onQueue = MainActor.assumeIsolated { screen.decodeWithValue(StdPromise(fulfilled: 1)) }
        XCTAssertEqual(value(of: onQueue), true)
        XCTAssertEqual(MainActor.assumeIsolated { screen.shown }, ["value"])
    }
}
