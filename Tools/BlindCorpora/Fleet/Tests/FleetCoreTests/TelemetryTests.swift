import FleetCore
import Foundation
import Tomorrowland
import XCTest

final class TelemetryTests: XCTestCase {
    func testLatestResolvesLaterWithTheSample() {
        let fleet = FleetFixture()
        let latest = fleet.telemetry.latest(for: 1)
        XCTAssertNil(latest.result)
        XCTAssertEqual(value(of: latest), FleetFixture.samples[0])
        XCTAssertEqual(fleet.journal.entries, ["telemetry 1 #1"])
    }

    func testOfflineVehicleRejects() {
        let fleet = FleetFixture()
        XCTAssertEqual(error(of: fleet.telemetry.latest(for: 3)), .telemetryOffline)
    }

    func testFuelLevelMapsTheResultThenRoundsOnTheTelemetryQueue() {
        let fleet = FleetFixture()
        XCTAssertEqual(value(of: fleet.telemetry.fuelLevel(for: 1)), 55)
        XCTAssertEqual(value(of: fleet.telemetry.fuelLevel(for: 3)), 0)
        XCTAssertTrue(fleet.journal.entries.contains("fuel 1 on telemetry"))
        XCTAssertTrue(fleet.journal.entries.contains("fuel 3 on telemetry"))
    }

    func testSpeedTimesOutWithATypedErrorAndTheSourceIsCancelled() {
        let fleet = FleetFixture()
        XCTAssertEqual(error(of: fleet.telemetry.speed(for: 4, within: 0.1)), .timedOut)
        XCTAssertTrue(waitUntil { fleet.telemetry.cancelledRequests == [4] })
    }

    func testSpeedWithinTheTimeout() {
        let fleet = FleetFixture()
        XCTAssertEqual(value(of: fleet.telemetry.speed(for: 1, within: 10)), 42)
        XCTAssertEqual(fleet.telemetry.cancelledRequests, [])
    }

    func testCancelRequestRightAfterTheCallReachesTheSource() {
        let fleet = FleetFixture()
        let latest = fleet.telemetry.latest(for: 1)
        latest.requestCancel()
        XCTAssertEqual(result(of: latest)?.isCancelled, true)
        XCTAssertEqual(fleet.telemetry.cancelledRequests, [1])
    }

    func testPlaceholderSampleForAnOfflineVehicle() {
        let fleet = FleetFixture()
        let sample = fleet.telemetry.sampleOrPlaceholder(for: 3)
        XCTAssertEqual(value(of: sample), TelemetrySample(vehicleID: 3, speed: 0, fuel: 0))
    }

    func testCancelledSampleRunsOnCancelLaterOnTheTelemetryQueue() {
        let fleet = FleetFixture()
        let sample = fleet.telemetry.sampleOrPlaceholder(for: 4)
        sample.requestCancel()
        XCTAssertEqual(result(of: sample)?.isCancelled, true)
        XCTAssertTrue(waitUntil { fleet.journal.entries.contains("sample 4 cancelled now=false") })
        XCTAssertEqual(fleet.telemetry.cancelledRequests, [4])
    }
}
