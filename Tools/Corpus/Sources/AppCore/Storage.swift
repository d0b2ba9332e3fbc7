// The local store: a serial queue of its own, declared as a custom context the 1.x way, and a
// view model that picks contexts with ternaries and keeps one in a property. Needs
// `tomorrowland-migrate adopt` (Tools/scripts/migrate-corpus.sh runs it first).

import Foundation
import Tomorrowland

/// The serial queue every read and write of the store goes through.
public let storageQueue = DispatchQueue(label: "AppCore.storage")

extension PromiseContext {
    /// The store's serial queue.
    public static let storage = PromiseContext.queue(storageQueue)
    /// UI updates.
    public static let ui = PromiseContext.main
    /// Background work of the given quality of service.
    public static func work(_ qos: DispatchQoS.QoSClass) -> PromiseContext {
        PromiseContext(qos: qos)
    }
}

/// Which queue a callback ran on, for the tests: "storage", "main" or "other".
public enum RunningQueue {
    private static let key = DispatchSpecificKey<String>()
    private static let marked: Void = {
        storageQueue.setSpecific(key: key, value: "storage")
        DispatchQueue.main.setSpecific(key: key, value: "main")
    }()

    /// The queue this code runs on.
    public static func current() -> String {
        _ = marked
        return DispatchQueue.getSpecific(key: key) ?? "other"
    }
}

/// Where each named callback ran.
public final class Placements: @unchecked Sendable {
    private let lock = NSLock()
    private var byName: [String: String] = [:]

    public init() {}

    /// Records that the callback `name` runs here.
    public func record(_ name: String) {
        let queue = RunningQueue.current()
        lock.lock()
        byName[name] = queue
        lock.unlock()
    }

    /// The queue `name` ran on, if it ran.
    public subscript(name: String) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return byName[name]
    }
}

/// A key-value store whose state only the storage queue touches.
public final class Store: @unchecked Sendable {
    private var values: [String: Int] = [:]
    public let placements = Placements()

    public init() {}

    public func save(_ value: Int, for key: String) -> Promise<Void, Error> {
        Promise(on: .storage) { resolver in
            self.placements.record("save")
            self.values[key] = value
            resolver.fulfill(with: ())
        }
    }

    public func value(for key: String) -> Promise<Int?, Error> {
        save(0, for: "touched").map(on: .storage) { _ in
            self.placements.record("read")
            return self.values[key]
        }
    }

    /// The number of values, counted when first asked for.
    public func lazyCount(cached: Int?) -> DelayedPromise<Int, Error> {
        DelayedPromise(on: cached != nil ? .immediate : .storage) { resolver in
            self.placements.record("lazyCount")
            resolver.fulfill(with: cached ?? self.values.count)
        }
    }

    /// Removes every value; runs when the operation starts.
    public func clear(now: Bool) -> PromiseOperation<Int, Error> {
        PromiseOperation(on: now ? .immediate : .storage) { resolver in
            self.placements.record("clear")
            let count = self.values.count
            self.values.removeAll()
            resolver.fulfill(with: count)
        }
    }
}

/// The settings screen's model: main-actor code.
@MainActor
public final class StoreViewModel {
    public let store: Store
    public private(set) var status = ""
    /// Where values are formatted; a context held in a property.
    public var formatContext: PromiseContext = .storage

    public init(store: Store) {
        self.store = store
    }

    /// Loads `key` and shows it.
    public func show(_ key: String, quick: Bool) -> Promise<String, Error> {
        let placements = store.placements
        return store.value(for: key)
            .map(on: quick ? .immediate : .work(.utility)) { value -> Int in
                placements.record("unwrap")
                return value ?? 0
            }
            .map(on: formatContext) { value -> String in
                placements.record("format")
                return "\(value)"
            }
            .then(on: .ui) { [weak self] text in
                placements.record("show")
                self?.status = text
            }
            .then(on: .nowOr(.storage)) { _ in placements.record("afterShow") }
    }
}
