import Foundation
import Tomorrowland

/// The drivers on shift.
public actor DriverRoster {
    private var available: [Driver]
    private var onDuty: [Driver] = []

    public init(drivers: [Driver]) {
        self.available = drivers
    }

    public func take() -> Driver? {
        guard !available.isEmpty else { return nil }
        let driver = available.removeFirst()
        onDuty.append(driver)
        return driver
    }

    public func giveBack(_ driver: Driver) {
        onDuty.removeAll { $0 == driver }
        available.append(driver)
    }

    public var availableCount: Int { available.count }

    /// The names of the drivers on duty, handed over after `delay`.
    public func shiftReport(after delay: TimeInterval) -> Promise<String, NoError> {
        let names = onDuty.map(\.name).joined(separator: ", ")
        return Promise(on: .utility, fulfilled: "on duty: \(names)", after: delay)
    }
}

/// Fleet-wide alerts, kept on the telemetry actor.
@globalActor
public actor TelemetryActor {
    public static let shared = TelemetryActor()
}

@TelemetryActor
public final class AlertMonitor {
    private let telemetry: TelemetryService
    private let threshold: Double
    public private(set) var checks = 0

    public nonisolated init(telemetry: TelemetryService, threshold: Double) {
        self.telemetry = telemetry
        self.threshold = threshold
    }

    /// Whether the vehicle runs low on fuel.
    public func isLowOnFuel(vehicleID: Int) -> Promise<Bool, FleetError> {
        checks += 1
        let threshold = self.threshold
        return telemetry.fuelLevel(for: vehicleID).map(on: .telemetry) { fuel in
            fuel < threshold
        }
    }
}
