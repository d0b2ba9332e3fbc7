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

    /// The calling thread is about to take the step `operation` on the shared cell `cell` (a
    /// `SharedAtomic`'s operation, a `PublishedField`'s write). By default, `reached(operation)`.
    package func reached(_ cell: SharedCell, _ operation: StaticString) { reached(operation) }

    /// The calling thread just made the atomic access `access` to `cell` (right after
    /// `reached(_:_:)`, with no schedule point between): what it acquires and releases.
    package func synchronized(_ cell: SharedCell, _ access: AtomicAccess) {}

    /// The calling thread reads (or writes) the published field `cell`.
    package func accessed(_ cell: SharedCell, writing: Bool) {}

    /// The calling thread wants the lock `lock`: returns when it may take it.
    package func acquiring(_ lock: ObjectIdentifier) {}

    /// The calling thread released the lock `lock`.
    package func released(_ lock: ObjectIdentifier) {}

    /// The calling thread found `message` broken, where the library would trap: `true` if the
    /// handler records it as the run's failure (the caller then returns without the step).
    package func failed(_ message: StaticString) -> Bool { false }

    /// Whether work the calling thread would hand to a timer or a dispatch queue is handed to
    /// the handler instead (`deferred(_:)`), for a scenario thread to run: a timer firing
    /// (`ContextTimer.arm`, which then starts no dispatch source), `when(fulfilled:)`'s
    /// assembly.
    package func takesDeferredWork() -> Bool { false }

    /// Work that would have run later on a queue (after `takesDeferredWork()` said `true`).
    package func deferred(_ work: @escaping @Sendable () -> Void) {}
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

/// One shared cell (`SharedAtomic`, `PublishedField`, Support/SharedCells.swift) in the
/// explorer's build: its name, and the explorer's happens-before record of it.
///
/// Safety of `@unchecked Sendable`: `name` is immutable; the record is only accessed by the
/// installed handler under its own lock (the explorer's monitor).
@usableFromInline
package final class SharedCell: @unchecked Sendable {
    /// The cell's name, the first half of its steps' labels (`state` in `state.cas`).
    package let name: StaticString
    /// The explorer's record (see `Explorer`'s happens-before check): the run it belongs to,
    /// the clock an acquire of the cell's current value joins (its release sequence), the last
    /// write of a published field (thread and epoch) and each thread's last read since. Under
    /// the handler's lock alone, so without the runtime's exclusivity checks (read and written
    /// at every access to the cell).
    @exclusivity(unchecked) package var run = -1
    @exclusivity(unchecked) package var releaseClock = VectorClock()
    @exclusivity(unchecked) package var writer = -1
    @exclusivity(unchecked) package var writeEpoch: UInt32 = 0
    @exclusivity(unchecked) package var reads = VectorClock()

    @usableFromInline
    init(_ name: StaticString) {
        self.name = name
    }

    /// The calling thread is about to take the step `operation` on this cell.
    @usableFromInline @inline(never)
    func reached(_ operation: StaticString) {
        guard let handler = SchedulePoints.handler.load(ordering: .relaxed) else { return }
        handler._withUnsafeGuaranteedRef { $0.reached(self, operation) }
    }

    /// The calling thread just made `access` to this atomic cell.
    @usableFromInline @inline(never)
    func synchronized(_ access: AtomicAccess) {
        guard let handler = SchedulePoints.handler.load(ordering: .relaxed) else { return }
        handler._withUnsafeGuaranteedRef { $0.synchronized(self, access) }
    }

    /// The calling thread reads or writes this published field.
    @usableFromInline @inline(never)
    func accessed(writing: Bool) {
        guard let handler = SchedulePoints.handler.load(ordering: .relaxed) else { return }
        handler._withUnsafeGuaranteedRef { $0.accessed(self, writing: writing) }
    }
}

