import Foundation
import Testing
import Tomorrowland
import TomorrowlandAsync

/// A final `delay` or `ignoringCancel` after steps, converted (ConvertedBehaviour.swift's
/// `delayedIncrement` and `uncancellableIncrement`, ChainConversion+Tails.swift): the steps'
/// promise keeps the operator. What 1.x's chain did, checked at run time: the statement before
/// the chain and the source's start during the call, every result passed on late on `delay`'s
/// context (where the wrapper resolves, as 1.x's promise did), a cancel request reaching the
/// source through `delay`, and none reaching it through `ignoringCancel`.
@Suite("convert-body: a final delay or ignoringCancel", .timeLimit(.minutes(2)))
struct ConvertedDelayTests {
    /// The queue `promise` resolved on (an `.immediate` observer), and its result.
    static func resolution(of promise: Promise<Int, BehaviourError>) async -> (place: String, result: PromiseResult<Int, BehaviourError>) {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
        let place = Place()
        let observed = promise.always(on: .immediate) { _ in place.set(DispatchQueue.getSpecific(key: behaviourKey) ?? "elsewhere") }
        let result = await observed.resolvedResult
        return (place.value, result)
    }

    @Test("the value comes late, on the delay's queue; the statement before the chain ran during the call")
    func value() async {
        let events = Events()
        let observed = Observed()
        let start = Date()
        let promise: Promise<Int, BehaviourError> = delayedIncrement(1, by: 0.2, events: events, observed: observed)
        #expect(events.all == ["before 1"])
        let (place, result) = await Self.resolution(of: promise)
        #expect(result == .value(2))
        #expect(Date().timeIntervalSince(start) >= 0.19)
        #expect(place == "behaviourQueue")
    }

    @Test("the typed error comes late too, on the delay's queue")
    func error() async {
        let start = Date()
        let (place, result) = await Self.resolution(of: delayedIncrement(-1, by: 0.2, events: Events(), observed: Observed()) as Promise<Int, BehaviourError>)
        #expect(result == .error(.failed))
        #expect(Date().timeIntervalSince(start) >= 0.19)
        #expect(place == "behaviourQueue")
    }

    @Test("a cancel request on the wrapper passes through the delay to the source")
    func cancelled() async {
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = delayedIncrement(0, by: 0.05, events: Events(), observed: observed)
        #expect(observed.started)
        promise.requestCancel()
        let result = await promise.resolvedResult
        #expect(result == .cancelled, "\(result)")
        #expect(observed.cancelled)
    }

    @Test("`ignoringCancel`: the value passes")
    func uncancelledValue() async throws {
        #expect(try await (uncancellableIncrement(1, observed: Observed()) as Promise<Int, BehaviourError>).value == 2)
    }

    @Test("`ignoringCancel`: a cancel request on the wrapper neither reaches the source nor resolves the promise")
    func ignoredCancel() async throws {
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = uncancellableIncrement(0, observed: observed)
        #expect(observed.started)
        promise.requestCancel()
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(!observed.cancelled)
        #expect(promise.result == nil)
    }
}

/// A value set once from another thread.
private final class Place: @unchecked Sendable {
    private let lock = NSLock()
    private var place = "never"
    var value: String { lock.withLock { place } }
    func set(_ value: String) { lock.withLock { place = value } }
}
