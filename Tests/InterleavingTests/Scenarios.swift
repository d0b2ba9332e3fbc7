// The scenarios: a few threads racing on one or two promises, and the invariants every
// interleaving must keep (rules cited by number, see Rules.md). Each `make` builds fresh
// promises for one run; its threads record events in an `EventLog`, in schedule order.

#if TOMORROWLAND_SCHEDULE_POINTS
import Foundation
@testable import TomorrowlandExplored

/// A scenario: a name, the rules of Rules.md its check states (by number), and a function
/// that builds one run of it.
struct Scenario: Sendable {
    var name: String
    var rules: [Int]
    var make: @Sendable () -> ScenarioRun
}

/// Holds what a check drops before it looks for leaks. Safety of `@unchecked Sendable`: set
/// by `make`, then only touched by the check, after every thread finished.
final class Kept<Value>: @unchecked Sendable {
    var value: Value?
    init(_ value: Value) { self.value = value }
}

/// The error of the scenarios' rejections.
enum ScenarioError: Swift.Error, Equatable { case failed }

/// Describes a result for comparisons and messages (`value(1)`, `cancelled`, `error(...)`).
func describe<V, E>(_ result: PromiseResult<V, E>?) -> String {
    guard let result else { return "pending" }
    switch result {
    case .value(let value): return "value(\(value))"
    case .error(let error): return "error(\(error))"
    case .cancelled: return "cancelled"
    }
}

/// `threads`, each keeping `object` alive while it runs.
func keeping<T: Sendable>(_ object: T, _ threads: [@Sendable () -> Void]) -> [@Sendable () -> Void] {
    threads.map { body in { withExtendedLifetime(object) { body() } } }
}

/// A scenario thread that asks `promise` to cancel, between the events "request" and "requested".
func requestingCancel<V: Sendable, E: Sendable>(_ promise: Promise<V, E>, _ log: EventLog) -> @Sendable () -> Void {
    { log.record("request"); promise.requestCancel(); log.record("requested") }
}

/// A scenario thread that registers an `.immediate` observer on `promise` (between the events
/// "observing" and "observed"), which records "observer <result>" (and releases an object
/// counted by `counter`).
func observing<V: Sendable, E: Sendable>(_ promise: Promise<V, E>, _ log: EventLog, _ counter: ReleaseCounter) -> @Sendable () -> Void {
    {
        let inObserver = Tracked(counter)
        log.record("observing")
        _ = promise.always(on: .immediate) { result in inObserver.use(); log.record("observer \(describe(result))") }
        log.record("observed")
    }
}

/// `nil` if the observer fired exactly once, with `result`, on its context (rule 11: an
/// `.immediate` callback runs synchronously on the thread that triggers it: after its
/// registration began, and on the registering thread only within the registration).
func observedOnce(_ log: EventLog, _ result: String) -> String? {
    let observed = log.all.filter { $0.hasPrefix("observer") }
    guard observed == ["observer \(result)"] else { return "observer events \(observed) for \(result)" }
    return ranOnItsContext(log, "observer \(result)", registration: ("observing", "observed"))
}

/// Rule 11 for the `.immediate` callback that records `event`, registered between the events
/// `registration`: it ran after the registration began; if it ran on the registering thread,
/// then within the registration (the promise was already resolved), and otherwise on a thread
/// that resolved it, never on the registering thread after its registration returned.
func ranOnItsContext(_ log: EventLog, _ event: String, registration: (started: String, ended: String)) -> String? {
    guard let ran = log.index(event) else { return nil }
    guard let registered = log.index(registration.started), registered < ran else {
        return "\(event) ran before its registration began (rule 11)"
    }
    let registeringThread = log.thread(of: registration.started)
    if log.thread(of: event) == registeringThread {
        return expect(log.happened(event, on: registeringThread, between: registration.started, and: registration.ended),
                      "\(event) ran on the registering thread after its registration returned (rule 11)")
    }
    return nil
}

