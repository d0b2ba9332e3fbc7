// TokenPromise: a promise wrapper that applies one invalidation token to every callback. Its
// operators are generated into Generated/TokenPromise+Callbacks.swift (from the callback API
// table, Generator/Sources/CallbackAPI/Table.swift); they call `wrap`.

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
    func wrap<V, E>(_ promise: Promise<V, E>, register: Bool = true) -> TokenPromise<V, E> {
        if register && registersChildren { token.requestCancelOnInvalidate(promise) }
        return TokenPromise<V, E>(promise: promise, token: token)
    }

    /// Wrappers are equal when they wrap the same promise with the same token.
    public static func == (lhs: TokenPromise, rhs: TokenPromise) -> Bool {
        lhs.inner == rhs.inner && lhs.token == rhs.token
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

