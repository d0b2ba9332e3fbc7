import Foundation
import Testing
import Tomorrowland
import TomorrowlandAsync

/// Issue 39: a final `timeout` after steps, converted (ConvertedBehaviour.swift's `bounded`): the
/// value, the typed errors the generic `timeout` made, a timeout's cancel request reaching the
/// source, a caller's cancel request reaching it too, and the statement before the chain run
/// during the call.
@Suite("convert-body: a final timeout", .timeLimit(.minutes(2)))
struct ConvertedTimeoutTests {
    @Test("the value passes; the statement before the chain and the source's start ran during the call")
    func value() async throws {
        let events = Events()
        let observed = Observed()
        let promise: Promise<Int, PromiseTimeoutError<BehaviourError>> = bounded(1, within: 300, events: events, observed: observed)
        #expect(events.all == ["before 1"])
        #expect(try await promise.value == 2)
    }

    @Test("the source's error is `PromiseTimeoutError.rejected(error)`, as the generic `timeout` made it")
    func rejected() async {
        let promise: Promise<Int, PromiseTimeoutError<BehaviourError>> = bounded(-1, within: 300, events: Events(), observed: Observed())
        #expect(await promise.resolvedResult == .error(.rejected(.failed)))
    }

    @Test("timing out rejects with `.timedOut` and asks the source to cancel")
    func timedOut() async {
        let observed = Observed()
        let promise: Promise<Int, PromiseTimeoutError<BehaviourError>> = bounded(0, within: 0.05, events: Events(), observed: observed)
        #expect(observed.started)
        #expect(await promise.resolvedResult == .error(.timedOut))
        let deadline = Date().addingTimeInterval(5)
        while !observed.cancelled, Date() < deadline { await Task.yield() }
        #expect(observed.cancelled)
    }

    /// (A long timeout: a test that blocks the cooperative pool's threads delays the Task's cancellation, never the timer.)
    @Test("a cancel request on the wrapper passes through the timeout to the source")
    func cancelled() async {
        let observed = Observed()
        let promise: Promise<Int, PromiseTimeoutError<BehaviourError>> = bounded(0, within: 300, events: Events(), observed: observed)
        #expect(observed.started)
        promise.requestCancel()
        let result = await promise.resolvedResult
        #expect(result == .cancelled, "\(result)")
        #expect(observed.cancelled)
    }
}
