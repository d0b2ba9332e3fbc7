// DispatchQueueExecutor: a serial DispatchQueue as a Swift concurrency serial executor.

import Dispatch
import Foundation

/// The serial executor of one serial dispatch queue: an actor whose `unownedExecutor` is this
/// executor's runs on the queue. Its task-executor role (`PromiseContext.queue(q).taskExecutor`)
/// is a separate object, ``DispatchQueueTaskExecutor``, that feeds the same job FIFO.
///
/// Why two objects: the runtime switches from one actor to another in place (no enqueue, no
/// hop) only when the current serial executor *and* the current task executor equal the
/// target's. Jobs that arrive through the serial role therefore run with
/// `runSynchronously(on: serialExecutor)` (no task executor), exactly like a job of any other
/// actor; only jobs that arrive through the task-executor role run with this queue's task
/// executor as well (`runSynchronously(isolatedTo:taskExecutor:)`: they are also isolated
/// to this serial executor, which is true because every job of the queue's executor runs
/// from one FIFO on the serial queue). One object playing both roles cannot tell which way a
/// job came in, and running every job with a task executor made every actor → actor call on
/// the queue a full hop.
///
/// Identity and lifetime: there is exactly one serial executor per queue, stored in the
/// queue's own queue-specific storage, so it lives exactly as long as the queue and an actor
/// may hold it unowned. It references the queue weakly (a strong reference would be a cycle
/// that leaks the queue): keep the queue alive while work is enqueued on its executor. It
/// owns its task executor, which references it back weakly.
///
/// Isolation checks: `isIsolatingCurrentContext()` compares the executor found in the
/// current queue's specific storage (Dispatch also searches target queues, which run
/// exclusively with their target), and `checkIsolated()` is a `dispatchPrecondition`.
/// So plain Dispatch code running on the queue can use `actor.assumeIsolated { }`.
///
/// Allocation: jobs wait in the executor's own FIFO (an array that keeps its capacity) and
/// one pre-built block drains them; the block is submitted to the queue only when the
/// executor goes from idle to busy. So a job costs no closure, no block copy, and at most
/// one Dispatch submission (none while the executor is busy). Each drain runs the jobs that
/// were waiting when it started, then resubmits itself, so plain blocks on the queue are not
/// starved. No lock is held while a job runs.
///
/// Safety of `@unchecked Sendable`: `queue` and `taskExecutor` are written once, in `init`;
/// `jobs`, `head` and `scheduled` are guarded by `lock`; `drainBlock` is written once, right
/// after `init`, before the executor is published.
final class DispatchQueueExecutor: SerialExecutor, @unchecked Sendable {
    /// A waiting job and the role it was enqueued through.
    private struct Entry {
        let job: UnownedJob
        let viaTaskExecutor: Bool
    }

    private weak var queue: DispatchQueue?
    /// This queue's task-executor role.
    let taskExecutor: DispatchQueueTaskExecutor
    private let lock = NSLock()
    private var jobs: [Entry] = []
    private var head = 0
    private var scheduled = false
    private var drainBlock: (@convention(block) @Sendable () -> Void)?

    private init(queue: DispatchQueue) {
        self.queue = queue
        self.taskExecutor = DispatchQueueTaskExecutor()
    }

    private static let key = DispatchSpecificKey<DispatchQueueExecutor>()
    private static let creation = NSLock()

    /// The executor of `queue`, created on first use and kept in the queue's specific storage.
    static func executor(for queue: DispatchQueue) -> DispatchQueueExecutor {
        if let existing = queue.getSpecific(key: key) { return existing }
        creation.lock()
        defer { creation.unlock() }
        if let existing = queue.getSpecific(key: key) { return existing }
        let executor = DispatchQueueExecutor(queue: queue)
        executor.drainBlock = { [unowned executor] in executor.drain() }
        executor.taskExecutor.serialExecutor = executor
        queue.setSpecific(key: key, value: executor)
        return executor
    }

    func enqueue(_ job: consuming ExecutorJob) {
        append(Entry(job: UnownedJob(job), viaTaskExecutor: false))
    }

    /// The task-executor role's enqueue: same FIFO, run with the task executor too.
    func enqueueFromTaskExecutor(_ job: UnownedJob) {
        append(Entry(job: job, viaTaskExecutor: true))
    }

    private func append(_ entry: Entry) {
        lock.lock()
        jobs.append(entry)
        let submit = !scheduled
        scheduled = true
        lock.unlock()
        if submit { submitDrain() }
    }

    private func submitDrain() {
        guard let queue else {
            preconditionFailure("TomorrowlandAsync: a job was enqueued on the executor of a released DispatchQueue")
        }
        queue.async(execute: drainBlock!)
    }

    /// Runs the jobs waiting when it starts, in order; then goes idle or resubmits itself.
    private func drain() {
        lock.lock()
        let end = jobs.count
        lock.unlock()
        let serial = asUnownedSerialExecutor()
        let task = taskExecutor.asUnownedTaskExecutor()
        while true {
            lock.lock()
            guard head < end else { break }
            let entry = jobs[head]
            head += 1
            lock.unlock()
            if entry.viaTaskExecutor {
                entry.job.runSynchronously(isolatedTo: serial, taskExecutor: task)
            } else {
                entry.job.runSynchronously(on: serial)
            }
        }
        // Still holding the lock.
        let more = head < jobs.count
        if !more {
            jobs.removeAll(keepingCapacity: true)
            head = 0
            scheduled = false
        } else if head >= 1024 && head * 2 >= jobs.count {
            // Never idle: compact now and then so the array does not grow without bound.
            jobs.removeFirst(head)
            head = 0
        }
        lock.unlock()
        if more { submitDrain() }
    }

    func isIsolatingCurrentContext() -> Bool? {
        DispatchQueue.getSpecific(key: Self.key) === self
    }

    func checkIsolated() {
        guard let queue else {
            preconditionFailure("TomorrowlandAsync: the DispatchQueue of this executor was released")
        }
        dispatchPrecondition(condition: .onQueue(queue))
    }
}

/// The task-executor role of a serial dispatch queue (`PromiseContext.queue(q).taskExecutor`):
/// a Task that prefers it runs its nonisolated code on the queue, in the same FIFO as the
/// queue's actors, and isolated to the queue's serial executor (so such code may call
/// `actor.assumeIsolated { }` for the queue's actors, and calls into them do not hop).
///
/// Identity and lifetime: one per queue, owned by the queue's ``DispatchQueueExecutor``; it
/// references that executor weakly, so holding the task executor does not keep the queue's
/// executor alive: keep the queue alive while Tasks prefer it.
///
/// Safety of `@unchecked Sendable`: `serialExecutor` is written once, by
/// `DispatchQueueExecutor.executor(for:)`, before the object is published.
final class DispatchQueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    fileprivate weak var serialExecutor: DispatchQueueExecutor?

    fileprivate init() {}

    func enqueue(_ job: consuming ExecutorJob) {
        guard let serialExecutor else {
            preconditionFailure("TomorrowlandAsync: a job was enqueued on the task executor of a released DispatchQueue")
        }
        serialExecutor.enqueueFromTaskExecutor(UnownedJob(job))
    }
}
