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
    ///   nonisolated code of a Task that prefers it runs isolated to that serial executor.
    /// - `.operationQueue(q)`: operations added to `q` (isolated to `serialExecutor` while `q`
    ///   is serial).
    ///
    /// For `.queue(q)` and `.operationQueue(q)` the executor keeps `q` alive for as long as
    /// anyone holds it (a Task that prefers it retains it), so keeping only the executor is
    /// enough. It is one object per queue while it is held, distinct from `serialExecutor`;
    /// a queue and its executor are freed once neither is referenced.
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
            return Self.isMainQueue(queue) ? MainQueueTaskExecutor.shared : DispatchQueueExecutor.taskExecutor(for: queue)
        case .operationQueue(let queue): return OperationQueueExecutor.taskExecutor(for: queue)
        case .immediate, .nowOr: return nil
        }
    }

    /// A serial executor for this context, usable as an actor's `unownedExecutor`, or `nil`
    /// if the context is not serial.
    ///
    /// - `.main` / `.queue(.main)`: the main actor's own executor.
    /// - `.queue(q)`: the executor of `q` (you vouch that `q` is serial).
    /// - `.operationQueue(q)` whose `maxConcurrentOperationCount` is 1: the executor of `q`.
    ///
    /// Lifetime and identity for `.queue(q)` and `.operationQueue(q)`: the returned object keeps
    /// `q` alive for as long as anyone holds it, so an actor may keep only the executor
    /// (`let executor = PromiseContext.queue(DispatchQueue(label: "cache")).serialExecutor!`)
    /// and return `executor.asUnownedSerialExecutor()`. An actor may instead keep `q` and ask
    /// for the executor in each `unownedExecutor` call: `asUnownedSerialExecutor()` is the same
    /// for one queue as long as `q` lives (keeping the executor is cheaper, though: each call
    /// without a holder makes a new handle). While the returned object is held, the same queue
    /// yields the same object. A queue and its executor are freed once neither is referenced.
    /// - `nil` for the global contexts, concurrent operation queues, `.immediate`, `.nowOr`.
    ///
    /// Plain promise callbacks on `.queue(q)` or `.operationQueue(q)` are recognized as
    /// running on this executor: they may call `actor.assumeIsolated { }` for an actor whose
    /// `unownedExecutor` is this executor's.
    public var serialExecutor: (any SerialExecutor)? {
        switch self {
        case .main: return Self.mainActorExecutor
        case .queue(let queue):
            return Self.isMainQueue(queue) ? Self.mainActorExecutor : DispatchQueueExecutor.serialExecutor(for: queue)
        case .operationQueue(let queue):
            return queue.maxConcurrentOperationCount == 1 ? OperationQueueExecutor.serialExecutor(for: queue) : nil
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