/// A vector clock of the explorer's happens-before check: for each thread's slot (0 for the
/// thread that builds the scenario, `i + 1` for worker `i`), how many of that thread's releases
/// this thread has seen (in its own slot: its current epoch); or, as a published field's reads,
/// each thread's epoch at its last read. Eight slots, stored inline.
///
/// Not an array: the check copies, joins and compares clocks at every atomic access of every
/// schedule, in a debug build, where each array operation is a call into the runtime and each
/// copy of a shared array (a release sequence's clock) allocates. With arrays the check had
/// made the explorations three quarters longer.
@usableFromInline
package struct VectorClock: Sendable {
    /// The slots a clock has: the scenario's setup and seven threads.
    package static let capacity = 8
    private var s0: UInt32 = 0, s1: UInt32 = 0, s2: UInt32 = 0, s3: UInt32 = 0
    private var s4: UInt32 = 0, s5: UInt32 = 0, s6: UInt32 = 0, s7: UInt32 = 0

    package init() {}

    package subscript(slot: Int) -> UInt32 {
        get {
            switch slot {
            case 0: s0
            case 1: s1
            case 2: s2
            case 3: s3
            case 4: s4
            case 5: s5
            case 6: s6
            case 7: s7
            default: 0
            }
        }
        set {
            switch slot {
            case 0: s0 = newValue
            case 1: s1 = newValue
            case 2: s2 = newValue
            case 3: s3 = newValue
            case 4: s4 = newValue
            case 5: s5 = newValue
            case 6: s6 = newValue
            case 7: s7 = newValue
            default: preconditionFailure("VectorClock: slot \(slot) of \(Self.capacity)")
            }
        }
    }

    /// A release by the thread of `slot`: its later accesses are a new epoch.
    package mutating func tick(_ slot: Int) {
        self[slot] += 1
    }

    /// What `other` has seen, this thread has seen now (an acquire).
    package mutating func join(_ other: VectorClock) {
        if other.s0 > s0 { s0 = other.s0 }
        if other.s1 > s1 { s1 = other.s1 }
        if other.s2 > s2 { s2 = other.s2 }
        if other.s3 > s3 { s3 = other.s3 }
        if other.s4 > s4 { s4 = other.s4 }
        if other.s5 > s5 { s5 = other.s5 }
        if other.s6 > s6 { s6 = other.s6 }
        if other.s7 > s7 { s7 = other.s7 }
    }

    /// The first slot but `excluded` at which this clock is later than `seen` (an epoch, of a
    /// read, that `seen` has not caught up with), or `nil`.
    package func firstSlot(laterThan seen: VectorClock, excluding excluded: Int) -> Int? {
        var slot = 0
        while slot < Self.capacity {
            if slot != excluded && seen[slot] < self[slot] { return slot }
            slot += 1
        }
        return nil
    }
}

/// An atomic access and its ordering, as the explorer's happens-before check needs it.
@usableFromInline
package enum AtomicAccess: Sendable {
    case load(AtomicLoadOrdering)
    case store(AtomicStoreOrdering)
    /// A read-modify-write that wrote (an exchange, an add, a successful compare-exchange).
    case readModifyWrite(AtomicUpdateOrdering)
    /// A compare-exchange that failed: a load, with the failure ordering its `ordering:` implies.
    case failedCompareExchange(AtomicUpdateOrdering)

    /// Whether it acquires: joins the clock of the release sequence it reads from.
    package var acquires: Bool {
        switch self {
        case .load(let ordering): ordering != .relaxed
        case .store: false
        case .readModifyWrite(let ordering), .failedCompareExchange(let ordering): ordering != .relaxed && ordering != .releasing
        }
    }

    /// Whether it releases: a store or update that heads (or, as a read-modify-write, joins) a
    /// release sequence.
    package var releases: Bool {
        switch self {
        case .load, .failedCompareExchange: false
        case .store(let ordering): ordering != .relaxed
        case .readModifyWrite(let ordering): ordering != .relaxed && ordering != .acquiring
        }
    }

    /// Whether it writes the cell without reading it: a plain store, which ends the cell's
    /// release sequence (a read-modify-write continues it).
    package var isPlainStore: Bool {
        if case .store = self { return true }
        return false
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
/// Whether the installed handler takes the calling thread's deferred work (see
/// `SchedulePointHandler.takesDeferredWork`); `false` with no handler.
@usableFromInline @inline(never)
func schedulePointTakesDeferredWork() -> Bool {
    guard let handler = SchedulePoints.handler.load(ordering: .relaxed) else { return false }
    return handler._withUnsafeGuaranteedRef { $0.takesDeferredWork() }
}

/// Hands work that would run later on a queue to the installed handler (after
/// `schedulePointTakesDeferredWork()` said `true`).
@usableFromInline @inline(never)
func schedulePointDefer(_ work: @escaping @Sendable () -> Void) {
    guard let handler = SchedulePoints.handler.load(ordering: .relaxed) else { return }
    handler._withUnsafeGuaranteedRef { $0.deferred(work) }
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