/// Rules 3 and 4 for one cancel request racing one fulfilment: the handler runs at most
/// once; it runs if the request was made before the fulfilment began, never if the request
/// came after the fulfilment ended.
func cancelHandlerRules(_ log: EventLog, request: (started: String, ended: String)) -> String? {
    let runs = log.count("handler")
    return firstProblem(
        expect(runs <= 1, "handler ran \(runs) times"),
        expect(!log.happened(request.ended, before: "fulfil") || runs == 1,
               "the request was made before the fulfilment, the handler did not run (rules 3, 4)"),
        expect(!log.happened("fulfilled", before: request.started) || runs == 0,
               "the request came after the fulfilment, the handler ran (rules 3, 4)"))
}

/// A parent whose cancel handler records "handler" and cancels it, and two `.immediate` `map`
/// children (the rule 5 scenarios): their boxes, for the check.
struct Family {
    let parentBox: Kept<PromiseBox<Int, Never>>, box1: Kept<PromiseBox<Int, Never>>, box2: Kept<PromiseBox<Int, Never>>

    /// The family of `parent`, and two scenario threads: child 1, then child 2, requests
    /// cancel ("cancel N", "cancelled N"). Only the threads hold the children's handles.
    static func make(_ parent: Promise<Int, Never>, _ resolver: Promise<Int, Never>.Resolver,
                     _ log: EventLog) -> (Family, [@Sendable () -> Void]) {
        resolver.onRequestCancel(on: .immediate) { resolver in log.record("handler"); resolver.cancel() }
        let child1 = parent.map(on: .immediate) { $0 + 1 }
        let child2 = parent.map(on: .immediate) { $0 + 1 }
        let family = Family(parentBox: Kept(parent._box), box1: Kept(child1._box), box2: Kept(child2._box))
        return (family, [
            { log.record("cancel 1"); child1.requestCancel(); log.record("cancelled 1") },
            { log.record("cancel 2"); child2.requestCancel(); log.record("cancelled 2") },
        ])
    }

    /// `checkResolvedCore` for the three promises.
    var resolvedCores: String? {
        firstProblem(checkResolvedCore("parent", parentBox.value!), checkResolvedCore("child 1", box1.value!),
                     checkResolvedCore("child 2", box2.value!))
    }

    /// `releasedOnce` for the three promises.
    var released: String? {
        firstProblem(releasedOnce(parentBox, nil, "the parent"), releasedOnce(box1, nil, "child 1"), releasedOnce(box2, nil, "child 2"))
    }
}

/// Rule 5: `nil` if the parent's handler (event "handler") did not run, or ran after every
/// one of `events` (the children's requests, the drop of the last handle) began.
func handlerAfter(_ events: [String], _ log: EventLog) -> String? {
    guard let handler = log.index("handler") else { return nil }
    let missing = events.filter { (log.index($0) ?? .max) > handler }
    return expect(missing.isEmpty, "the parent was asked to cancel before \(missing) (rule 5)")
}

/// Drops the promise `kept` holds, then checks that it was freed and that every object in
/// `counter` was released exactly once.
func releasedOnce<T: AnyObject>(_ kept: Kept<T>, _ counter: ReleaseCounter? = nil, _ what: String = "the promise") -> String? {
    weak let dead = kept.value
    kept.value = nil
    return firstProblem(counter?.problem, expect(dead == nil, "\(what) leaked"))
}

/// `nil` if `condition` holds, else `message`.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) -> String? {
    condition ? nil : message()
}

enum Scenarios {
    static let all: [Scenario] = first + more + objects

