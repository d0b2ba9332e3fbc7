import Foundation
import XCTest
import Tomorrowland
import TomorrowlandAsync
@testable import ClinicCore

/// The async twins that `tomorrowland-migrate add-async-twins` writes next to each
/// promise-returning function: same name, `async`, throwing the promise's error (or
/// `CancellationError` when the promise is cancelled).
final class ClinicCoreTwinTests: XCTestCase {
    private func makeServices(_ server: FakeClinicServer) -> (PatientService, SchedulingService) {
        let patients = PatientService(server: server)
        return (patients, SchedulingService(server: server, patients: patients))
    }

    func testFetchPatientTwinReturnsThePatient() async throws {
        let (patients, _) = makeServices(makeServer())
        let patient = try await patients.fetchPatient(id: "p1")
        XCTAssertEqual(patient.name, "Ada Lovelace")
        XCTAssertEqual(patients.lookups, ["p1"])
    }

    func testFetchPatientTwinThrowsTheTypedError() async {
        let (patients, _) = makeServices(makeServer())
        do {
            _ = try await patients.fetchPatient(id: "nobody")
            XCTFail("expected notFound")
        } catch let error as ClinicError {
            XCTAssertEqual(error, .notFound("patient nobody"))
        } catch {
            XCTFail("unexpected error \(error)")
        }
    }

    func testCancellingTheTaskCancelsTheRequest() async {
        let server = makeServer()
        server.hangingPaths = ["GET /slots?practitioner=d2"]
        let (_, scheduling) = makeServices(server)
        let task = Task { try await scheduling.availableSlots(practitionerID: "d2") }
        // Wait (generously) for the request to be in flight before cancelling.
        for _ in 0..<200 where server.requests.isEmpty {
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected a cancellation")
        } catch is CancellationError {
        } catch {
            XCTFail("unexpected error \(error)")
        }
        XCTAssertEqual(server.cancelledRequests, ["GET /slots?practitioner=d2"])
    }

    func testFetchPatientsTwinKeepsTheOrder() async throws {
        let (patients, _) = makeServices(makeServer())
        let list = try await patients.fetchPatients(ids: ["p2", "p1"])
        XCTAssertEqual(list.map(\.id), ["p2", "p1"])
    }

    func testDisplayNameTwinNeverFailsWithAnError() async throws {
        let (patients, _) = makeServices(makeServer())
        let known = try await patients.displayName(id: "p3")
        let unknown = try await patients.displayName(id: "zz")
        XCTAssertEqual(known, "GRACE HOPPER")
        XCTAssertEqual(unknown, "Unknown patient")
    }

    func testUpdateEmailTwinRejectsABadAddress() async {
        let server = makeServer()
        let (patients, _) = makeServices(server)
        do {
            _ = try await patients.updateEmail(patientID: "p1", to: "nope")
            XCTFail("expected invalid")
        } catch let error as ClinicError {
            XCTAssertEqual(error, .invalid("email nope"))
        } catch {
            XCTFail("unexpected error \(error)")
        }
        XCTAssertEqual(server.requests, [])
    }

    func testPractitionersTwin() async throws {
        let directory = PractitionerDirectory(server: makeServer())
        let gps = try await directory.practitioners(specialty: "GP")
        XCTAssertEqual(gps.map(\.id), ["d3", "d1"])
        let specialties = try await directory.specialties()
        XCTAssertEqual(specialties, ["Diagnostics", "GP"])
    }

    func testBookTwinReservesTheSlot() async throws {
        let server = makeServer()
        let (_, scheduling) = makeServices(server)
        let booking = try await scheduling.book(slot: sampleSlot, patientID: "p1")
        XCTAssertEqual(booking.id, 101)
        XCTAssertEqual(server.bookedSlotIDs, [1])
        XCTAssertEqual(scheduling.log, ["book 1 for p1", "booked 101"])
    }

    func testBookTwinThrowsSlotTaken() async {
        let server = makeServer()
        server.bookedSlotIDs = [1]
        let (_, scheduling) = makeServices(server)
        do {
            _ = try await scheduling.book(slot: sampleSlot, patientID: "p1")
            XCTFail("expected slotTaken")
        } catch let error as ClinicError {
            XCTAssertEqual(error, .slotTaken(1))
        } catch {
            XCTFail("unexpected error \(error)")
        }
    }

    func testEarliestSlotAndBookingSummaryTwins() async throws {
        let (_, scheduling) = makeServices(makeServer())
        let slot = try await scheduling.earliestSlot(practitionerID: "d1")
        XCTAssertEqual(slot.id, 2)
        let summary = try await scheduling.bookingSummary(slot: slot, patientID: "p2")
        XCTAssertEqual(summary, "#101 Alan Turing at 480")
    }

