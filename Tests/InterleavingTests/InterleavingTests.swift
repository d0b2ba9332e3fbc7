// Every scenario under every schedule within the preemption bound; the explorer's own
// checks (schedule counts, deadlock, lost wakeup, replay); and three past bugs put back,
// each found by the explorer. Runs on TomorrowlandExplored (the library compiled again with
// the schedule points, see Package.swift), in debug builds only. Run by hand under the thread
// sanitizer (CI's sanitizer stage leaves it out), the scenarios there within one preemption.

#if DEBUG && !TOMORROWLAND_SCHEDULE_POINTS
#error("InterleavingTests: a debug build without the schedule points would run none of the explorer (Package.swift: schedulePoints)")
#endif

#if TOMORROWLAND_SCHEDULE_POINTS
import Foundation
import Synchronization
import XCTest
@testable import TomorrowlandExplored

final class InterleavingTests: XCTestCase {
    /// The preemption bound of the scenarios: 2, or `INTERLEAVINGS_BOUND` (a deeper search by
    /// hand). Under the thread sanitizer, 1: there the run checks the explorer's own hand-offs
    /// (see the Testing article), which every schedule with a preemption exercises, and every
    /// schedule within bound 1 is one the plain run explores too.
    private static let bound = ProcessInfo.processInfo.environment["INTERLEAVINGS_BOUND"].flatMap { Int($0) }
        ?? (runsUnderThreadSanitizer ? 1 : Explorer.defaultBound)

    /// Explores `scenario` exhaustively within the default bound; fails with the replayable
    /// schedule if an invariant breaks. In a child process of this test binary (running just
    /// this test), so that a crash fails this scenario only, with the schedule it crashed in.
    private func exploreAll(_ index: Int, test: String = #function, file: StaticString = #filePath, line: UInt = #line) {
        let scenario = Scenarios.all[index]
        guard ChildProcess.exploresInProcess else {
            let child = ChildProcess.run(test: "InterleavingTests.InterleavingTests/" + test.replacingOccurrences(of: "()", with: ""))
            print(child.report)
            if child.status != 0 {
                let how = child.crashed ? "crashed (signal \(child.status))" : "failed (exit status \(child.status))"
                XCTFail("\(scenario.name): the child process \(how):\n\(child.report)", file: file, line: line)
            }
            return
        }
        let exploration = Explorer.shared.explore(bound: Self.bound, name: scenario.name, scenario.make)
        print("Interleavings: \(scenario.name): \(exploration)")
        XCTAssertNil(exploration.failure.map { $0.message }, "\(scenario.name): \(exploration)", file: file, line: line)
        XCTAssertTrue(exploration.complete, "\(scenario.name): \(exploration)", file: file, line: line)
    }

    /// One test per scenario below: a scenario added to `Scenarios.all` without its test
    /// would never be explored.
    func testEveryScenarioHasItsTest() { XCTAssertEqual(Scenarios.all.count, 31) }

    /// Every scenario names the rules its check states, and each is a rule of Rules.md (1-30).
    func testEveryScenarioNamesTheRulesItChecks() {
        for scenario in Scenarios.all {
            XCTAssertFalse(scenario.rules.isEmpty, scenario.name)
            XCTAssertTrue(scenario.rules.allSatisfy { (1...30).contains($0) }, "\(scenario.name): \(scenario.rules)")
        }
        let covered = Set(Scenarios.all.flatMap(\.rules)).sorted()
        print("Interleavings: rules checked by the scenarios: \(covered.map(String.init).joined(separator: ", "))")
    }

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
    func testScenario15_twoCancelRequestsWithUpstream() { exploreAll(15) }
    func testScenario16_invalidationCancelsAtOnce() { exploreAll(16) }
    func testScenario17_twoInvalidators() { exploreAll(17) }
    func testScenario18_delayOfFulfilledTimerVsCancel() { exploreAll(18) }
    func testScenario19_delayOfCancelledTimerVsCancel() { exploreAll(19) }
    func testScenario20_afterTimerVsCancel() { exploreAll(20) }
    func testScenario21_whenFulfilledTwoInputs() { exploreAll(21) }
    func testScenario22_whenFulfilledVsCancel() { exploreAll(22) }
    func testScenario23_whenFirstRace() { exploreAll(23) }
    func testScenario24_resultReadVsFulfilment() { exploreAll(24) }
    func testScenario25_linkVsCancelWithAnotherObserver() { exploreAll(25) }
    func testScenario26_actorMailboxDeliveries() { exploreAll(26) }
    func testScenario27_delayedPromiseFirstAccesses() { exploreAll(27) }
    func testScenario28_invalidationsObserverVsRelease() { exploreAll(28) }
    func testScenario29_operationStartVsCancel() { exploreAll(29) }
    func testScenario30_twoKeepersReleased() { exploreAll(30) }

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
        // With .stopWaiting the stop request takes the continuation a second time: the
        // happens-before check sees that second take race with the first (nothing orders the
        // two threads' writes), before the take finds the field empty ("continuation resumed
        // twice", the run's failure under the explorer rather than a trap).
        let message = findsBug(.resolvedLeavesArmed) { Scenarios.awaitInSlot(stopWaiting: true) }
        XCTAssertTrue(message?.contains("writes continuation, last written by") == true, message ?? "")
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

