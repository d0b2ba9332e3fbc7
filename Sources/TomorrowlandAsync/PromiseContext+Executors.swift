// PromiseContext as a Swift concurrency executor.

import Dispatch
import Foundation

extension PromiseContext {
    /// An executor that runs Task jobs where this context runs callbacks, for
    /// `withTaskExecutorPreference(_:)`, `Task(executorPreference:)` and
    /// `Promise(on:priority:operation:)`.
    ///
    /// - `.main` / `.queue(.main)`: the main queue (jobs run isolated to the main actor).
    /// - `.background`, `.utility`, `.default`, `.userInitiated`, `.userInteractive`: the
    ///   global queue of that QoS (concurrent).
    /// - `.queue(q)`: `q`, in the same FIFO as the actors whose executor is `serialExecutor`;
    ///   nonisolated code of a Task that prefers it runs isolated to that serial executor. One
    ///   object per queue, distinct from `serialExecutor` (it lives as long as the queue).
    /// - `.operationQueue(q)`: operations added to `q` (isolated to `serialExecutor` while `q`
    ///   is serial); one object per queue, distinct from `serialExecutor`.
    /// - `nil` for `.immediate` and `.nowOr(_)`, which have no place of their own to run.
    ///
    /// A task executor preference only affects nonisolated code: actor-isolated code still
    /// runs on its actor.
    public var taskExecutor: (any TaskExecutor)? {
        switch self {
        case .main: return MainQueueTaskExecutor.shared
        case .background: return GlobalQueueTaskExecutor.background
        case .utility: return GlobalQueueTaskExecutor.utility
        case .default: return GlobalQueueTaskExecutor.default
        case .userInitiated: return GlobalQueueTaskExecutor.userInitiated
        case .userInteractive: return GlobalQueueTaskExecutor.userInteractive
        case .queue(let queue):
            return Self.isMainQueue(queue) ? MainQueueTaskExecutor.shared : DispatchQueueExecutor.executor(for: queue).taskExecutor
        case .operationQueue(let queue): return OperationQueueExecutor.taskExecutor(for: queue)
        case .immediate, .nowOr: return nil
        }
    }

    /// A serial executor for this context, usable as an actor's `unownedExecutor`, or `nil`
    /// if the context is not serial.
    ///
    /// - `.main` / `.queue(.main)`: the main actor's own executor.
    /// - `.queue(q)`: the executor of `q` (you vouch that `q` is serial). The same queue
    ///   always yields the same object, which lives as long as the queue, so an actor may
    ///   hold it unowned: keep the queue alive while the actor is used.
    /// - `.operationQueue(q)` whose `maxConcurrentOperationCount` is 1: the executor of `q`
    ///   (same identity and lifetime rules).
    /// - `nil` for the global contexts, concurrent operation queues, `.immediate`, `.nowOr`.
    ///
    /// Plain promise callbacks on `.queue(q)` or `.operationQueue(q)` are recognized as
    /// running on this executor: they may call `actor.assumeIsolated { }` for an actor whose
    /// `unownedExecutor` is this executor's.
    public var serialExecutor: (any SerialExecutor)? {
        switch self {
        case .main: return Self.mainActorExecutor
        case .queue(let queue):
            return Self.isMainQueue(queue) ? Self.mainActorExecutor : DispatchQueueExecutor.executor(for: queue)
        case .operationQueue(let queue):
            return queue.maxConcurrentOperationCount == 1 ? OperationQueueExecutor.executor(for: queue) : nil
        case .background, .utility, .default, .userInitiated, .userInteractive, .immediate, .nowOr:
            return nil
        }
    }

    private static var mainActorExecutor: any SerialExecutor {
        MainActor.shared.withSerialExecutor { $0 }
    }

    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether `queue` is (a wrapper of) the main queue; wrappers are not unique on Linux.
    private static func isMainQueue(_ queue: DispatchQueue) -> Bool {
        queue.getSpecific(key: mainQueueKey) == true
    }
}
