// Every scenario under every schedule within the preemption bound; the explorer's own
// checks (schedule counts, deadlock, lost wakeup, replay); and three past bugs put back,
// each found by the explorer. Runs on TomorrowlandExplored (the library compiled again with
// the schedule points, see Package.swift), in debug builds only. All of it also runs under
// the thread sanitizer (about 80 s there).

#if DEBUG && !TOMORROWLAND_SCHEDULE_POINTS
#error("InterleavingTests: a debug build without the schedule points would run none of the explorer (Package.swift: schedulePoints)")
#endif

#if TOMORROWLAND_SCHEDULE_POINTS
import Foundation
import Synchronization
import XCTest
@testable import TomorrowlandExplored

final class InterleavingTests: XCTestCase {
    /// The preemption bound of the scenarios: 2, or `INTERLEAVINGS_BOUND` (a deeper search by hand).
    private static let bound = ProcessInfo.processInfo.environment["INTERLEAVINGS_BOUND"].flatMap { Int($0) }
        ?? Explorer.defaultBound

    /// Explores `scenario` exhaustively within the default bound; fails with the replayable
    /// schedule if an invariant breaks.
    private func exploreAll(_ index: Int, file: StaticString = #filePath, line: UInt = #line) {
        let scenario = Scenarios.all[index]
        let exploration = Explorer.shared.explore(bound: Self.bound, scenario.make)
        print("Interleavings: \(scenario.name): \(exploration)")
        XCTAssertNil(exploration.failure.map { $0.message }, "\(scenario.name): \(exploration)", file: file, line: line)
        XCTAssertTrue(exploration.complete, "\(scenario.name): \(exploration)", file: file, line: line)
    }

    /// One test per scenario below: a scenario added to `Scenarios.all` without its test
    /// would never be explored.
    func testEveryScenarioHasItsTest() { XCTAssertEqual(Scenarios.all.count, 15) }

    func testScenario00_fulfilVsRequestCancelVsObserver() { exploreAll(0) }
    func testScenario01_twoChildrenCancelVsParentFulfilment() { exploreAll(1) }
    func testScenario02_lastResolverDroppedVsCancelHandler() { exploreAll(2) }
    func testScenario03_awaitOnNode() { exploreAll(3) }
    func testScenario04_awaitOnNodeStopWaiting() { exploreAll(4) }
    func testScenario05_awaitInSlot() { exploreAll(5) }
    func testScenario06_awaitInSlotStopWaiting() { exploreAll(6) }
    func testScenario07_taskPromiseStartVsCancel() { exploreAll(7) }
    func testScenario08_flatMapAdoptionVsCancel() { exploreAll(8) }
    func testScenario09_pipeLinkVsResolution() { exploreAll(9) }
    func testScenario10_tokenInvalidationVsRegistration() { exploreAll(10) }
    func testScenario11_retryStopVsRejection() { exploreAll(11) }
    func testScenario12_timeoutVsResolution() { exploreAll(12) }
    func testScenario13_handlerRegistrationVsCancelVsFulfil() { exploreAll(13) }
    func testScenario14_childrenCancelVsLastHandleDropped() { exploreAll(14) }

    // MARK: Past bugs, put back

    /// Puts `bug` back, explores `make` until the first failure, checks that the printed
    /// choice string replays it, and returns the failure's message.
    @discardableResult
    private func findsBug(_ bug: SchedulePoints.Bug, _ make: () -> ScenarioRun,
                          file: StaticString = #filePath, line: UInt = #line) -> String? {
        SchedulePoints.reintroduce(bug, true)
        defer { SchedulePoints.reintroduce(bug, false) }
        let found = Explorer.shared.explore(make)
        print("Interleavings: bug \(bug) put back: \(found)")
        guard let failure = found.failure else {
            XCTFail("\(bug) was not found: \(found)", file: file, line: line)
            return nil
        }
        let replayed = Explorer.shared.explore(replay: failure.choices, make)
        XCTAssertEqual(replayed.schedules, 1, file: file, line: line)
        XCTAssertEqual(replayed.failure?.message, failure.message, "replay of \(failure.choices)", file: file, line: line)
        XCTAssertEqual(replayed.failure?.trace, failure.trace, file: file, line: line)
        return failure.message
    }

    func testFindsTheRetryRace() {
        let message = findsBug(.retryResolvesAfterStop, Scenarios.retryStopVsRejection)
        XCTAssertTrue(message?.contains("output error(failed)") == true, message ?? "")
    }

    func testFindsThePublishLinkOrdering() {
        let message = findsBug(.linkLoadBeforeStore, Scenarios.pipeLinkVsResolution)
        XCTAssertTrue(message?.contains("still holds its upstream link") == true, message ?? "")
    }

    func testFindsTheAwaiterResumedAfterAllCallbacks() {
        let message = findsBug(.awaitSlotResumedAfterCallbacks) { Scenarios.awaitInSlot(stopWaiting: false) }
        XCTAssertTrue(message?.contains("lost wakeup") == true, message ?? "")
    }

    func testFindsTheAwaitPhaseLeftArmed() {
        // Found by this explorer in the slot scenario: the callback saw the resumed Task's
        // phase still `armed`.
        let message = findsBug(.resolvedLeavesArmed) { Scenarios.awaitInSlot(stopWaiting: false) }
        XCTAssertTrue(message?.contains("lost wakeup") == true, message ?? "")
    }

    func testFindsTheAwaitPhaseLeftArmedResumedTwice() {
        // With .stopWaiting the stop request takes the continuation a second time: reported
        // by the schedule-point build as the run's failure, not a trap.
        let message = findsBug(.resolvedLeavesArmed) { Scenarios.awaitInSlot(stopWaiting: true) }
        XCTAssertTrue(message?.contains("continuation resumed twice") == true, message ?? "")
    }

