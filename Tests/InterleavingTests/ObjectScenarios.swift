// Scenarios for the concurrent objects outside the promise core: the mailbox of a (non-main)
// actor, `DelayedPromise`'s first access, the token observers behind `token.invalidations`,
// and `PromiseOperation`'s phases. Each check states the rules it covers (Rules.md).

#if TOMORROWLAND_SCHEDULE_POINTS
import Foundation
@testable import TomorrowlandExplored

/// The actor of the mailbox scenario: its callbacks' work goes through `ActorMailbox`.
actor MailboxActor {}

/// A value one scenario thread sets and the check reads. Safety of `@unchecked Sendable`:
/// only one scenario thread runs at a time (the explorer's hand-offs order the accesses), and
/// the check runs after every thread finished.
final class Handed<Value>: @unchecked Sendable {
    var value: Value?
    init(_ value: Value? = nil) { self.value = value }
}

extension Scenarios {
    static let objects: [Scenario] = [
        Scenario(name: "an actor's mailbox: two deliveries vs the drain", rules: [1, 19], make: actorMailboxDeliveries),
        Scenario(name: "DelayedPromise: two first accesses", rules: [11, 25], make: delayedPromiseFirstAccesses),
        Scenario(name: "an invalidations iterator registering vs the token's release vs invalidate()", rules: [15, 16],
                 make: invalidationsObserverVsRelease),
        Scenario(name: "PromiseOperation: start vs cancel vs an observer", rules: [2, 26], make: operationStartVsCancel),
        Scenario(name: "two keepers released at once: the resolver's handle and a pipe's", rules: [1], make: twoKeepersReleased),
    ]

    /// Runs the work handed over so far (drains of actor mailboxes), until none is left.
    static func runningDeferredWork() {
        while Explorer.runDeferredWork(orGiveUpWhen: { true }) {}
    }

    /// Rule 1 for callbacks isolated to an actor: a delivery to the actor's mailbox is never
    /// lost (the callback runs, once), whatever its drain is doing; the mailbox runs its work
    /// in the order it arrived (one mailbox per actor, FIFO: the Threading article), and work
    /// a block enqueues while the mailbox drains runs after it, in the same drain (rule 19's
    /// "no recursion"). Two threads each deliver one block, then run the drains they started
    /// (on the thread, as the actor's job would); the first block enqueues a chained one. Once
    /// done, the actor has no mailbox left, and every block was released once.
    @Sendable static func actorMailboxDeliveries() -> ScenarioRun {
        let log = EventLog(), counter = ReleaseCounter()
        let actor = MailboxActor()
        let id = ObjectIdentifier(actor)
        func delivering(_ number: Int, chained: Bool) -> @Sendable () -> Void {
            {
                let inWork = Tracked(counter), inChained = Tracked(counter)
                log.record("enqueue \(number)")
                ActorMailbox.enqueue(actor) {
                    inWork.use()
                    log.recordInUserCode("ran \(number)")
                    if chained {
                        ActorMailbox.enqueue(actor) { inChained.use(); log.recordInUserCode("ran \(number) chained") }
                    }
                }
                log.record("enqueued \(number)")
                runningDeferredWork()
            }
        }
        return ScenarioRun(threads: [delivering(1, chained: true), delivering(2, chained: false)], check: {
            let left = ActorMailbox.table.withLock { $0[id] != nil }  // on this thread: not explored
            let ran = ["ran 1", "ran 1 chained", "ran 2"].map { log.count($0) }
            return firstProblem(
                expect(ran == [1, 1, 1], "runs of block 1, its chained block, block 2: \(ran): a delivery to the actor was lost or ran twice (rule 1)"),
                expect(!log.happened("enqueued 1", before: "enqueue 2") || log.happened("ran 1", before: "ran 2"),
                       "block 1 was enqueued before block 2, but ran after it (the mailbox is FIFO)"),
                expect(!log.happened("enqueued 2", before: "enqueue 1") || log.happened("ran 2", before: "ran 1"),
                       "block 2 was enqueued before block 1, but ran after it (the mailbox is FIFO)"),
                expect(log.happened("ran 1", before: "ran 1 chained"), "the chained block ran before the block that enqueued it (rule 19)"),
                expect(!left, "the actor's mailbox is still in the table with nothing left to run"),
                counter.problem)
        })
    }

