// Stored callbacks: how a ChildBox keeps the user's callback without a thunk or a lookup.

/// A callback stored in a `ChildBox`, released (set to `nil`) once it ran or was skipped.
///
/// Each wrapper's field keeps the function at the abstraction its closure literal was emitted
/// at. A function stored directly in a field of opaque generic type is kept at the most general
/// abstraction, so a closure returning `Void` or a concrete struct directly would need a
/// heap-allocated reabstraction thunk. (And never `Optional.take()` on a function: that generic
/// call reabstracts it through a thunk too.)
@usableFromInline
protocol ReleasableCallback: SendableMetatype {
    /// Drops the function, releasing what it captured (rule 18).
    mutating func release()
}

/// `(Argument) -> Result` with both sides generic (map, and closure-based operators).
@usableFromInline
struct StoredCallback<Argument, Result>: ReleasableCallback {
    @usableFromInline var body: ((Argument) -> Result)?
    @inlinable init(_ body: @escaping (Argument) -> Result) { self.body = body }
    /// Returns the function and releases the stored reference.
    @inlinable mutating func take() -> (Argument) -> Result {
        let body = self.body!
        self.body = nil
        return body
    }
    @inlinable mutating func release() { body = nil }
}

/// `(Argument) -> Void` (then, catch, always, tap).
@usableFromInline
struct StoredVoidCallback<Argument>: ReleasableCallback {
    @usableFromInline var body: ((Argument) -> Void)?
    @inlinable init(_ body: @escaping (Argument) -> Void) { self.body = body }
    /// Returns the function and releases the stored reference.
    @inlinable mutating func take() -> (Argument) -> Void {
        let body = self.body!
        self.body = nil
        return body
    }
    @inlinable mutating func release() { body = nil }
}

/// `(Argument) -> Promise<Value, Error>` (flatMap).
@usableFromInline
struct StoredPromiseCallback<Argument, Value, Error>: ReleasableCallback {
    @usableFromInline var body: ((Argument) -> Promise<Value, Error>)?
    @inlinable init(_ body: @escaping (Argument) -> Promise<Value, Error>) { self.body = body }
    /// Returns the function and releases the stored reference.
    @inlinable mutating func take() -> (Argument) -> Promise<Value, Error> {
        let body = self.body!
        self.body = nil
        return body
    }
    @inlinable mutating func release() { body = nil }
}

/// The callback `body` as a plain function, to be called only on its isolation.
///
/// Callbacks are `@isolated(any)`: a closure written in actor-isolated code is isolated to
/// that actor, and `body.isolation` says which (`nil` for nonisolated code). Swift calls such
/// a function synchronously only from code statically isolated to the same actor, which the
/// library cannot be; so it drops the `@isolated(any)` from the type (same representation:
/// the isolation is kept in the closure's context, the function pointer is an ordinary
/// thick function) and guarantees the isolation dynamically instead: a function with
/// `isolation != nil` is called only by `ActorDelivery`-scheduled work running on that actor.
@inlinable @inline(__always)
func unisolated<Argument, Result>(_ body: @escaping @isolated(any) @Sendable (Argument) -> Result) -> @Sendable (Argument) -> Result {
    unsafeBitCast(body, to: (@Sendable (Argument) -> Result).self)
}

/// `unisolated(_:)` for a throwing callback.
@inlinable @inline(__always)
func unisolated<Argument, Result>(_ body: @escaping @isolated(any) @Sendable (Argument) throws -> Result) -> @Sendable (Argument) throws -> Result {
    unsafeBitCast(body, to: (@Sendable (Argument) throws -> Result).self)
}

/// `unisolated(_:)` for a callback of two arguments (the weak-owner variants).
@inlinable @inline(__always)
func unisolated<A, B, Result>(_ body: @escaping @isolated(any) @Sendable (A, B) -> Result) -> @Sendable (A, B) -> Result {
    unsafeBitCast(body, to: (@Sendable (A, B) -> Result).self)
}

/// `unisolated(_:)` for a throwing callback of two arguments.
@inlinable @inline(__always)
func unisolated<A, B, Result>(_ body: @escaping @isolated(any) @Sendable (A, B) throws -> Result) -> @Sendable (A, B) throws -> Result {
    unsafeBitCast(body, to: (@Sendable (A, B) throws -> Result).self)
}

/// `unisolated(_:)` for a callback without arguments.
@inlinable @inline(__always)
func unisolated<Result>(_ body: @escaping @isolated(any) @Sendable () -> Result) -> @Sendable () -> Result {
    unsafeBitCast(body, to: (@Sendable () -> Result).self)
}
