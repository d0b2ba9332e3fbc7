// PromiseCore: the one storage type that applies the transitions of `PromiseState` and
// `ListHead` to a promise's atomics, then carries out the actions they return — the only
// code that mutates a promise's shared state. Everything else calls its named methods.

import Synchronization

/// The type-erased shared state of one promise. `PromiseBox<Value, Error>` adds the result.
///
/// Invariants:
/// - `state` only changes through `update(_:)` (a compare-exchange loop around a *pure*
///   `PromiseState` transition) or the single atomic add in `closeAtPublish()` (which both
///   `publish` variants call). No user code ever
///   runs inside. Debug builds check every change against `PromiseState.invariantViolation`.
/// - `callbacks` and `cancelHandlers` only change through `updateList(_:_:)` (the same loop
///   around a pure `ListHead` transition) or the exchange that closes them in
///   `closeAtPublish()`.
/// - `upstream` (retained) is the promise this one propagates cancel requests to; it is
///   taken exactly once, either by the cancel request that notifies it or by resolution.
/// - `keepers` counts what can still resolve the promise: `Resolver` handles, pending
///   registrations, pipes. When it drops to zero while pending, the promise cancels (rule 1).
///
/// Safety of `@unchecked Sendable`: all mutable state is atomic; the subclass's result is
/// written once by the claimant before the release that publishes it.
@usableFromInline
class PromiseCore: PromiseNode, @unchecked Sendable {
    // Each a `SharedAtomic` (Support/SharedCells.swift): `Atomic` itself in this target, an
    // atomic whose every operation is a schedule point in the explorer's copy.
    @usableFromInline let state: SharedAtomic<UInt64>
    @usableFromInline let keepers: SharedAtomic<Int>
    @usableFromInline let callbacks: SharedAtomic<Unmanaged<PromiseNode>?>
    @usableFromInline let cancelHandlers: SharedAtomic<Unmanaged<PromiseNode>?>
    @usableFromInline let upstream: SharedAtomic<Unmanaged<PromiseCore>?>

    /// A pending promise with one keeper, owned by whoever created it.
    ///
    /// Inlinable so that a child box is built in its operator's code without an opaque call:
    /// across one, the optimizer keeps the caller's reference to the callback alive (a retain
    /// when it is stored and a release after the registration).
    @inlinable
    init(pending: Void) {
        state = SharedAtomic(PromiseState.initial.raw, "state")
        keepers = SharedAtomic(1, "keepers")
        callbacks = SharedAtomic(nil, "callbacks")
        cancelHandlers = SharedAtomic(nil, "handlers")
        upstream = SharedAtomic(nil, "upstream")
    }

    /// A promise that is resolved from the start.
    @usableFromInline
    init(resolved: Void) {
        state = SharedAtomic(PromiseState.resolvedAtCreation.raw, "state")
        keepers = SharedAtomic(0, "keepers")
        callbacks = SharedAtomic(ListHead.closedCallbacks.node, "callbacks")
        cancelHandlers = SharedAtomic(ListHead.closedCancelHandlers(.closeHandlersAsResolved).node, "handlers")
        upstream = SharedAtomic(nil, "upstream")
    }

    deinit {
        // Only reachable pending if the owner tore down something unresolvable; release nodes
        // (which cancels child promises through their own keepers) without touching `self`.
        // Unshared loads (no schedule point): a deinit has the object to itself. Acquiring:
        // the last release of the object synchronizes with this thread, but the nodes' own
        // fields were written by the threads that pushed them (cheap: a plain load on x86 and
        // arm64's ldar, once per promise).
        let list = callbacks.unsharedLoad(ordering: .acquiring)
        if !Sentinel.isSentinel(list) { dropList(list) }
        let handlers = cancelHandlers.unsharedLoad(ordering: .acquiring)
        if !Sentinel.isSentinel(handlers) { dropList(handlers) }
        upstream.unsharedLoad(ordering: .acquiring)?.release()
    }

