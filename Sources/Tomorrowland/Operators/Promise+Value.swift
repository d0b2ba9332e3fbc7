// Operators on the value: then, map, flatMap and their throwing variants.

extension Promise {
    /// Runs `onSuccess` on `context` when the promise is fulfilled.
    ///
    /// Returns a promise with the same result, resolved after `onSuccess` returns. A child
    /// for cancellation propagation. With an invalidated `token` the callback is skipped
    /// and the returned promise still takes this promise's result.
    ///
    /// - Parameters:
    ///   - context: Where `onSuccess` runs (see `PromiseContext`). The default, `.auto`, is
    ///     evaluated now: `.main` on the main queue or main actor, else `.default`.
    ///   - token: Checked when `onSuccess` would run: if it has been invalidated since this call (not
    ///     before it), `onSuccess` is skipped and the returned promise takes this promise's
    ///     result.
    ///   - onSuccess: Called with the value; not called on rejection or cancellation.
    ///     Released on `context` right after it runs, or when the promise resolves without
    ///     calling it.
    /// - Returns: A new promise with this promise's result. Asking it to cancel counts as
    ///   one child of this promise asking (rule 5).
    @inlinable
    public func then(
        on context: PromiseContext.CallerIsolated = .auto,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) -> Void
    ) -> Promise<Value, Error> {
        register(ThenBox(context: context.context, token: token, callback: onSuccess))
    }

    /// `then(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    @inlinable
    public func then(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (Value) -> Void
    ) -> Promise<Value, Error> {
        register(ThenBox(context: context.promiseContext, token: token, nonisolated: onSuccess))
    }

    /// `then(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    @inlinable
    public func then(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (Value) -> Void
    ) -> Promise<Value, Error> {
        register(ThenBox(context: context.context, token: token, nonisolated: onSuccess))
    }

    /// Transforms the value on `context`. Errors and cancellation pass through; with an
    /// invalidated `token` the returned promise is cancelled instead.
    ///
    /// - Parameters:
    ///   - context: Where `onSuccess` runs (see `PromiseContext`).
    ///   - token: Checked when `onSuccess` would run: if it has been invalidated since this call (not
    ///     before it), `onSuccess` is skipped and the returned promise is cancelled.
    ///   - onSuccess: Called with the value; what it returns fulfils the returned promise.
    ///     Released on `context` right after it runs, or when the promise resolves without
    ///     it.
    /// - Returns: A promise of the transformed value; a child of this promise for
    ///   cancellation propagation (rule 5).
    @inlinable
    public func map<U>(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onSuccess: __owned @escaping @isolated(any) @Sendable (Value) -> U
    ) -> Promise<U, Error> {
        // Taken `__owned` and consumed: the closure's context moves into the box.
        register(MapBox(context: context.context, token: token, callback: consume onSuccess))
    }

    /// `map(on:token:_:)` with a context held in a value (a `PromiseContext` property or parameter,
    /// `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the context the
    /// value holds, as with a named context and as in Tomorrowland 1.x.
    @inlinable
    public func map<U>(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: __owned @escaping @Sendable (Value) -> U
    ) -> Promise<U, Error> {
        // Taken `__owned` and consumed: the closure's context moves into the box.
        register(MapBox(context: context.promiseContext, token: token, nonisolated: consume onSuccess))
    }

    /// `map(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    @inlinable
    public func map<U>(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: __owned @escaping @Sendable (Value) -> U
    ) -> Promise<U, Error> {
        // Taken `__owned` and consumed: the closure's context moves into the box.
        register(MapBox(context: context.context, token: token, nonisolated: consume onSuccess))
    }

    /// Replaces the value with the eventual result of the promise `onSuccess` returns.
    ///
    /// The returned promise adopts that promise without a context hop and is its child for
    /// cancellation propagation (rule 27).
    ///
    /// - Parameters:
    ///   - context: Where `onSuccess` runs (see `PromiseContext`).
    ///   - token: Checked when `onSuccess` would run: if it has been invalidated since this call (not
    ///     before it), `onSuccess` is skipped and the returned promise is cancelled.
    ///   - onSuccess: Called with the value; returns the promise to adopt. An error or
    ///     cancellation of this promise passes through without calling it.
    /// - Returns: A promise of the adopted promise's result. Its cancel requests go to this
    ///   promise until `onSuccess` has run, then to the adopted promise.
    @inlinable
    public func flatMap<U>(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) -> Promise<U, Error>
    ) -> Promise<U, Error> {
        register(FlatMapBox(context: context.context, token: token, callback: onSuccess))
    }

    /// `flatMap(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    @inlinable
    public func flatMap<U>(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (Value) -> Promise<U, Error>
    ) -> Promise<U, Error> {
        register(FlatMapBox(context: context.promiseContext, token: token, nonisolated: onSuccess))
    }

    /// `flatMap(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    @inlinable
    public func flatMap<U>(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (Value) -> Promise<U, Error>
    ) -> Promise<U, Error> {
        register(FlatMapBox(context: context.context, token: token, nonisolated: onSuccess))
    }
}

