import Foundation

public struct Vehicle: Sendable, Equatable {
    public var id: Int
    public var plate: String
    public var capacity: Int
    public init(id: Int, plate: String, capacity: Int) { (self.id, self.plate, self.capacity) = (id, plate, capacity) }
}

public struct Driver: Sendable, Equatable {
    public var id: Int
    public var name: String
    public init(id: Int, name: String) { (self.id, self.name) = (id, name) }
}

public struct Route: Sendable, Equatable {
    public var origin: String
    public var destination: String
    public var distanceKm: Int
    public init(origin: String, destination: String, distanceKm: Int) {
        (self.origin, self.destination, self.distanceKm) = (origin, destination, distanceKm)
    }

    /// The route used when no planner can help.
    public static func fallback(to destination: String) -> Route {
        Route(origin: "depot", destination: destination, distanceKm: 0)
    }
}

public struct TelemetrySample: Sendable, Equatable {
    public var vehicleID: Int
    public var speed: Double
    public var fuel: Double
    public init(vehicleID: Int, speed: Double, fuel: Double) { (self.vehicleID, self.speed, self.fuel) = (vehicleID, speed, fuel) }
}

public struct DispatchJob: Sendable, Equatable {
    public var id: Int
    public var vehicle: Vehicle
    public var driver: Driver
    public var route: Route
}