    /// A schedule that crashes the process (a trap on a scenario thread) still names itself:
    /// the child prints the choice string of the schedule it crashed in, and that string
    /// replays the crash.
    func testACrashNamesItsSchedule() {
        let make: () -> ScenarioRun = {
            let flags = Flags()
            return ScenarioRun(threads: [
                {
                    schedulePoint("check")
                    if flags.notified.load(ordering: .sequentiallyConsistent) { fatalError("crashed on purpose") }
                },
                { flags.notified.store(true, ordering: .sequentiallyConsistent) },
            ], check: { nil })
        }
        let environment = ProcessInfo.processInfo.environment
        if environment[ChildProcess.inChildKey] != nil {
            // The child: explores (which crashes), or replays the string it was given.
            _ = Explorer.shared.explore(replay: environment["INTERLEAVINGS_REPLAY"], name: "crash on purpose", make)
            return
        }
        guard !ChildProcess.exploresInProcess else { return }  // no child processes here
        let test = "InterleavingTests.InterleavingTests/testACrashNamesItsSchedule"
        // A trap ends the child by a signal; under the thread sanitizer, whose runtime takes the
        // signal over, by its own abort with an exit status. Either way it must not exit 0, and
        // the output below must hold the schedule's line and the trap's message.
        let crashed = ChildProcess.run(test: test)
        XCTAssertTrue(crashed.crashed || crashed.status != 0, crashed.output)
        // t0 runs to its point, is preempted there (choice 1 of two), t1 sets the flag, t0 traps.
        let expected = "Interleavings: crash on purpose: CRASHED in schedule 2; replay: choices \"b2:0,1\""
        XCTAssertTrue(crashed.output.contains(expected), crashed.output)
        let replayed = ChildProcess.run(test: test, environment: ["INTERLEAVINGS_REPLAY": "b2:0,1"])
        XCTAssertTrue(replayed.crashed || replayed.status != 0, replayed.output)
        XCTAssertTrue(replayed.output.contains("crashed on purpose"), replayed.output)
    }

    /// A field published through a flag: with a releasing store and an acquiring load the
    /// happens-before check passes every schedule; with the load relaxed it reports the read as
    /// a data race (in the schedule where the reader sees the flag), and the replay repeats it.
    func testTheHappensBeforeCheckFindsAMissingAcquire() {
        final class Box: @unchecked Sendable {
            let flag = SharedAtomic<Bool>(false, "flag")
            var value = publishedField(0, "value")
        }
        func make(_ ordering: AtomicLoadOrdering) -> () -> ScenarioRun {
            {
                let box = Box()
                return ScenarioRun(threads: [
                    { publishField(&box.value, 1); box.flag.store(true, ordering: .releasing) },
                    { if box.flag.load(ordering: ordering) { _ = readField(box.value) } },
                ], check: { nil })
            }
        }
        let ordered = Explorer.shared.explore(make(.acquiring))
        XCTAssertTrue(ordered.complete && ordered.failure == nil, "\(ordered)")
        let relaxed = Explorer.shared.explore(make(.relaxed))
        let message = relaxed.failure?.message ?? ""
        XCTAssertTrue(message.hasPrefix("memory ordering: t1 reads value, last written by t0"), "\(relaxed)")
        let replayed = Explorer.shared.explore(replay: relaxed.failure?.choices ?? "", make(.relaxed))
        XCTAssertEqual(replayed.failure?.message, relaxed.failure?.message)
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