/// `then`: calls the callback with the value and passes the result through.
@usableFromInline
final class ThenBox<Value, Error>: ChildBox<Value, Error, Value, Error, StoredVoidCallback<Value>>, @unchecked Sendable {
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, callback: @escaping @isolated(any) @Sendable (Value) -> Void) {
        self.init(context: context, token: token, isolation: callback.isolation, stored: StoredVoidCallback(isolated: callback))
    }

    /// A nonisolated callback: stored as it is, no `@isolated(any)` context to take apart.
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, nonisolated callback: @escaping @Sendable (Value) -> Void) {
        self.init(context: context, token: token, isolation: nil, stored: StoredVoidCallback(callback))
    }

    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, isolation: (any Actor)?, stored: StoredVoidCallback<Value>) {
        super.init(context: context, token: token, trigger: .value, kind: .observer, isolation: isolation, callback: stored) { child, upstream, phase in
            let box = unsafeDowncast(child, to: ThenBox<Value, Error>.self)
            let borrowed = Unmanaged.passUnretained(box)
            box.handle(upstream, phase) { result in borrowed._withUnsafeGuaranteedRef { $0.step(result) } }
        }
    }

    @inlinable
    func step(_ result: ParentResult) -> Step<Value, Error> {
        let callback = self.callback.take()
        if case .value(let value) = result { callback(value) }
        return .resolve(result)
    }
}

/// `map`: replaces the value with the callback's result.
@usableFromInline
final class MapBox<ParentValue, Error, Value>: ChildBox<ParentValue, Error, Value, Error, StoredCallback<ParentValue, Value>>, @unchecked Sendable {
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, callback: @escaping @isolated(any) @Sendable (ParentValue) -> Value) {
        self.init(context: context, token: token, isolation: callback.isolation, stored: StoredCallback(isolated: callback))
    }

    /// A nonisolated callback: stored as it is, no `@isolated(any)` context to take apart.
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, nonisolated callback: @escaping @Sendable (ParentValue) -> Value) {
        self.init(context: context, token: token, isolation: nil, stored: StoredCallback(callback))
    }

    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, isolation: (any Actor)?, stored: StoredCallback<ParentValue, Value>) {
        super.init(context: context, token: token, trigger: .value, kind: .transformer, isolation: isolation, callback: stored) { child, upstream, phase in
            let box = unsafeDowncast(child, to: MapBox<ParentValue, Error, Value>.self)
            let borrowed = Unmanaged.passUnretained(box)
            box.handle(upstream, phase) { result in borrowed._withUnsafeGuaranteedRef { $0.step(result) } }
        }
    }

    @inlinable
    func step(_ result: ParentResult) -> Step<Value, Error> {
        let callback = self.callback.take()
        switch result {
        case .value(let value): return .resolve(.value(callback(value)))
        case .error(let error): return .resolve(.error(error))
        case .cancelled: return .resolve(.cancelled)
        }
    }
}

