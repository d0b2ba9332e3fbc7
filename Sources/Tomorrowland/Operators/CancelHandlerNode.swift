// CancelHandlerNode: a handler registered with Resolver.onRequestCancel(on:_:).

/// A handler registered with `Resolver.onRequestCancel(on:_:)`. It holds a `Resolver`,
/// so a pending handler keeps its promise resolvable (rule 1).
final class CancelHandlerNode<Value, Error>: PromiseNode, @unchecked Sendable {
    let context: PromiseContext
    var resolver: Promise<Value, Error>.Resolver?
    var handler: (@Sendable (Promise<Value, Error>.Resolver) -> Void)?

    /// The actor the handler is isolated to (`nil`: nonisolated); it runs only there.
    let isolation: (any Actor)?

    init(
        context: PromiseContext,
        resolver: Promise<Value, Error>.Resolver,
        isolation: (any Actor)?,
        handler: @escaping @Sendable (Promise<Value, Error>.Resolver) -> Void
    ) {
        self.context = context
        self.isolation = isolation
        self.resolver = resolver
        self.handler = handler
    }

    override func upstreamRequestedCancel(_ upstream: PromiseCore, synchronously: Bool) {
        ActorDelivery.executeCancelHandler(on: context, synchronously: synchronously, isolation: isolation) { [self] queued in
            fire(skipIfFulfilledOrRejected: queued)
        }
    }

    /// Rule 4: "A non-`.immediate` handler that gets to run after the promise has meanwhile
    /// been fulfilled or rejected is skipped; one whose promise was meanwhile *cancelled*
    /// still runs (several handlers that each call `resolver.cancel()` all run, in
    /// registration order)."
    private func fire(skipIfFulfilledOrRejected: Bool) {
        let handler = self.handler
        self.handler = nil
        let resolver = self.resolver.take()
        guard let handler, let resolver else { return }
        if skipIfFulfilledOrRejected, resolver._box.currentState.isFulfilledOrRejected { return }
        handler(resolver)
    }

    override func dropped() {
        handler = nil
        resolver = nil
    }
}
