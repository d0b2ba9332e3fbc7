// TokenPromise: a promise wrapper that applies one invalidation token to every callback.

/// Wraps a promise so that every callback registered through it uses `token`.
///
/// Created by `Promise.withToken(_:)`. The promises returned directly by that initial
/// wrapper's methods are registered with `token.requestCancelOnInvalidate(_:)`, so
/// invalidating the token both suppresses the callbacks and requests cancellation of the
/// chain. Wrappers returned by those methods (grandchildren) are not registered (their
/// cancellation propagates through their parents), nor are `tap()`, `tap(on:_:)` and
/// `ignoringCancel()`.
public struct TokenPromise<Value, Error>: Equatable {
    /// The wrapped promise.
    public let inner: Promise<Value, Error>
    /// The token applied to every callback.
    public let token: PromiseInvalidationToken
    private let registersChildren: Bool

    /// Wraps `promise` with `token`. Returned promises are not registered for cancellation;
    /// use `Promise.withToken(_:)` for that.
    public init(promise: Promise<Value, Error>, token: PromiseInvalidationToken) {
        self.init(promise: promise, token: token, registersChildren: false)
    }

    init(promise: Promise<Value, Error>, token: PromiseInvalidationToken, registersChildren: Bool) {
        self.inner = promise
        self.token = token
        self.registersChildren = registersChildren
    }

    /// Wraps a promise returned by one of the methods, registering it if this is the
    /// initial wrapper.
    private func wrap<V, E>(_ promise: Promise<V, E>, register: Bool = true) -> TokenPromise<V, E> {
        if register && registersChildren { token.requestCancelOnInvalidate(promise) }
        return TokenPromise<V, E>(promise: promise, token: token)
    }

    /// Wrappers are equal when they wrap the same promise with the same token.
    public static func == (lhs: TokenPromise, rhs: TokenPromise) -> Bool {
        lhs.inner == rhs.inner && lhs.token == rhs.token
    }

