import FleetCore
import Foundation
import Tomorrowland
import XCTest

/// Calls the async twins that `tomorrowland-migrate add-async-twins` writes next to each
/// promise-returning function of FleetCore.
final class FleetCoreTwinTests: XCTestCase {
    struct Fleet: Sendable {
        let journal = Journal()
        let registry: VehicleRegistry
        let telemetry: TelemetryService
        let roster: DriverRoster
        let center: DispatchCenter

        init(planner: (any RoutePlanning)? = nil) {
            registry = VehicleRegistry(vehicles: [
                Vehicle(id: 1, plate: "kx-101", capacity: 8),
                Vehicle(id: 4, plate: "kx-404", capacity: 5),
            ], journal: journal)
            telemetry = TelemetryService(samples: [
                TelemetrySample(vehicleID: 1, speed: 42, fuel: 0.55),
                TelemetrySample(vehicleID: 2, speed: 0, fuel: 0.1),
            ], silent: [4], journal: journal)
            roster = DriverRoster(drivers: [Driver(id: 7, name: "Ana")])
            center = DispatchCenter(registry: registry, telemetry: telemetry, roster: roster,
                                    planner: planner ?? GridPlanner(journal: journal), journal: journal)
        }
    }

    func testVehicleTwin() async throws {
        let fleet = Fleet()
        let vehicle = try await fleet.registry.vehicle(id: 1)
        XCTAssertEqual(vehicle.plate, "kx-101")
    }

    func testVehicleTwinThrowsTheTypedError() async {
        let fleet = Fleet()
        do {
            _ = try await fleet.registry.vehicle(id: 99)
            XCTFail("expected an error")
        } catch let error as FleetError {
            XCTAssertEqual(error, .unknownVehicle(99))
        } catch {
            XCTFail("unexpected \(error)")
        }
    }

    func testPlateTwinOfACachedVehicle() async throws {
        let fleet = Fleet()
        try await fleet.registry.warm(ids: [1])
        let plate = try await fleet.registry.plate(ofVehicle: 1)
        XCTAssertEqual(plate, "kx-101")
        XCTAssertEqual(fleet.journal.entries.last, "plate 1 now=true")
    }

    func testFuelLevelTwin() async throws {
        let fleet = Fleet()
        let fuel = try await fleet.telemetry.fuelLevel(for: 1)
        XCTAssertEqual(fuel, 55)
    }

    func testSpeedTwinTimesOut() async {
        let fleet = Fleet()
        do {
            _ = try await fleet.telemetry.speed(for: 4, within: 0.1)
            XCTFail("expected a timeout")
        } catch let error as FleetError {
            XCTAssertEqual(error, .timedOut)
        } catch {
            XCTFail("unexpected \(error)")
        }
    }

    func testCancellingTheAwaitingTaskReachesTelemetry() async {
        let fleet = Fleet()
        let task = Task { try await fleet.telemetry.latest(for: 4) }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch is CancellationError {
        } catch {
            XCTFail("unexpected \(error)")
        }
        XCTAssertEqual(fleet.telemetry.cancelledRequests, [4])
    }

    func testPlanTwinReachesTheOverride() async throws {
        let journal = Journal()
        let route = try await TrafficAwarePlanner(journal: journal, congestion: 4).plan(from: "depot", to: "north")
        XCTAssertEqual(route.distanceKm, 39)
        XCTAssertEqual(journal.entries, ["grid plan north", "traffic detour 4 on traffic"])
    }

    func testProtocolTwinOnBothConformers() async throws {
        let route = Route(origin: "depot", destination: "north", distanceKm: 10)
        let planners: [any RoutePlanning] = [GridPlanner(journal: Journal()), DirectPlanner()]
        var minutes: [Int] = []
        for planner in planners {
            minutes.append(try await planner.estimatedMinutes(for: route))
        }
        XCTAssertEqual(minutes, [20, 10])
    }

    func testDispatchTwin() async throws {
        let fleet = Fleet()
        let job = try await fleet.center.dispatch(vehicleID: 1, to: "north")
        XCTAssertEqual(job.id, 1)
        XCTAssertEqual(job.route.distanceKm, 35)
        XCTAssertEqual(fleet.journal.entries.last, "job 1 ok on dispatch")
    }

    func testRouteTwinOfANoErrorPromise() async throws {
        let fleet = Fleet(planner: DirectPlanner())
        let route = try await fleet.center.route(to: "depot")
        XCTAssertEqual(route, Route.fallback(to: "depot"))
    }

    func testShiftReportTwinOnTheActor() async throws {
        let fleet = Fleet()
        _ = await fleet.roster.take()
        let report = try await fleet.roster.shiftReport(after: 0.01)
        XCTAssertEqual(report, "on duty: Ana")
    }

    func testAlertMonitorTwinOnItsGlobalActor() async throws {
        let fleet = Fleet()
        let monitor = AlertMonitor(telemetry: fleet.telemetry, threshold: 20)
        let isLow = try await monitor.isLowOnFuel(vehicleID: 2)
        XCTAssertTrue(isLow)
    }

    func testScreenDispatchTwin() async throws {
        let fleet = Fleet()
        let screen = await FleetViewModel(center: fleet.center, registry: fleet.registry, telemetry: fleet.telemetry)
        let job = try await screen.dispatch(vehicleID: 1, to: "north")
        XCTAssertEqual(job.id, 1)
        let status = await screen.status
        XCTAssertEqual(status, "job 1 dispatched")
    }
}
