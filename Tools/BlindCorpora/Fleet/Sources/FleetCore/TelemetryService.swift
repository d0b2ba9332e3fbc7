import Foundation
import Tomorrowland

/// Telemetry of the vehicles. Every request resolves later on the telemetry queue; a vehicle
/// marked silent never answers until it is asked to cancel.
public final class TelemetryService: @unchecked Sendable {
    private let lock = NSLock()
    private var samples: [Int: TelemetrySample] = [:]
    private var silent: Set<Int> = []
    private var cancelled: [Int] = []
    private var requestCount = 0
    private let latency: TimeInterval
    public let journal: Journal

    public init(samples: [TelemetrySample], silent: Set<Int> = [], journal: Journal, latency: TimeInterval = 0.2) {
        for sample in samples { self.samples[sample.vehicleID] = sample }
        self.silent = silent
        self.journal = journal
        self.latency = latency
    }

    /// The vehicles whose request was cancelled at the source.
    public var cancelledRequests: [Int] {
        lock.withLock { cancelled }
    }

    public var requests: Int {
        lock.withLock { requestCount }
    }

    /// The latest sample of a vehicle.
    public func latest(for vehicleID: Int) -> Promise<TelemetrySample, FleetError> {
        let number = lock.withLock { () -> Int in
            requestCount += 1
            return requestCount
        }
        journal.log("telemetry \(vehicleID) #\(number)")
        let latency = self.latency
        return Promise(on: .telemetry) { [weak self] resolver in
            guard let self else { return resolver.cancel() }
            resolver.onRequestCancel(on: .telemetry) { [weak self] resolver in
                self?.lock.withLock { self?.cancelled.append(vehicleID) }
                resolver.cancel()
            }
            let (sample, isSilent) = self.lock.withLock { (self.samples[vehicleID], self.silent.contains(vehicleID)) }
            if isSilent { return }
            FleetQueues.telemetry.asyncAfter(deadline: .now() + latency) {
                if let sample {
                    resolver.fulfill(with: sample)
                } else {
                    resolver.reject(with: .telemetryOffline)
                }
            }
        }
    }

    /// The fuel level in percent; a vehicle that is offline reports an empty tank.
    public func fuelLevel(for vehicleID: Int) -> Promise<Double, FleetError> {
        latest(for: vehicleID)
            .mapResult(on: .telemetry) { result -> PromiseResult<Double, FleetError> in
                switch result {
                case .value(let sample): return .value(sample.fuel)
                case .error(.telemetryOffline): return .value(0)
                case .error(let error): return .error(error)
                case .cancelled: return .cancelled
                }
            }
            .map(on: .telemetry) { fuel in (fuel * 100).rounded() }
            .always(on: .nowOr(.telemetry)) { [journal] result in
                journal.log("fuel \(vehicleID) on \(FleetQueues.current ?? "?")")
            }
    }

    /// The speed, or `FleetError.timedOut` when no sample comes within `seconds`.
    public func speed(for vehicleID: Int, within seconds: TimeInterval) -> Promise<Double, FleetError> {
        latest(for: vehicleID)
            .timeout(on: .telemetry, delay: seconds)
            .mapError(on: .telemetry) { error -> FleetError in
                switch error {
                case .timedOut: return .timedOut
                case .rejected(let error): return error
                }
            }
            .map(on: .telemetry) { $0.speed }
    }

    /// A sample, or a stand-in one when the vehicle is offline.
    public func sampleOrPlaceholder(for vehicleID: Int) -> Promise<TelemetrySample, FleetError> {
        latest(for: vehicleID).flatMapResult(on: .telemetry) { result -> Promise<TelemetrySample, FleetError> in
            switch result {
            case .value(let sample): return Promise(fulfilled: sample)
            case .error(.telemetryOffline):
                return Promise(on: .telemetry, fulfilled: TelemetrySample(vehicleID: vehicleID, speed: 0, fuel: 0), after: 0.05)
            case .error(let error): return Promise(rejected: error)
            case .cancelled: return Promise(with: .cancelled)
            }
        }
        .onCancel(on: .nowOr(.telemetry)) { [journal] in
            journal.log("sample \(vehicleID) cancelled now=\(PromiseContext.isExecutingNow)")
        }
    }
}