    /// Rule 25: two threads read a `.immediate` `DelayedPromise`'s `promise` for the first time
    /// at once. The handler runs exactly once, synchronously within one of the accesses (rule
    /// 11's `.immediate`: on the accessing thread, before `promise` returns); both get the same
    /// promise, which ends fulfilled; the handler is released right after it ran, while the
    /// `DelayedPromise` is still alive.
    @Sendable static func delayedPromiseFirstAccesses() -> ScenarioRun {
        let log = EventLog(), counter = ReleaseCounter()
        let inHandler = Tracked(counter)
        let delayed = DelayedPromise<Int, Never>(context: .immediate, isolation: nil) { resolver in
            inHandler.use()
            log.recordInUserCode("handler")
            resolver.fulfill(with: 1)
        }
        let kept = Kept(delayed)
        func accessing(_ number: Int) -> @Sendable () -> Void {
            {
                log.record("access \(number)")
                let promise = delayed.promise
                log.record("got \(number)")
                log.record("promise \(number): \(ObjectIdentifier(promise._box).hashValue)")
            }
        }
        return ScenarioRun(threads: [accessing(1), accessing(2)], check: {
            // Read on this thread, after both accesses: started already, it starts nothing.
            let box = Kept(kept.value!.promise._box)
            let result = describe(box.value?.result)
            let got = log.all.filter { $0.hasPrefix("promise ") }.map { $0.split(separator: ":").last.map(String.init) ?? "" }
            let thread = log.thread(of: "handler")
            let within = [1, 2].contains { log.happened("handler", on: thread, between: "access \($0)", and: "got \($0)") }
            let releasedBeforeDrop = counter.released.load(ordering: .relaxed)
            kept.value = nil
            let problem = firstProblem(
                expect(log.count("handler") == 1, "the handler ran \(log.count("handler")) times (rule 25: only on the first access)"),
                expect(within, "the .immediate handler did not run within an access, on the accessing thread (rules 11, 25)"),
                expect(Set(got).count == 1 && got.count == 2, "the accesses returned different promises \(got) (rule 25)"),
                expect(result == "value(1)", "the promise ended \(result)"),
                expect(releasedBeforeDrop == 1, "the handler was not released right after it ran (rule 25)"),
                checkResolvedCore("promise", box.value!))
            return firstProblem(problem, releasedOnce(box, counter))
        })
    }

    /// Rules 15, 16 for an iterator of `token.invalidations` (its `TokenInvalidationObserver`):
    /// it registers with the token while another thread drops the token's last copy (which
    /// invalidates it, rule 16, then ends the sequence) and a third invalidates it directly.
    /// Polled afterwards as `next()` polls: it always ends (the token is gone: never a wait
    /// for good); it yields one element (coalesced) if it registered before the release
    /// began, or before an `invalidate()` that ended before the release began; none if it
    /// registered after the release; and the table of token observers keeps no entry for
    /// the released token.
    @Sendable static func invalidationsObserverVsRelease() -> ScenarioRun {
        let log = EventLog()
        let token = PromiseInvalidationToken(invalidateOnDeinit: true)
        let reference = token._weakReference, tokenBox = token.box
        let lastCopy = Handed(token)
        let observer = Handed<TokenInvalidationObserver>()
        return ScenarioRun(threads: [
            { log.record("register"); observer.value = TokenInvalidationObserver(token: reference); log.record("registered") },
            { log.record("drop"); lastCopy.value = nil; log.record("dropped") },
            { log.record("invalidate"); tokenBox.invalidate(); log.record("invalidated") },
        ], check: {
            guard let iterator = observer.value else { return "no observer" }
            var elements = 0, ended = false
            while elements < 3, let next = iterator.poll(taskCancelled: false) {
                if next { elements += 1 } else { ended = true; break }
            }
            let entries = TokenObserverTable.count(for: reference.boxID)
            // An invalidation the iterator must see: the release's own (rule 16), or the
            // explicit one if it ended while the token was still alive.
            let registeredFirst = log.happened("registered", before: "drop")
                || (log.happened("registered", before: "invalidate") && log.happened("invalidated", before: "drop"))
            observer.value = nil
            return firstProblem(
                expect(ended, "the token's last copy was released, but the iterator would wait for good after \(elements) elements (rule 16)"),
                expect(elements <= 1, "\(elements) elements: invalidations while nobody waits coalesce into one"),
                expect(!registeredFirst || elements == 1, "registered before an invalidation began, the iterator did not yield it (rules 15, 16)"),
                expect(!log.happened("dropped", before: "register") || elements == 0, "registered after the release, the iterator yielded \(elements)"),
                expect(entries == 0, "the released token still has \(entries) observers in the table"))
        })
    }

