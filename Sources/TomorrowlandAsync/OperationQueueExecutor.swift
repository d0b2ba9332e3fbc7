// OperationQueueExecutor: an OperationQueue as a Swift concurrency executor.

import Foundation

/// The serial executor of one operation queue, handed out only for queues whose
/// `maxConcurrentOperationCount` is 1 (`PromiseContext.serialExecutor` checks this when asked).
/// Its task-executor role (any operation queue) is a separate object,
/// ``OperationQueueTaskExecutor``: jobs that come in as an actor's run with
/// `runSynchronously(on: serialExecutor)` and no task executor, so that the runtime switches
/// between actors on the queue in place (see ``DispatchQueueExecutor`` for why).
///
/// Identity and lifetime: one executor (and one task executor) per queue, kept in a
/// process-wide table that holds them strongly and the queue weakly (entries of released
/// queues are pruned when new queues are added), so an actor may hold the executor unowned
/// while the queue lives.
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
        let taskExecutor: OperationQueueTaskExecutor
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var table: [ObjectIdentifier: Entry] = [:]  // guarded by `lock`

    private static func entry(for queue: OperationQueue) -> Entry {
        lock.lock()
        defer { lock.unlock() }
        let id = ObjectIdentifier(queue)
        if let entry = table[id], entry.queue === queue { return entry }
        table = table.filter { $0.value.queue != nil }
        let executor = OperationQueueExecutor(queue: queue)
        let entry = Entry(queue: queue, executor: executor,
                          taskExecutor: OperationQueueTaskExecutor(queue: queue, serialExecutor: executor))
        table[id] = entry
        return entry
    }

    /// The serial executor of `queue`, created on first use.
    static func executor(for queue: OperationQueue) -> OperationQueueExecutor {
        entry(for: queue).executor
    }

    /// The task executor of `queue`, created on first use.
    static func taskExecutor(for queue: OperationQueue) -> OperationQueueTaskExecutor {
        entry(for: queue).taskExecutor
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard let queue else {
            preconditionFailure("TomorrowlandAsync: a job was enqueued on the executor of a released OperationQueue")
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
/// Safety of `@unchecked Sendable`: the stored properties are written once, in `init`.
final class OperationQueueTaskExecutor: TaskExecutor, @unchecked Sendable {
    private weak var queue: OperationQueue?
    private let serialExecutor: OperationQueueExecutor

    fileprivate init(queue: OperationQueue, serialExecutor: OperationQueueExecutor) {
        self.queue = queue
        self.serialExecutor = serialExecutor
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard let queue else {
            preconditionFailure("TomorrowlandAsync: a job was enqueued on the task executor of a released OperationQueue")
        }
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
