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
