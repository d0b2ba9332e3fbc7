import Foundation
import Tomorrowland

/// Plans trips between two points: the nearest stop at each end, then a direct route or one
/// transfer at a hub. Route search runs as a `PromiseOperation` on the routing queue.
public final class TripPlanner: @unchecked Sendable {
    private let stopProvider: StopProviding
    private let server: FakeTransitServer
    private let routingQueue: OperationQueue
    private let lock = NSLock()
    private var _log: [String] = []
    private var _planCount = 0
    private var _lastQuery: String?
    /// Minutes allowed for changing vehicles.
    public var transferMinutes = 3
    /// Radius searched around each end of the trip, in metres.
    public var walkRadius: Double = 400

    public init(stops: StopProviding, server: FakeTransitServer, routingQueue: OperationQueue = TransitQueues.routing) {
        self.stopProvider = stops
        self.server = server
        self.routingQueue = routingQueue
    }

    public var log: [String] { lock.lock(); defer { lock.unlock() }; return _log }
    public var planCount: Int { lock.lock(); defer { lock.unlock() }; return _planCount }
    public var lastQuery: String? { lock.lock(); defer { lock.unlock() }; return _lastQuery }

    private func record(_ entry: String) {
        lock.lock(); _log.append(entry); lock.unlock()
    }

    /// Plans a trip leaving after `minute` (minutes after midnight).
    ///
    /// Before it returns: the plan is counted, the query recorded, and the two stop searches
    /// started, origin first.
    public func plan(from origin: Coordinate, to destination: Coordinate, departingAfter minute: Int) -> TransitPromise<Itinerary> {
        guard origin != destination else {
            return TransitPromise(rejected: .invalidRequest("origin and destination are the same"))
        }
        lock.lock()
        _planCount += 1
        _lastQuery = "\(origin.latitude),\(origin.longitude)->\(destination.latitude),\(destination.longitude)@\(minute)"
        lock.unlock()
        record("plan.start")
        let originStops = stopProvider.stops(near: origin, radius: walkRadius)
        let destinationStops = stopProvider.stops(near: destination, radius: walkRadius)
        return when(fulfilled: originStops, destinationStops, cancelOnFailure: true)
            .flatMap(on: .utility) { [weak self] (from, to) -> TransitPromise<Itinerary> in
                guard let self = self else { return TransitPromise(rejected: .invalidRequest("planner released")) }
                guard let start = from.first, let end = to.first else { return TransitPromise(rejected: .noRoute) }
                self.record("plan.stops \(start.id)->\(end.id)")
                return self.route(from: start, to: end, departingAfter: minute)
            }
            .always(on: .immediate) { [weak self] result in
                self?.record(result.isCancelled ? "plan.cancelled" : "plan.end")
            }
    }

    /// The route search alone, as an operation on the routing queue.
    public func route(from start: Stop, to end: Stop, departingAfter minute: Int) -> TransitPromise<Itinerary> {
        let allStops = server.stops
        let transfer = transferMinutes
        let operation = PromiseOperation<Itinerary, TransitError>(on: .immediate) { resolver in
            if resolver.hasRequestedCancel {
                resolver.cancel()
                return
            }
            if let itinerary = TripPlanner.search(from: start, to: end, stops: allStops, after: minute, transfer: transfer) {
                resolver.fulfill(with: itinerary)
            } else {
                resolver.reject(with: .noRoute)
            }
        }
        routingQueue.addOperation(operation)
        return operation.promise
    }

    /// The route as one line of text, formatted on the routing queue right after the search.
    public func routeText(from start: Stop, to end: Stop, departingAfter minute: Int) -> TransitPromise<String> {
        route(from: start, to: end, departingAfter: minute)
            .map(on: .operationQueue(routingQueue)) { itinerary in
                "\(OperationQueue.current?.name ?? "unnamed"): \(ItineraryFormatter.summary(itinerary))"
            }
    }

    /// Minutes a vehicle takes between two stops: two to board, then one per 400 m.
    public static func rideMinutes(_ a: Stop, _ b: Stop) -> Int {
        2 + Int(a.location.distance(to: b.location) / 400)
    }

    static func search(from start: Stop, to end: Stop, stops: [Stop], after minute: Int, transfer: Int) -> Itinerary? {
        if start.id == end.id { return Itinerary(legs: []) }
        if let shared = start.routes.first(where: { end.routes.contains($0) }) {
            let depart = minute + 1
            return Itinerary(legs: [Leg(routeID: shared, from: start.id, to: end.id,
                                        departMinute: depart, arriveMinute: depart + rideMinutes(start, end))])
        }
        let hubs = stops.filter { hub in
            hub.id != start.id && hub.id != end.id
                && hub.routes.contains(where: start.routes.contains)
                && hub.routes.contains(where: end.routes.contains)
        }
        guard let hub = hubs.min(by: { rideMinutes(start, $0) + rideMinutes($0, end) < rideMinutes(start, $1) + rideMinutes($1, end) }),
              let first = start.routes.first(where: hub.routes.contains),
              let second = end.routes.first(where: hub.routes.contains) else {
            return nil
        }
        let depart1 = minute + 1
        let arrive1 = depart1 + rideMinutes(start, hub)
        let depart2 = arrive1 + transfer
        return Itinerary(legs: [
            Leg(routeID: first, from: start.id, to: hub.id, departMinute: depart1, arriveMinute: arrive1),
            Leg(routeID: second, from: hub.id, to: end.id, departMinute: depart2, arriveMinute: depart2 + rideMinutes(hub, end)),
        ])
    }

    /// Plans several trips and keeps the one arriving first; a trip that fails is left out.
    public func bestPlan(from origins: [Coordinate], to destination: Coordinate, departingAfter minute: Int) -> TransitPromise<Itinerary> {
        let plans = origins.map { origin in
            plan(from: origin, to: destination, departingAfter: minute)
                .map(on: .immediate) { Optional($0) }
                .recover(on: .immediate) { _ in nil }
        }
        return when(fulfilled: plans).asTransit
            .flatMap(on: .utility) { itineraries -> TransitPromise<Itinerary> in
                guard let best = itineraries.compactMap({ $0 }).min(by: { $0.arriveMinute < $1.arriveMinute }) else {
                    return TransitPromise(rejected: .noRoute)
                }
                return TransitPromise(fulfilled: best)
            }
    }
}

/// Formats itineraries for display. Pure functions, safe on any queue.
public enum ItineraryFormatter {
    public static func clock(_ minute: Int) -> String {
        String(format: "%02d:%02d", (minute / 60) % 24, minute % 60)
    }

    public static func summary(_ itinerary: Itinerary) -> String {
        guard !itinerary.legs.isEmpty else { return "You are there" }
        let routes = itinerary.legs.map { $0.routeID }.joined(separator: " → ")
        let changes = itinerary.transfers == 0 ? "direct" : "\(itinerary.transfers) change\(itinerary.transfers == 1 ? "" : "s")"
        return "\(clock(itinerary.departMinute))–\(clock(itinerary.arriveMinute)) \(routes) (\(changes))"
    }
}
