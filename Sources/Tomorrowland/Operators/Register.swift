// The one registration path every operator uses.

extension Promise {
    /// How a new child takes part in automatic cancellation propagation (rules 5–7).
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

    /// Registers a child promise on this promise.
    ///
    /// - Parameters:
    ///   - context: where the callback runs when `trigger` matches the result.
    ///   - token: checked when the callback would run (rule 14).
    ///   - trigger: which results invoke `body` on `context`; the others are passed to
    ///     `body` on the resolving thread, which must not call user code for them.
    ///   - kind: what an invalidated token does.
    ///   - link: the child's role in cancellation propagation.
    ///   - body: maps the parent's result to the child's resolution.
    @inline(__always)
    func register<V, E>(
        on context: PromiseContext,
        token: PromiseInvalidationToken?,
        trigger: Trigger,
        kind: ChildKind,
        link: CancelLink = .propagating,
        _ body: @escaping (PromiseResult<Value, Error>) -> Step<V, E>
    ) -> Promise<V, E> {
        let child = ChildBox<Value, Error, V, E>(context: context, token: token, trigger: trigger, kind: kind, body: body)
        switch link {
        case .propagating: child.linkUpstream(_box)
        case .onlyWhenCancelled: child.linkUpstream(_box, countsOnlyOnCancel: true)
        case .blocking: _box.update { $0.addObserver() }
        case .none: break
        }
        _box.register(child)
        return Promise<V, E>(box: child)
    }

    /// Registers a child that adopts this promise's result with no callback and no context
    /// hop (`makeChild`, `tap()`, `ignoringCancel`): a pipe, so chains stay flat.
    func registerPassthrough(link: CancelLink) -> Promise<Value, Error> {
        let child = PromiseBox<Value, Error>()
        switch link {
        case .propagating: child.linkUpstream(_box)
        case .onlyWhenCancelled: child.linkUpstream(_box, countsOnlyOnCancel: true)
        case .blocking: _box.update { $0.addObserver() }
        case .none: break
        }
        _box.register(PipeNode(target: child))
        return Promise(box: child)
    }
}
