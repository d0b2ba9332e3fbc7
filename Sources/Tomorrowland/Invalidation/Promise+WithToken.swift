// withToken: a promise seen through a TokenPromise.

extension Promise {
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
