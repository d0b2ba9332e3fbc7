// Scenarios for the situations the first ones did not reach: concurrent cancel requests on a
// promise with an upstream, cancels caused by invalidation, two invalidators, timers against
// resolution, the `when` combinators. Each check states the rules it covers (Rules.md).

#if TOMORROWLAND_SCHEDULE_POINTS
import Foundation
@testable import TomorrowlandExplored

extension Scenarios {
    static let more: [Scenario] = [
        Scenario(name: "two cancel requests on a promise with an upstream", rules: [3, 4, 5, 11], make: twoCancelRequestsWithUpstream),
        Scenario(name: "an invalidation whose cancel request resolves at once vs fulfilment vs registration",
                 rules: [11, 14, 15], make: invalidationCancelsAtOnce),
        Scenario(name: "two invalidators vs fulfilment", rules: [3, 14, 15], make: twoInvalidators),
        Scenario(name: "delay of a fulfilled promise: the timer vs requestCancel", rules: [5, 23],
                 make: { delayTimerVsCancel(upstreamCancelled: false) }),
        Scenario(name: "delay of a cancelled promise: the timer vs requestCancel", rules: [5, 23],
                 make: { delayTimerVsCancel(upstreamCancelled: true) }),
        Scenario(name: "init(after:): the timer vs requestCancel", rules: [1, 23], make: afterTimerVsCancel),
        Scenario(name: "when(fulfilled:): two fulfilments, the assembly", rules: [20], make: whenFulfilledTwoInputs),
        Scenario(name: "when(fulfilled:): the input's fulfilment vs requestCancel", rules: [3, 5, 20], make: whenFulfilledVsCancel),
        Scenario(name: "when(first:): a fulfilment vs a rejection", rules: [21], make: whenFirstRace),
        Scenario(name: "reading the result vs fulfilment", rules: [2, 3], make: resultReadVsFulfilment),
        Scenario(name: "resolve(with:) linking vs a cancel request, the upstream observed by another child", rules: [5, 27],
                 make: linkVsCancelWithAnotherObserver),
    ]

    /// Rules 5, 27: a promise piped from an upstream (`resolve(with:)`, counted as one observer
    /// of it) while it is asked to cancel, the upstream having another child that never asks.
    /// Whether the request comes before the link (passed on when the link is made) or after,
    /// it is one observer's: the upstream is never asked to cancel, its handler never runs;
    /// the target takes the upstream's result.
    @Sendable static func linkVsCancelWithAnotherObserver() -> ScenarioRun {
        let log = EventLog()
        let (upstream, upstreamResolver) = Promise<Int, Never>.makeWithResolver()
        upstreamResolver.onRequestCancel(on: .immediate) { _ in log.recordInUserCode("upstream handler") }
        let other = Kept(upstream.map(on: .immediate) { $0 })  // another observer, which never asks
        let (target, targetResolver) = Promise<Int, Never>.makeWithResolver()
        let resolver = Kept(upstreamResolver)
        let box = Kept(target._box), upstreamBox = Kept(upstream._box)
        // The pipe `resolve(with:)` makes, from the boxes: no handle to the upstream is left
        // to hold the propagation back (the handle `resolve(with:)` takes would hide a request
        // counted before its observer until that handle is dropped).
        let targetCore = target._box, upstreamCore = upstream._box
        withExtendedLifetime(targetResolver) {}
        return ScenarioRun(threads: [
            { withExtendedLifetime(targetResolver) { targetCore.pipe(from: upstreamCore) } },
            { target.requestCancel() },
        ], check: {
            let asked = log.count("upstream handler")
            resolver.value!.fulfill(with: 1)  // on this thread: no schedule points, nothing explored
            resolver.value = nil
            other.value = nil
            let result = describe(box.value?.result)
            let problem = firstProblem(
                expect(asked == 0, "the upstream was asked to cancel while its other child never asked (rule 5)"),
                expect(result == "value(1)", "target \(result) (rule 27)"),
                checkResolvedCore("target", box.value!), checkResolvedCore("upstream", upstreamBox.value!))
            return firstProblem(problem, releasedOnce(box, nil, "the target"), releasedOnce(upstreamBox, nil, "the upstream"))
        })
    }

