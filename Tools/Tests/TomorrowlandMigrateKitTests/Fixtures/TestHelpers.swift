// The fixture of `convert-calls` in synchronous XCTest methods that wait through helpers that wait on
// their own (`TestBridges.standaloneKind`): a value helper `-> T?` and an error helper `-> E?` that
// record a failure (`XCTFail`) otherwise, and a result helper `-> PromiseResult<T, E>?`, with the
// tests in the shapes the command converts and the ones it leaves.

import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest

enum Fault: Error, Equatable { case missing, offline }

struct Booking: Equatable, Sendable {
    var id: Int
    var slot: Int
}

/// Not Sendable, as 1.x services rarely were.
final class Clinic {
    var requests: [String] = []

    func slots(_ id: Int) -> Promise<[Int], Fault> {
        requests.append("slots \(id)")
        return id > 0 ? Promise(on: .utility, fulfilled: Array(repeating: id * 10, count: id), after: 0.01) : Promise(rejected: .missing)
    }

    /// Async twin of `slots(_:)` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func slots(_ id: Int) async throws -> [Int] {
        try await (slots(id) as Promise<[Int], Fault>).value
    }

    func booking(_ id: Int) -> Promise<Booking, Fault> {
        requests.append("booking \(id)")
        return id > 0 ? Promise(fulfilled: Booking(id: id, slot: id * 10)) : Promise(rejected: .missing)
    }

    /// Async twin of `booking(_:)` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func booking(_ id: Int) async throws -> Booking {
        try await (booking(id) as Promise<Booking, Fault>).value
    }

    func nickname() -> Promise<String?, Fault> {
        Promise(fulfilled: nil)
    }

    /// Async twin of `nickname()` (added by tomorrowland-migrate): awaits the promise it returns.
    nonisolated(nonsending) func nickname() async throws -> String? {
        try await (nickname() as Promise<String?, Fault>).value
    }
}

/// Not a helper: a helper's name with another label (`waitForValue(for:)`), declared before the helpers.
final class Cache {
    func waitForValue(for key: String) -> Int? { key.isEmpty ? nil : key.count }
}

extension XCTestCase {
    /// Waits for the promise and returns its value; fails the test on an error or a cancel.
    func waitForValue<T, E>(_ promise: Promise<T, E>, timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line) -> T? {
        let done = expectation(description: "resolved")
        let value = Box<T?>(nil)
        promise.always(on: .immediate) { result in
            switch result {
            case .value(let v):
                value.value = v
            case .error(let error):
                XCTFail("expected a value, got error \(error)", file: file, line: line)
            case .cancelled:
                XCTFail("expected a value, got cancelled", file: file, line: line)
            }
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        return value.value
    }

    /// Waits for the promise and returns its error; fails the test otherwise.
    func awaitError<T, E>(_ promise: Promise<T, E>, timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line) -> E? {
        let done = expectation(description: "rejected")
        let error = Box<E?>(nil)
        promise.tap(on: .immediate) { result in
            if case .error(let e) = result {
                error.value = e
            } else {
                XCTFail("expected an error, got \(result)", file: file, line: line)
            }
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        return error.value
    }

    /// Waits for the promise to resolve in any way.
    func waitForResult<T, E>(_ promise: Promise<T, E>, timeout: TimeInterval = 5) -> PromiseResult<T, E>? {
        let done = expectation(description: "resolved")
        let resolved = Box<PromiseResult<T, E>?>(nil)
        promise.always(on: .immediate) { result in
            resolved.value = result
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        return resolved.value
    }

    /// Not a value helper: an error records no failure (nil reads as "no value" and the test may pass).
    func peek<T, E>(_ promise: Promise<T, E>) -> T? {
        let done = expectation(description: "resolved")
        let value = Box<T?>(nil)
        promise.always(on: .immediate) { result in
            if case .value(let v) = result { value.value = v }
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        return value.value
    }
}

final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}

final class ClinicTests: XCTestCase {
    let clinic = Clinic()

    func testSlots() {
        let slots = waitForValue(clinic.slots(2))
        XCTAssertEqual(slots?.count, 2)
        XCTAssertEqual(slots?.first, 20)
    }

    func testBookingAndItsSlot() {
        let booking = waitForValue(clinic.booking(1))
        XCTAssertEqual(booking, Booking(id: 1, slot: 10))
        XCTAssertEqual(booking?.slot, 10)
        XCTAssertEqual(waitForValue(clinic.booking(2))?.id, 2)
        _ = waitForValue(clinic.slots(3))
        XCTAssertEqual(clinic.requests, ["booking 1", "booking 2", "slots 3"])
    }

    func testMissingBooking() {
        let error = awaitError(clinic.booking(0))
        XCTAssertEqual(error, .missing)
        XCTAssertEqual(clinic.requests, ["booking 0"])
    }

    func testMissingSlots() {
        XCTAssertEqual(awaitError(clinic.slots(-1)), .missing)
    }

    func testThroughTheResult() {
        XCTAssertEqual(waitForResult(clinic.slots(1))?.value, [10])
    }

    func testAKeptPromise() {
        let promise = clinic.slots(4)
        XCTAssertEqual(clinic.requests, ["slots 4"])
        XCTAssertEqual(waitForValue(promise)?.count, 4)
    }

    func testUnwrapped() {
        let booking = waitForValue(clinic.booking(5))
        guard let booking else { return }
        XCTAssertEqual(booking.id, 5)
    }

    func testAMemberOfTheOptional() {
        let slots = waitForValue(clinic.slots(6))
        XCTAssertEqual(slots.map { $0.count }, 6)
    }

    func testADeclarationBeforeTheRead() {
        let error = awaitError(clinic.booking(-2))
        let requests = clinic.requests
        XCTAssertEqual(error, .missing)
        XCTAssertEqual(requests.count, 1)
    }

    func testAnOptionalValue() {
        let nickname = waitForValue(clinic.nickname())
        XCTAssertNil(nickname ?? nil)
    }

    func testNotThroughAHelper() {
        XCTAssertEqual(peek(clinic.slots(7))?.count, 7)
        XCTAssertEqual(Cache().waitForValue(for: "ab"), 2)
    }
}
