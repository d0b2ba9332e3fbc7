// PromiseAwaiter: how a suspended Task waits for a promise (the machinery behind
// TomorrowlandAsync's `resolvedResult` and `value`).

import Synchronization

extension Promise {
    /// Waits for this pending promise on behalf of the current Task; `nil` when the Task
    /// stopped waiting (`stopWaitingOnCancel`) or the promise was torn down unresolved.
    ///
    /// - Callers check `result` first (the synchronous fast path); if the promise resolved
    ///   in between, the wait ends at once without suspending.
    /// - The first Task awaiting a Task-backed promise waits in the box itself (its await
    ///   slot, see `TaskPromiseBox`): nothing is allocated. Any other await allocates one
    ///   `PromiseAwaiter` node. Either way the awaiting Task counts as one propagating
    ///   observer of the promise (rule 5). When the Task is cancelled, that observer requests
    ///   cancel *ignoring handles*: the awaiting code's own handle to the promise must not
    ///   block propagation, only other observers do.
    /// - Runs on the caller's isolation (`nonisolated(nonsending)`): awaiting from an actor
    ///   does not hop off it.
    /// - `@inlinable`, so it is specialized and inlined into the caller's async function:
    ///   no generic metadata lookups and no extra async frame (`@inline(__always)`, as the
    ///   getters that call it: in a large caller the optimizer would leave one of them out
    ///   of line). The node is not generic.
    @inlinable @inline(__always)
    package nonisolated(nonsending) func _awaitPending(stopWaitingOnCancel: Bool) async -> PromiseResult<Value, Error>? {
        let box = _box
        // The target is held unmanaged (no retain and release around the wait, which the
        // Task resolving the promise would contend for): the box is kept alive by `self` for
        // the whole call (`_fixLifetime` below), and a node by the reference this function
        // owns until the wait is over. The cancellation handler, the only other user, cannot
        // outlive `suspend`: `withTaskCancellationHandler` removes it under the Task's
        // status-record lock, which a running handler holds until it returns.
        let target: Unmanaged<PromiseNode>
        let ownsNode = !box.takeAwaitSlotAndObserve(stopWaitingOnCancel: stopWaitingOnCancel)
        if ownsNode {
            target = PromiseAwaiter.retained(core: box, stopWaitingOnCancel: stopWaitingOnCancel)
        } else {
            target = .passUnretained(box)
        }
        let stopped = await suspend(on: target)
        _fixLifetime(box)
        if ownsNode { target.release() }
        return stopped ? nil : box.result
    }
}

/// Suspends the current Task on `target` (a `PromiseAwaiter` node, or a `TaskPromiseBox`'s
/// own await slot: see `PromiseNode.storeContinuationAndWait`) until it resumes the
/// continuation; returns `true` when the Task stopped waiting before the promise resolved.
/// One suspension point for both kinds of target keeps the inlined await small. `target` is
/// not retained: the caller keeps it alive until this returns.
@inlinable @inline(__always)
nonisolated(nonsending) func suspend(on target: Unmanaged<PromiseNode>) async -> Bool {
    await withTaskCancellationHandler {
        await withAwaitContinuation { continuation in
            target._withUnsafeGuaranteedRef { $0.storeContinuationAndWait(continuation) }
        }
    } onCancel: {
        target._withUnsafeGuaranteedRef { $0.requestCancelForAwaitingTask() }
    }
}

/// The awaiting Task's continuation: checked in debug builds (a double resume traps, a leak
/// is logged), unsafe in release builds (no canary allocation); `AwaitPhase` makes it
/// exactly-once. Resumed with `true` when the Task stopped waiting before the promise
/// resolved (the resuming thread knows how the wait ended, so nothing is read back after).
#if DEBUG
@usableFromInline
typealias AwaitContinuation = CheckedContinuation<Bool, Never>
#else
@usableFromInline
typealias AwaitContinuation = UnsafeContinuation<Bool, Never>
#endif

/// Suspends the Task on an `AwaitContinuation`.
@inlinable @inline(__always)
nonisolated(nonsending) func withAwaitContinuation(_ body: (AwaitContinuation) -> Void) async -> Bool {
    #if DEBUG
    await withCheckedContinuation(body)
    #else
    await withUnsafeContinuation(body)
    #endif
}

/// One awaiting Task's wait, the handshake around `AwaitPhase`'s transitions: store the
/// continuation and arm, stop on cancel, resume on resolution, each continuation resumed
/// exactly once. Written once here for both kinds of await target, a `PromiseAwaiter` node
/// and a `TaskPromiseBox`'s await slot; each stores the fields (separate stored properties,
/// so no access to one ever overlaps an access to another) and forwards here, passing its
/// `awaitPhase` (a requirement of the noncopyable `Atomic` type would be read through an
/// accessor coroutine that is not inlined: an out-of-line call on every await).
///
/// Safety of the conformers' `@unchecked Sendable` as far as the wait goes (and of unchecked
/// exclusivity on `awaitContinuation`): `awaitPhase` is atomic. `awaitContinuation` is
/// written once, by the awaiting Task, before its compare-exchange moves the phase to
/// `armed`, and taken only by the single thread that moved the phase to `resumed`: by a
/// compare-exchange (both acquiring and releasing), or, out of `stopRequested` or
/// `resolvedEarly`, by the awaiting Task's own store: no two threads ever access it at once.
/// `awaitStopsOnCancel` is written before the awaiting Task installs the cancellation
/// handler that reads it.
protocol AwaitSlot: AnyObject {
    /// The awaiting Task's continuation, while stored (published by the `arm` compare-exchange).
    var awaitContinuation: PublishedField<AwaitContinuation?> { get set }
    /// Whether the awaiting Task stops waiting at once when cancelled (`stopWaitingOnCancel`).
    var awaitStopsOnCancel: Bool { get }
}

