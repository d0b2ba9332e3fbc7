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
/// Identity and lifetime: there is exactly one such executor per queue, stored in the queue's
/// own queue-specific storage, so it lives exactly as long as the queue and an actor that
/// keeps the queue may hold it unowned. It references the queue weakly (a strong reference
/// would be a cycle that leaks both). What `PromiseContext` hands out are the roles that keep
/// the queue alive instead: the serial role ``QueueSerialExecutor`` (whose unowned executor is
/// this one) and the task role ``DispatchQueueTaskExecutor``, each cached here weakly, so
/// there is one of each per queue while it is held, and a queue and its executors are freed
/// once none of them is referenced.
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
/// Safety of `@unchecked Sendable`: `queue` is written once, in `init`; `jobs` is behind its
/// lock; `drainBlock` is written once, right after `init`, before the executor is published;
/// the role caches are thread-safe.
final class DispatchQueueExecutor: SerialExecutor, @unchecked Sendable {
    /// A waiting job, and the task executor it was enqueued through (`nil`: the serial role),
    /// kept alive until the job has run.
    private struct Entry {
        let job: UnownedJob
        let taskExecutor: DispatchQueueTaskExecutor?
    }

    /// The executor's FIFO of waiting jobs, and whether a drain is submitted.
    private struct Jobs {
        private enum Phase {
            /// No drain is submitted, and no job waits.
            case idle
            /// A drain is submitted or running; `next` is the index of the next job to run.
            case draining(next: Int)
        }

        /// What a drain does next.
        enum Step {
            /// Runs this job (outside the lock).
            case run(Entry)
            /// The drain is over: the executor went idle, or (`resubmit`) more jobs arrived.
            case finished(resubmit: Bool)
        }

        /// An array that keeps its capacity from one drain to the next.
        private var entries: [Entry] = []
        private var phase = Phase.idle

        /// The number of jobs enqueued so far: a drain runs the jobs before this index.
        var end: Int { entries.count }

        /// Appends `entry`; `true` if the executor was idle (the caller submits a drain).
        mutating func append(_ entry: Entry) -> Bool {
            entries.append(entry)
            guard case .idle = phase else { return false }
            phase = .draining(next: 0)
            return true
        }

        /// The next job of a drain that runs the jobs before `end`, or the end of the drain.
        mutating func step(before end: Int) -> Step {
            guard case .draining(let next) = phase else { preconditionFailure("TomorrowlandAsync: drain of an idle executor") }
            if next < end {
                let entry = entries[next]
                // The FIFO lets go of the task executor here, so that its last release (which
                // can free the queue) happens after the job, outside the lock.
                if entry.taskExecutor != nil { entries[next] = Entry(job: entry.job, taskExecutor: nil) }
                phase = .draining(next: next + 1)
                return .run(entry)
            }
            if next == entries.count {
                entries.removeAll(keepingCapacity: true)
                phase = .idle
                return .finished(resubmit: false)
            }
            if next >= 1024 && next * 2 >= entries.count {
                // Never idle: compact now and then so the array does not grow without bound.
                entries.removeFirst(next)
                phase = .draining(next: 0)
            }
            return .finished(resubmit: true)
        }
    }

    private weak var queue: DispatchQueue?
    /// The roles handed out for this queue, while someone holds them.
    private let serialRole = WeakSingleton<QueueSerialExecutor>()
    private let taskRole = WeakSingleton<DispatchQueueTaskExecutor>()
    private let jobs = Locked(Jobs())
    private var drainBlock: (@convention(block) @Sendable () -> Void)?

    private init(queue: DispatchQueue) {
        self.queue = queue
    }

    private static let key = DispatchSpecificKey<DispatchQueueExecutor>()
    /// Serializes creating an executor for a queue; counts the executors created. Not a
    /// `Locked(())`: the thread sanitizer instruments the inout access to a zero-sized value
    /// at the end of its object, i.e. in whatever memory follows it, and reported races there.
    private static let created = Locked(0)

