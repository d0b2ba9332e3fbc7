// OperationQueueExecutor: an OperationQueue as a Swift concurrency executor.

import Foundation

/// The executor of one operation queue. It is a `TaskExecutor` for any operation queue and
/// is handed out as a `SerialExecutor` only for queues whose `maxConcurrentOperationCount`
/// is 1 (`PromiseContext.serialExecutor` checks this when asked).
///
/// Identity and lifetime: one executor per queue, kept in a process-wide table that holds
/// the executor strongly and the queue weakly (entries of released queues are pruned when
/// new queues are added), so an actor may hold it unowned while the queue lives.
///
/// Isolation checks compare `OperationQueue.current` with the queue.
///
/// Safety of `@unchecked Sendable`: the only stored property is a weak reference that is
/// written once, in `init`.
final class OperationQueueExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    private weak var queue: OperationQueue?

    private init(queue: OperationQueue) {
        self.queue = queue
    }

    private struct Entry {
        weak var queue: OperationQueue?
        let executor: OperationQueueExecutor
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var table: [ObjectIdentifier: Entry] = [:]  // guarded by `lock`

    /// The executor of `queue`, created on first use.
    static func executor(for queue: OperationQueue) -> OperationQueueExecutor {
        lock.lock()
        defer { lock.unlock() }
        let id = ObjectIdentifier(queue)
        if let entry = table[id], entry.queue === queue { return entry.executor }
        table = table.filter { $0.value.queue != nil }
        let executor = OperationQueueExecutor(queue: queue)
        table[id] = Entry(queue: queue, executor: executor)
        return executor
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard let queue else {
            preconditionFailure("TomorrowlandAsync: a job was enqueued on the executor of a released OperationQueue")
        }
        queue.addOperation {
            job.runSynchronously(isolatedTo: self.asUnownedSerialExecutor(), taskExecutor: self.asUnownedTaskExecutor())
        }
    }

    func isIsolatingCurrentContext() -> Bool? {
        guard let queue else { return false }
        return OperationQueue.current === queue
    }

    func checkIsolated() {
        precondition(isIsolatingCurrentContext() == true, "TomorrowlandAsync: not running on the executor's OperationQueue")
    }
}
