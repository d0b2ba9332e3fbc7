import Dispatch
import Foundation
import Testing
@testable import TomorrowlandMigrateKit
import Tomorrowland
import TomorrowlandAsync

/// Holds the main queue until the returned semaphore is signalled (the held block has started).
private func holdingTheMainQueue() -> DispatchSemaphore {
    let release = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    DispatchQueue.main.async {
        started.signal()
        release.wait()
    }
    started.wait()
    return release
}

/// `.nowOr(.main)` off the main actor (ChainConversion+NowOrMain.swift). Each run-time check runs
/// the promise version as written (the reference: the library's own `.nowOr(.main)`) beside the
/// converted one (ConvertedBehaviour.swift's `nowOrMainIncremented`) and expects the same: where
/// the closure ran (the main queue, by a queue-specific key) and whether it ran in the call.
@Suite("convert-body: `.nowOr(.main)` off the main actor", .serialized, .timeLimit(.minutes(2)))
struct ConvertBodyNowOrMainTests {
    init() {
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)
    }

    /// The chain as written, run by the library.
    static func reference(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
        source.map(on: .nowOr(.main)) { value in
            observed.ranOnMain()
            return value + 1
        }
    }

    @Test("a resolved base, called on the main queue: the closure ran in the call, on the main queue; the promise resolved at once")
    @MainActor func resolvedOnTheMainQueue() async throws {
        let reference = Observed()
        let original = Self.reference(Promise(fulfilled: 1), observed: reference)
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = nowOrMainIncremented(Promise(fulfilled: 1), observed: observed)
        #expect(reference.places == ["main"])
        #expect(observed.places == ["main"], "the closure had not run when the call returned")
        #expect(original.result == .value(2))
        #expect(promise.result == .value(2))
    }

    @Test("a resolved base, called off the main queue: the closure ran on the main queue, after the call returned")
    func resolvedOffTheMainQueue() async throws {
        let release = holdingTheMainQueue()
        let reference = Observed()
        let original = Self.reference(Promise(fulfilled: 1), observed: reference)
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = nowOrMainIncremented(Promise(fulfilled: 1), observed: observed)
        #expect(reference.places.isEmpty, "the library ran it in the call")
        #expect(observed.places.isEmpty, "the twin ran it in the call, off the main queue")
        release.signal()
        #expect(try await original.value == 2)
        #expect(try await promise.value == 2)
        #expect(reference.places == ["main"])
        #expect(observed.places == ["main"])
    }

    @Test("a pending base, called on the main queue: nothing ran in the call; the closure ran on the main queue once it resolved")
    @MainActor func pendingOnTheMainQueue() async throws {
        let reference = Observed()
        let observed = Observed()
        let (source, resolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let original = Self.reference(source, observed: reference)
        let promise: Promise<Int, BehaviourError> = nowOrMainIncremented(source, observed: observed)
        #expect(reference.places.isEmpty)
        #expect(observed.places.isEmpty)
        DispatchQueue.global().async { resolver.fulfill(with: 4) }
        #expect(try await original.value == 5)
        #expect(try await promise.value == 5)
        #expect(reference.places == ["main"])
        #expect(observed.places == ["main"])
    }

    @Test("a pending base, cancelled: the request reaches the source, the closure does not run; an error passes typed")
    func cancelledAndRejected() async throws {
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = nowOrMainIncremented(behaviourSource(0, observed: observed), observed: observed)
        while !observed.started { await Task.yield() }
        promise.requestCancel()
        #expect(await promise.resolvedResult == .cancelled)
        #expect(observed.cancelled)
        #expect(observed.places.isEmpty)
        let rejected: Promise<Int, BehaviourError> = nowOrMainIncremented(Promise(rejected: .failed), observed: observed)
        #expect(await rejected.resolvedResult == .error(.failed))
        #expect(observed.places.isEmpty)
    }

    @Test("a `flatMap` of statements: its promise made in the call on the main queue, after the call off it; its rejection typed")
    @MainActor func flatMapOfStatements() async throws {
        let observed = Observed()
        let resolved: Promise<Int, BehaviourError> = nowOrMainChained(Promise(fulfilled: 2), observed: observed)
        #expect(observed.places == ["main"], "the closure had not run when the call returned")
        #expect(resolved.result == .value(4))
        let rejected: Promise<Int, BehaviourError> = nowOrMainChained(Promise(fulfilled: 100), observed: observed)
        #expect(await rejected.resolvedResult == .error(.failed))
        let offMain = await Task.detached { () -> ([String], Promise<Int, BehaviourError>) in
            let release = holdingTheMainQueue()
            defer { release.signal() }
            let promise: Promise<Int, BehaviourError> = nowOrMainChained(Promise(fulfilled: 3), observed: observed)
            return (observed.places, promise)
        }.value
        #expect(offMain.0 == ["main", "main"], "off the main queue the closure ran in the call")
        #expect(try await offMain.1.value == 6)
        #expect(observed.places == ["main", "main", "main"])
    }

    @Test("the twin as written: the flag takes the main queue, `assumeIsolated` at once, `MainActor.run` otherwise")
    func written() throws {
        let (text, notes) = ConvertBodyTests.converted(ConvertBodyTests.feed("""
                public func counted(_ posts: Promise<[Post], APIError>) -> Promise<Int, APIError> {
                    posts.map(on: .nowOr(.main)) { $0.count }
                }
            """))
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        let (promise, twin) = ConvertBodyTests.bodies(of: "counted", in: text)
        #expect(promise.contains(".then(on: .nowOr(.main)) { _ in }"), "\(text)")
        #expect(twin == """
                    let promise = posts
                    // 1.x's `.nowOr(.main)`: at once if it had already resolved here and this is the main queue, else on the main queue.
                    let resolvedAtOnce = promise.result != nil && PromiseContext.auto == .main
                    let value = try await (consume promise).value
                    let result: Int
                    if resolvedAtOnce {
                        result = {
                            MainActor.assumeIsolated {
                                value.count
                            }
                        }()
                    } else {
                        result = await MainActor.run {
                            value.count
                        }
                    }
                    return result
            """, "\(text)")
        let second = ConvertBody.run(.inMemory([(path: "Feed.swift", text: text)]))
        #expect(second.changes.isEmpty, "\(second.notes.map(\.message))")
    }
}

/// `mapResult` and `flatMapResult` after other steps (ChainConversion+MapResult.swift), beside the
/// chain as written (the reference), on ConvertedBehaviour.swift's `doubledOrMinusOne` and
/// `doubledOrRetried`: value, typed error, a cancel request reaching the source, the queue.
@Suite("convert-body: `mapResult` and `flatMapResult` after steps", .timeLimit(.minutes(2)))
struct ConvertBodyResultMapTests {
    init() {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
    }

    static func reference(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
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
    }

    @Test("`mapResult` after a step: the value, an error mapped to a value, each closure on its queue", arguments: [false, true])
    func mapResult(converted: Bool) async {
        let observed = Observed()
        func call(_ input: Int) -> Promise<Int, NoError> {
            converted ? doubledOrMinusOne(input, observed: observed) : Self.reference(input, observed: observed)
        }
        #expect(await call(5).resolvedResult == .value(10))
        #expect(observed.places == ["behaviourQueue", "behaviourQueue"])
        #expect(await call(-1).resolvedResult == .value(-1))
        #expect(observed.places == ["behaviourQueue", "behaviourQueue", "behaviourQueue"], "the step did not run on an error")
    }

    @Test("`mapResult` after a step, cancelled: the request reaches the source, the step is skipped, the closure maps `.cancelled`",
          arguments: [false, true])
    func mapResultCancelled(converted: Bool) async {
        let observed = Observed()
        let promise: Promise<Int, NoError> = converted ? doubledOrMinusOne(0, observed: observed) : Self.reference(0, observed: observed)
        while !observed.started { await Task.yield() }
        promise.requestCancel()
        #expect(await promise.resolvedResult == .value(-2))
        #expect(observed.cancelled)
        #expect(observed.places == ["behaviourQueue"], "only the closure ran")
    }

    @Test("`flatMapResult` after a step: a value, a rejection retried, a rejected retry typed, on its queue")
    func flatMapResult() async throws {
        let observed = Observed()
        #expect(try await (doubledOrRetried(3, retry: 7, observed: observed) as Promise<Int, BehaviourError>).value == 6)
        #expect(try await (doubledOrRetried(-1, retry: 7, observed: observed) as Promise<Int, BehaviourError>).value == 7)
        let failed: Promise<Int, BehaviourError> = doubledOrRetried(-1, retry: -1, observed: observed)
        #expect(await failed.resolvedResult == .error(.failed))
        #expect(observed.places == ["behaviourQueue", "behaviourQueue", "behaviourQueue"])
    }

    @Test("`flatMapResult` after a step, cancelled: the request reaches the source and the promise is cancelled")
    func flatMapResultCancelled() async {
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = doubledOrRetried(0, retry: 7, observed: observed)
        while !observed.started { await Task.yield() }
        promise.requestCancel()
        #expect(await promise.resolvedResult == .cancelled)
        #expect(observed.cancelled)
        #expect(observed.places == ["behaviourQueue"], "the closure saw the cancellation")
    }

    @Test("the twins as written: the steps' result in a `do`/`catch`")
    func written() throws {
        let behaviour = try Support.fixture("ConvertBody/Behaviour.swift")
        let (text, notes) = ConvertBodyTests.converted(behaviour.text, path: "Behaviour.swift")
        #expect(!notes.contains { $0.hasPrefix("doubledOrMinusOne") || $0.hasPrefix("doubledOrRetried") || $0.hasPrefix("nowOrMainIncremented") },
                "\(notes)")
        #expect(text.contains("""
                let result: PromiseResult<Int, BehaviourError>
                do {
                    let value2 = try await behaviourSource(input, observed: observed) * 2
                    result = .value(value2)
                } catch let error as BehaviourError {
                    result = .error(error)
                } catch {
                    result = .cancelled
                }
            """), "\(text)")
    }
}

/// `.nowOr(c)` on an error handler and on a `flatMap` of several statements
/// (ChainConversion+NowOrHandlers.swift), on ConvertedBehaviour.swift's `nowOrRecovered` and
/// `nowOrCheckedAndChained`, beside the chains as written (the references).
@Suite("convert-body: `.nowOr(c)` on an error handler and a `flatMap` of statements", .timeLimit(.minutes(2)))
struct ConvertBodyNowOrHandlerTests {
    init() {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
    }

    static func recovered(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, NoError> {
        source.recover(on: .nowOr(.queue(behaviourQueue))) { _ in
            observed.ran()
            return -1
        }
    }

    static func chained(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
        source.flatMap(on: .nowOr(.queue(behaviourQueue))) { value -> Promise<Int, BehaviourError> in
            observed.ran()
            guard value < 100 else { return Promise(rejected: .failed) }
            return behaviourSource(value * 2, observed: observed)
        }
    }

    @Test("`recover`: a rejected base that had resolved is recovered in the call; a value passes; a pending one on the queue",
          arguments: [false, true])
    func recover(converted: Bool) async throws {
        let observed = Observed()
        func call(_ source: Promise<Int, BehaviourError>) -> Promise<Int, NoError> {
            converted ? nowOrRecovered(source, observed: observed) : Self.recovered(source, observed: observed)
        }
        let rejected = call(Promise(rejected: .failed))
        #expect(observed.places == ["elsewhere"], "the closure had not run in the call, or ran on the queue")
        #expect(rejected.result == .value(-1))
        #expect(try await call(Promise(fulfilled: 3)).value == 3)
        #expect(observed.places == ["elsewhere"])
        let (source, resolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let pending = call(source)
        #expect(observed.places == ["elsewhere"])
        resolver.reject(with: .failed)
        #expect(try await pending.value == -1)
        #expect(observed.places == ["elsewhere", "behaviourQueue"])
    }

    @Test("`recover` on a pending base, cancelled: the request reaches the source and the closure does not run", arguments: [false, true])
    func recoverCancelled(converted: Bool) async {
        let observed = Observed()
        // No handle to the source is kept: one would hold its cancellation back, in 1.x as here.
        let promise: Promise<Int, NoError> = converted
            ? nowOrRecovered(behaviourSource(0, observed: observed), observed: observed)
            : Self.recovered(behaviourSource(0, observed: observed), observed: observed)
        promise.requestCancel()
        #expect(await promise.resolvedResult == .cancelled)
        #expect(observed.cancelled)
        #expect(observed.places.isEmpty)
    }

    @Test("a `flatMap` of statements: in the call on a resolved base, else on the queue; its early rejection typed", arguments: [false, true])
    func flatMapOfStatements(converted: Bool) async throws {
        let observed = Observed()
        func call(_ source: Promise<Int, BehaviourError>) -> Promise<Int, BehaviourError> {
            converted ? nowOrCheckedAndChained(source, observed: observed) : Self.chained(source, observed: observed)
        }
        let resolved = call(Promise(fulfilled: 1))
        #expect(observed.places == ["elsewhere"])
        #expect(resolved.result == .value(2), "the closure and its resolved promise ran in the call")
        #expect(await call(Promise(fulfilled: 100)).resolvedResult == .error(.failed))
        let (source, resolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let pending = call(source)
        #expect(observed.places == ["elsewhere", "elsewhere"])
        resolver.fulfill(with: 4)
        #expect(try await pending.value == 8)
        #expect(observed.places == ["elsewhere", "elsewhere", "behaviourQueue"])
    }
}
