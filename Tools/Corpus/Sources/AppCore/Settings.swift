// Settings: an actor-backed store, typed errors, a value type with a `value` member.

import Foundation
import Tomorrowland
import TomorrowlandAsync

/// Stores settings; an actor, so callers from outside await it.
public actor SettingsStore {
    private var values: [String: Int]
    public private(set) var reads = 0

    public init(values: [String: Int] = ["theme": 2, "font": 12]) {
        self.values = values
    }

    /// The setting for `key`.
    public func fetchSetting(_ key: String) -> Promise<Setting, StoreError> {
        reads += 1
        guard let value = values[key] else { return Promise(rejected: .missing(key: key)) }
        return Promise(fulfilled: Setting(key: key, value: value))
    }

    /// Stores a value; returns the previous one.
    public func store(_ value: Int, for key: String) -> Promise<Int?, NoError> {
        let previous = values[key]
        values[key] = value
        return Promise(fulfilled: previous)
    }

    /// All keys, sorted; never fails.
    public nonisolated func keys() -> Promise<[String], NoError> {
        Promise(fulfilled: ["font", "theme"])
    }
}

/// The shared settings of the app (a global function returning a promise of a type with `value`).
public func fetchSetting(_ key: String) -> StdPromise<Setting> {
    Promise(fulfilled: Setting(key: key, value: key.count))
}

/// Describes a setting: interpolation accepts any type, so a twin must not change what this reads.
public func describeSetting() async throws -> String {
    "\(try await fetchSetting("theme").value)"
}

/// The `value` of the setting, read the 1.x way through `result`.
public func settingIfResolved(_ key: String) -> Setting? {
    fetchSetting(key).result?.value
}

/// Reads a setting from the actor.
public func themeSetting(from store: SettingsStore) async throws -> Int {
    let promise = await store.fetchSetting("theme")
    return try await promise.value.value
}

/// Settings by key, as a computed property and a subscript (no twin possible).
public struct SettingsView: Sendable {
    public init() {}

    public var theme: StdPromise<Setting> { fetchSetting("theme") }

    public subscript(key: String) -> StdPromise<Setting> { fetchSetting(key) }
}

/// Defaults, computed asynchronously now; old callers get a promise twin.
public struct SettingsDefaults: Sendable {
    public init() {}

    /// The defaults by key.
    // tomorrowland-migrate: promise-twin
    public func defaults() async -> [String: Int] {
        ["theme": 1, "font": 11]
    }

    // tomorrowland-migrate: promise-twin
    /// Validates a value; throws a typed error.
    public func validate(_ value: Int, for key: String) async throws(StoreError) -> Int {
        guard value >= 0 else { throw .missing(key: key) }
        return value
    }

    // tomorrowland-migrate: promise-twin
    /// Resets everything.
    public static func reset() async throws {}
}

/// A counter with a mutating async method.
public struct Counter: Sendable {
    public private(set) var count = 0

    public init() {}

    public mutating func increment() async -> Int {
        count += 1
        return count
    }
}

/// A 1.x error type that is not an `Error`.
public func legacyLookup(_ key: String) -> Promise<Int, String> {
    key.isEmpty ? Promise(rejected: "empty key") : Promise(fulfilled: key.count)
}

// tomorrowland-migrate: skip
/// Kept promise-only on purpose: its callers are all promise-style.
public func settingsVersion() -> Promise<Int, NoError> {
    Promise(fulfilled: 3)
}
