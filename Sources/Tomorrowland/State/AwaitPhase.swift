// AwaitPhase: every phase and transition of one awaiting Task's continuation, in one place.
//
// The pure machine (`AwaitPhase.transition(from:on:)`: phase and event in, next phase and
// action out), beside `PromiseState`, which is the same for the promise; and the one
// extension that applies it to the atomic byte (`SharedAtomic<AwaitPhase>.apply(_:)`). The
// handshake that acts on the actions (store the continuation, resume it) is `AwaitSlot`'s
// (Awaiting/PromiseAwaiter.swift).

import Synchronization

/// Where one awaiting Task's continuation stands: one atomic byte, changed by
/// compare-exchange only (or, out of a phase only `arm` leaves, a plain store), so no
/// impossible combination ("resumed but still armed") can be written. Phases only move
/// forward, and whoever moves to `resumed` from `armed`, `stopRequested` or `resolvedEarly`
/// resumes the continuation, exactly once.
///
/// ```
///  free ──claim──▶ waiting ──arm──▶ armed ──resolve / stop──▶ resumed (resume)
///   │                 ├──stop──▶ stopRequested ──arm──▶ resumed (resume: stopped)
///   │                 └──resolve──▶ resolvedEarly ──arm──▶ resumed (resume: result)
///   └──resolve──▶ resumed (slot closed: later awaits use a node)
/// ```
/// A `PromiseAwaiter` node starts `waiting` and registers on the promise only once armed,
/// so it never sees `free` or `resolvedEarly`. A `TaskPromiseBox` slot starts `free`.
enum AwaitPhase: UInt8, AtomicRepresentable, CaseIterable {
    /// A Task-backed box's await slot nobody claimed yet.
    case free
    /// A Task waits; its continuation is not stored yet.
    case waiting
    /// The continuation is stored; resolution or a stop request resumes it.
    case armed
    /// The Task asked to stop waiting before its continuation was stored.
    case stopRequested
    /// The promise resolved before the continuation was stored.
    case resolvedEarly
    /// Final: the continuation was taken (or the slot closed unclaimed).
    case resumed

    /// What happens to a wait.
    enum Event: CaseIterable {
        /// A Task takes a box's await slot.
        case claim
        /// The awaiting Task stored its continuation.
        case arm
        /// The awaiting Task asked to stop waiting (it was cancelled, `stopWaitingOnCancel`).
        case stop
        /// The promise resolved (or was torn down).
        case resolve

        /// The phase the applier expects first (the common case), before reading the byte.
        @inline(__always)
        var expectedPhase: AwaitPhase {
            switch self {
            case .claim: .free
            case .arm, .stop: .waiting
            case .resolve: .armed
            }
        }
    }

    /// What the thread that applied an event must do next.
    enum Action: Equatable {
        /// Nothing: keep waiting, someone else resumes, or the wait already ended (a claim:
        /// refused, the slot is taken or closed).
        case nothing
        /// The slot is the caller's: count the Task as an observer and arm.
        case claimed
        /// Take the continuation and resume it with the promise's result.
        case resumeWithResult
        /// Take the continuation and resume it as stopped.
        case resumeStopped
        /// A bug in the caller: a continuation armed twice, or armed without a wait.
        case armedTwice
    }

    /// The pure transition: `event` in this phase gives the next phase (`phase` itself when
    /// nothing changes) and the action for the thread that makes the change.
    @inline(__always)
    static func transition(from phase: AwaitPhase, on event: Event) -> (next: AwaitPhase, action: Action) {
        switch (event, phase) {
        case (.claim, .free): (.waiting, .claimed)
        case (.claim, _): (phase, .nothing)

        case (.arm, .waiting): (.armed, .nothing)
        case (.arm, .stopRequested): (.resumed, .resumeStopped)
        case (.arm, .resolvedEarly): (.resumed, .resumeWithResult)
        case (.arm, .free), (.arm, .armed), (.arm, .resumed): (phase, .armedTwice)

        case (.stop, .waiting): (.stopRequested, .nothing)
        case (.stop, .armed): (.resumed, .resumeStopped)
        case (.stop, _): (phase, .nothing)

        case (.resolve, .free): (.resumed, .nothing)
        case (.resolve, .waiting): (.resolvedEarly, .nothing)
        case (.resolve, .armed): (.resumed, .resumeWithResult)
        case (.resolve, _): (phase, .nothing)
        }
    }

    /// Only `arm` moves on from this phase (the awaiting Task itself), so the applier writes
    /// its next phase with a plain store.
    @inline(__always)
    var isLeftOnlyByArm: Bool {
        self == .stopRequested || self == .resolvedEarly
    }

    // The conformance by hand: the one derived from `RawRepresentable` checks the raw value
    // when decoding (also when an `Atomic` is destroyed: a retain, a release and a trap
    // branch in every deinit). Only this type's cases are ever stored.
    typealias AtomicRepresentation = UInt8.AtomicRepresentation

    @inline(__always)
    static func encodeAtomicRepresentation(_ value: consuming AwaitPhase) -> AtomicRepresentation {
        UInt8.encodeAtomicRepresentation(value.rawValue)
    }

    @inline(__always)
    static func decodeAtomicRepresentation(_ storage: consuming AtomicRepresentation) -> AwaitPhase {
        unsafeBitCast(UInt8.decodeAtomicRepresentation(storage), to: AwaitPhase.self)
    }
}

extension SharedAtomic where Value == AwaitPhase {
    /// Applies `event`: compare-exchanges from the event's expected phase and, when another
    /// phase is found, re-runs the pure transition on it, until the phase it computed from is
    /// the one replaced (or nothing changes). Out of a phase only `arm` leaves, a plain store.
    /// Returns the action for the caller.
    ///
    /// Every way out moves the phase on: an `armed` found by a failed compare-exchange (the
    /// Task armed in between) is moved to `resumed` too before the caller takes the
    /// continuation. (Returning on that `armed` without moving it left the phase `armed`, and
    /// a later stop request resumed the taken continuation again: found by the interleaving
    /// explorer, Tests/InterleavingTests; put back by `resolvedLeavesArmed`.)
    @inline(__always)
    func apply(_ event: AwaitPhase.Event) -> AwaitPhase.Action {
        var phase = event.expectedPhase
        #if TOMORROWLAND_SCHEDULE_POINTS
        var retried = false
        #endif
        while true {
            #if TOMORROWLAND_SCHEDULE_POINTS
            if event == .resolve, retried, phase == .armed, SchedulePoints.isReintroduced(.resolvedLeavesArmed) {
                return .resumeWithResult
            }
            #endif
            let (next, action) = AwaitPhase.transition(from: phase, on: event)
            if next == phase { return action }
            if phase.isLeftOnlyByArm {
                // Releasing: the Task stored its continuation before; the store ends the wait,
                // and only this thread takes the continuation (no one acquires the store).
                store(next, ordering: .releasing)
                return action
            }
            // Acquiring and releasing: `arm` releases the stored continuation, and whoever moves
            // the phase on from `armed` acquires it before taking it.
            let found = compareExchange(expected: phase, desired: next, ordering: .acquiringAndReleasing).original
            if found == phase { return action }
            phase = found
            #if TOMORROWLAND_SCHEDULE_POINTS
            retried = true
            #endif
        }
    }
}