    /// The executor of `queue`, created on first use and kept in the queue's specific storage.
    static func executor(for queue: DispatchQueue) -> DispatchQueueExecutor {
        if let existing = queue.getSpecific(key: key) { return existing }
        return created.withLock { count in
            if let existing = queue.getSpecific(key: key) { return existing }
            count += 1
            let executor = DispatchQueueExecutor(queue: queue)
            executor.drainBlock = { [unowned executor] in executor.drain() }
            queue.setSpecific(key: key, value: executor)
            return executor
        }
    }

    /// The serial role of `queue` (`PromiseContext.queue(q).serialExecutor`): keeps `queue`
    /// alive while held; its unowned executor is `executor(for: queue)`.
    static func serialExecutor(for queue: DispatchQueue) -> QueueSerialExecutor {
        let executor = executor(for: queue)
        return executor.serialRole.get { QueueSerialExecutor(queue: queue, executor: executor) }
    }

    /// The task role of `queue` (`PromiseContext.queue(q).taskExecutor`): keeps `queue` alive
    /// while held.
    static func taskExecutor(for queue: DispatchQueue) -> DispatchQueueTaskExecutor {
        let executor = executor(for: queue)
        return executor.taskRole.get { DispatchQueueTaskExecutor(queue: queue, serialExecutor: executor) }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        append(Entry(job: UnownedJob(job), taskExecutor: nil))
    }

    /// The task role's enqueue: same FIFO, run with that task executor too.
    fileprivate func enqueue(_ job: UnownedJob, from taskExecutor: DispatchQueueTaskExecutor) {
        append(Entry(job: job, taskExecutor: taskExecutor))
    }

    private func append(_ entry: Entry) {
        if jobs.withLock({ $0.append(entry) }) { submitDrain() }
    }

    private func submitDrain() {
        // Every role keeps the queue alive, so it is only missing if a job arrives through an
        // unowned reference kept past all of them: run it anyway, still one drain at a time.
        (queue ?? releasedQueueFallback).async(execute: drainBlock!)
    }

    /// Runs the jobs waiting when it starts, in order; then goes idle or resubmits itself.
    private func drain() {
        let end = jobs.withLock { $0.end }
        let serial = asUnownedSerialExecutor()
        while true {
            switch jobs.withLock({ $0.step(before: end) }) {
            case .run(let entry):
                if let taskExecutor = entry.taskExecutor {
                    entry.job.runSynchronously(isolatedTo: serial, taskExecutor: taskExecutor.asUnownedTaskExecutor())
                } else {
                    entry.job.runSynchronously(on: serial)
                }
            case .finished(let resubmit):
                if resubmit { submitDrain() }
                return
            }
        }
    }

    func isIsolatingCurrentContext() -> Bool? {
        DispatchQueue.getSpecific(key: Self.key) === self
    }

    func checkIsolated() {
        guard let queue else {
            preconditionFailure("TomorrowlandAsync: not isolated to this executor (its DispatchQueue was released)")
        }
        dispatchPrecondition(condition: .onQueue(queue))
    }
}

/// The task-executor role of a serial dispatch queue (`PromiseContext.queue(q).taskExecutor`):
/// a Task that prefers it runs its nonisolated code on the queue, in the same FIFO as the
/// queue's actors, and isolated to the queue's serial executor (so such code may call
/// `actor.assumeIsolated { }` for the queue's actors, and calls into them do not hop).
///
/// Identity and lifetime: it keeps the queue (and so the queue's ``DispatchQueueExecutor``)
/// alive for as long as anyone holds it — a Task that prefers it retains it. The queue's
/// executor caches it weakly: one per queue while it is held.
///
/// Safety of `@unchecked Sendable`: both stored properties are immutable.
final class DispatchQueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: DispatchQueue
    private let serialExecutor: DispatchQueueExecutor

    fileprivate init(queue: DispatchQueue, serialExecutor: DispatchQueueExecutor) {
        self.queue = queue
        self.serialExecutor = serialExecutor
    }

    func enqueue(_ job: consuming ExecutorJob) {
        serialExecutor.enqueue(UnownedJob(job), from: self)
    }
}
