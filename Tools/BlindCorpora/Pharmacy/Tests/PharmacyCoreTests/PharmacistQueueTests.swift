import Foundation
import Tomorrowland
import XCTest
@testable import PharmacyCore

final class PharmacistQueueTests: XCTestCase {
    var backend: PharmacyBackend!
    var service: PrescriptionService!
    var queue: PharmacistQueue!

    override func setUp() {
        super.setUp()
        backend = Fixtures.backend()
        service = PrescriptionService(backend: backend, journal: Journal())
        queue = PharmacistQueue(prescriptions: service)
        // Both prescriptions are in the cache: their lookups have resolved when they return.
        XCTAssertNotNil(waitForValue(service.prescription(id: "RX1")))
        XCTAssertNotNil(waitForValue(service.prescription(id: "RX2")))
    }

    /// Calls the actor from a Task and waits for the promise it hands back.
    private func call<T>(_ body: @escaping (PharmacistQueue) async -> Promise<T, PharmacyError>) -> Promise<T, PharmacyError> {
        let returned = expectation(description: "the actor returned a promise")
        var promise: Promise<T, PharmacyError>?
        let queue = self.queue!
        Task {
            promise = await body(queue)
            returned.fulfill()
        }
        wait(for: [returned], timeout: 10)
        return promise!
    }

    func testEnqueueGivesEachPrescriptionItsPlace() {
        let first = call { await $0.enqueue("RX1") }
        let second = call { await $0.enqueue("RX2") }
        XCTAssertEqual(waitForValue(first), 1)
        XCTAssertEqual(waitForValue(second), 2)
    }

    func testVerifyNextTakesTheOldestAndRecordsIt() {
        XCTAssertEqual(waitForValue(call { await $0.enqueue("RX2") }), 1)
        XCTAssertEqual(waitForValue(call { await $0.enqueue("RX1") }), 2)
        XCTAssertEqual(waitForValue(call { await $0.verifyNext() }), "RX2")
        let checked = expectation(description: "state read")
        let queue = self.queue!
        Task {
            let verified = await queue.verified
            let waiting = await queue.waitingCount
            XCTAssertEqual(verified, ["RX2"])
            XCTAssertEqual(waiting, 1)
            checked.fulfill()
        }
        wait(for: [checked], timeout: 10)
    }

    func testVerifyNextOnAnEmptyQueueRejects() {
        XCTAssertEqual(waitForError(call { await $0.verifyNext() }), .notFound("queue is empty"))
    }
}
