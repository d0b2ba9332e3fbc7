// Async → promise, started at once: `Promise(on: .immediate) { try await … }` runs its
// operation synchronously, in the caller's isolation, until its first suspension (as
// `Task.immediate` does), and otherwise behaves like the other Task initializers.

import Foundation
import TestSupport
import Testing
import TomorrowlandAsync

/// A gate made of a promise: an operation can suspend at it: `wait()` suspends until `open()` (never on a cancel).
struct ResolverGate: Sendable {
    let promise: Promise<Void, NoError>
    let resolver: Promise<Void, NoError>.Resolver

    init() { (promise, resolver) = Promise<Void, NoError>.makeWithResolver() }

    func wait() async { _ = await promise.resolvedResult }
    func open() { resolver.fulfill(with: ()) }
}

/// Strings recorded in order, from any thread.
final class OrderLog: Sendable {
    private let entries = Locked<[String]>([])
    func append(_ entry: String) { entries.modify { $0.append(entry) } }
    var values: [String] { entries.value }
}

/// Main-actor state that an `.immediate` operation written in `@MainActor` code uses directly.
@MainActor final class ImmediateScreen {
    var flag = false
    var order: [String] = []

    func start(_ gate: ResolverGate) -> StdPromise<Int> {
        let promise = StdPromise<Int>(on: .immediate) {
            MainActor.assertIsolated()
            self.flag = true
            self.order.append("operation: before the first await")
            await gate.wait()
            self.order.append("operation: after the first await")
            return 1
        }
        order.append("caller: the initializer returned")
        return promise
    }
}

/// An actor whose `.immediate` operation uses `self`: isolated to the actor, started on it.
actor ImmediateStore {
    var order: [String] = []
    var count = 0

    func start(_ gate: ResolverGate) -> StdPromise<Int> {
        let promise = StdPromise<Int>(on: .immediate) {
            self.assertIsolated()
            self.count += 1
            self.order.append("operation: before the first await")
            await gate.wait()
            self.order.append("operation: after the first await")
            return self.count
        }
        order.append("caller: the initializer returned")
        return promise
    }

    /// An operation that does not use `self` is nonisolated: it starts on the caller's thread.
    func startNonisolated(_ log: OrderLog, _ gate: ResolverGate) -> StdPromise<Int> {
        let promise = StdPromise<Int>(on: .immediate) {
            log.append("operation: before the first await")
            await gate.wait()
            log.append("operation: after the first await")
            return 2
        }
        log.append("caller: the initializer returned")
        return promise
    }
}

/// Starts an `.immediate` promise from nonisolated code and records the thread it started on.
func startImmediateNonisolated(_ log: OrderLog, _ gate: ResolverGate) -> StdPromise<Bool> {
    let caller = pthread_self()
    let promise = StdPromise<Bool>(on: .immediate) {
        let sameThread = pthread_equal(pthread_self(), caller) != 0
        log.append("operation: before the first await")
        await gate.wait()
        log.append("operation: after the first await")
        return sameThread
    }
    log.append("caller: the initializer returned")
    return promise
}

@Suite("Promises from async operations, started at once (.immediate)")
struct ImmediateTaskPromiseTests {
    static let beforeReturn = ["operation: before the first await", "caller: the initializer returned"]
    static let all = beforeReturn + ["operation: after the first await"]

    @MainActor @Test func mainActorOperationRunsUntilItsFirstSuspensionBeforeTheInitializerReturns() async throws {
        let screen = ImmediateScreen()
        let gate = ResolverGate()
        let promise = screen.start(gate)
        #expect(screen.flag, "set before the initializer returned")
        #expect(screen.order == Self.beforeReturn)
        gate.open()
        #expect(try await withDeadline { try await promise.value } == 1)
        #expect(screen.order == Self.all)
    }

    @Test func actorOperationUsingSelfStartsOnTheActorBeforeTheInitializerReturns() async throws {
        let store = ImmediateStore()
        let gate = ResolverGate()
        let promise = await store.start(gate)
        #expect(await store.order == Self.beforeReturn)
        #expect(await store.count == 1)
        gate.open()
        #expect(try await withDeadline { try await promise.value } == 1)
        #expect(await store.order == Self.all)
    }

    @Test func actorOperationNotUsingSelfStartsBeforeTheInitializerReturns() async throws {
        let log = OrderLog()
        let gate = ResolverGate()
        let promise = await ImmediateStore().startNonisolated(log, gate)
        #expect(log.values == Self.beforeReturn)
        gate.open()
        #expect(try await withDeadline { try await promise.value } == 2)
        #expect(log.values == Self.all)
    }

    @Test func nonisolatedOperationStartsOnTheCallersThread() async throws {
        let log = OrderLog()
        let gate = ResolverGate()
        let promise = startImmediateNonisolated(log, gate)
        #expect(log.values == Self.beforeReturn)
        gate.open()
        #expect(try await withDeadline { try await promise.value } == true, "it started on the caller's thread")
        #expect(log.values == Self.all)
    }

    @Test func aContextValueHoldingImmediateStartsTheNonisolatedOperationAtOnce() async throws {
        let context: PromiseContext = .immediate
        let log = OrderLog()
        let gate = ResolverGate()
        let promise = StdPromise<Int>(on: context) {
            log.append("operation: before the first await")
            await gate.wait()
            log.append("operation: after the first await")
            return 3
        }
        log.append("caller: the initializer returned")
        #expect(log.values == Self.beforeReturn)
        gate.open()
        #expect(try await withDeadline { try await promise.value } == 3)
        #expect(log.values == Self.all)
    }

