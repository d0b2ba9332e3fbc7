// Operators on the whole result: always, mapResult, flatMapResult and throwing variants.

extension Promise {
    /// Runs `onComplete` on `context` with the result, whatever it is (including
    /// cancelled).
    ///
    /// Returns a promise with the same result, resolved after `onComplete` returns.
    ///
    /// - Parameters:
    ///   - context: Where `onComplete` runs (see `PromiseContext`). The default, `.auto`,
    ///     is evaluated now: `.main` on the main queue or main actor, else `.default`.
    ///   - token: Checked when `onComplete` would run: if it has been invalidated since this call (not
    ///     before it), `onComplete` is skipped and the returned promise takes this promise's
    ///     result.
    ///   - onComplete: Called with the result. Released on `context` right after it runs.
    /// - Returns: A new promise with this promise's result; a child of this promise for
    ///   cancellation propagation (rule 5).
    @inlinable @discardableResult
    public func always(
        on context: PromiseContext.CallerIsolated = .auto,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Void
    ) -> Promise<Value, Error> {
        register(AlwaysBox(context: context.context, token: token, callback: onComplete))
    }

    /// `always(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    @inlinable @discardableResult
    public func always(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> Void
    ) -> Promise<Value, Error> {
        register(AlwaysBox(context: context.promiseContext, token: token, nonisolated: onComplete))
    }

    /// `always(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    @inlinable @discardableResult
    public func always(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> Void
    ) -> Promise<Value, Error> {
        register(AlwaysBox(context: context.context, token: token, nonisolated: onComplete))
    }

    /// Transforms the result, whatever it is (including cancelled).
    ///
    /// - Parameters:
    ///   - context: Where `onComplete` runs (see `PromiseContext`).
    ///   - token: Checked when `onComplete` would run: if it has been invalidated since this call (not
    ///     before it), `onComplete` is skipped and the returned promise is cancelled.
    ///   - onComplete: Called with the result; what it returns resolves the returned
    ///     promise (it may turn a value into an error, an error into a value, or either
    ///     into `.cancelled`).
    /// - Returns: A promise of the transformed result; a child of this promise for
    ///   cancellation propagation.
    public func mapResult<T, E>(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> PromiseResult<T, E>
    ) -> Promise<T, E> {
        _mapResult(on: context.context, token: token, isolation: onComplete.isolation, unisolated(onComplete))
    }

