// Task executors for `.main` and the global concurrent contexts.

import Dispatch
#if canImport(CDispatch)
// Linux: the C API (`dispatch_async_f`), which the Swift Dispatch overlay does not re-export.
internal import CDispatch
#endif

/// A job's pointer as the context of `dispatch_async_f` (`UnownedJob` is a `@frozen` struct
/// holding just that pointer), so that submitting a job allocates nothing of our own: no
/// closure context, no block copy; Dispatch's own continuation comes from its per-thread
/// cache, exactly as for the runtime's global executor (which submits jobs the same way).
@inline(__always)
private func context(of job: UnownedJob) -> UnsafeMutableRawPointer {
    unsafeBitCast(job, to: UnsafeMutableRawPointer.self)
}

@inline(__always)
private func job(from context: UnsafeMutableRawPointer?) -> UnownedJob {
    unsafeBitCast(context.unsafelyUnwrapped, to: UnownedJob.self)
}

/// A `TaskExecutor` that runs jobs on the main queue, isolated to the main actor (the main
/// actor's own executor is not a `TaskExecutor`).
final class MainQueueTaskExecutor: TaskExecutor {
    static let shared = MainQueueTaskExecutor()

    private static let run: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
        job(from: context).runSynchronously(
            isolatedTo: MainActor.sharedUnownedExecutor,
            taskExecutor: MainQueueTaskExecutor.shared.asUnownedTaskExecutor()
        )
    }

    func enqueue(_ job: consuming ExecutorJob) {
        dispatch_async_f(dispatch_get_main_queue(), context(of: UnownedJob(job)), Self.run)
    }
}

/// A `TaskExecutor` that runs jobs concurrently on the global dispatch queue of its QoS.
///
/// Each job goes to `dispatch_async_f` with the job itself as the context and one
/// C-convention entry point per QoS, which runs it with this task executor: no allocation
/// besides Dispatch's own (the same path the runtime's global concurrent executor takes; that
/// executor picks the queue from the job's priority, which a task executor cannot change, so
/// forwarding to it would drop the context's QoS).
final class GlobalQueueTaskExecutor: TaskExecutor {
    let qos: DispatchQoS.QoSClass
    /// The `qos_class_t` value naming the global queue (`dispatch_get_global_queue`'s identifier).
    private let identifier: Int
    private let run: @convention(c) (UnsafeMutableRawPointer?) -> Void

    private init(qos: DispatchQoS.QoSClass, identifier: Int, run: @convention(c) (UnsafeMutableRawPointer?) -> Void) {
        self.qos = qos
        self.identifier = identifier
        self.run = run
    }

    static let background: GlobalQueueTaskExecutor = GlobalQueueTaskExecutor(qos: .background, identifier: 0x09) {
        job(from: $0).runSynchronously(on: GlobalQueueTaskExecutor.background.asUnownedTaskExecutor())
    }
    static let utility: GlobalQueueTaskExecutor = GlobalQueueTaskExecutor(qos: .utility, identifier: 0x11) {
        job(from: $0).runSynchronously(on: GlobalQueueTaskExecutor.utility.asUnownedTaskExecutor())
    }
    static let `default`: GlobalQueueTaskExecutor = GlobalQueueTaskExecutor(qos: .default, identifier: 0x15) {
        job(from: $0).runSynchronously(on: GlobalQueueTaskExecutor.default.asUnownedTaskExecutor())
    }
    static let userInitiated: GlobalQueueTaskExecutor = GlobalQueueTaskExecutor(qos: .userInitiated, identifier: 0x19) {
        job(from: $0).runSynchronously(on: GlobalQueueTaskExecutor.userInitiated.asUnownedTaskExecutor())
    }
    static let userInteractive: GlobalQueueTaskExecutor = GlobalQueueTaskExecutor(qos: .userInteractive, identifier: 0x21) {
        job(from: $0).runSynchronously(on: GlobalQueueTaskExecutor.userInteractive.asUnownedTaskExecutor())
    }

    func enqueue(_ job: consuming ExecutorJob) {
        dispatch_async_f(dispatch_get_global_queue(identifier, 0), context(of: UnownedJob(job)), run)
    }
}
