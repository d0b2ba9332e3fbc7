// PromiseContext.taskExecutor / serialExecutor.

import Foundation
import TestSupport
import Testing
import TomorrowlandAsync
#if canImport(CDispatch)
import CDispatch
#endif

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

/// An actor on a queue's serial executor that calls another actor on an executor.
actor CallingActor {
    let context: PromiseContext

    init(_ context: PromiseContext) { self.context = context }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        context.serialExecutor!.asUnownedSerialExecutor()
    }

    /// Calls `other.increment()` `n` times; returns the last count and whether every call
    /// ran on `queueName` and came back to it.
    func call(_ other: ContextActor, _ n: Int, queueName: String) async -> (count: Int, onQueue: Bool) {
        var count = 0
        var onQueue = true
        for _ in 0..<n {
            let result = await other.increment()
            count = result.count
            onQueue = onQueue && result.queue == queueName && currentQueueName() == queueName
        }
        return (count, onQueue)
    }

    /// Submits work (a plain block or operation) to the actor's queue that sets `marker`, then
    /// calls `other`, which reports whether that work ran before it. In place, the call runs
    /// before the work; a hop would put the call behind it in the queue.
    func callAfterSubmitting(_ other: ContextActor, marker: Marker, submit: @Sendable (@escaping @Sendable () -> Void) -> Void) async -> Bool {
        marker.isSet = false
        submit { marker.isSet = true }
        return await other.readMarker(marker)
    }
}

extension ContextActor {
    func readMarker(_ marker: Marker) -> Bool { marker.isSet }
}

/// A flag touched only on one serial queue.
final class Marker: @unchecked Sendable {
    // Safety: read and written only by code running on the test's serial queue.
    var isSet = false
}

/// Adds to `actor.count` synchronously, asserting (crashing otherwise) that the caller runs
/// on the actor's executor; returns the new count.
@discardableResult
private func addAssumingIsolation(_ actor: ContextActor, _ value: Int) -> Int {
    actor.assumeIsolated { actor in
        actor.count += value
        return actor.count
    }
}

/// The label of the dispatch queue running the caller (Linux: the C API).
private func currentDispatchLabel() -> String? {
    #if canImport(CDispatch)
    return String(cString: dispatch_queue_get_label(nil))
    #else
    return String(cString: __dispatch_queue_get_label(nil))
    #endif
}

/// An actor that keeps only its executor, not the queue (the natural pattern; NIO users keep
/// only `loop.executor`).
actor ExecutorKeepingActor {
    let executor: any SerialExecutor
    var count = 0

    init(_ executor: any SerialExecutor) { self.executor = executor }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Returns the new count and the name of the dispatch or operation queue it ran on.
    func increment() -> (count: Int, queue: String?) {
        count += 1
        return (count, currentQueueName() ?? OperationQueue.current?.name)
    }
}

/// Weak references to a queue and its executor, to check that neither leaks.
final class WeakQueueAndExecutor: @unchecked Sendable {
    // Safety: written before the checks that read them, by the test's own task.
    weak var queue: AnyObject?
    weak var executor: AnyObject?

    var bothFreed: Bool { queue == nil && executor == nil }
}

/// A serial operation queue named `name`.
private func makeSerialOperationQueue(_ name: String) -> OperationQueue {
    let queue = OperationQueue()
    queue.name = name
    queue.maxConcurrentOperationCount = 1
    return queue
}

