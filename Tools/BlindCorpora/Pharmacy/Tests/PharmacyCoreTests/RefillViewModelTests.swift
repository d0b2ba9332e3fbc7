import Foundation
import Tomorrowland
import XCTest
@testable import PharmacyCore

final class RefillViewModelTests: XCTestCase {
    var journal: Journal!
    var backend: PharmacyBackend!
    var service: PrescriptionService!

    override func setUp() {
        super.setUp()
        journal = Journal()
        backend = Fixtures.backend()
        service = PrescriptionService(backend: backend, journal: journal)
    }

    func testLoadShowsTheRowOnlyAfterTheCallReturns() {
        MainActor.assumeIsolated {
            XCTAssertEqual(waitForValue(service.prescription(id: "RX1")), Fixtures.amoxicillin)
            let model = RefillViewModel(prescriptions: service)
            let promise = model.load(id: "RX1")
            XCTAssertTrue(model.isLoading)
            XCTAssertEqual(model.status, "loading RX1")
            XCTAssertEqual(model.rows, [])
            XCTAssertEqual(waitForValue(promise), Fixtures.amoxicillin)
            XCTAssertEqual(model.rows, ["Ada: Amoxicillin"])
            XCTAssertEqual(model.status, "loaded RX1")
            XCTAssertFalse(model.isLoading)
        }
    }

    func testLoadErrorShowsAMessage() {
        MainActor.assumeIsolated {
            let model = RefillViewModel(prescriptions: service)
            XCTAssertEqual(waitForError(model.load(id: "RX9")), .notFound("RX9"))
            XCTAssertEqual(model.errorMessage, "could not load RX9: notFound(\"RX9\")")
            XCTAssertEqual(model.rows, [])
            XCTAssertFalse(model.isLoading)
        }
    }

    func testShowCachedUpdatesTheStatusBeforeTheCallReturns() {
        MainActor.assumeIsolated {
            XCTAssertEqual(waitForValue(service.prescription(id: "RX1")), Fixtures.amoxicillin)
            let model = RefillViewModel(prescriptions: service)
            model.showCached(id: "RX1")
            XCTAssertEqual(model.status, "Amoxicillin")
            XCTAssertTrue(model.shownInstantly)
        }
    }

    func testShowUncachedUpdatesTheStatusLaterOnTheMainQueue() {
        MainActor.assumeIsolated {
            backend.latency = 0.3
            let model = RefillViewModel(prescriptions: service)
            let promise = model.showCached(id: "RX2")
            XCTAssertEqual(model.status, "idle")
            XCTAssertEqual(waitForValue(promise), Fixtures.insulin)
            XCTAssertEqual(model.status, "Insulin")
            XCTAssertFalse(model.shownInstantly)
        }
    }

    func testRefillTappedShowsTheSummary() {
        MainActor.assumeIsolated {
            let model = RefillViewModel(prescriptions: service)
            let promise = model.refillTapped(id: "RX1")
            XCTAssertEqual(model.status, "refilling RX1")
            XCTAssertEqual(waitForValue(promise), "Amoxicillin: 1 refills left")
            XCTAssertEqual(model.status, "Amoxicillin: 1 refills left")
            XCTAssertNil(model.errorMessage)
        }
    }

    func testRefillFailureIsRecoveredIntoAMessage() {
        MainActor.assumeIsolated {
            let model = RefillViewModel(prescriptions: service)
            XCTAssertEqual(waitForValue(model.refillTapped(id: "RX2")), "refill failed")
            XCTAssertEqual(model.errorMessage, "refill failed: noRefillsLeft(\"RX2\")")
            XCTAssertEqual(model.status, "refilling RX2")
        }
    }

    func testLoadPairStartsBothLookupsAndKeepsTheArgumentOrder() {
        MainActor.assumeIsolated {
            backend.latency = 0.3
            let model = RefillViewModel(prescriptions: service)
            let promise = model.loadPair("RX2", "RX1")
            XCTAssertEqual(journal.entries, ["lookup RX2", "lookup RX1"])
            XCTAssertEqual(backend.requestCount, 2)
            XCTAssertNotNil(waitForValue(promise))
            XCTAssertEqual(model.rows, ["RX2", "RX1"])
        }
    }

    func testCancelLoadingCancelsTheRequestAndSkipsTheCallbacks() {
        MainActor.assumeIsolated {
            backend.latency = 5
            let model = RefillViewModel(prescriptions: service)
            let promise = model.load(id: "RX1")
            model.cancelLoading()
            XCTAssertEqual(waitForResult(promise)?.isCancelled, true)
            XCTAssertEqual(backend.cancelledRequests, ["prescription RX1"])
            XCTAssertEqual(model.rows, [])
            XCTAssertNil(model.errorMessage)
            XCTAssertFalse(model.isLoading)
        }
    }
}
