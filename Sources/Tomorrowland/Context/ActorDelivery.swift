// ActorDelivery: where a callback isolated to an actor runs (the context × isolation table).

import Dispatch

/// Runs the work of callbacks that are isolated to an actor (closures written in `@MainActor`
/// code, or in an actor's method, which inherit its isolation), so that they never run
/// anywhere but on their actor. Nonisolated callbacks never come here.
///
/// - Main actor: the main queue is its executor. On the main queue, a context that runs on
///   the calling thread (`.immediate`, `.nowOr`) runs it there; otherwise it goes through
///   the `.main` FIFO (`MainQueue.enqueue`, rule 10) — `.queue(.main)` keeps its fresh
///   `DispatchQueue.main.async`.
/// - Any other actor: appended to that actor's mailbox, drained in FIFO order by one job
///   on the actor at a time. Work enqueued while the mailbox drains (a chained callback)
///   runs in the same job, right after the current one.
enum ActorDelivery {
    /// Runs `work` on `actor` as `context` allows (see the table in the Threading article).
    ///
    /// - Parameter synchronously: the promise was already resolved at registration (or
    ///   cancel was already requested), so `.nowOr` may run now.
    static func execute(on context: PromiseContext, synchronously: Bool, isolation actor: any Actor, _ work: @escaping @Sendable () -> Void) {
        guard isMainActor(actor) else {
            ActorMailbox.enqueue(actor, work)
            return
        }
        if case .runHere(let mode) = context.route(synchronously: synchronously), MainQueue.isCurrent {
            PromiseContext.run(mode, work)
        } else if case .queue(let queue) = context, queue === DispatchQueue.main {
            queue.async(execute: work)
        } else {
            MainQueue.enqueue(work)
        }
    }

    /// Runs `work` on `context` (nonisolated callbacks, `actor == nil`) or on `actor`.
    static func execute(on context: PromiseContext, synchronously: Bool, isolation actor: (any Actor)?, _ work: @escaping @Sendable () -> Void) {
        if let actor {
            execute(on: context, synchronously: synchronously, isolation: actor, work)
        } else {
            context.execute(synchronously: synchronously, work)
        }
    }

    /// Runs a cancel handler (rule 4) on `context`, or on `actor` if it is isolated to one.
    ///
    /// `body(queued)`: `queued` is `false` when the handler runs inline (`.immediate`, or
    /// `.nowOr` with `synchronously`), `true` when it was scheduled or sent to its actor, in
    /// which case the handler skips itself if the promise was meanwhile fulfilled or rejected.
    @inline(__always)
    static func executeCancelHandler(
        on context: PromiseContext,
        synchronously: Bool,
        isolation actor: (any Actor)?,
        _ body: @escaping @Sendable (_ queued: Bool) -> Void
    ) {
        if let actor {
            execute(on: context, synchronously: synchronously, isolation: actor) { body(true) }
        } else if case .runHere(let mode) = context.route(synchronously: synchronously) {
            PromiseContext.run(mode) { body(false) }
        } else {
            context.schedule { body(true) }
        }
    }

    /// Whether `actor` is the main actor.
    static func isMainActor(_ actor: any Actor) -> Bool {
        ObjectIdentifier(actor) == ObjectIdentifier(MainActor.shared)
    }
}

/// The FIFO of callback work waiting to run on one (non-main) actor.
///
/// Safety of `@unchecked Sendable`: `work` is only touched under
/// `ActorMailbox.table`'s lock; `actor` is immutable.
final class ActorMailbox: @unchecked Sendable {
    let actor: any Actor
    var work: [@Sendable () -> Void] = []

    init(actor: any Actor) { self.actor = actor }

    /// The mailboxes that have work, by actor identity. An entry (which keeps its actor
    /// alive) exists only while its mailbox is non-empty or draining.
    static let table = Locked<[ObjectIdentifier: ActorMailbox]>([:])

    /// Appends `work` to `actor`'s mailbox, starting a drain job if none is running.
    static func enqueue(_ actor: any Actor, _ work: @escaping @Sendable () -> Void) {
        let id = ObjectIdentifier(actor)
        let started: ActorMailbox? = table.withLock { table in
            if let mailbox = table[id] {
                mailbox.work.append(work)
                return nil
            }
            let mailbox = ActorMailbox(actor: actor)
            mailbox.work.append(work)
            table[id] = mailbox
            return mailbox
        }
        if let started {
            #if TOMORROWLAND_SCHEDULE_POINTS
            // Under the interleaving explorer a scenario thread runs the drain (the mailbox's
            // steps are what is explored, not the actor's executor): no Task.
            if schedulePointTakesDeferredWork() {
                schedulePointDefer { started.drainBatches() }
                return
            }
            #endif
            Task { await started.drain(isolatedTo: started.actor) }
        }
    }

    /// Runs the mailbox's work in order on its actor until it is empty, then removes it.
    private func drain(isolatedTo actor: isolated any Actor) {
        drainBatches()
    }

    /// The drain's loop, on the calling thread (the actor's executor, from `drain`): takes the
    /// work in batches under the table's lock; finding none left, removes the entry in the
    /// same lock hold (an `enqueue` then starts a new mailbox). Each block is released before
    /// the next one runs.
    private func drainBatches() {
        let id = ObjectIdentifier(actor)
        while true {
            var batch: [@Sendable () -> Void] = Self.table.withLock { table in
                if work.isEmpty {
                    table[id] = nil
                    return []
                }
                defer { work = [] }
                return work
            }
            if batch.isEmpty { return }
            for index in batch.indices {
                let block = batch[index]
                batch[index] = {}
                block()
            }
        }
    }
}
