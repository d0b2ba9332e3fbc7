import FleetCore
import Foundation
import Tomorrowland
import XCTest

final class DispatchCenterTests: XCTestCase {
    func testDispatchBuildsAJobOnTheDispatchQueue() {
        let fleet = FleetFixture()
        let job = value(of: fleet.center.dispatch(vehicleID: 1, to: "north"))
        XCTAssertEqual(job?.id, 1)
        XCTAssertEqual(job?.driver, FleetFixture.drivers[0])
        XCTAssertEqual(job?.route.distanceKm, 35)
        XCTAssertEqual(fleet.center.jobCount, 1)
        XCTAssertEqual(fleet.journal.entries.last, "job 1 ok on dispatch")
    }

    func testDispatchWithoutDriversFails() {
        let fleet = FleetFixture(drivers: [])
        let failure = error(of: fleet.center.dispatch(vehicleID: 1, to: "north"))
        XCTAssertEqual(failure as? FleetError, .noDriverAvailable)
        XCTAssertEqual(fleet.journal.entries.last, "job 1 failed on dispatch")
        XCTAssertEqual(fleet.center.jobCount, 0)
    }

    func testTwoDispatchesInARowNumberTheirJobsInCallOrder() {
        let fleet = FleetFixture()
        let first = fleet.center.dispatch(vehicleID: 1, to: "north")
        let second = fleet.center.dispatch(vehicleID: 2, to: "south")
        XCTAssertEqual(Array(fleet.journal.entries.prefix(4)), ["job 1 start", "lookup 1", "job 2 start", "lookup 2"])
        XCTAssertEqual(value(of: first)?.id, 1)
        XCTAssertEqual(value(of: second)?.id, 2)
        XCTAssertEqual(fleet.center.jobCount, 2)
    }

    func testRouteFallsBackWhenPlanningFails() {
        let fleet = FleetFixture(planner: { _ in DirectPlanner() })
        let route = fleet.center.route(to: "depot")
        XCTAssertEqual(value(of: route), Route.fallback(to: "depot"))
        XCTAssertEqual(fleet.journal.entries, ["route fallback depot"])
    }

    func testCancellingATrackRightAfterTheCallReachesTelemetry() {
        let fleet = FleetFixture()
        guard let job = value(of: fleet.center.dispatch(vehicleID: 4, to: "east")) else { return }
        let track = fleet.center.track(job)
        track.requestCancel()
        XCTAssertEqual(result(of: track)?.isCancelled, true)
        XCTAssertEqual(fleet.telemetry.cancelledRequests, [4])
    }

    func testTrackReportsTheSpeed() {
        let fleet = FleetFixture()
        guard let job = value(of: fleet.center.dispatch(vehicleID: 1, to: "north")) else { return }
        XCTAssertEqual(value(of: fleet.center.track(job)), "job 1: 42 km/h")
    }

    func testCallbackOnTheCallersQueueRunsAfterTheCallersNextStatement() {
        let fleet = FleetFixture(planner: { _ in DirectPlanner() })
        guard let job = value(of: fleet.center.dispatch(vehicleID: 1, to: "north")) else { return }
        let done = expectation(description: "eta")
        FleetQueues.dispatch.async {
            let eta = fleet.center.eta(of: job)
            fleet.journal.log("after eta call, resolved=\(eta.result != nil)")
            eta.always(on: .immediate) { _ in done.fulfill() }
        }
        wait(for: [done], timeout: 5)
        XCTAssertTrue(waitUntil { fleet.journal.entries.last == "eta 1 5" })
        XCTAssertEqual(Array(fleet.journal.entries.suffix(2)), ["after eta call, resolved=true", "eta 1 5"])
    }

    func testRefreshCallsTheRegistryThenTelemetry() {
        let fleet = FleetFixture()
        let refresh = fleet.center.refresh(vehicleIDs: [1, 2])
        XCTAssertEqual(Array(fleet.journal.entries.prefix(6)),
                       ["refresh 2", "warm 2", "lookup 1", "lookup 2", "telemetry 1 #1", "telemetry 2 #2"])
        XCTAssertEqual(value(of: refresh), [55, 10])
    }
}
