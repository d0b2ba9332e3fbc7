// CancelHandlerNode: a handler registered with Resolver.onRequestCancel(on:_:).

/// A handler registered with `Resolver.onRequestCancel(on:_:)`. It holds a `Resolver`,
/// so a pending handler keeps its promise resolvable (rule 1).
final class CancelHandlerNode<Value, Error>: PromiseNode, @unchecked Sendable {
    let context: PromiseContext
    var resolver: Promise<Value, Error>.Resolver?
    var handler: (@Sendable (Promise<Value, Error>.Resolver) -> Void)?

    init(context: PromiseContext, resolver: Promise<Value, Error>.Resolver, handler: @escaping @Sendable (Promise<Value, Error>.Resolver) -> Void) {
        self.context = context
        self.resolver = resolver
        self.handler = handler
    }

    override func upstreamRequestedCancel(_ upstream: PromiseCore, synchronously: Bool) {
        if let mode = context.inlineMode(synchronously: synchronously) {
            PromiseContext.run(mode) { fire(skipIfResolved: false) }
        } else {
            context.schedule { [self] in fire(skipIfResolved: true) }
        }
    }

    private func fire(skipIfResolved: Bool) {
        let handler = self.handler
        self.handler = nil
        let resolver = self.resolver.take()
        guard let handler, let resolver else { return }
        if skipIfResolved, resolver._box.currentState.isResolvingOrResolved { return }
        handler(resolver)
    }

    override func dropped() {
        handler = nil
        resolver = nil
    }
}
