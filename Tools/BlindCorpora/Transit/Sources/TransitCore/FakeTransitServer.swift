import Foundation
import Tomorrowland

/// The transit agency's API, in process. Every request answers on `TransitQueues.network` after a
/// latency, can be made to fail or to hang until it is cancelled, and is logged in call order.
public final class FakeTransitServer: @unchecked Sendable {
    private let lock = NSLock()
    private var _requestLog: [String] = []
    private var _cancelledRequests: [String] = []
    private var _completedRequests: [String] = []
    private var failures: [String: TransitError] = [:]
    private var latencies: [String: TimeInterval] = [:]
    private var hanging: Set<String> = []
    private var _isOffline = false

    public let defaultLatency: TimeInterval

    public var stops: [Stop]
    public var departures: [String: [Departure]]
    public var delays: [String: Int]
    public var positions: [String: [VehiclePosition]]
    public var alerts: [ServiceAlert]
    public var fares: [FareKind: Int]

    public init(
        stops: [Stop] = TransitFixtures.stops,
        departures: [String: [Departure]] = TransitFixtures.departures,
        alerts: [ServiceAlert] = TransitFixtures.alerts,
        latency: TimeInterval = 0.01
    ) {
        self.stops = stops
        self.departures = departures
        self.delays = [:]
        self.positions = TransitFixtures.positions
        self.alerts = alerts
        self.fares = [.single: 250, .day: 700, .week: 2_500]
        self.defaultLatency = latency
    }

    // MARK: Scripting the server

    public var isOffline: Bool {
        get { lock.lock(); defer { lock.unlock() }; return _isOffline }
        set { lock.lock(); _isOffline = newValue; lock.unlock() }
    }

    /// Requests whose path starts with `prefix` fail with `error`.
    public func fail(_ prefix: String, with error: TransitError) {
        lock.lock(); failures[prefix] = error; lock.unlock()
    }

    /// Requests whose path starts with `prefix` answer after `latency` seconds.
    public func setLatency(_ latency: TimeInterval, for prefix: String) {
        lock.lock(); latencies[prefix] = latency; lock.unlock()
    }

    /// Requests whose path starts with `prefix` never answer; only a cancel request ends them.
    public func hang(_ prefix: String) {
        lock.lock(); hanging.insert(prefix); lock.unlock()
    }

    public func reset() {
        lock.lock()
        failures = [:]; latencies = [:]; hanging = []; _isOffline = false
        lock.unlock()
    }

    // MARK: What happened

    public var requestLog: [String] { lock.lock(); defer { lock.unlock() }; return _requestLog }
    public var cancelledRequests: [String] { lock.lock(); defer { lock.unlock() }; return _cancelledRequests }
    public var completedRequests: [String] { lock.lock(); defer { lock.unlock() }; return _completedRequests }

    public func requestCount(_ prefix: String) -> Int {
        requestLog.filter { $0.hasPrefix(prefix) }.count
    }

    // MARK: The transport

    /// Starts a request now (it is logged before this returns) and answers it later on the network queue.
    public func request<T: Sendable>(_ path: String, _ respond: @escaping @Sendable () -> Result<T, TransitError>) -> TransitPromise<T> {
        lock.lock()
        _requestLog.append(path)
        let failure = _isOffline ? .offline : failures.first(where: { path.hasPrefix($0.key) })?.value
        let latency = latencies.first(where: { path.hasPrefix($0.key) })?.value ?? defaultLatency
        let hangs = hanging.contains(where: { path.hasPrefix($0) })
        lock.unlock()

        return TransitPromise<T>(on: .immediate) { resolver in
            let flag = CancelFlag()
            resolver.onRequestCancel(on: .immediate) { [weak self] resolver in
                flag.cancel()
                self?.record(cancelled: path)
                resolver.cancel()
            }
            guard !hangs else { return }
            TransitQueues.network.asyncAfter(deadline: .now() + latency) { [weak self] in
                guard !flag.isCancelled else { return }
                self?.record(completed: path)
                if let failure = failure {
                    resolver.reject(with: failure)
                    return
                }
                switch respond() {
                case .success(let value): resolver.fulfill(with: value)
                case .failure(let error): resolver.reject(with: error)
                }
            }
        }
    }