    // MARK: Applying transitions (State/ only)

    /// The current state, with acquire ordering (the result is visible if it says resolved).
    @usableFromInline
    final var currentState: PromiseState {
        // Acquiring: pairs with `publish`'s add (a release) so that a reader who sees the
        // promise resolved sees its result, and with `update`'s compare-exchanges.
        return PromiseState(raw: state.load(ordering: .acquiring))
    }

    /// Applies a pure transition of the state word atomically and returns what it returned.
    /// Only the named events below call it.
    @inlinable
    final func update<R>(_ transition: (inout PromiseState) -> R) -> R {
        // Relaxed: only the compare-exchange below acts on the value, and it fails (reading the
        // current word, relaxed too) unless the word is still `old`; its success is the
        // acquire/release that orders this transition with the others.
        var old = state.load(ordering: .relaxed)
        while true {
            var new = PromiseState(raw: old)
            let output = transition(&new)
            if new.raw == old { return output }
            assert(new.isValid(after: PromiseState(raw: old)))
            // Acquiring and releasing: a transition publishes what its thread wrote before it (a
            // cancel request's handler list, an observer's link) and sees what the transitions
            // before it published. Failure relaxed: the loop only retries with the value.
            // (`SharedAtomic` makes it strong under the explorer.)
            let (exchanged, original) = state.weakCompareExchange(
                expected: old, desired: new.raw,
                successOrdering: .acquiringAndReleasing, failureOrdering: .relaxed)
            if exchanged { return output }
            old = original
        }
    }

