// A Task-backed box's await slot driven step by step through every order of arm / resolve /
// stop (the pure machine, AwaitPhase, is tested in State/AwaitPhaseTests). A broken handshake
// never resumes: `waitFor` turns that into a failure after its deadline.

import Synchronization
import Testing
@testable import Tomorrowland

@Suite("A Task-backed box's await slot")
struct TaskPromiseAwaitSlotTests {
    @Test func resolvedBetweenClaimAndArmReturnsTheResultWithoutWaiting() async {
        let box = TaskPromiseBox<Int, NoError>()
        #expect(box.takeAwaitSlotAndObserve(stopWaitingOnCancel: false))
        box.finish(.value(4))
        let stopped = await waitFor { done in Task { done(await withAwaitContinuation { box.storeContinuationAndWait($0) }) } }
        #expect(stopped == false)
        #expect(box.result == .value(4))
        #expect(!box.takeAwaitSlotAndObserve(stopWaitingOnCancel: false), "the slot serves one wait")
    }

    @Test func stoppedBetweenClaimAndArmReturnsAtOnce() async {
        let box = TaskPromiseBox<Int, NoError>()
        #expect(box.takeAwaitSlotAndObserve(stopWaitingOnCancel: true))
        box.requestCancelForAwaitingTask()
        #expect(box.currentState.isCancelRequested, "the only observer asked, the awaiting code's handles waived")
        let stopped = await waitFor { done in Task { done(await withAwaitContinuation { box.storeContinuationAndWait($0) }) } }
        #expect(stopped == true)
        #expect(box.result == nil, "still pending: stopping did not resolve it")
        box.finish(.value(1))
        #expect(box.result == .value(1))
    }

    @Test func armedThenResolvedResumesTheWaitingTask() async {
        let box = TaskPromiseBox<Int, NoError>()
        #expect(box.takeAwaitSlotAndObserve(stopWaitingOnCancel: false))
        let stopped = await waitFor { done in
            Task { done(await withAwaitContinuation { box.storeContinuationAndWait($0) }) }
            Task {
                // Bounded: if the slot is never armed, `waitFor` fails and this stops spinning.
                let deadline = ContinuousClock.now + .seconds(60)
                while box.awaitPhase.load(ordering: .acquiring) != .armed, ContinuousClock.now < deadline { await Task.yield() }
                box.finish(.value(2))
            }
        }
        #expect(stopped == false)
        #expect(box.result == .value(2))
    }

    @Test func resolutionBeforeAnyAwaitClosesTheSlot() {
        let box = TaskPromiseBox<Int, NoError>()
        box.finish(.value(3))
        #expect(!box.takeAwaitSlotAndObserve(stopWaitingOnCancel: false))
        #expect(box.currentState.observers == 0, "a refused claim does not count an observer")
    }
}
