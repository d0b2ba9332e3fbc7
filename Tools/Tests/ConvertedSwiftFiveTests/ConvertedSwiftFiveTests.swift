// What convert-body writes in a Swift 5 mode module under its Swift 5 rule (a wrapper that
// captures a non-Sendable `self` or parameter the chain's closures captured), run in Swift 5
// mode: ConvertedSwiftFive.swift is the tool's output for
// TomorrowlandMigrateKitTests/Fixtures/ConvertBody/SwiftFive.swift (ConvertBodySwiftFiveTests
// checks that it is).

import Foundation
import Testing
import Tomorrowland
import TomorrowlandAsync

// (Each call names its promise type: in async code Swift would pick the async twin.)
@Suite("convert-body's Swift 5 rule at run time: order, value, cancellation")
struct ConvertedSwiftFiveTests {
    init() {
        wireQueue.setSpecific(key: wireKey, value: "wireQueue")
        Queues.ledger.setSpecific(key: wireKey, value: "ledger")
    }

    /// `ledger.post(input)` from a synchronous caller, and where its promise resolved (its `.immediate` observer ran).
    static func post(_ input: Int, on ledger: Ledger) -> (promise: Promise<Int, Error>, resolvedOn: Promise<String, Error>) {
        let promise: Promise<Int, Error> = ledger.post(input)
        return (promise, promise.map(on: .immediate) { _ in DispatchQueue.getSpecific(key: wireKey) ?? "elsewhere" })
    }

    @Test("a chain on a queue in a static property, its base resolved: the step runs on that queue, and the promise resolves there")
    func stepOnItsQueue() async throws {
        let tally = Tally(wire: Wire())
        let (promise, resolvedOn) = Self.post(2, on: Ledger(tally: tally))
        #expect(try await promise.value == 3)
        #expect(try await resolvedOn.value == "ledger")
        #expect(tally.events == ["posted 2 on ledger"])
        let cancelled: Promise<Int, Error> = postThenCancel(Ledger(tally: tally))
        let result = await cancelled.resolvedResult
        guard case .cancelled = result else {
            Issue.record("\(result)")
            return
        }
        #expect(tally.wire.cancelled == [0])
    }

    @Test("the statement before the chain and the wire's request run during the call; the step runs on its queue")
    func orderAndValue() async throws {
        let wire = Wire()
        let tally = Tally(wire: wire)
        let promise: Promise<Int, Error> = tally.load(2)
        // The wrapper started the twin in the call, which ran up to its first suspension.
        #expect(tally.events.first == "before 2", "\(tally.events)")
        #expect(wire.started == [2])
        tally.note("returned")
        #expect(try await promise.value == 4)
        #expect(tally.events.first == "before 2" && Set(tally.events) == ["before 2", "returned", "mapped 2 on wireQueue"], "\(tally.events)")
    }

    @Test("a cancel request right after the call reaches the request the twin started during the call")
    func cancelRightAfterTheCall() async {
        let wire = Wire()
        let tally = Tally(wire: wire)
        let promise: Promise<Int, Error> = loadThenCancel(tally)
        #expect(wire.started == [0])
        let result = await promise.resolvedResult
        guard case .cancelled = result else {
            Issue.record("\(result)")
            return
        }
        #expect(wire.cancelled == [0])
        #expect(tally.events == ["before 0"])
    }

    @Test("the parameter's chain: its value through both requests; a cancel request right after the call reaches the first")
    func parameter() async throws {
        let wire = Wire()
        #expect(try await (relayed(1, through: wire) as Promise<Int, Error>).value == 2)
        #expect(wire.started == [1, 2])
        let other = Wire()
        let promise: Promise<Int, Error> = relayedThenCancel(other)
        #expect(other.started == [0])
        let result = await promise.resolvedResult
        guard case .cancelled = result else {
            Issue.record("\(result)")
            return
        }
        #expect(other.cancelled == [0])
    }

    @Test("the chain the rule leaves (its closure does not capture `self`) works as before")
    func chainLeft() async throws {
        let wire = Wire()
        #expect(try await (Tally(wire: wire).tripled(2) as Promise<Int, Error>).value == 6)
        let promise: Promise<Int, Error> = tripledThenCancel(Tally(wire: wire))
        let result = await promise.resolvedResult
        guard case .cancelled = result else {
            Issue.record("\(result)")
            return
        }
        #expect(wire.cancelled == [0])
    }
}
