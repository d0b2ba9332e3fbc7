// Task executors for `.main` and the global concurrent contexts.

import Dispatch

/// A `TaskExecutor` that runs jobs on the main queue, isolated to the main actor (the main
/// actor's own executor is not a `TaskExecutor`).
final class MainQueueTaskExecutor: TaskExecutor {
    static let shared = MainQueueTaskExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.main.async {
            job.runSynchronously(isolatedTo: MainActor.sharedUnownedExecutor, taskExecutor: self.asUnownedTaskExecutor())
        }
    }
}

/// A `TaskExecutor` that runs jobs concurrently on a global dispatch queue.
final class GlobalQueueTaskExecutor: TaskExecutor {
    let qos: DispatchQoS.QoSClass

    private init(qos: DispatchQoS.QoSClass) {
        self.qos = qos
    }

    static let background = GlobalQueueTaskExecutor(qos: .background)
    static let utility = GlobalQueueTaskExecutor(qos: .utility)
    static let `default` = GlobalQueueTaskExecutor(qos: .default)
    static let userInitiated = GlobalQueueTaskExecutor(qos: .userInitiated)
    static let userInteractive = GlobalQueueTaskExecutor(qos: .userInteractive)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.global(qos: qos).async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
