// The one registration path every operator uses.

extension Promise {
    /// How a new child takes part in automatic cancellation propagation (rules 5–7).
    @usableFromInline
    enum CancelLink {
        /// A normal observer: counts now, requests cancel when the child is asked to.
        case propagating
        /// Counts only once the child is asked to cancel (`onCancel`).
        case onlyWhenCancelled
        /// Not an observer, and never requests cancel upstream (`tap`).
        case none
        /// An observer that never requests cancel (`ignoringCancel`).
        case blocking
    }

    /// Registers a child promise on this promise: **the** registration path.
    ///
    /// The child (an operator subclass of `ChildBox`) carries the context, the token, the
    /// `Trigger` (which results invoke its callback on the context; the others pass through
    /// on the resolving thread) and the `ChildKind` (what an invalidated token does).
    /// - Parameter link: the child's role in cancellation propagation.
    ///
    /// `child` is taken `__owned`: the reference its creation returned becomes the returned
    /// handle's; borrowed, the handle took a retain of its own and the caller released the
    /// creation's reference afterwards.
    @inlinable
    func register<V, E, C: ReleasableCallback>(_ child: __owned ChildBox<Value, Error, V, E, C>, link: CancelLink = .propagating) -> Promise<V, E> {
        // A resolved parent never needs a cancel request (rule 3), and resolution is final, so
        // the propagation link (a compare-exchange on the parent, an exchange on the child) is
        // skipped when registering on an already-resolved promise.
        if !_box.currentState.isResolved {
            link.apply(child: child, parent: _box)
        }
        _box.register(child)
        return Promise<V, E>(box: child)
    }

    /// Registers a child that nothing will hold a handle to (`tap(on:)`, which returns this
    /// promise): with no cancel link, as `register(_:link: .none)`, but without making the
    /// handle, whose seal would be allocated for nothing.
    @inlinable
    func registerUnheld<V, E, C: ReleasableCallback>(_ child: __owned ChildBox<Value, Error, V, E, C>) {
        _box.register(child)
    }

    /// Registers a child whose operator is the closure `body` (for operators off hot paths).
    /// `isolation` is the actor the user's callback is isolated to (`nil`: nonisolated).
    @inline(__always)
    func register<V, E>(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        trigger: Trigger,
        kind: ChildKind,
        link: CancelLink = .propagating,
        isolation: (any Actor)? = nil,
        _ body: @escaping (PromiseResult<Value, Error>) -> Step<V, E>
    ) -> Promise<V, E> {
        register(ClosureChildBox(context: context, token: token, trigger: trigger, kind: kind, isolation: isolation, body: body), link: link)
    }

    /// Registers a child that adopts this promise's result with no callback and no context
    /// hop (`makeChild`, `tap()`, `ignoringCancel`, `propagatingCancellation`): a pipe, so
    /// chains stay flat. `prepare` runs on the child before the pipe is registered (if this
    /// promise already resolved, the pipe resolves the child at once).
    func registerPassthrough(link: CancelLink, prepare: (PromiseBox<Value, Error>) -> Void = { _ in }) -> Promise<Value, Error> {
        let child = PromiseBox<Value, Error>()
        link.apply(child: child, parent: _box)
        prepare(child)
        _box.register(PipeNode(target: child))
        return Promise(box: child)
    }
}

extension Promise.CancelLink {
    /// Makes `child` take its role in `parent`'s cancellation propagation.
    @inlinable
    func apply(child: PromiseCore, parent: PromiseCore) {
        switch self {
        case .propagating: child.linkUpstream(parent)
        case .onlyWhenCancelled: child.linkUpstream(parent, countsOnlyOnCancel: true)
        case .blocking: parent.addObserver()
        case .none: break
        }
    }
}
