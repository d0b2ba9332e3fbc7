import Foundation
import Testing
@testable import TomorrowlandMigrateKit
import Tomorrowland
import TomorrowlandAsync

/// `.nowOr(c)` off the caller's actor and `mapResult` (ChainConversion+NowOr.swift). The run-time
/// checks use ConvertedBehaviour.swift, the tool's output for Fixtures/ConvertBody/Behaviour.swift.
@Suite("convert-body: `.nowOr(c)` off the caller's actor, `mapResult`", .timeLimit(.minutes(2)))
struct ConvertBodyNowOrTests {
    init() {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
    }

    @Test("a resolved base: the closure ran in the call, on the caller's thread, before the call returned")
    func resolvedBase() async throws {
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = nowOrIncremented(Promise(fulfilled: 1), observed: observed)
        #expect(observed.places == ["elsewhere"], "the closure had not run when the call returned, or ran on the queue")
        #expect(promise.result == .value(2))
        #expect(try await promise.value == 2)
    }

    @Test("a pending base: nothing ran in the call; the closure ran on the context once it resolved")
    func pendingBase() async throws {
        let observed = Observed()
        let (source, resolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let promise: Promise<Int, BehaviourError> = nowOrIncremented(source, observed: observed)
        #expect(observed.places.isEmpty)
        resolver.fulfill(with: 4)
        #expect(try await promise.value == 5)
        #expect(observed.places == ["behaviourQueue"])
    }

    @Test("the wrapper's promise resolves on the context when the base was pending: its `.immediate` observers run there, as in 1.x")
    func resolvesOnTheContext() async throws {
        let observed = Observed()
        let (source, resolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let promise: Promise<Int, BehaviourError> = nowOrIncremented(source, observed: observed)
        let place = promise.map(on: .immediate) { _ in DispatchQueue.getSpecific(key: behaviourKey) ?? "elsewhere" }
        resolver.fulfill(with: 1)
        #expect(try await place.value == "behaviourQueue")
    }

    @Test("the twin and the wrapper as written; a second run changes nothing")
    func written() throws {
        let (text, notes) = ConvertBodyTests.converted(ConvertBodyTests.feed("""
                public func counted(_ posts: Promise<[Post], APIError>) -> Promise<Int, APIError> {
                    posts.map(on: .nowOr(.utility)) { $0.count }
                }
            """))
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        let (promise, twin) = ConvertBodyTests.bodies(of: "counted", in: text)
        #expect(promise.contains(".then(on: .nowOr(.utility)) { _ in }"), "\(text)")
        #expect(twin == """
                    let promise = posts
                    // 1.x's `.nowOr`: at once if it had already resolved here, else on its context.
                    let resolvedAtOnce = promise.result != nil
                    let value = try await (consume promise).value
                    let result: Int
                    if resolvedAtOnce {
                        result = value.count
                    } else {
                        result = await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                            value.count
                        }
                    }
                    return result
            """, "\(text)")
        let second = ConvertBody.run(.inMemory([(path: "Feed.swift", text: text)]))
        #expect(second.changes.isEmpty, "\(second.notes.map(\.message))")
    }

    @Test("`flatMap` on `.nowOr`: the closure's promise awaited, at once on a resolved base, else after the hop")
    func flatMapOnNowOr() async throws {
        let observed = Observed()
        let resolved: Promise<Int, BehaviourError> = nowOrChained(Promise(fulfilled: 1), observed: observed)
        #expect(resolved.result == .value(2), "the closure and its resolved promise ran in the call")
        let (source, resolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let pending: Promise<Int, BehaviourError> = nowOrChained(source, observed: observed)
        #expect(pending.result == nil)
        resolver.fulfill(with: 4)
        #expect(try await pending.value == 5)
        let rejected: Promise<Int, BehaviourError> = nowOrChained(Promise(fulfilled: -2), observed: observed)
        #expect(await rejected.resolvedResult == .error(.failed))
    }

    @Test("a pending base, cancelled: the request reaches the source and the closure does not run")
    func pendingBaseCancelled() async {
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = nowOrIncremented(behaviourSource(0, observed: observed), observed: observed)
        promise.requestCancel()
        #expect(await promise.resolvedResult == .cancelled)
        #expect(observed.cancelled)
        #expect(observed.places.isEmpty)
    }

    @Test("`.nowOr` after a step on a named context runs on its context, even when the base had resolved")
    func afterAHop() async throws {
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = nowOrNoted(Promise(fulfilled: 3), observed: observed)
        #expect(observed.places == ["elsewhere"], "the first `.nowOr` step ran in the call")
        #expect(try await promise.value == 6)
        #expect(observed.places == ["elsewhere", "behaviourQueue"])
    }

    @Test("`mapResult`: a value, an error mapped to a value, on its queue; a cancel request reaches the source and cancels")
    func mapResult() async {
        let observed = Observed()
        #expect(await (settledOrMinusOne(5, observed: observed) as Promise<Int, NoError>).resolvedResult == .value(5))
        #expect(await (settledOrMinusOne(-1, observed: observed) as Promise<Int, NoError>).resolvedResult == .value(-1))
        #expect(observed.places == ["behaviourQueue", "behaviourQueue"])
        let pending: Promise<Int, NoError> = settledOrMinusOne(0, observed: observed)
        pending.requestCancel()
        #expect(await pending.resolvedResult == .cancelled)
        #expect(observed.cancelled)
        #expect(observed.places == ["behaviourQueue", "behaviourQueue", "behaviourQueue"], "the closure saw the cancellation")
    }

    @Test("`mapResult` with a typed error: a value mapped to an error, the typed error passed on")
    func mapResultTyped() async {
        let observed = Observed()
        #expect(await (rejectingOne(1, observed: observed) as Promise<Int, BehaviourError>).resolvedResult == .error(.failed))
        #expect(await (rejectingOne(2, observed: observed) as Promise<Int, BehaviourError>).resolvedResult == .value(2))
        #expect(await (rejectingOne(-1, observed: observed) as Promise<Int, BehaviourError>).resolvedResult == .error(.failed))
    }

    @Test("what stays, with its reason: `.nowOr` after steps at once, `mapResult` after a step of unknown type; `tap` on it converts")
    func left() {
        let (_, notes) = ConvertBodyTests.converted(ConvertBodyTests.feed("""
                public func later(_ p: Promise<Int, APIError>) -> Promise<Int, APIError> {
                    p.map(on: .immediate) { $0 + 1 }.map(on: .nowOr(.utility)) { $0 * 2 }
                }

                public func recoveredThenMapped(_ p: Promise<Int, APIError>) -> Promise<Int, NoError> {
                    p.recover(on: .nowOr(.utility)) { _ in 0 }.map(on: .immediate) { $0 + 1 }
                }

                public func tapped(_ p: Promise<Int, APIError>) -> Promise<Int, APIError> {
                    p.tap(on: .nowOr(.utility)) { print($0) }
                }


                public func mappedLate(limit: Int) -> Promise<Int, APIError> {
                    latestPosts(limit: limit).map(on: .immediate) { $0.count }.mapResult(on: .utility) { $0 }
                }
            """))
        #expect(notes.contains { $0.hasPrefix("later(_:): left as a chain: a `.nowOr` context off its caller's actor") }, "\(notes)")
        #expect(!notes.contains { $0.hasPrefix("tapped(_:)") }, "`tap` on `.nowOr` converts: \(notes)")
        #expect(notes.contains { $0.hasPrefix("recoveredThenMapped(_:): left as a chain: `recover` on `.nowOr` before value steps") },
                "\(notes)")
        #expect(notes.contains { $0.hasPrefix("mappedLate(limit:): left as a chain: `mapResult` after steps whose result type is not known") },
                "\(notes)")
    }
}
