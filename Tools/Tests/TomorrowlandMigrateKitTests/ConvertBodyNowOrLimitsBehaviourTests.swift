import Dispatch
import Foundation
import Testing
@testable import TomorrowlandMigrateKit
import Tomorrowland
import TomorrowlandAsync

/// Issue 37's `.nowOr` and `mapResult` shapes at run time: each chain as written (the reference,
/// run by the library) beside the tool's output of it (ConvertedBehaviour.swift), expecting the
/// same values, errors and cancellations, the same queue (by `DispatchQueue.getSpecific`) and the
/// same moment (in the call, or after it).
@Suite("convert-body: `.nowOr` on `tap`, `always`, `onCancel`, a token; `isExecutingNow`; `mapResult` with steps",
       .serialized, .timeLimit(.minutes(2)))
struct ConvertBodyNowOrLimitsBehaviourTests {
    init() {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    }

    static func tapped(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
        source.tap(on: .nowOr(.queue(behaviourQueue))) { result in
            if result.value != nil { observed.ran() }
        }
    }

    @Test("`tap`: in the call on a resolved base, on the queue on a pending one; a rejection passes typed; a cancel request reaches the source",
          arguments: [false, true])
    func tap(converted: Bool) async throws {
        let observed = Observed()
        func call(_ source: Promise<Int, BehaviourError>) -> Promise<Int, BehaviourError> {
            converted ? nowOrTapped(source, observed: observed) : Self.tapped(source, observed: observed)
        }
        let resolved = call(Promise(fulfilled: 1))
        #expect(observed.places == ["elsewhere"], "the closure had not run in the call")
        #expect(try await resolved.value == 1)
        #expect(await call(Promise(rejected: .failed)).resolvedResult == .error(.failed))
        let (source, resolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let pending = call(source)
        #expect(observed.places == ["elsewhere"])
        resolver.fulfill(with: 4)
        #expect(try await pending.value == 4)
        while observed.places.count < 2 { await Task.yield() }
        #expect(observed.places == ["elsewhere", "behaviourQueue"])
        let cancelled = call(behaviourSource(0, observed: observed))
        cancelled.requestCancel()
        #expect(await cancelled.resolvedResult == .cancelled)
        #expect(observed.cancelled)
        #expect(observed.places.count == 2)
    }

    static func always(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
        source.always(on: .nowOr(.queue(behaviourQueue))) { _ in
            observed.ran()
        }
    }

    @Test("`always`: in the call on a resolved base (a value or an error), on the queue on a pending one, also when it is cancelled",
          arguments: [false, true])
    func always(converted: Bool) async throws {
        let observed = Observed()
        func call(_ source: Promise<Int, BehaviourError>) -> Promise<Int, BehaviourError> {
            converted ? nowOrAlways(source, observed: observed) : Self.always(source, observed: observed)
        }
        let resolved = call(Promise(fulfilled: 2))
        let rejected = call(Promise(rejected: .failed))
        #expect(observed.places == ["elsewhere", "elsewhere"], "the closure had not run in the call")
        #expect(resolved.result == .value(2), "the promise had not resolved in the call")
        #expect(await rejected.resolvedResult == .error(.failed))
        let cancelled = call(behaviourSource(0, observed: observed))
        #expect(observed.places.count == 2)
        cancelled.requestCancel()
        #expect(await cancelled.resolvedResult == .cancelled)
        #expect(observed.cancelled)
        #expect(observed.places == ["elsewhere", "elsewhere", "behaviourQueue"])
    }

    static func onCancel(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
        source.onCancel(on: .nowOr(.queue(behaviourQueue))) {
            observed.ran()
        }
    }

    @Test("`onCancel`: in the call on a base already cancelled, on the queue once a pending one is; not on a value", arguments: [false, true])
    func onCancel(converted: Bool) async throws {
        let observed = Observed()
        func call(_ source: Promise<Int, BehaviourError>) -> Promise<Int, BehaviourError> {
            converted ? nowOrOnCancel(source, observed: observed) : Self.onCancel(source, observed: observed)
        }
        #expect(try await call(Promise(fulfilled: 3)).value == 3)
        #expect(observed.places.isEmpty)
        let alreadyCancelled = call(Promise(with: .cancelled))
        #expect(observed.places == ["elsewhere"], "the closure had not run in the call")
        #expect(await alreadyCancelled.resolvedResult == .cancelled)
        let pending = call(behaviourSource(0, observed: observed))
        #expect(observed.places == ["elsewhere"])
        pending.requestCancel()
        #expect(await pending.resolvedResult == .cancelled)
        #expect(observed.cancelled)
        #expect(observed.places == ["elsewhere", "behaviourQueue"])
    }

    static func incremented(_ source: Promise<Int, BehaviourError>, token: PromiseInvalidationToken,
                            observed: Observed) -> Promise<Int, BehaviourError> {
        source.map(on: .nowOr(.queue(behaviourQueue)), token: token) { value in
            observed.ran()
            return value + 1
        }
    }

    @Test("a token on `.nowOr`: valid, in the call or on the queue; invalidated before the closure ran, skipped and cancelled",
          arguments: [false, true])
    func token(converted: Bool) async throws {
        let observed = Observed()
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        func call(_ source: Promise<Int, BehaviourError>) -> Promise<Int, BehaviourError> {
            converted ? nowOrIncrementedUnlessInvalidated(source, token: token, observed: observed)
                : Self.incremented(source, token: token, observed: observed)
        }
        let resolved = call(Promise(fulfilled: 1))
        #expect(observed.places == ["elsewhere"])
        #expect(resolved.result == .value(2))
        let (source, resolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let pending = call(source)
        resolver.fulfill(with: 4)
        #expect(try await pending.value == 5)
        #expect(observed.places == ["elsewhere", "behaviourQueue"])
        let (later, laterResolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let skipped = call(later)
        token.invalidate()
        laterResolver.fulfill(with: 7)
        #expect(await skipped.resolvedResult == .cancelled)
        #expect(observed.places.count == 2, "the closure ran after the token was invalidated")
    }

    static func executingNow(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Bool, BehaviourError> {
        source.map(on: .nowOr(.queue(behaviourQueue))) { _ in
            observed.ran()
            return PromiseContext.isExecutingNow
        }
    }

    @Test("`PromiseContext.isExecutingNow` on `.nowOr(c)`: true in the call on a resolved base, false on the queue", arguments: [false, true])
    func executingNow(converted: Bool) async throws {
        let observed = Observed()
        func call(_ source: Promise<Int, BehaviourError>) -> Promise<Bool, BehaviourError> {
            converted ? nowOrExecutingNow(source, observed: observed) : Self.executingNow(source, observed: observed)
        }
        #expect(call(Promise(fulfilled: 1)).result == .value(true))
        let (source, resolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let pending = call(source)
        resolver.fulfill(with: 1)
        #expect(try await pending.value == false)
        #expect(observed.places == ["elsewhere", "behaviourQueue"])
    }

    static func mainExecutingNow(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Bool, BehaviourError> {
        source.map(on: .nowOr(.main)) { _ in
            observed.ranOnMain()
            return PromiseContext.isExecutingNow
        }
    }

    @Test("`PromiseContext.isExecutingNow` on `.nowOr(.main)` off the main actor: true in the call on the main queue, false after it",
          arguments: [false, true])
    @MainActor func mainExecutingNow(converted: Bool) async throws {
        let observed = Observed()
        func call(_ source: Promise<Int, BehaviourError>) -> Promise<Bool, BehaviourError> {
            converted ? nowOrMainExecutingNow(source, observed: observed) : Self.mainExecutingNow(source, observed: observed)
        }
        #expect(call(Promise(fulfilled: 1)).result == .value(true), "on the main queue, on a resolved base")
        let (source, resolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let pending = call(source)
        DispatchQueue.global().async { resolver.fulfill(with: 1) }
        #expect(try await pending.value == false)
        let offMain = await Task.detached {
            converted ? nowOrMainExecutingNow(Promise(fulfilled: 1), observed: observed) : Self.mainExecutingNow(Promise(fulfilled: 1), observed: observed)
        }.value
        #expect(try await offMain.value == false, "called off the main queue, 1.x ran it later, on the main queue")
        #expect(observed.places == ["main", "main", "main"])
    }

    static func settled(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, NoError> {
        source.mapResult(on: .nowOr(.queue(behaviourQueue))) { result -> PromiseResult<Int, NoError> in
            observed.ran()
            return .value(result.value ?? -1)
        }
    }

    @Test("`mapResult` on `.nowOr`: in the call on a resolved base (a value or an error), on the queue on a pending one",
          arguments: [false, true])
    func mapResultOnNowOr(converted: Bool) async throws {
        let observed = Observed()
        func call(_ source: Promise<Int, BehaviourError>) -> Promise<Int, NoError> {
            converted ? nowOrSettled(source, observed: observed) : Self.settled(source, observed: observed)
        }
        let resolved = call(Promise(fulfilled: 2))
        let rejected = call(Promise(rejected: .failed))
        #expect(observed.places == ["elsewhere", "elsewhere"], "the closure had not run in the call")
        #expect(resolved.result == .value(2))
        #expect(rejected.result == .value(-1))
        let (source, resolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let pending = call(source)
        resolver.fulfill(with: 5)
        #expect(try await pending.value == 5)
        #expect(observed.places == ["elsewhere", "elsewhere", "behaviourQueue"])
    }

    static func settledThenIncrementedReference(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
        behaviourSource(input, observed: observed)
            .map(on: .queue(behaviourQueue)) { value -> Int in
                observed.ran()
                return value * 2
            }
            .mapResult(on: .queue(behaviourQueue)) { (result: PromiseResult<Int, BehaviourError>) -> PromiseResult<Int, NoError> in
                observed.ran()
                switch result {
                case .value(let value): return .value(value)
                case .error: return .value(-1)
                case .cancelled: return .value(-2)
                }
            }
            .map(on: .queue(behaviourQueue)) { value -> Int in
                observed.ran()
                return value + 1
            }
    }

    @Test("`mapResult` with a step after it: the value, an error mapped, a cancellation mapped, each closure on its queue",
          arguments: [false, true])
    func mapResultThenStep(converted: Bool) async {
        let observed = Observed()
        func call(_ input: Int) -> Promise<Int, NoError> {
            converted ? settledThenIncremented(input, observed: observed) : Self.settledThenIncrementedReference(input, observed: observed)
        }
        #expect(await call(5).resolvedResult == .value(11))
        #expect(observed.places == ["behaviourQueue", "behaviourQueue", "behaviourQueue"])
        #expect(await call(-1).resolvedResult == .value(0))
        #expect(observed.places.count == 5, "the first step ran on an error")
        let pending = call(0)
        while !observed.started { await Task.yield() }
        pending.requestCancel()
        #expect(await pending.resolvedResult == .value(-1))
        #expect(observed.cancelled)
        #expect(observed.places.count == 7)
    }

    static func chainedOrMinusOneReference(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
        behaviourSource(input, observed: observed)
            .flatMap(on: .immediate) { behaviourSource($0 - 3, observed: observed) }
            .mapResult(on: .immediate) { (result: PromiseResult<Int, BehaviourError>) -> PromiseResult<Int, NoError> in
                observed.ran()
                return .value(result.value ?? -1)
            }
    }

    @Test("`mapResult` after a `flatMap`: the value; the base's error and the second promise's are both the closure's `.error`",
          arguments: [false, true])
    func mapResultAfterFlatMap(converted: Bool) async {
        let observed = Observed()
        func call(_ input: Int) -> Promise<Int, NoError> {
            converted ? chainedOrMinusOne(input, observed: observed) : Self.chainedOrMinusOneReference(input, observed: observed)
        }
        #expect(await call(5).resolvedResult == .value(2))
        #expect(await call(-5).resolvedResult == .value(-1), "the base's error")
        #expect(await call(1).resolvedResult == .value(-1), "the second promise's error")
        #expect(observed.places.count == 3)
    }

    static func caughtThenSettledReference(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
        behaviourSource(input, observed: observed)
            .catch(on: .queue(behaviourQueue)) { _ in
                observed.ran()
            }
            .mapResult(on: .queue(behaviourQueue)) { (result: PromiseResult<Int, BehaviourError>) -> PromiseResult<Int, NoError> in
                observed.ran()
                switch result {
                case .value(let value): return .value(value)
                case .error: return .value(-1)
                case .cancelled: return .value(-2)
                }
            }
    }

    @Test("`mapResult` after `catch`: the handler saw the error first; a cancellation skipped it and reached the source",
          arguments: [false, true])
    func mapResultAfterHandler(converted: Bool) async {
        let observed = Observed()
        func call(_ input: Int) -> Promise<Int, NoError> {
            converted ? caughtThenSettled(input, observed: observed) : Self.caughtThenSettledReference(input, observed: observed)
        }
        #expect(await call(4).resolvedResult == .value(4))
        #expect(observed.places == ["behaviourQueue"])
        #expect(await call(-1).resolvedResult == .value(-1))
        #expect(observed.places == ["behaviourQueue", "behaviourQueue", "behaviourQueue"])
        let pending = call(0)
        while !observed.started { await Task.yield() }
        pending.requestCancel()
        #expect(await pending.resolvedResult == .value(-2))
        #expect(observed.cancelled)
        #expect(observed.places.count == 4, "the handler ran on a cancellation")
    }

    static func settled(_ input: Int, token: PromiseInvalidationToken, observed: Observed) -> Promise<Int, NoError> {
        behaviourSource(input, observed: observed)
            .mapResult(on: .queue(behaviourQueue), token: token) { (result: PromiseResult<Int, BehaviourError>) -> PromiseResult<Int, NoError> in
                observed.ran()
                return .value(result.value ?? -1)
            }
    }

    @Test("`mapResult` with a token: mapped while it is valid; once invalidated, skipped and cancelled", arguments: [false, true])
    func mapResultWithToken(converted: Bool) async {
        let observed = Observed()
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        func call(_ input: Int) -> Promise<Int, NoError> {
            converted ? settledUnlessInvalidated(input, token: token, observed: observed) : Self.settled(input, token: token, observed: observed)
        }
        #expect(await call(3).resolvedResult == .value(3))
        #expect(await call(-1).resolvedResult == .value(-1))
        #expect(observed.places == ["behaviourQueue", "behaviourQueue"])
        let pending = call(0)
        while !observed.started { await Task.yield() }
        token.invalidate()
        pending.requestCancel()
        #expect(await pending.resolvedResult == .cancelled)
        #expect(observed.places.count == 2, "the closure ran after the token was invalidated")
    }
}
