import Foundation
import XCTest
import Tomorrowland
@testable import ClinicCore

final class SchedulingServiceTests: XCTestCase {
    private var server: FakeClinicServer!
    private var patients: PatientService!
    private var scheduling: SchedulingService!

    override func setUp() {
        super.setUp()
        server = makeServer()
        patients = PatientService(server: server)
        scheduling = SchedulingService(server: server, patients: patients)
    }

    override func tearDown() {
        scheduling = nil
        patients = nil
        server = nil
        super.tearDown()
    }

    func testAvailableSlotsAreSortedByStart() {
        let slots = waitForValue(scheduling.availableSlots(practitionerID: "d1"))
        XCTAssertEqual(slots?.map(\.id), [2, 1])
    }

    func testSlotsRequestIsLoggedDuringTheCall() {
        let promise = scheduling.availableSlots(practitionerID: "d2")
        XCTAssertEqual(scheduling.log, ["slots d2"])
        XCTAssertEqual(server.requests, ["GET /slots?practitioner=d2"])
        _ = waitForValue(promise)
    }

    func testEarliestSlotOfAPractitionerWithoutSlotsIsNotFound() {
        server.bookedSlotIDs = [3]
        let error = waitForError(scheduling.earliestSlot(practitionerID: "d2"))
        XCTAssertEqual(error, .notFound("free slot for d2"))
    }

    func testBookReservesTheSlot() {
        let booked = expectation(description: "booked")
        scheduling.book(slot: sampleSlot, patientID: "p1").then { booking in
            XCTAssertEqual(booking.slot, sampleSlot)
            XCTAssertEqual(booking.patientID, "p1")
            XCTAssertEqual(booking.status, .confirmed)
            booked.fulfill()
        }.catch { error in
            XCTFail("booking failed: \(error)")
        }
        wait(for: [booked], timeout: 5)
        XCTAssertTrue(server.bookedSlotIDs.contains(1))
        XCTAssertEqual(server.requests, ["GET /patients/p1", "POST /bookings/1"])
    }

    func testBookingATakenSlotFailsWithSlotTaken() {
        server.bookedSlotIDs = [1]
        let failed = expectation(description: "failed")
        scheduling.book(slot: sampleSlot, patientID: "p1")
            .catch { error in
                XCTAssertEqual(error, .slotTaken(1))
                failed.fulfill()
            }
        wait(for: [failed], timeout: 5)
        // The catch callback of the service ran before ours? Both are registered; allow it time.
        let logged = expectation(description: "log written")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { logged.fulfill() }
        wait(for: [logged], timeout: 5)
        XCTAssertTrue(scheduling.log.contains("failed 1: slotTaken(1)"))
    }

    func testBookingForAnUnknownPatientNeverReserves() {
        let error = waitForError(scheduling.book(slot: sampleSlot, patientID: "ghost"))
        XCTAssertEqual(error, .notFound("patient ghost"))
        XCTAssertFalse(server.requests.contains("POST /bookings/1"))
    }

    func testOfflineServerRejectsWithOffline() {
        server.isOffline = true
        let semaphoreResult = blockUntilSignalled { semaphore in
            scheduling.availableSlots(practitionerID: "d1").catch(on: .utility) { error in
                XCTAssertEqual(error, .offline)
                semaphore.signal()
            }
        }
        XCTAssertTrue(semaphoreResult, "timed out waiting for the offline error")
    }

    func testBookFirstAvailableTakesTheFirstAnswerAndCancelsTheRest() {
        server.hangingPaths = ["GET /slots?practitioner=d2"]
        let booking = waitForValue(scheduling.bookFirstAvailable(practitionerIDs: ["d2", "d3"], patientID: "p2"))
        XCTAssertEqual(booking?.slot.id, 4)
        XCTAssertEqual(server.cancelledRequests, ["GET /slots?practitioner=d2"])
    }

