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
/// The child *is* the node in its parent's callback list. Subclasses are the operators:
/// each stores the user's callback in a field of its own concrete function type and
/// overrides `step(_:)`. (Storing it behind a closure, or in a field of an opaque generic
/// type, would cost one more allocation per registration in unspecialized code: a closure
/// context or a reabstraction thunk.) `ClosureChildBox` adapts a plain closure for the
/// operators that are not on hot paths.
///
/// Callbacks are cleared with `callback = nil`, never `Optional.take()`: that generic call
/// reabstracts a function value through a heap-allocated thunk.
///
/// Safety of `@unchecked Sendable`: the callback is read and cleared only by the single
/// thread that fires the node (after it was taken from the parent's list).
class ChildBox<ParentValue, ParentError, Value, Error>: PromiseBox<Value, Error>, @unchecked Sendable {
    typealias ParentResult = PromiseResult<ParentValue, ParentError>

    final let context: PromiseContext
    final let trigger: Trigger
    final let kind: ChildKind
    final let token: TokenBox?
    final let generation: UInt

    init(context: PromiseContext, token: PromiseInvalidationToken?, trigger: Trigger, kind: ChildKind) {
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
        super.init()
    }

    /// Maps the parent's result to this child's resolution, taking (and so releasing, on
    /// the calling thread) the callback. Calls user code only for results in `trigger`.
    func step(_ result: ParentResult) -> Step<Value, Error> {
        fatalError("ChildBox.step must be overridden")
    }

    /// Releases the callback without calling it.
    func releaseCallback() {}

    @inline(__always)
    private static func parentResult(_ upstream: PromiseCore) -> ParentResult {
        unsafeDowncast(upstream, to: PromiseBox<ParentValue, ParentError>.self).storedResult!
    }

    override final func upstreamResolved(_ upstream: PromiseCore, synchronously: Bool) {
        let result = Self.parentResult(upstream)
        guard trigger.matches(result) else {
            // Not invoked: pass through here, releasing the callback on the resolving thread.
            finish(step(result))
            return
        }
        if let mode = context.inlineMode(synchronously: synchronously) {
            PromiseContext.run(mode) { invoke(result) }
        } else {
            context.schedule { [self] in invoke(Self.parentResult(upstream)) }
        }
    }

    /// Runs on the callback's context: consult the token, run the callback, release it here.
    private func invoke(_ result: ParentResult) {
        let step: Step<Value, Error>
        if let token, token.currentGeneration != generation {
            releaseCallback()
            switch kind {
            case .observer: step = .resolve(result as! PromiseResult<Value, Error>)
            case .transformer: step = .resolve(.cancelled)
            }
        } else {
            step = self.step(result)
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

    override final func dropped() {
        releaseCallback()
        releaseKeeper(inline: false)
    }
}

/// A child whose operator is a closure from the parent's result to a `Step`.
final class ClosureChildBox<ParentValue, ParentError, Value, Error>: ChildBox<ParentValue, ParentError, Value, Error>, @unchecked Sendable {
    private var body: ((ParentResult) -> Step<Value, Error>)?

    init(context: PromiseContext, token: PromiseInvalidationToken?, trigger: Trigger, kind: ChildKind, body: @escaping (ParentResult) -> Step<Value, Error>) {
        self.body = body
        super.init(context: context, token: token, trigger: trigger, kind: kind)
    }

    override func step(_ result: ParentResult) -> Step<Value, Error> {
        let body = self.body!
        self.body = nil
        return body(result)
    }

    override func releaseCallback() { body = nil }
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
