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

// MARK: - From isolated callbacks

// The public callbacks are `@isolated(any)`. Each stored wrapper can be made from one without
// a reabstraction thunk. `StoredCallback`, whose function is generic on both sides, casts the
// function itself: its most general abstraction is the one it already has. The others go
// through `unsafeBitCast` of a twin struct whose field has the same declared shape (so the
// same abstraction pattern and layout) with `@isolated(any)` added: casting a function
// returning `Void` or a concrete struct itself would pass it as an opaque generic value,
// which wraps it in a heap-allocated thunk (measured: +1 allocation per callback). The twin
// cast costs a retain of the callback's context (its result is a copy the optimizer does not
// know to be the same reference) and a release of the twin; the direct cast costs neither.
// See `unisolated(_:)` for why dropping `@isolated(any)` is sound here.

/// `StoredVoidCallback` with its function still `@isolated(any)`: same layout.
@usableFromInline
struct IsolatedVoidCallback<Argument> {
    @usableFromInline var body: (@isolated(any) @Sendable (Argument) -> Void)?
    @inlinable init(_ body: @escaping @isolated(any) @Sendable (Argument) -> Void) { self.body = body }
}

/// `StoredPromiseCallback` with its function still `@isolated(any)`: same layout.
@usableFromInline
struct IsolatedPromiseCallback<Argument, Value, Error> {
    @usableFromInline var body: (@isolated(any) @Sendable (Argument) -> Promise<Value, Error>)?
    @inlinable init(_ body: @escaping @isolated(any) @Sendable (Argument) -> Promise<Value, Error>) { self.body = body }
}

extension StoredCallback {
    /// Stores an `@isolated(any)` callback, to be called only on its isolation.
    @inlinable init(isolated body: @escaping @isolated(any) @Sendable (Argument) -> Result) {
        self.init(unsafeBitCast(body, to: ((Argument) -> Result).self))
    }
}

extension StoredVoidCallback {
    /// Stores an `@isolated(any)` callback, to be called only on its isolation.
    @inlinable init(isolated body: @escaping @isolated(any) @Sendable (Argument) -> Void) {
        self = unsafeBitCast(IsolatedVoidCallback(body), to: StoredVoidCallback.self)
    }
}

