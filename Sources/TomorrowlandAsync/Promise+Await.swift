// Promise → async: `await promise.resolvedResult`, `try await promise.value`.

/// What an awaiting Task does when it is cancelled while the promise it awaits is pending.
///
/// In both cases the Task first gives up its place as an observer of the promise by
/// requesting cancellation, exactly like a child promise would: the promise is asked to
/// cancel once every observer (other awaiting Tasks, children) has asked. Handles to the
/// promise held by the awaiting code itself do not block this.
public enum AwaitCancellationPolicy: Sendable, Hashable {
    /// Keep waiting for the promise's real outcome (cooperative cancellation). A promise
    /// that ignores the request still delivers its value. This is the default.
    case keepWaiting
    /// Stop waiting at once: `value` throws `CancellationError` and `resolvedResult`
    /// returns `.cancelled`, without waiting for the promise to react.
    case stopWaiting
}

extension Promise {
    /// The promise's result, once it resolves. Never throws.
    ///
    /// An already-resolved promise returns at once, without suspending or allocating.
    ///
    /// **Isolation:** runs on the caller's isolation (`nonisolated(nonsending)`); awaiting
    /// from an actor or the main actor resumes on it without an extra hop.
    ///
    /// **Cancellation:** the awaiting Task is one observer of the promise. When the Task is
    /// cancelled it requests cancellation as that observer (the promise is asked to cancel
    /// once every observer has), then keeps waiting for the real outcome, which may be
    /// `.cancelled`, a value or an error. Use `resolvedResult(onTaskCancel: .stopWaiting)`
    /// to return `.cancelled` at once instead.
    @inlinable
    public nonisolated(nonsending) var resolvedResult: PromiseResult<Value, Error> {
        get async {
            // Fast path, specialized in the caller: no suspension, no allocation.
            if let result { return result }
            return await _awaitPending(stopWaitingOnCancel: false) ?? .cancelled
        }
    }

    /// The promise's result, once it resolves, with an explicit Task-cancellation policy.
    ///
    /// With `.stopWaiting`, a cancelled Task requests cancellation as one observer and gets
    /// `.cancelled` at once (or the result, if the promise resolved first). With
    /// `.keepWaiting` this is `resolvedResult`. Runs on the caller's isolation.
    @inlinable
    public nonisolated(nonsending) func resolvedResult(onTaskCancel policy: AwaitCancellationPolicy) async -> PromiseResult<Value, Error> {
        if let result { return result }
        return await _awaitPending(stopWaitingOnCancel: policy == .stopWaiting) ?? .cancelled
    }
}

extension Promise where Error: Swift.Error {
    /// The promise's value, once it resolves.
    ///
    /// Throws the promise's error if it rejects, and `CancellationError` if it is cancelled.
    /// An already-resolved promise returns (or throws) at once, without suspending or allocating.
    ///
    /// **Isolation:** runs on the caller's isolation (`nonisolated(nonsending)`); awaiting
    /// from an actor or the main actor resumes on it without an extra hop.
    ///
    /// **Cancellation:** the awaiting Task is one observer of the promise. When the Task is
    /// cancelled it requests cancellation as that observer (the promise is asked to cancel
    /// once every observer has; the awaiting code's own handle does not block it), then
    /// keeps waiting for the real outcome: a promise that ignores the request still delivers
    /// its value. Use `value(onTaskCancel: .stopWaiting)` to throw `CancellationError` at once.
    @inlinable @inline(__always)
    public nonisolated(nonsending) var value: Value {
        get async throws {
            // Fast path, specialized in the caller: no suspension, no allocation.
            switch result {
            case .value(let value)?: return value
            case .error(let error)?: throw error
            case .cancelled?: throw CancellationError()
            case nil: return try await _pendingValue(stopWaitingOnCancel: false)
            }
        }
    }

    /// The promise's value, once it resolves, with an explicit Task-cancellation policy.
    ///
    /// With `.stopWaiting`, a cancelled Task requests cancellation as one observer and
    /// throws `CancellationError` at once (unless the promise resolved first). With
    /// `.keepWaiting` this is `value`. Runs on the caller's isolation.
    @inlinable
    public nonisolated(nonsending) func value(onTaskCancel policy: AwaitCancellationPolicy) async throws -> Value {
        switch result {
        case .value(let value)?: return value
        case .error(let error)?: throw error
        case .cancelled?: throw CancellationError()
        case nil: return try await _pendingValue(stopWaitingOnCancel: policy == .stopWaiting)
        }
    }

    /// The slow path of `value`: the promise was pending when checked.
    @inlinable @inline(__always)
    nonisolated(nonsending) func _pendingValue(stopWaitingOnCancel: Bool) async throws -> Value {
        switch await _awaitPending(stopWaitingOnCancel: stopWaitingOnCancel) {
        case .value(let value)?: return value
        case .error(let error)?: throw error
        case .cancelled?, nil: throw CancellationError()
        }
    }
}

extension Promise where Error == NoError {
    /// The promise's value, once it resolves; throws only `CancellationError`, when the
    /// promise is cancelled. An already-resolved promise returns at once, without
    /// suspending or allocating.
    ///
    /// **Isolation:** runs on the caller's isolation (`nonisolated(nonsending)`).
    ///
    /// **Cancellation:** as for `resolvedResult`: a cancelled Task requests cancellation as
    /// one observer and keeps waiting for the real outcome. Use
    /// `value(onTaskCancel: .stopWaiting)` to throw `CancellationError` at once.
    @inlinable @inline(__always)
    public nonisolated(nonsending) var value: Value {
        get async throws(CancellationError) {
            switch result {
            case .value(let value)?: return value
            case .cancelled?: throw CancellationError()
            case nil: return try await _pendingValue(stopWaitingOnCancel: false)
            }
        }
    }

    /// The promise's value with an explicit Task-cancellation policy; throws only
    /// `CancellationError`. Runs on the caller's isolation.
    @inlinable
    public nonisolated(nonsending) func value(onTaskCancel policy: AwaitCancellationPolicy) async throws(CancellationError) -> Value {
        switch result {
        case .value(let value)?: return value
        case .cancelled?: throw CancellationError()
        case nil: return try await _pendingValue(stopWaitingOnCancel: policy == .stopWaiting)
        }
    }

    /// The slow path of `value`: the promise was pending when checked.
    @inlinable @inline(__always)
    nonisolated(nonsending) func _pendingValue(stopWaitingOnCancel: Bool) async throws(CancellationError) -> Value {
        switch await _awaitPending(stopWaitingOnCancel: stopWaitingOnCancel) {
        case .value(let value)?: return value
        case .cancelled?, nil: throw CancellationError()
        }
    }
}
