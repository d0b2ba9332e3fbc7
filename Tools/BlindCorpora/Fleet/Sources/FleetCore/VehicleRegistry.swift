import Foundation
import Tomorrowland

/// The fleet's vehicles. Lookups of cached vehicles resolve at once; others resolve later on the
/// registry's own serial queue.
public final class VehicleRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private let queue = FleetQueues.make("registry")
    private var stored: [Int: Vehicle] = [:]
    private var cache: [Int: Vehicle] = [:]
    private var lookupCount = 0
    private let latency: TimeInterval
    public let journal: Journal

    public init(vehicles: [Vehicle], journal: Journal, latency: TimeInterval = 0.2) {
        for vehicle in vehicles { stored[vehicle.id] = vehicle }
        self.journal = journal
        self.latency = latency
    }

    public var lookups: Int {
        lock.withLock { lookupCount }
    }

    /// Looks a vehicle up: already resolved when it is cached.
    public func vehicle(id: Int) -> Promise<Vehicle, FleetError> {
        lock.withLock { lookupCount += 1 }
        journal.log("lookup \(id)")
        if let hit = lock.withLock({ cache[id] }) {
            return Promise(fulfilled: hit)
        }
        let (promise, resolver) = Promise<Vehicle, FleetError>.makeWithResolver()
        queue.asyncAfter(deadline: .now() + latency) { [weak self] in
            guard let self else { return resolver.cancel() }
            let found: Vehicle? = self.lock.withLock {
                if let vehicle = self.stored[id] { self.cache[id] = vehicle }
                return self.stored[id]
            }
            if let found {
                resolver.fulfill(with: found)
            } else {
                resolver.reject(with: .unknownVehicle(id))
            }
        }
        return promise
    }

    /// Loads the vehicles into the cache.
    @discardableResult
    public func warm(ids: [Int]) -> Promise<[Vehicle], FleetError> {
        journal.log("warm \(ids.count)")
        return when(fulfilled: ids.map { vehicle(id: $0) }, cancelOnFailure: true)
            .always(on: .nowOr(.queue(queue))) { [journal] result in
                journal.log("warm done \(result.value?.count ?? -1) now=\(PromiseContext.isExecutingNow)")
            }
    }

    /// The vehicle's capacity; the journal says which queue computed it.
    public func capacity(ofVehicle id: Int) -> Promise<Int, FleetError> {
        journal.log("capacity \(id)")
        return vehicle(id: id)
            .map(on: .queue(queue)) { [journal] vehicle in
                journal.log("capacity on \(FleetQueues.current ?? "?")")
                return vehicle.capacity
            }
            .tap(on: .nowOr(.queue(queue))) { [journal] result in
                journal.log("capacity tap now=\(PromiseContext.isExecutingNow)")
            }
    }

    /// The plate: computed during the call when the vehicle is cached.
    public func plate(ofVehicle id: Int) -> Promise<String, FleetError> {
        vehicle(id: id).map(on: .nowOr(.queue(queue))) { [journal] vehicle in
            journal.log("plate \(vehicle.id) now=\(PromiseContext.isExecutingNow)")
            return vehicle.plate
        }
    }

    /// Vehicles that can carry `load`, checked one by one; unknown ones are skipped.
    public func vehicles(ids: [Int], carrying load: Int) -> Promise<[Vehicle], FleetError> {
        let lookups = ids.map { id in
            vehicle(id: id).mapResult(on: .queue(queue)) { result -> PromiseResult<Vehicle?, FleetError> in
                switch result {
                case .value(let vehicle): return .value(vehicle.capacity >= load ? vehicle : nil)
                case .error(.unknownVehicle): return .value(nil)
                case .error(let error): return .error(error)
                case .cancelled: return .cancelled
                }
            }
        }
        // Large batches are filtered on the registry queue, small ones wherever they resolve.
        return when(fulfilled: lookups).map(on: ids.count < 3 ? .immediate : .queue(queue)) { $0.compactMap { $0 } }
    }
}
