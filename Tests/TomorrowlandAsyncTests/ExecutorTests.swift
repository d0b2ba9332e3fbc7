// PromiseContext.taskExecutor / serialExecutor.

import Foundation
import Testing
import TomorrowlandAsync

/// An actor whose executor is a promise context's serial executor.
actor ContextActor {
    let context: PromiseContext
    var count = 0

    init(_ context: PromiseContext) { self.context = context }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        context.serialExecutor!.asUnownedSerialExecutor()
    }

    func increment() -> (count: Int, queue: String?, operationQueue: OperationQueue?) {
        count += 1
        return (count, currentQueueName(), OperationQueue.current)
    }
}

private func same(_ a: (any Executor)?, _ b: (any Executor)?) -> Bool {
    guard let a, let b else { return false }
    return a === b
}

@Suite("Contexts as executors")
struct ExecutorTests {
    @Test func whichContextsHaveExecutors() {
        let queue = DispatchQueue(label: "x")
        let serialOps = OperationQueue()
        serialOps.maxConcurrentOperationCount = 1
        let concurrentOps = OperationQueue()
        let all: [PromiseContext] = [.main, .background, .utility, .default, .userInitiated, .userInteractive,
                                     .queue(queue), .operationQueue(concurrentOps)]
        for context in all { #expect(context.taskExecutor != nil, "\(context)") }
        #expect(PromiseContext.immediate.taskExecutor == nil)
        #expect(PromiseContext.nowOr(.main).taskExecutor == nil)
        #expect(PromiseContext.main.serialExecutor != nil)
        #expect(PromiseContext.queue(queue).serialExecutor != nil)
        #expect(PromiseContext.operationQueue(serialOps).serialExecutor != nil)
        for context: PromiseContext in [.background, .utility, .default, .userInitiated, .userInteractive,
                                        .operationQueue(concurrentOps), .immediate, .nowOr(.queue(queue))] {
            #expect(context.serialExecutor == nil, "\(context)")
        }
    }

    @Test func sameQueueSameExecutorObject() {
        let queue = DispatchQueue(label: "identity")
        #expect(same(PromiseContext.queue(queue).serialExecutor, PromiseContext.queue(queue).serialExecutor))
        #expect(same(PromiseContext.queue(queue).serialExecutor, PromiseContext.queue(queue).taskExecutor))
        #expect(!same(PromiseContext.queue(queue).serialExecutor, PromiseContext.queue(DispatchQueue(label: "other")).serialExecutor))
        let ops = OperationQueue()
        ops.maxConcurrentOperationCount = 1
        #expect(same(PromiseContext.operationQueue(ops).serialExecutor, PromiseContext.operationQueue(ops).serialExecutor))
    }

    @Test func queueExecutorLivesAsLongAsTheQueue() async {
        final class WeakRefs: @unchecked Sendable {
            // Safety: written before the checks below, read only by this test's task.
            weak var executor: AnyObject?
            weak var queue: DispatchQueue?
        }
        let refs = WeakRefs()
        do {
            let queue = DispatchQueue(label: "lifetime")
            refs.queue = queue
            refs.executor = PromiseContext.queue(queue).serialExecutor
            #expect(refs.executor != nil, "the queue keeps its executor alive")
        }
        #expect(refs.queue == nil, "the executor does not keep its queue alive")
        // Dispatch runs queue-specific destructors when it disposes of the queue.
        #expect(await eventually { refs.executor == nil }, "the executor goes with its queue")
    }

    @Test func mainExecutorIsTheMainActorExecutor() {
        let unowned = PromiseContext.main.serialExecutor!.asUnownedSerialExecutor()
        #expect(unsafeBitCast(unowned, to: (Int, Int).self) == unsafeBitCast(MainActor.sharedUnownedExecutor, to: (Int, Int).self))
        #expect(same(PromiseContext.queue(.main).serialExecutor, PromiseContext.main.serialExecutor))
    }

    @Test func actorRunsOnItsQueue() async throws {
        let queue = makeNamedQueue("actor-queue")
        let actor = ContextActor(.queue(queue))
        let result = try await withDeadline { await actor.increment() }
        #expect(result.count == 1)
        #expect(result.queue == "actor-queue")
    }

    @Test func actorRunsOnItsSerialOperationQueue() async throws {
        let ops = OperationQueue()
        ops.maxConcurrentOperationCount = 1
        let actor = ContextActor(.operationQueue(ops))
        let result = try await withDeadline { await actor.increment() }
        #expect(result.operationQueue === ops)
    }

    @Test func promiseCallbackOnTheQueueCanAssumeTheActorsIsolation() async throws {
        let queue = makeNamedQueue("assume")
        let actor = ContextActor(.queue(queue))
        let executor = PromiseContext.queue(queue).serialExecutor!
        #expect(executor.isIsolatingCurrentContext() == false, "not on the queue here")
        let (promise, resolver) = Promise<Int, NoError>.makeWithResolver()
        let observed = promise.map(on: .queue(queue)) { value -> Int in
            guard executor.isIsolatingCurrentContext() == true else { return -1 }
            executor.checkIsolated()
            return actor.assumeIsolated { actor in
                actor.count += value
                return actor.count
            }
        }
        resolver.fulfill(with: 5)
        #expect(try await withDeadline { await observed.resolvedResult } == .value(5))
        #expect(try await withDeadline { await actor.increment().count } == 6)
    }

    @Test func promiseCallbackOnASerialOperationQueueCanAssumeTheActorsIsolation() async throws {
        let ops = OperationQueue()
        ops.maxConcurrentOperationCount = 1
        let actor = ContextActor(.operationQueue(ops))
        let promise = Promise<Int, NoError>(fulfilled: 2).map(on: .operationQueue(ops)) { value in
            actor.assumeIsolated { actor in actor.count += value; return actor.count }
        }
        #expect(try await withDeadline { await promise.resolvedResult } == .value(2))
    }

    @Test func taskExecutorPreferenceRunsNonisolatedCodeOnTheQueue() async throws {
        let queue = makeNamedQueue("preferred")
        let executor = PromiseContext.queue(queue).taskExecutor
        let name = try await withDeadline {
            await Task(executorPreference: executor) { () async -> String? in
                try? await Task.sleep(for: .milliseconds(1))
                return currentQueueName()
            }.value
        }
        #expect(name == "preferred")
        let viaWith = try await withDeadline {
            await withTaskExecutorPreference(executor) { () async -> String? in
                await Task.yield()
                return currentQueueName()
            }
        }
        #expect(viaWith == "preferred")
    }

    @Test func mainAndGlobalTaskExecutorsRunJobs() async throws {
        _ = markMainQueue
        let onMain = try await withDeadline {
            await Task(executorPreference: PromiseContext.main.taskExecutor) { () async -> String? in
                await Task.yield()
                return currentQueueName()
            }.value
        }
        #expect(onMain == "main")
        let onGlobal = try await withDeadline {
            await Task(executorPreference: PromiseContext.utility.taskExecutor) { () async -> Int in
                await Task.yield()
                return 7
            }.value
        }
        #expect(onGlobal == 7)
        let ops = OperationQueue()
        let onOps = try await withDeadline {
            await Task(executorPreference: PromiseContext.operationQueue(ops).taskExecutor) { () async -> Bool in
                await Task.yield()
                return OperationQueue.current === ops
            }.value
        }
        #expect(onOps)
    }

    @Test func serialQueueActorExcludesPlainQueueWork() async throws {
        // Actor jobs and plain blocks on the queue never overlap: a racy counter stays exact.
        let queue = makeNamedQueue("exclusive")
        let actor = ContextActor(.queue(queue))
        let iterations = 2_000
        try await withDeadline(30) {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<iterations {
                    group.addTask { _ = await actor.increment() }
                    group.addTask {
                        await withCheckedContinuation { continuation in
                            queue.async {
                                actor.assumeIsolated { $0.count += 1 }
                                continuation.resume()
                            }
                        }
                    }
                }
            }
        }
        #expect(try await withDeadline { await actor.increment().count } == 2 * iterations + 1)
    }
}
