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
/// Safety of `@unchecked Sendable`: the only stored property is a weak reference that is
/// written once, in `init`.
final class DispatchQueueExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    private weak var queue: DispatchQueue?

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
        queue.setSpecific(key: key, value: executor)
        return executor
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        guard let queue else {
            preconditionFailure("TomorrowlandAsync: a job was enqueued on the executor of a released DispatchQueue")
        }
        queue.async {
            job.runSynchronously(isolatedTo: self.asUnownedSerialExecutor(), taskExecutor: self.asUnownedTaskExecutor())
        }
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