/// The identity the runtime sees for an executor.
private func identity(_ executor: UnownedSerialExecutor) -> [Int] {
    let words = unsafeBitCast(executor, to: (Int, Int).self)
    return [words.0, words.1]
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
        #expect(same(PromiseContext.queue(queue).taskExecutor, PromiseContext.queue(queue).taskExecutor))
        // Two roles, two objects: jobs that come in as an actor's run without a task executor, so
        // that the runtime can switch between the queue's actors in place.
        #expect(!same(PromiseContext.queue(queue).serialExecutor, PromiseContext.queue(queue).taskExecutor))
        #expect(!same(PromiseContext.queue(queue).serialExecutor, PromiseContext.queue(DispatchQueue(label: "other")).serialExecutor))
        let ops = OperationQueue()
        ops.maxConcurrentOperationCount = 1
        #expect(same(PromiseContext.operationQueue(ops).serialExecutor, PromiseContext.operationQueue(ops).serialExecutor))
    }

    @Test func queueExecutorAndItsQueueAreFreedOnceNeitherIsReferenced() async {
        let refs = WeakQueueAndExecutor()
        do {
            let queue = DispatchQueue(label: "lifetime")
            refs.queue = queue
            let executor = PromiseContext.queue(queue).serialExecutor!
            refs.executor = executor
            #expect(same(executor, PromiseContext.queue(queue).serialExecutor), "one executor per queue while it lives")
        }
        // Dispatch runs queue-specific destructors when it disposes of the queue.
        #expect(await eventually { refs.bothFreed }, "neither the queue nor its executor leaks")
    }

    @Test func theQueueKeepsTheIdentityTheRuntimeSees() {
        // An actor that keeps the queue and asks for the executor in each `unownedExecutor`
        // call (the documented pattern) must get the same executor every time, although
        // nobody keeps the object `serialExecutor` returned.
        let queue = DispatchQueue(label: "identity-kept")
        let first = identity(PromiseContext.queue(queue).serialExecutor!.asUnownedSerialExecutor())
        let second = identity(PromiseContext.queue(queue).serialExecutor!.asUnownedSerialExecutor())
        #expect(first == second)
        let ops = makeSerialOperationQueue("identity-kept-ops")
        let firstOps = identity(PromiseContext.operationQueue(ops).serialExecutor!.asUnownedSerialExecutor())
        let secondOps = identity(PromiseContext.operationQueue(ops).serialExecutor!.asUnownedSerialExecutor())
        #expect(firstOps == secondOps)
        #expect(firstOps != first)
    }

    /// An actor keeps only the serial executor of a queue made by `make` (named `name`): it
    /// runs on the queue, the queue stays alive and yields the same executor meanwhile, and
    /// both are freed afterwards.
    private func checkActorKeepingOnlyTheSerialExecutor(
        _ name: String,
        make: () -> (queue: AnyObject, executor: any SerialExecutor),
        lookUp: @escaping @Sendable (AnyObject) -> (any SerialExecutor)?
    ) async throws {
        let refs = WeakQueueAndExecutor()
        do {
            let actor = ExecutorKeepingActor({
                let (queue, executor) = make()
                refs.queue = queue
                refs.executor = executor
                return executor
            }())
            let first = try await withDeadline { await actor.increment() }
            let second = try await withDeadline { await actor.increment() }
            #expect(first.queue == name && second.queue == name && second.count == 2)
            let queue = try #require(refs.queue, "the executor keeps its queue alive")
            #expect(same(lookUp(queue), actor.executor), "one executor per queue while it lives")
        }
        #expect(await eventually { refs.bothFreed }, "freed once neither is referenced")
    }

    @Test func actorKeepingOnlyAQueuesSerialExecutorKeepsTheQueueAlive() async throws {
        try await checkActorKeepingOnlyTheSerialExecutor("cache", make: {
            let queue = makeNamedQueue("cache")
            return (queue, PromiseContext.queue(queue).serialExecutor!)
        }, lookUp: { PromiseContext.queue($0 as! DispatchQueue).serialExecutor })
    }

    @Test func actorKeepingOnlyAnOperationQueuesSerialExecutorKeepsTheQueueAlive() async throws {
        try await checkActorKeepingOnlyTheSerialExecutor("ops-cache", make: {
            let queue = makeSerialOperationQueue("ops-cache")
            return (queue, PromiseContext.operationQueue(queue).serialExecutor!)
        }, lookUp: { PromiseContext.operationQueue($0 as! OperationQueue).serialExecutor })
    }

    /// A Task keeps only the task executor of a queue made by `make` (named `name`): its
    /// nonisolated code runs on the queue, the queue stays alive and yields the same task
    /// executor meanwhile, and both are freed afterwards.
    private func checkTaskKeepingOnlyTheTaskExecutor(
        _ name: String,
        make: () -> (queue: AnyObject, executor: any TaskExecutor),
        lookUp: @escaping @Sendable (AnyObject) -> (any TaskExecutor)?
    ) async throws {
        let refs = WeakQueueAndExecutor()
        do {
            let executor: any TaskExecutor = {
                let (queue, executor) = make()
                refs.queue = queue
                refs.executor = executor
                return executor
            }()
            let viaTask = try await withDeadline {
                await Task(executorPreference: executor) { () async -> String? in
                    try? await Task.sleep(for: .milliseconds(1))
                    return currentQueueName() ?? OperationQueue.current?.name
                }.value
            }
            let viaWith = try await withDeadline {
                await withTaskExecutorPreference(executor) { () async -> String? in
                    try? await Task.sleep(for: .milliseconds(1))
                    return currentQueueName() ?? OperationQueue.current?.name
                }
            }
            #expect(viaTask == name && viaWith == name)
            let queue = try #require(refs.queue, "the task executor keeps its queue alive")
            #expect(same(lookUp(queue), executor), "one task executor per queue while it lives")
        }
        #expect(await eventually { refs.bothFreed }, "freed once neither is referenced")
    }

    @Test func taskKeepingOnlyAQueuesTaskExecutorKeepsTheQueueAlive() async throws {
        try await checkTaskKeepingOnlyTheTaskExecutor("task-cache", make: {
            let queue = makeNamedQueue("task-cache")
            return (queue, PromiseContext.queue(queue).taskExecutor!)
        }, lookUp: { PromiseContext.queue($0 as! DispatchQueue).taskExecutor })
    }

    @Test func taskKeepingOnlyAnOperationQueuesTaskExecutorKeepsTheQueueAlive() async throws {
        try await checkTaskKeepingOnlyTheTaskExecutor("ops-task-cache", make: {
            let queue = makeSerialOperationQueue("ops-task-cache")
            return (queue, PromiseContext.operationQueue(queue).taskExecutor!)
        }, lookUp: { PromiseContext.operationQueue($0 as! OperationQueue).taskExecutor })
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

    @Test func actorToActorOnTheSameQueueSwitchesInPlace() async throws {
        let queue = makeNamedQueue("in-place")
        try await expectCallsInPlace(.queue(queue)) { work in queue.async(execute: work) }
    }

    @Test func actorToActorOnTheSameSerialOperationQueueSwitchesInPlace() async throws {
        let ops = OperationQueue()
        ops.maxConcurrentOperationCount = 1
        try await expectCallsInPlace(.operationQueue(ops)) { work in ops.addOperation(work) }
        #expect(same(PromiseContext.operationQueue(ops).taskExecutor, PromiseContext.operationQueue(ops).taskExecutor))
        #expect(!same(PromiseContext.operationQueue(ops).serialExecutor, PromiseContext.operationQueue(ops).taskExecutor))
    }

    /// Twenty rounds of an actor on `context`'s serial executor calling another one there right
    /// after submitting plain work to the context's queue with `submit`: the call must run first.
    private func expectCallsInPlace(_ context: PromiseContext, submit: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) async throws {
        let caller = CallingActor(context)
        let callee = ContextActor(context)
        let marker = Marker()
        for _ in 0..<20 {
            let workRanFirst = try await withDeadline { await caller.callAfterSubmitting(callee, marker: marker, submit: submit) }
            #expect(!workRanFirst, "the call into an actor on the same executor ran in place, before the queued work")
            // Let the work run before the next round.
            try await withDeadline { await withCheckedContinuation { c in submit { c.resume() } } }
        }
    }

    @Test func taskPreferringASerialOperationQueueIsIsolatedToItsSerialExecutor() async throws {
        let ops = OperationQueue()
        ops.maxConcurrentOperationCount = 1
        let actor = ContextActor(.operationQueue(ops))
        let assumed = try await withDeadline {
            await Task(executorPreference: PromiseContext.operationQueue(ops).taskExecutor) { () async -> Int in
                await Task.yield()
                return OperationQueue.current === ops ? addAssumingIsolation(actor, 3) : -1
            }.value
        }
        #expect(assumed == 3)
    }

    @Test func actorToActorOnTheSameQueueUnderContention() async throws {
        // One actor calls another on the same queue executor in place, while Tasks call the
        // callee and plain blocks on the queue mutate it through assumeIsolated: the callee's
        // racy counter stays exact and everything runs on the queue.
        let queue = makeNamedQueue("contended")
        let caller = CallingActor(.queue(queue))
        let callee = ContextActor(.queue(queue))
        let callers = 4, callsPerCaller = 500, tasks = 1_000, blocks = 1_000
        let onQueue = try await withDeadline(60) {
            await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<callers {
                    group.addTask { await caller.call(callee, callsPerCaller, queueName: "contended").onQueue }
                }
                for _ in 0..<tasks {
                    group.addTask { await callee.increment().queue == "contended" }
                }
                for _ in 0..<blocks {
                    group.addTask {
                        await withCheckedContinuation { continuation in
                            queue.async {
                                callee.assumeIsolated { $0.count += 1 }
                                continuation.resume(returning: currentQueueName() == "contended")
                            }
                        }
                    }
                }
                return await group.allSatisfy { $0 }
            }
        }
        #expect(onQueue)
        let total = callers * callsPerCaller + tasks + blocks
        #expect(try await withDeadline { await callee.increment().count } == total + 1)
    }

    @Test func taskPreferringTheQueueIsIsolatedToItsSerialExecutor() async throws {
        // Nonisolated code of a Task that prefers `.queue(q).taskExecutor` runs on q, isolated to
        // q's serial executor: it may assume the isolation of q's actors and calls them in place.
        let queue = makeNamedQueue("preferring")
        let actor = ContextActor(.queue(queue))
        let marker = Marker()
        let executor = PromiseContext.queue(queue).serialExecutor!
        let (assumed, blockRanFirst, isolated) = try await withDeadline {
            await Task(executorPreference: PromiseContext.queue(queue).taskExecutor) { () async -> (Int, Bool, Bool?) in
                let isolated = executor.isIsolatingCurrentContext()
                let assumed = addAssumingIsolation(actor, 10)
                queue.async { marker.isSet = true }
                let blockRanFirst = await actor.readMarker(marker)
                return (assumed, blockRanFirst, isolated)
            }.value
        }
        #expect(isolated == true)
        #expect(assumed == 10)
        #expect(!blockRanFirst, "the call from the preferring Task into the queue's actor ran in place")
        #expect(try await withDeadline { await actor.increment() }.count == 11)
    }

    @Test func queueTaskExecutorAndActorsShareOneFIFO() async throws {
        // Tasks preferring the queue and actor calls on its executor interleave on the queue
        // without overlapping: a racy counter touched by both stays exact.
        let queue = makeNamedQueue("shared-fifo")
        let actor = ContextActor(.queue(queue))
        let taskExecutor = PromiseContext.queue(queue).taskExecutor
        let iterations = 1_000
        try await withDeadline(60) {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<iterations {
                    group.addTask { _ = await actor.increment() }
                    group.addTask(executorPreference: taskExecutor) {
                        addAssumingIsolation(actor, 1)
                    }
                }
            }
        }
        #expect(try await withDeadline { await actor.increment().count } == 2 * iterations + 1)
    }

    @Test func globalTaskExecutorsRunOnTheGlobalQueueOfTheirQoS() async throws {
        let expected: [(PromiseContext, DispatchQoS.QoSClass)] = [
            (.background, .background), (.utility, .utility), (.default, .default),
            (.userInitiated, .userInitiated), (.userInteractive, .userInteractive),
        ]
        for (context, qos) in expected {
            let expectedLabel = DispatchQueue.global(qos: qos).label
            let labels = try await withDeadline {
                await withTaskGroup(of: String?.self) { group in
                    for _ in 0..<20 {
                        group.addTask(executorPreference: context.taskExecutor) {
                            let before = currentDispatchLabel()
                            await Task.yield()
                            return before == currentDispatchLabel() ? before : nil
                        }
                    }
                    var labels: [String?] = []
                    for await label in group { labels.append(label) }
                    return labels
                }
            }
            #expect(labels.count == 20)
            for label in labels {
                // Dispatch runs a block on a root queue's overcommit twin at times.
                #expect(label?.hasPrefix(expectedLabel) == true, "\(context): \(label ?? "nil") vs \(expectedLabel)")
            }
        }
    }

    @Test func manyJobsOnTheGlobalTaskExecutorEachRunOnce() async throws {
        let counter = Counter()
        let jobs = 5_000
        try await withDeadline(60) {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<jobs {
                    group.addTask(executorPreference: PromiseContext.utility.taskExecutor) {
                        counter.increment()
                        await Task.yield()
                        counter.increment()
                    }
                }
            }
        }
        #expect(counter.value == 2 * jobs)
    }
}

