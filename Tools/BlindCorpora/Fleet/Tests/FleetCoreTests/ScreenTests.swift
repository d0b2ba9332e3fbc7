import FleetCore
import Foundation
import Tomorrowland
import XCTest

/// The screen is main-actor code; XCTest runs these tests on the main thread.
final class ScreenTests: XCTestCase {
    @MainActor
    private static func makeScreen(_ fleet: FleetFixture) -> FleetViewModel {
        FleetViewModel(center: fleet.center, registry: fleet.registry, telemetry: fleet.telemetry)
    }

    func testDispatchShowsTheJob() {
        MainActor.assumeIsolated {
            let fleet = FleetFixture()
            let screen = Self.makeScreen(fleet)
            let job = screen.dispatch(vehicleID: 1, to: "north")
            XCTAssertEqual(screen.status, "dispatching 1")
            XCTAssertEqual(value(of: job)?.id, 1)
            XCTAssertEqual(screen.status, "job 1 dispatched")
            XCTAssertEqual(screen.jobs.map(\.id), [1])
        }
    }

    func testAfterStopWatchingCallbacksAreSkippedButTheResultPassesThrough() {
        MainActor.assumeIsolated {
            let fleet = FleetFixture()
            let screen = Self.makeScreen(fleet)
            let job = screen.dispatch(vehicleID: 1, to: "north")
            screen.stopWatching()
            XCTAssertEqual(value(of: job)?.id, 1)
            XCTAssertEqual(screen.status, "dispatching 1")
            XCTAssertEqual(screen.jobs, [])
        }
    }

    func testPlateOfACachedVehicleIsShownDuringTheCall() {
        MainActor.assumeIsolated {
            let fleet = FleetFixture()
            let screen = Self.makeScreen(fleet)
            _ = value(of: fleet.registry.warm(ids: [1]))
            let plate = screen.showPlate(vehicleID: 1)
            XCTAssertEqual(plate.result?.value, "KX-101")
            XCTAssertEqual(screen.events, ["show 1", "plate kx-101 now=true", "tap KX-101"])
        }
    }

    func testPlateOfAnUncachedVehicleIsShownLaterOnMain() {
        MainActor.assumeIsolated {
            let fleet = FleetFixture()
            let screen = Self.makeScreen(fleet)
            let plate = screen.showPlate(vehicleID: 2)
            XCTAssertEqual(screen.events, ["show 2"])
            XCTAssertEqual(value(of: plate), "KX-202")
            XCTAssertTrue(waitUntil { screen.events.count == 3 })
            XCTAssertEqual(screen.events, ["show 2", "plate kx-202 now=false", "tap KX-202"])
        }
    }

    func testWatchShowsTheSpeed() {
        MainActor.assumeIsolated {
            let fleet = FleetFixture()
            let screen = Self.makeScreen(fleet)
            let watch = screen.watch(vehicleID: 1)
            XCTAssertEqual(value(of: watch.inner), "42 km/h")
            XCTAssertEqual(screen.status, "42 km/h")
        }
    }

    func testStopWatchingCancelsTheTelemetryRequest() {
        MainActor.assumeIsolated {
            let fleet = FleetFixture()
            let screen = Self.makeScreen(fleet)
            let watch = screen.watch(vehicleID: 4)
            screen.stopWatching()
            XCTAssertEqual(result(of: watch.inner)?.isCancelled, true)
            XCTAssertTrue(waitUntil { fleet.telemetry.cancelledRequests == [4] })
            XCTAssertEqual(screen.status, "idle")
        }
    }

    func testFuelIsShownLaterOnMain() {
        MainActor.assumeIsolated {
            let fleet = FleetFixture()
            let screen = Self.makeScreen(fleet)
            XCTAssertEqual(value(of: screen.showFuel(vehicleID: 1)), 55)
            XCTAssertEqual(screen.events, ["fuel 55"])
        }
    }

    func testCancelledFuelRequestIsShownAsCancelled() {
        MainActor.assumeIsolated {
            let fleet = FleetFixture()
            let screen = Self.makeScreen(fleet)
            let fuel = screen.showFuel(vehicleID: 4)
            fuel.requestCancel()
            XCTAssertEqual(result(of: fuel)?.isCancelled, true)
            XCTAssertEqual(screen.events, ["fuel cancelled now=false", "fuel -"])
            XCTAssertEqual(fleet.telemetry.cancelledRequests, [4])
        }
    }
}
