import Foundation
import XCTest
import Tomorrowland
@testable import ClinicCore

final class PatientServiceTests: XCTestCase {
    var server: FakeClinicServer!
    var service: PatientService!

    override func setUp() {
        super.setUp()
        server = makeServer()
        service = PatientService(server: server)
    }

    func testFetchPatientFulfillsWithThePatient() {
        let expectation = self.expectation(description: "patient loaded")
        service.fetchPatient(id: "p1").then { patient in
            XCTAssertEqual(patient.name, "Ada Lovelace")
            XCTAssertEqual(patient.email, "ada@example.com")
            expectation.fulfill()
        }.catch { error in
            XCTFail("unexpected error \(error)")
        }
        waitForExpectations(timeout: 5)
    }

    func testUnknownPatientRejectsWithNotFound() {
        let expectation = self.expectation(description: "rejected")
        service.fetchPatient(id: "nobody").then { _ in
            XCTFail("should not find nobody")
        }.catch { error in
            XCTAssertEqual(error, .notFound("patient nobody"))
            expectation.fulfill()
        }
        wait(for: [expectation], timeout: 5)
    }

    func testEmptyIDRejectsSynchronously() {
        let promise = service.fetchPatient(id: "")
        XCTAssertEqual(promise.result, .error(.invalid("empty patient id")))
        XCTAssertTrue(server.requests.isEmpty)
    }

    func testLookupIsRecordedBeforeTheCallReturns() {
        XCTAssertEqual(service.lookups, [])
        let promise = service.fetchPatient(id: "p2")
        XCTAssertEqual(service.lookups, ["p2"])
        XCTAssertEqual(server.requests, ["GET /patients/p2"])
        XCTAssertNil(promise.result)
        XCTAssertEqual(waitForValue(promise)?.name, "Alan Turing")
    }

    func testSecondFetchComesFromTheCache() {
        XCTAssertNotNil(waitForValue(service.fetchPatient(id: "p1")))
        XCTAssertEqual(service.cachedPatientIDs, ["p1"])
        let cached = service.fetchPatient(id: "p1")
        // Served from the cache: already resolved, no second request.
        XCTAssertEqual(cached.result?.value?.id, "p1")
        XCTAssertEqual(server.requests.count, 1)
    }

    func testConcurrentFetchesShareOneRequest() {
        let first = service.fetchPatient(id: "p3")
        let second = service.fetchPatient(id: "p3")
        let both = expectation(description: "both loaded")
        both.expectedFulfillmentCount = 2
        first.then { patient in
            XCTAssertEqual(patient.id, "p3")
            both.fulfill()
        }
        second.then { patient in
            XCTAssertEqual(patient.id, "p3")
            both.fulfill()
        }
        wait(for: [both], timeout: 5)
        XCTAssertEqual(server.requests, ["GET /patients/p3"])
    }

    func testCacheIsWrittenOnTheRecordsQueue() {
        let done = expectation(description: "stored")
        var queueName: String?
        service.fetchPatient(id: "p1").then(on: .records) { _ in
            queueName = ClinicQueues.current
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(queueName, "clinic.records")
        XCTAssertEqual(service.cachedPatientIDs, ["p1"])
    }

    func testFetchPatientsKeepsTheOrderAsked() {
        let patients = waitForValue(service.fetchPatients(ids: ["p3", "p1", "p2"]))
        XCTAssertEqual(patients?.map(\.id), ["p3", "p1", "p2"])
    }

    func testFetchPatientsFailsWhenOneIsMissing() {
        let error = waitForError(service.fetchPatients(ids: ["p1", "zz"]))
        XCTAssertEqual(error, .notFound("patient zz"))
    }

    func testDisplayNameRecoversFromErrors() {
        let known = service.displayName(id: "p1")
        let unknown = service.displayName(id: "missing")
        let names = expectation(description: "names")
        names.expectedFulfillmentCount = 2
        var collected: [String] = []
        let lock = NSLock()
        for promise in [known, unknown] {
            promise.then(on: .utility) { name in
                lock.lock()
                collected.append(name)
                lock.unlock()
                names.fulfill()
            }
        }
        wait(for: [names], timeout: 5)
        XCTAssertEqual(collected.sorted(), ["ADA LOVELACE", "Unknown patient"])
    }

    func testUpdateEmailRejectsAnInvalidAddressWithoutARequest() {
        let promise = service.updateEmail(patientID: "p2", to: "not-an-email")
        XCTAssertEqual(promise.result?.error, .invalid("email not-an-email"))
        XCTAssertEqual(server.requests, [])
    }

    func testUpdateEmailStoresTheNewAddress() {
        let updated = waitForValue(service.updateEmail(patientID: "p2", to: " alan@example.com "))
        XCTAssertEqual(updated?.email, "alan@example.com")
        XCTAssertEqual(server.patients["p2"]?.email, "alan@example.com")
        XCTAssertEqual(server.requests, ["GET /patients/p2", "PUT /patients/p2"])
    }

    func testCancellingAFetchReachesTheServer() {
        server.hangingPaths = ["GET /patients/p1"]
        let promise = service.fetchPatient(id: "p1")
        let cancelled = expectation(description: "cancelled")
        promise.onCancel {
            cancelled.fulfill()
        }
        promise.requestCancel()
        wait(for: [cancelled], timeout: 5)
        XCTAssertEqual(server.cancelledRequests, ["GET /patients/p1"])
    }
}
