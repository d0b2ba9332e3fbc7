import FleetCore
import Foundation
import Tomorrowland
import XCTest

/// A value shared with callbacks.
final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T

    init(_ value: T) { stored = value }

    var value: T {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

struct FleetFixture: Sendable {
    let journal = Journal()
    let registry: VehicleRegistry
    let telemetry: TelemetryService
    let roster: DriverRoster
    let center: DispatchCenter

    static let vehicles = [
        Vehicle(id: 1, plate: "kx-101", capacity: 8),
        Vehicle(id: 2, plate: "kx-202", capacity: 3),
        Vehicle(id: 3, plate: "kx-303", capacity: 12),
        Vehicle(id: 4, plate: "kx-404", capacity: 5),
    ]
    static let samples = [
        TelemetrySample(vehicleID: 1, speed: 42, fuel: 0.55),
        TelemetrySample(vehicleID: 2, speed: 0, fuel: 0.1),
    ]
    static let drivers = [Driver(id: 7, name: "Ana"), Driver(id: 8, name: "Bo")]

    init(drivers: [Driver] = FleetFixture.drivers, planner: ((Journal) -> any RoutePlanning)? = nil) {
        registry = VehicleRegistry(vehicles: Self.vehicles, journal: journal)
        telemetry = TelemetryService(samples: Self.samples, silent: [4], journal: journal)
        roster = DriverRoster(drivers: drivers)
        center = DispatchCenter(registry: registry, telemetry: telemetry, roster: roster,
                                planner: planner?(journal) ?? GridPlanner(journal: journal), journal: journal)
    }
}

// Waiting helpers, usable from any test (main-actor ones included).

/// Waits for `promise` to resolve and returns its result (nil on timeout).
func result<T, E>(of promise: Promise<T, E>, timeout: TimeInterval = 5) -> PromiseResult<T, E>? {
    let resolved = XCTestExpectation(description: "promise resolved")
    let box = Box<PromiseResult<T, E>?>(nil)
    promise.always(on: .immediate) { result in
        box.value = result
        resolved.fulfill()
    }
    if XCTWaiter().wait(for: [resolved], timeout: timeout) != .completed {
        XCTFail("the promise did not resolve within \(timeout) s")
    }
    return box.value
}

/// The promise's value; records a failure when it did not fulfil.
func value<T, E>(of promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) -> T? {
    let outcome = result(of: promise)
    guard let value = outcome?.value else {
        XCTFail("expected a value, got \(String(describing: outcome))", file: file, line: line)
        return nil
    }
    return value
}

/// The promise's error; records a failure when it did not reject.
func error<T, E>(of promise: Promise<T, E>, file: StaticString = #filePath, line: UInt = #line) -> E? {
    let outcome = result(of: promise)
    guard let error = outcome?.error else {
        XCTFail("expected an error, got \(String(describing: outcome))", file: file, line: line)
        return nil
    }
    return error
}

/// Runs the run loop until `condition` holds or the time is up.
func waitUntil(timeout: TimeInterval = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() && Date() < deadline {
        RunLoop.current.run(until: Date().addingTimeInterval(0.01))
    }
    return condition()
}
