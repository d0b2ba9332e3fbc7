// Promise.Resolver: the write side of a promise.

extension Promise {
    /// Resolves a promise: fulfil, reject or cancel, once. Later calls do nothing.
    ///
    /// Copies share one identity. When the last copy is released and the promise is still
    /// pending (and nothing else can resolve it), the promise is cancelled.
    ///
    /// **When callbacks run.** A resolution takes effect at once: `result` and
    /// `hasRequestedCancel` show it when the call returns, and callbacks registered later
    /// see a resolved promise. The callbacks already registered run (`.immediate`) or are
    /// dispatched to their contexts before the call returns, except when the call is made
    /// on a thread that is delivering another promise's callbacks, that is inside an
    /// `.immediate` callback (or code it runs synchronously): then they run right after
    /// that callback returns, before the callbacks registered after it. Resolution never
    /// nests, so a chain of any depth forwarded by hand resolves in constant stack. (1.4
    /// delivered nested: don't wait inside an `.immediate` callback for work that a
    /// resolution made there starts.)
    public struct Resolver {
        @usableFromInline let _handle: ResolverHandle<Value, Error>

        @usableFromInline
        init(handle: ResolverHandle<Value, Error>) {
            _handle = handle
        }

        @usableFromInline var _box: PromiseBox<Value, Error> { _handle.box }

        /// Fulfils the promise with `value`, unless it already resolved.
        ///
        /// - Parameter value: The value. Callbacks registered on the promise run or are
        ///   dispatched to their contexts as described under `Resolver`.
        @inlinable
        public func fulfill(with value: Value) {
            _box.resolve(.value(value))
        }

        /// Rejects the promise with `error`, unless it already resolved.
        ///
        /// - Parameter error: The error. Callbacks are delivered as described under
        ///   `Resolver`.
        @inlinable
        public func reject(with error: Error) {
            _box.resolve(.error(error))
        }

        /// Cancels the promise, unless it already resolved.
        ///
        /// The usual answer to a cancel request (see `onRequestCancel(on:_:)`), but a
        /// handler may also cancel on its own. Callbacks see `.cancelled`: `onCancel` and
        /// `always` run, `then` and `catch` do not.
        @inlinable
        public func cancel() {
            _box.resolve(.cancelled)
        }

        /// Resolves the promise with `result`, unless it already resolved.
        ///
        /// - Parameter result: A value, an error, or `.cancelled`.
        @inlinable
        public func resolve(with result: PromiseResult<Value, Error>) {
            _box.resolve(result)
        }

        /// Resolves the promise with the eventual result of `promise`, without a context hop.
        ///
        /// The promise counts as a child of `promise` for cancellation propagation (rule 27):
        /// a cancel request on it is passed on like any child's. Use
        /// `promise.ignoringCancel()` to break that link. Resolving with itself does nothing.
        /// If `promise` has already resolved, this is `resolve(with: promise.result!)`, with
        /// callbacks delivered like any resolution (see `Resolver`).
        public func resolve(with promise: Promise<Value, Error>) {
            if let result = promise._box.result {
                _box.resolve(result)
            } else {
                _box.pipe(from: promise._box)
            }
        }

        /// Whether cancellation was requested while the promise is pending, or the promise
        /// was cancelled. Once the promise is fulfilled or rejected this is `false`, even if
        /// cancellation had been requested before.
        public var hasRequestedCancel: Bool {
            _box.currentState.isCancelRequested
        }
    }
}

extension Promise.Resolver: Sendable where Value: Sendable, Error: Sendable {}

extension Promise.Resolver where Error == Swift.Error {
    /// Resolves with a result whose error type conforms to `Swift.Error`, unless the
    /// promise already resolved.
    ///
    /// - Parameter result: A value, an error (upcast to `Swift.Error`), or `.cancelled`.
    public func resolve<E: Swift.Error>(with result: PromiseResult<Value, E>) {
        resolve(with: result.mapError { $0 as Swift.Error })
    }

    /// Returns a completion handler `(Value?, Error?) -> Void` for callback-style APIs.
    ///
    /// A value wins over an error; `(nil, nil)` rejects with `PromiseCallbackError.apiMismatch`;
    /// errors for which `isCancelError` returns `true` cancel the promise.
    public func handleCallback(isCancelError: @escaping @Sendable (Error) -> Bool = { _ in false }) -> @Sendable (Value?, Error?) -> Void {
        let resolver = UncheckedSendable(self)
        return { value, error in
            if let value {
                resolver.value.fulfill(with: value)
            } else if let error {
                if isCancelError(error) { resolver.value.cancel() } else { resolver.value.reject(with: error) }
            } else {
                resolver.value.reject(with: PromiseCallbackError.apiMismatch)
            }
        }
    }
}

extension Promise.Resolver where Error: Swift.Error {
    /// Resolves with a `Swift.Result`, unless the promise already resolved.
    ///
    /// - Parameter result: `.success` fulfils the promise, `.failure` rejects it.
    public func resolve(with result: Result<Value, Error>) {
        resolve(with: PromiseResult(result))
    }
}

/// Owns the creator's keeper of a promise on behalf of all copies of one `Resolver`.
@usableFromInline
final class ResolverHandle<Value, Error>: Sendable {
    @usableFromInline let box: PromiseBox<Value, Error>
    @usableFromInline init(_ box: PromiseBox<Value, Error>) { self.box = box }
    // Borrowed for the call: the field keeps the box alive until after the deinit body, so
    // this saves the retain and release Swift puts around a call on a loaded field.
    deinit { Unmanaged.passUnretained(box)._withUnsafeGuaranteedRef { $0.releaseKeeper() } }
}

/// Carries a value into a `@Sendable` closure where the API contract already makes the
/// hand-off safe (the value moves with the callback, exactly as the caller asked).
struct UncheckedSendable<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}
