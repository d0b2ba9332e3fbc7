// No work is leaked or lost: a Task-backed promise releases its operation once it has run, a
// callback whose scheduled operation is dropped still resolves its child (as cancelled), and
// an operation queue used as an executor runs every job even after `cancelAllOperations()`.

import Foundation
import Synchronization
import TestSupport
import Testing
import TomorrowlandAsync

/// An object whose release we can observe through a weak reference.
private final class Tracked: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}

/// Holds a weak reference, readable from any thread.
private final class WeakBox: @unchecked Sendable {
    // Safety: `object` is only touched under `lock`.
    private let lock = NSLock()
    private weak var object: Tracked?
    func set(_ object: Tracked) { lock.lock(); self.object = object; lock.unlock() }
    var isReleased: Bool { lock.lock(); defer { lock.unlock() }; return object == nil }
}

@Suite("No work is leaked or lost")
struct NoWorkLostOrLeakedTests {
    /// `Promise(operation:)` must release its operation (and what it captured) once the Task
    /// has run it, even while the promise itself lives on: otherwise `self.p = Promise { self… }`
    /// is a retain cycle that never breaks (the old resolver-based version released it).
    @Test func taskPromiseReleasesItsOperationAfterRunning() async throws {
        let weak = WeakBox()
        let promise: Promise<Int, NoError> = {
            let tracked = Tracked(7)
            weak.set(tracked)
            return Promise { tracked.value }
        }()
        let value = try await withDeadline { try await promise.value }
        #expect(value == 7)
        #expect(await eventually { weak.isReleased }, "the operation's captures outlive the Task")
        withExtendedLifetime(promise) {}
    }

    @Test func throwingTaskPromiseReleasesItsOperationAfterRunning() async throws {
        let weak = WeakBox()
        let promise: StdPromise<Int> = {
            let tracked = Tracked(8)
            weak.set(tracked)
            return StdPromise(on: .default) { tracked.value }
        }()
        let value = try await withDeadline { try await promise.value }
        #expect(value == 8)
        #expect(await eventually { weak.isReleased }, "the operation's captures outlive the Task")
        withExtendedLifetime(promise) {}
    }

    /// A callback scheduled on an operation queue whose operation is cancelled never runs;
    /// nothing can resolve the child any more, so it must cancel (rule 1) instead of leaving
    /// its awaiters hanging.
    @Test func childWhoseScheduledOperationIsCancelledResolvesCancelled() async throws {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let (parent, resolver) = Promise<Int, NoError>.makeWithResolver()
        let child = parent.map(on: .operationQueue(queue)) { $0 + 1 }
        resolver.fulfill(with: 1)
        queue.cancelAllOperations()
        queue.isSuspended = false
        let result = try await withDeadline(30) { await child.resolvedResult }
        #expect(result == .cancelled)
    }

    /// An executor must run every job exactly once: `cancelAllOperations()` on an operation
    /// queue used as a task executor must not drop a Task's job (the Task would hang forever).
    @Test func operationQueueTaskExecutorRunsJobsDespiteCancelAllOperations() async throws {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let executor = try #require(PromiseContext.operationQueue(queue).taskExecutor)
        let task = Task(executorPreference: executor) { () async -> Int in 42 }
        // The Task's first job is on the queue when it is cancelled (waited for: a sleep
        // could end first on a loaded machine, and the check would then prove nothing).
        #expect(await eventually(seconds: 30) { queue.operationCount >= 1 })
        queue.cancelAllOperations()
        queue.isSuspended = false
        let value = try await withDeadline(30) { await task.value }
        #expect(value == 42)
    }

    /// The same for an actor whose serial executor is an operation queue.
    @Test func operationQueueSerialExecutorRunsJobsDespiteCancelAllOperations() async throws {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let actor = ContextActor(.operationQueue(queue))
        queue.isSuspended = true
        let task = Task { await actor.increment().count }
        #expect(await eventually(seconds: 30) { queue.operationCount >= 1 }, "the actor's job is on the queue")
        queue.cancelAllOperations()
        queue.isSuspended = false
        let count = try await withDeadline(30) { await task.value }
        #expect(count == 1)
    }
}
