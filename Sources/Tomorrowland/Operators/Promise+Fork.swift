// fork: split a chain in two.

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
}