    // MARK: The explorer itself

    /// Two threads of three steps each (two schedule points apiece): 20 interleavings
    /// without a bound (6 choose 3), all distinct; 2 without preemptions.
    func testCountsEveryInterleavingOfTwoThreads() {
        let seen = Locked(Set<String>())
        func make() -> ScenarioRun {
            let log = EventLog()
            let step: @Sendable (String) -> Void = { name in
                log.record(name + "0"); schedulePoint("a"); log.record(name + "1"); schedulePoint("b"); log.record(name + "2")
            }
            return ScenarioRun(threads: [{ step("A") }, { step("B") }], check: {
                _ = seen.withLock { $0.insert(log.all.joined(separator: " ")) }
                return nil
            })
        }
        let unbounded = Explorer.shared.explore(bound: 100, make)
        XCTAssertEqual(unbounded.schedules, 20, "\(unbounded)")
        XCTAssertEqual(seen.withLock { $0.count }, 20)
        XCTAssertTrue(unbounded.complete)
        XCTAssertEqual(Explorer.shared.explore(bound: 0, make).schedules, 2)
        // One preemption: whichever starts is preempted at its first point, its second, or
        // never (then the other runs to its end, and switching back when it ends is free).
        XCTAssertEqual(Explorer.shared.explore(bound: 1, make).schedules, 2 * 3)
    }

    /// What a thread's closure captured is released by that thread when it ends, within the
    /// schedule: its deinit runs on the worker, and other threads' steps interleave with it.
    func testCapturedObjectsAreReleasedOnTheirThreadWithinTheSchedule() {
        let seen = Locked(Set<String>())
        func make() -> ScenarioRun {
            let log = EventLog()
            let captured = Released(log)
            return ScenarioRun(threads: [
                { captured.use(); log.record("A") },
                { log.record("B1"); schedulePoint("b"); log.record("B2") },
            ], check: {
                _ = seen.withLock { $0.insert(log.all.joined(separator: " ")) }
                return expect(log.all.contains("deinit on t0"), "released elsewhere: \(log.all)")
            })
        }
        let exploration = Explorer.shared.explore(bound: 100, make)
        XCTAssertNil(exploration.failure?.message, "\(exploration)")
        // B runs between A's end and the release: the release is a step of the schedule.
        XCTAssertTrue(seen.withLock { $0.contains("A B1 deinit on t0 B2") }, "\(seen.withLock { $0 })")
    }

    /// A replay must use its choice string exactly: a string that runs out, or has choices
    /// left over, is a failure of the replay.
    func testReplayUsesTheWholeChoiceString() {
        func make() -> ScenarioRun {
            ScenarioRun(threads: [{ schedulePoint("a") }, { schedulePoint("b") }], check: { nil })
        }
        // With bound 2: who starts, then whether t0 is preempted at its point.
        XCTAssertNil(Explorer.shared.explore(replay: "b2:0,0", make).failure?.message)
        XCTAssertEqual(Explorer.shared.explore(replay: "b2:0", make).failure?.message.hasPrefix("replay: the choices ran out"), true)
        XCTAssertEqual(Explorer.shared.explore(replay: "b2:0,0,1", make).failure?.message.hasPrefix("replay: the schedule ended"), true)
        // The bound is part of the string: with 0 no preemption is offered, one choice is all.
        XCTAssertNil(Explorer.shared.explore(replay: "b0:0", make).failure?.message)
    }

    /// Two threads taking two locks in opposite orders: a deadlock, found and replayed.
    func testFindsADeadlock() {
        func make() -> ScenarioRun {
            let first = Locked(0), second = Locked(0)
            return ScenarioRun(threads: [
                { first.withLock { _ in second.withLock { $0 += 1 } } },
                { second.withLock { _ in first.withLock { $0 += 1 } } },
            ], check: { nil })
        }
        let found = Explorer.shared.explore(make)
        XCTAssertTrue(found.failure?.message.hasPrefix("deadlock") == true, "\(found)")
        let replayed = Explorer.shared.explore(replay: found.failure?.choices ?? "", make)
        XCTAssertEqual(replayed.failure?.message, found.failure?.message)
    }

    /// A notification sent only if the waiter is already waiting is lost when it comes first.
    func testFindsALostWakeup() {
        func make() -> ScenarioRun {
            let flags = Flags()
            return ScenarioRun(threads: [
                {
                    schedulePoint("waiting.store")
                    flags.waiting.store(true, ordering: .sequentiallyConsistent)
                    Explorer.wait(for: "the notification") { flags.notified.load(ordering: .sequentiallyConsistent) }
                },
                {
                    schedulePoint("waiting.load")
                    if flags.waiting.load(ordering: .sequentiallyConsistent) {
                        flags.notified.store(true, ordering: .sequentiallyConsistent)
                    }
                },
            ], check: { nil })
        }
        let found = Explorer.shared.explore(make)
        XCTAssertTrue(found.failure?.message.contains("lost wakeup") == true, "\(found)")
    }
}

/// Records, when released, on which thread that happened (after a schedule point).
private final class Released: Sendable {
    private let log: EventLog
    init(_ log: EventLog) { self.log = log }
    func use() {}
    deinit {
        schedulePoint("deinit")
        log.record("deinit on " + (Explorer.currentWorker.map { "t\($0)" } ?? "a thread outside the explorer"))
    }
}

/// Two flags of the lost-wakeup test.
private final class Flags: Sendable {
    let waiting = Atomic<Bool>(false)
    let notified = Atomic<Bool>(false)
}
#endif
