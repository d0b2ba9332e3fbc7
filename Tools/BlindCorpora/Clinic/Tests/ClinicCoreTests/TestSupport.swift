import Foundation
import XCTest
import Tomorrowland
@testable import ClinicCore

/// A server filled with the clinic's usual test data.
func makeServer(latency: TimeInterval = 0.02) -> FakeClinicServer {
    let server = FakeClinicServer()
    server.latency = latency
    server.patients = [
        "p1": Patient(id: "p1", name: "Ada Lovelace", email: "ada@example.com"),
        "p2": Patient(id: "p2", name: "Alan Turing", email: nil),
        "p3": Patient(id: "p3", name: "Grace Hopper", email: "grace@example.com"),
    ]
    server.practitioners = [
        Practitioner(id: "d1", name: "Dr. Quinn", specialty: "GP"),
        Practitioner(id: "d2", name: "Dr. House", specialty: "Diagnostics"),
        Practitioner(id: "d3", name: "Dr. Brown", specialty: "GP"),
    ]
    server.slots = [
        Slot(id: 1, practitionerID: "d1", startMinute: 540, durationMinutes: 30),
        Slot(id: 2, practitionerID: "d1", startMinute: 480, durationMinutes: 30),
        Slot(id: 3, practitionerID: "d2", startMinute: 600, durationMinutes: 60),
        Slot(id: 4, practitionerID: "d3", startMinute: 420, durationMinutes: 30),
    ]
    server.prices = ["d1": 6_000, "d2": 20_000, "d3": 5_000]
    server.labResults = [
        "p1": [
            LabResult(id: "L1", patientID: "p1", test: "glucose", value: 5.4, isFinal: true),
            LabResult(id: "L2", patientID: "p1", test: "iron", value: 17.0, isFinal: false),
        ],
        "p2": [],
    ]
    return server
}

let sampleSlot = Slot(id: 1, practitionerID: "d1", startMinute: 540, durationMinutes: 30)

extension XCTestCase {
    /// Waits for the promise and returns its value; fails the test on an error or a cancel.
    func waitForValue<T, E>(_ promise: Promise<T, E>, timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line) -> T? {
        let done = expectation(description: "promise resolved")
        var value: T?
        promise.always(on: .immediate) { result in
            switch result {
            case .value(let v):
                value = v
            case .error(let error):
                XCTFail("expected a value, got error \(error)", file: file, line: line)
            case .cancelled:
                XCTFail("expected a value, got cancelled", file: file, line: line)
            }
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        return value
    }

    /// Waits for the promise and returns its error; fails the test otherwise.
    func waitForError<T, E>(_ promise: Promise<T, E>, timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line) -> E? {
        let done = expectation(description: "promise rejected")
        var error: E?
        promise.always(on: .immediate) { result in
            if case .error(let e) = result {
                error = e
            } else {
                XCTFail("expected an error, got \(result)", file: file, line: line)
            }
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        return error
    }

    /// Waits for the promise to resolve in any way.
    func waitForResult<T, E>(_ promise: Promise<T, E>, timeout: TimeInterval = 5) -> PromiseResult<T, E>? {
        let done = expectation(description: "promise resolved")
        var resolved: PromiseResult<T, E>?
        promise.always(on: .immediate) { result in
            resolved = result
            done.fulfill()
        }
        wait(for: [done], timeout: timeout)
        return resolved
    }
}

/// Waits on a semaphore until `body` signals it, without XCTest expectations.
func blockUntilSignalled(timeout: TimeInterval = 5, _ body: (DispatchSemaphore) -> Void) -> Bool {
    let semaphore = DispatchSemaphore(value: 0)
    body(semaphore)
    return semaphore.wait(timeout: .now() + timeout) == .success
}
