// TokenInvalidationObserver: one iterator of TomorrowlandAsync's `token.invalidations`.

import Foundation

/// Turns a token's invalidations into an async "next" call: each invalidation after the
/// observer registered is reported once; invalidations that happen while nobody waits are
/// coalesced into one; the token's release ends the sequence; so does cancellation of the
/// waiting Task, which also unregisters the observer at once.
///
/// The mutable state is one `State` under one lock, taken only for short transitions: a
/// continuation is resumed, and the observer unregistered, after the lock is released.
///
/// Safety of `@unchecked Sendable`: the only mutable state is `state`, behind its lock.
package final class TokenInvalidationObserver: TokenObserver, @unchecked Sendable {
    private enum State {
        /// Nobody waits. `pending`: an invalidation not reported yet (later ones coalesce
        /// into it). `cancelled`: the waiting Task's cancellation arrived before it parked,
        /// so parking ends the sequence (unless an invalidation is pending).
        case open(pending: Bool, cancelled: Bool)
        /// A Task waits in `next()` (nothing pending, not cancelled).
        case waiting(UnsafeContinuation<Bool, Never>)
        /// The sequence ended (token released, or the Task cancelled). `pending`: one
        /// invalidation from before the release is still reported first.
        case ended(pending: Bool)

        /// Takes the pending invalidation, if there is one.
        mutating func takePending() -> Bool {
            switch self {
            case .open(pending: true, let cancelled): self = .open(pending: false, cancelled: cancelled)
            case .ended(pending: true): self = .ended(pending: false)
            case .open(pending: false, _), .ended(pending: false), .waiting: return false
            }
            return true
        }
    }

    private let token: TokenHandleReference
    private let state = Locked(State.open(pending: false, cancelled: false))

    /// Registers with `token` (held weakly by the token: the observer unregisters itself
    /// when it goes away). An observer of a token that is already released is finished.
    package init(token: TokenHandleReference) {
        self.token = token
        super.init()
        if !token.addObserver(self) { state.withLock { $0 = .ended(pending: false) } }
    }

    deinit {
        token.removeObserver(self)
    }

    /// Waits for the next invalidation: `true` for one, `false` once the token was released
    /// or the waiting Task was cancelled (and from then on). Runs on the caller's isolation.
    package nonisolated(nonsending) func next() async -> Bool {
        if let ready = poll(taskCancelled: Task.isCancelled) { return ready }
        let invalidated = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
                park(continuation)
            }
        } onCancel: {
            cancelWaiting()
        }
        if !invalidated { token.removeObserver(self) }
        return invalidated
    }

    /// Consumes a pending invalidation (`true`) or reports the end (`false`, unregistering
    /// on the Task's cancellation); `nil` if the caller must wait. (Internal, not private:
    /// the interleaving explorer's scenarios poll an observer as `next()` would.)
    func poll(taskCancelled: Bool) -> Bool? {
        let (ready, unregister): (Bool?, Bool) = state.withLock { state in
            if state.takePending() { return (true, false) }
            switch state {
            case .ended:
                return (false, false)
            case .open:
                guard taskCancelled else { return (nil, false) }
                state = .ended(pending: false)
                return (false, true)
            case .waiting:
                preconditionFailure("Tomorrowland: concurrent next() on one invalidations iterator")
            }
        }
        if unregister { token.removeObserver(self) }
        return ready
    }

    /// Stores the waiting continuation, or resumes it at once if something happened since
    /// `poll` (an invalidation, the release, the Task's cancellation).
    private func park(_ continuation: UnsafeContinuation<Bool, Never>) {
        let resume: Bool? = state.withLock { state in
            if state.takePending() { return true }
            switch state {
            case .open(_, cancelled: true), .ended:
                state = .ended(pending: false)
                return false
            case .open(_, cancelled: false):
                state = .waiting(continuation)
                return nil
            case .waiting:
                preconditionFailure("Tomorrowland: concurrent next() on one invalidations iterator")
            }
        }
        if let resume { continuation.resume(returning: resume) }
    }

    /// The waiting Task was cancelled: end the sequence and resume the waiter with `false`.
    private func cancelWaiting() {
        resumeWaiter(returning: false, then: .ended(pending: false)) { state in
            if case .open(let pending, _) = state { state = .open(pending: pending, cancelled: true) }
        }
    }

    override package func tokenInvalidated() {
        resumeWaiter(returning: true, then: .open(pending: false, cancelled: false)) { state in
            if case .open(_, let cancelled) = state { state = .open(pending: true, cancelled: cancelled) }
        }
    }

    override package func tokenReleased() {
        resumeWaiter(returning: false, then: .ended(pending: false)) { state in
            if case .open(let pending, _) = state { state = .ended(pending: pending) }
        }
    }

    /// If a Task waits: moves to `next` and resumes it with `value` (after the lock).
    /// Otherwise applies `change` to the state.
    private func resumeWaiter(returning value: Bool, then next: State, otherwise change: (inout State) -> Void) {
        let waiting: UnsafeContinuation<Bool, Never>? = state.withLock { state in
            guard case .waiting(let continuation) = state else {
                change(&state)
                return nil
            }
            state = next
            return continuation
        }
        waiting?.resume(returning: value)
    }
}

/// Runs an action once, on the token's next invalidation (`Task.requestCancelOnInvalidate`).
/// Held strongly by the token until then (or until the token is released).
package final class TokenInvalidationAction: TokenObserver, @unchecked Sendable {
    // Safety: `action` is immutable; the token calls `tokenInvalidated` and this removes
    // itself first, so a concurrent second invalidation finds it gone or runs an idempotent
    // action (Task.cancel) twice at most.
    private let token: TokenHandleReference
    private let action: @Sendable () -> Void

    package init(token: TokenHandleReference, action: @escaping @Sendable () -> Void) {
        self.token = token
        self.action = action
        super.init()
    }

    /// Registers the action; runs it at once if the token is already released.
    package func register() {
        if !token.addObserver(self, retained: true) { action() }
    }

    override package func tokenInvalidated() {
        token.removeObserver(self)
        action()
    }
}
