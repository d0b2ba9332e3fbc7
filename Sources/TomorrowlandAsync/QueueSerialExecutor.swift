// QueueSerialExecutor: the serial executor handed out for a queue, which keeps the queue alive.

import Dispatch
import Foundation

/// The object `PromiseContext.queue(q).serialExecutor` (and `.operationQueue(q)`) returns: it
/// keeps `q` alive for as long as anyone holds it, so an actor may keep only the executor.
///
/// Why a separate object from the queue's executor (``DispatchQueueExecutor``,
/// ``OperationQueueExecutor``): that one must live as long as the queue, because an actor may
/// instead keep the queue and ask for the executor in each `unownedExecutor` call, so the queue
/// owns it; if it also owned the queue, neither would ever be freed. This handle owns both and
/// is owned by nobody but its holders (the queue's executor caches it weakly, for identity:
/// one handle per queue while it lives). The runtime never sees it: its
/// `asUnownedSerialExecutor()` is the queue's executor's, so actors that keep the handle and
/// actors that keep the queue share one executor identity, and jobs cost no forwarding.
///
/// Safety of `@unchecked Sendable`: both stored properties are immutable; `queue` is only
/// retained, never used.
final class QueueSerialExecutor: SerialExecutor, @unchecked Sendable {
    private let queue: AnyObject
    private let executor: any SerialExecutor

    init(queue: AnyObject, executor: any SerialExecutor) {
        self.queue = queue
        self.executor = executor
    }

    func enqueue(_ job: consuming ExecutorJob) {
        executor.enqueue(job)
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    func isIsolatingCurrentContext() -> Bool? {
        executor.isIsolatingCurrentContext()
    }

    func checkIsolated() {
        executor.checkIsolated()
    }
}

/// One object, created on first use and handed out again for as long as someone holds it
/// (a weak reference): the identity of an executor role that must not be kept alive by the
/// queue it keeps alive.
///
/// `make` (an initializer of ours, never user code) runs under the lock, so there is one
/// object at a time.
final class WeakSingleton<Object: AnyObject>: Sendable {
    private struct Reference {
        weak var object: Object?
    }

    private let reference = Locked(Reference())

    init() {}

    func get(orMake make: () -> Object) -> Object {
        reference.withLock { reference in
            if let object = reference.object { return object }
            let made = make()
            reference.object = made
            return made
        }
    }
}

/// Where jobs go if they reach the executor of a queue that was released anyway (only possible
/// through an unowned executor reference kept past everything that kept the queue alive): one
/// serial queue, so the jobs still run one at a time, instead of a trap.
let releasedQueueFallback = DispatchQueue(label: "TomorrowlandAsync.released-queue")