/// `flatMap`: adopts the promise the callback returns.
@usableFromInline
final class FlatMapBox<ParentValue, Error, Value>:
    ChildBox<ParentValue, Error, Value, Error, StoredPromiseCallback<ParentValue, Value, Error>>, @unchecked Sendable
{
    @inlinable
    convenience init(
        context: PromiseContext,
        token: PromiseInvalidationToken?,
        callback: @escaping @isolated(any) @Sendable (ParentValue) -> Promise<Value, Error>
    ) {
        self.init(context: context, token: token, isolation: callback.isolation, stored: StoredPromiseCallback(isolated: callback))
    }

    /// A nonisolated callback: stored as it is, no `@isolated(any)` context to take apart.
    @inlinable
    convenience init(
        context: PromiseContext,
        token: PromiseInvalidationToken?,
        nonisolated callback: @escaping @Sendable (ParentValue) -> Promise<Value, Error>
    ) {
        self.init(context: context, token: token, isolation: nil, stored: StoredPromiseCallback(callback))
    }

    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, isolation: (any Actor)?, stored: StoredPromiseCallback<ParentValue, Value, Error>) {
        super.init(context: context, token: token, trigger: .value, kind: .transformer, isolation: isolation, callback: stored) { child, upstream, phase in
            let box = unsafeDowncast(child, to: FlatMapBox<ParentValue, Error, Value>.self)
            let borrowed = Unmanaged.passUnretained(box)
            box.handle(upstream, phase) { result in borrowed._withUnsafeGuaranteedRef { $0.step(result) } }
        }
    }

    @inlinable
    func step(_ result: ParentResult) -> Step<Value, Error> {
        let callback = self.callback.take()
        switch result {
        case .value(let value): return .adopt(callback(value))
        case .error(let error): return .resolve(.error(error))
        case .cancelled: return .resolve(.cancelled)
        }
    }
}

