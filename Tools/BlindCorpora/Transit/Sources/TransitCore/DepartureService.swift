import Foundation
import Tomorrowland

/// The departures of several stops in one list, soonest first (merged on the decode queue).
public func mergedDepartures(_ service: DepartureService, stopIDs: [String], limit: Int = 10) -> TransitPromise<[Departure]> {
    service.board(stopIDs: stopIDs, limit: limit)
        .map(on: .transitDecode) { board in
            board.values
                .flatMap { $0 }
                .sorted { ($0.expectedMinute, $0.stopID) < ($1.expectedMinute, $1.stopID) }
        }
}

/// Scheduled and realtime departures.
public final class DepartureService: @unchecked Sendable {
    public let server: FakeTransitServer
    /// Decides whether results are handed over synchronously (tests, widgets) or on a utility queue.
    public var deliversImmediately: Bool
    /// Where each step ran (`sort@transit.decode`, …), for diagnostics.
    public let trace = EventLog()

    public init(server: FakeTransitServer, deliversImmediately: Bool = false) {
        self.server = server
        self.deliversImmediately = deliversImmediately
    }

    /// The next `limit` departures from a stop, soonest first (sorted on the decode queue).
    public func departures(stopID: String, limit: Int = 5) -> TransitPromise<[Departure]> {
        guard limit > 0 else {
            return TransitPromise(rejected: .invalidRequest("limit"))
        }
        let server = self.server
        return server.request("departures/\(stopID)") { () -> Result<[Departure], TransitError> in
            guard let departures = server.departures[stopID] else { return .failure(.notFound(stopID)) }
            return .success(departures)
        }
        .map(on: .transitDecode) { [trace] departures in
            trace.append("sort@\(TransitQueues.currentLabel() ?? "unnamed")")
            return Array(departures.sorted { $0.expectedMinute < $1.expectedMinute }.prefix(limit))
        }
    }

    /// The first departure of a route from a stop.
    public func nextDeparture(stopID: String, routeID: String) -> TransitPromise<Departure> {
        departures(stopID: stopID, limit: 50)
            .flatMap(on: .immediate) { departures -> TransitPromise<Departure> in
                guard let next = departures.first(where: { $0.routeID == routeID }) else {
                    return TransitPromise(rejected: .notFound("\(routeID)@\(stopID)"))
                }
                return TransitPromise(fulfilled: next)
            }
    }

    /// Realtime delays for a stop's routes (route ID -> minutes).
    public func delays(stopID: String) -> TransitPromise<[String: Int]> {
        let server = self.server
        return server.request("realtime/delays/\(stopID)") { .success(server.delays) }
    }

    /// Departures with the realtime delays applied. Both requests start at once.
    public func liveDepartures(stopID: String, limit: Int = 5) -> TransitPromise<[Departure]> {
        let scheduled = departures(stopID: stopID, limit: limit)
        let realtime = delays(stopID: stopID)
        return when(fulfilled: scheduled, realtime, cancelOnFailure: true)
            .map(on: deliversImmediately ? .immediate : .utility) { [trace] scheduled, delays in
                trace.append("merge@\(TransitQueues.currentLabel() ?? "unnamed")")
                return scheduled
                    .map { departure -> Departure in
                        var departure = departure
                        departure.delayMinutes = delays[departure.routeID] ?? 0
                        return departure
                    }
                    .sorted { $0.expectedMinute < $1.expectedMinute }
            }
    }

    /// A departure board: every stop's departures, requested in the order given.
    public func board(stopIDs: [String], limit: Int = 3) -> TransitPromise<[String: [Departure]]> {
        let requests = stopIDs.map { departures(stopID: $0, limit: limit) }
        return when(fulfilled: requests, cancelOnFailure: true)
            .map(on: .immediate) { lists in
                var board: [String: [Departure]] = [:]
                for (stopID, list) in zip(stopIDs, lists) {
                    board[stopID] = list
                }
                return board
            }
    }

    /// Departures, or `.timedOut` when the server takes longer than `seconds`.
    public func departures(stopID: String, timeout seconds: TimeInterval) -> TransitPromise<[Departure]> {
        departures(stopID: stopID)
            .timeout(on: .utility, delay: seconds)
            .mapError(on: .immediate) { error -> TransitError in
                switch error {
                case .timedOut: return .timedOut
                case .rejected(let underlying): return underlying
                }
            }
    }

    /// Asks the primary server and its mirror; the first answer wins and the other request is cancelled.
    public func fastestDepartures(stopID: String) -> TransitPromise<[Departure]> {
        let server = self.server
        let primary = server.request("primary/departures/\(stopID)") { () -> Result<[Departure], TransitError> in
            server.departures[stopID].map { .success($0) } ?? .failure(.notFound(stopID))
        }
        let mirror = server.request("mirror/departures/\(stopID)") { () -> Result<[Departure], TransitError> in
            server.departures[stopID].map { .success($0) } ?? .failure(.notFound(stopID))
        }
        return when(first: [primary, mirror], cancelRemaining: true)
    }

    /// The departure count of a stop, never failing: 0 when anything goes wrong.
    public func departureCount(stopID: String) -> Promise<Int, NoError> {
        departures(stopID: stopID, limit: 100)
            .map(on: .immediate) { $0.count }
            .recover(on: .immediate) { _ in 0 }
    }
}
