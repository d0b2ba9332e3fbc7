// Operators on the error: catch, recover, mapError, flatMapError and throwing variants.

extension Promise {
    /// Runs `onError` on `context` when the promise is rejected.
    ///
    /// Returns a promise with the same result. With an invalidated `token` the callback is
    /// skipped and the returned promise still takes this promise's result.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`). The default, `.auto`, is
    ///     evaluated now: `.main` on the main queue or main actor, else `.default`.
    ///   - token: Checked when `onError` would run: if invalidated after this call,
    ///     `onError` is skipped and the returned promise takes this promise's result.
    ///   - onError: Called with the error; not called on fulfilment or cancellation.
    ///     Released on `context` right after it runs, or when the promise resolves without
    ///     calling it.
    /// - Returns: A new promise with this promise's result, resolved after `onError`
    ///   returns; a child of this promise for cancellation propagation (rule 5).
    @inlinable @discardableResult
    public func `catch`(
        on context: PromiseContext.CallerIsolated = .auto,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> Void
    ) -> Promise<Value, Error> {
        register(CatchBox(context: context.context, token: token, callback: onError))
    }

    /// `catch(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    @inlinable @discardableResult
    public func `catch`(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) -> Void
    ) -> Promise<Value, Error> {
        register(CatchBox(context: context.promiseContext, token: token, nonisolated: onError))
    }

    /// `catch(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    @inlinable @discardableResult
    public func `catch`(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) -> Void
    ) -> Promise<Value, Error> {
        register(CatchBox(context: context.context, token: token, nonisolated: onError))
    }

    /// Replaces an error with a value, giving a promise that cannot be rejected.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`).
    ///   - token: Checked when `onError` would run: if invalidated after this call,
    ///     `onError` is skipped and the returned promise is cancelled.
    ///   - onError: Called with the error; what it returns fulfils the returned promise. A
    ///     value or cancellation of this promise passes through without calling it.
    /// - Returns: A promise that is fulfilled or cancelled, never rejected; a child of this
    ///   promise for cancellation propagation.
    public func recover(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> Value
    ) -> Promise<Value, NoError> {
        _recover(on: context.context, token: token, isolation: onError.isolation, unisolated(onError))
    }

    /// `recover(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func recover(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) -> Value
    ) -> Promise<Value, NoError> {
        _recover(on: context.promiseContext, token: token, isolation: nil, onError)
    }

    /// `recover(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func recover(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) -> Value
    ) -> Promise<Value, NoError> {
        _recover(on: context.context, token: token, isolation: nil, onError)
    }

    /// `recover(on:token:_:)` with the callback's isolation taken apart: `onError` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _recover(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onError: @escaping @Sendable (Error) -> Value
    ) -> Promise<Value, NoError> {
        register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error): return .resolve(.value(onError(error)))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Transforms the error on `context`. Values and cancellation pass through.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`).
    ///   - token: Checked when `onError` would run: if invalidated after this call,
    ///     `onError` is skipped and the returned promise is cancelled.
    ///   - onError: Called with the error; what it returns rejects the returned promise.
    /// - Returns: A promise with this promise's value, or the transformed error; a child of
    ///   this promise for cancellation propagation.
    public func mapError<E>(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> E
    ) -> Promise<Value, E> {
        _mapError(on: context.context, token: token, isolation: onError.isolation, unisolated(onError))
    }

    /// `mapError(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func mapError<E>(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) -> E
    ) -> Promise<Value, E> {
        _mapError(on: context.promiseContext, token: token, isolation: nil, onError)
    }

    /// `mapError(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func mapError<E>(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) -> E
    ) -> Promise<Value, E> {
        _mapError(on: context.context, token: token, isolation: nil, onError)
    }

    /// `mapError(on:token:_:)` with the callback's isolation taken apart: `onError` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _mapError<E>(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onError: @escaping @Sendable (Error) -> E
    ) -> Promise<Value, E> {
        register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error): return .resolve(.error(onError(error)))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Replaces an error with the eventual result of the promise `onError` returns.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`).
    ///   - token: Checked when `onError` would run: if invalidated after this call,
    ///     `onError` is skipped and the returned promise is cancelled.
    ///   - onError: Called with the error; returns the promise to adopt, without a context
    ///     hop (rule 27). A value or cancellation of this promise passes through without
    ///     calling it.
    /// - Returns: A promise with this promise's value, or the adopted promise's result. Its
    ///   cancel requests go to this promise until `onError` has run, then to the adopted
    ///   one.
    public func flatMapError<E>(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> Promise<Value, E>
    ) -> Promise<Value, E> {
        _flatMapError(on: context.context, token: token, isolation: onError.isolation, unisolated(onError))
    }

    /// `flatMapError(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func flatMapError<E>(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) -> Promise<Value, E>
    ) -> Promise<Value, E> {
        _flatMapError(on: context.promiseContext, token: token, isolation: nil, onError)
    }

    /// `flatMapError(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func flatMapError<E>(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) -> Promise<Value, E>
    ) -> Promise<Value, E> {
        _flatMapError(on: context.context, token: token, isolation: nil, onError)
    }

    /// `flatMapError(on:token:_:)` with the callback's isolation taken apart: `onError` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _flatMapError<E>(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onError: @escaping @Sendable (Error) -> Promise<Value, E>
    ) -> Promise<Value, E> {
        register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error): return .adopt(onError(error))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Transforms the error with a throwing function; a thrown error becomes the new error.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`).
    ///   - token: Checked when `onError` would run: if invalidated after this call,
    ///     `onError` is skipped and the returned promise is cancelled.
    ///   - onError: Called with the error; what it returns or throws rejects the returned
    ///     promise. Values and cancellation pass through without calling it.
    /// - Returns: A promise with this promise's value, or the new error as `Swift.Error`; a
    ///   child of this promise for cancellation propagation.
    public func tryMapError<E: Swift.Error>(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) throws -> E
    ) -> Promise<Value, Swift.Error> {
        _tryMapError(on: context.context, token: token, isolation: onError.isolation, unisolated(onError))
    }

    /// `tryMapError(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryMapError<E: Swift.Error>(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) throws -> E
    ) -> Promise<Value, Swift.Error> {
        _tryMapError(on: context.promiseContext, token: token, isolation: nil, onError)
    }

    /// `tryMapError(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryMapError<E: Swift.Error>(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) throws -> E
    ) -> Promise<Value, Swift.Error> {
        _tryMapError(on: context.context, token: token, isolation: nil, onError)
    }

    /// `tryMapError(on:token:_:)` with the callback's isolation taken apart: `onError` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _tryMapError<E: Swift.Error>(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onError: @escaping @Sendable (Error) throws -> E
    ) -> Promise<Value, Swift.Error> {
        register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error):
                do { return .resolve(.error(try onError(error))) } catch { return .resolve(.error(error)) }
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Replaces an error with the eventual result of the promise a throwing `onError`
    /// returns.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`).
    ///   - token: Checked when `onError` would run: if invalidated after this call,
    ///     `onError` is skipped and the returned promise is cancelled.
    ///   - onError: Called with the error; returns the promise to adopt (without a context
    ///     hop, rule 27), or throws to reject the returned promise.
    /// - Returns: A promise with this promise's value, or the adopted promise's result with
    ///   its error upcast to `Swift.Error`. Its cancel requests go to this promise until
    ///   `onError` has run, then to the adopted one.
    public func tryFlatMapError<E: Swift.Error>(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) throws -> Promise<Value, E>
    ) -> Promise<Value, Swift.Error> {
        _tryFlatMapError(on: context.context, token: token, isolation: onError.isolation, unisolated(onError))
    }

    /// `tryFlatMapError(on:token:_:)` with a context held in a value (a `PromiseContext` property
    /// or parameter, `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryFlatMapError<E: Swift.Error>(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) throws -> Promise<Value, E>
    ) -> Promise<Value, Swift.Error> {
        _tryFlatMapError(on: context.promiseContext, token: token, isolation: nil, onError)
    }

    /// `tryFlatMapError(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryFlatMapError<E: Swift.Error>(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) throws -> Promise<Value, E>
    ) -> Promise<Value, Swift.Error> {
        _tryFlatMapError(on: context.context, token: token, isolation: nil, onError)
    }

    /// `tryFlatMapError(on:token:_:)` with the callback's isolation taken apart: `onError` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _tryFlatMapError<E: Swift.Error>(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onError: @escaping @Sendable (Error) throws -> Promise<Value, E>
    ) -> Promise<Value, Swift.Error> {
        register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error):
                do { return .adopt(try onError(error).upcast) } catch { return .resolve(.error(error)) }
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }
}