    private func record(completed path: String) {
        lock.lock(); _completedRequests.append(path); lock.unlock()
    }

    private func record(cancelled path: String) {
        lock.lock(); _cancelledRequests.append(path); lock.unlock()
    }
}

/// A request's "stop" switch, flipped by a cancel request.
final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    func cancel() {
        lock.lock(); cancelled = true; lock.unlock()
    }

    var isCancelled: Bool {
        lock.lock(); defer { lock.unlock() }
        return cancelled
    }
}

/// The data set every test and preview starts from.
public enum TransitFixtures {
    public static let central = Stop(id: "S1", name: "Central Station", location: Coordinate(latitude: 0, longitude: 0),
                                     routes: ["R1", "R2", "R3"])
    public static let market = Stop(id: "S2", name: "Market Street", location: Coordinate(latitude: 0.002, longitude: 0),
                                    routes: ["R1"])
    public static let harbour = Stop(id: "S3", name: "Harbour", location: Coordinate(latitude: 0.02, longitude: 0.01),
                                     routes: ["R2"], isAccessible: false)
    public static let university = Stop(id: "S4", name: "University", location: Coordinate(latitude: 0.03, longitude: 0.03),
                                        routes: ["R3"])
    public static let oldTown = Stop(id: "S5", name: "Old Town", location: Coordinate(latitude: 0.0025, longitude: 0.001),
                                     routes: ["R1", "R2"], isAccessible: false)
    public static let airport = Stop(id: "S6", name: "Airport", location: Coordinate(latitude: 0.2, longitude: 0.2),
                                     routes: ["R9"])

    public static let stops = [central, market, harbour, university, oldTown, airport]

    public static let departures: [String: [Departure]] = [
        "S1": [
            Departure(routeID: "R3", stopID: "S1", headsign: "University", scheduledMinute: 485),
            Departure(routeID: "R1", stopID: "S1", headsign: "Market Street", scheduledMinute: 482),
            Departure(routeID: "R2", stopID: "S1", headsign: "Harbour", scheduledMinute: 490),
            Departure(routeID: "R1", stopID: "S1", headsign: "Market Street", scheduledMinute: 497),
        ],
        "S2": [
            Departure(routeID: "R1", stopID: "S2", headsign: "Central Station", scheduledMinute: 481),
            Departure(routeID: "R1", stopID: "S2", headsign: "Central Station", scheduledMinute: 496),
        ],
        "S4": [
            Departure(routeID: "R3", stopID: "S4", headsign: "Central Station", scheduledMinute: 500),
        ],
    ]

    public static let alerts = [
        ServiceAlert(id: "A1", routeIDs: ["R2"], severity: .warning, text: "Harbour line runs every 20 minutes"),
        ServiceAlert(id: "A2", routeIDs: ["R3"], severity: .severe, text: "University branch closed for works"),
        ServiceAlert(id: "A3", routeIDs: ["R1", "R2"], severity: .info, text: "New timetable from Monday"),
    ]

    public static let positions: [String: [VehiclePosition]] = [
        "R1": [
            VehiclePosition(vehicleID: "V10", routeID: "R1", location: Coordinate(latitude: 0.001, longitude: 0), sequence: 1),
            VehiclePosition(vehicleID: "V11", routeID: "R1", location: Coordinate(latitude: 0.0015, longitude: 0), sequence: 1),
        ],
        "R3": [
            VehiclePosition(vehicleID: "V30", routeID: "R3", location: Coordinate(latitude: 0.01, longitude: 0.01), sequence: 1),
        ],
    ]
}
