import Foundation
import Tomorrowland

/// Everything that can go wrong between the app and the transit agency's servers.
public enum TransitError: Error, Equatable, Sendable {
    case offline
    case notFound(String)
    case server(status: Int)
    case decoding(String)
    case timedOut
    case invalidRequest(String)
    case noRoute
    case insufficientFunds(needed: Int)
    case storage(String)
}

/// The promise type every service returns.
public typealias TransitPromise<Value> = Promise<Value, TransitError>
/// A list of stops, as the stop services return it.
public typealias StopsPromise = Promise<[Stop], TransitError>

public struct Coordinate: Equatable, Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A flat-earth distance in metres; good enough inside one city.
    public func distance(to other: Coordinate) -> Double {
        let dLat = (other.latitude - latitude) * 111_000
        let dLon = (other.longitude - longitude) * 111_000 * cos(latitude * .pi / 180)
        return (dLat * dLat + dLon * dLon).squareRoot()
    }
}

public struct Stop: Equatable, Hashable, Sendable, Identifiable {
    public let id: String
    public var name: String
    public var location: Coordinate
    public var routes: [String]
    public var isAccessible: Bool

    public init(id: String, name: String, location: Coordinate, routes: [String], isAccessible: Bool = true) {
        self.id = id
        self.name = name
        self.location = location
        self.routes = routes
        self.isAccessible = isAccessible
    }
}

public struct Departure: Equatable, Hashable, Sendable {
    public let routeID: String
    public let stopID: String
    public let headsign: String
    /// Minutes after midnight, scheduled.
    public let scheduledMinute: Int
    /// Delay in minutes reported by the realtime feed (0 when unknown).
    public var delayMinutes: Int

    public init(routeID: String, stopID: String, headsign: String, scheduledMinute: Int, delayMinutes: Int = 0) {
        self.routeID = routeID
        self.stopID = stopID
        self.headsign = headsign
        self.scheduledMinute = scheduledMinute
        self.delayMinutes = delayMinutes
    }

    public var expectedMinute: Int { scheduledMinute + delayMinutes }
}

public struct VehiclePosition: Equatable, Sendable {
    public let vehicleID: String
    public let routeID: String
    public var location: Coordinate
    public var sequence: Int

    public init(vehicleID: String, routeID: String, location: Coordinate, sequence: Int) {
        self.vehicleID = vehicleID
        self.routeID = routeID
        self.location = location
        self.sequence = sequence
    }
}

public struct Leg: Equatable, Sendable {
    public let routeID: String
    public let from: String
    public let to: String
    public let departMinute: Int
    public let arriveMinute: Int

    public init(routeID: String, from: String, to: String, departMinute: Int, arriveMinute: Int) {
        self.routeID = routeID
        self.from = from
        self.to = to
        self.departMinute = departMinute
        self.arriveMinute = arriveMinute
    }
}

public struct Itinerary: Equatable, Sendable {
    public var legs: [Leg]

    public init(legs: [Leg]) { self.legs = legs }

    public var transfers: Int { max(0, legs.count - 1) }
    public var departMinute: Int { legs.first?.departMinute ?? 0 }
    public var arriveMinute: Int { legs.last?.arriveMinute ?? 0 }
    public var duration: Int { arriveMinute - departMinute }
}

public enum AlertSeverity: Int, Comparable, Sendable {
    case info = 0, warning, severe

    public static func < (lhs: AlertSeverity, rhs: AlertSeverity) -> Bool { lhs.rawValue < rhs.rawValue }
}

public struct ServiceAlert: Equatable, Sendable {
    public let id: String
    public let routeIDs: [String]
    public let severity: AlertSeverity
    public let text: String

    public init(id: String, routeIDs: [String], severity: AlertSeverity, text: String) {
        self.id = id
        self.routeIDs = routeIDs
        self.severity = severity
        self.text = text
    }
}

public struct FavoriteStop: Equatable, Sendable {
    public let stopID: String
    public var nickname: String

    public init(stopID: String, nickname: String) {
        self.stopID = stopID
        self.nickname = nickname
    }
}

public enum FareKind: String, Sendable {
    case single, day, week
}

public struct Ticket: Equatable, Sendable {
    public let id: String
    public let kind: FareKind
    public let priceCents: Int
    public var isActivated: Bool

    public init(id: String, kind: FareKind, priceCents: Int, isActivated: Bool = false) {
        self.id = id
        self.kind = kind
        self.priceCents = priceCents
        self.isActivated = isActivated
    }
}