    static let first: [Scenario] = [
        Scenario(name: "fulfil vs requestCancel vs registering an observer", rules: [2, 3, 4, 11], make: fulfilCancelRegister),
        Scenario(name: "two children requesting cancel vs the parent's fulfilment", rules: [5], make: childrenCancelParentFulfils),
        Scenario(name: "the last resolver dropped vs requestCancel with a cancel handler", rules: [1, 4, 11], make: lastResolverDroppedVsCancel),
        Scenario(name: "await on a node: arm / resolve / Task-cancel", rules: [3, 5], make: { awaitOnNode(stopWaiting: false) }),
        Scenario(name: "await on a node: arm / resolve / Task-cancel, .stopWaiting", rules: [3, 5], make: { awaitOnNode(stopWaiting: true) }),
        Scenario(name: "await in a Task promise's slot: claim, arm / finish / Task-cancel", rules: [2, 5], make: { awaitInSlot(stopWaiting: false) }),
        Scenario(name: "await in a Task promise's slot: claim, arm / finish / Task-cancel, .stopWaiting", rules: [2, 5], make: { awaitInSlot(stopWaiting: true) }),
        Scenario(name: "StdPromise { } starting vs requestCancel", rules: [3, 4], make: taskPromiseStartVsCancel),
        Scenario(name: "flatMap adoption vs cancel vs the inner promise's fulfilment", rules: [5, 27], make: flatMapAdoptionVsCancel),
        Scenario(name: "resolve(with:) linking vs the target's fulfilment", rules: [2, 27], make: pipeLinkVsResolution),
        Scenario(name: "token invalidation vs callback registration vs fulfilment", rules: [14, 15], make: tokenInvalidationVsRegistration),
        Scenario(name: "retry's stop vs an attempt's rejection", rules: [3, 5], make: retryStopVsRejection),
        Scenario(name: "a timeout firing vs resolution", rules: [11, 22], make: timeoutVsResolution),
        Scenario(name: "registering a cancel handler vs requestCancel vs fulfil", rules: [3, 4], make: handlerRegistrationVsCancelVsFulfil),
        Scenario(name: "two children requesting cancel vs dropping the parent's last handle", rules: [5], make: childrenCancelVsLastHandleDropped),
    ]

    // MARK: Resolution, cancel requests, observers

    /// Rules 2, 3, 4: a cancel request is only a request; the handler runs iff the request
    /// came before the fulfilment; the observer fires once with the one result.
    @Sendable static func fulfilCancelRegister() -> ScenarioRun {
        let log = EventLog(), counter = ReleaseCounter()
        let (promise, resolver) = Promise<Int, Never>.makeWithResolver()
        let inHandler = Tracked(counter)
        resolver.onRequestCancel(on: .immediate) { _ in inHandler.use(); log.record("handler") }
        let box = Kept(promise._box)
        return ScenarioRun(threads: [
            { log.record("fulfil"); resolver.fulfill(with: 1); log.record("fulfilled") },
            requestingCancel(promise, log),
            observing(promise, log, counter),
        ], check: {
            let result = describe(box.value?.result)
            let problem = firstProblem(
                expect(result == "value(1)", "result \(result)"),
                observedOnce(log, "value(1)"),
                cancelHandlerRules(log, request: ("request", "requested")),
                checkResolvedCore("promise", box.value!))
            return firstProblem(problem, releasedOnce(box, counter))
        })
    }

    /// Rule 4 with the registration itself racing: `onRequestCancel` on one thread while
    /// another requests cancel and a third fulfils (a late registration runs the handler at
    /// once; `publish` closing the handler list means a registration after the fulfilment
    /// never runs it). The handler runs at most once, after the request; it runs if both the
    /// registration and the request ended before the fulfilment began; never if either began
    /// after the fulfilment ended; its closure is released exactly once.
    @Sendable static func handlerRegistrationVsCancelVsFulfil() -> ScenarioRun {
        let log = EventLog(), counter = ReleaseCounter()
        let (promise, resolver) = Promise<Int, Never>.makeWithResolver()
        let box = Kept(promise._box)
        return ScenarioRun(threads: [
            {
                log.record("register")
                let inHandler = Tracked(counter)
                resolver.onRequestCancel(on: .immediate) { _ in inHandler.use(); log.record("handler") }
                log.record("registered")
            },
            requestingCancel(promise, log),
            { log.record("fulfil"); resolver.fulfill(with: 1); log.record("fulfilled") },
        ], check: {
            let result = describe(box.value?.result)
            let runs = log.count("handler")
            let problem = firstProblem(
                expect(result == "value(1)", "result \(result)"),
                expect(runs <= 1, "handler ran \(runs) times"),
                expect(runs == 0 || log.happened("request", before: "handler"), "the handler ran before the request (rule 3)"),
                expect(!(log.happened("registered", before: "fulfil") && log.happened("requested", before: "fulfil")) || runs == 1,
                       "registered and requested before the fulfilment, the handler did not run (rule 4)"),
                expect(!log.happened("fulfilled", before: "register") || runs == 0,
                       "registered after the fulfilment, the handler ran (rule 4)"),
                expect(!log.happened("fulfilled", before: "request") || runs == 0,
                       "the request came after the fulfilment, the handler ran (rule 3)"),
                checkResolvedCore("promise", box.value!))
            return firstProblem(problem, releasedOnce(box, counter))
        })
    }

