// OperationQueueExecutor: an OperationQueue as a Swift concurrency executor.

import Foundation

/// The serial executor of one operation queue, handed out only for queues whose
/// `maxConcurrentOperationCount` is 1 (`PromiseContext.serialExecutor` checks this when asked).
/// Its task-executor role (any operation queue) is a separate object,
/// ``OperationQueueTaskExecutor``: jobs that come in as an actor's run with
/// `runSynchronously(on: serialExecutor)` and no task executor, so that the runtime switches
/// between actors on the queue in place (see ``DispatchQueueExecutor`` for why).
///
/// Identity and lifetime: one such executor per queue, kept in a process-wide table that
/// holds it strongly and the queue weakly (entries of released queues are pruned when new
/// queues are added), so an actor that keeps the queue may hold the executor unowned. What
/// `PromiseContext` hands out are the roles that keep the queue alive instead: the serial
/// role ``QueueSerialExecutor`` (whose unowned executor is this one) and the task role
/// ``OperationQueueTaskExecutor``, each cached weakly in the table entry, so there is one of
/// each per queue while it is held, and a queue and its handed-out executors are freed once
/// none of them is referenced.
///
/// Isolation checks compare `OperationQueue.current` with the queue.
///
/// Safety of `@unchecked Sendable`: the only stored property is a weak reference that is
/// written once, in `init`.
final class OperationQueueExecutor: SerialExecutor, @unchecked Sendable {
    private weak var queue: OperationQueue?

    private init(queue: OperationQueue) {
        self.queue = queue
    }

    private struct Entry {
        weak var queue: OperationQueue?
        let executor: OperationQueueExecutor
        let serialRole = WeakSingleton<QueueSerialExecutor>()
        let taskRole = WeakSingleton<OperationQueueTaskExecutor>()
    }

    private static let table = Locked<[ObjectIdentifier: Entry]>([:])

    private static func entry(for queue: OperationQueue) -> Entry {
        table.withLock { table in
            let id = ObjectIdentifier(queue)
            if let entry = table[id], entry.queue === queue { return entry }
            table = table.filter { $0.value.queue != nil }
            let entry = Entry(queue: queue, executor: OperationQueueExecutor(queue: queue))
            table[id] = entry
            return entry
        }
    }

    /// The serial role of `queue` (`PromiseContext.operationQueue(q).serialExecutor`): keeps
    /// `queue` alive while held; its unowned executor is the queue's `OperationQueueExecutor`.
    static func serialExecutor(for queue: OperationQueue) -> QueueSerialExecutor {
        let entry = entry(for: queue)
        return entry.serialRole.get { QueueSerialExecutor(queue: queue, executor: entry.executor) }
    }

    /// The task role of `queue` (`PromiseContext.operationQueue(q).taskExecutor`): keeps
    /// `queue` alive while held.
    static func taskExecutor(for queue: OperationQueue) -> OperationQueueTaskExecutor {
        let entry = entry(for: queue)
        return entry.taskRole.get { OperationQueueTaskExecutor(queue: queue, serialExecutor: entry.executor) }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard let queue else {
            // Every role keeps the queue alive, so it is only missing if a job arrives through
            // an unowned reference kept past all of them: run it anyway, one job at a time.
            releasedQueueFallback.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
            return
        }
        queue.addOperation(JobOperation {
            job.runSynchronously(on: self.asUnownedSerialExecutor())
        })
    }

    func isIsolatingCurrentContext() -> Bool? {
        guard let queue else { return false }
        return OperationQueue.current === queue
    }

    func checkIsolated() {
        precondition(isIsolatingCurrentContext() == true, "TomorrowlandAsync: not running on the executor's OperationQueue")
    }
}

/// The task-executor role of an operation queue (`PromiseContext.operationQueue(q).taskExecutor`):
/// a Task that prefers it runs its nonisolated code as operations on the queue. While the
/// queue is serial (`maxConcurrentOperationCount == 1` when the job is enqueued), that code
/// also runs isolated to the queue's serial executor, so it may assume the isolation of the
/// queue's actors and call them in place.
///
/// Identity and lifetime: it keeps the queue alive for as long as anyone holds it (a Task
/// that prefers it retains it); one per queue while it is held.
///
/// Safety of `@unchecked Sendable`: the stored properties are written once, in `init`.
final class OperationQueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let queue: OperationQueue
    private let serialExecutor: OperationQueueExecutor

    fileprivate init(queue: OperationQueue, serialExecutor: OperationQueueExecutor) {
        self.queue = queue
        self.serialExecutor = serialExecutor
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if queue.maxConcurrentOperationCount == 1 {
            queue.addOperation(JobOperation {
                job.runSynchronously(isolatedTo: self.serialExecutor.asUnownedSerialExecutor(),
                                     taskExecutor: self.asUnownedTaskExecutor())
            })
        } else {
            queue.addOperation(JobOperation {
                job.runSynchronously(on: self.asUnownedTaskExecutor())
            })
        }
    }
}

/// The operation that runs one job. It ignores `cancel()`: an executor must run every job
/// exactly once, and a cancelled operation never runs, so `queue.cancelAllOperations()`
/// would otherwise drop the job and leave its Task suspended forever.
///
/// Safety of `@unchecked Sendable`: `body` is immutable.
private final class JobOperation: Operation, @unchecked Sendable {
    private let body: @Sendable () -> Void

    init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        super.init()
    }

    override func main() { body() }

    override func cancel() {}
}
