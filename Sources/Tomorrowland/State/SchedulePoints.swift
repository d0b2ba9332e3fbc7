// SchedulePoints: the explorer's build only. Every atomic step of the core, of the await
// handshake and of `Locked` first reports here, so that the interleaving explorer
// (Tests/InterleavingTests) can run one thread at a time and choose which one takes the next step.
//
// `TOMORROWLAND_SCHEDULE_POINTS` is defined only for `TomorrowlandExplored`, a test-only copy of
// this library (Tests/TomorrowlandExplored links to these sources), in debug builds (Package.swift):
// in the `Tomorrowland` target, the one apps build, this file is empty and every call site is
// compiled out. In the copy, with no explorer installed, a schedule point is a call that reads
// the installed handler (a lazily initialized global: a one-time check, then one relaxed atomic
// load) and returns.

#if TOMORROWLAND_SCHEDULE_POINTS
import Synchronization

/// Receives the schedule points. The explorer subclasses it; the base class does nothing.
///
/// Safety of `@unchecked Sendable`: no stored state here; a subclass synchronizes its own.
@usableFromInline
package class SchedulePointHandler: @unchecked Sendable {
    package init() {}

    /// The calling thread is about to take the atomic step `label`.
    package func reached(_ label: StaticString) {}

    /// The calling thread wants the lock `lock`: returns when it may take it.
    package func acquiring(_ lock: ObjectIdentifier) {}

    /// The calling thread released the lock `lock`.
    package func released(_ lock: ObjectIdentifier) {}

    /// The calling thread found `message` broken, where the library would trap: `true` if the
    /// handler records it as the run's failure (the caller then returns without the step).
    package func failed(_ message: StaticString) -> Bool { false }
}

/// The installed handler, and the test-only switches that put past bugs back.
@usableFromInline
package enum SchedulePoints {
    /// Unretained: `install` requires a handler that lives for the rest of the process, since
    /// a thread may still be inside it when another thread uninstalls it.
    @usableFromInline
    static let handler = Atomic<Unmanaged<SchedulePointHandler>?>(nil)

    /// Installs `handler` (kept alive by the caller for the rest of the process), or removes it.
    package static func install(_ handler: SchedulePointHandler?) {
        self.handler.store(handler.map { .passUnretained($0) }, ordering: .sequentiallyConsistent)
    }

    /// A past bug that a test can put back, to show that the explorer finds it.
    @usableFromInline
    package enum Bug: Int, CaseIterable, Sendable {
        /// `retry`: an attempt rejecting after the cancel request stopped the driver resolved
        /// the output with that (retryable) error instead of cancelling it (5a969b2).
        case retryResolvesAfterStop
        /// The `publish` / `linkUpstream` hand-off with acquire/release ordering (before
        /// e5fea2c): `linkUpstream`'s load of the state word may pass its store of the link
        /// (store buffering), so both sides can miss each other and the link stays on the
        /// resolved promise. Put back as that reordering: the load is made before the store.
        case linkLoadBeforeStore
        /// A Task-backed promise resumes the Task in its await slot after delivering all
        /// callbacks, not before them (c26eb39; put back in `publish(beforeDelivering:)`).
        case awaitSlotResumedAfterCallbacks
        /// `Atomic<AwaitPhase>.apply(.resolve)` resuming on an `armed` found by a failed
        /// compare-exchange without moving it to `resumed` (found by this explorer, daf1210):
        /// a later stop request resumed the continuation a second time.
        case resolvedLeavesArmed
    }

    private static let bugs = Atomic<Int>(0)

    /// Puts `bug` back (or removes it again). Tests only, one at a time.
    package static func reintroduce(_ bug: Bug, _ on: Bool) {
        let bit = 1 << bug.rawValue
        if on { bugs.bitwiseOr(bit, ordering: .sequentiallyConsistent) } else { bugs.bitwiseAnd(~bit, ordering: .sequentiallyConsistent) }
    }

    /// Whether `bug` is put back.
    @usableFromInline
    static func isReintroduced(_ bug: Bug) -> Bool {
        bugs.load(ordering: .relaxed) & (1 << bug.rawValue) != 0
    }
}

// The hooks load the handler `.relaxed`: they are in every debug build, client apps' debug
// builds of this package included, so with no explorer the check is as cheap as it can be.
// Enough for a handler: it is created before it is installed and never freed, and the explorer
// synchronizes its own state (its monitor); its worker threads start after it was created.

/// A schedule point: the calling thread is about to take the atomic step `label`.
@usableFromInline @inline(never)
func schedulePoint(_ label: StaticString) {
    guard let handler = SchedulePoints.handler.load(ordering: .relaxed) else { return }
    handler._withUnsafeGuaranteedRef { $0.reached(label) }
}

/// The calling thread is about to take the lock identified by `lock`.
@usableFromInline @inline(never)
func schedulePointAcquiring(_ lock: AnyObject) {
    guard let handler = SchedulePoints.handler.load(ordering: .relaxed) else { return }
    handler._withUnsafeGuaranteedRef { $0.acquiring(ObjectIdentifier(lock)) }
}

/// The calling thread released the lock identified by `lock`.
@usableFromInline @inline(never)
func schedulePointReleased(_ lock: AnyObject) {
    guard let handler = SchedulePoints.handler.load(ordering: .relaxed) else { return }
    handler._withUnsafeGuaranteedRef { $0.released(ObjectIdentifier(lock)) }
}
/// An invariant broke where the library would trap: `true` if the installed handler records
/// it as the run's failure and the caller should go on without the step; `false` (no handler,
/// or not a scenario thread): the caller traps.
@usableFromInline @inline(never)
func schedulePointFailure(_ message: StaticString) -> Bool {
    guard let handler = SchedulePoints.handler.load(ordering: .relaxed) else { return false }
    return handler._withUnsafeGuaranteedRef { $0.failed(message) }
}
#endif