    /// Rule 5: the parent is asked to cancel only once both children asked (its handle is
    /// gone); its handler cancels it, so it ends cancelled iff that happened before the
    /// fulfilment; the children follow the parent.
    @Sendable static func childrenCancelParentFulfils() -> ScenarioRun {
        let log = EventLog()
        let (parent, resolver) = Promise<Int, Never>.makeWithResolver()
        let (family, childrenCancelling) = Family.make(parent, resolver, log)
        let (parentBox, box1, box2) = (family.parentBox, family.box1, family.box2)
        return ScenarioRun(threads: childrenCancelling + [
            { log.record("fulfil"); resolver.fulfill(with: 1); log.record("fulfilled") },
        ], check: {
            let result = describe(parentBox.value?.result)
            let expectedChild = result == "value(1)" ? "value(2)" : result
            let bothBefore = log.happened("cancelled 1", before: "fulfil") && log.happened("cancelled 2", before: "fulfil")
            let problem = firstProblem(
                expect(result == "value(1)" || result == "cancelled", "parent result \(result)"),
                expect(log.count("handler") <= 1, "handler ran \(log.count("handler")) times"),
                expect(result != "cancelled" || log.count("handler") == 1, "parent cancelled without its handler"),
                expect(!bothBefore || result == "cancelled", "both children asked before the fulfilment, parent \(result) (rule 5)"),
                handlerAfter(["cancel 1", "cancel 2"], log),
                expect(describe(box1.value?.result) == expectedChild && describe(box2.value?.result) == expectedChild,
                       "children \(describe(box1.value?.result)), \(describe(box2.value?.result)) for a parent \(result)"),
                family.resolvedCores)
            return firstProblem(problem, family.released)
        })
    }

    /// Rule 5's "no handle is left": the parent's last handle dropped on one thread while both
    /// children request cancel on two others. Whichever of the three comes last asks the
    /// parent to cancel, once: its handler runs exactly once, after all three began, and the
    /// parent and both children end cancelled.
    @Sendable static func childrenCancelVsLastHandleDropped() -> ScenarioRun {
        let log = EventLog()
        let (parent, resolver) = Promise<Int, Never>.makeWithResolver()
        let (family, childrenCancelling) = Family.make(parent, resolver, log)
        let handle = Kept(parent)
        return ScenarioRun(threads: childrenCancelling + [
            { log.record("drop"); handle.value = nil; log.record("dropped") },
        ], check: {
            let results = [family.parentBox, family.box1, family.box2].map { describe($0.value?.result) }
            let problem = firstProblem(
                expect(log.count("handler") == 1, "handler ran \(log.count("handler")) times (rule 5)"),
                handlerAfter(["cancel 1", "cancel 2", "drop"], log),
                expect(results == ["cancelled", "cancelled", "cancelled"], "parent, children: \(results)"),
                family.resolvedCores)
            return firstProblem(problem, family.released)
        })
    }

