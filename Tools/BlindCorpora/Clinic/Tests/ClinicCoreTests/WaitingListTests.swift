import Foundation
import XCTest
import Tomorrowland
@testable import ClinicCore

final class WaitingListTests: XCTestCase {
    private func makeList(_ server: FakeClinicServer) -> WaitingList {
        WaitingList(scheduling: SchedulingService(server: server, patients: PatientService(server: server)))
    }

    func testPatientsGetTheirPositions() async {
        let list = makeList(makeServer())
        let first = await list.add(patientID: "p1")
        let second = await list.add(patientID: "p2")
        XCTAssertEqual(first.result?.value, 1)
        XCTAssertEqual(second.result?.value, 2)
        let again = await list.add(patientID: "p1")
        XCTAssertEqual(again.result?.error, .invalid("p1 already waiting"))
    }

    func testOfferingToAnEmptyListFails() async {
        let list = makeList(makeServer())
        let offer = await list.offer(sampleSlot)
        XCTAssertEqual(offer.result?.error, .waitingListEmpty)
    }

    func testOfferBooksTheFirstPatient() async {
        let server = makeServer()
        let list = makeList(server)
        _ = await list.add(patientID: "p2")
        _ = await list.add(patientID: "p3")
        let offer = await list.offer(sampleSlot)
        let booked = expectation(description: "booked")
        offer.then(on: .utility) { booking in
            XCTAssertEqual(booking.patientID, "p2")
            booked.fulfill()
        }
        await fulfillment(of: [booked], timeout: 5)
        let remaining = await list.count
        XCTAssertEqual(remaining, 1)
    }

    func testAFailedOfferPutsThePatientBack() async {
        let server = makeServer()
        server.bookedSlotIDs = [1]
        let list = makeList(server)
        _ = await list.add(patientID: "p1")
        let offer = await list.offer(sampleSlot)
        let failed = expectation(description: "failed")
        offer.catch(on: .utility) { error in
            XCTAssertEqual(error, .slotTaken(1))
            failed.fulfill()
        }
        await fulfillment(of: [failed], timeout: 5)
        // The put-back runs on the actor after the failure: poll for it with a generous limit.
        var count = 0
        for _ in 0..<100 {
            count = await list.count
            if count == 1 { break }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        XCTAssertEqual(count, 1)
    }

    func testPositionsAreWorkedOutFromASnapshot() async {
        let list = makeList(makeServer())
        _ = await list.add(patientID: "p3")
        _ = await list.add(patientID: "p1")
        let positions = await list.positions()
        let exp = expectation(description: "positions")
        positions.then(on: .utility) { map in
            XCTAssertEqual(map, ["p3": 1, "p1": 2])
            exp.fulfill()
        }
        await fulfillment(of: [exp], timeout: 5)
    }
}
