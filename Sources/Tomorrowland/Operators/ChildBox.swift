// ChildBox: a child promise that is also the node registered on its parent.

/// Which parent results invoke the user's callback (and so hop to its context and
/// consult its token). Other results pass through on the resolving thread (rule 18).
@usableFromInline
struct Trigger: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8
    @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
    @inlinable static var value: Trigger { Trigger(rawValue: 1) }
    @inlinable static var error: Trigger { Trigger(rawValue: 2) }
    @inlinable static var cancelled: Trigger { Trigger(rawValue: 4) }
    @inlinable static var all: Trigger { Trigger(rawValue: 7) }

    @inlinable
    func matches<V, E>(_ result: PromiseResult<V, E>) -> Bool {
        switch result {
        case .value: return contains(.value)
        case .error: return contains(.error)
        case .cancelled: return contains(.cancelled)
        }
    }
}

/// What an operator tells the child to do.
@usableFromInline
enum Step<Value, Error> {
    /// Resolve with this result.
    case resolve(PromiseResult<Value, Error>)
    /// Adopt the result of this promise (flatMap-style callbacks, rule 27).
    case adopt(Promise<Value, Error>)
}

/// How an invalidated token affects the child (rule 14).
@usableFromInline
enum ChildKind: Sendable {
    /// then / catch / always / tap / onCancel: the callback is skipped, the child still
    /// takes the parent's result (`Value == ParentValue`, `Error == ParentError`).
    case observer
    /// map / flatMap / recover / …: the child is cancelled instead.
    case transformer
}

/// Why a child's entry point is called.
@usableFromInline
enum FirePhase: Sendable {
    /// The parent resolved (`synchronously`: it already was at registration).
    case resolved(synchronously: Bool)
    /// The callback's context is now running the scheduled work.
    case onContext
}

/// A child promise registered on a parent of type `Promise<ParentValue, ParentError>`.
///
/// The child *is* the node in its parent's callback list. Subclasses are the operators;
/// `Callback` is the type of the user's callback they store.
///
/// Allocation and instruction budget, and why the class looks like this:
/// - The callback is stored in a field typed by the class's own generic parameter
///   `Callback` (a `StoredCallback` wrapper): a closure capturing it would cost a context
///   allocation per registration, and the (unspecializable) generic deinit would need a
///   global metadata lookup for a field of type `((Value) -> Void)?`, where a field typed by
///   a generic parameter reads the metadata from the class metadata.
/// - **Specialization.** Unspecialized code pays a metadata lookup for every generic type it
///   touches. Hot operators are `@inlinable` and pass `fire`, a non-capturing closure that
///   calls `handle` with their own `step`; created in the caller's specialized code it is a
///   plain function pointer, so delivery runs specialized code end to end. Every box,
///   `ClosureChildBox` included, passes its `fire`: one dispatch mechanism, no virtual step.
///
/// Safety of `@unchecked Sendable` (and of unchecked exclusivity on `callback`): the callback
/// is read and replaced only by the single thread that fires the node (after it was taken
/// from the parent's list), or by `dropped()` on the thread that tears the list down.
@usableFromInline
class ChildBox<ParentValue, ParentError, Value, Error, Callback: ReleasableCallback>: PromiseBox<Value, Error>, @unchecked Sendable {
    @usableFromInline typealias ParentResult = PromiseResult<ParentValue, ParentError>
    /// The specialized entry point: `(self, upstream, phase)`.
    @usableFromInline typealias Fire = (PromiseNode, PromiseCore, FirePhase) -> Void

    @usableFromInline final let context: PromiseContext
    @usableFromInline final let trigger: Trigger
    @usableFromInline final let kind: ChildKind
    @usableFromInline final let token: TokenBox?
    @usableFromInline final let generation: UInt
    @usableFromInline final let fire: Fire
    /// The actor the callback is isolated to, `nil` for a nonisolated callback.
    @usableFromInline final let isolation: (any Actor)?
    @usableFromInline @exclusivity(unchecked) final var callback: Callback

