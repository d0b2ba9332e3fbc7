// PromiseTimeoutError: the error of a promise returned by `timeout(on:delay:)`.

import Foundation

/// The error of a promise returned by `Promise.timeout(on:delay:)`.
///
/// `Error` is the upstream promise's error type and is unconstrained, like `Promise`'s.
/// The `Error == Swift.Error` overload of `timeout` rejects with
/// `PromiseTimeoutError<Swift.Error>.timedOut` and passes upstream errors through unchanged.
///
/// `Sendable`: `Swift.Error` requires it, and 1.x clients use non-`Sendable` error types (the
/// `Error` parameter must stay unconstrained), so the conformance is `@unchecked`. A
/// `PromiseTimeoutError` only carries a value the upstream promise already handed out to
/// every observer; send one across threads only when `Error` itself is safe to share.
public enum PromiseTimeoutError<Error>: Swift.Error, CustomNSError, @unchecked Sendable {
    /// The upstream promise did not resolve before the delay elapsed.
    case timedOut
    /// The upstream promise was rejected with this error before the delay elapsed.
    case rejected(Error)

    /// `.timedOut`: a failure reason. `.rejected(e)` with a `Swift.Error`: its localized
    /// description and `e` as `NSUnderlyingErrorKey`. Any other `.rejected(e)`: a failure
    /// reason made with `String(describing: e)`.
    public var errorUserInfo: [String: Any] {
        switch self {
        case .timedOut:
            return [NSLocalizedFailureReasonErrorKey: "The operation timed out."]
        case .rejected(let error):
            if let error = error as? Swift.Error {
                return [NSLocalizedDescriptionKey: error.localizedDescription,
                        NSUnderlyingErrorKey: error as NSError]
            }
            return [NSLocalizedFailureReasonErrorKey: String(describing: error)]
        }
    }
}

extension PromiseTimeoutError where Error: Equatable {
    /// Equal when both timed out, or both were rejected with equal errors.
    public static func == (lhs: PromiseTimeoutError, rhs: PromiseTimeoutError) -> Bool {
        switch (lhs, rhs) {
        case (.timedOut, .timedOut): return true
        case let (.rejected(a), .rejected(b)): return a == b
        default: return false
        }
    }

    /// Negation of `==`.
    public static func != (lhs: PromiseTimeoutError, rhs: PromiseTimeoutError) -> Bool {
        !(lhs == rhs)
    }
}

extension PromiseTimeoutError: Equatable where Error: Equatable {}

extension PromiseTimeoutError: Hashable where Error: Hashable {
    /// Hashes the case and, for `.rejected`, the error.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .timedOut:
            hasher.combine(0)
        case .rejected(let error):
            hasher.combine(1)
            hasher.combine(error)
        }
    }
}
