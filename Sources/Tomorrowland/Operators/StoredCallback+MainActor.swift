// Callbacks given `.main` (`PromiseContext.Main`): `@MainActor @Sendable` functions, stored and
// called like the `@isolated(any)` ones of StoredCallback.swift, with the main actor as their
// isolation.
//
// A global actor's isolation is part of the function's *type*, not of its value: a
// `@MainActor @Sendable` function has the representation of a plain `@Sendable` one (a thick
// function, no isolation word). So dropping the `@MainActor` is a cast between two types of the
// same layout, and the library keeps the guarantee dynamically instead: a function stored this
// way gets `MainActor.shared` as its box's isolation, and `ActorDelivery` calls it only from work
// that runs on the main queue, the main actor's executor. The casts go through twin structs, as
// for `@isolated(any)`: passing a function returning `Void` or a concrete struct to the generic
// `unsafeBitCast` directly would wrap it in a heap-allocated reabstraction thunk.

extension StoredCallback {
    /// Stores a main-actor callback, to be called only on the main actor.
    @inlinable init(mainActor body: @escaping @MainActor @Sendable (Argument) -> Result) {
        self.init(unsafeBitCast(body, to: ((Argument) -> Result).self))
    }
}

/// `StoredVoidCallback` with its function still `@MainActor`: same layout.
@usableFromInline
struct MainActorVoidCallback<Argument> {
    @usableFromInline var body: (@MainActor @Sendable (Argument) -> Void)?
    @inlinable init(_ body: @escaping @MainActor @Sendable (Argument) -> Void) { self.body = body }
}

extension StoredVoidCallback {
    /// Stores a main-actor callback, to be called only on the main actor.
    @inlinable init(mainActor body: @escaping @MainActor @Sendable (Argument) -> Void) {
        self = unsafeBitCast(MainActorVoidCallback(body), to: StoredVoidCallback.self)
    }
}

/// `StoredPromiseCallback` with its function still `@MainActor`: same layout.
@usableFromInline
struct MainActorPromiseCallback<Argument, Value, Error> {
    @usableFromInline var body: (@MainActor @Sendable (Argument) -> Promise<Value, Error>)?
    @inlinable init(_ body: @escaping @MainActor @Sendable (Argument) -> Promise<Value, Error>) { self.body = body }
}

extension StoredPromiseCallback {
    /// Stores a main-actor callback, to be called only on the main actor.
    @inlinable init(mainActor body: @escaping @MainActor @Sendable (Argument) -> Promise<Value, Error>) {
        self = unsafeBitCast(MainActorPromiseCallback(body), to: StoredPromiseCallback.self)
    }
}

// MARK: - unisolated(mainActor:), one per shape of unisolated(_:)

/// The main-actor callback `body` as a plain function, to be called only on the main actor
/// (its caller passes `MainActor.shared` as the isolation).
@inlinable @inline(__always)
func unisolated<Argument, Result>(mainActor body: @escaping @MainActor @Sendable (Argument) -> Result) -> @Sendable (Argument) -> Result {
    unsafeBitCast(MainActorFunction<Argument, Result>(body: body), to: SendableFunction<Argument, Result>.self).body
}

/// The twin of `SendableFunction` for `unisolated(mainActor:)`.
@usableFromInline struct MainActorFunction<Argument, Result> {
    @usableFromInline var body: @MainActor @Sendable (Argument) -> Result
    @inlinable init(body: @escaping @MainActor @Sendable (Argument) -> Result) { self.body = body }
}

/// `unisolated(mainActor:)` for callbacks of shape `(Argument) -> Void`.
@inlinable @inline(__always)
func unisolated<Argument>(mainActor body: @escaping @MainActor @Sendable (Argument) -> Void) -> @Sendable (Argument) -> Void {
    unsafeBitCast(MainActorFunctionVoid<Argument>(body: body), to: SendableFunctionVoid<Argument>.self).body
}

