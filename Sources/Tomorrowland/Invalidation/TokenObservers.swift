// TokenObservers: who wants to hear about a token's invalidations and release (the
// machinery behind TomorrowlandAsync's `token.invalidations` and
// `Task.requestCancelOnInvalidate`).
//
// Kept in a side table keyed by the token's box rather than in `TokenBox` itself, so that
// tokens nobody observes pay one relaxed atomic load per invalidation and nothing else.
// `TokenBox` calls `notifyInvalidationObservers()` after bumping its generation, and
// `TokenHandle.deinit` calls `notifyTokenReleased()`.

import Foundation
import Synchronization

/// Something notified of a token's invalidations. Called outside any lock, on the thread
/// that invalidates (or releases) the token.
package class TokenObserver: @unchecked Sendable {
    package init() {}
    /// The token was invalidated.
    package func tokenInvalidated() {}
    /// The token's last copy was released: no invalidation is reported after this one.
    package func tokenReleased() {}
}

/// The process-wide table of token observers: by token box, the observers of that token.
/// Its lock is never held while an observer is notified or a handle is released.
enum TokenObserverTable {
    private struct Entry {
        weak var weakObserver: TokenObserver?
        var strongObserver: TokenObserver?
        var observer: TokenObserver? { strongObserver ?? weakObserver }
    }

    private static let table = Locked<[ObjectIdentifier: [ObjectIdentifier: Entry]]>([:])
    /// Number of boxes with at least one observer: the lock-free fast path.
    private static let observedBoxes = SharedAtomic<Int>(0, "tokenObservers.observedBoxes")

    /// Adds `observer` for `handle`'s token, held weakly (or strongly with `retained`).
    /// Returns `false` if the token is already released (the handle is gone).
    static func add(_ observer: TokenObserver, to handle: TokenHandleReference, retained: Bool) -> Bool {
        let strongHandle: TokenHandle? = table.withLock { table in
            guard let strongHandle = handle.handle else { return nil }
            let key = ObjectIdentifier(strongHandle.box)
            if table[key] == nil {
                table[key] = [:]
                // Relaxed: changed only under the table's lock; the count is a hint for the
                // fast path below, which then takes the lock (and its ordering) to read the table.
                observedBoxes.wrappingAdd(1, ordering: .relaxed)
            }
            table[key]![ObjectIdentifier(observer)] = retained
                ? Entry(weakObserver: nil, strongObserver: observer)
                : Entry(weakObserver: observer, strongObserver: nil)
            return strongHandle
        }
        // `strongHandle` may be the last reference: its deinit (and release notification)
        // runs here, after the lock is released.
        return strongHandle != nil
    }

    /// Removes `observer` (e.g. a cancelled iterator, or one that was released).
    static func remove(_ observer: ObjectIdentifier, from box: ObjectIdentifier) {
        let removed: Entry? = table.withLock { table in
            guard let removed = table[box]?.removeValue(forKey: observer) else { return nil }
            if table[box]!.isEmpty {
                table[box] = nil
                observedBoxes.wrappingSubtract(1, ordering: .relaxed)  // relaxed: as in `add`
            }
            return removed
        }
        // A retained observer may be released here, after the lock.
        withExtendedLifetime(removed) {}
    }

    /// How many observers `box`'s token has (tests check that none accumulate).
    static func count(for box: ObjectIdentifier) -> Int {
        table.withLock { $0[box]?.count ?? 0 }
    }

    static func notifyInvalidated(_ box: ObjectIdentifier) {
        // Relaxed: an observer registered before this invalidation (`add`, under the lock, then
        // the registering thread's later synchronization with the invalidating one, e.g. the
        // token's generation) is counted in a value this load sees; a count of zero only
        // skips a table with no observers, and the lock orders the rest.
        guard observedBoxes.load(ordering: .relaxed) > 0 else { return }
        let observers = table.withLock { $0[box]?.values.compactMap(\.observer) ?? [] }
        observers.forEach { $0.tokenInvalidated() }
    }

    static func notifyReleased(_ box: ObjectIdentifier) {
        // Relaxed: as in `notifyInvalidated`.
        guard observedBoxes.load(ordering: .relaxed) > 0 else { return }
        let entries = table.withLock { table in
            let entries = table.removeValue(forKey: box)
            if entries != nil { observedBoxes.wrappingSubtract(1, ordering: .relaxed) }
            return entries
        }
        entries?.values.compactMap(\.observer).forEach { $0.tokenReleased() }
    }
}

/// A weak reference to a token's handle: lets observers register without keeping the token
/// alive, and tells whether the token was released.
package struct TokenHandleReference: @unchecked Sendable {
    // Safety: a weak reference to an immutable `Sendable` class, never reassigned.
    weak var handle: TokenHandle?
    /// The identity of the token's shared box (stable while observers are registered).
    package let boxID: ObjectIdentifier
}

extension PromiseInvalidationToken {
    /// A reference to this token that does not keep it alive.
    package var _weakReference: TokenHandleReference {
        TokenHandleReference(handle: handle, boxID: ObjectIdentifier(box))
    }
}

extension TokenHandleReference {
    /// Registers `observer` (held weakly: it unregisters itself when it goes away, or
    /// strongly with `retained`); `false` if the token was already released.
    package func addObserver(_ observer: TokenObserver, retained: Bool = false) -> Bool {
        TokenObserverTable.add(observer, to: self, retained: retained)
    }

    /// Unregisters `observer`.
    package func removeObserver(_ observer: TokenObserver) {
        TokenObserverTable.remove(ObjectIdentifier(observer), from: boxID)
    }

    /// The number of registered observers (for tests: no dead entries accumulate).
    package var observerCount: Int {
        TokenObserverTable.count(for: boxID)
    }
}

extension TokenBox {
    /// Called after each invalidation of this token (including one passed on by a chain).
    func notifyInvalidationObservers() {
        TokenObserverTable.notifyInvalidated(ObjectIdentifier(self))
    }

    /// Called when the token's last copy is released.
    func notifyTokenReleased() {
        TokenObserverTable.notifyReleased(ObjectIdentifier(self))
    }
}