    /// Rules 2, 26: `PromiseOperation`'s `start()` (an `.immediate` handler that fulfils at
    /// once) racing `cancel()` and an observer's registration. The handler runs at most once,
    /// never if `cancel()` returned before `start()` began (the promise is then cancelled by
    /// `start()`); the promise fulfils iff the handler ran; `isFinished` is true before an
    /// observer registered before `start()` (which resolves the promise) runs, and at the
    /// end, `isExecuting` false; the operation and the handler are released.
    @Sendable static func operationStartVsCancel() -> ScenarioRun {
        let log = EventLog(), counter = ReleaseCounter()
        let inHandler = Tracked(counter)
        let operation = PromiseOperation<Int, Never>(on: .immediate, isolation: nil) { resolver in
            inHandler.use()
            log.recordInUserCode("handler")
            resolver.fulfill(with: 1)
        }
        let promise = operation.promise
        let box = Kept(promise._box), kept = Kept(operation)
        return ScenarioRun(threads: [
            { log.record("start"); operation.start(); log.record("started") },
            { log.record("cancel"); operation.cancel(); log.record("cancelled") },
            {
                log.record("observing")
                promise.always(on: .immediate) { result in
                    log.record("observer \(describe(result)), finished \(operation.isFinished)")
                }
                log.record("observed")
            },
        ], check: {
            let result = describe(box.value?.result)
            let handler = log.count("handler")
            let observer = log.all.filter { $0.hasPrefix("observer") }
            let (finished, executing) = (kept.value!.isFinished, kept.value!.isExecuting)
            let problem = firstProblem(
                expect(handler <= 1, "the handler ran \(handler) times (rule 26: extra starts do nothing)"),
                expect(!log.happened("cancelled", before: "start") || (handler == 0 && result == "cancelled"),
                       "cancelled before start(): handler runs \(handler), promise \(result) (rule 26)"),
                expect((handler == 1) == (result == "value(1)"), "handler runs \(handler), promise \(result)"),
                expect(result == "value(1)" || result == "cancelled", "promise \(result)"),
                expect(observer.count == 1 && observer[0].hasPrefix("observer \(result),"), "observer events \(observer) for \(result)"),
                // (Registered once the promise is resolved, the observer runs at once on its
                // own thread, and may run before the resolving thread marked the operation
                // finished: found by this scenario, see the Testing article.)
                expect(!log.happened("observed", before: "start") || observer == ["observer \(result), finished true"],
                       "observer events \(observer): isFinished must be true before the promise's observers run (rule 26)"),
                expect(finished && !executing, "at the end: isFinished \(finished), isExecuting \(executing) (rule 26)"),
                checkResolvedCore("promise", box.value!))
            return firstProblem(problem, releasedOnce(kept, nil, "the operation"), releasedOnce(box, counter))
        })
    }

    // MARK: The keeper count

    /// Rule 1: the last keeper gone cancels a pending promise, however two releases
    /// interleave. The resolver's handle and a second keeper (as a pipe holds one, and drops it
    /// when its node is dropped unresolved, `PipeNode.dropped`) are released on two threads at
    /// once: the count must reach zero exactly once. A decrement made of a load and a store
    /// (mutation 02) loses one of them, and the promise stays pending for good.
    @Sendable static func twoKeepersReleased() -> ScenarioRun {
        let log = EventLog(), counter = ReleaseCounter()
        let (promise, resolver) = Promise<Int, Never>.makeWithResolver()
        promise._box.retainKeeper()
        let lastResolver = Kept(resolver)
        let box = Kept(promise._box)
        let core = promise._box
        return ScenarioRun(threads: [
            { log.record("drop"); lastResolver.value = nil; log.record("dropped") },
            { log.record("release"); core.releaseKeeper(); log.record("released") },
            observing(promise, log, counter),
        ], check: {
            let result = describe(box.value?.result)
            let problem = firstProblem(
                expect(result == "cancelled", "result \(result), no keeper left (rule 1)"),
                observedOnce(log, "cancelled"),
                checkResolvedCore("promise", box.value!))
            return firstProblem(problem, releasedOnce(box, counter))
        })
    }
}
#endif
