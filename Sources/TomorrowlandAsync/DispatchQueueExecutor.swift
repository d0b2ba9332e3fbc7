// DispatchQueueExecutor: a serial DispatchQueue as a Swift concurrency executor.

import Dispatch
import Foundation

/// The executor of one serial dispatch queue: a `SerialExecutor` (an actor can run on the
/// queue) and a `TaskExecutor` (a Task can prefer the queue for its nonisolated code).
///
/// Identity and lifetime: there is exactly one executor per queue, stored in the queue's own
/// queue-specific storage, so it lives exactly as long as the queue and an actor may hold it
/// unowned. It references the queue weakly (a strong reference would be a cycle that leaks
/// the queue): keep the queue alive while work is enqueued on its executor.
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
/// Safety of `@unchecked Sendable`: `queue` is written once, in `init`; `jobs`, `head` and
/// `scheduled` are guarded by `lock`; `drainBlock` is written once, right after `init`.
final class DispatchQueueExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    private weak var queue: DispatchQueue?
    private let lock = NSLock()
    private var jobs: [UnownedJob] = []
    private var head = 0
    private var scheduled = false
    private var drainBlock: (@convention(block) @Sendable () -> Void)?

    private init(queue: DispatchQueue) {
        self.queue = queue
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
        queue.setSpecific(key: key, value: executor)
        return executor
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        lock.lock()
        jobs.append(job)
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
        let task = asUnownedTaskExecutor()
        while true {
            lock.lock()
            guard head < end else { break }
            let job = jobs[head]
            head += 1
            lock.unlock()
            job.runSynchronously(isolatedTo: serial, taskExecutor: task)
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
