import Foundation
import Tomorrowland

/// Polls a source every `interval` seconds until stopped, handing each value to `onUpdate`.
/// Stopping invalidates the feed's token: a poll in flight is cancelled and its callbacks are skipped.
public final class PollingFeed<Value: Sendable>: @unchecked Sendable {
    public typealias Fetch = @Sendable () -> Promise<Value, TransitError>

    private let fetch: Fetch
    private let interval: TimeInterval
    private let context: PromiseContext
    private let lock = NSLock()
    private var token = PromiseInvalidationToken(invalidateOnDeinit: true)
    private var _values: [Value] = []
    private var _errors: [TransitError] = []
    private var _isRunning = false
    private var onUpdate: (@Sendable (Value) -> Void)?
    /// Where each update was handled, for diagnostics.
    public let trace = EventLog()

    public init(interval: TimeInterval, context: PromiseContext = .utility, fetch: @escaping Fetch) {
        self.interval = interval
        self.context = context
        self.fetch = fetch
    }

    public var values: [Value] { lock.lock(); defer { lock.unlock() }; return _values }
    public var errors: [TransitError] { lock.lock(); defer { lock.unlock() }; return _errors }
    public var isRunning: Bool { lock.lock(); defer { lock.unlock() }; return _isRunning }

    /// Starts polling; the first poll is made before this returns.
    public func start(onUpdate: @escaping @Sendable (Value) -> Void) {
        lock.lock()
        guard !_isRunning else { lock.unlock(); return }
        _isRunning = true
        self.onUpdate = onUpdate
        let token = self.token
        lock.unlock()
        poll(token: token)
    }

    public func stop() {
        lock.lock()
        _isRunning = false
        onUpdate = nil
        let old = token
        token = PromiseInvalidationToken()
        lock.unlock()
        old.invalidate()
    }

    /// One poll: fetch, record, then wait `interval` and go again while the token is valid.
    private func poll(token: PromiseInvalidationToken) {
        _ = fetch()
            .then(on: context, token: token) { [weak self] value in
                guard let self = self else { return }
                self.trace.append("update@\(TransitQueues.currentLabel() ?? "unnamed")")
                self.lock.lock()
                self._values.append(value)
                let onUpdate = self.onUpdate
                self.lock.unlock()
                onUpdate?(value)
            }
            .catch(on: context, token: token) { [weak self] error in
                guard let self = self else { return }
                self.lock.lock()
                self._errors.append(error)
                self.lock.unlock()
            }
            .requestCancelOnInvalidate(token)
            .mapResult(on: .immediate) { _ -> PromiseResult<Void, NoError> in .value(()) }
            .delay(on: context, interval)
            .then(on: context, token: token) { [weak self] _ in
                guard let self = self, self.isRunning else { return }
                self.poll(token: token)
            }
    }
}

/// De-duplicates concurrent requests for the same key: callers asking while a request is in flight
/// share it. Each caller gets a child, so one caller's cancel does not cancel the others.
public final class InFlightRequests<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var inFlight: [Key: Promise<Value, TransitError>] = [:]
    public private(set) var startedCount = 0

    public init() {}

    public func value(for key: Key, start: () -> Promise<Value, TransitError>) -> Promise<Value, TransitError> {
        lock.lock()
        if let existing = inFlight[key] {
            lock.unlock()
            return existing.makeChild()
        }
        let promise = start()
        inFlight[key] = promise
        startedCount += 1
        lock.unlock()
        promise.always(on: .immediate) { [weak self] _ in
            guard let self = self else { return }
            self.lock.lock()
            self.inFlight[key] = nil
            self.lock.unlock()
        }
        return promise.makeChild()
    }

    public var pendingKeys: Int {
        lock.lock(); defer { lock.unlock() }
        return inFlight.count
    }
}

/// Vehicle positions from the realtime feed.
public final class VehicleTracker: @unchecked Sendable {
    public let server: FakeTransitServer
    private let requests = InFlightRequests<String, [VehiclePosition]>()
    private let lock = NSLock()
    private var _cancelCallbacks = 0

    public init(server: FakeTransitServer) {
        self.server = server
    }

    public var networkRequestsStarted: Int { requests.startedCount }
    public var cancelCallbacks: Int { lock.lock(); defer { lock.unlock() }; return _cancelCallbacks }

    /// The vehicles on a route; concurrent callers share one request.
    public func positions(routeID: String) -> TransitPromise<[VehiclePosition]> {
        let server = self.server
        return requests.value(for: routeID) {
            server.request("realtime/vehicles/\(routeID)") { () -> Result<[VehiclePosition], TransitError> in
                .success(server.positions[routeID] ?? [])
            }
        }
    }

    /// One vehicle. Cancelling the result cancels the route request at once, even while other
    /// code still holds the intermediate promise.
    public func position(vehicleID: String, routeID: String) -> TransitPromise<VehiclePosition> {
        let server = self.server
        return server.request("realtime/vehicles/\(routeID)") { () -> Result<[VehiclePosition], TransitError> in
            .success(server.positions[routeID] ?? [])
        }
        .propagatingCancellation(on: .immediate) { [weak self] _ in
            guard let self = self else { return }
            self.lock.lock()
            self._cancelCallbacks += 1
            self.lock.unlock()
        }
        .flatMap(on: .immediate) { positions -> TransitPromise<VehiclePosition> in
            guard let match = positions.first(where: { $0.vehicleID == vehicleID }) else {
                return TransitPromise(rejected: .notFound(vehicleID))
            }
            return TransitPromise(fulfilled: match)
        }
    }

    /// The vehicle nearest to a point, among several routes (all requested at once).
    public func nearestVehicle(to location: Coordinate, routes: [String]) -> TransitPromise<VehiclePosition> {
        when(fulfilled: routes.map { positions(routeID: $0) })
            .flatMap(on: .utility) { lists -> TransitPromise<VehiclePosition> in
                let all = lists.flatMap { $0 }
                guard let nearest = all.min(by: { $0.location.distance(to: location) < $1.location.distance(to: location) }) else {
                    return TransitPromise(rejected: .notFound("vehicles"))
                }
                return TransitPromise(fulfilled: nearest)
            }
    }

    /// A feed of a route's positions, polled every `interval` seconds.
    public func feed(routeID: String, interval: TimeInterval, context: PromiseContext = .utility) -> PollingFeed<[VehiclePosition]> {
        PollingFeed(interval: interval, context: context) { [weak self] in
            guard let self = self else { return TransitPromise(rejected: .invalidRequest("tracker gone")) }
            return self.positions(routeID: routeID)
        }
    }
}
