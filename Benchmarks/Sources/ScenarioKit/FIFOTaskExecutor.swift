// FIFOTaskExecutor: one thread running jobs in order, with a hook after each job. It makes
// "suspend, then get resumed by someone else" deterministic for the (e-exec) scenarios.

import Foundation

/// A task executor that runs its jobs one at a time, first in first out, on a thread of its
/// own, and calls `afterEachJob` on that thread each time a job returns.
///
/// A Task that prefers this executor (`withTaskExecutorPreference`) runs its non-isolated
/// code here. When that code suspends on a continuation, its job returns; `afterEachJob`
/// then runs and may resume the continuation, which enqueues the Task's next job here; that
/// job runs next. So "register the await → suspend → resume → continue" happens in this
/// order on every run, whatever the machine's scheduling: the await can never find its
/// promise already resolved, and nothing else runs in between.
public final class FIFOTaskExecutor: TaskExecutor, @unchecked Sendable {  // `queued` is guarded by `condition`; the rest is immutable
    private let condition = NSCondition()
    private var queued: [UnownedJob] = []
    private let afterEachJob: @Sendable () -> Void

    /// Starts the executor's thread; it lives as long as the process (executors are globals).
    public init(afterEachJob: @escaping @Sendable () -> Void) {
        self.afterEachJob = afterEachJob
        queued.reserveCapacity(16)
        let thread = Thread { self.runJobs() }
        thread.stackSize = 1 << 20
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        queued.append(job)
        condition.signal()
        condition.unlock()
    }

    /// The executor's thread: takes every queued job (swapping buffers, so no allocation
    /// once both have capacity) and runs them in order, each followed by the hook.
    private func runJobs() {
        var running: [UnownedJob] = []
        running.reserveCapacity(16)
        while true {
            condition.lock()
            while queued.isEmpty { condition.wait() }
            swap(&queued, &running)
            condition.unlock()
            for job in running {
                job.runSynchronously(on: asUnownedTaskExecutor())
                afterEachJob()
            }
            running.removeAll(keepingCapacity: true)
        }
    }
}
