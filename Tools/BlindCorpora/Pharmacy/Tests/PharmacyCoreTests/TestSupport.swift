import Foundation
import Tomorrowland
import XCTest
@testable import PharmacyCore

enum Fixtures {
    static let amoxicillin = Prescription(id: "RX1", patient: "Ada", drug: "Amoxicillin", quantity: 20, refillsLeft: 2)
    static let insulin = Prescription(id: "RX2", patient: "Bo", drug: "Insulin", quantity: 3, refillsLeft: 0)

    static func backend(latency: TimeInterval = 0) -> PharmacyBackend {
        return PharmacyBackend(prescriptions: [amoxicillin, insulin],
                               stock: ["Amoxicillin": 100, "Insulin": 2],
                               latency: latency)
    }

    /// Labels the main queue, so `QueueLabel.current` says "main" there.
    static func labelMainQueue() {
        DispatchQueue.main.setSpecific(key: QueueLabel.key, value: "main")
    }
}

extension XCTestCase {
    /// Blocks until `promise` resolves (at most `timeout` seconds) and returns its result.
    /// Records a failure when it does not resolve in time.
    func waitForResult<T, E>(_ promise: Promise<T, E>, timeout: TimeInterval = 10,
                             file: StaticString = #filePath, line: UInt = #line) -> PromiseResult<T, E>? {
        let resolved = expectation(description: "promise resolved")
        var outcome: PromiseResult<T, E>?
        promise.tap(on: .immediate) { result in
            outcome = result
            resolved.fulfill()
        }
        wait(for: [resolved], timeout: timeout)
        if outcome == nil {
            XCTFail("the promise did not resolve within \(timeout) s", file: file, line: line)
        }
        return outcome
    }

    /// The value the promise fulfils with; a failure when it rejects or cancels instead.
    func waitForValue<T, E>(_ promise: Promise<T, E>, timeout: TimeInterval = 10,
                            file: StaticString = #filePath, line: UInt = #line) -> T? {
        let result = waitForResult(promise, timeout: timeout, file: file, line: line)
        guard case .value(let value)? = result else {
            XCTFail("expected a value, got \(String(describing: result))", file: file, line: line)
            return nil
        }
        return value
    }

    /// The error the promise rejects with; a failure when it fulfils or cancels instead.
    func waitForError<T, E>(_ promise: Promise<T, E>, timeout: TimeInterval = 10,
                            file: StaticString = #filePath, line: UInt = #line) -> E? {
        let result = waitForResult(promise, timeout: timeout, file: file, line: line)
        guard case .error(let error)? = result else {
            XCTFail("expected an error, got \(String(describing: result))", file: file, line: line)
            return nil
        }
        return error
    }
}