/// The twin of `SendableFunctionVoid` for `unisolated(mainActor:)`.
@usableFromInline struct MainActorFunctionVoid<Argument> {
    @usableFromInline var body: @MainActor @Sendable (Argument) -> Void
    @inlinable init(body: @escaping @MainActor @Sendable (Argument) -> Void) { self.body = body }
}

/// `unisolated(mainActor:)` for callbacks of shape `(Argument) throws -> Result`.
@inlinable @inline(__always)
func unisolated<Argument, Result>(
    mainActor body: @escaping @MainActor @Sendable (Argument) throws -> Result
) -> @Sendable (Argument) throws -> Result {
    unsafeBitCast(MainActorFunctionThrowing<Argument, Result>(body: body), to: SendableFunctionThrowing<Argument, Result>.self).body
}

/// The twin of `SendableFunctionThrowing` for `unisolated(mainActor:)`.
@usableFromInline struct MainActorFunctionThrowing<Argument, Result> {
    @usableFromInline var body: @MainActor @Sendable (Argument) throws -> Result
    @inlinable init(body: @escaping @MainActor @Sendable (Argument) throws -> Result) { self.body = body }
}

/// `unisolated(mainActor:)` for callbacks of shape `(Argument) throws -> Void`.
@inlinable @inline(__always)
func unisolated<Argument>(mainActor body: @escaping @MainActor @Sendable (Argument) throws -> Void) -> @Sendable (Argument) throws -> Void {
    unsafeBitCast(MainActorFunctionThrowingVoid<Argument>(body: body), to: SendableFunctionThrowingVoid<Argument>.self).body
}

/// The twin of `SendableFunctionThrowingVoid` for `unisolated(mainActor:)`.
@usableFromInline struct MainActorFunctionThrowingVoid<Argument> {
    @usableFromInline var body: @MainActor @Sendable (Argument) throws -> Void
    @inlinable init(body: @escaping @MainActor @Sendable (Argument) throws -> Void) { self.body = body }
}

/// `unisolated(mainActor:)` for callbacks of shape `(A, B) -> Result`.
@inlinable @inline(__always)
func unisolated<A, B, Result>(mainActor body: @escaping @MainActor @Sendable (A, B) -> Result) -> @Sendable (A, B) -> Result {
    unsafeBitCast(MainActorFunctionPair<A, B, Result>(body: body), to: SendableFunctionPair<A, B, Result>.self).body
}

/// The twin of `SendableFunctionPair` for `unisolated(mainActor:)`.
@usableFromInline struct MainActorFunctionPair<A, B, Result> {
    @usableFromInline var body: @MainActor @Sendable (A, B) -> Result
    @inlinable init(body: @escaping @MainActor @Sendable (A, B) -> Result) { self.body = body }
}

/// `unisolated(mainActor:)` for callbacks of shape `(A, B) -> Void`.
@inlinable @inline(__always)
func unisolated<A, B>(mainActor body: @escaping @MainActor @Sendable (A, B) -> Void) -> @Sendable (A, B) -> Void {
    unsafeBitCast(MainActorFunctionPairVoid<A, B>(body: body), to: SendableFunctionPairVoid<A, B>.self).body
}

/// The twin of `SendableFunctionPairVoid` for `unisolated(mainActor:)`.
@usableFromInline struct MainActorFunctionPairVoid<A, B> {
    @usableFromInline var body: @MainActor @Sendable (A, B) -> Void
    @inlinable init(body: @escaping @MainActor @Sendable (A, B) -> Void) { self.body = body }
}

/// `unisolated(mainActor:)` for callbacks without arguments.
@inlinable @inline(__always)
func unisolated<Result>(mainActor body: @escaping @MainActor @Sendable () -> Result) -> @Sendable () -> Result {
    unsafeBitCast(MainActorFunctionNullary<Result>(body: body), to: SendableFunctionNullary<Result>.self).body
}

/// The twin of `SendableFunctionNullary` for `unisolated(mainActor:)`.
@usableFromInline struct MainActorFunctionNullary<Result> {
    @usableFromInline var body: @MainActor @Sendable () -> Result
    @inlinable init(body: @escaping @MainActor @Sendable () -> Result) { self.body = body }
}
