import Foundation
import Tomorrowland

/// Where the app gets its stops from. The remote service and the offline-aware cache both conform.
public protocol StopProviding: AnyObject, Sendable {
    /// The stops within `radius` metres of `location`, nearest first.
    func stops(near location: Coordinate, radius: Double) -> StopsPromise
    /// One stop by its identifier.
    func stop(id: String) -> TransitPromise<Stop>
}

/// Stops straight from the agency's API.
open class RemoteStopService: StopProviding, @unchecked Sendable {
    public let server: FakeTransitServer
    /// Where the responses are decoded and sorted (a context held in a property).
    public let decodeContext: PromiseContext
    /// Where each step ran, for diagnostics.
    public let trace = EventLog()

    public init(server: FakeTransitServer, decodeContext: PromiseContext = .transitDecode) {
        self.server = server
        self.decodeContext = decodeContext
    }

    open func stops(near location: Coordinate, radius: Double) -> StopsPromise {
        guard radius > 0 else {
            return StopsPromise(rejected: .invalidRequest("radius must be positive"))
        }
        let server = self.server
        return server.request("stops/near") { .success(server.stops) }
            .map(on: decodeContext) { [trace] stops -> [Stop] in
                trace.append("filter@\(TransitQueues.currentLabel() ?? "unnamed")")
                return stops
                    .filter { $0.location.distance(to: location) <= radius }
                    .sorted { $0.location.distance(to: location) < $1.location.distance(to: location) }
            }
    }

    public func stop(id: String) -> TransitPromise<Stop> {
        let server = self.server
        return server.request("stops/\(id)") { () -> Result<Stop, TransitError> in
            if let stop = server.stops.first(where: { $0.id == id }) {
                return .success(stop)
            }
            return .failure(.notFound(id))
        }
    }

    /// The stops served by a route, in the order the server lists them.
    public func stops(onRoute routeID: String) -> StopsPromise {
        let server = self.server
        return server.request("routes/\(routeID)/stops") { .success(server.stops) }
            .map(on: .transitDecode) { $0.filter { $0.routes.contains(routeID) } }
            .flatMap(on: .immediate) { stops -> StopsPromise in
                stops.isEmpty ? StopsPromise(rejected: .notFound(routeID)) : StopsPromise(fulfilled: stops)
            }
    }
}

/// Only the stops a wheelchair can use.
public final class AccessibleStopService: RemoteStopService, @unchecked Sendable {
    public private(set) var filteredCount = 0

    public override func stops(near location: Coordinate, radius: Double) -> StopsPromise {
        super.stops(near: location, radius: radius)
            .map(on: .immediate) { [weak self] stops -> [Stop] in
                let accessible = stops.filter { $0.isAccessible }
                self?.filteredCount += stops.count - accessible.count
                return accessible
            }
    }
}

/// Remembers what the upstream returned and answers from memory when the device is offline.
public final class CachedStopService: StopProviding, @unchecked Sendable {
    private let upstream: StopProviding
    private let lock = NSLock()
    private var nearby: [String: [Stop]] = [:]
    private var byID: [String: Stop] = [:]
    public private(set) var servedFromCache = 0

    public init(upstream: StopProviding) {
        self.upstream = upstream
    }

    private static func key(_ location: Coordinate, _ radius: Double) -> String {
        "\(location.latitude),\(location.longitude),\(radius)"
    }

    public func stops(near location: Coordinate, radius: Double) -> StopsPromise {
        let key = Self.key(location, radius)
        return upstream.stops(near: location, radius: radius)
            .tap(on: .transitStorage) { [weak self] result in
                if case .value(let stops) = result {
                    self?.remember(stops, forKey: key)
                }
            }
            .flatMapError(on: .immediate) { [weak self] error -> StopsPromise in
                guard error == .offline, let cached = self?.cached(forKey: key) else {
                    return StopsPromise(rejected: error)
                }
                return StopsPromise(fulfilled: cached)
            }
    }

    public func stop(id: String) -> TransitPromise<Stop> {
        if let stop = cachedStop(id) {
            lock.lock(); servedFromCache += 1; lock.unlock()
            return TransitPromise(fulfilled: stop)
        }
        return upstream.stop(id: id).then(on: .immediate) { [weak self] stop in
            guard let self = self else { return }
            self.lock.lock()
            self.byID[stop.id] = stop
            self.lock.unlock()
        }
    }

    private func remember(_ stops: [Stop], forKey key: String) {
        lock.lock()
        nearby[key] = stops
        for stop in stops { byID[stop.id] = stop }
        lock.unlock()
    }

    private func cached(forKey key: String) -> [Stop]? {
        lock.lock(); defer { lock.unlock() }
        guard let stops = nearby[key] else { return nil }
        servedFromCache += 1
        return stops
    }

    private func cachedStop(_ id: String) -> Stop? {
        lock.lock(); defer { lock.unlock() }
        return byID[id]
    }
}
