// Callbacks that hold an object weakly and receive it strongly (FranticApparatus's
// PromiseMaker context), built on the one registration path.
//
// How they relate to invalidation tokens: `with: object` behaves exactly like a token that is
// invalidated when `object` is deallocated, checked at the same moment (when the callback
// would run, rule 14), with the same outcome: an observer (`then`, `catch`, `always`) is
// skipped and its promise still takes this promise's result; a transformer (`map`,
// `flatMap`, `recover`, `mapResult`, `flatMapResult`) is skipped and its promise is
// cancelled. Both can be combined: pass a `token` as well and the callback runs only if the
// token is still valid *and* the object is alive. Use a token to cancel or suppress
// explicitly (reload, logout); use `with:` to stop caring when an owner goes away, with
// no `[weak self]` / `guard let self` in every closure.

extension Promise {
    /// Runs `onSuccess` on `context` with `object` and the value, if `object` is still alive.
    ///
    /// `object` is held weakly until the callback would run; the callback gets it strongly.
    /// If it was deallocated by then, the callback is skipped and the returned promise still
    /// takes this promise's result, like an invalidated token. Cancellation as `then(on:_:)`.
    ///
    /// ```swift
    /// loadFeed().then(on: .main, with: self) { owner, feed in owner.show(feed) }
    /// ```
    public func then<Object: AnyObject & Sendable>(
        on context: PromiseContext.CallerIsolated = .auto,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (_ object: Object, _ value: Value) -> Void
    ) -> Promise<Value, Error> {
        _then(on: context.context, with: object, token: token, isolation: onSuccess.isolation, unisolated(onSuccess))
    }

