import Foundation
import Tomorrowland

/// Puts a vehicle, a driver and a route together into a job. Every step runs on `.dispatching`.
public final class DispatchCenter: @unchecked Sendable {
    private let lock = NSLock()
    private var nextJobID = 1
    private var jobs: [Int: DispatchJob] = [:]
    private let registry: VehicleRegistry
    private let telemetry: TelemetryService
    private let roster: DriverRoster
    private let planner: any RoutePlanning
    public let journal: Journal

    public init(registry: VehicleRegistry, telemetry: TelemetryService, roster: DriverRoster,
                planner: any RoutePlanning, journal: Journal) {
        self.registry = registry
        self.telemetry = telemetry
        self.roster = roster
        self.planner = planner
        self.journal = journal
    }

    public var jobCount: Int {
        lock.withLock { jobs.count }
    }

    /// Reserves the next free driver.
    public func reserveDriver() -> Promise<Driver, FleetError> {
        let roster = self.roster
        return Promise(on: .dispatching) { resolver in
            Task {
                if let driver = await roster.take() {
                    resolver.fulfill(with: driver)
                } else {
                    resolver.reject(with: .noDriverAvailable)
                }
            }
        }
    }

    /// A route to `destination`, or the fallback route when planning fails.
    public func route(to destination: String) -> Promise<Route, NoError> {
        planner.plan(from: "depot", to: destination).recover(on: .dispatching) { [journal] error in
            journal.log("route fallback \(destination)")
            return Route.fallback(to: destination)
        }
    }

    /// Dispatches a vehicle to a destination.
    public func dispatch(vehicleID: Int, to destination: String) -> StdPromise<DispatchJob> {
        let jobID = lock.withLock { () -> Int in
            defer { nextJobID += 1 }
            return nextJobID
        }
        journal.log("job \(jobID) start")
        return when(fulfilled: registry.vehicle(id: vehicleID), reserveDriver())
            .upcast
            .flatMap(on: .dispatching) { [planner] pair in
                planner.plan(from: "depot", to: destination).map(on: .dispatching) { route in
                    DispatchJob(id: jobID, vehicle: pair.0, driver: pair.1, route: route)
                }
            }
            .then(on: .dispatching) { [weak self] job in
                self?.lock.withLock { self?.jobs[job.id] = job }
            }
            .always(on: .dispatching) { [journal] result in
                journal.log("job \(jobID) \(result.value == nil ? "failed" : "ok") on \(FleetQueues.current ?? "?")")
            }
    }

    /// Follows a job's vehicle: asking this promise to cancel stops the telemetry request.
    public func track(_ job: DispatchJob) -> Promise<String, FleetError> {
        journal.log("track \(job.id)")
        return telemetry.latest(for: job.vehicle.id).map(on: .dispatching) { sample in
            "job \(job.id): \(Int(sample.speed)) km/h"
        }
    }

    /// Refreshes the fleet: warms the registry, then polls each vehicle's fuel.
    public func refresh(vehicleIDs: [Int]) -> Promise<[Double], FleetError> {
        journal.log("refresh \(vehicleIDs.count)")
        let telemetry = self.telemetry
        registry.warm(ids: vehicleIDs)
        return when(fulfilled: vehicleIDs.map { telemetry.fuelLevel(for: $0) })
            .catch(on: .dispatching) { [journal] error in
                journal.log("refresh failed \(error)")
            }
    }

    /// The estimated minutes of a job's route, or the error of the planner.
    public func eta(of job: DispatchJob) -> Promise<Int, FleetError> {
        planner.estimatedMinutes(for: job.route)
            .tap(on: .dispatching) { [journal] result in
                journal.log("eta \(job.id) \(result.value.map(String.init) ?? "-")")
            }
    }
}
