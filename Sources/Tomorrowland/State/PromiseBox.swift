// PromiseBox: the typed state of a promise (its result) on top of `PromiseCore`.

/// Holds a promise's result in a field whose type is this class's own generic parameter.
///
/// Why a separate class: the (unspecializable) deinit of a generic class needs the metadata
/// of each field's type. For `PromiseResult<Value, Error>` that is a lookup in the runtime's
/// global hash table on every deallocation (about 500 instructions); for a field typed by a
/// generic parameter of the class it is read straight from the class metadata.
///
/// Safety of `@unchecked Sendable` (and of unchecked exclusivity): `storedResult` is written
/// exactly once, by the thread that won `claim`, before `publish` releases the resolved
/// phase; it is read only after an acquiring load observed that phase (or by the delivery
/// loop that runs after publish).
@usableFromInline
class ResultStorage<Result>: PromiseCore, @unchecked Sendable {
    /// The result; meaningful only once the phase is `resolved` (a pending box holds a placeholder).
    /// A `PublishedField` (Support/SharedCells.swift): the value itself in this target, so the
    /// field's type is still the class's own parameter (see above).
    @usableFromInline @exclusivity(unchecked) final var storedResult: PublishedField<Result>

    @inlinable
    init(pending placeholder: Result) {
        storedResult = publishedField(placeholder, "result")
        super.init(pending: ())
    }

    @inlinable
    init(resolved result: Result) {
        storedResult = publishedField(result, "result")
        super.init(resolved: ())
    }

    /// The result, to a reader that saw the resolved phase with an acquiring load (or the
    /// delivery that follows `publish`).
    @inlinable
    final var publishedResult: Result {
        readField(storedResult)
    }
}

/// The shared state behind `Promise<Value, Error>`: the core plus the result.
@usableFromInline
class PromiseBox<Value, Error>: ResultStorage<PromiseResult<Value, Error>>, @unchecked Sendable {
    /// A pending promise with one keeper owned by its creator.
    @inlinable
    init() {
        super.init(pending: .cancelled)
    }

    /// A promise resolved from the start.
    @inlinable
    init(result: PromiseResult<Value, Error>) {
        super.init(resolved: result)
    }

    /// The result, if resolved.
    @inlinable
    final var result: PromiseResult<Value, Error>? {
        currentState.isResolved ? publishedResult : nil
    }

    /// Resolves the promise if nothing resolved it yet (first wins, rule 2).
    @inlinable @discardableResult
    final func resolve(_ result: PromiseResult<Value, Error>) -> Bool {
        guard claim(cancelling: result.isCancelled) == .writeResult else { return false }
        // Written by the claimant alone; `publish`'s add (a release) makes it visible.
        publishField(&storedResult, result)
        publish()
        return true
    }

    /// `resolve(_:)`, running `beforeDelivering` (no user code) once the result is visible and
    /// before the callbacks are delivered. `false`, without running it, if already resolved.
    @inlinable
    final func resolve(_ result: PromiseResult<Value, Error>, beforeDelivering: () -> Void) -> Bool {
        guard claim(cancelling: result.isCancelled) == .writeResult else { return false }
        publishField(&storedResult, result)
        publish(beforeDelivering: beforeDelivering)
        return true
    }

    override final func resolveCancelled() {
        resolve(.cancelled)
    }

    /// Takes this box's await slot for the current Task and counts the Task as one
    /// propagating observer, if the box has a free one. Only a Task-backed box does
    /// (`TaskPromiseBox`); any other returns `false`, and the Task waits on a
    /// `PromiseAwaiter` node instead.
    @usableFromInline
    func takeAwaitSlotAndObserve(stopWaitingOnCancel: Bool) -> Bool {
        false
    }

    /// Adopts the result of `inner` without a context hop, as one propagating observer of
    /// it (rule 27). The pipe keeps this promise resolvable until `inner` resolves.
    /// Does nothing if this promise already resolved (rule 2): a late pipe would count as an
    /// observer of `inner` that never requests cancel, blocking `inner`'s propagation.
    @inlinable
    final func pipe(from inner: PromiseBox<Value, Error>) {
        guard inner !== self, !currentState.isResolvingOrResolved else { return }
        retainKeeper()
        linkUpstream(inner)
        inner.register(PipeNode(target: self))
    }
}

/// Sits in an inner promise's callback list and resolves `target` with its result.
@usableFromInline
final class PipeNode<Value, Error>: PromiseNode, @unchecked Sendable {
    let target: PromiseBox<Value, Error>

    @usableFromInline
    init(target: PromiseBox<Value, Error>) {
        self.target = target
    }

    override func upstreamResolved(_ upstream: PromiseCore, synchronously: Bool) {
        let inner = unsafeDowncast(upstream, to: PromiseBox<Value, Error>.self)
        target.resolve(inner.publishedResult)
        target.releaseKeeper()
    }

    override func dropped() {
        target.releaseKeeper()
    }
}