    /// `mapResult(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func mapResult<T, E>(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> PromiseResult<T, E>
    ) -> Promise<T, E> {
        _mapResult(on: context.promiseContext, token: token, isolation: nil, onComplete)
    }

    /// `mapResult(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func mapResult<T, E>(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> PromiseResult<T, E>
    ) -> Promise<T, E> {
        _mapResult(on: context.context, token: token, isolation: nil, onComplete)
    }

    /// `mapResult(on:token:_:)` with the callback's isolation taken apart: `onComplete` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _mapResult<T, E>(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> PromiseResult<T, E>
    ) -> Promise<T, E> {
        register(on: context, token: token, trigger: .all, kind: .transformer, isolation: isolation) { result in
            .resolve(onComplete(result))
        }
    }

    /// Replaces the result with the eventual result of the promise `onComplete` returns.
    ///
    /// - Parameters:
    ///   - context: Where `onComplete` runs (see `PromiseContext`).
    ///   - token: Checked when `onComplete` would run: if it has been invalidated since this call (not
    ///     before it), `onComplete` is skipped and the returned promise is cancelled.
    ///   - onComplete: Called with the result, whatever it is; returns the promise to
    ///     adopt, without a context hop (rule 27).
    /// - Returns: A promise of the adopted promise's result. Its cancel requests go to this
    ///   promise until `onComplete` has run, then to the adopted one.
    public func flatMapResult<T, E>(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Promise<T, E>
    ) -> Promise<T, E> {
        _flatMapResult(on: context.context, token: token, isolation: onComplete.isolation, unisolated(onComplete))
    }

    /// `flatMapResult(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func flatMapResult<T, E>(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> Promise<T, E>
    ) -> Promise<T, E> {
        _flatMapResult(on: context.promiseContext, token: token, isolation: nil, onComplete)
    }

    /// `flatMapResult(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func flatMapResult<T, E>(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> Promise<T, E>
    ) -> Promise<T, E> {
        _flatMapResult(on: context.context, token: token, isolation: nil, onComplete)
    }

    /// `flatMapResult(on:token:_:)` with the callback's isolation taken apart: `onComplete` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _flatMapResult<T, E>(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> Promise<T, E>
    ) -> Promise<T, E> {
        register(on: context, token: token, trigger: .all, kind: .transformer, isolation: isolation) { result in
            .adopt(onComplete(result))
        }
    }

    /// Transforms the result with a throwing function; a thrown error rejects.
    ///
    /// - Parameters:
    ///   - context: Where `onComplete` runs (see `PromiseContext`).
    ///   - token: Checked when `onComplete` would run: if it has been invalidated since this call (not
    ///     before it), `onComplete` is skipped and the returned promise is cancelled.
    ///   - onComplete: Called with the result, whatever it is; what it returns resolves the
    ///     returned promise (its error upcast to `Swift.Error`), an error it throws rejects
    ///     it.
    /// - Returns: A promise of the transformed result; a child of this promise for
    ///   cancellation propagation.
    public func tryMapResult<T, E: Swift.Error>(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) throws -> PromiseResult<T, E>
    ) -> Promise<T, Swift.Error> {
        _tryMapResult(on: context.context, token: token, isolation: onComplete.isolation, unisolated(onComplete))
    }

    /// `tryMapResult(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryMapResult<T, E: Swift.Error>(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) throws -> PromiseResult<T, E>
    ) -> Promise<T, Swift.Error> {
        _tryMapResult(on: context.promiseContext, token: token, isolation: nil, onComplete)
    }

    /// `tryMapResult(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryMapResult<T, E: Swift.Error>(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) throws -> PromiseResult<T, E>
    ) -> Promise<T, Swift.Error> {
        _tryMapResult(on: context.context, token: token, isolation: nil, onComplete)
    }

    /// `tryMapResult(on:token:_:)` with the callback's isolation taken apart: `onComplete` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _tryMapResult<T, E: Swift.Error>(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) throws -> PromiseResult<T, E>
    ) -> Promise<T, Swift.Error> {
        register(on: context, token: token, trigger: .all, kind: .transformer, isolation: isolation) { result in
            do { return .resolve(try onComplete(result).mapError { $0 as Swift.Error }) } catch { return .resolve(.error(error)) }
        }
    }

    /// Replaces the result with the eventual result of the promise a throwing `onComplete`
    /// returns; a thrown error rejects.
    ///
    /// - Parameters:
    ///   - context: Where `onComplete` runs (see `PromiseContext`).
    ///   - token: Checked when `onComplete` would run: if it has been invalidated since this call (not
    ///     before it), `onComplete` is skipped and the returned promise is cancelled.
    ///   - onComplete: Called with the result, whatever it is; returns the promise to adopt
    ///     (without a context hop, rule 27), or throws to reject the returned promise.
    /// - Returns: A promise of the adopted promise's result, its error upcast to
    ///   `Swift.Error`. Its cancel requests go to this promise until `onComplete` has run,
    ///   then to the adopted one.
    public func tryFlatMapResult<T, E: Swift.Error>(
        on context: PromiseContext.CallerIsolated,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) throws -> Promise<T, E>
    ) -> Promise<T, Swift.Error> {
        _tryFlatMapResult(on: context.context, token: token, isolation: onComplete.isolation, unisolated(onComplete))
    }

    /// `tryFlatMapResult(on:token:_:)` with a context held in a value (a `PromiseContext` property
    /// or parameter, `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on
    /// the context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryFlatMapResult<T, E: Swift.Error>(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) throws -> Promise<T, E>
    ) -> Promise<T, Swift.Error> {
        _tryFlatMapResult(on: context.promiseContext, token: token, isolation: nil, onComplete)
    }

    /// `tryFlatMapResult(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryFlatMapResult<T, E: Swift.Error>(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) throws -> Promise<T, E>
    ) -> Promise<T, Swift.Error> {
        _tryFlatMapResult(on: context.context, token: token, isolation: nil, onComplete)
    }

    /// `tryFlatMapResult(on:token:_:)` with the callback's isolation taken apart: `onComplete` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _tryFlatMapResult<T, E: Swift.Error>(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) throws -> Promise<T, E>
    ) -> Promise<T, Swift.Error> {
        register(on: context, token: token, trigger: .all, kind: .transformer, isolation: isolation) { result in
            do { return .adopt(try onComplete(result).upcast) } catch { return .resolve(.error(error)) }
        }
    }

    /// Runs `onComplete` with the result without taking part in cancellation propagation.
    ///
    /// Returns **this** promise (not a child), so it can be inserted into a chain without
    /// affecting it. With an invalidated `token` the callback is skipped.
    ///
    /// - Parameters:
    ///   - context: Where `onComplete` runs (see `PromiseContext`). The default, `.auto`,
    ///     is evaluated now: `.main` on the main queue or main actor, else `.default`.
    ///   - token: Checked when `onComplete` would run: if it has been invalidated since this call (not
    ///     before it), `onComplete` is skipped.
    ///   - onComplete: Called with the result, whatever it is. Released on `context` right
    ///     after it runs.
    /// - Returns: `self`. The callback neither blocks nor triggers automatic cancellation
    ///   of this promise (rule 7).
    @inlinable @discardableResult
    public func tap(
        on context: PromiseContext.CallerIsolated = .auto,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Void
    ) -> Promise<Value, Error> {
        registerUnheld(AlwaysBox(context: context.context, token: token, callback: onComplete))
        return self
    }

    /// `tap(on:token:_:)` with a context held in a value (a `PromiseContext` property or parameter,
    /// `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on the context the
    /// value holds, as with a named context and as in Tomorrowland 1.x.
    @inlinable @discardableResult
    public func tap(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> Void
    ) -> Promise<Value, Error> {
        registerUnheld(AlwaysBox(context: context.promiseContext, token: token, nonisolated: onComplete))
        return self
    }

    /// `tap(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    @inlinable @discardableResult
    public func tap(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> Void
    ) -> Promise<Value, Error> {
        registerUnheld(AlwaysBox(context: context.context, token: token, nonisolated: onComplete))
        return self
    }

    /// Returns a new promise with the same result that is not an observer of this one: it
    /// neither blocks nor triggers cancellation propagation, and cancel requests on it are
    /// not passed on.
    ///
    /// - Returns: A promise that takes this promise's result (rule 7).
    public func tap() -> Promise<Value, Error> {
        registerPassthrough(link: .none)
    }

    /// Runs `onCancel` on `context` if the promise is cancelled.
    ///
    /// Returns a promise with the same result. It does not block propagation when this
    /// promise has other children; if it is asked to cancel it counts as one child that has
    /// requested cancellation (rule 7).
    ///
    /// - Parameters:
    ///   - context: Where `onCancel` runs (see `PromiseContext`). The default, `.auto`, is
    ///     evaluated now: `.main` on the main queue or main actor, else `.default`.
    ///   - token: Checked when `onCancel` would run: if it has been invalidated since this call (not
    ///     before it), `onCancel` is skipped and the returned promise takes this promise's
    ///     result.
    ///   - onCancel: Called when the promise is cancelled; not called on fulfilment or
    ///     rejection. Released on `context` right after it runs, or when the promise
    ///     resolves without calling it.
    /// - Returns: A new promise with this promise's result.
    @discardableResult
    public func onCancel(
        on context: PromiseContext.CallerIsolated = .auto,
        token: PromiseInvalidationToken? = nil,
        @_inheritActorContext _ onCancel: @escaping @isolated(any) @Sendable () -> Void
    ) -> Promise<Value, Error> {
        _onCancel(on: context.context, token: token, isolation: onCancel.isolation, unisolated(onCancel))
    }

    /// `onCancel(on:token:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onCancel` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    @discardableResult
    public func onCancel(
        on context: any PromiseContextConvertible,
        token: PromiseInvalidationToken? = nil,
        _ onCancel: @escaping @Sendable () -> Void
    ) -> Promise<Value, Error> {
        _onCancel(on: context.promiseContext, token: token, isolation: nil, onCancel)
    }

    /// `onCancel(on:token:_:)` with a named context (`.utility`, `.queue(q)`, …): `onCancel` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    @discardableResult
    public func onCancel(
        on context: PromiseContext.Named,
        token: PromiseInvalidationToken? = nil,
        _ onCancel: @escaping @Sendable () -> Void
    ) -> Promise<Value, Error> {
        _onCancel(on: context.context, token: token, isolation: nil, onCancel)
    }

    /// `onCancel(on:token:_:)` with the callback's isolation taken apart: `onCancel` may
    /// only run on `isolation` (anywhere if it is `nil`).
    func _onCancel(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        isolation: (any Actor)?,
        _ onCancel: @escaping @Sendable () -> Void
    ) -> Promise<Value, Error> {
        register(on: context, token: token, trigger: .cancelled, kind: .observer, link: .onlyWhenCancelled, isolation: isolation) { result in
            if case .cancelled = result { onCancel() }
            return .resolve(result)
        }
    }
}

