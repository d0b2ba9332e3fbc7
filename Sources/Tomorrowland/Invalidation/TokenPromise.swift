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

    /// Registers `then` with the token.
    public func then(on context: PromiseContext = .auto, @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) -> Void) -> TokenPromise<Value, Error> {
        wrap(inner.then(on: context, token: token, onSuccess))
    }

    /// Registers `map` with the token.
    public func map<U>(on context: PromiseContext, @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) -> U) -> TokenPromise<U, Error> {
        wrap(inner.map(on: context, token: token, onSuccess))
    }

    /// Registers `flatMap` with the token.
    public func flatMap<U>(on context: PromiseContext, @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) -> Promise<U, Error>) -> TokenPromise<U, Error> {
        wrap(inner.flatMap(on: context, token: token, onSuccess))
    }

    /// Registers `catch` with the token.
    @discardableResult
    public func `catch`(on context: PromiseContext = .auto, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> Void) -> TokenPromise<Value, Error> {
        wrap(inner.catch(on: context, token: token, onError))
    }

    /// Registers `recover` with the token.
    public func recover(on context: PromiseContext, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> Value) -> TokenPromise<Value, NoError> {
        wrap(inner.recover(on: context, token: token, onError))
    }

    /// Registers `mapError` with the token.
    ///
    /// Tomorrowland 1.x forgot to pass the token here, so the callback ran even after
    /// invalidation; this package passes it, like every other method.
    public func mapError<E>(on context: PromiseContext, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> E) -> TokenPromise<Value, E> {
        wrap(inner.mapError(on: context, token: token, onError))
    }

    /// Registers `flatMapError` with the token.
    public func flatMapError<E>(on context: PromiseContext, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) -> Promise<Value, E>) -> TokenPromise<Value, E> {
        wrap(inner.flatMapError(on: context, token: token, onError))
    }

    /// Registers `tryMapError` with the token.
    public func tryMapError<E: Swift.Error>(on context: PromiseContext, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) throws -> E) -> TokenPromise<Value, Swift.Error> {
        wrap(inner.tryMapError(on: context, token: token, onError))
    }

    /// Registers `tryFlatMapError` with the token.
    public func tryFlatMapError<E: Swift.Error>(on context: PromiseContext, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) throws -> Promise<Value, E>) -> TokenPromise<Value, Swift.Error> {
        wrap(inner.tryFlatMapError(on: context, token: token, onError))
    }

    /// Registers `always` with the token.
    @discardableResult
    public func always(on context: PromiseContext = .auto, @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Void) -> TokenPromise<Value, Error> {
        wrap(inner.always(on: context, token: token, onComplete))
    }

    /// Registers `mapResult` with the token. (The `onComplete:` label matches Tomorrowland 1.x.)
    public func mapResult<T, E>(on context: PromiseContext, @_inheritActorContext onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> PromiseResult<T, E>) -> TokenPromise<T, E> {
        wrap(inner.mapResult(on: context, token: token, onComplete))
    }

    /// Registers `flatMapResult` with the token.
    public func flatMapResult<T, E>(on context: PromiseContext, @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Promise<T, E>) -> TokenPromise<T, E> {
        wrap(inner.flatMapResult(on: context, token: token, onComplete))
    }

    /// Registers `tryMapResult` with the token.
    public func tryMapResult<T, E: Swift.Error>(on context: PromiseContext, @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) throws -> PromiseResult<T, E>) -> TokenPromise<T, Swift.Error> {
        wrap(inner.tryMapResult(on: context, token: token, onComplete))
    }

    /// Registers `tryFlatMapResult` with the token.
    public func tryFlatMapResult<T, E: Swift.Error>(on context: PromiseContext, @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) throws -> Promise<T, E>) -> TokenPromise<T, Swift.Error> {
        wrap(inner.tryFlatMapResult(on: context, token: token, onComplete))
    }

    /// Registers `tap` with the token. Returns `self` (so an initial `withToken` wrapper
    /// stays one); `tap` itself is never registered for cancellation.
    @discardableResult
    public func tap(on context: PromiseContext = .auto, @_inheritActorContext _ onComplete: @escaping @isolated(any) @Sendable (PromiseResult<Value, Error>) -> Void) -> TokenPromise<Value, Error> {
        _ = inner.tap(on: context, token: token, onComplete)
        return self
    }

    /// Registers `onCancel` with the token.
    @discardableResult
    public func onCancel(on context: PromiseContext = .auto, @_inheritActorContext _ onCancel: @escaping @isolated(any) @Sendable () -> Void) -> TokenPromise<Value, Error> {
        wrap(inner.onCancel(on: context, token: token, onCancel))
    }

    /// `tap()` on the wrapped promise, with the same token. Never registered for cancellation.
    public func tap() -> TokenPromise<Value, Error> {
        wrap(inner.tap(), register: false)
    }

    /// `ignoringCancel()` on the wrapped promise, with the same token. Never registered.
    public func ignoringCancel() -> TokenPromise<Value, Error> {
        wrap(inner.ignoringCancel(), register: false)
    }

    /// Passes the wrapper to `handler` and returns it.
    public func fork(_ handler: (TokenPromise) throws -> Void) rethrows -> TokenPromise {
        try handler(self)
        return self
    }
}

extension TokenPromise: Sendable where Value: Sendable, Error: Sendable {}

extension TokenPromise where Error == Swift.Error {
    /// Registers `tryThen` with the token.
    public func tryThen(on context: PromiseContext = .auto, @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) throws -> Void) -> TokenPromise<Value, Error> {
        wrap(inner.tryThen(on: context, token: token, onSuccess))
    }

    /// Registers `tryMap` with the token.
    public func tryMap<U>(on context: PromiseContext, @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) throws -> U) -> TokenPromise<U, Error> {
        wrap(inner.tryMap(on: context, token: token, onSuccess))
    }

    /// Registers `tryFlatMap` with the token.
    public func tryFlatMap<U, E: Swift.Error>(on context: PromiseContext, @_inheritActorContext _ onSuccess: @escaping @isolated(any) @Sendable (Value) throws -> Promise<U, E>) -> TokenPromise<U, Error> {
        wrap(inner.tryFlatMap(on: context, token: token, onSuccess))
    }

    /// Registers `tryRecover` with the token.
    public func tryRecover(on context: PromiseContext, @_inheritActorContext _ onError: @escaping @isolated(any) @Sendable (Error) throws -> Value) -> TokenPromise<Value, Error> {
        wrap(inner.tryRecover(on: context, token: token, onError))
    }
}