    func testBookingSummaryCombinesBookingAndPatient() {
        let summary = waitForValue(scheduling.bookingSummary(slot: sampleSlot, patientID: "p3"))
        XCTAssertEqual(summary, "#101 Grace Hopper at 540")
    }

    func testCancelBookingIsNotWithdrawnByACancelRequest() {
        let booking = Booking(id: 7, slot: sampleSlot, patientID: "p1", status: .confirmed)
        server.bookedSlotIDs = [1]
        let promise = scheduling.cancelBooking(booking)
        promise.requestCancel()
        let result = waitForResult(promise)
        XCTAssertEqual(result?.value?.status, .cancelled)
        XCTAssertEqual(server.cancelledRequests, [])
        XCTAssertFalse(server.bookedSlotIDs.contains(1))
    }

    func testRebookKeepsTheOldBookingWhenTheNewSlotIsTaken() {
        let old = Booking(id: 9, slot: sampleSlot, patientID: "p1", status: .confirmed)
        let taken = Slot(id: 4, practitionerID: "d3", startMinute: 420, durationMinutes: 30)
        server.bookedSlotIDs = [1, 4]
        let result = waitForValue(scheduling.rebook(old, to: taken))
        XCTAssertEqual(result, old)
        XCTAssertTrue(server.bookedSlotIDs.contains(1))
    }

    func testRebookReleasesTheOldSlot() {
        let old = Booking(id: 9, slot: sampleSlot, patientID: "p1", status: .confirmed)
        server.bookedSlotIDs = [1]
        let newSlot = Slot(id: 2, practitionerID: "d1", startMinute: 480, durationMinutes: 30)
        let booking = waitForValue(scheduling.rebook(old, to: newSlot))
        XCTAssertEqual(booking?.slot.id, 2)
        XCTAssertEqual(server.bookedSlotIDs, [2])
    }

    func testSharedSlotsAreCancelledOnlyWhenEveryCallerAsked() {
        server.hangingPaths = ["GET /slots?practitioner=d1"]
        let first = scheduling.sharedSlots(practitionerID: "d1")
        let second = scheduling.sharedSlots(practitionerID: "d1")
        XCTAssertEqual(server.requests, ["GET /slots?practitioner=d1"])
        first.requestCancel()
        let notYet = expectation(description: "the request is not cancelled for one caller")
        notYet.isInverted = true
        second.always(on: .utility) { _ in notYet.fulfill() }
        wait(for: [notYet], timeout: 0.3)
        XCTAssertEqual(server.cancelledRequests, [])
        let cancelled = expectation(description: "cancelled once both asked")
        second.onCancel(on: .utility) { cancelled.fulfill() }
        second.requestCancel()
        wait(for: [cancelled], timeout: 5)
        XCTAssertEqual(server.cancelledRequests, ["GET /slots?practitioner=d1"])
        XCTAssertEqual(scheduling.log, ["slots d1", "cancel requested for d1"])
    }

    func testSharedSlotsDeliverToEveryCaller() {
        let first = scheduling.sharedSlots(practitionerID: "d3")
        let second = scheduling.sharedSlots(practitionerID: "d3")
        let delivered = expectation(description: "both callers")
        delivered.expectedFulfillmentCount = 2
        for promise in [first, second] {
            promise.then(on: .utility) { slots in
                XCTAssertEqual(slots.map(\.id), [4])
                delivered.fulfill()
            }
        }
        wait(for: [delivered], timeout: 5)
        XCTAssertEqual(server.requests.count, 1)
    }

    func testWatchSlotsNotesTheCancel() {
        server.hangingPaths = ["GET /slots?practitioner=d3"]
        let request = scheduling.watchSlots(practitionerID: "d3")
        let noted = expectation(description: "cancel noted")
        request.onCancel(on: .utility) { noted.fulfill() }
        request.requestCancel()
        wait(for: [noted], timeout: 5)
        let settle = expectation(description: "service callback ran")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { settle.fulfill() }
        wait(for: [settle], timeout: 5)
        XCTAssertTrue(scheduling.log.contains("slots cancelled d3"))
    }
}
