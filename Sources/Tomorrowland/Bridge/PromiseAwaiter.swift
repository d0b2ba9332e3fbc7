// PromiseAwaiter: how a suspended Task waits for a promise (the machinery behind
// TomorrowlandAsync's `resolvedResult` and `value`).

import Synchronization

extension Promise {
    /// Waits for this pending promise on behalf of the current Task; `nil` when the Task
    /// stopped waiting (`stopWaitingOnCancel`) or the promise was torn down unresolved.
    ///
    /// - Callers check `result` first (the synchronous fast path); if the promise resolved
    ///   in between, registration fires at once and this returns without suspending.
    /// - One `PromiseAwaiter` node is allocated. The awaiting Task counts as one
    ///   propagating observer of the promise (rule 5). When the Task is cancelled, that
    ///   observer requests cancel *ignoring handles*: the awaiting code's own handle to the
    ///   promise must not block propagation, only other observers do.
    /// - Runs on the caller's isolation (`nonisolated(nonsending)`): awaiting from an actor
    ///   does not hop off it.
    /// - `@inlinable`, so it is specialized and inlined into the caller's async function:
    ///   no generic metadata lookups and no extra async frame. The node is not generic.
    @inlinable
    package nonisolated(nonsending) func _awaitPending(stopWaitingOnCancel: Bool) async -> PromiseResult<Value, Error>? {
        let box = _box
        let awaiter = PromiseAwaiter(core: box, stopWaitingOnCancel: stopWaitingOnCancel)
        let stopped = await withTaskCancellationHandler {
            await withAwaitContinuation { awaiter.arm($0) }
        } onCancel: {
            awaiter.taskCancelled()
        }
        return stopped ? nil : box.result
    }
}

/// The awaiting Task's continuation: checked in debug builds (a double resume traps, a leak
/// is logged), unsafe in release builds (no canary allocation); the flags in
/// `PromiseAwaiter` make it exactly-once. Resumed with `true` when the Task stopped waiting
/// before the promise resolved.
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

/// The node a suspended Task registers on a pending promise: resumes the Task's
/// continuation exactly once, when the promise resolves or (for the stop-waiting variant)
/// when the Task is cancelled, whichever comes first.
///
/// Exactly-once protocol, on one atomic byte:
/// - `armed`: the continuation is stored (set with release by `arm`, after the write).
/// - `stopRequested`: the Task was cancelled and wants to stop waiting.
/// - `resumed`: the continuation was taken; the thread that sets it resumes it.
/// Resolution can only reach the node after `arm` registered it, and a cancellation that
/// happens before `arm` is picked up by `arm` itself, so no path resumes twice or never.
///
/// The continuation is resumed with `true` when the Task stopped waiting (the winner
/// knows how it resumed, so no flag has to be read back after resumption).
///
/// Safety of `@unchecked Sendable` (and of unchecked exclusivity on `continuation`):
/// `continuation` is written once before `armed` is published and taken only by the single
/// thread that set `resumed`.
@usableFromInline
final class PromiseAwaiter: PromiseNode, @unchecked Sendable {
    private static let armed: UInt8 = 1
    private static let stopRequested: UInt8 = 2
    private static let resumed: UInt8 = 4

    private let core: PromiseCore
    private let stopWaitingOnCancel: Bool
    private let flags = Atomic<UInt8>(0)
    @exclusivity(unchecked) private var continuation: AwaitContinuation?

    /// Creates the node and counts the awaiting Task as one propagating observer of `core`.
    @usableFromInline
    init(core: PromiseCore, stopWaitingOnCancel: Bool) {
        self.core = core
        self.stopWaitingOnCancel = stopWaitingOnCancel
        super.init()
        core.addObserver()
    }

    deinit {
        let state = flags.load(ordering: .acquiring)
        assert(state & Self.armed == 0 || state & Self.resumed != 0, "Tomorrowland: leaked an awaiting continuation")
    }

    /// Stores the continuation and registers on the promise (which resumes at once if it
    /// already resolved), unless the Task already asked to stop waiting.
    @usableFromInline
    func arm(_ continuation: AwaitContinuation) {
        self.continuation = continuation
        let old = flags.bitwiseOr(Self.armed, ordering: .acquiringAndReleasing).oldValue
        if old & Self.stopRequested != 0 {
            resumeOnce(stopping: true)
        } else {
            core.register(self)
        }
    }

    /// The awaiting Task was cancelled: this observer requests cancel (ignoring the
    /// awaiting code's handles), and the stop-waiting variant resumes at once.
    @usableFromInline
    func taskCancelled() {
        core.observerRequestedCancel(ignoringHandles: true)
        guard stopWaitingOnCancel else { return }
        let old = flags.bitwiseOr(Self.stopRequested, ordering: .acquiringAndReleasing).oldValue
        if old & Self.armed != 0 { resumeOnce(stopping: true) }
    }

    override func upstreamResolved(_ upstream: PromiseCore, synchronously: Bool) {
        resumeOnce()
    }

    override func dropped() {
        resumeOnce()
    }

    private func resumeOnce(stopping: Bool = false) {
        let old = flags.bitwiseOr(Self.resumed, ordering: .acquiringAndReleasing).oldValue
        guard old & Self.resumed == 0, let continuation = continuation.take() else { return }
        continuation.resume(returning: stopping)
    }
}