extension Promise where Error == Swift.Error {
    /// Replaces an error with a value; a thrown error rejects the returned promise.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`).
    ///   - token: Checked when `onError` would run: if invalidated after this call,
    ///     `onError` is skipped and the returned promise is cancelled.
    ///   - onError: Called with the error; what it returns fulfils the returned promise, an
    ///     error it throws rejects it. Values and cancellation pass through without calling
    ///     it.
    /// - Returns: A promise with this promise's value, the recovered value, or the thrown
    ///   error; a child of this promise for cancellation propagation.
    public func tryRecover(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) throws -> Value
    ) -> Promise<Value, Error> {
        _tryRecover(on: context.context, token: token, isolation: onError.isolation, unisolated(onError))
    }

    /// `tryRecover(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryRecover(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) throws -> Value
    ) -> Promise<Value, Error> {
        _tryRecover(on: context.promiseContext, token: token, isolation: nil, onError)
    }

    /// `tryRecover(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryRecover(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (Error) throws -> Value
    ) -> Promise<Value, Error> {
        _tryRecover(on: context.context, token: token, isolation: nil, onError)
    }

    /// `tryRecover(on:token:_:)` with the callback's isolation taken apart: `onError` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _tryRecover(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onError: @escaping @Sendable (Error) throws -> Value
    ) -> Promise<Value, Error> {
        register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error):
                do { return .resolve(.value(try onError(error))) } catch { return .resolve(.error(error)) }
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }
}