extension AwaitSlot {
    /// Stores the continuation and arms the wait; `true` if the wait goes on, `false` if it
    /// already ended (the promise resolved or the Task stopped waiting) and the continuation
    /// was resumed.
    @inline(__always)
    func storeAndArm(_ continuation: AwaitContinuation, phase: borrowing SharedAtomic<AwaitPhase>) -> Bool {
        publishField(&awaitContinuation, continuation)
        switch phase.apply(.arm) {
        case .nothing: return true
        case .resumeStopped: resumeAwait(stopping: true)
        case .resumeWithResult: resumeAwait(stopping: false)
        case .claimed, .armedTwice: preconditionFailure("Tomorrowland: an await was armed twice")
        }
        return false
    }

    /// The awaiting Task was cancelled (and its observer requested cancel): the stop-waiting
    /// variant resumes at once.
    @inline(__always)
    func awaitCancelled(phase: borrowing SharedAtomic<AwaitPhase>) {
        if awaitStopsOnCancel, phase.apply(.stop) == .resumeStopped { resumeAwait(stopping: true) }
    }

    /// The promise resolved (or was torn down): resumes the continuation if armed; otherwise
    /// `storeAndArm` will, or the wait already ended.
    @inline(__always)
    func awaitResolved(phase: borrowing SharedAtomic<AwaitPhase>) {
        if phase.apply(.resolve) == .resumeWithResult { resumeAwait(stopping: false) }
    }

    /// Takes the continuation and resumes it: only the thread that moved the phase to
    /// `resumed` calls this.
    @inline(__always)
    private func resumeAwait(stopping: Bool) {
        #if TOMORROWLAND_SCHEDULE_POINTS
        // Under the explorer a second resume is reported as the run's failure (replayable)
        // instead of trapping the test process.
        guard let continuation = takeField(&awaitContinuation) else {
            if schedulePointFailure("continuation resumed twice") { return }
            preconditionFailure("Tomorrowland: an awaiting Task's continuation was resumed twice")
        }
        continuation.resume(returning: stopping)
        #else
        takeField(&awaitContinuation)!.resume(returning: stopping)
        #endif
    }
}

/// The node a suspended Task registers on a pending promise: resumes the Task's
/// continuation exactly once (see `AwaitSlot`), when the promise resolves or (for the
/// stop-waiting variant) when the Task is cancelled, whichever comes first. It registers
/// only once armed, so resolution always finds the continuation stored.
///
/// Safety of `@unchecked Sendable`: the wait's fields, see `AwaitSlot`; the others are `let`.
@usableFromInline
final class PromiseAwaiter: PromiseNode, AwaitSlot, @unchecked Sendable {
    private let core: PromiseCore
    let awaitStopsOnCancel: Bool
    let awaitPhase = SharedAtomic<AwaitPhase>(.waiting, "awaitPhase")
    @exclusivity(unchecked) var awaitContinuation = publishedField(AwaitContinuation?.none, "continuation")

    /// Creates the node and counts the awaiting Task as one propagating observer of `core`.
    @usableFromInline
    init(core: PromiseCore, stopWaitingOnCancel: Bool) {
        self.core = core
        self.awaitStopsOnCancel = stopWaitingOnCancel
        super.init()
        core.addObserver()
    }

    /// A new node for `core`, retained for the caller (one call, to keep the inlined await small).
    @usableFromInline
    static func retained(core: PromiseCore, stopWaitingOnCancel: Bool) -> Unmanaged<PromiseNode> {
        .passRetained(PromiseAwaiter(core: core, stopWaitingOnCancel: stopWaitingOnCancel))
    }

    #if DEBUG
    deinit {
        assert(awaitPhase.unsharedLoad(ordering: .acquiring) != .armed, "Tomorrowland: leaked an awaiting continuation")
    }
    #endif

    /// Stores the continuation and registers on the promise (which resumes at once if it
    /// already resolved), unless the Task already asked to stop waiting.
    override func storeContinuationAndWait(_ continuation: AwaitContinuation) {
        if storeAndArm(continuation, phase: awaitPhase) { core.register(self) }
    }

    /// The awaiting Task was cancelled: this observer requests cancel (ignoring the
    /// awaiting code's handles), and the stop-waiting variant resumes at once.
    override func requestCancelForAwaitingTask() {
        core.observerRequestedCancel(ignoringHandles: true)
        awaitCancelled(phase: awaitPhase)
    }

    /// Firing only resumes the awaiting Task's continuation.
    override var runsNoUserCode: Bool { true }

    override func upstreamResolved(_ upstream: PromiseCore, synchronously: Bool) {
        awaitResolved(phase: awaitPhase)
    }

    override func dropped() {
        awaitResolved(phase: awaitPhase)
    }
}