    @Test func anOperationThatNeverSuspendsHasResolvedThePromiseWhenTheInitializerReturns() {
        #expect(StdPromise<Int>(on: .immediate) { 4 }.result?.value == 4)
        #expect(Promise<Int, NoError>(on: .immediate) { 5 }.result == .value(5))
        #expect(StdPromise<Int>(on: .immediate) { throw TestError(code: 6) }.result?.error as? TestError == TestError(code: 6))
        #expect(StdPromise<Int>(on: .immediate) { throw CancellationError() }.result?.isCancelled == true)
        let typed = Promise<Int, TestError>(on: .immediate) { () async throws(TestError) -> Int in throw TestError(code: 7) }
        #expect(typed.result == .error(TestError(code: 7)))
    }

    @Test func typedErrorsAfterASuspension() async throws {
        let gate = ResolverGate()
        let promise = Promise<Int, TestError>(on: .immediate) { () async throws(TestError) -> Int in
            await gate.wait()
            throw TestError(code: 8)
        }
        #expect(promise.result == nil)
        gate.open()
        #expect(try await withDeadline { await promise.resolvedResult } == .error(TestError(code: 8)))
        let noError = Promise<String, NoError>(on: .immediate) {
            await Task.yield()
            return "done"
        }
        #expect(try await withDeadline { await noError.resolvedResult } == .value("done"))
    }

    /// The cancel request comes while the operation waits at its first suspension, before it
    /// runs on: on the main actor the operation cannot resume before this test lets go of it,
    /// so the order is certain.
    @MainActor @Test func aCancelRequestBeforeTheOperationPassesItsFirstSuspensionCancelsTheTask() async throws {
        let sawCancel = Locked<Bool?>(nil)
        let promise = StdPromise<Int>(on: .immediate) {
            #expect(!Task.isCancelled)
            await Task.yield()  // the first suspension: the operation is enqueued behind this test
            sawCancel.value = Task.isCancelled
            try Task.checkCancellation()
            return 1
        }
        #expect(promise.result == nil, "suspended at Task.yield()")
        promise.requestCancel()
        #expect(try await withDeadline { await promise.resolvedResult }.isCancelled)
        #expect(sawCancel.value == true, "Task.isCancelled after the suspension point")
    }

    @Test func aCancelRequestWhileTheOperationWaitsCancelsTheTask() async throws {
        let gate = ResolverGate()
        let sawCancel = Locked<Bool?>(nil)
        let promise = StdPromise<Int>(on: .immediate) {
            await gate.wait()
            sawCancel.value = Task.isCancelled
            throw CancellationError()
        }
        promise.requestCancel()
        gate.open()
        #expect(try await withDeadline { await promise.resolvedResult }.isCancelled, "CancellationError cancels the promise")
        #expect(sawCancel.value == true)
    }

    @Test func theOperationCancellingItsOwnTaskBeforeItsFirstSuspensionCancelsThePromise() async throws {
        let promise = StdPromise<Int>(on: .immediate) {
            withUnsafeCurrentTask { $0?.cancel() }
            try await Task.sleep(for: .seconds(60))  // throws CancellationError at once
            return 1
        }
        #expect(try await withDeadline { await promise.resolvedResult }.isCancelled)
    }

    @Test func aCancelledAwaitingTaskCancelsTheOperation() async throws {
        let waiter = await startAwaiting {
            try await StdPromise<Int>(on: .immediate) { try await Task.sleep(for: .seconds(60)); return 1 }.value
        }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await withDeadline { try await waiter.value } }
    }

    @Test func aNonThrowingOperationIsFulfilledEvenAfterACancelRequest() async throws {
        let gate = ResolverGate()
        let promise = Promise<Bool, NoError>(on: .immediate) {
            await gate.wait()
            return Task.isCancelled
        }
        promise.requestCancel()
        gate.open()
        #expect(try await withDeadline { await promise.resolvedResult } == .value(true))
    }

    @Test func inheritsTaskLocalsBeforeAndAfterTheFirstSuspension() async throws {
        let promise = Locals.$requestID.withValue("req-9") {
            StdPromise<[String]>(on: .immediate) {
                let before = Locals.requestID
                await Task.yield()
                return [before, Locals.requestID]
            }
        }
        #expect(try await withDeadline { try await promise.value } == ["req-9", "req-9"])
    }

    @Test func priorityIsPassedAndInherited() async throws {
        let explicit = Promise<TaskPriority, NoError>(on: .immediate, priority: .low) {
            await Task.yield()
            return Task.currentPriority
        }
        #expect(try await withDeadline { try await explicit.value } == .low)
        let base = Promise<TaskPriority?, NoError>(on: .immediate, priority: .low) { Task.basePriority }
        #expect(base.result == .value(.low), "the priority given, while it runs in the call")
        let inherited = try await withDeadline {
            await Task(priority: .high) {
                await Promise<TaskPriority, NoError>(on: .immediate) {
                    await Task.yield()
                    return Task.currentPriority
                }.resolvedResult
            }.value
        }
        #expect(inherited == .value(.high))
    }

    /// `.auto` keeps the caller's actor too, but does not start at once.
    @MainActor @Test func autoKeepsTheCallersActor() async throws {
        _ = markMainQueue
        let screen = ImmediateScreen()
        let promise = Promise<String?, NoError>(on: .auto) {
            screen.flag = true
            return currentQueueName()
        }
        #expect(!screen.flag, "not started in the call")
        #expect(try await withDeadline { try await promise.value } == "main")
        #expect(screen.flag)
    }

    @Test func anOperationIsolatedToAnotherActorRunsOnIt() async throws {
        _ = markMainQueue
        let promise = Promise<String?, NoError>(on: .immediate) { @MainActor in
            MainActor.assertIsolated()
            return currentQueueName()
        }
        #expect(try await withDeadline { try await promise.value } == "main")
    }
}