    /// `then(on:with:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func then<Object: AnyObject & Sendable>(
        on context: any PromiseContextConvertible,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (_ object: Object, _ value: Value) -> Void
    ) -> Promise<Value, Error> {
        _then(on: context.promiseContext, with: object, token: token, isolation: nil, onSuccess)
    }

    /// `then(on:with:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func then<Object: AnyObject & Sendable>(
        on context: PromiseContext.Named,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (_ object: Object, _ value: Value) -> Void
    ) -> Promise<Value, Error> {
        _then(on: context.context, with: object, token: token, isolation: nil, onSuccess)
    }

    /// `then(on:with:token:_:)` with the callback's isolation taken apart: `onSuccess` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _then<Object: AnyObject & Sendable>(
        on context: PromiseContext,
        with object: Object,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onSuccess: @escaping @Sendable (_ object: Object, _ value: Value) -> Void
    ) -> Promise<Value, Error> {
        register(on: context, token: token, trigger: .value, kind: .observer, isolation: isolation) { [weak object] result in
            if case .value(let value) = result, let object { onSuccess(object, value) }
            return .resolve(result)
        }
    }

    /// Transforms the value on `context` with `object`, if `object` is still alive.
    ///
    /// If `object` was deallocated when the callback would run, the returned promise is
    /// cancelled, like an invalidated token. Errors and cancellation pass through.
    public func map<U, Object: AnyObject & Sendable>(
        on context: PromiseContext.CallerIsolated,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (_ object: Object, _ value: Value) -> U
    ) -> Promise<U, Error> {
        _map(on: context.context, with: object, token: token, isolation: onSuccess.isolation, unisolated(onSuccess))
    }

    /// `map(on:with:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func map<U, Object: AnyObject & Sendable>(
        on context: any PromiseContextConvertible,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (_ object: Object, _ value: Value) -> U
    ) -> Promise<U, Error> {
        _map(on: context.promiseContext, with: object, token: token, isolation: nil, onSuccess)
    }

    /// `map(on:with:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func map<U, Object: AnyObject & Sendable>(
        on context: PromiseContext.Named,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (_ object: Object, _ value: Value) -> U
    ) -> Promise<U, Error> {
        _map(on: context.context, with: object, token: token, isolation: nil, onSuccess)
    }

    /// `map(on:with:token:_:)` with the callback's isolation taken apart: `onSuccess` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _map<U, Object: AnyObject & Sendable>(
        on context: PromiseContext,
        with object: Object,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onSuccess: @escaping @Sendable (_ object: Object, _ value: Value) -> U
    ) -> Promise<U, Error> {
        register(on: context, token: token, trigger: .value, kind: .transformer, isolation: isolation) { [weak object] result in
            switch result {
            case .value(let value):
                guard let object else { return .resolve(.cancelled) }
                return .resolve(.value(onSuccess(object, value)))
            case .error(let error): return .resolve(.error(error))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Replaces the value with the eventual result of the promise `onSuccess` returns, if
    /// `object` is still alive; otherwise the returned promise is cancelled.
    ///
    /// The returned promise adopts the inner promise without a context hop (rule 27).
    public func flatMap<U, Object: AnyObject & Sendable>(
        on context: PromiseContext.CallerIsolated,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (_ object: Object, _ value: Value) -> Promise<U, Error>
    ) -> Promise<U, Error> {
        _flatMap(on: context.context, with: object, token: token, isolation: onSuccess.isolation, unisolated(onSuccess))
    }

    /// `flatMap(on:with:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func flatMap<U, Object: AnyObject & Sendable>(
        on context: any PromiseContextConvertible,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (_ object: Object, _ value: Value) -> Promise<U, Error>
    ) -> Promise<U, Error> {
        _flatMap(on: context.promiseContext, with: object, token: token, isolation: nil, onSuccess)
    }

    /// `flatMap(on:with:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func flatMap<U, Object: AnyObject & Sendable>(
        on context: PromiseContext.Named,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onSuccess: @escaping @Sendable (_ object: Object, _ value: Value) -> Promise<U, Error>
    ) -> Promise<U, Error> {
        _flatMap(on: context.context, with: object, token: token, isolation: nil, onSuccess)
    }

    /// `flatMap(on:with:token:_:)` with the callback's isolation taken apart: `onSuccess` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _flatMap<U, Object: AnyObject & Sendable>(
        on context: PromiseContext,
        with object: Object,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onSuccess: @escaping @Sendable (_ object: Object, _ value: Value) -> Promise<U, Error>
    ) -> Promise<U, Error> {
        register(on: context, token: token, trigger: .value, kind: .transformer, isolation: isolation) { [weak object] result in
            switch result {
            case .value(let value):
                guard let object else { return .resolve(.cancelled) }
                return .adopt(onSuccess(object, value))
            case .error(let error): return .resolve(.error(error))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Runs `onError` on `context` with `object` and the error, if `object` is still alive.
    ///
    /// Otherwise the callback is skipped; the returned promise takes this promise's result
    /// either way.
    @discardableResult
    public func `catch`<Object: AnyObject & Sendable>(
        on context: PromiseContext.CallerIsolated = .auto,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (_ object: Object, _ error: Error) -> Void
    ) -> Promise<Value, Error> {
        _catch(on: context.context, with: object, token: token, isolation: onError.isolation, unisolated(onError))
    }

    /// `catch(on:with:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    @discardableResult
    public func `catch`<Object: AnyObject & Sendable>(
        on context: any PromiseContextConvertible,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (_ object: Object, _ error: Error) -> Void
    ) -> Promise<Value, Error> {
        _catch(on: context.promiseContext, with: object, token: token, isolation: nil, onError)
    }

    /// `catch(on:with:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    @discardableResult
    public func `catch`<Object: AnyObject & Sendable>(
        on context: PromiseContext.Named,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (_ object: Object, _ error: Error) -> Void
    ) -> Promise<Value, Error> {
        _catch(on: context.context, with: object, token: token, isolation: nil, onError)
    }

    /// `catch(on:with:token:_:)` with the callback's isolation taken apart: `onError` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _catch<Object: AnyObject & Sendable>(
        on context: PromiseContext,
        with object: Object,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onError: @escaping @Sendable (_ object: Object, _ error: Error) -> Void
    ) -> Promise<Value, Error> {
        register(on: context, token: token, trigger: .error, kind: .observer, isolation: isolation) { [weak object] result in
            if case .error(let error) = result, let object { onError(object, error) }
            return .resolve(result)
        }
    }

    /// Replaces an error with a value computed on `context` with `object`, if `object` is
    /// still alive; otherwise the returned promise is cancelled. Cancellation passes through.
    public func recover<Object: AnyObject & Sendable>(
        on context: PromiseContext.CallerIsolated,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (_ object: Object, _ error: Error) -> Value
    ) -> Promise<Value, NoError> {
        _recover(on: context.context, with: object, token: token, isolation: onError.isolation, unisolated(onError))
    }

    /// `recover(on:with:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func recover<Object: AnyObject & Sendable>(
        on context: any PromiseContextConvertible,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (_ object: Object, _ error: Error) -> Value
    ) -> Promise<Value, NoError> {
        _recover(on: context.promiseContext, with: object, token: token, isolation: nil, onError)
    }

    /// `recover(on:with:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func recover<Object: AnyObject & Sendable>(
        on context: PromiseContext.Named,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onError: @escaping @Sendable (_ object: Object, _ error: Error) -> Value
    ) -> Promise<Value, NoError> {
        _recover(on: context.context, with: object, token: token, isolation: nil, onError)
    }

    /// `recover(on:with:token:_:)` with the callback's isolation taken apart: `onError` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _recover<Object: AnyObject & Sendable>(
        on context: PromiseContext,
        with object: Object,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onError: @escaping @Sendable (_ object: Object, _ error: Error) -> Value
    ) -> Promise<Value, NoError> {
        register(on: context, token: token, trigger: .error, kind: .transformer, isolation: isolation) { [weak object] result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error):
                guard let object else { return .resolve(.cancelled) }
                return .resolve(.value(onError(object, error)))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }

    /// Runs `onComplete` on `context` with `object` and the result (including cancellation),
    /// if `object` is still alive. The returned promise takes this promise's result.
    @discardableResult
    public func always<Object: AnyObject & Sendable>(
        on context: PromiseContext.CallerIsolated = .auto,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (_ object: Object, _ result: PromiseResult<Value, Error>) -> Void
    ) -> Promise<Value, Error> {
        _always(on: context.context, with: object, token: token, isolation: onComplete.isolation, unisolated(onComplete))
    }

    /// `always(on:with:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    @discardableResult
    public func always<Object: AnyObject & Sendable>(
        on context: any PromiseContextConvertible,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (_ object: Object, _ result: PromiseResult<Value, Error>) -> Void
    ) -> Promise<Value, Error> {
        _always(on: context.promiseContext, with: object, token: token, isolation: nil, onComplete)
    }

    /// `always(on:with:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    @discardableResult
    public func always<Object: AnyObject & Sendable>(
        on context: PromiseContext.Named,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (_ object: Object, _ result: PromiseResult<Value, Error>) -> Void
    ) -> Promise<Value, Error> {
        _always(on: context.context, with: object, token: token, isolation: nil, onComplete)
    }

    /// `always(on:with:token:_:)` with the callback's isolation taken apart: `onComplete` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _always<Object: AnyObject & Sendable>(
        on context: PromiseContext,
        with object: Object,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onComplete: @escaping @Sendable (_ object: Object, _ result: PromiseResult<Value, Error>) -> Void
    ) -> Promise<Value, Error> {
        register(on: context, token: token, trigger: .all, kind: .observer, isolation: isolation) { [weak object] result in
            if let object { onComplete(object, result) }
            return .resolve(result)
        }
    }

    /// Transforms the result on `context` with `object`, if `object` is still alive;
    /// otherwise the returned promise is cancelled.
    public func mapResult<T, E, Object: AnyObject & Sendable>(
        on context: PromiseContext.CallerIsolated,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (_ object: Object, _ result: PromiseResult<Value, Error>) -> PromiseResult<T, E>
    ) -> Promise<T, E> {
        _mapResult(on: context.context, with: object, token: token, isolation: onComplete.isolation, unisolated(onComplete))
    }

    /// `mapResult(on:with:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func mapResult<T, E, Object: AnyObject & Sendable>(
        on context: any PromiseContextConvertible,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (_ object: Object, _ result: PromiseResult<Value, Error>) -> PromiseResult<T, E>
    ) -> Promise<T, E> {
        _mapResult(on: context.promiseContext, with: object, token: token, isolation: nil, onComplete)
    }

    /// `mapResult(on:with:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func mapResult<T, E, Object: AnyObject & Sendable>(
        on context: PromiseContext.Named,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (_ object: Object, _ result: PromiseResult<Value, Error>) -> PromiseResult<T, E>
    ) -> Promise<T, E> {
        _mapResult(on: context.context, with: object, token: token, isolation: nil, onComplete)
    }

    /// `mapResult(on:with:token:_:)` with the callback's isolation taken apart: `onComplete` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _mapResult<T, E, Object: AnyObject & Sendable>(
        on context: PromiseContext,
        with object: Object,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onComplete: @escaping @Sendable (_ object: Object, _ result: PromiseResult<Value, Error>) -> PromiseResult<T, E>
    ) -> Promise<T, E> {
        register(on: context, token: token, trigger: .all, kind: .transformer, isolation: isolation) { [weak object] result in
            guard let object else { return .resolve(.cancelled) }
            return .resolve(onComplete(object, result))
        }
    }

    /// Replaces the result with the eventual result of the promise `onComplete` returns, if
    /// `object` is still alive; otherwise the returned promise is cancelled.
    public func flatMapResult<T, E, Object: AnyObject & Sendable>(
        on context: PromiseContext.CallerIsolated,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (_ object: Object, _ result: PromiseResult<Value, Error>) -> Promise<T, E>
    ) -> Promise<T, E> {
        _flatMapResult(on: context.context, with: object, token: token, isolation: onComplete.isolation, unisolated(onComplete))
    }

    /// `flatMapResult(on:with:token:_:)` with a context held in a value (a `PromiseContext`
    /// property or parameter, `PromiseContext.x`, a conditional): `onComplete` is nonisolated and
    /// runs on the context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func flatMapResult<T, E, Object: AnyObject & Sendable>(
        on context: any PromiseContextConvertible,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (_ object: Object, _ result: PromiseResult<Value, Error>) -> Promise<T, E>
    ) -> Promise<T, E> {
        _flatMapResult(on: context.promiseContext, with: object, token: token, isolation: nil, onComplete)
    }

    /// `flatMapResult(on:with:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func flatMapResult<T, E, Object: AnyObject & Sendable>(
        on context: PromiseContext.Named,
        with object: Object,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (_ object: Object, _ result: PromiseResult<Value, Error>) -> Promise<T, E>
    ) -> Promise<T, E> {
        _flatMapResult(on: context.context, with: object, token: token, isolation: nil, onComplete)
    }

    /// `flatMapResult(on:with:token:_:)` with the callback's isolation taken apart: `onComplete` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _flatMapResult<T, E, Object: AnyObject & Sendable>(
        on context: PromiseContext,
        with object: Object,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onComplete: @escaping @Sendable (_ object: Object, _ result: PromiseResult<Value, Error>) -> Promise<T, E>
    ) -> Promise<T, E> {
        register(on: context, token: token, trigger: .all, kind: .transformer, isolation: isolation) { [weak object] result in
            guard let object else { return .resolve(.cancelled) }
            return .adopt(onComplete(object, result))
        }
    }
}