    /// Rules 2, 3: `result` read while the promise is fulfilled: `nil` (pending) or the value,
    /// never the placeholder a pending box holds; twice in a row, never the value and then
    /// `nil` again (the first resolution is for good).
    @Sendable static func resultReadVsFulfilment() -> ScenarioRun {
        let log = EventLog()
        let (promise, resolver) = Promise<Int, Never>.makeWithResolver()
        let box = Kept(promise._box)
        return ScenarioRun(threads: keeping(promise, [
            { resolver.fulfill(with: 1) },
            { log.record("read \(describe(promise.result))"); log.record("read \(describe(promise.result))") },
        ]), check: {
            let reads = log.all
            let problem = firstProblem(
                expect(reads.allSatisfy { $0 == "read pending" || $0 == "read value(1)" }, "reads \(reads) (rule 2)"),
                expect(reads != ["read value(1)", "read pending"], "reads \(reads): resolved, then pending again (rule 2)"),
                checkResolvedCore("promise", box.value!))
            return firstProblem(problem, releasedOnce(box))
        })
    }

    /// Rules 3, 4, 5: a promise piped from an upstream (`resolve(with:)`) asked to cancel by
    /// two threads at once. Its handler runs exactly once, and before the request is passed
    /// upstream (rule 5: handlers first, then the upstream); the upstream is asked exactly
    /// once (its handler cancels it), so both end cancelled; the observer sees that once.
    @Sendable static func twoCancelRequestsWithUpstream() -> ScenarioRun {
        let log = EventLog(), counter = ReleaseCounter()
        let (upstream, upstreamResolver) = Promise<Int, Never>.makeWithResolver()
        upstreamResolver.onRequestCancel(on: .immediate) { resolver in log.recordInUserCode("upstream handler"); resolver.cancel() }
        let (promise, resolver) = Promise<Int, Never>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate) { _ in log.recordInUserCode("handler") }
        resolver.resolve(with: upstream)
        // Only the link holds the upstream now: no handle blocks the propagation.
        let box = Kept(promise._box), upstreamBox = Kept(upstream._box)
        return ScenarioRun(threads: [
            { log.record("request 1"); promise.requestCancel(); log.record("requested 1") },
            { log.record("request 2"); promise.requestCancel(); log.record("requested 2") },
            observing(promise, log, counter),
        ], check: {
            let results = [describe(box.value?.result), describe(upstreamBox.value?.result)]
            let problem = firstProblem(
                expect(log.count("handler") == 1, "the handler ran \(log.count("handler")) times (rules 3, 4)"),
                expect(log.count("upstream handler") == 1, "the upstream was asked \(log.count("upstream handler")) times (rule 5)"),
                expect(log.happened("handler", before: "upstream handler"), "the upstream was asked before the handler ran (rule 5)"),
                expect(results == ["cancelled", "cancelled"], "promise, upstream: \(results)"),
                observedOnce(log, "cancelled"),
                checkResolvedCore("promise", box.value!), checkResolvedCore("upstream", upstreamBox.value!))
            return firstProblem(problem, releasedOnce(box, counter), releasedOnce(upstreamBox, nil, "the upstream"))
        })
    }

    /// Rules 14, 15: the invalidation's own cancel request cancels the promise at once (its
    /// handler calls `cancel()`), racing the fulfilment and the registration of a callback
    /// with the token. The token is invalidated before its cancel requests are made, so a
    /// callback registered before the invalidation never runs because of it: if the promise
    /// ends cancelled, such a callback did not run. Registered after the invalidation, it runs
    /// (rule 15), once, on its context.
    @Sendable static func invalidationCancelsAtOnce() -> ScenarioRun {
        let log = EventLog(), counter = ReleaseCounter()
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        let (promise, resolver) = Promise<Int, Never>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate) { resolver in log.record("handler"); resolver.cancel() }
        token.requestCancelOnInvalidate(promise)
        let box = Kept(promise._box)
        return ScenarioRun(threads: [
            {
                log.record("register")
                let inCallback = Tracked(counter)
                _ = promise.always(on: .immediate, token: token) { result in
                    inCallback.use(); log.record("callback \(describe(result))")
                }
                log.record("registered")
            },
            { log.record("invalidate"); token.invalidate(); log.record("invalidated") },
            { log.record("fulfil"); resolver.fulfill(with: 1); log.record("fulfilled") },
        ], check: {
            let result = describe(box.value?.result)
            let callbacks = log.all.filter { $0.hasPrefix("callback") }
            let registeredBefore = log.happened("registered", before: "invalidate")
            let problem = firstProblem(
                expect(result == "value(1)" || result == "cancelled", "result \(result)"),
                cancelHandlerRules(log, request: ("invalidate", "invalidated")),
                expect(callbacks.count <= 1, "callbacks \(callbacks)"),
                expect(callbacks.allSatisfy { $0 == "callback \(result)" }, "callbacks \(callbacks) for \(result)"),
                expect(!(registeredBefore && result == "cancelled") || callbacks.isEmpty,
                       "registered before the invalidation, the callback ran with the cancellation it caused (rules 14, 15)"),
                expect(!(registeredBefore && log.happened("invalidated", before: "fulfil")) || callbacks.isEmpty,
                       "invalidated before it would run, the callback ran (rule 14)"),
                expect(!log.happened("invalidated", before: "register") || callbacks.count == 1,
                       "registered after the invalidation, the callback did not run (rule 15)"),
                callbacks.first.flatMap { ranOnItsContext(log, $0, registration: ("register", "registered")) },
                checkResolvedCore("promise", box.value!))
            return firstProblem(problem, releasedOnce(box, counter))
        })
    }

    /// Rules 3, 14, 15: two threads invalidate one token while a third fulfils. The token's
    /// generation counts both invalidations; the promise registered with
    /// `requestCancelOnInvalidate` is asked at most once (rule 3), and never after its
    /// fulfilment ended; the callback registered before both runs if the fulfilment ended
    /// before either invalidation began, never if one ended before the fulfilment began.
    @Sendable static func twoInvalidators() -> ScenarioRun {
        let log = EventLog(), counter = ReleaseCounter()
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        let (promise, resolver) = Promise<Int, Never>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate) { _ in log.record("handler") }
        token.requestCancelOnInvalidate(promise)
        let inCallback = Tracked(counter)
        _ = promise.then(on: .immediate, token: token) { _ in inCallback.use(); log.record("callback") }
        let box = Kept(promise._box), tokenBox = Kept(token.box)
        return ScenarioRun(threads: [
            { log.record("invalidate 1"); token.invalidate(); log.record("invalidated 1") },
            { log.record("invalidate 2"); token.invalidate(); log.record("invalidated 2") },
            { log.record("fulfil"); resolver.fulfill(with: 1); log.record("fulfilled") },
        ], check: {
            let result = describe(box.value?.result)
            let generation = tokenBox.value!.currentGeneration
            let fulfilledFirst = log.happened("fulfilled", before: "invalidate 1") && log.happened("fulfilled", before: "invalidate 2")
            // An invalidation that ended before the fulfilment began asked the promise to cancel
            // if it took the list: unless the other one took it first (it began earlier) and
            // had not asked yet. So `invalidate()` returning does not mean the promise was
            // asked, with a concurrent invalidation (as in 1.4, which also takes the list at once).
            let invalidatedFirst = log.happened("invalidated 1", before: "fulfil") || log.happened("invalidated 2", before: "fulfil")
            let askedFirst = (log.happened("invalidated 1", before: "fulfil") && log.happened("invalidated 1", before: "invalidate 2"))
                || (log.happened("invalidated 2", before: "fulfil") && log.happened("invalidated 2", before: "invalidate 1"))
                || (log.happened("invalidated 1", before: "fulfil") && log.happened("invalidated 2", before: "fulfil"))
            let problem = firstProblem(
                expect(result == "value(1)", "result \(result)"),
                expect(generation == 2, "two invalidations, generation \(generation)"),
                expect(log.count("handler") <= 1, "the handler ran \(log.count("handler")) times (rule 3)"),
                expect(!askedFirst || log.count("handler") == 1, "invalidated before the fulfilment, the handler did not run (rule 15)"),
                expect(!fulfilledFirst || log.count("handler") == 0, "invalidated after the fulfilment, the handler ran (rule 3)"),
                expect(log.count("callback") <= 1, "the callback ran \(log.count("callback")) times"),
                expect(!fulfilledFirst || log.count("callback") == 1, "fulfilled before both invalidations, the callback did not run (rule 14)"),
                expect(!invalidatedFirst || log.count("callback") == 0, "invalidated before the fulfilment, the callback ran (rule 14)"),
                checkResolvedCore("promise", box.value!))
            tokenBox.value = nil
            return firstProblem(problem, releasedOnce(box, counter))
        })
    }

    // MARK: Timers

    /// A scenario thread that fires the timer (or runs `when`'s assembly) once it is handed
    /// over, between the events "fire" and "fired"; gives up once `box` resolved without it.
    static func firing(_ box: PromiseCore, _ log: EventLog) -> @Sendable () -> Void {
        {
            // The condition reads the state word without a schedule point (a wait's condition must not reach one).
            let ran = Explorer.runDeferredWork(before: { log.record("firing") }) {
                PromiseState(raw: box.state.unsharedLoad(ordering: .acquiring)).isResolved
            }
            if !ran { log.record("nothing to fire") }
        }
    }

    /// Rules 5, 23: `delay` on a parent that resolved before it (the timer is armed at once):
    /// the timer fires (on a scenario thread) while the output is asked to cancel. The
    /// request is passed upstream (the parent is resolved: nothing runs). A fulfilled delay is
    /// not shortened: the output fulfils, only from the timer. A cancelled one is cancelled
    /// at once by the request (rule 23), or when the timer fires.
    @Sendable static func delayTimerVsCancel(upstreamCancelled: Bool) -> ScenarioRun {
        let log = EventLog()
        let parent = upstreamCancelled ? Promise<Int, Never>(with: .cancelled) : Promise(fulfilled: 1)
        let output = parent.delay(on: .utility, 3600)
        output.always(on: .immediate) { result in log.record("observer \(describe(result))") }
        let box = Kept(output._box)
        let outputBox = output._box
        return ScenarioRun(threads: [
            { log.record("fire"); firing(outputBox, log)(); log.record("fired") },
            requestingCancel(output, log),
        ], check: {
            let result = describe(box.value?.result)
            let expected = upstreamCancelled ? "cancelled" : "value(1)"
            let problem = firstProblem(
                expect(result == expected, "output \(result) (rule 23)"),
                expect(log.all.filter { $0.hasPrefix("observer") } == ["observer \(expected)"], "observer events for \(expected)"),
                expect(upstreamCancelled || log.happened("firing", before: "observer value(1)"),
                       "a fulfilled delay ended before its timer fired (rule 23)"),
                expect(!upstreamCancelled || !log.happened("requested", before: "firing") || log.happened("observer cancelled", before: "requested"),
                       "a cancelled delay was not cancelled at once by the request (rule 23)"),
                checkResolvedCore("output", box.value!))
            return firstProblem(problem, releasedOnce(box, nil, "the output"))
        })
    }

    /// Rules 1, 23: `init(on:with:after:)`: the timer fires (on a scenario thread) while the
    /// promise is asked to cancel. A request before the timer fired cancels the promise at
    /// once and drops the stored value before it returns (rule 23); a timer that fired first
    /// fulfils it; the
    /// value is released exactly once either way, the observer sees the result once.
    @Sendable static func afterTimerVsCancel() -> ScenarioRun {
        let log = EventLog(), counter = ReleaseCounter(), valueCounter = ReleaseCounter()
        let promise = Promise<Tracked, Never>(on: .utility, with: .value(Tracked(valueCounter)), after: 3600)
        let inObserver = Tracked(counter)
        promise.always(on: .immediate) { result in
            inObserver.use(); log.record("observer \(describe(result).hasPrefix("value") ? "value(1)" : describe(result))")
        }
        let box = Kept(promise._box)
        let core = promise._box
        return ScenarioRun(threads: [
            { log.record("fire"); firing(core, log)(); log.record("fired") },
            {
                log.record("request")
                promise.requestCancel()
                log.record("requested")
                log.record("value released \(valueCounter.released.load(ordering: .relaxed)) when the request returned")
            },
        ], check: {
            let stored = describe(box.value?.result)
            let result = stored.hasPrefix("value") ? "value(1)" : stored
            let released = valueCounter.released.load(ordering: .relaxed)
            let problem = firstProblem(
                expect(result == "value(1)" || result == "cancelled", "result \(result)"),
                expect(!log.happened("requested", before: "fire") || result == "cancelled", "asked before the timer fired, \(result) (rule 23)"),
                expect(!log.happened("fired", before: "request") || result == "value(1)", "the timer fired first, \(result)"),
                expect(!log.happened("requested", before: "firing") || log.happened("observer cancelled", before: "requested"),
                       "asked before the timer fired, not cancelled at once (rule 23)"),
                expect(result != "cancelled" || released == 1, "cancelled, but the stored value was not dropped (rule 23)"),
                expect(!log.happened("requested", before: "firing") || log.index("value released 1 when the request returned") != nil,
                       "asked before the timer fired, the stored value was still held when the request returned (rule 23)"),
                expect(log.all.filter { $0.hasPrefix("observer") } == ["observer \(result)"], "observer events for \(result)"),
                checkResolvedCore("promise", box.value!))
            return firstProblem(problem, releasedOnce(box, counter), valueCounter.problem)
        })
    }

    // MARK: Combinators

    /// Rule 20: `when(fulfilled:)` over two inputs fulfilled on two threads: each then runs
    /// the assembly (which `when` dispatches) if it was handed over. The countdown reaches
    /// zero once: the assembly runs once and sees both values.
    @Sendable static func whenFulfilledTwoInputs() -> ScenarioRun {
        let log = EventLog()
        let (a, resolverA) = Promise<Int, Never>.makeWithResolver()
        let (b, resolverB) = Promise<Int, Never>.makeWithResolver()
        let output = when(fulfilled: [a, b])
        let box = Kept(output._box)
        let outputBox = output._box
        return ScenarioRun(threads: [
            { resolverA.fulfill(with: 1); firing(outputBox, log)() },
            { resolverB.fulfill(with: 2); firing(outputBox, log)() },
        ], check: {
            let result = describe(box.value?.result)
            let problem = firstProblem(
                expect(result == "value([1, 2])", "output \(result) (rule 20)"),
                expect(log.count("firing") == 1, "the assembly ran \(log.count("firing")) times"),
                checkResolvedCore("output", box.value!))
            return firstProblem(problem, releasedOnce(box, nil, "the output"))
        })
    }

    /// Rules 3, 5, 20: `when(fulfilled:)`'s output asked to cancel while its input (whose
    /// handler records requests) fulfils: the request reaches the input as its one observer
    /// if made before the fulfilment, never after it; the output fulfils from the assembly.
    @Sendable static func whenFulfilledVsCancel() -> ScenarioRun {
        let log = EventLog()
        let (a, resolverA) = Promise<Int, Never>.makeWithResolver()
        resolverA.onRequestCancel(on: .immediate) { _ in log.record("handler") }
        let output = when(fulfilled: [a])
        let box = Kept(output._box), boxA = Kept(a._box)
        let outputBox = output._box
        return ScenarioRun(threads: [
            { log.record("fulfil"); resolverA.fulfill(with: 1); log.record("fulfilled"); firing(outputBox, log)() },
            requestingCancel(output, log),
        ], check: {
            let result = describe(box.value?.result)
            let problem = firstProblem(
                expect(result == "value([1])", "output \(result) (rule 20)"),
                cancelHandlerRules(log, request: ("request", "requested")),
                expect(log.count("firing") == 1, "the output fulfilled without its assembly"),
                checkResolvedCore("output", box.value!), checkResolvedCore("input", boxA.value!))
            return firstProblem(problem, releasedOnce(box, nil, "the output"), releasedOnce(boxA, nil, "the input"))
        })
    }

    /// Rule 21: `when(first:)` over two inputs, one fulfilled and one rejected on two
    /// threads: the first to fulfil or reject wins, the output has its result (an input that
    /// resolved before the other began cannot lose).
    @Sendable static func whenFirstRace() -> ScenarioRun {
        let log = EventLog()
        let (a, resolverA) = Promise<Int, ScenarioError>.makeWithResolver()
        let (b, resolverB) = Promise<Int, ScenarioError>.makeWithResolver()
        let output = when(first: [a, b])
        let box = Kept(output._box), boxA = Kept(a._box), boxB = Kept(b._box)
        return ScenarioRun(threads: [
            { log.record("fulfil a"); resolverA.fulfill(with: 1); log.record("fulfilled a") },
            { log.record("reject b"); resolverB.reject(with: .failed); log.record("rejected b") },
        ], check: {
            let result = describe(box.value?.result)
            let problem = firstProblem(
                expect(result == "value(1)" || result == "error(failed)", "output \(result) (rule 21)"),
                expect(result != "value(1)" || !log.happened("rejected b", before: "fulfil a"), "b rejected before a's fulfilment began, a won (rule 21)"),
                expect(result != "error(failed)" || !log.happened("fulfilled a", before: "reject b"), "a fulfilled before b's rejection began, b won (rule 21)"),
                checkResolvedCore("output", box.value!), checkResolvedCore("a", boxA.value!), checkResolvedCore("b", boxB.value!))
            return firstProblem(problem, releasedOnce(box, nil, "the output"), releasedOnce(boxA, nil, "a"), releasedOnce(boxB, nil, "b"))
        })
    }
}
#endif
