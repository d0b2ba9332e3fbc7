import Foundation
import Tomorrowland

/// Everything that touches the favourites file runs on this actor.
@globalActor
public actor StorageActor {
    public static let shared = StorageActor()
}

/// The favourites file, on disk in the app; in memory here. Writes happen on the storage queue.
public final class FavoritesDisk: @unchecked Sendable {
    private let lock = NSLock()
    private var _saved: [FavoriteStop] = []
    private var _writes = 0
    public var failsWrites = false

    public init(saved: [FavoriteStop] = []) {
        _saved = saved
    }

    public var saved: [FavoriteStop] { lock.lock(); defer { lock.unlock() }; return _saved }
    public var writes: Int { lock.lock(); defer { lock.unlock() }; return _writes }

    func write(_ favorites: [FavoriteStop]) throws {
        lock.lock(); defer { lock.unlock() }
        if failsWrites { throw TransitError.storage("disk full") }
        _saved = favorites
        _writes += 1
    }
}

/// The user's favourite stops. Isolated to `StorageActor`; saving happens on the storage queue.
@StorageActor
public final class FavoritesStore {
    private let stops: StopProviding
    private let disk: FavoritesDisk
    public private(set) var favorites: [FavoriteStop]
    public private(set) var saveCount = 0
    /// Where each save ran, for diagnostics.
    public nonisolated let trace = EventLog()

    public nonisolated init(stops: StopProviding, disk: FavoritesDisk) {
        self.stops = stops
        self.disk = disk
        self.favorites = disk.saved
    }

    /// Looks the stop up, adds it (named after the stop unless a nickname is given) and saves.
    public func add(stopID: String, nickname: String? = nil) -> TransitPromise<[FavoriteStop]> {
        guard !favorites.contains(where: { $0.stopID == stopID }) else {
            return TransitPromise(rejected: .invalidRequest("\(stopID) is already a favourite"))
        }
        return stops.stop(id: stopID)
            .map(on: .immediate) { stop in FavoriteStop(stopID: stop.id, nickname: nickname ?? stop.name) }
            .flatMap(on: .immediate) { [weak self] favorite -> TransitPromise<[FavoriteStop]> in
                guard let self = self else { return TransitPromise(rejected: .storage("store released")) }
                self.favorites.append(favorite)
                return self.save()
            }
    }

    public func remove(stopID: String) -> TransitPromise<[FavoriteStop]> {
        guard let index = favorites.firstIndex(where: { $0.stopID == stopID }) else {
            return TransitPromise(rejected: .notFound(stopID))
        }
        favorites.remove(at: index)
        return save()
    }

    public func rename(stopID: String, to nickname: String) -> TransitPromise<FavoriteStop> {
        guard let index = favorites.firstIndex(where: { $0.stopID == stopID }) else {
            return TransitPromise(rejected: .notFound(stopID))
        }
        favorites[index].nickname = nickname
        let renamed = favorites[index]
        return save().map(on: .immediate) { _ in renamed }
    }

    /// Writes the current list on the storage queue; counts the save before it returns.
    func save() -> TransitPromise<[FavoriteStop]> {
        saveCount += 1
        let snapshot = favorites
        let disk = self.disk
        let trace = self.trace
        return TransitPromise<[FavoriteStop]>(on: .transitStorage) { resolver in
            trace.append("save@\(TransitQueues.currentLabel() ?? "unnamed")")
            do {
                try disk.write(snapshot)
                resolver.fulfill(with: snapshot)
            } catch let error as TransitError {
                resolver.reject(with: error)
            } catch {
                resolver.reject(with: .storage("\(error)"))
            }
        }
    }

    /// The favourites with their stop details, in the saved order.
    public func resolvedStops() -> TransitPromise<[Stop]> {
        when(fulfilled: favorites.map { stops.stop(id: $0.stopID) })
    }
}