extension Promise where Error == Swift.Error {
    /// Like `then`, but `onSuccess` may throw, rejecting the returned promise.
    ///
    /// - Parameters:
    ///   - context: Where `onSuccess` runs (see `PromiseContext`). The default, `.auto`, is
    ///     evaluated now: `.main` on the main queue or main actor, else `.default`.
    ///   - token: Checked when `onSuccess` would run: if it has been invalidated since this call (not
    ///     before it), `onSuccess` is skipped and the returned promise takes this promise's
    ///     result.
    ///   - onSuccess: Called with the value; an error it throws rejects the returned
    ///     promise.
    /// - Returns: A promise with this promise's result, or the thrown error; a child of
    ///   this promise for cancellation propagation.
    public func tryThen(
        on context: PromiseContext.CallerIsolated = .auto,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) throws -> Void
    ) -> Promise<Value, Error> {
        _tryThen(on: context.context, token: token, isolation: onSuccess.isolation, unisolated(onSuccess))
    }

    /// `tryThen(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryThen(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (Value) throws -> Void
    ) -> Promise<Value, Error> {
        _tryThen(on: context.promiseContext, token: token, isolation: nil, onSuccess)
    }

    /// `tryThen(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryThen(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (Value) throws -> Void
    ) -> Promise<Value, Error> {
        _tryThen(on: context.context, token: token, isolation: nil, onSuccess)
    }

    /// `tryThen(on:token:_:)` with the callback's isolation taken apart: `onSuccess` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _tryThen(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onSuccess: @escaping @Sendable (Value) throws -> Void
    ) -> Promise<Value, Error> {
        register(on: context, token: token, trigger: .value, kind: .observer, isolation: isolation) { result in
            if case .value(let value) = result {
                do { try onSuccess(value) } catch { return .resolve(.error(error)) }
            }
            return .resolve(result)
        }
    }

    /// Like `map`, but `onSuccess` may throw, rejecting the returned promise.
    ///
    /// - Parameters:
    ///   - context: Where `onSuccess` runs (see `PromiseContext`).
    ///   - token: Checked when `onSuccess` would run: if it has been invalidated since this call (not
    ///     before it), `onSuccess` is skipped and the returned promise is cancelled.
    ///   - onSuccess: Called with the value; what it returns fulfils the returned promise,
    ///     an error it throws rejects it. Errors and cancellation pass through without
    ///     calling it.
    /// - Returns: A promise of the transformed value; a child of this promise for
    ///   cancellation propagation.
    public func tryMap<U>(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) throws -> U
    ) -> Promise<U, Error> {
        _tryMap(on: context.context, token: token, isolation: onSuccess.isolation, unisolated(onSuccess))
    }

    /// `tryMap(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryMap<U>(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (Value) throws -> U
    ) -> Promise<U, Error> {
        _tryMap(on: context.promiseContext, token: token, isolation: nil, onSuccess)
    }

    /// `tryMap(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryMap<U>(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (Value) throws -> U
    ) -> Promise<U, Error> {
        _tryMap(on: context.context, token: token, isolation: nil, onSuccess)
    }

    /// `tryMap(on:token:_:)` with the callback's isolation taken apart: `onSuccess` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _tryMap<U>(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onSuccess: @escaping @Sendable (Value) throws -> U
    ) -> Promise<U, Error> {
        register(on: context, token: token, trigger: .value, kind: .transformer, isolation: isolation) { result in
            switch result {
            case .value(let value):
                do { return .resolve(.value(try onSuccess(value))) } catch { return .resolve(.error(error)) }
            case .error(let error): return .resolve(.error(error))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Like `flatMap`, but `onSuccess` may throw, and the returned promise's error type is
    /// upcast to `Swift.Error`.
    ///
    /// - Parameters:
    ///   - context: Where `onSuccess` runs (see `PromiseContext`).
    ///   - token: Checked when `onSuccess` would run: if it has been invalidated since this call (not
    ///     before it), `onSuccess` is skipped and the returned promise is cancelled.
    ///   - onSuccess: Called with the value; returns the promise to adopt (without a
    ///     context hop, rule 27), or throws to reject the returned promise.
    /// - Returns: A promise of the adopted promise's result, its error upcast to
    ///   `Swift.Error`. Its cancel requests go to this promise until `onSuccess` has run,
    ///   then to the adopted one.
    public func tryFlatMap<U, E: Swift.Error>(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) throws -> Promise<U, E>
    ) -> Promise<U, Error> {
        _tryFlatMap(on: context.context, token: token, isolation: onSuccess.isolation, unisolated(onSuccess))
    }

    /// `tryFlatMap(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryFlatMap<U, E: Swift.Error>(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (Value) throws -> Promise<U, E>
    ) -> Promise<U, Error> {
        _tryFlatMap(on: context.promiseContext, token: token, isolation: nil, onSuccess)
    }

    /// `tryFlatMap(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryFlatMap<U, E: Swift.Error>(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (Value) throws -> Promise<U, E>
    ) -> Promise<U, Error> {
        _tryFlatMap(on: context.context, token: token, isolation: nil, onSuccess)
    }

    /// `tryFlatMap(on:token:_:)` with the callback's isolation taken apart: `onSuccess` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _tryFlatMap<U, E: Swift.Error>(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onSuccess: @escaping @Sendable (Value) throws -> Promise<U, E>
    ) -> Promise<U, Error> {
        register(on: context, token: token, trigger: .value, kind: .transformer, isolation: isolation) { result in
            switch result {
            case .value(let value):
                do { return .adopt(try onSuccess(value).upcast) } catch { return .resolve(.error(error)) }
            case .error(let error): return .resolve(.error(error))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }
}