    /// Rule 1: a pending cancel handler keeps the promise resolvable; once the resolver is
    /// gone and the handler ran (without resolving), the promise is cancelled: never left pending.
    @Sendable static func lastResolverDroppedVsCancel() -> ScenarioRun {
        let log = EventLog(), counter = ReleaseCounter()
        let (promise, resolver) = Promise<Int, Never>.makeWithResolver()
        let inHandler = Tracked(counter)
        resolver.onRequestCancel(on: .immediate) { _ in inHandler.use(); log.record("handler") }
        let lastResolver = Kept(resolver)
        let box = Kept(promise._box)
        return ScenarioRun(threads: [
            { log.record("drop"); lastResolver.value = nil; log.record("dropped") },
            requestingCancel(promise, log),
            observing(promise, log, counter),
        ], check: {
            let result = describe(box.value?.result)
            let problem = firstProblem(
                expect(result == "cancelled", "result \(result) (rule 1)"),
                expect(log.count("handler") == 1, "handler ran \(log.count("handler")) times (rule 4)"),
                observedOnce(log, "cancelled"),
                checkResolvedCore("promise", box.value!))
            return firstProblem(problem, releasedOnce(box, counter))
        })
    }

    // MARK: Awaiting

    /// An awaiting Task's wait on a `PromiseAwaiter` node: arming (the continuation stored
    /// in `withAwaitContinuation`), the promise resolving, the Task being cancelled (its
    /// cancellation handler; the promise's own handler then cancels it). The Task is resumed
    /// exactly once (a second resume traps), never lost; it stops early only if it stops on
    /// cancel and was cancelled.
    @Sendable static func awaitOnNode(stopWaiting: Bool) -> ScenarioRun {
        let log = EventLog()
        let (promise, resolver) = Promise<Int, Never>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate) { resolver in log.record("handler"); resolver.cancel() }
        let task = AwaitingTask()
        let continuation = task.take()
        let node = PromiseAwaiter(core: promise._box, stopWaitingOnCancel: stopWaiting)
        let box = Kept(promise._box), nodeBox = Kept(node)
        return ScenarioRun(threads: keeping(promise, [
            { node.storeContinuationAndWait(continuation); log.record("armed") },
            { log.record("fulfil"); resolver.fulfill(with: 1); log.record("fulfilled") },
            { log.record("cancel"); node.requestCancelForAwaitingTask(); log.record("cancelled") },
            // (`promise` is the awaiting code's handle: it does not block the Task's request.)
        ]), check: {
            let result = describe(box.value?.result)
            guard let stopped = task.outcome() else { return "the awaiting Task was never resumed (lost wakeup)" }
            let problem = firstProblem(
                expect(result == "value(1)" || result == "cancelled", "result \(result)"),
                expect(!stopped || (stopWaiting && log.index("cancel") != nil), "stopped waiting without a stop request"),
                expect(result == "value(1)" || log.count("handler") == 1, "cancelled without the handler"),
                checkResolvedCore("promise", box.value!))
            return firstProblem(problem, releasedOnce(nodeBox, nil, "the await node"), releasedOnce(box))
        })
    }

    /// The same wait in a Task-backed promise's own await slot, claimed on the awaiting
    /// thread (racing `finish`, which closes a free slot), resolved by the Task running the
    /// operation (`finish`), with an `.immediate` callback that waits for the awaiting Task
    /// to be resumed: `finish` must resume it before delivering callbacks (c26eb39).
    @Sendable static func awaitInSlot(stopWaiting: Bool) -> ScenarioRun {
        let log = EventLog()
        let taskBox = NonThrowingTaskPromiseBox<Int, Never>(operation: { 1 })
        taskBox.registerAsCancelHandler()
        let promise = Promise(box: taskBox)
        _ = promise.always(on: .immediate) { _ in
            // An awaiter armed before the result was published must already be resumed here.
            Explorer.wait(for: "the awaiting Task to be resumed") {
                taskBox.awaitPhase.unsharedLoad(ordering: .acquiring) != .armed
            }
            log.record("callback")
        }
        let task = AwaitingTask()
        let continuation = task.take()
        let claim = ClaimOutcome()
        let box = Kept(taskBox)
        return ScenarioRun(threads: keeping(promise, [
            {
                // As `_awaitPending`: claim the slot, then suspend in it. A slot already
                // closed (`finish` came first, `resolve` on `free`) must show the
                // result: `_awaitPending` then waits on a node, which finds the promise
                // resolved; here the result is read and the Task resumed at once.
                log.record("claim")
                let claimed = taskBox.takeAwaitSlotAndObserve(stopWaitingOnCancel: stopWaiting)
                claim.set(claimed)
                if claimed {
                    taskBox.storeContinuationAndWait(continuation)
                    log.record("armed")
                } else {
                    log.record("slot closed, result \(describe(taskBox.result))")
                    continuation.resume(returning: false)
                }
            },
            { log.record("finish"); taskBox.finish(.value(1)); log.record("finished") },
            {
                // The Task's cancellation handler is installed once it holds the slot.
                Explorer.wait(for: "the claim") { claim.decided }
                guard claim.claimed else { return }
                log.record("cancel"); taskBox.requestCancelForAwaitingTask(); log.record("cancelled")
            },
        ]), check: {
            let result = describe(box.value?.result)
            guard let stopped = task.outcome() else { return "the awaiting Task was never resumed (lost wakeup)" }
            let closed = log.all.filter { $0.hasPrefix("slot closed") }
            let problem = firstProblem(
                expect(closed.allSatisfy { $0 == "slot closed, result value(1)" }, "\(closed): closed before the result was there"),
                expect(!closed.isEmpty || !log.happened("finished", before: "claim"), "the slot was claimed after the Task promise finished"),
                expect(result == "value(1)", "result \(result)"),
                expect(!stopped || (stopWaiting && log.index("cancel") != nil), "stopped waiting without a stop request"),
                expect(log.count("callback") == 1, "callback ran \(log.count("callback")) times"),
                checkResolvedCore("promise", box.value!))
            return firstProblem(problem, releasedOnce(box, nil, "the Task promise"))
        })
    }

    /// `StdPromise { }`'s start (`_runningTask`): the creator registers the box as its own
    /// cancel handler while the Task may already have finished and a cancel request may come.
    /// The Task is cancelled iff the request came while the promise was pending (rules 3, 4),
    /// and the box's cancel-handler reference is released exactly once (the box is freed).
    @Sendable static func taskPromiseStartVsCancel() -> ScenarioRun {
        let log = EventLog()
        let taskBox = NonThrowingTaskPromiseBox<Int, Never>(operation: { 1 })
        let task = Task<Void, Never> {}
        publishField(&taskBox.task, task)
        let promise = Promise(box: taskBox)
        let box = Kept(taskBox)
        return ScenarioRun(threads: [
            { log.record("register"); taskBox.registerAsCancelHandler(); log.record("registered") },
            { log.record("finish"); taskBox.finish(.value(1)); log.record("finished") },
            { log.record("request"); promise.requestCancel(); log.record("requested") },
        ], check: {
            let result = describe(box.value?.result)
            let cancelled = task.isCancelled
            let problem = firstProblem(
                expect(result == "value(1)", "result \(result)"),
                expect(!(log.happened("requested", before: "finish") && log.happened("registered", before: "finish")) || cancelled,
                       "registered and requested before the Task finished, but the Task was not cancelled"),
                expect(!log.happened("finished", before: "request") || !cancelled, "the Task was cancelled after it finished"),
                checkResolvedCore("promise", box.value!))
            return firstProblem(problem, releasedOnce(box, nil, "the Task promise (with its cancel-handler reference)"))
        })
    }

    // MARK: Adoption

    /// Rule 27: `flatMap`'s child adopts the inner promise (pipe: keeper, upstream link,
    /// callback) while the child is asked to cancel and the inner promise fulfils. A request
    /// made before the adoption reaches the inner promise; links are released exactly once.
    @Sendable static func flatMapAdoptionVsCancel() -> ScenarioRun {
        let log = EventLog()
        let (outer, outerResolver) = Promise<Int, Never>.makeWithResolver()
        let (inner, innerResolver) = Promise<Int, Never>.makeWithResolver()
        innerResolver.onRequestCancel(on: .immediate) { resolver in log.record("inner handler"); resolver.cancel() }
        let child = outer.flatMap(on: .immediate) { _ in log.record("adopt"); return inner }
        let childBox = Kept(child._box), innerBox = Kept(inner._box)
        return ScenarioRun(threads: [
            { log.record("fulfil outer"); outerResolver.fulfill(with: 1); log.record("outer fulfilled") },
            { log.record("cancel child"); child.requestCancel(); log.record("child cancel requested") },
            { log.record("fulfil inner"); innerResolver.fulfill(with: 2); log.record("inner fulfilled") },
        ], check: {
            let childResult = describe(childBox.value?.result), innerResult = describe(innerBox.value?.result)
            let problem = firstProblem(
                expect(childResult == "value(2)" || childResult == "cancelled", "child \(childResult)"),
                expect(innerResult == "value(2)" || innerResult == "cancelled", "inner \(innerResult)"),
                expect(childResult == innerResult, "child \(childResult) but inner \(innerResult)"),
                expect(innerResult == "value(2)" || log.count("inner handler") == 1, "inner cancelled without its handler"),
                expect(!(log.happened("child cancel requested", before: "fulfil outer") && log.happened("outer fulfilled", before: "fulfil inner"))
                       || innerResult == "cancelled", "a request made before the adoption did not reach the inner promise (rule 27)"),
                checkResolvedCore("child", childBox.value!), checkResolvedCore("inner", innerBox.value!))
            return firstProblem(problem, releasedOnce(childBox, nil, "the child"), releasedOnce(innerBox, nil, "the inner promise"))
        })
    }

    /// `resolve(with:)` links the target to the inner promise (the `publish` / `linkUpstream`
    /// hand-off, e5fea2c) while the target is fulfilled directly: whichever wins, no link is
    /// left on the resolved target and the inner promise is released.
    @Sendable static func pipeLinkVsResolution() -> ScenarioRun {
        let (target, targetResolver) = Promise<Int, Never>.makeWithResolver()
        let (inner, innerResolver) = Promise<Int, Never>.makeWithResolver()
        let targetBox = Kept(target._box), innerBox = Kept(inner._box)
        return ScenarioRun(threads: [
            { targetResolver.resolve(with: inner) },
            { targetResolver.fulfill(with: 5) },
            { innerResolver.fulfill(with: 7) },
        ], check: {
            let result = describe(targetBox.value?.result)
            let problem = firstProblem(
                expect(result == "value(5)" || result == "value(7)", "target \(result)"),
                checkResolvedCore("target", targetBox.value!), checkResolvedCore("inner", innerBox.value!))
            return firstProblem(problem, releasedOnce(targetBox, nil, "the target"), releasedOnce(innerBox, nil, "the inner promise"))
        })
    }

    // MARK: Tokens, retry, timeout

    /// Rules 14, 15: a token only suppresses callbacks registered before the invalidation,
    /// checked when they would run; `requestCancelOnInvalidate` asks the promise to cancel.
    @Sendable static func tokenInvalidationVsRegistration() -> ScenarioRun {
        let log = EventLog(), counter = ReleaseCounter()
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        let (promise, resolver) = Promise<Int, Never>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate) { _ in log.record("handler") }
        token.requestCancelOnInvalidate(promise)
        let box = Kept(promise._box)
        return ScenarioRun(threads: [
            {
                log.record("register")
                let inCallback = Tracked(counter)
                _ = promise.then(on: .immediate, token: token) { _ in inCallback.use(); log.record("callback") }
                log.record("registered")
            },
            { log.record("invalidate"); token.invalidate(); log.record("invalidated") },
            { log.record("fulfil"); resolver.fulfill(with: 1); log.record("fulfilled") },
        ], check: {
            let result = describe(box.value?.result)
            let problem = firstProblem(
                expect(result == "value(1)", "result \(result)"),
                cancelHandlerRules(log, request: ("invalidate", "invalidated")),  // rule 15's request
                expect(log.count("callback") <= 1, "callback ran \(log.count("callback")) times"),
                expect(!(log.happened("registered", before: "invalidate") && log.happened("invalidated", before: "fulfil"))
                       || log.count("callback") == 0, "invalidated before it would run, the callback ran (rule 14)"),
                expect(!log.happened("invalidated", before: "register") || log.count("callback") == 1,
                       "registered after the invalidation, the callback did not run (rule 15)"),
                expect(!(log.happened("registered", before: "fulfil") && log.happened("fulfilled", before: "invalidate"))
                       || log.count("callback") == 1, "registered before the fulfilment, invalidated after it, the callback was lost (rule 14)"),
                checkResolvedCore("promise", box.value!))
            return firstProblem(problem, releasedOnce(box, counter))
        })
    }

    /// `retry`: a cancel request stops at once: the output ends cancelled, never rejected
    /// with the first attempt's error, which would have been retried (5a969b2); and every
    /// attempt still pending is asked to cancel, as one of its observers (rules 3, 5): the
    /// second attempt (started by the first one's rejection) always, the first one if the
    /// request came before its rejection.
    @Sendable static func retryStopVsRejection() -> ScenarioRun {
        let log = EventLog()
        let attempts = Kept([Promise<Int, ScenarioError>.Resolver]())
        let output = retry(on: .immediate, attempts: 2) { () -> Promise<Int, ScenarioError> in
            let (attempt, resolver) = Promise<Int, ScenarioError>.makeWithResolver()
            let number = attempts.value!.count + 1  // on the thread that runs the attempts, one at a time
            resolver.onRequestCancel(on: .immediate) { _ in log.record("attempt \(number) asked to cancel") }
            attempts.value!.append(resolver)
            log.record("attempt \(number) started")
            return attempt
        }
        let first = attempts.value![0]
        let box = Kept(output._box)
        return ScenarioRun(threads: [
            { log.record("reject"); first.reject(with: .failed); log.record("rejected") },
            requestingCancel(output, log),
        ], check: {
            let result = describe(box.value?.result)
            let started = attempts.value!.count
            attempts.value = nil
            let unasked = (1...started).filter { number in
                let pending = number > 1 || log.happened("requested", before: "reject")
                return pending && log.count("attempt \(number) asked to cancel") != 1
            }
            let problem = firstProblem(expect(result == "cancelled", "output \(result) after a cancel request"),
                                       expect(unasked.isEmpty, "pending attempts \(unasked) were not asked to cancel once"),
                                       checkResolvedCore("output", box.value!))
            return firstProblem(problem, releasedOnce(box, nil, "the output"))
        })
    }

    /// Rule 22: the timer's work (as `makeTimeout` arms it: resolve, giving up the observer
    /// slot) racing the receiver's fulfilment: one result, seen once; the receiver is
    /// auto-cancelled only if the timeout won (it was its only observer, its handle is gone).
    @Sendable static func timeoutVsResolution() -> ScenarioRun {
        let log = EventLog(), counter = ReleaseCounter()
        let (receiver, resolver) = Promise<Int, Never>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate) { resolver in log.record("receiver handler"); resolver.cancel() }
        let output = receiver.timeout(on: .immediate, delay: 3600)
        let outputBox = output._box
        let receiverBox = Kept(receiver._box), box = Kept(outputBox)
        return ScenarioRun(threads: [
            {
                log.record("timer fires")
                outputBox.resolveGivingUpUpstream { outputBox.resolve(.error(.timedOut)) }
                log.record("timer fired")
            },
            { log.record("fulfil"); resolver.fulfill(with: 1); log.record("fulfilled") },
            observing(output, log, counter),
        ], check: {
            let result = describe(box.value?.result), receiverResult = describe(receiverBox.value?.result)
            let problem = firstProblem(
                expect(result == "value(1)" || result == "error(timedOut)", "output \(result)"),
                expect(receiverResult == "value(1)" || receiverResult == "cancelled", "receiver \(receiverResult)"),
                expect(receiverResult != "cancelled" || result == "error(timedOut)", "receiver cancelled, output \(result)"),
                observedOnce(log, result),
                expect(!log.happened("fulfilled", before: "timer fires") || result == "value(1)", "timed out after the fulfilment"),
                expect(!log.happened("timer fired", before: "fulfil") || result == "error(timedOut)", "fulfilled after timing out"),
                checkResolvedCore("output", box.value!), checkResolvedCore("receiver", receiverBox.value!))
            return firstProblem(problem, releasedOnce(box, counter, "the output"), releasedOnce(receiverBox, nil, "the receiver"))
        })
    }
}
#endif