    /// `Promise.then(on:token:_:)` with the wrapper's token: runs `onSuccess` on `context`
    /// when the promise is fulfilled, unless the token was invalidated after this call.
    ///
    /// - Parameters:
    ///   - context: Where `onSuccess` runs (see `PromiseContext`). The default, `.auto`, is
    ///     evaluated now: `.main` on the main queue or main actor, else `.default`.
    ///   - onSuccess: Called with the value.
    /// - Returns: A promise with this promise's result, wrapped with the same token. From
    ///   the initial `withToken(_:)` wrapper, that promise is also asked to cancel when the
    ///   token is invalidated (rule 29).
    public func then(
        on context: PromiseContext.CallerIsolated = .auto,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) -> Void
    ) -> TokenPromise<Value, Error> {
        wrap(inner.then(on: context, token: token, onSuccess))
    }

    /// `then(on:_:)` with a context held in a value (a `PromiseContext` property or parameter,
    /// `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the context the
    /// value holds, as with a named context and as in Tomorrowland 1.x.
    public func then(on context: any PromiseContextConvertible, _ onSuccess: @escaping @Sendable (Value) -> Void) -> TokenPromise<Value, Error> {
        wrap(inner.then(on: context, token: token, onSuccess))
    }

    /// `then(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func then(on context: PromiseContext.Named, _ onSuccess: @escaping @Sendable (Value) -> Void) -> TokenPromise<Value, Error> {
        wrap(inner.then(on: context, token: token, onSuccess))
    }

    /// `Promise.map(on:token:_:)` with the wrapper's token: transforms the value on
    /// `context`; if the token was invalidated after this call, the returned promise is cancelled
    /// instead.
    ///
    /// - Parameters:
    ///   - context: Where `onSuccess` runs (see `PromiseContext`).
    ///   - onSuccess: Called with the value; what it returns fulfils the returned promise.
    /// - Returns: A promise of the transformed value, wrapped with the same token. From the
    ///   initial `withToken(_:)` wrapper, that promise is also asked to cancel when the
    ///   token is invalidated (rule 29).
    public func map<U>(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) -> U
    ) -> TokenPromise<U, Error> {
        wrap(inner.map(on: context, token: token, onSuccess))
    }

    /// `map(on:_:)` with a context held in a value (a `PromiseContext` property or parameter,
    /// `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the context the
    /// value holds, as with a named context and as in Tomorrowland 1.x.
    public func map<U>(on context: any PromiseContextConvertible, _ onSuccess: @escaping @Sendable (Value) -> U) -> TokenPromise<U, Error> {
        wrap(inner.map(on: context, token: token, onSuccess))
    }

    /// `map(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func map<U>(on context: PromiseContext.Named, _ onSuccess: @escaping @Sendable (Value) -> U) -> TokenPromise<U, Error> {
        wrap(inner.map(on: context, token: token, onSuccess))
    }

    /// `Promise.flatMap(on:token:_:)` with the wrapper's token: adopts the promise
    /// `onSuccess` returns; if the token was invalidated after this call, the returned promise is
    /// cancelled instead.
    ///
    /// - Parameters:
    ///   - context: Where `onSuccess` runs (see `PromiseContext`).
    ///   - onSuccess: Called with the value; returns the promise to adopt.
    /// - Returns: A promise of the adopted promise's result, wrapped with the same token.
    ///   From the initial `withToken(_:)` wrapper, that promise is also asked to cancel
    ///   when the token is invalidated (rule 29).
    public func flatMap<U>(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) -> Promise<U, Error>
    ) -> TokenPromise<U, Error> {
        wrap(inner.flatMap(on: context, token: token, onSuccess))
    }

    /// `flatMap(on:_:)` with a context held in a value (a `PromiseContext` property or parameter,
    /// `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the context the
    /// value holds, as with a named context and as in Tomorrowland 1.x.
    public func flatMap<U>(on context: any PromiseContextConvertible, _ onSuccess: @escaping @Sendable (Value) -> Promise<U, Error>) -> TokenPromise<U, Error> {
        wrap(inner.flatMap(on: context, token: token, onSuccess))
    }

    /// `flatMap(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func flatMap<U>(on context: PromiseContext.Named, _ onSuccess: @escaping @Sendable (Value) -> Promise<U, Error>) -> TokenPromise<U, Error> {
        wrap(inner.flatMap(on: context, token: token, onSuccess))
    }

    /// `Promise.catch(on:token:_:)` with the wrapper's token: runs `onError` on `context`
    /// when the promise is rejected, unless the token was invalidated after this call.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`). The default, `.auto`, is
    ///     evaluated now: `.main` on the main queue or main actor, else `.default`.
    ///   - onError: Called with the error.
    /// - Returns: A promise with this promise's result, wrapped with the same token. From
    ///   the initial `withToken(_:)` wrapper, that promise is also asked to cancel when the
    ///   token is invalidated (rule 29).
    @discardableResult
    public func `catch`(
        on context: PromiseContext.CallerIsolated = .auto,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> Void
    ) -> TokenPromise<Value, Error> {
        wrap(inner.catch(on: context, token: token, onError))
    }

    /// `catch(on:_:)` with a context held in a value (a `PromiseContext` property or parameter,
    /// `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the context the
    /// value holds, as with a named context and as in Tomorrowland 1.x.
    @discardableResult
    public func `catch`(on context: any PromiseContextConvertible, _ onError: @escaping @Sendable (Error) -> Void) -> TokenPromise<Value, Error> {
        wrap(inner.catch(on: context, token: token, onError))
    }

    /// `catch(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    @discardableResult
    public func `catch`(on context: PromiseContext.Named, _ onError: @escaping @Sendable (Error) -> Void) -> TokenPromise<Value, Error> {
        wrap(inner.catch(on: context, token: token, onError))
    }

    /// `Promise.recover(on:token:_:)` with the wrapper's token: replaces an error with a
    /// value; if the token was invalidated after this call, the returned promise is cancelled
    /// instead.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`).
    ///   - onError: Called with the error; what it returns fulfils the returned promise.
    /// - Returns: A promise that cannot be rejected, wrapped with the same token. From the
    ///   initial `withToken(_:)` wrapper, that promise is also asked to cancel when the
    ///   token is invalidated (rule 29).
    public func recover(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> Value
    ) -> TokenPromise<Value, NoError> {
        wrap(inner.recover(on: context, token: token, onError))
    }

    /// `recover(on:_:)` with a context held in a value (a `PromiseContext` property or parameter,
    /// `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the context the
    /// value holds, as with a named context and as in Tomorrowland 1.x.
    public func recover(on context: any PromiseContextConvertible, _ onError: @escaping @Sendable (Error) -> Value) -> TokenPromise<Value, NoError> {
        wrap(inner.recover(on: context, token: token, onError))
    }

    /// `recover(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func recover(on context: PromiseContext.Named, _ onError: @escaping @Sendable (Error) -> Value) -> TokenPromise<Value, NoError> {
        wrap(inner.recover(on: context, token: token, onError))
    }

    /// `Promise.mapError(on:token:_:)` with the wrapper's token: transforms the error on
    /// `context`; if the token was invalidated after this call, the returned promise is cancelled
    /// instead.
    ///
    /// Tomorrowland 1.x forgot to pass the token here, so the callback ran even after
    /// invalidation; this package passes it, like every other method.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`).
    ///   - onError: Called with the error; what it returns rejects the returned promise.
    /// - Returns: A promise with this promise's value or the transformed error, wrapped
    ///   with the same token. From the initial `withToken(_:)` wrapper, that promise is
    ///   also asked to cancel when the token is invalidated (rule 29).
    public func mapError<E>(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> E
    ) -> TokenPromise<Value, E> {
        wrap(inner.mapError(on: context, token: token, onError))
    }

    /// `mapError(on:_:)` with a context held in a value (a `PromiseContext` property or parameter,
    /// `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the context the
    /// value holds, as with a named context and as in Tomorrowland 1.x.
    public func mapError<E>(on context: any PromiseContextConvertible, _ onError: @escaping @Sendable (Error) -> E) -> TokenPromise<Value, E> {
        wrap(inner.mapError(on: context, token: token, onError))
    }

    /// `mapError(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func mapError<E>(on context: PromiseContext.Named, _ onError: @escaping @Sendable (Error) -> E) -> TokenPromise<Value, E> {
        wrap(inner.mapError(on: context, token: token, onError))
    }

    /// `Promise.flatMapError(on:token:_:)` with the wrapper's token: replaces an error with
    /// the result of the promise `onError` returns; if the token was invalidated after this call,
    /// the returned promise is cancelled instead.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`).
    ///   - onError: Called with the error; returns the promise to adopt.
    /// - Returns: A promise with this promise's value or the adopted promise's result,
    ///   wrapped with the same token. From the initial `withToken(_:)` wrapper, that
    ///   promise is also asked to cancel when the token is invalidated (rule 29).
    public func flatMapError<E>(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> Promise<Value, E>
    ) -> TokenPromise<Value, E> {
        wrap(inner.flatMapError(on: context, token: token, onError))
    }

    /// `flatMapError(on:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func flatMapError<E>(
        on context: any PromiseContextConvertible,
        _ onError: @escaping @Sendable (Error) -> Promise<Value, E>
    ) -> TokenPromise<Value, E> {
        wrap(inner.flatMapError(on: context, token: token, onError))
    }

    /// `flatMapError(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func flatMapError<E>(on context: PromiseContext.Named, _ onError: @escaping @Sendable (Error) -> Promise<Value, E>) -> TokenPromise<Value, E> {
        wrap(inner.flatMapError(on: context, token: token, onError))
    }

    /// `Promise.tryMapError(on:token:_:)` with the wrapper's token: what `onError` returns
    /// or throws becomes the error; if the token was invalidated after this call, the returned
    /// promise is cancelled instead.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`).
    ///   - onError: Called with the error; returns or throws the new error.
    /// - Returns: A promise with this promise's value or the new error, wrapped with the
    ///   same token. From the initial `withToken(_:)` wrapper, that promise is also asked
    ///   to cancel when the token is invalidated (rule 29).
    public func tryMapError<E: Swift.Error>(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) throws -> E
    ) -> TokenPromise<Value, Swift.Error> {
        wrap(inner.tryMapError(on: context, token: token, onError))
    }

    /// `tryMapError(on:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryMapError<E: Swift.Error>(
        on context: any PromiseContextConvertible,
        _ onError: @escaping @Sendable (Error) throws -> E
    ) -> TokenPromise<Value, Swift.Error> {
        wrap(inner.tryMapError(on: context, token: token, onError))
    }

    /// `tryMapError(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryMapError<E: Swift.Error>(
        on context: PromiseContext.Named,
        _ onError: @escaping @Sendable (Error) throws -> E
    ) -> TokenPromise<Value, Swift.Error> {
        wrap(inner.tryMapError(on: context, token: token, onError))
    }

    /// `Promise.tryFlatMapError(on:token:_:)` with the wrapper's token: replaces an error
    /// with the result of the promise `onError` returns, or with the error it throws; if
    /// the token was invalidated after this call, the returned promise is cancelled instead.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`).
    ///   - onError: Called with the error; returns the promise to adopt, or throws.
    /// - Returns: A promise with this promise's value or the adopted promise's result,
    ///   wrapped with the same token. From the initial `withToken(_:)` wrapper, that
    ///   promise is also asked to cancel when the token is invalidated (rule 29).
    public func tryFlatMapError<E: Swift.Error>(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) throws -> Promise<Value, E>
    ) -> TokenPromise<Value, Swift.Error> {
        wrap(inner.tryFlatMapError(on: context, token: token, onError))
    }

    /// `tryFlatMapError(on:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryFlatMapError<E: Swift.Error>(
        on context: any PromiseContextConvertible,
        _ onError: @escaping @Sendable (Error) throws -> Promise<Value, E>
    ) -> TokenPromise<Value, Swift.Error> {
        wrap(inner.tryFlatMapError(on: context, token: token, onError))
    }

    /// `tryFlatMapError(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryFlatMapError<E: Swift.Error>(
        on context: PromiseContext.Named,
        _ onError: @escaping @Sendable (Error) throws -> Promise<Value, E>
    ) -> TokenPromise<Value, Swift.Error> {
        wrap(inner.tryFlatMapError(on: context, token: token, onError))
    }

    /// `Promise.always(on:token:_:)` with the wrapper's token: runs `onComplete` on
    /// `context` with the result, whatever it is, unless the token was invalidated after this call.
    ///
    /// - Parameters:
    ///   - context: Where `onComplete` runs (see `PromiseContext`). The default, `.auto`,
    ///     is evaluated now: `.main` on the main queue or main actor, else `.default`.
    ///   - onComplete: Called with the result.
    /// - Returns: A promise with this promise's result, wrapped with the same token. From
    ///   the initial `withToken(_:)` wrapper, that promise is also asked to cancel when the
    ///   token is invalidated (rule 29).
    @discardableResult
    public func always(
        on context: PromiseContext.CallerIsolated = .auto,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Void
    ) -> TokenPromise<Value, Error> {
        wrap(inner.always(on: context, token: token, onComplete))
    }

    /// `always(on:_:)` with a context held in a value (a `PromiseContext` property or parameter,
    /// `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on the context the
    /// value holds, as with a named context and as in Tomorrowland 1.x.
    @discardableResult
    public func always(
        on context: any PromiseContextConvertible,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> Void
    ) -> TokenPromise<Value, Error> {
        wrap(inner.always(on: context, token: token, onComplete))
    }

    /// `always(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    @discardableResult
    public func always(
        on context: PromiseContext.Named,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> Void
    ) -> TokenPromise<Value, Error> {
        wrap(inner.always(on: context, token: token, onComplete))
    }

    /// `Promise.mapResult(on:token:_:)` with the wrapper's token: transforms the result; if
    /// the token was invalidated after this call, the returned promise is cancelled instead. (The
    /// `onComplete:` label matches Tomorrowland 1.x.)
    ///
    /// - Parameters:
    ///   - context: Where `onComplete` runs (see `PromiseContext`).
    ///   - onComplete: Called with the result; what it returns resolves the returned
    ///     promise.
    /// - Returns: A promise of the transformed result, wrapped with the same token. From
    ///   the initial `withToken(_:)` wrapper, that promise is also asked to cancel when the
    ///   token is invalidated (rule 29).
    public func mapResult<T, E>(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> PromiseResult<T, E>
    ) -> TokenPromise<T, E> {
        wrap(inner.mapResult(on: context, token: token, onComplete))
    }

    /// `mapResult(on:onComplete:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func mapResult<T, E>(
        on context: any PromiseContextConvertible,
        onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> PromiseResult<T, E>
    ) -> TokenPromise<T, E> {
        wrap(inner.mapResult(on: context, token: token, onComplete))
    }

    /// `mapResult(on:onComplete:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func mapResult<T, E>(
        on context: PromiseContext.Named,
        onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> PromiseResult<T, E>
    ) -> TokenPromise<T, E> {
        wrap(inner.mapResult(on: context, token: token, onComplete))
    }

    /// `Promise.flatMapResult(on:token:_:)` with the wrapper's token: adopts the promise
    /// `onComplete` returns; if the token was invalidated after this call, the returned promise is
    /// cancelled instead.
    ///
    /// - Parameters:
    ///   - context: Where `onComplete` runs (see `PromiseContext`).
    ///   - onComplete: Called with the result; returns the promise to adopt.
    /// - Returns: A promise of the adopted promise's result, wrapped with the same token.
    ///   From the initial `withToken(_:)` wrapper, that promise is also asked to cancel
    ///   when the token is invalidated (rule 29).
    public func flatMapResult<T, E>(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Promise<T, E>
    ) -> TokenPromise<T, E> {
        wrap(inner.flatMapResult(on: context, token: token, onComplete))
    }

    /// `flatMapResult(on:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func flatMapResult<T, E>(
        on context: any PromiseContextConvertible,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> Promise<T, E>
    ) -> TokenPromise<T, E> {
        wrap(inner.flatMapResult(on: context, token: token, onComplete))
    }

    /// `flatMapResult(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func flatMapResult<T, E>(
        on context: PromiseContext.Named,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> Promise<T, E>
    ) -> TokenPromise<T, E> {
        wrap(inner.flatMapResult(on: context, token: token, onComplete))
    }

    /// `Promise.tryMapResult(on:token:_:)` with the wrapper's token: transforms the result,
    /// or rejects with the error `onComplete` throws; if the token was invalidated after this call,
    /// the returned promise is cancelled instead.
    ///
    /// - Parameters:
    ///   - context: Where `onComplete` runs (see `PromiseContext`).
    ///   - onComplete: Called with the result; returns the new result, or throws.
    /// - Returns: A promise of the transformed result, wrapped with the same token. From
    ///   the initial `withToken(_:)` wrapper, that promise is also asked to cancel when the
    ///   token is invalidated (rule 29).
    public func tryMapResult<T, E: Swift.Error>(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) throws -> PromiseResult<T, E>
    ) -> TokenPromise<T, Swift.Error> {
        wrap(inner.tryMapResult(on: context, token: token, onComplete))
    }

    /// `tryMapResult(on:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryMapResult<T, E: Swift.Error>(
        on context: any PromiseContextConvertible,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) throws -> PromiseResult<T, E>
    ) -> TokenPromise<T, Swift.Error> {
        wrap(inner.tryMapResult(on: context, token: token, onComplete))
    }

    /// `tryMapResult(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryMapResult<T, E: Swift.Error>(
        on context: PromiseContext.Named,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) throws -> PromiseResult<T, E>
    ) -> TokenPromise<T, Swift.Error> {
        wrap(inner.tryMapResult(on: context, token: token, onComplete))
    }

    /// `Promise.tryFlatMapResult(on:token:_:)` with the wrapper's token: adopts the promise
    /// `onComplete` returns, or rejects with the error it throws; if the token was
    /// invalidated after this call, the returned promise is cancelled instead.
    ///
    /// - Parameters:
    ///   - context: Where `onComplete` runs (see `PromiseContext`).
    ///   - onComplete: Called with the result; returns the promise to adopt, or throws.
    /// - Returns: A promise of the adopted promise's result, wrapped with the same token.
    ///   From the initial `withToken(_:)` wrapper, that promise is also asked to cancel
    ///   when the token is invalidated (rule 29).
    public func tryFlatMapResult<T, E: Swift.Error>(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) throws -> Promise<T, E>
    ) -> TokenPromise<T, Swift.Error> {
        wrap(inner.tryFlatMapResult(on: context, token: token, onComplete))
    }

    /// `tryFlatMapResult(on:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryFlatMapResult<T, E: Swift.Error>(
        on context: any PromiseContextConvertible,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) throws -> Promise<T, E>
    ) -> TokenPromise<T, Swift.Error> {
        wrap(inner.tryFlatMapResult(on: context, token: token, onComplete))
    }

    /// `tryFlatMapResult(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryFlatMapResult<T, E: Swift.Error>(
        on context: PromiseContext.Named,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) throws -> Promise<T, E>
    ) -> TokenPromise<T, Swift.Error> {
        wrap(inner.tryFlatMapResult(on: context, token: token, onComplete))
    }

    /// Registers `tap` with the token. Returns `self` (so an initial `withToken` wrapper
    /// stays one); `tap` itself is never registered for cancellation.
    ///
    /// - Parameters:
    ///   - context: Where `onComplete` runs (see `PromiseContext`). The default, `.auto`,
    ///     is evaluated now: `.main` on the main queue or main actor, else `.default`.
    ///   - onComplete: Called with the result, whatever it is, unless the token was
    ///     invalidated after this call. It is not an observer for cancellation propagation (rule
    ///     7).
    /// - Returns: `self`.
    @discardableResult
    public func tap(
        on context: PromiseContext.CallerIsolated = .auto,
        @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Void
    ) -> TokenPromise<Value, Error> {
        _ = inner.tap(on: context, token: token, onComplete)
        return self
    }

    /// `tap(on:_:)` with a context held in a value (a `PromiseContext` property or parameter,
    /// `PromiseContext.x`, a conditional): `onComplete` is nonisolated and runs on the context the
    /// value holds, as with a named context and as in Tomorrowland 1.x.
    @discardableResult
    public func tap(
        on context: any PromiseContextConvertible,
        _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> Void
    ) -> TokenPromise<Value, Error> {
        _ = inner.tap(on: context, token: token, onComplete)
        return self
    }

    /// `tap(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onComplete` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    @discardableResult
    public func tap(on context: PromiseContext.Named, _ onComplete: @escaping @Sendable (PromiseResult<Value, Error>) -> Void) -> TokenPromise<Value, Error> {
        _ = inner.tap(on: context, token: token, onComplete)
        return self
    }

    /// `Promise.onCancel(on:token:_:)` with the wrapper's token: runs `onCancel` on
    /// `context` if the promise is cancelled, unless the token was invalidated after this call.
    ///
    /// - Parameters:
    ///   - context: Where `onCancel` runs (see `PromiseContext`). The default, `.auto`, is
    ///     evaluated now: `.main` on the main queue or main actor, else `.default`.
    ///   - onCancel: Called when the promise is cancelled.
    /// - Returns: A promise with this promise's result, wrapped with the same token. From
    ///   the initial `withToken(_:)` wrapper, that promise is also asked to cancel when the
    ///   token is invalidated (rule 29).
    @discardableResult
    public func onCancel(
        on context: PromiseContext.CallerIsolated = .auto,
        @_inheritActorContext _ onCancel: @escaping @isolated(any) @Sendable () -> Void
    ) -> TokenPromise<Value, Error> {
        wrap(inner.onCancel(on: context, token: token, onCancel))
    }

    /// `onCancel(on:_:)` with a context held in a value (a `PromiseContext` property or parameter,
    /// `PromiseContext.x`, a conditional): `onCancel` is nonisolated and runs on the context the
    /// value holds, as with a named context and as in Tomorrowland 1.x.
    @discardableResult
    public func onCancel(on context: any PromiseContextConvertible, _ onCancel: @escaping @Sendable () -> Void) -> TokenPromise<Value, Error> {
        wrap(inner.onCancel(on: context, token: token, onCancel))
    }

    /// `onCancel(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onCancel` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    @discardableResult
    public func onCancel(on context: PromiseContext.Named, _ onCancel: @escaping @Sendable () -> Void) -> TokenPromise<Value, Error> {
        wrap(inner.onCancel(on: context, token: token, onCancel))
    }

    /// `tap()` on the wrapped promise, with the same token. Never registered for
    /// cancellation.
    ///
    /// - Returns: A promise with this promise's result that is not an observer of it (rule
    ///   7), wrapped with the same token.
    public func tap() -> TokenPromise<Value, Error> {
        wrap(inner.tap(), register: false)
    }

    /// `ignoringCancel()` on the wrapped promise, with the same token. Never registered.
    ///
    /// - Returns: A promise with this promise's result that never passes cancel requests on
    ///   and keeps this promise from being cancelled automatically (rule 7), wrapped with
    ///   the same token.
    public func ignoringCancel() -> TokenPromise<Value, Error> {
        wrap(inner.ignoringCancel(), register: false)
    }

    /// Passes the wrapper to `handler` and returns it, to split a chain in two:
    /// `promise.withToken(token).fork { $0.then { … } }.catch { … }`.
    ///
    /// - Parameter handler: Called at once, on the calling thread, with `self`.
    /// - Returns: `self`.
    public func fork(_ handler: (TokenPromise) throws -> Void) rethrows -> TokenPromise {
        try handler(self)
        return self
    }
}

