// Small conveniences: fork, upcast, withToken, Swift.Result.

extension Promise {
    /// Passes the promise to `handler` and returns it, to split a chain in two:
    /// `promise.fork { $0.then { … } }.catch { … }`.
    ///
    /// - Parameter handler: Called at once, on the calling thread, with `self`; an error it
    ///   throws is rethrown.
    /// - Returns: `self`.
    public func fork(_ handler: (Promise) throws -> Void) rethrows -> Promise {
        try handler(self)
        return self
    }

    /// Wraps the promise so every callback registered through the wrapper uses `token`, and
    /// the promises returned directly from the wrapper are cancelled when it invalidates.
    ///
    /// - Parameter token: The token passed to every callback method called on the wrapper.
    /// - Returns: A `TokenPromise` around this promise. The promises its methods return are
    ///   registered with `token.requestCancelOnInvalidate(_:)`, except those of `tap()`,
    ///   `tap(on:_:)` and `ignoringCancel()`; the wrappers those methods return are not
    ///   registered (rule 29).
    public func withToken(_ token: PromiseInvalidationToken) -> TokenPromise<Value, Error> {
        TokenPromise(promise: self, token: token, registersChildren: true)
    }
}

extension Promise where Error: Swift.Error {
    /// The same promise with its error type erased to `Swift.Error`.
    public var upcast: Promise<Value, Swift.Error> {
        if let same = self as? Promise<Value, Swift.Error> { return same }
        return register(on: .immediate, token: nil, trigger: .all, kind: .transformer) { result in
            .resolve(result.mapError { $0 as Swift.Error })
        }
    }

    /// Creates an already-resolved promise from a `Swift.Result`.
    public init(with result: Result<Value, Error>) {
        self.init(with: PromiseResult(result))
    }
}

extension Promise where Error == NoError {
    /// The same promise with the (impossible) error type `Swift.Error`.
    public var upcast: Promise<Value, Swift.Error> {
        register(on: .immediate, token: nil, trigger: .all, kind: .transformer) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .cancelled: return .resolve(.cancelled)
            }
        }
    }
}
