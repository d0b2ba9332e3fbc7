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

    /// Returns a promise that propagates cancellation to this one as soon as all of *its*
    /// children have requested cancel, even while handles to it are still held (rule 8).
    ///
    /// Use it to share one piece of work between clients (with `makeChild()` for each) and
    /// still cancel the work when every client lost interest. `cancelRequested` runs once on
    /// `context`, with the returned promise, right before the request is passed upstream;
    /// the returned promise is then cancelled, so children attached later are cancelled at once.
    public func propagatingCancellation(on context: PromiseContext, cancelRequested: @escaping @Sendable (Promise<Value, Error>) -> Void) -> Promise<Value, Error> {
        let child = PropagatingBox<Value, Error>(context: context, cancelRequested: cancelRequested)
        child.linkUpstream(_box)
        _box.register(PipeNode(target: child))
        return Promise(box: child)
    }

    /// Requests cancellation of this promise when `token` is invalidated. Returns `self`.
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

/// The child behind `propagatingCancellation(on:cancelRequested:)`: sealed from the start,
/// and its propagation runs the user's hook before passing the request upstream.
final class PropagatingBox<Value, Error>: PromiseBox<Value, Error>, @unchecked Sendable {
    let context: PromiseContext
    let cancelRequested: @Sendable (Promise<Value, Error>) -> Void

    init(context: PromiseContext, cancelRequested: @escaping @Sendable (Promise<Value, Error>) -> Void) {
        self.context = context
        self.cancelRequested = cancelRequested
        super.init()
        update { $0.preseal() }
    }

    override func propagationFired() -> PromiseCore? {
        context.execute(synchronously: false) { [self] in
            cancelRequested(Promise(box: self))
            requestCancel()
            resolve(.cancelled, inline: true)
        }
        return nil
    }
}
