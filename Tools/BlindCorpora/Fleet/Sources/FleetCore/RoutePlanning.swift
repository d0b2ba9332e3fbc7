import Foundation
import Tomorrowland

/// Plans routes from the depot.
public protocol RoutePlanning: Sendable {
    func plan(from origin: String, to destination: String) -> StdPromise<Route>
    func estimatedMinutes(for route: Route) -> Promise<Int, FleetError>
}

/// Plans on a grid: 7 km per letter of the destination, on the planner's own queue.
public class GridPlanner: RoutePlanning, @unchecked Sendable {
    let queue: DispatchQueue
    public let journal: Journal

    public init(journal: Journal, label: String = "grid") {
        self.journal = journal
        self.queue = FleetQueues.make(label)
    }

    public func plan(from origin: String, to destination: String) -> StdPromise<Route> {
        journal.log("grid plan \(destination)")
        return StdPromise<Route>(on: .queue(queue)) { resolver in
            guard !destination.isEmpty else {
                throw FleetError.routeUnavailable(destination)
            }
            resolver.fulfill(with: Route(origin: origin, destination: destination, distanceKm: destination.count * 7))
        }
    }

    public func estimatedMinutes(for route: Route) -> Promise<Int, FleetError> {
        Promise(on: .queue(queue)) { resolver in
            resolver.fulfill(with: route.distanceKm * 2)
        }
    }
}

/// A grid planner that adds the traffic on top of its parent's answers.
public final class TrafficAwarePlanner: GridPlanner, @unchecked Sendable {
    private let congestion: Int

    public init(journal: Journal, congestion: Int) {
        self.congestion = congestion
        super.init(journal: journal, label: "traffic")
    }

    public override func plan(from origin: String, to destination: String) -> StdPromise<Route> {
        let congestion = self.congestion
        return super.plan(from: origin, to: destination).map(on: .queue(queue)) { [journal] route in
            journal.log("traffic detour \(congestion) on \(FleetQueues.current ?? "?")")
            var route = route
            route.distanceKm += congestion
            return route
        }
    }

    public override func estimatedMinutes(for route: Route) -> Promise<Int, FleetError> {
        let congestion = self.congestion
        return super.estimatedMinutes(for: route).map(on: .queue(queue)) { minutes in
            minutes + congestion * 3
        }
    }
}

/// A straight line, known at once.
public struct DirectPlanner: RoutePlanning {
    public var kilometresPerHop: Int

    public init(kilometresPerHop: Int = 5) {
        self.kilometresPerHop = kilometresPerHop
    }

    public func plan(from origin: String, to destination: String) -> StdPromise<Route> {
        guard destination != origin else {
            return StdPromise(rejected: FleetError.routeUnavailable(destination))
        }
        return StdPromise(fulfilled: Route(origin: origin, destination: destination, distanceKm: kilometresPerHop))
    }

    public func estimatedMinutes(for route: Route) -> Promise<Int, FleetError> {
        Promise(fulfilled: route.distanceKm)
    }
}
