import Foundation
import Tomorrowland

/// An in-memory cache whose entries expire, and which joins concurrent loads of one key.
///
/// Every caller of a key that is loading gets its own child of the one load, and the load is
/// asked to cancel only once every caller asked.
public final class ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private struct Entry {
        var value: Value
        var expires: Date
    }

    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    private var loads: [Key: StdPromise<Value>] = [:]
    public let lifetime: TimeInterval
    private let now: @Sendable () -> Date

    public init(lifetime: TimeInterval, now: @escaping @Sendable () -> Date = { Date() }) {
        self.lifetime = lifetime
        self.now = now
    }

    /// The cached value, or the result of `load` (started only when nothing is cached or loading).
    public func value(for key: Key, load: () -> StdPromise<Value>) -> StdPromise<Value> {
        lock.lock()
        defer { lock.unlock() }
        if let entry = entries[key], entry.expires > now() {
            return StdPromise(fulfilled: entry.value)
        }
        if let running = loads[key] {
            return running.makeChild()
        }
        let shared = load().propagatingCancellation(on: .immediate) { [weak self] _ in
            self?.finishLoad(key, with: nil)
        }
        loads[key] = shared
        shared.tap(on: .utility) { [weak self] result in
            self?.finishLoad(key, with: result.value)
        }
        return shared.makeChild()
    }

    /// The cached value if it has not expired, without loading.
    public func cachedValue(for key: Key) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        guard let entry = entries[key], entry.expires > now() else { return nil }
        return entry.value
    }

    /// The cached value even if it expired (for "last known rate" fallbacks).
    public func staleValue(for key: Key) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return entries[key]?.value
    }

    public func removeAll() {
        lock.lock()
        entries.removeAll()
        lock.unlock()
    }

    public var loadsInFlight: Int {
        lock.lock()
        defer { lock.unlock() }
        return loads.count
    }

    private func finishLoad(_ key: Key, with value: Value?) {
        lock.lock()
        defer { lock.unlock() }
        loads[key] = nil
        if let value = value {
            entries[key] = Entry(value: value, expires: now().addingTimeInterval(lifetime))
        }
    }
}

extension ExpiringCache where Key == CurrencyPair, Value == FXRate {
    /// The rate for `pair` from the cache or from `provider`, in ledger errors; when the provider
    /// fails, the last known rate if it is younger than `maxStaleness`.
    public func rate(for pair: CurrencyPair, from provider: FXRateProviding, maxStaleness: TimeInterval = 3600) -> LedgerPromise<FXRate> {
        let stale = staleValue(for: pair)
        return value(for: pair) { provider.latestRate(for: pair) }
            .flatMapError(on: .immediate) { _ -> LedgerPromise<FXRate> in
                if let stale = stale, Date().timeIntervalSince(stale.quotedAt) < maxStaleness {
                    return Promise(fulfilled: stale)
                }
                return Promise(rejected: .rateUnavailable(pair))
            }
    }
}

extension ExpiringCache where Value: Collection {
    /// How many elements the cached value for `key` has; 0 when nothing is cached.
    public func count(for key: Key, load: () -> StdPromise<Value>) -> Guaranteed<Int> {
        return value(for: key, load: load)
            .map(on: .immediate) { $0.count }
            .recover(on: .immediate) { _ in 0 }
    }
}
