// TokenInvalidationObserver: one iterator of TomorrowlandAsync's `token.invalidations`.

import Foundation

/// Turns a token's invalidations into an async "next" call: each invalidation after the
/// observer registered is reported once; invalidations that happen while nobody waits are
/// coalesced into one; the token's release ends the sequence; so does cancellation of the
/// waiting Task, which also unregisters the observer at once.
///
/// Safety of `@unchecked Sendable`: all mutable state is guarded by `lock`.
package final class TokenInvalidationObserver: TokenObserver, @unchecked Sendable {
    private let lock = NSLock()
    private let token: TokenHandleReference
    private var pending = false
    private var finished = false
    private var cancelled = false
    private var continuation: UnsafeContinuation<Bool, Never>?

    /// Registers with `token` (held weakly by the token: the observer unregisters itself
    /// when it goes away). An observer of a token that is already released is finished.
    package init(token: TokenHandleReference) {
        self.token = token
        super.init()
        if !token.addObserver(self) { finished = true }
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
    /// on the Task's cancellation); `nil` if the caller must wait.
    private func poll(taskCancelled: Bool) -> Bool? {
        lock.lock()
        if pending {
            pending = false
            lock.unlock()
            return true
        }
        if finished || taskCancelled {
            let unregister = !finished
            finished = true
            lock.unlock()
            if unregister { token.removeObserver(self) }
            return false
        }
        lock.unlock()
        return nil
    }

    /// Stores the waiting continuation, or resumes it at once if something happened since
    /// `poll` (an invalidation, the release, the Task's cancellation).
    private func park(_ continuation: UnsafeContinuation<Bool, Never>) {
        lock.lock()
        if pending {
            pending = false
            lock.unlock()
            continuation.resume(returning: true)
        } else if finished || cancelled {
            finished = true
            lock.unlock()
            continuation.resume(returning: false)
        } else {
            precondition(self.continuation == nil, "Tomorrowland: concurrent next() on one invalidations iterator")
            self.continuation = continuation
            lock.unlock()
        }
    }

    /// The waiting Task was cancelled: end the sequence and resume the waiter with `false`.
    private func cancelWaiting() {
        lock.lock()
        cancelled = true
        let waiting = continuation
        continuation = nil
        if waiting != nil { finished = true }
        lock.unlock()
        waiting?.resume(returning: false)
    }

    override package func tokenInvalidated() {
        lock.lock()
        guard !finished else { return lock.unlock() }
        let waiting = continuation
        continuation = nil
        if waiting == nil { pending = true }
        lock.unlock()
        waiting?.resume(returning: true)
    }

    override package func tokenReleased() {
        lock.lock()
        finished = true
        let waiting = continuation
        continuation = nil
        lock.unlock()
        waiting?.resume(returning: false)
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
