import Foundation
import XCTest
import Tomorrowland
@testable import ClinicCore

final class ReminderSchedulerTests: XCTestCase {
    let booking = Booking(id: 42, slot: sampleSlot, patientID: "p1", status: .confirmed)

    func testReminderIsRecordedAfterTheLeadTime() {
        let scheduler = ReminderScheduler(server: makeServer())
        let promise = scheduler.scheduleReminder(for: booking, after: 0.05)
        XCTAssertTrue(scheduler.sent.isEmpty, "nothing is sent during the call")
        let reminder = waitForValue(promise)
        XCTAssertEqual(reminder?.bookingID, 42)
        XCTAssertEqual(reminder?.message, "See you at minute 540")
        XCTAssertEqual(scheduler.sent.map(\.bookingID), [42])
    }

    func testReminderRunsOnTheRemindersQueue() {
        let scheduler = ReminderScheduler(server: makeServer())
        let done = expectation(description: "delivered")
        scheduler.scheduleReminder(for: booking, after: 0.01).then(on: .immediate) { _ in
            XCTAssertEqual(ClinicQueues.current, "clinic.reminders")
            done.fulfill()
        }
        waitForExpectations(timeout: 5)
    }

    func testInvalidatedReminderIsNotRecorded() {
        let scheduler = ReminderScheduler(server: makeServer())
        let promise = scheduler.scheduleReminder(for: booking, after: 0.1)
        scheduler.invalidateAll()
        let resolved = expectation(description: "still resolves")
        promise.always(on: .utility) { result in
            XCTAssertEqual(result.value?.bookingID, 42)
            resolved.fulfill()
        }
        wait(for: [resolved], timeout: 5)
        XCTAssertTrue(scheduler.sent.isEmpty)
    }

    func testSendTimesOutWhenTheServerIsSlow() {
        let server = makeServer()
        server.latency = 2.0
        let scheduler = ReminderScheduler(server: server)
        scheduler.sendTimeout = 0.05
        let error = waitForError(scheduler.send(Reminder(bookingID: 1, message: "hi"), to: "p1"))
        XCTAssertEqual(error, .timedOut)
    }

    func testSendPassesServerErrorsThrough() {
        let server = makeServer()
        server.isOffline = true
        let scheduler = ReminderScheduler(server: server)
        let failed = expectation(description: "failed")
        scheduler.send(Reminder(bookingID: 1, message: "hi"), to: "p1")
            .then { _ in XCTFail("offline server cannot send") }
            .catch { error in
                XCTAssertEqual(error, .offline)
                failed.fulfill()
            }
        waitForExpectations(timeout: 5)
    }

    func testCancelDuringTheWaitStopsTheMessage() {
        let server = makeServer()
        let scheduler = ReminderScheduler(server: server)
        let promise = scheduler.sendLater(Reminder(bookingID: 5, message: "soon"), to: "p2", after: 0.3)
        let cancelled = expectation(description: "cancelled")
        promise.onCancel(on: .utility) { cancelled.fulfill() }
        promise.requestCancel()
        wait(for: [cancelled], timeout: 5)
        let quiet = expectation(description: "no message later")
        quiet.isInverted = true
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) {
            if !server.requests.isEmpty { quiet.fulfill() }
        }
        wait(for: [quiet], timeout: 0.8)
        XCTAssertEqual(server.requests, [])
        XCTAssertTrue(scheduler.sent.isEmpty)
    }

    func testSendLaterRecordsTheReminder() {
        let scheduler = ReminderScheduler(server: makeServer())
        let reminder = Reminder(bookingID: 6, message: "later")
        XCTAssertEqual(waitForValue(scheduler.sendLater(reminder, to: "p1", after: 0.02)), reminder)
        XCTAssertEqual(scheduler.sent, [reminder])
    }

    func testSendAllCountsOnlyTheSuccesses() {
        let server = makeServer()
        server.hangingPaths = []
        let scheduler = ReminderScheduler(server: server)
        scheduler.sendTimeout = 0.1
        let bookings = [
            Booking(id: 1, slot: sampleSlot, patientID: "p1", status: .confirmed),
            Booking(id: 2, slot: sampleSlot, patientID: "p2", status: .confirmed),
            Booking(id: 3, slot: sampleSlot, patientID: "p3", status: .confirmed),
        ]
        server.hangingPaths = ["POST /messages/p2"]
        XCTAssertEqual(waitForValue(scheduler.sendAll(bookings)), 2)
    }
}
