import Foundation
import Tomorrowland

/// The dispatcher's screen.
@MainActor
public final class FleetViewModel {
    public private(set) var status = "idle"
    public private(set) var jobs: [DispatchJob] = []
    public private(set) var events: [String] = []
    private let center: DispatchCenter
    private let registry: VehicleRegistry
    private let telemetry: TelemetryService
    private let token = PromiseInvalidationToken()
    private let delivery: PromiseContext = .main

    public init(center: DispatchCenter, registry: VehicleRegistry, telemetry: TelemetryService) {
        self.center = center
        self.registry = registry
        self.telemetry = telemetry
    }

    /// Dispatches a vehicle and shows the outcome.
    public func dispatch(vehicleID: Int, to destination: String) -> StdPromise<DispatchJob> {
        status = "dispatching \(vehicleID)"
        return center.dispatch(vehicleID: vehicleID, to: destination)
            .then(on: .main, token: token) { [weak self] job in
                self?.jobs.append(job)
                self?.status = "job \(job.id) dispatched"
            }
            .catch(on: .main, token: token) { [weak self] error in
                self?.status = "failed: \(error)"
            }
    }

    /// Shows a vehicle's plate, at once when the registry knows it already.
    public func showPlate(vehicleID: Int) -> Promise<String, FleetError> {
        events.append("show \(vehicleID)")
        return registry.plate(ofVehicle: vehicleID)
            .map(on: .nowOr(.main)) { [weak self] plate in
                self?.events.append("plate \(plate) now=\(PromiseContext.isExecutingNow)")
                return plate.uppercased()
            }
            .tap(on: .nowOr(.main)) { [weak self] result in
                self?.events.append("tap \(result.value ?? "-")")
            }
    }

    /// Shows the speed of a vehicle until the screen stops watching.
    public func watch(vehicleID: Int) -> TokenPromise<String, FleetError> {
        events.append("watch \(vehicleID)")
        return telemetry.latest(for: vehicleID)
            .withToken(token)
            .map(on: .main) { sample in "\(Int(sample.speed)) km/h" }
            .then(on: .screen) { [weak self] text in
                self?.status = text
            }
    }

    /// Shows the fuel level, with a note when the request was cancelled.
    public func showFuel(vehicleID: Int) -> Promise<Double, FleetError> {
        telemetry.fuelLevel(for: vehicleID)
            .onCancel(on: .nowOr(.main)) { [weak self] in
                self?.events.append("fuel cancelled now=\(PromiseContext.isExecutingNow)")
            }
            .always(on: delivery) { [weak self] result in
                self?.events.append("fuel \(result.value.map { String(Int($0)) } ?? "-")")
            }
    }

    /// Stops every callback of this screen and cancels what it watches.
    public func stopWatching() {
        token.invalidate()
    }
}
