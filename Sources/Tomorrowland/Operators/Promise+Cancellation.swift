// Operators that shape cancellation: makeChild, ignoringCancel, propagatingCancellation,
// requestCancelOnInvalidate, cancellable.

extension Promise {
    /// Returns a new child that adopts this promise's result and propagates cancellation
    /// like any other observer. Hand one child to each client so that no single client can
    /// cancel the shared work without the others.
    public func makeChild() -> Promise<Value, Error> {
        registerPassthrough(link: .propagating)
    }

    /// Returns a promise with the same result that never passes cancel requests on, and
    /// that counts as an observer which never requests cancel: this promise will never be
    /// cancelled automatically (rule 7).
    public func ignoringCancel() -> Promise<Value, Error> {
        registerPassthrough(link: .blocking)
    }

    /// `propagatingCancellation(on:cancelRequested:)` with the callback's isolation taken apart.
    func _propagatingCancellation(
        on context: PromiseContext,
        isolation: (any Actor)?,
        cancelRequested: @escaping @Sendable (Promise<Value, Error>) -> Void
    ) -> Promise<Value, Error> {
        // A blocking pipe: this promise counts the child as an observer that never asks.
        registerPassthrough(link: .blocking) { child in
            // Sealed at once: handles to the returned promise never block propagation (rule 8).
            child.preseal()
            // Registered before the pipe: if this promise already resolved, the pipe resolves
            // `child` at once and its resolution drops the hook unrun.
            child.registerCancelHandler(CancelForwardingNode(
                upstream: _box, context: context, isolation: isolation, cancelRequested: cancelRequested))
        }
    }

    /// Requests cancellation of this promise when `token` is invalidated (or when
    /// `cancelWithoutInvalidating()` is called on it).
    ///
    /// The token holds the promise weakly: registering does not keep it alive.
    ///
    /// - Parameter token: The token whose invalidation requests cancellation.
    /// - Returns: `self`.
    @discardableResult
    public func requestCancelOnInvalidate(_ token: PromiseInvalidationToken) -> Promise<Value, Error> {
        token.requestCancelOnInvalidate(self)
        return self
    }

    /// A value that can request cancellation of this promise without keeping it alive.
    public var cancellable: PromiseCancellable {
        PromiseCancellable(core: _box)
    }
}

/// Requests cancellation of a promise it holds weakly: a no-op once the promise is gone.
public struct PromiseCancellable: Sendable {
    private weak var core: PromiseCore?

    init(core: PromiseCore) {
        self.core = core
    }

    /// Requests cancellation of the promise, if it still exists.
    public func requestCancel() {
        core?.requestCancel()
    }
}

/// The cancel handler of a `propagatingCancellation(on:cancelRequested:)` promise: runs the
/// user's hook and then passes the request upstream as one observer's request. Rule 8:
/// "`cancelRequested` runs once, just before forwarding, and it runs the same way when
/// `requestCancel()` is called directly on the returned promise (in 1.4 it is an
/// `onRequestCancel` handler of that promise). Forwarding only passes the request upstream:
/// the returned promise is not cancelled by it, and still takes the upstream's result if the
/// upstream ignores the request."
///
/// It holds no `Resolver`: the pipe from the upstream is what keeps the promise resolvable.
///
/// Safety of `@unchecked Sendable`: all stored properties are immutable and `Sendable`.
final class CancelForwardingNode<Value, Error>: PromiseNode, @unchecked Sendable {
    let upstream: PromiseCore
    let context: PromiseContext
    let cancelRequested: @Sendable (Promise<Value, Error>) -> Void

    /// The actor `cancelRequested` is isolated to (`nil`: nonisolated); it runs only there.
    let isolation: (any Actor)?

    init(upstream: PromiseCore, context: PromiseContext, isolation: (any Actor)?, cancelRequested: @escaping @Sendable (Promise<Value, Error>) -> Void) {
        self.upstream = upstream
        self.context = context
        self.isolation = isolation
        self.cancelRequested = cancelRequested
    }

    override func upstreamRequestedCancel(_ promise: PromiseCore, synchronously: Bool) {
        let box = unsafeDowncast(promise, to: PromiseBox<Value, Error>.self)
        // Like any queued cancel handler (rule 4): skipped if the promise was meanwhile
        // fulfilled or rejected (the upstream resolved: nothing left to cancel).
        ActorDelivery.executeCancelHandler(on: context, synchronously: synchronously, isolation: isolation) { [self] queued in
            if queued && box.currentState.isFulfilledOrRejected { return }
            forward(box)
        }
    }

    private func forward(_ box: PromiseBox<Value, Error>) {
        cancelRequested(Promise(box: box))
        upstream.observerRequestedCancel()
    }
}