    @inlinable
    init(
        context: PromiseContext,
        token: PromiseInvalidationToken?,
        trigger: Trigger,
        kind: ChildKind,
        isolation: (any Actor)?,
        callback: Callback,
        fire: @escaping Fire
    ) {
        self.context = context
        self.isolation = isolation
        self.trigger = trigger
        self.kind = kind
        if let token {
            self.token = token.box
            self.generation = token.box.currentGeneration
        } else {
            self.token = nil
            self.generation = 0
        }
        self.callback = callback
        self.fire = fire
        super.init()
    }

    /// Releases the callback without calling it.
    @inlinable
    final func releaseCallback() {
        callback.release()
    }

    override final func upstreamResolved(_ upstream: PromiseCore, synchronously: Bool) {
        fire(self, upstream, .resolved(synchronously: synchronously))
    }

    /// The body of every operator: pass through, run now, or schedule on the context.
    ///
    /// The operators' `fire` closures pass a `step` that captures the box as `Unmanaged` and
    /// calls it borrowed (`_withUnsafeGuaranteedRef`): the box is `fire`'s own node argument,
    /// which every caller keeps alive for the whole call (the delivery loop holds the node it
    /// took, `register` the node it fires, a scheduled job captures the box strongly), and
    /// `step` is non-escaping. A strong capture costs a retain and a release (two atomic RMWs)
    /// when `step` is made and again inside `handle`; an `unowned(unsafe)` one still costs
    /// a pair around each call.
    @inlinable
    final func handle(_ upstream: PromiseCore, _ phase: FirePhase, step: (ParentResult) -> Step<Value, Error>) {
        let result = unsafeDowncast(upstream, to: PromiseBox<ParentValue, ParentError>.self).publishedResult
        let synchronously: Bool
        switch phase {
        case .onContext:
            // The work scheduled below, now running on the callback's context.
            invoke(result, step)
            return
        case .resolved(let resolvedAtRegistration):
            synchronously = resolvedAtRegistration
        }
        guard trigger.matches(result) else {
            // Not invoked: pass through here, releasing the callback on the resolving thread.
            finish(step(result))
            return
        }
        if let isolation {
            deliverIsolated(upstream, synchronously: synchronously, to: isolation)
            return
        }
        switch context.route(synchronously: synchronously) {
        case .runHere(let mode):
            if synchronously {
                PromiseContext.run(mode) { invoke(result, step) }
            } else {
                // From the delivery loop, which already runs with `isExecutingNow == false`.
                invoke(result, step)
            }
        case .scheduled:
            context.schedule { [self] in fire(self, upstream, .onContext) }
        case .scheduledGuarded:
            scheduleGuarded(upstream)
        }
    }

    /// Runs the callback on its actor, as the context × isolation table says.
    @usableFromInline
    final func deliverIsolated(_ upstream: PromiseCore, synchronously: Bool, to actor: any Actor) {
        ActorDelivery.execute(on: context, synchronously: synchronously, isolation: actor) { [self] in
            fire(self, upstream, .onContext)
        }
    }

    /// Schedules the callback on a context that may drop the work unrun (a cancelled
    /// operation): then nothing can resolve this child any more, so it is dropped, which
    /// releases its callback and keeper and cancels it (rule 1) instead of leaving it pending.
    @usableFromInline
    final func scheduleGuarded(_ upstream: PromiseCore) {
        let work = UnrunWorkGuard(node: self)
        context.schedule { [self] in
            work.markRan()
            fire(self, upstream, .onContext)
        }
    }

    /// Runs on the callback's context: consult the token, run the callback, release it here.
    @inlinable
    final func invoke(_ result: ParentResult, _ step: (ParentResult) -> Step<Value, Error>) {
        if let token, token.currentGeneration != generation {
            releaseCallback()
            switch kind {
            case .observer: finish(.resolve(result as! PromiseResult<Value, Error>))
            case .transformer: finish(.resolve(.cancelled))
            }
        } else {
            finish(step(result))
        }
    }

    @inlinable
    final func finish(_ step: Step<Value, Error>) {
        switch step {
        case .resolve(let result): resolve(result)
        case .adopt(let promise): pipe(from: promise._box)
        }
        releaseKeeper()
    }

    override final func dropped() {
        releaseCallback()
        releaseKeeper()
    }
}
