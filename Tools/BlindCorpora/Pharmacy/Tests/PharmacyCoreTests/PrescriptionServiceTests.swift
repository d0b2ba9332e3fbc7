import Foundation
import Tomorrowland
import XCTest
@testable import PharmacyCore

final class PrescriptionServiceTests: XCTestCase {
    var journal: Journal!
    var backend: PharmacyBackend!
    var service: PrescriptionService!

    override func setUp() {
        super.setUp()
        journal = Journal()
        backend = Fixtures.backend()
        service = PrescriptionService(backend: backend, journal: journal)
    }

    func testLookupJournalsBeforeTheRequestAndCachesBeforeResolving() {
        backend.latency = 0.3
        let promise = service.prescription(id: "RX1")
        XCTAssertEqual(journal.entries, ["lookup RX1"])
        XCTAssertNil(promise.result)
        XCTAssertEqual(waitForValue(promise), Fixtures.amoxicillin)
        XCTAssertEqual(journal.entries, ["lookup RX1", "cached RX1"])
    }

    func testCachedLookupHasResolvedWhenTheCallReturns() {
        XCTAssertEqual(waitForValue(service.prescription(id: "RX1")), Fixtures.amoxicillin)
        backend.latency = 5
        let again = service.prescription(id: "RX1")
        XCTAssertEqual(again.result?.value, Fixtures.amoxicillin)
        XCTAssertEqual(backend.requestCount, 1)
        XCTAssertEqual(service.lookupCount, 2)
    }

    func testTwoLookupsInARowBothAskTheBackendBeforeEitherIsCached() {
        backend.latency = 0.3
        let first = service.prescription(id: "RX1")
        let second = service.prescription(id: "RX2")
        XCTAssertEqual(backend.requestCount, 2)
        XCTAssertEqual(journal.entries, ["lookup RX1", "lookup RX2"])
        XCTAssertEqual(waitForValue(first), Fixtures.amoxicillin)
        XCTAssertEqual(waitForValue(second), Fixtures.insulin)
        XCTAssertEqual(Set(journal.entries.dropFirst(2)), ["cached RX1", "cached RX2"])
    }

    func testUnknownPrescriptionRejectsWithNotFound() {
        XCTAssertEqual(waitForError(service.prescription(id: "RX9")), .notFound("RX9"))
        XCTAssertEqual(journal.entries, ["lookup RX9"])
    }

    func testCancelRightAfterTheCallReachesTheBackend() {
        backend.latency = 5
        let promise = service.prescription(id: "RX1")
        promise.requestCancel()
        XCTAssertEqual(waitForResult(promise)?.isCancelled, true)
        XCTAssertEqual(backend.cancelledRequests, ["prescription RX1"])
        XCTAssertEqual(journal.entries, ["lookup RX1"])
    }

    func testRefillDescribesWhatIsLeft() {
        XCTAssertEqual(waitForValue(service.refill(id: "RX1")), "Amoxicillin: 1 refills left")
        XCTAssertEqual(service.savedRefills, 1)
        XCTAssertEqual(journal.entries, ["refill RX1 requested", "lookup RX1", "cached RX1"])
    }

    func testRefillIsInFlightFromTheCallUntilItsLastCallback() {
        backend.latency = 0.3
        let promise = service.refill(id: "RX1")
        XCTAssertEqual(service.refillsInFlight, 1)
        XCTAssertEqual(journal.entries, ["refill RX1 requested", "lookup RX1"])
        XCTAssertEqual(waitForValue(promise), "Amoxicillin: 1 refills left")
        XCTAssertEqual(service.refillsInFlight, 0)
    }

    func testRefillWithNoRefillsLeftRejects() {
        XCTAssertEqual(waitForError(service.refill(id: "RX2")), .noRefillsLeft("RX2"))
        XCTAssertEqual(service.savedRefills, 0)
        XCTAssertEqual(backend.requestCount, 1)
    }

    func testCancellingARefillReachesTheLookupAndIsJournaled() {
        backend.latency = 5
        let promise = service.refill(id: "RX1")
        promise.requestCancel()
        XCTAssertEqual(waitForResult(promise)?.isCancelled, true)
        XCTAssertEqual(backend.cancelledRequests, ["prescription RX1"])
        XCTAssertEqual(journal.entries, ["refill RX1 requested", "lookup RX1", "refill RX1 cancelled"])
    }

    func testRefillAfterTheServiceIsGoneRejectsAndSaysSo() {
        backend.latency = 0.3
        var service: PrescriptionService? = PrescriptionService(backend: backend, journal: journal)
        let promise = service!.refill(id: "RX1")
        service = nil
        XCTAssertEqual(waitForError(promise), .backendUnavailable)
        XCTAssertEqual(journal.entries, ["refill RX1 requested", "lookup RX1", "refill RX1 dropped: service gone"])
        XCTAssertEqual(backend.requestCount, 1)
    }
}
