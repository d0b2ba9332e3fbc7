// PromiseBox: the typed state of a promise (its result) on top of `PromiseCore`.

/// The shared state behind `Promise<Value, Error>`: the core plus the result.
///
/// Safety of `@unchecked Sendable`: `storedResult` is written exactly once, by the thread
/// that won `claim`, before `publish` releases the resolved phase; it is read only after an
/// acquiring load observed that phase (or by the delivery loop that runs after publish).
@usableFromInline
class PromiseBox<Value, Error>: PromiseCore, @unchecked Sendable {
    final var storedResult: PromiseResult<Value, Error>?

    /// A pending promise with one keeper owned by its creator.
    init() {
        super.init(pending: ())
    }

    /// A promise resolved from the start.
    init(result: PromiseResult<Value, Error>) {
        storedResult = result
        super.init(resolved: ())
    }

    /// The result, if resolved.
    @inline(__always)
    final var result: PromiseResult<Value, Error>? {
        currentState.isResolved ? storedResult : nil
    }

    /// Resolves the promise if nothing resolved it yet (first wins, rule 2).
    /// - Parameter inline: see `Delivery.deliver(_:list:inline:)`.
    @discardableResult
    final func resolve(_ result: PromiseResult<Value, Error>, inline: Bool) -> Bool {
        guard claim(cancelling: result.isCancelled) else { return false }
        storedResult = result
        publish(inline: inline)
        return true
    }

    override final func resolveCancelled(inline: Bool) {
        resolve(.cancelled, inline: inline)
    }

    /// Adopts the result of `inner` without a context hop, as one propagating observer of
    /// it (rule 27). The pipe keeps this promise resolvable until `inner` resolves.
    /// Does nothing if this promise already resolved (rule 2): a late pipe would count as an
    /// observer of `inner` that never requests cancel, blocking `inner`'s propagation.
    final func pipe(from inner: PromiseBox<Value, Error>) {
        guard inner !== self, !currentState.isResolvingOrResolved else { return }
        retainKeeper()
        linkUpstream(inner)
        inner.register(PipeNode(target: self))
    }
}

/// Sits in an inner promise's callback list and resolves `target` with its result.
final class PipeNode<Value, Error>: PromiseNode, @unchecked Sendable {
    let target: PromiseBox<Value, Error>

    init(target: PromiseBox<Value, Error>) {
        self.target = target
    }

    override func upstreamResolved(_ upstream: PromiseCore, synchronously: Bool) {
        let inner = unsafeDowncast(upstream, to: PromiseBox<Value, Error>.self)
        target.resolve(inner.storedResult!, inline: false)
        target.releaseKeeper(inline: false)
    }

    override func dropped() {
        target.releaseKeeper(inline: false)
    }
}