/// `catch`: calls the callback with the error and passes the result through.
@usableFromInline
final class CatchBox<Value, Error>: ChildBox<Value, Error, Value, Error, StoredVoidCallback<Error>>, @unchecked Sendable {
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, callback: @escaping @isolated(any) @Sendable (Error) -> Void) {
        self.init(context: context, token: token, isolation: callback.isolation, stored: StoredVoidCallback(isolated: callback))
    }

    /// A nonisolated callback: stored as it is, no `@isolated(any)` context to take apart.
    @inlinable
    convenience init(context: PromiseContext, token: PromiseInvalidationToken?, nonisolated callback: @escaping @Sendable (Error) -> Void) {
        self.init(context: context, token: token, isolation: nil, stored: StoredVoidCallback(callback))
    }

    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, isolation: (any Actor)?, stored: StoredVoidCallback<Error>) {
        super.init(context: context, token: token, trigger: .error, kind: .observer, isolation: isolation, callback: stored) { child, upstream, phase in
            let box = unsafeDowncast(child, to: CatchBox<Value, Error>.self)
            let borrowed = Unmanaged.passUnretained(box)
            box.handle(upstream, phase) { result in borrowed._withUnsafeGuaranteedRef { $0.step(result) } }
        }
    }

    @inlinable
    func step(_ result: ParentResult) -> Step<Value, Error> {
        let callback = self.callback.take()
        if case .error(let error) = result { callback(error) }
        return .resolve(result)
    }
}