extension TokenPromise: Sendable where Value: Sendable, Error: Sendable {}

extension TokenPromise where Error == Swift.Error {
    /// `Promise.tryThen(on:token:_:)` with the wrapper's token: runs `onSuccess` on
    /// `context` when the promise is fulfilled, unless the token was invalidated after this call;
    /// an error it throws rejects the returned promise.
    ///
    /// - Parameters:
    ///   - context: Where `onSuccess` runs (see `PromiseContext`). The default, `.auto`, is
    ///     evaluated now: `.main` on the main queue or main actor, else `.default`.
    ///   - onSuccess: Called with the value; may throw.
    /// - Returns: A promise with this promise's result or the thrown error, wrapped with
    ///   the same token. From the initial `withToken(_:)` wrapper, that promise is also
    ///   asked to cancel when the token is invalidated (rule 29).
    public func tryThen(
        on context: PromiseContext.CallerIsolated = .auto,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) throws -> Void
    ) -> TokenPromise<Value, Error> {
        wrap(inner.tryThen(on: context, token: token, onSuccess))
    }

    /// `tryThen(on:_:)` with a context held in a value (a `PromiseContext` property or parameter,
    /// `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the context the
    /// value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryThen(on context: any PromiseContextConvertible, _ onSuccess: @escaping @Sendable (Value) throws -> Void) -> TokenPromise<Value, Error> {
        wrap(inner.tryThen(on: context, token: token, onSuccess))
    }

    /// `tryThen(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryThen(on context: PromiseContext.Named, _ onSuccess: @escaping @Sendable (Value) throws -> Void) -> TokenPromise<Value, Error> {
        wrap(inner.tryThen(on: context, token: token, onSuccess))
    }

    /// `Promise.tryMap(on:token:_:)` with the wrapper's token: transforms the value, or
    /// rejects with the error `onSuccess` throws; if the token was invalidated after this call, the
    /// returned promise is cancelled instead.
    ///
    /// - Parameters:
    ///   - context: Where `onSuccess` runs (see `PromiseContext`).
    ///   - onSuccess: Called with the value; returns the new value, or throws.
    /// - Returns: A promise of the transformed value, wrapped with the same token. From the
    ///   initial `withToken(_:)` wrapper, that promise is also asked to cancel when the
    ///   token is invalidated (rule 29).
    public func tryMap<U>(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) throws -> U
    ) -> TokenPromise<U, Error> {
        wrap(inner.tryMap(on: context, token: token, onSuccess))
    }

    /// `tryMap(on:_:)` with a context held in a value (a `PromiseContext` property or parameter,
    /// `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the context the
    /// value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryMap<U>(on context: any PromiseContextConvertible, _ onSuccess: @escaping @Sendable (Value) throws -> U) -> TokenPromise<U, Error> {
        wrap(inner.tryMap(on: context, token: token, onSuccess))
    }

    /// `tryMap(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryMap<U>(on context: PromiseContext.Named, _ onSuccess: @escaping @Sendable (Value) throws -> U) -> TokenPromise<U, Error> {
        wrap(inner.tryMap(on: context, token: token, onSuccess))
    }

    /// `Promise.tryFlatMap(on:token:_:)` with the wrapper's token: adopts the promise
    /// `onSuccess` returns, or rejects with the error it throws; if the token was
    /// invalidated after this call, the returned promise is cancelled instead.
    ///
    /// - Parameters:
    ///   - context: Where `onSuccess` runs (see `PromiseContext`).
    ///   - onSuccess: Called with the value; returns the promise to adopt, or throws.
    /// - Returns: A promise of the adopted promise's result, wrapped with the same token.
    ///   From the initial `withToken(_:)` wrapper, that promise is also asked to cancel
    ///   when the token is invalidated (rule 29).
    public func tryFlatMap<U, E: Swift.Error>(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) throws -> Promise<U, E>
    ) -> TokenPromise<U, Error> {
        wrap(inner.tryFlatMap(on: context, token: token, onSuccess))
    }

    /// `tryFlatMap(on:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onSuccess` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryFlatMap<U, E: Swift.Error>(
        on context: any PromiseContextConvertible,
        _ onSuccess: @escaping @Sendable (Value) throws -> Promise<U, E>
    ) -> TokenPromise<U, Error> {
        wrap(inner.tryFlatMap(on: context, token: token, onSuccess))
    }

    /// `tryFlatMap(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onSuccess` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryFlatMap<U, E: Swift.Error>(
        on context: PromiseContext.Named,
        _ onSuccess: @escaping @Sendable (Value) throws -> Promise<U, E>
    ) -> TokenPromise<U, Error> {
        wrap(inner.tryFlatMap(on: context, token: token, onSuccess))
    }

    /// `Promise.tryRecover(on:token:_:)` with the wrapper's token: replaces an error with
    /// the value `onError` returns, or with the error it throws; if the token was
    /// invalidated after this call, the returned promise is cancelled instead.
    ///
    /// - Parameters:
    ///   - context: Where `onError` runs (see `PromiseContext`).
    ///   - onError: Called with the error; returns a value, or throws.
    /// - Returns: A promise with this promise's value, the recovered value or the thrown
    ///   error, wrapped with the same token. From the initial `withToken(_:)` wrapper, that
    ///   promise is also asked to cancel when the token is invalidated (rule 29).
    public func tryRecover(
        on context: PromiseContext.CallerIsolated,
        @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) throws -> Value
    ) -> TokenPromise<Value, Error> {
        wrap(inner.tryRecover(on: context, token: token, onError))
    }

    /// `tryRecover(on:_:)` with a context held in a value (a `PromiseContext` property or
    /// parameter, `PromiseContext.x`, a conditional): `onError` is nonisolated and runs on the
    /// context the value holds, as with a named context and as in Tomorrowland 1.x.
    public func tryRecover(on context: any PromiseContextConvertible, _ onError: @escaping @Sendable (Error) throws -> Value) -> TokenPromise<Value, Error> {
        wrap(inner.tryRecover(on: context, token: token, onError))
    }

    /// `tryRecover(on:_:)` with a named context (`.utility`, `.queue(q)`, …): `onError` is
    /// nonisolated and runs on that context, as in Tomorrowland 1.x.
    public func tryRecover(on context: PromiseContext.Named, _ onError: @escaping @Sendable (Error) throws -> Value) -> TokenPromise<Value, Error> {
        wrap(inner.tryRecover(on: context, token: token, onError))
    }
}
