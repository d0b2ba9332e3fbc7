// The pure machine of an awaiting Task's continuation (AwaitPhase): every phase × every
// event against a table, the applier on the atomic against the same table, and the
// exactly-once handshake as sequences of events.

import Synchronization
import Testing
@testable import Tomorrowland

@Suite("Await phases")
struct AwaitPhaseTests {
    typealias Row = (phase: AwaitPhase, event: AwaitPhase.Event, next: AwaitPhase, action: AwaitPhase.Action)

    /// Every phase × every event: the next phase and the action (the diagram of `AwaitPhase`).
    static let table: [Row] = [
        (.free, .claim, .waiting, .claimed),
        (.free, .arm, .free, .armedTwice),
        (.free, .stop, .free, .nothing),
        (.free, .resolve, .resumed, .nothing),

        (.waiting, .claim, .waiting, .nothing),
        (.waiting, .arm, .armed, .nothing),
        (.waiting, .stop, .stopRequested, .nothing),
        (.waiting, .resolve, .resolvedEarly, .nothing),

        (.armed, .claim, .armed, .nothing),
        (.armed, .arm, .armed, .armedTwice),
        (.armed, .stop, .resumed, .resumeStopped),
        (.armed, .resolve, .resumed, .resumeWithResult),

        (.stopRequested, .claim, .stopRequested, .nothing),
        (.stopRequested, .arm, .resumed, .resumeStopped),
        (.stopRequested, .stop, .stopRequested, .nothing),
        (.stopRequested, .resolve, .stopRequested, .nothing),

        (.resolvedEarly, .claim, .resolvedEarly, .nothing),
        (.resolvedEarly, .arm, .resumed, .resumeWithResult),
        (.resolvedEarly, .stop, .resolvedEarly, .nothing),
        (.resolvedEarly, .resolve, .resolvedEarly, .nothing),

        (.resumed, .claim, .resumed, .nothing),
        (.resumed, .arm, .resumed, .armedTwice),
        (.resumed, .stop, .resumed, .nothing),
        (.resumed, .resolve, .resumed, .nothing),
    ]

    @Test func theTableCoversEveryPhaseAndEventOnce() {
        let pairs = Set(Self.table.map { "\($0.phase)|\($0.event)" })
        #expect(pairs.count == Self.table.count, "no pair twice")
        #expect(pairs.count == AwaitPhase.allCases.count * AwaitPhase.Event.allCases.count)
    }

    @Test func everyTransitionIsTheTables() {
        for row in Self.table {
            let (next, action) = AwaitPhase.transition(from: row.phase, on: row.event)
            #expect(next == row.next, "\(row.phase) on \(row.event)")
            #expect(action == row.action, "\(row.phase) on \(row.event)")
        }
    }

    @Test func theApplierOnTheAtomicGivesTheTablesPhaseAndAction() {
        for row in Self.table {
            let phase = Atomic<AwaitPhase>(row.phase)
            let action = phase.apply(row.event)
            #expect(action == row.action, "\(row.phase) on \(row.event)")
            #expect(phase.load(ordering: .relaxed) == row.next, "\(row.phase) on \(row.event)")
        }
    }

    @Test func phasesOnlyMoveForwardAndOnlyResumedIsFinal() {
        for row in Self.table where row.next != row.phase {
            #expect(row.next.rawValue > row.phase.rawValue, "\(row.phase) on \(row.event)")
        }
        let final = AwaitPhase.allCases.filter { phase in Self.table.allSatisfy { $0.phase != phase || $0.next == phase } }
        #expect(final == [.resumed])
    }

    @Test func onlyArmLeavesThePhasesWrittenByAPlainStore() {
        for row in Self.table where row.phase.isLeftOnlyByArm && row.next != row.phase {
            #expect(row.event == .arm, "\(row.phase) on \(row.event)")
        }
        #expect(AwaitPhase.allCases.filter(\.isLeftOnlyByArm) == [.stopRequested, .resolvedEarly])
    }

    @Test func everyResumeEndsInResumed() {
        for row in Self.table where row.action == .resumeStopped || row.action == .resumeWithResult {
            #expect(row.next == .resumed, "\(row.phase) on \(row.event)")
        }
    }

    /// Applies `events` in order to a fresh atomic at `start`; the actions, and the last phase.
    private func run(from start: AwaitPhase, _ events: [AwaitPhase.Event]) -> ([AwaitPhase.Action], AwaitPhase) {
        let phase = Atomic<AwaitPhase>(start)
        let actions = events.map { phase.apply($0) }
        return (actions, phase.load(ordering: .relaxed))
    }

    @Test func armedThenResolvedResumesOnceWithTheResult() {
        let (actions, last) = run(from: .waiting, [.arm, .resolve, .stop, .resolve])
        #expect(actions == [.nothing, .resumeWithResult, .nothing, .nothing], "a later stop request finds it taken")
        #expect(last == .resumed)
    }

    @Test func armedThenStoppedResumesOnceAsStopped() {
        let (actions, last) = run(from: .waiting, [.arm, .stop, .resolve])
        #expect(actions == [.nothing, .resumeStopped, .nothing], "a later resolution finds it taken")
        #expect(last == .resumed)
    }

    @Test func stopBeforeArmingIsResumedByArm() {
        let (actions, last) = run(from: .waiting, [.stop, .resolve, .arm])
        #expect(actions == [.nothing, .nothing, .resumeStopped], "resolution leaves it to arm")
        #expect(last == .resumed)
    }

    @Test func resolutionBeforeArmingIsResumedByArm() {
        let (actions, last) = run(from: .waiting, [.resolve, .stop, .arm])
        #expect(actions == [.nothing, .nothing, .resumeWithResult], "a stop request after resolution changes nothing")
        #expect(last == .resumed)
    }

    @Test func aSlotIsClaimedOnceAndClosedByResolution() {
        let (claims, _) = run(from: .free, [.claim, .claim])
        #expect(claims == [.claimed, .nothing], "a second Task waits on a node")
        let (actions, last) = run(from: .free, [.resolve, .claim])
        #expect(actions == [.nothing, .nothing], "resolution closed the slot")
        #expect(last == .resumed)
    }
}
