import Foundation
import XCTest
import Tomorrowland
@testable import ClinicCore

final class AppointmentsViewModelTests: XCTestCase {
    @MainActor
    private func makeViewModel(_ server: FakeClinicServer) -> AppointmentsViewModel {
        let patients = PatientService(server: server)
        return AppointmentsViewModel(scheduling: SchedulingService(server: server, patients: patients), patients: patients)
    }

    @MainActor
    func testTitleIsShownOnTheMainQueue() async {
        let viewModel = makeViewModel(makeServer())
        let request = viewModel.loadTitle(patientID: "p1")
        XCTAssertEqual(viewModel.events, ["title requested"])
        XCTAssertEqual(viewModel.title, "")
        let shown = expectation(description: "title shown")
        request.then(on: .main) { _ in
            shown.fulfill()
        }
        await fulfillment(of: [shown], timeout: 5)
        XCTAssertEqual(viewModel.title, "Appointments for Ada Lovelace")
        XCTAssertEqual(viewModel.events, ["title requested", "title shown"])
    }

    @MainActor
    func testSlotsAreLoaded() async {
        let viewModel = makeViewModel(makeServer())
        let request = viewModel.loadSlots(practitionerID: "d1")
        XCTAssertTrue(viewModel.isLoading)
        let done = expectation(description: "loaded")
        request.always(on: .main) { _ in
            // Registered after the view model's own callbacks on the same main queue.
            done.fulfill()
        }
        await fulfillment(of: [done], timeout: 5)
        XCTAssertEqual(viewModel.slots.map(\.id), [2, 1])
        XCTAssertFalse(viewModel.isLoading)
        XCTAssertEqual(viewModel.events, ["slots done"])
    }

    @MainActor
    func testReloadingCancelsTheRequestInFlight() async {
        let server = makeServer()
        server.hangingPaths = ["GET /slots?practitioner=d2"]
        let viewModel = makeViewModel(server)
        let first = viewModel.loadSlots(practitionerID: "d2")
        let second = viewModel.loadSlots(practitionerID: "d1")
        let both = expectation(description: "both resolved")
        both.expectedFulfillmentCount = 2
        first.always(on: .main) { result in
            XCTAssertTrue(result.isCancelled)
            both.fulfill()
        }
        second.always(on: .main) { result in
            XCTAssertEqual(result.value?.count, 2)
            both.fulfill()
        }
        await fulfillment(of: [both], timeout: 5)
        XCTAssertEqual(server.cancelledRequests, ["GET /slots?practitioner=d2"])
        XCTAssertEqual(viewModel.events.sorted(), ["slots cancelled", "slots done"])
    }

    @MainActor
    func testCancelLoadingKeepsTheOldSlots() async {
        let server = makeServer()
        server.hangingPaths = ["GET /slots?practitioner=d3"]
        let viewModel = makeViewModel(server)
        let request = viewModel.loadSlots(practitionerID: "d3")
        viewModel.cancelLoading()
        let cancelled = expectation(description: "cancelled")
        request.onCancel(on: .main) { cancelled.fulfill() }
        let noSlots = expectation(description: "no slots delivered")
        noSlots.isInverted = true
        request.then(on: .main) { _ in noSlots.fulfill() }
        await fulfillment(of: [cancelled, noSlots], timeout: 0.5)
        XCTAssertEqual(viewModel.slots, [])
    }

    @MainActor
    func testBookingATakenSlotShowsAMessage() async {
        let server = makeServer()
        server.bookedSlotIDs = [1]
        let viewModel = makeViewModel(server)
        let failed = expectation(description: "failed")
        viewModel.book(sampleSlot, patientID: "p1").catch(on: .main) { _ in
            failed.fulfill()
        }
        await fulfillment(of: [failed], timeout: 5)
        XCTAssertEqual(viewModel.errorMessage, "That slot was just taken")
    }

    @MainActor
    func testBookingRemovesTheSlot() async {
        let viewModel = makeViewModel(makeServer())
        let loaded = viewModel.loadSlots(practitionerID: "d1")
        let listed = expectation(description: "listed")
        loaded.then(on: .main) { slots in
            XCTAssertEqual(slots.count, 2)
            listed.fulfill()
        }
        await fulfillment(of: [listed], timeout: 5)
        let settled = expectation(description: "main queue turn")
        DispatchQueue.main.async { settled.fulfill() }
        await fulfillment(of: [settled], timeout: 5)
        let booked = expectation(description: "booked")
        viewModel.book(sampleSlot, patientID: "p2").then(on: .main) { booking in
            XCTAssertEqual(booking.slot.id, 1)
            booked.fulfill()
        }
        await fulfillment(of: [booked], timeout: 5)
        let after = expectation(description: "after booking")
        DispatchQueue.main.async { after.fulfill() }
        await fulfillment(of: [after], timeout: 5)
        XCTAssertEqual(viewModel.slots.map(\.id), [2])
        XCTAssertTrue(viewModel.events.contains("booked 101"))
    }
}