    func testBookFirstAvailableTwinCancelsTheLoser() async throws {
        let server = makeServer()
        server.hangingPaths = ["GET /slots?practitioner=d1"]
        let (_, scheduling) = makeServices(server)
        let booking = try await scheduling.bookFirstAvailable(practitionerIDs: ["d1", "d2"], patientID: "p3")
        XCTAssertEqual(booking.slot.id, 3)
        XCTAssertEqual(server.cancelledRequests, ["GET /slots?practitioner=d1"])
    }

    func testRebookTwinKeepsTheOldBooking() async throws {
        let server = makeServer()
        server.bookedSlotIDs = [1, 2]
        let (_, scheduling) = makeServices(server)
        let old = Booking(id: 3, slot: sampleSlot, patientID: "p1", status: .confirmed)
        let kept = try await scheduling.rebook(old, to: Slot(id: 2, practitionerID: "d1", startMinute: 480, durationMinutes: 30))
        XCTAssertEqual(kept, old)
    }

    func testCancelBookingTwin() async throws {
        let server = makeServer()
        server.bookedSlotIDs = [1]
        let (_, scheduling) = makeServices(server)
        let released = try await scheduling.cancelBooking(Booking(id: 8, slot: sampleSlot, patientID: "p1", status: .confirmed))
        XCTAssertEqual(released.status, .cancelled)
        XCTAssertEqual(server.bookedSlotIDs, [])
    }

    func testReminderTwins() async throws {
        let server = makeServer()
        let scheduler = ReminderScheduler(server: server)
        let booking = Booking(id: 4, slot: sampleSlot, patientID: "p1", status: .confirmed)
        let reminder = try await scheduler.scheduleReminder(for: booking, after: 0.01)
        XCTAssertEqual(reminder.bookingID, 4)
        let sent = try await scheduler.send(reminder, to: "p1")
        XCTAssertEqual(sent, reminder)
        let count = try await scheduler.sendAll([booking])
        XCTAssertEqual(count, 1)
    }

    func testSendTwinTimesOut() async {
        let server = makeServer()
        server.hangingPaths = ["POST /messages/p1"]
        let scheduler = ReminderScheduler(server: server)
        scheduler.sendTimeout = 0.05
        do {
            _ = try await scheduler.send(Reminder(bookingID: 1, message: "x"), to: "p1")
            XCTFail("expected a timeout")
        } catch let error as ClinicError {
            XCTAssertEqual(error, .timedOut)
        } catch {
            XCTFail("unexpected error \(error)")
        }
    }

    func testLabTwins() async throws {
        let server = makeServer()
        server.pollsUntilFinal = ["L2": 1]
        let labs = LabResultsService(server: server, pollInterval: 0.01)
        let results = try await labs.results(patientID: "p1")
        XCTAssertEqual(results.map(\.id), ["L2", "L1"])
        let final = try await labs.pollUntilFinal(resultID: "L2")
        XCTAssertTrue(final.isFinal)
        let average = try await labs.averageValue(of: results)
        XCTAssertEqual(average, 11.2, accuracy: 0.0001)
    }

    func testInvoiceTwins() async throws {
        let labsServer = makeServer()
        let invoices = InvoiceService(server: labsServer, callbackContext: .immediate)
        let booking = Booking(id: 20, slot: sampleSlot, patientID: "p1", status: .confirmed)
        let invoice = try await invoices.invoice(for: booking)
        XCTAssertEqual(invoice.amountCents, 6_000)
        let paid = try await invoices.pay(invoice, urgent: false)
        XCTAssertTrue(paid.isPaid)
        let total = try await invoices.outstandingTotal(of: [booking])
        XCTAssertEqual(total, 6_000)
    }

    func testWaitingListTwins() async throws {
        let server = makeServer()
        let (_, scheduling) = makeServices(server)
        let list = WaitingList(scheduling: scheduling)
        let position = try await list.add(patientID: "p2")
        XCTAssertEqual(position, 1)
        let booking = try await list.offer(sampleSlot)
        XCTAssertEqual(booking.patientID, "p2")
        do {
            _ = try await list.offer(sampleSlot)
            XCTFail("the list is empty")
        } catch let error as ClinicError {
            XCTAssertEqual(error, .waitingListEmpty)
        }
    }

    @MainActor
    func testViewModelTwinUpdatesTheScreen() async throws {
        let server = makeServer()
        let (patients, scheduling) = makeServices(server)
        let viewModel = AppointmentsViewModel(scheduling: scheduling, patients: patients)
        let patient = try await viewModel.loadTitle(patientID: "p3")
        XCTAssertEqual(patient.id, "p3")
        XCTAssertEqual(viewModel.title, "Appointments for Grace Hopper")
        let slots = try await viewModel.loadSlots(practitionerID: "d1")
        XCTAssertEqual(slots.map(\.id), [2, 1])
    }
}
