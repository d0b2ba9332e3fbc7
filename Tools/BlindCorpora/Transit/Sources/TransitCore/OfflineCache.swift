import Foundation
import Tomorrowland

/// Departures saved for offline use, with a maximum age.
public actor OfflineCache {
    private struct Entry {
        var saved: Date
        var departures: [Departure]
    }

    private var entries: [String: Entry] = [:]
    public private(set) var hits = 0
    public private(set) var misses = 0
    public let maxAge: TimeInterval
    private let now: @Sendable () -> Date

    public init(maxAge: TimeInterval = 600, now: @escaping @Sendable () -> Date = Date.init) {
        self.maxAge = maxAge
        self.now = now
    }

    public func store(_ departures: [Departure], for stopID: String) {
        entries[stopID] = Entry(saved: now(), departures: departures)
    }

    public var count: Int { entries.count }

    /// The saved departures of a stop, or `.notFound` when none are saved or they are too old.
    public func departures(for stopID: String) -> TransitPromise<[Departure]> {
        guard let entry = entries[stopID], now().timeIntervalSince(entry.saved) <= maxAge else {
            misses += 1
            return TransitPromise(rejected: .notFound(stopID))
        }
        hits += 1
        return TransitPromise(fulfilled: entry.departures)
    }

    /// Saved departures when fresh; otherwise from the network, saving what comes back.
    public func departures(for stopID: String, fallingBackTo service: DepartureService) -> TransitPromise<[Departure]> {
        departures(for: stopID)
            .flatMapError(on: .immediate) { _ in service.departures(stopID: stopID) }
            .then { departures in
                self.store(departures, for: stopID)
            }
    }

    /// Refreshes several stops at once; resolves with how many were refreshed.
    public func refresh(stopIDs: [String], from service: DepartureService) -> Promise<Int, NoError> {
        when(fulfilled: stopIDs.map { service.departures(stopID: $0) })
            .then { lists in
                for (stopID, list) in zip(stopIDs, lists) {
                    self.store(list, for: stopID)
                }
            }
            .map(on: .immediate) { $0.count }
            .recover(on: .immediate) { _ in 0 }
    }

    /// Removes entries older than `maxAge`; resolves with how many were removed.
    public func purge() -> Promise<Int, NoError> {
        let limit = now().addingTimeInterval(-maxAge)
        let stale = entries.filter { $0.value.saved < limit }.map { $0.key }
        for key in stale { entries[key] = nil }
        return Promise(fulfilled: stale.count)
    }
}
