import FleetCore
import Foundation
import Tomorrowland
import XCTest

final class ActorTests: XCTestCase {
    func testShiftReportArrivesAfterTheDelay() async {
        let roster = DriverRoster(drivers: FleetFixture.drivers)
        _ = await roster.take()
        let report = await roster.shiftReport(after: 0.05)
        XCTAssertNil(report.result)
        let arrived = expectation(description: "report")
        _ = report.then(on: .immediate) { text in
            XCTAssertEqual(text, "on duty: Ana")
            arrived.fulfill()
        }
        await fulfillment(of: [arrived], timeout: 5)
    }

    func testAlertMonitorOnItsGlobalActor() async {
        let fleet = FleetFixture()
        let monitor = AlertMonitor(telemetry: fleet.telemetry, threshold: 20)
        let low = await monitor.isLowOnFuel(vehicleID: 2)
        let fine = await monitor.isLowOnFuel(vehicleID: 1)
        let checked = expectation(description: "checks")
        checked.expectedFulfillmentCount = 2
        _ = low.then(on: .immediate) { isLow in
            XCTAssertTrue(isLow)
            checked.fulfill()
        }
        _ = fine.then(on: .immediate) { isLow in
            XCTAssertFalse(isLow)
            checked.fulfill()
        }
        await fulfillment(of: [checked], timeout: 5)
        let checks = await monitor.checks
        XCTAssertEqual(checks, 2)
    }
}