/// The FIFO of a queue's executor across drains: thousands of jobs waiting when a drain
/// starts, as many arriving while it runs (so the executor never goes idle and its FIFO is
/// compacted between drains), every job run once and in the order it was enqueued.
@Suite("A queue executor's FIFO")
struct QueueExecutorFIFOTests {
    /// An append-only log of indices.
    final class Order: @unchecked Sendable {
        // Safety: `items` is only touched under `lock`.
        private let lock = NSLock()
        private var items: [Int] = []
        func append(_ item: Int) { lock.lock(); items.append(item); lock.unlock() }
        var values: [Int] { lock.lock(); defer { lock.unlock() }; return items }
    }

    @Test func jobsRunOnceInOrderAcrossDrainsAndCompaction() async throws {
        let queue = DispatchQueue(label: "fifo-compaction")
        let taskExecutor = PromiseContext.queue(queue).taskExecutor!
        let count = 3_000  // more than the 1,024 jobs after which a busy FIFO is compacted
        let order = Order()
        queue.suspend()
        var tasks: [Task<Void, Never>] = []
        for index in 0..<count {
            tasks.append(Task(executorPreference: taskExecutor) {
                order.append(index)
                // Enqueued while the first drain runs: after every job of the first wave.
                let followUp = Task(executorPreference: taskExecutor) { order.append(count + index) }
                _ = followUp
            })
        }
        queue.resume()
        let firstWave = tasks
        try await withDeadline(60) {
            for task in firstWave { await task.value }
        }
        #expect(await eventually(seconds: 30) { order.values.count == 2 * count })
        #expect(order.values == Array(0..<(2 * count)), "each job once, in the order it was enqueued")
    }
}
