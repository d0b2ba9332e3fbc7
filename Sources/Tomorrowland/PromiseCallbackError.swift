// PromiseCallbackError: the error of a completion-handler callback that broke its contract.

/// Errors reported by `Promise.Resolver.handleCallback(isCancelError:)`.
public enum PromiseCallbackError: Int, Swift.Error, Sendable {
    /// The callback was invoked with neither a value nor an error.
    case apiMismatch = 0
}