/// `always` and `tap(on:)`: calls the callback with the result and passes it through.
@usableFromInline
final class AlwaysBox<Value, Error>: ChildBox<Value, Error, Value, Error, StoredVoidCallback<PromiseResult<Value, Error>>>, @unchecked Sendable {
    @inlinable
    convenience init(
        context: PromiseContext,
        token: PromiseInvalidationToken?,
        callback: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Void
    ) {
        self.init(context: context, token: token, isolation: callback.isolation, stored: StoredVoidCallback(isolated: callback))
    }

    /// A nonisolated callback: stored as it is, no `@isolated(any)` context to take apart.
    @inlinable
    convenience init(
        context: PromiseContext,
        token: PromiseInvalidationToken?,
        nonisolated callback: @escaping @Sendable (PromiseResult<Value, Error>) -> Void
    ) {
        self.init(context: context, token: token, isolation: nil, stored: StoredVoidCallback(callback))
    }

    @inlinable
    init(context: PromiseContext, token: PromiseInvalidationToken?, isolation: (any Actor)?, stored: StoredVoidCallback<PromiseResult<Value, Error>>) {
        super.init(context: context, token: token, trigger: .all, kind: .observer, isolation: isolation, callback: stored) { child, upstream, phase in
            let box = unsafeDowncast(child, to: AlwaysBox<Value, Error>.self)
            let borrowed = Unmanaged.passUnretained(box)
            box.handle(upstream, phase) { result in borrowed._withUnsafeGuaranteedRef { $0.step(result) } }
        }
    }

    @inlinable
    func step(_ result: ParentResult) -> Step<Value, Error> {
        let callback = self.callback.take()
        callback(result)
        return .resolve(result)
    }
}
