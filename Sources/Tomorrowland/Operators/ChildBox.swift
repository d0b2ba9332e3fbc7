// ChildBox: a child promise that is also the node registered on its parent.

/// Which parent results invoke the user's callback (and so hop to its context and
/// consult its token). Other results pass through on the resolving thread (rule 18).
struct Trigger: OptionSet, Sendable {
    let rawValue: UInt8
    static let value = Trigger(rawValue: 1)
    static let error = Trigger(rawValue: 2)
    static let cancelled = Trigger(rawValue: 4)
    static let all: Trigger = [.value, .error, .cancelled]

    @inline(__always)
    func matches<V, E>(_ result: PromiseResult<V, E>) -> Bool {
        switch result {
        case .value: return contains(.value)
        case .error: return contains(.error)
        case .cancelled: return contains(.cancelled)
        }
    }
}

/// What an operator body tells the child to do.
enum Step<Value, Error> {
    /// Resolve with this result.
    case resolve(PromiseResult<Value, Error>)
    /// Adopt the result of this promise (flatMap-style callbacks, rule 27).
    case adopt(Promise<Value, Error>)
}

/// How an invalidated token affects the child (rule 14).
enum ChildKind {
    /// then / catch / always / tap / onCancel: the callback is skipped, the child still
    /// takes the parent's result (`Value == ParentValue`, `Error == ParentError`).
    case observer
    /// map / flatMap / recover / …: the child is cancelled instead.
    case transformer
}

/// A child promise registered on a parent of type `Promise<ParentValue, ParentError>`.
///
/// Safety of `@unchecked Sendable`: `body` is read and cleared only by the single thread
/// that fires the node (after it was taken from the parent's list).
final class ChildBox<ParentValue, ParentError, Value, Error>: PromiseBox<Value, Error>, @unchecked Sendable {
    typealias Body = (PromiseResult<ParentValue, ParentError>) -> Step<Value, Error>

    let context: PromiseContext
    let trigger: Trigger
    let kind: ChildKind
    let token: TokenBox?
    let generation: UInt
    var body: Body?

    init(context: PromiseContext, token: PromiseInvalidationToken?, trigger: Trigger, kind: ChildKind, body: @escaping Body) {
        self.context = context
        self.trigger = trigger
        self.kind = kind
        if let token {
            self.token = token.box
            self.generation = token.box.currentGeneration
        } else {
            self.token = nil
            self.generation = 0
        }
        self.body = body
        super.init()
    }

    override func upstreamResolved(_ upstream: PromiseCore, synchronously: Bool) {
        let parent = unsafeDowncast(upstream, to: PromiseBox<ParentValue, ParentError>.self)
        let result = parent.storedResult!
        guard trigger.matches(result) else {
            // Not invoked: pass through here, releasing the callback on the resolving thread.
            let body = self.body.take()!
            finish(body(result))
            return
        }
        if let mode = context.inlineMode(synchronously: synchronously) {
            PromiseContext.run(mode) { invoke(result) }
        } else {
            context.schedule { [self] in
                invoke(unsafeDowncast(upstream, to: PromiseBox<ParentValue, ParentError>.self).storedResult!)
            }
        }
    }

    /// Runs on the callback's context: consult the token, run the body, release it here.
    private func invoke(_ result: PromiseResult<ParentValue, ParentError>) {
        let step: Step<Value, Error>
        if let token, token.currentGeneration != generation {
            body = nil
            switch kind {
            case .observer: step = .resolve(result as! PromiseResult<Value, Error>)
            case .transformer: step = .resolve(.cancelled)
            }
        } else {
            let body = self.body.take()!
            step = body(result)
        }
        finish(step)
    }

    private func finish(_ step: Step<Value, Error>) {
        switch step {
        case .resolve(let result): resolve(result, inline: false)
        case .adopt(let promise): pipe(from: promise._box)
        }
        releaseKeeper(inline: false)
    }

    override func dropped() {
        body = nil
        releaseKeeper(inline: false)
    }
}

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
        let handler = self.handler.take()
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
