// The exactly-once handshake of an awaiting Task (AwaitPhase), and a Task-backed box's await
// slot driven step by step through every order of arm / resolve / stop. A broken handshake
// never resumes: `waitFor` turns that into a failure after its deadline.

import Synchronization
import Testing
@testable import Tomorrowland

@Suite("Await phases")
struct AwaitPhaseTests {
    @Test func armedThenResolvedResumesOnceWithTheResult() {
        let phase = Atomic<AwaitPhase>(.waiting)
        let step1 = phase.arm()
        #expect(step1 == nil, "keeps waiting")
        let step2 = phase.resolved()
        #expect(step2 == true, "resolution takes the continuation")
        let step3 = phase.stop()
        #expect(step3 == false, "a later stop request finds it taken")
        let step4 = phase.resolved()
        #expect(step4 == false)
        let step5 = phase.load(ordering: .relaxed)
        #expect(step5 == .resumed)
    }

    @Test func armedThenStoppedResumesOnceAsStopped() {
        let phase = Atomic<AwaitPhase>(.waiting)
        let step6 = phase.arm()
        #expect(step6 == nil)
        let step7 = phase.stop()
        #expect(step7 == true, "the stop request takes the continuation")
        let step8 = phase.resolved()
        #expect(step8 == false, "a later resolution finds it taken")
        let step9 = phase.load(ordering: .relaxed)
        #expect(step9 == .resumed)
    }

    @Test func stopBeforeArmingIsResumedByArm() {
        let phase = Atomic<AwaitPhase>(.waiting)
        let step10 = phase.stop()
        #expect(step10 == false, "nothing to resume yet")
        let step11 = phase.load(ordering: .relaxed)
        #expect(step11 == .stopRequested)
        let step12 = phase.resolved()
        #expect(step12 == false, "resolution leaves it to arm")
        let step13 = phase.arm()
        #expect(step13 == true, "arm resumes at once, stopped")
        let step14 = phase.load(ordering: .relaxed)
        #expect(step14 == .resumed)
    }

    @Test func resolutionBeforeArmingIsResumedByArm() {
        let phase = Atomic<AwaitPhase>(.waiting)
        let step15 = phase.resolved()
        #expect(step15 == false, "nothing to resume yet")
        let step16 = phase.load(ordering: .relaxed)
        #expect(step16 == .resolvedEarly)
        let step17 = phase.stop()
        #expect(step17 == false, "a stop request after resolution changes nothing")
        let step18 = phase.arm()
        #expect(step18 == false, "arm resumes at once, with the result")
        let step19 = phase.load(ordering: .relaxed)
        #expect(step19 == .resumed)
    }

    @Test func aSlotIsClaimedOnceAndClosedByResolution() {
        let slot = Atomic<AwaitPhase>(.free)
        let step20 = slot.claim()
        #expect(step20)
        let step21 = slot.claim()
        #expect(!step21, "a second Task waits on a node")
        let unclaimed = Atomic<AwaitPhase>(.free)
        let step22 = unclaimed.resolved()
        #expect(step22 == false)
        let step23 = unclaimed.load(ordering: .relaxed)
        #expect(step23 == .resumed)
        let step24 = unclaimed.claim()
        #expect(!step24, "resolution closed the slot")
    }
}

@Suite("A Task-backed box's await slot")
struct TaskPromiseAwaitSlotTests {
    @Test func resolvedBetweenClaimAndArmReturnsTheResultWithoutWaiting() async {
        let box = TaskPromiseBox<Int, NoError>()
        #expect(box.claimAwaitSlot(stopWaitingOnCancel: false))
        box.finish(.value(4))
        let stopped = await waitFor { done in Task { done(await withAwaitContinuation { box.armAwait($0) }) } }
        #expect(stopped == false)
        #expect(box.result == .value(4))
        #expect(!box.claimAwaitSlot(stopWaitingOnCancel: false), "the slot serves one wait")
    }

    @Test func stoppedBetweenClaimAndArmReturnsAtOnce() async {
        let box = TaskPromiseBox<Int, NoError>()
        #expect(box.claimAwaitSlot(stopWaitingOnCancel: true))
        box.awaitingTaskCancelled()
        #expect(box.currentState.isCancelRequested, "the only observer asked, the awaiting code's handles waived")
        let stopped = await waitFor { done in Task { done(await withAwaitContinuation { box.armAwait($0) }) } }
        #expect(stopped == true)
        #expect(box.result == nil, "still pending: stopping did not resolve it")
        box.finish(.value(1))
        #expect(box.result == .value(1))
    }

    @Test func armedThenResolvedResumesTheWaitingTask() async {
        let box = TaskPromiseBox<Int, NoError>()
        #expect(box.claimAwaitSlot(stopWaitingOnCancel: false))
        let stopped = await waitFor { done in
            Task { done(await withAwaitContinuation { box.armAwait($0) }) }
            Task {
                while box.awaitPhase.load(ordering: .acquiring) != .armed { await Task.yield() }
                box.finish(.value(2))
            }
        }
        #expect(stopped == false)
        #expect(box.result == .value(2))
    }

    @Test func resolutionBeforeAnyAwaitClosesTheSlot() {
        let box = TaskPromiseBox<Int, NoError>()
        box.finish(.value(3))
        #expect(!box.claimAwaitSlot(stopWaitingOnCancel: false))
        #expect(box.currentState.observers == 0, "a refused claim does not count an observer")
    }
}
