import Foundation
import Tomorrowland
import XCTest
@testable import KitchenCore

final class StationTests: XCTestCase {
    func testColdStationCooksInOneStep() throws {
        let cold = StationWorker(station: .cold, context: .utility)
        let cooked = try value(of: cold.cook(Fixtures.salad))
        XCTAssertEqual(cooked, CookedItem(item: Fixtures.salad, station: .cold, seconds: 60))
        XCTAssertEqual(cold.cookedCount, 1)
    }

    func testItemForAnotherStationIsRejected() {
        let cold = StationWorker(station: .cold, context: .utility)
        XCTAssertEqual(error(of: cold.cook(Fixtures.burger)), .unknownItem("BRG"))
    }

    func testStationDownRejectsDuringTheCall() {
        let fryer = FryerStation(context: .utility)
        fryer.isDown = true
        let promise = fryer.cook(Fixtures.fries)
        XCTAssertEqual(promise.result, .error(.stationDown(.fryer)))
    }

    func testGrillRestsTheMeat() throws {
        let grill = GrillStation(context: .utility, restingTime: 0.02)
        let cooked = try value(of: grill.cook(OrderItem(sku: "BRG", name: "Burger", station: .grill, quantity: 2)))
        XCTAssertEqual(cooked.seconds, 480 + 120)
    }

    func testGrillThroughTheBaseClassStillRests() throws {
        let worker: StationWorker = GrillStation(context: .utility)
        XCTAssertEqual(try value(of: worker.cook(Fixtures.burger)).seconds, 360)
    }

    func testStationWorkRunsOnItsQueue() {
        let queue = DispatchQueue(label: "test.cold")
        queue.setSpecific(key: KitchenQueues.nameKey, value: "test.cold")
        let cold = StationWorker(station: .cold, context: .queue(queue))
        let done = expectation(description: "cooked")
        var ranOn: String?
        queue.sync {  // registered before the station can resolve it
            cold.cook(Fixtures.salad).then(on: .immediate) { _ in
                ranOn = KitchenQueues.current
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(ranOn, "test.cold")
    }

    func testFryerWaitsForTheOilChange() throws {
        let fryer = FryerStation(context: .queue(DispatchQueue(label: "test.fryer")))
        let change = fryer.changeOil(duration: 0.05)
        let fries = fryer.cook(Fixtures.fries)
        XCTAssertEqual(try value(of: fries).station, .fryer)
        XCTAssertNotNil(change.result)
        XCTAssertEqual(fryer.oilChanges, 1)
    }

    func testFryerCooksAtOnceWithoutAnOilChange() throws {
        let fryer = FryerStation(context: .immediate)
        let fries = fryer.cook(Fixtures.fries)
        XCTAssertEqual(fries.result?.value?.seconds, 60)
    }

    func testACancelRequestDoesNotTakeMeatOffTheGrill() throws {
        // Nothing in the grill's chain handles a cancel request: the order still comes out.
        let grill = GrillStation(context: .utility, restingTime: 0.05)
        let cooking = grill.cook(Fixtures.burger)
        cooking.requestCancel()
        XCTAssertEqual(try value(of: cooking).seconds, 360)
    }
}
