import Foundation
import Tomorrowland
import TransitCore
import XCTest

/// Spins the current run loop (so main-queue callbacks run) until `promise` resolves.
func resolved<V, E>(_ promise: Promise<V, E>, timeout: TimeInterval = 5,
                    file: StaticString = #filePath, line: UInt = #line) -> PromiseResult<V, E>? {
    let deadline = Date().addingTimeInterval(timeout)
    while promise.result == nil && Date() < deadline {
        spinOnce()
    }
    if promise.result == nil {
        XCTFail("the promise did not resolve within \(timeout) s", file: file, line: line)
    }
    return promise.result
}

/// Spins the run loop until `condition` holds; false if it never did.
@discardableResult
func eventually(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() >= deadline { return false }
        spinOnce()
    }
    return true
}

/// Lets the run loop (and the queues) work for `seconds`.
func spin(_ seconds: TimeInterval) {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        spinOnce()
    }
}

private func spinOnce() {
    if !RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.002)) {
        usleep(1_000)
    }
}

/// The async-test version: polls without blocking the test's executor.
func resolvedAsync<V, E>(_ promise: Promise<V, E>, timeout: TimeInterval = 5) async -> PromiseResult<V, E>? {
    let deadline = Date().addingTimeInterval(timeout)
    while promise.result == nil && Date() < deadline {
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return promise.result
}

/// A counter that callbacks on any queue can bump.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() {
        lock.lock(); count += 1; lock.unlock()
    }

    var value: Int {
        lock.lock(); defer { lock.unlock() }
        return count
    }
}

/// A settable clock for the offline cache.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_700_000_000)

    var now: Date {
        lock.lock(); defer { lock.unlock() }
        return current
    }

    func advance(_ seconds: TimeInterval) {
        lock.lock(); current = current.addingTimeInterval(seconds); lock.unlock()
    }
}

enum Places {
    /// 11 m from Market Street (S2), 120 m from Old Town (S5), 233 m from Central Station (S1).
    static let nearMarket = Coordinate(latitude: 0.0021, longitude: 0)
    /// 11 m from Central Station (S1).
    static let nearCentral = Coordinate(latitude: 0.0001, longitude: 0)
    /// 15 m from University (S4).
    static let nearUniversity = Coordinate(latitude: 0.0301, longitude: 0.0301)
    static let nearAirport = Coordinate(latitude: 0.2, longitude: 0.2)
    static let nowhere = Coordinate(latitude: 0.5, longitude: 0.5)
}
