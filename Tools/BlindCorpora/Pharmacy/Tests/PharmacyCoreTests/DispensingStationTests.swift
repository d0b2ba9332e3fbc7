import Foundation
import Tomorrowland
import XCTest
@testable import PharmacyCore

final class DispensingStationTests: XCTestCase {
    var journal: Journal!
    var stock: StockService!

    override func setUp() {
        super.setUp()
        journal = Journal()
        stock = StockService(backend: Fixtures.backend(), journal: journal)
    }

    /// Makes a station on its actor, dispenses, and hands back the station and the promise.
    private func dispense(_ prescription: Prescription) -> (DispensingStation, Promise<String, PharmacyError>) {
        let started = expectation(description: "dispensing started")
        var made: (DispensingStation, Promise<String, PharmacyError>)?
        let stock = self.stock!
        let journal = self.journal!
        Task { @DispensingActor in
            let station = DispensingStation(stock: stock, journal: journal)
            made = (station, station.dispense(prescription))
            started.fulfill()
        }
        wait(for: [started], timeout: 10)
        return made!
    }

    func testDispensePrintsTheLabelOnTheLabelQueueThenShowsIt() {
        let (station, promise) = dispense(Fixtures.amoxicillin)
        XCTAssertEqual(waitForValue(promise), "Ada: 20 x Amoxicillin (80 left)")
        XCTAssertEqual(journal.entries, ["reserve 20 Amoxicillin", "screen: Ada: 20 x Amoxicillin (80 left) [1 today]"])
        let checked = expectation(description: "station read")
        Task { @DispensingActor in
            XCTAssertEqual(station.lastLabel, "Ada: 20 x Amoxicillin (80 left)")
            XCTAssertEqual(station.labelQueueName, "labels")
            XCTAssertEqual(station.dispensed, ["RX1"])
            checked.fulfill()
        }
        wait(for: [checked], timeout: 10)
    }

    func testDispensingMoreThanTheShelfHoldsRejects() {
        let (station, promise) = dispense(Fixtures.insulin)
        XCTAssertEqual(waitForError(promise), .outOfStock(drug: "Insulin", requested: 3, available: 2))
        XCTAssertEqual(journal.entries, ["reserve 3 Insulin"])
        let checked = expectation(description: "station read")
        Task { @DispensingActor in
            XCTAssertNil(station.lastLabel)
            XCTAssertEqual(station.dispensed, ["RX2"])
            checked.fulfill()
        }
        wait(for: [checked], timeout: 10)
    }
}