extension StoredPromiseCallback {
    /// Stores an `@isolated(any)` callback, to be called only on its isolation.
    @inlinable init(isolated body: @escaping @isolated(any) @Sendable (Argument) -> Promise<Value, Error>) {
        self = unsafeBitCast(IsolatedPromiseCallback(body), to: StoredPromiseCallback.self)
    }
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
/// The cast goes through twin structs (see above), so it costs no thunk for the shape of
/// each overload.
@inlinable @inline(__always)
func unisolated<Argument, Result>(_ body: @escaping @isolated(any) @Sendable (Argument) -> Result) -> @Sendable (Argument) -> Result {
    unsafeBitCast(IsolatedFunction<Argument, Result>(body: body), to: SendableFunction<Argument, Result>.self).body
}

/// Twins for `unisolated(_:)`: the same field shape, with and without `@isolated(any)`.
@usableFromInline struct IsolatedFunction<Argument, Result> {
    @usableFromInline var body: @isolated(any) @Sendable (Argument) -> Result
    @inlinable init(body: @escaping @isolated(any) @Sendable (Argument) -> Result) { self.body = body }
}

/// See `IsolatedFunction`.
@usableFromInline struct SendableFunction<Argument, Result> {
    @usableFromInline var body: @Sendable (Argument) -> Result
}

/// `unisolated(_:)` for callbacks of shape `(Argument) -> Void`.
@inlinable @inline(__always)
func unisolated<Argument>(_ body: @escaping @isolated(any) @Sendable (Argument) -> Void) -> @Sendable (Argument) -> Void {
    unsafeBitCast(IsolatedFunctionVoid<Argument>(body: body), to: SendableFunctionVoid<Argument>.self).body
}

/// Twins for `unisolated(_:)`: the same field shape, with and without `@isolated(any)`.
@usableFromInline struct IsolatedFunctionVoid<Argument> {
    @usableFromInline var body: @isolated(any) @Sendable (Argument) -> Void
    @inlinable init(body: @escaping @isolated(any) @Sendable (Argument) -> Void) { self.body = body }
}

/// See `IsolatedFunctionVoid`.
@usableFromInline struct SendableFunctionVoid<Argument> {
    @usableFromInline var body: @Sendable (Argument) -> Void
}

/// `unisolated(_:)` for callbacks of shape `(Argument) throws -> Result`.
@inlinable @inline(__always)
func unisolated<Argument, Result>(_ body: @escaping @isolated(any) @Sendable (Argument) throws -> Result) -> @Sendable (Argument) throws -> Result {
    unsafeBitCast(IsolatedFunctionThrowing<Argument, Result>(body: body), to: SendableFunctionThrowing<Argument, Result>.self).body
}

/// Twins for `unisolated(_:)`: the same field shape, with and without `@isolated(any)`.
@usableFromInline struct IsolatedFunctionThrowing<Argument, Result> {
    @usableFromInline var body: @isolated(any) @Sendable (Argument) throws -> Result
    @inlinable init(body: @escaping @isolated(any) @Sendable (Argument) throws -> Result) { self.body = body }
}

/// See `IsolatedFunctionThrowing`.
@usableFromInline struct SendableFunctionThrowing<Argument, Result> {
    @usableFromInline var body: @Sendable (Argument) throws -> Result
}

/// `unisolated(_:)` for callbacks of shape `(Argument) throws -> Void`.
@inlinable @inline(__always)
func unisolated<Argument>(_ body: @escaping @isolated(any) @Sendable (Argument) throws -> Void) -> @Sendable (Argument) throws -> Void {
    unsafeBitCast(IsolatedFunctionThrowingVoid<Argument>(body: body), to: SendableFunctionThrowingVoid<Argument>.self).body
}

/// Twins for `unisolated(_:)`: the same field shape, with and without `@isolated(any)`.
@usableFromInline struct IsolatedFunctionThrowingVoid<Argument> {
    @usableFromInline var body: @isolated(any) @Sendable (Argument) throws -> Void
    @inlinable init(body: @escaping @isolated(any) @Sendable (Argument) throws -> Void) { self.body = body }
}

/// See `IsolatedFunctionThrowingVoid`.
@usableFromInline struct SendableFunctionThrowingVoid<Argument> {
    @usableFromInline var body: @Sendable (Argument) throws -> Void
}

/// `unisolated(_:)` for callbacks of shape `(A, B) -> Result`.
@inlinable @inline(__always)
func unisolated<A, B, Result>(_ body: @escaping @isolated(any) @Sendable (A, B) -> Result) -> @Sendable (A, B) -> Result {
    unsafeBitCast(IsolatedFunctionPair<A, B, Result>(body: body), to: SendableFunctionPair<A, B, Result>.self).body
}

/// Twins for `unisolated(_:)`: the same field shape, with and without `@isolated(any)`.
@usableFromInline struct IsolatedFunctionPair<A, B, Result> {
    @usableFromInline var body: @isolated(any) @Sendable (A, B) -> Result
    @inlinable init(body: @escaping @isolated(any) @Sendable (A, B) -> Result) { self.body = body }
}

/// See `IsolatedFunctionPair`.
@usableFromInline struct SendableFunctionPair<A, B, Result> {
    @usableFromInline var body: @Sendable (A, B) -> Result
}

/// `unisolated(_:)` for callbacks of shape `(A, B) -> Void`.
@inlinable @inline(__always)
func unisolated<A, B>(_ body: @escaping @isolated(any) @Sendable (A, B) -> Void) -> @Sendable (A, B) -> Void {
    unsafeBitCast(IsolatedFunctionPairVoid<A, B>(body: body), to: SendableFunctionPairVoid<A, B>.self).body
}

/// Twins for `unisolated(_:)`: the same field shape, with and without `@isolated(any)`.
@usableFromInline struct IsolatedFunctionPairVoid<A, B> {
    @usableFromInline var body: @isolated(any) @Sendable (A, B) -> Void
    @inlinable init(body: @escaping @isolated(any) @Sendable (A, B) -> Void) { self.body = body }
}

/// See `IsolatedFunctionPairVoid`.
@usableFromInline struct SendableFunctionPairVoid<A, B> {
    @usableFromInline var body: @Sendable (A, B) -> Void
}

/// `unisolated(_:)` for callbacks without arguments.
@inlinable @inline(__always)
func unisolated<Result>(_ body: @escaping @isolated(any) @Sendable () -> Result) -> @Sendable () -> Result {
    unsafeBitCast(IsolatedFunctionNullary<Result>(body: body), to: SendableFunctionNullary<Result>.self).body
}

/// Twins for `unisolated(_:)`: the same field shape, with and without `@isolated(any)`.
@usableFromInline struct IsolatedFunctionNullary<Result> {
    @usableFromInline var body: @isolated(any) @Sendable () -> Result
    @inlinable init(body: @escaping @isolated(any) @Sendable () -> Result) { self.body = body }
}

/// See `IsolatedFunctionNullary`.
@usableFromInline struct SendableFunctionNullary<Result> {
    @usableFromInline var body: @Sendable () -> Result
}