    /// Applies a pure transition of one list head atomically and returns what it returned.
    @inline(__always)
    private func updateList<R>(_ list: borrowing SharedAtomic<Unmanaged<PromiseNode>?>, _ transition: (inout ListHead) -> R) -> R {
        // Acquiring (on load and on failure): a transition may fire or take the nodes it reads,
        // whose `next` fields the pushing threads wrote before their releasing exchange.
        var old = list.load(ordering: .acquiring)
        while true {
            var new = ListHead(old)
            let output = transition(&new)
            if new.node?.toOpaque() == old?.toOpaque() { return output }
            assert(new.isValid(after: ListHead(old)), "Tomorrowland: a closed list was changed")
            // Releasing: publishes the pushed node (its `next`, its payload); acquiring: as the load.
            let (exchanged, original) = list.weakCompareExchange(
                expected: old, desired: new.node,
                successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
            if exchanged { return output }
            old = original
        }
    }

    // MARK: Resolution (called by `PromiseBox.resolve`)

    /// pending → resolving; `.writeResult` if this caller won and must write the result.
    @usableFromInline
    final func claim(cancelling: Bool) -> PromiseState.ClaimAction {
        update { $0.claim(cancelling: cancelling) }
    }

    /// resolving → resolved, then closes both lists, drops the cancel handlers and the
    /// upstream link and delivers the callbacks. Called once, by the claimant, after writing
    /// the result.
    @usableFromInline
    final func publish() {
        Delivery.deliver(self, list: closeAtPublish())
    }

    /// `publish()`, running `beforeDelivering` between closing the lists and delivering the
    /// callbacks. It must not run user code: a Task-backed promise resumes the Task waiting in
    /// its await slot there, so that Task is resumed before the callbacks run, as an awaiting
    /// Task's node at the head of the list would be, not after all of them.
    @usableFromInline
    final func publish(beforeDelivering: () -> Void) {
        let list = closeAtPublish()
        #if TOMORROWLAND_SCHEDULE_POINTS
        if SchedulePoints.isReintroduced(.awaitSlotResumedAfterCallbacks) {
            Delivery.deliver(self, list: list)
            beforeDelivering()
            return
        }
        #endif
        beforeDelivering()
        Delivery.deliver(self, list: list)
    }

    /// Publish's transition: resolving → resolved, closes both lists, drops the cancel
    /// handlers and the upstream link; returns the callbacks in registration order.
    @inline(__always)
    private final func closeAtPublish() -> Unmanaged<PromiseNode>? {
        // `PromiseState.publish()` as one atomic add; only the claimant does this. Sequentially
        // consistent for `dropUpstreamAtPublish` (free on x86: a locked add either way).
        let (old, new) = state.wrappingAdd(PromiseState.publishIncrement, ordering: .sequentiallyConsistent)
        var published = PromiseState(raw: old)
        let action = published.publish()
        assert(published.raw == new && published.isValid(after: PromiseState(raw: old)),
               "Tomorrowland: publish out of step with PromiseState.publish()")
        // Rule 4: "Pending handlers are released when the promise resolves"; "onRequestCancel
        // registered after [...] the promise was cancelled runs its handler at once [...].
        // Handlers registered after the promise was fulfilled or rejected never run."
        // Acquiring and releasing: takes the handlers pushed (released) so far to drop them.
        let handlers = cancelHandlers.exchange(
            ListHead.closedCancelHandlers(action).node, ordering: .acquiringAndReleasing)
        assert(!Sentinel.isResolved(handlers), "Tomorrowland: cancel handlers closed twice")
        if !Sentinel.isSentinel(handlers) { dropList(handlers) }
        dropUpstreamAtPublish()
        // Acquiring: the pushed callbacks' nodes; releasing: a registration that finds the list
        // closed fires at once and reads the result, written before this exchange.
        let list = callbacks.exchange(ListHead.closedCallbacks.node, ordering: .acquiringAndReleasing)
        // Only an assert: `claim`'s compare-exchange lets exactly one caller reach `publish`
        // per box, so the list was never closed before. (Were it, `reverseList` would treat
        // the sentinel, a metadata address, as a node.)
        assert(!Sentinel.isSentinel(list), "Tomorrowland: callbacks closed twice")
        return reverseList(list)
    }

    /// Publish's half of the upstream hand-off (`linkUpstream` has the other half): takes and
    /// releases the link, skipping the exchange (an atomic RMW) when a load sees no link, as
    /// for every promise that was never linked (roots).
    ///
    /// Why the skip loses no link: `linkUpstream` stores the link, then loads the state word;
    /// `publish` adds to the state word, then loads the link here. All four accesses are
    /// sequentially consistent, so they fall in one total order: if publish's add comes
    /// first, link's state load sees the promise resolved and drops the link itself
    /// (`LinkAction.drop`); otherwise link's store comes before this load, which then sees the
    /// link (or `nil` because a cancel request already took it) and takes it. Both sides take
    /// with an exchange, so the link is released once. (Acquire/release alone would allow
    /// both loads to miss — the store-buffering pattern.)
    @inline(__always)
    private func dropUpstreamAtPublish() {
        guard upstream.load(ordering: .sequentiallyConsistent) != nil else { return }
        _ = takeUpstream()
    }

    /// Resolves the promise as cancelled (implemented by `PromiseBox`).
    func resolveCancelled() {}

    // MARK: Callbacks

    /// Registers `node` to fire when the promise resolves. If it already has, the node
    /// fires at once on the calling thread (`synchronously: true`).
    @usableFromInline
    final func register(_ node: PromiseNode) {
        let retained = Unmanaged.passRetained(node)
        switch updateList(callbacks, { $0.registerCallback(retained) }) {
        case .pushed:
            return
        case .fireNow:
            retained.release()
            node.upstreamResolved(self, synchronously: true)
        }
    }

    // MARK: Cancellation

    /// Registers a handler for cancel requests. Runs it at once if cancel was already
    /// requested or the promise was cancelled (rule 4); drops it if the promise was fulfilled
    /// or rejected.
    final func registerCancelHandler(_ node: PromiseNode) {
        let retained = Unmanaged.passRetained(node)
        switch updateList(cancelHandlers, { $0.registerCancelHandler(retained) }) {
        case .pushed:
            return
        case .drop:
            retained.release()
            node.dropped()
        case .runNow:
            retained.release()
            node.upstreamRequestedCancel(self, synchronously: true)
        }
    }

    /// Requests cancellation (rule 3): runs the cancel handlers, then passes the request
    /// upstream (rule 5), where it may complete the propagation and continue.
    ///
    /// Never recursive, also through handlers (rule 19: "a `requestCancel()` made while the
    /// thread is running cancel handlers [...] does not nest"): a request made while this
    /// thread carries out another is queued and drained by the outermost one, so each
    /// `Task.cancel()` returns (and releases its status lock) before the next level is
    /// asked. A request's state change is made at once (`hasRequestedCancel`
    /// shows it, later handlers run at once); its handlers run from the thread's cancel
    /// stack, depth-first like the delivery stack: the requests made while one handler ran
    /// are carried out, in the order they were made, right after it returns.
    final func requestCancel() {
        guard update({ $0.requestCancel() }) == .runHandlers else { return }
        let thread = ThreadState.current
        thread.cancelStack.append(.init(core: self, remaining: takeCancelHandlers()))
        guard !thread.isCancelling else { return }
        thread.isCancelling = true
        while let top = thread.cancelStack.indices.last {
            if let node = thread.cancelStack.takeNode(at: top) {
                thread.cancelStack[top].core._withUnsafeGuaranteedRef {
                    node.upstreamRequestedCancel($0, synchronously: false)
                }
                thread.cancelStack.orderPushed(above: top)
            } else {
                // Its handlers have run: pass the request upstream (rule 5).
                let core = thread.cancelStack.popFrame()
                if let up = core.notifyUpstream(), up.update({ $0.requestCancel() }) == .runHandlers {
                    thread.cancelStack.append(.init(core: up, remaining: up.takeCancelHandlers()))
                }
            }
        }
        thread.isCancelling = false
    }

    /// Takes the cancel-handler list (unless resolved), in registration order, and leaves
    /// the cancel-requested sentinel: handlers registered from now on run at once.
    private func takeCancelHandlers() -> Unmanaged<PromiseNode>? {
        reverseList(updateList(cancelHandlers) { $0.takeForCancelRequest() })
    }

    /// Tells the upstream (if still linked) that this observer requested cancel. Returns the
    /// promise whose own cancel request must follow, if propagation fired there.
    private func notifyUpstream() -> PromiseCore? {
        guard let up = takeUpstream() else { return nil }
        let countsOnlyOnCancel = currentState.linkCountsOnlyOnCancel
        let action = up.update {
            countsOnlyOnCancel ? $0.addCancelledObserver() : $0.observerRequestedCancel()
        }
        return action == .requestCancel ? up : nil
    }

    /// Applies a propagation action from `seal`, an observer's request, etc.
    private func apply(_ action: PromiseState.PropagationAction) {
        if action == .requestCancel { requestCancel() }
    }

    // MARK: Observers and propagation (rules 5–8)

    /// Links this promise to `up` as one propagating observer (rule 5, rule 27). If this
    /// promise was already asked to cancel, the request is passed on at once.
    /// - Parameter countsOnlyOnCancel: `onCancel` semantics (rule 7).
    @usableFromInline
    final func linkUpstream(_ up: PromiseCore, countsOnlyOnCancel: Bool = false) {
        if countsOnlyOnCancel {
            update { $0.setLinkCountsOnlyOnCancel() }
        } else {
            up.update { $0.addObserver() }
        }
        // Store, then load the state word, both sequentially consistent: `publish` skips its
        // exchange when it sees no link (`dropUpstreamAtPublish` says why that is safe).
        #if TOMORROWLAND_SCHEDULE_POINTS
        // The bug put back: the state load passes the store (what acquire/release allowed).
        var early: UInt64? = nil
        if SchedulePoints.isReintroduced(.linkLoadBeforeStore) {
            early = state.load(ordering: .sequentiallyConsistent)
        }
        #endif
        upstream.exchange(Unmanaged.passRetained(up), ordering: .sequentiallyConsistent)?.release()
        #if TOMORROWLAND_SCHEDULE_POINTS
        let stateAfterStore = early ?? state.load(ordering: .sequentiallyConsistent)
        #else
        let stateAfterStore = state.load(ordering: .sequentiallyConsistent)
        #endif
        switch PromiseState(raw: stateAfterStore).linkStored() {
        case .keep:
            break
        case .drop:
            _ = takeUpstream()
        case .passCancelRequestOn:
            if let next = notifyUpstream() { next.requestCancel() }
        }
    }

    /// Takes the upstream link (at most one caller gets it), retained for the caller.
    @inline(__always)
    final func takeUpstream() -> PromiseCore? {
        // Acquiring and releasing: the link was stored (released) by `linkUpstream`; the taker
        // gets the retain it carries.
        return upstream.exchange(nil, ordering: .acquiringAndReleasing)?.takeRetainedValue()
    }

    /// A propagating observer that requests cancel through `observerRequestedCancel` (or
    /// never: `ignoringCancel`, rule 7) registered on this promise.
    @inlinable
    final func addObserver() {
        update { $0.addObserver() }
    }

    /// One of this promise's observers requested cancel; if that was the last one and no
    /// handle is left (or `ignoringHandles`: an awaiting Task vouches that the only handles
    /// are its own), this promise is asked to cancel (rule 5).
    final func observerRequestedCancel(ignoringHandles: Bool = false) {
        apply(update { $0.observerRequestedCancel(ignoringHandles: ignoringHandles) })
    }

    /// Pre-seals the promise: handles to it never block propagation (rule 8).
    final func preseal() {
        update { $0.preseal() }
    }

    /// The last `Promise` handle went away (called by `PromiseSeal.deinit`).
    ///
    /// Skips the compare-exchange when a load sees the promise claimed: the phase never goes
    /// back, and a claimed promise never propagates (`checkPropagation`), so the sealed bit
    /// would change nothing any more.
    final func sealHandles() {
        guard !currentState.isResolvingOrResolved else { return }
        apply(update { $0.seal() })
    }

    // MARK: Keepers (rule 1)

    /// Something new can resolve this promise.
    @inline(__always)
    @usableFromInline
    final func retainKeeper() {
        // Relaxed: whoever adds a keeper already holds one (or the creator's), so the count
        // cannot reach zero meanwhile; only the decrement that reaches zero acts, below.
        keepers.wrappingAdd(1, ordering: .relaxed)
    }

    /// Something that could resolve this promise is gone. The last one cancels it if it is
    /// still pending: nothing can resolve it any more.
    @inline(__always)
    @usableFromInline
    final func releaseKeeper() {
        // Acquiring and releasing: the last release acts for every keeper before it (their
        // writes happen before its cancellation), as a reference count's release does.
        let remaining = keepers.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue
        switch PromiseState.keeperReleased(remaining: remaining, state: { currentState }) {
        case .none: break
        case .resolveCancelled: resolveCancelled()
        }
    }
}

/// Tracks the `Promise` handles of one promise: all copies share it; its `deinit` means
/// "no handle is left", which unblocks automatic cancellation propagation (rule 5).
@usableFromInline
final class PromiseSeal: Sendable {
    /// Retained by the seal and released at the end of `deinit`. `Unmanaged` so that `deinit`
    /// calls `sealHandles` on a borrowed reference: with a strong field, Swift retains and
    /// releases the core around the call (two atomic RMWs) on top of the field's own release.
    /// The borrow is safe: the seal's own retain keeps the core alive until the release below.
    private let core: Unmanaged<PromiseCore>
    @usableFromInline init(_ core: PromiseCore) { self.core = Unmanaged.passRetained(core) }
    deinit {
        core._withUnsafeGuaranteedRef { $0.sealHandles() }
        core.release()
    }
}
