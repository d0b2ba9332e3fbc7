// The input of ConvertBodyTests' runtime check: ConvertedBehaviour.swift (compiled into the tests)
// is exactly what add-async-twins and convert-body make of this file.

import Foundation
import Tomorrowland
import TomorrowlandAsync

/// The queue the chain's `map` names; marked so that a closure can tell it runs there.
let behaviourQueue = DispatchQueue(label: "convert-body.behaviour")
let behaviourKey = DispatchSpecificKey<String>()
/// Marks the main queue, for `.nowOr(.main)`'s checks (set by the tests).
let mainQueueKey = DispatchSpecificKey<Bool>()

/// What the chain's closures and its source saw.
final class Observed: @unchecked Sendable {
    private let lock = NSLock()
    private var placesSeen: [String] = []
    private var cancelRequested = false
    private var sourceStarted = false

    var places: [String] { lock.withLock { placesSeen } }
    var cancelled: Bool { lock.withLock { cancelRequested } }
    var started: Bool { lock.withLock { sourceStarted } }

    func ran() {
        let place = DispatchQueue.getSpecific(key: behaviourKey) ?? "elsewhere"
        lock.withLock { placesSeen.append(place) }
    }

    /// Like `ran()`, naming the main queue "main" (the tests mark it with `mainQueueKey`).
    func ranOnMain() {
        let place = DispatchQueue.getSpecific(key: mainQueueKey) == true ? "main" : "elsewhere"
        lock.withLock { placesSeen.append(place) }
    }

    func start() { lock.withLock { sourceStarted = true } }

    func cancel() { lock.withLock { cancelRequested = true } }
}

enum BehaviourError: Error, Equatable {
    case failed
}

/// A value for a positive input, an error for a negative one, and for 0 a promise that
/// stays pending until it is asked to cancel.
func behaviourSource(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
    if input > 0 { return Promise(fulfilled: input) }
    if input < 0 { return Promise(rejected: .failed) }
    return Promise(on: .immediate) { resolver in
        observed.start()
        resolver.onRequestCancel(on: .immediate) { resolver in
            observed.cancel()
            resolver.cancel()
        }
    }
}

/// A value for a positive input, an error for a negative one, and for 0 a promise that
/// stays pending until it is asked to cancel.
///
/// Async twin of `behaviourSource(_:observed:)` (added by tomorrowland-migrate): awaits the promise it returns.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func behaviourSource(_ input: Int, observed: Observed) async throws -> Int {
    try await (behaviourSource(input, observed: observed) as Promise<Int, BehaviourError>).value
}

/// Doubles the source's value on `behaviourQueue`.
func doubled(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await doubled(input, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
}

/// Doubles the source's value on `behaviourQueue`.
///
/// Async twin of `doubled(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func doubled(_ input: Int, observed: Observed) async throws -> Int {
    let value = try await behaviourSource(input, observed: observed)
    return await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
        observed.ran()
        return value * 2
    }
}

/// What happened, in order: the statements before a chain, the caller's own steps, the chain's
/// closures.
final class Events: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    var all: [String] { lock.withLock { list } }

    func add(_ event: String) {
        lock.withLock { list.append(event) }
    }
}

/// A statement before the chain (it ran during the call), an early rejection for 7, then the
/// source's value plus one on `behaviourQueue`.
func incremented(_ input: Int, events: Events, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await incremented(input, events: events, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
}

/// A statement before the chain (it ran during the call), an early rejection for 7, then the
/// source's value plus one on `behaviourQueue`.
///
/// Async twin of `incremented(_:events:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func incremented(_ input: Int, events: Events, observed: Observed) async throws -> Int {
    events.add("before \(input)")
    guard input != 7 else { throw BehaviourError.failed }
    let value = try await behaviourSource(input, observed: observed)
    return await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
        observed.ran()
        events.add("map")
        return value + 1
    }
}

/// A rejected source recovered by another promise, made on `behaviourQueue`.
func recovered(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await recovered(input, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
}

/// A rejected source recovered by another promise, made on `behaviourQueue`.
///
/// Async twin of `recovered(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func recovered(_ input: Int, observed: Observed) async throws -> Int {
    do {
        return try await behaviourSource(input, observed: observed)
    } catch let error where !(error is CancellationError) {
        return await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            observed.ran()
            return 0
        }
    }
}

/// A service whose chain captures `[weak self]`.
final class Counting: Sendable {
    let events: Events

    init(events: Events) {
        self.events = events
    }

    func counted(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
        StdPromise(on: .immediate) { try await self.counted(input, observed: observed) }
            .mapError(on: .immediate) { $0 as! BehaviourError }
    }

    /// Async twin of `counted(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
    /// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
    /// requests cancellation of the promise.
    nonisolated(nonsending) func counted(_ input: Int, observed: Observed) async throws -> Int {
        let value = try await behaviourSource(input, observed: observed)
        self.events.add("counted \(value)")
        return value
    }
}

/// `source`'s value, shown (`then`) and doubled on `behaviourQueue` (`map`), both registered with
/// `token`: skipped if it is invalidated after the call (the `map` then cancels the promise).
func shown(_ source: Promise<Int, BehaviourError>, token: PromiseInvalidationToken, events: Events, observed: Observed)
    -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await shown(source, token: token, events: events, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
}

/// `source`'s value, shown (`then`) and doubled on `behaviourQueue` (`map`), both registered with
/// `token`: skipped if it is invalidated after the call (the `map` then cancels the promise).
///
/// Async twin of `shown(_:token:events:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func shown(
    _ source: Promise<Int, BehaviourError>,
    token: PromiseInvalidationToken,
    events: Events,
    observed: Observed
) async throws -> Int {
    let validity = token.validity()
    let value = try await source.value
    if validity.isValid {
        events.add("shown \(value)")
    }
    return try await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
        guard validity.isValid else { throw CancellationError() }
        observed.ran()
        return value * 2
    }
}

/// The source's value plus one; a final `tap` records the result (a value, the typed error or
/// the cancellation) on `behaviourQueue`.
func tapped(_ input: Int, events: Events, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await tapped(input, events: events, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
}

/// The source's value plus one; a final `tap` records the result (a value, the typed error or
/// the cancellation) on `behaviourQueue`.
///
/// Async twin of `tapped(_:events:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func tapped(_ input: Int, events: Events, observed: Observed) async throws -> Int {
    let result: PromiseResult<Int, BehaviourError>
    do {
        let value = try await behaviourSource(input, observed: observed)
        result = .value(value + 1)
    } catch let error as BehaviourError {
        result = .error(error)
    } catch {
        result = .cancelled
    }
    Task(executorPreference: PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
        observed.ran()
        switch result {
        case .value(let value): events.add("value \(value)")
        case .error(let error): events.add("error \(error)")
        case .cancelled: events.add("cancelled")
        }
    }
    switch result {
    case .value(let value): return value
    case .error(let error): throw error
    case .cancelled: throw CancellationError()
    }
}

/// A final `tap` that captures a property (`[journal]`, as Fleet's `DispatchCenter.eta(of:)`):
/// 1.x read it when the chain was built, during the call; a journal set afterwards is not the one
/// the `tap` writes to.
final class Dispatcher: @unchecked Sendable {
    var journal: Events

    init(journal: Events) {
        self.journal = journal
    }

    /// The source's value plus one; a final `tap` on `behaviourQueue` logs the result in the captured journal.
    func eta(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
        StdPromise(on: .immediate) { try await self.eta(input, observed: observed) }
            .mapError(on: .immediate) { $0 as! BehaviourError }
    }

    /// The source's value plus one; a final `tap` on `behaviourQueue` logs the result in the captured journal.
    ///
    /// Async twin of `eta(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
    /// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
    /// requests cancellation of the promise.
    nonisolated(nonsending) func eta(_ input: Int, observed: Observed) async throws -> Int {
        let journal2 = journal
        let result: PromiseResult<Int, BehaviourError>
        do {
            let value = try await behaviourSource(input, observed: observed)
            result = .value(value + 1)
        } catch let error as BehaviourError {
            result = .error(error)
        } catch {
            result = .cancelled
        }
        Task(executorPreference: PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent [journal = journal2] in
            observed.ran()
            journal.add("eta \(result.value.map(String.init) ?? "-")")
        }
        switch result {
        case .value(let value): return value
        case .error(let error): throw error
        case .cancelled: throw CancellationError()
        }
    }
}

/// The source's value plus one; a final `tap` that does not read the result records that it ran,
/// on `behaviourQueue`, whatever the result (a cancellation too).
func noted(_ input: Int, events: Events, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await noted(input, events: events, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
}

/// The source's value plus one; a final `tap` that does not read the result records that it ran,
/// on `behaviourQueue`, whatever the result (a cancellation too).
///
/// Async twin of `noted(_:events:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func noted(_ input: Int, events: Events, observed: Observed) async throws -> Int {
    defer {
        Task(executorPreference: PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            observed.ran()
            events.add("noted")
        }
    }
    let value = try await behaviourSource(input, observed: observed)
    return value + 1
}

/// The source's value, untyped; a final `always` reads the result.
func settled(_ input: Int, events: Events, observed: Observed) -> StdPromise<Int> {
    StdPromise(on: .immediate) { try await settled(input, events: events, observed: observed) }
}

/// The source's value, untyped; a final `always` reads the result.
///
/// Async twin of `settled(_:events:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's error, or `CancellationError` when it is cancelled; cancelling the awaiting Task requests
/// cancellation of the promise.
nonisolated(nonsending) func settled(_ input: Int, events: Events, observed: Observed) async throws -> Int {
    let result: PromiseResult<Int, Swift.Error>
    do {
        let value2 = try await behaviourSource(input, observed: observed)
        result = .value(value2)
    } catch is CancellationError {
        result = .cancelled
    } catch {
        result = .error(error)
    }
    events.add(result.isCancelled ? "cancelled" : result.value.map { "value \($0)" } ?? "error \(result.error!)")
    switch result {
    case .value(let value): return value
    case .error(let error): throw error
    case .cancelled: throw CancellationError()
    }
}

/// The source's value plus one, then shown; an `onCancel` between them records a cancellation
/// on `behaviourQueue` (the `then` after it does not run then).
func watched(_ input: Int, events: Events, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await watched(input, events: events, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
}

/// The source's value plus one, then shown; an `onCancel` between them records a cancellation
/// on `behaviourQueue` (the `then` after it does not run then).
///
/// Async twin of `watched(_:events:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func watched(_ input: Int, events: Events, observed: Observed) async throws -> Int {
    let result: Int
    do {
        let value = try await behaviourSource(input, observed: observed)
        result = value + 1
    } catch let error as CancellationError {
        await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            observed.ran()
            events.add("cancelled")
        }
        throw error
    }
    let value = result
    events.add("shown \(value)")
    return value
}

/// The source's value plus one, or `PromiseTimeoutError<BehaviourError>.timedOut` after `seconds`
/// (a final `timeout`: timing out asks the source to cancel); a statement before the chain.
func bounded(_ input: Int, within seconds: TimeInterval, events: Events, observed: Observed) -> Promise<Int, PromiseTimeoutError<BehaviourError>> {
    StdPromise(on: .immediate) { try await bounded(input, within: seconds, events: events, observed: observed) }
        .mapError(on: .immediate) { $0 as! PromiseTimeoutError<BehaviourError> }
}

/// The source's value plus one, or `PromiseTimeoutError<BehaviourError>.timedOut` after `seconds`
/// (a final `timeout`: timing out asks the source to cancel); a statement before the chain.
///
/// Async twin of `bounded(_:within:events:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `PromiseTimeoutError<BehaviourError>`, or `CancellationError` when it is cancelled; cancelling
/// the awaiting Task requests cancellation of the promise.
nonisolated(nonsending) func bounded(
    _ input: Int,
    within seconds: TimeInterval,
    events: Events,
    observed: Observed
) async throws -> Int {
    events.add("before \(input)")
    func untimed() async throws -> Int {
        let value = try await behaviourSource(input, observed: observed)
        return value + 1
    }
    do {
        return try await StdPromise(on: .immediate) { try await untimed() }.timeout(on: .queue(behaviourQueue), delay: seconds).value
    } catch is PromiseTimeoutError<Swift.Error> {
        throw PromiseTimeoutError<BehaviourError>.timedOut
    } catch let error as BehaviourError {
        throw PromiseTimeoutError<BehaviourError>.rejected(error)
    }
}

/// The source's value plus one, passed on `seconds` late on `behaviourQueue` (a final `delay`
/// after a step, as Orders' `fetchStatus`: a value, an error and a cancellation alike); a
/// statement before the chain.
func delayedIncrement(_ input: Int, by seconds: TimeInterval, events: Events, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await delayedIncrement(input, by: seconds, events: events, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
        .always(on: .queue(behaviourQueue)) { _ in }
}

/// The source's value plus one, passed on `seconds` late on `behaviourQueue` (a final `delay`
/// after a step, as Orders' `fetchStatus`: a value, an error and a cancellation alike); a
/// statement before the chain.
///
/// Async twin of `delayedIncrement(_:by:events:observed:)` (added by tomorrowland-migrate): awaits the promise it
/// returns.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func delayedIncrement(
    _ input: Int,
    by seconds: TimeInterval,
    events: Events,
    observed: Observed
) async throws -> Int {
    events.add("before \(input)")
    func undelayed() async throws -> Int {
        let value = try await behaviourSource(input, observed: observed)
        return value + 1
    }
    return try await StdPromise(on: .immediate) { try await undelayed() }.delay(on: .queue(behaviourQueue), seconds).value
}

/// The source's value plus one; a cancel request on the promise never reaches the source (a
/// final `ignoringCancel` after a step).
func uncancellableIncrement(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await uncancellableIncrement(input, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
}

/// The source's value plus one; a cancel request on the promise never reaches the source (a
/// final `ignoringCancel` after a step).
///
/// Async twin of `uncancellableIncrement(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func uncancellableIncrement(_ input: Int, observed: Observed) async throws -> Int {
    func steps() async throws -> Int {
        let value = try await behaviourSource(input, observed: observed)
        return value + 1
    }
    return try await StdPromise(on: .immediate) { try await steps() }.ignoringCancel().value
}

/// An actor's chain, as Ledger's `SyncCoordinator.sync(_:)`: a statement before it, then a `then`
/// and an `always` on the actor (no context). 1.x ran both after the call returned, even when the
/// source had resolved: a second call made right after the first starts before the first is done.
actor Journal {
    private(set) var entries: [String] = []
    private(set) var inFlight = 0

    func record(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
        StdPromise(on: .immediate) { try await self.record(input, observed: observed) }
            .mapError(on: .immediate) { $0 as! BehaviourError }
    }

    /// Async twin of `record(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
    /// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
    /// requests cancellation of the promise.
    func record(_ input: Int, observed: Observed) async throws -> Int {
        inFlight += 1
        entries.append("start \(input)")
        defer {
            self.inFlight -= 1
        }
        let value = try await Task.yieldingAfter { try await behaviourSource(input, observed: observed) }
        self.entries.append("done \(value)")
        return value
    }

    /// Two records, one right after the other, in one call on the actor.
    func recordTwice(_ first: Int, _ second: Int, observed: Observed) -> [Promise<Int, BehaviourError>] {
        let promises = [record(first, observed: observed), record(second, observed: observed)]
        entries.append("both started")
        entries.append("in flight \(inFlight)")
        return promises
    }
}

/// The same on the main actor, with `.main`: 1.x enqueued the `map` on the main queue.
@MainActor final class Screen {
    private(set) var entries: [String] = []

    func show(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
        StdPromise(on: .immediate) { try await self.show(input, observed: observed) }
            .mapError(on: .immediate) { $0 as! BehaviourError }
    }

    /// Async twin of `show(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
    /// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
    /// requests cancellation of the promise.
    func show(_ input: Int, observed: Observed) async throws -> Int {
        entries.append("start \(input)")
        let value = try await Task.yieldingAfter { try await behaviourSource(input, observed: observed) }
        self.entries.append("shown \(value)")
        return value
    }
}

/// A nonisolated chain whose `map` (no context) waits for the caller's signal: 1.x ran it on a
/// queue, beside the caller; run inline in the call it would wait for its own caller, and time out.
func waitingForTheCaller(_ input: Int, next: DispatchSemaphore, observed: Observed) -> Promise<Bool, BehaviourError> {
    StdPromise(on: .immediate) { try await waitingForTheCaller(input, next: next, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
}

/// A nonisolated chain whose `map` (no context) waits for the caller's signal: 1.x ran it on a
/// queue, beside the caller; run inline in the call it would wait for its own caller, and time out.
///
/// Async twin of `waitingForTheCaller(_:next:observed:)` (added by tomorrowland-migrate): awaits the promise it
/// returns.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func waitingForTheCaller(
    _ input: Int,
    next: DispatchSemaphore,
    observed: Observed
) async throws -> Bool {
    _ = try await Task.yieldingAfter { try await behaviourSource(input, observed: observed) }
    return next.wait(timeout: .now() + 1) == .success
}

/// `.nowOr(.queue(q))` on the chain's base (issue 39): 1.x ran the closure at once, in the call,
/// when `source` had already resolved, and on q once it resolved otherwise.
func nowOrIncremented(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await nowOrIncremented(source, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
        .then(on: .nowOr(.queue(behaviourQueue))) { _ in }
}

/// `.nowOr(.queue(q))` on the chain's base (issue 39): 1.x ran the closure at once, in the call,
/// when `source` had already resolved, and on q once it resolved otherwise.
///
/// Async twin of `nowOrIncremented(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func nowOrIncremented(
    _ source: Promise<Int, BehaviourError>,
    observed: Observed
) async throws -> Int {
    let promise = source
    // 1.x's `.nowOr`: at once if it had already resolved here, else on its context.
    let resolvedAtOnce = promise.result != nil
    let value = try await (consume promise).value
    let result: Int
    if resolvedAtOnce {
        observed.ran()
        result = value + 1
    } else {
        result = await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            observed.ran()
            return value + 1
        }
    }
    return result
}

/// The same with `then`, after which a named context runs: its promise cannot have resolved when
/// the `.nowOr` step was registered, so that step ran on q.
func nowOrNoted(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await nowOrNoted(source, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
        .then(on: .nowOr(.queue(behaviourQueue))) { _ in }
}

/// The same with `then`, after which a named context runs: its promise cannot have resolved when
/// the `.nowOr` step was registered, so that step ran on q.
///
/// Async twin of `nowOrNoted(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func nowOrNoted(
    _ source: Promise<Int, BehaviourError>,
    observed: Observed
) async throws -> Int {
    let promise = source
    // 1.x's `.nowOr`: at once if it had already resolved here, else on its context.
    let resolvedAtOnce = promise.result != nil
    let value = try await (consume promise).value
    if resolvedAtOnce {
        observed.ran()
    } else {
        await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            observed.ran()
        }
    }
    let result = await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
        value * 2
    }
    await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
        observed.ran()
    }
    return result
}

/// `mapResult` on q: a rejection becomes -1, a cancellation stays one.
func settledOrMinusOne(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
    StdPromise(on: .immediate) { try await settledOrMinusOne(input, observed: observed) }
        .recover(on: .immediate) { _ in preconditionFailure("the async settledOrMinusOne throws only CancellationError") }
}

/// `mapResult` on q: a rejection becomes -1, a cancellation stays one.
///
/// Async twin of `settledOrMinusOne(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws only `CancellationError`, when that promise is cancelled; cancelling the awaiting Task requests cancellation
/// of the promise.
nonisolated(nonsending) func settledOrMinusOne(
    _ input: Int,
    observed: Observed
) async throws(CancellationError) -> Int {
    let result = await behaviourSource(input, observed: observed).resolvedResult
    let mapped: PromiseResult<Int, NoError>
    mapped = await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
        observed.ran()
        switch result {
        case .value(let value): return .value(value)
        case .error: return .value(-1)
        case .cancelled: return .cancelled
        }
    }
    switch mapped {
    case .value(let value): return value
    case .error(let error): switch error {}
    case .cancelled: throw CancellationError()
    }
}

/// `mapResult` with a typed error: a value of 1 becomes an error.
func rejectingOne(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await rejectingOne(input, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
}

/// `mapResult` with a typed error: a value of 1 becomes an error.
///
/// Async twin of `rejectingOne(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func rejectingOne(_ input: Int, observed: Observed) async throws -> Int {
    let result = await behaviourSource(input, observed: observed).resolvedResult
    let mapped: PromiseResult<Int, BehaviourError>
    mapped = {
        if case .value(1) = result { return .error(.failed) }
        return result
    }()
    switch mapped {
    case .value(let value): return value
    case .error(let error): throw error
    case .cancelled: throw CancellationError()
    }
}

/// `flatMap` on `.nowOr(.queue(q))`: the closure's promise, awaited on either path.
func nowOrChained(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await nowOrChained(source, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
        .then(on: .nowOr(.queue(behaviourQueue))) { _ in }
}

/// `flatMap` on `.nowOr(.queue(q))`: the closure's promise, awaited on either path.
///
/// Async twin of `nowOrChained(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func nowOrChained(
    _ source: Promise<Int, BehaviourError>,
    observed: Observed
) async throws -> Int {
    let promise = source
    // 1.x's `.nowOr`: at once if it had already resolved here, else on its context.
    let resolvedAtOnce = promise.result != nil
    let value = try await (consume promise).value
    let result: Int
    if resolvedAtOnce {
        result = try await behaviourSource(value + 1, observed: observed)
    } else {
        result = try await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            try await behaviourSource(value + 1, observed: observed)
        }
    }
    return result
}

/// `.nowOr(.main)` off the main actor (issue 37): the closure ran in the call when `source` had
/// resolved and the caller was on the main queue, else on the main queue.
func nowOrMainIncremented(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await nowOrMainIncremented(source, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
        .then(on: .nowOr(.main)) { _ in }
}

/// `.nowOr(.main)` off the main actor (issue 37): the closure ran in the call when `source` had
/// resolved and the caller was on the main queue, else on the main queue.
///
/// Async twin of `nowOrMainIncremented(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func nowOrMainIncremented(
    _ source: Promise<Int, BehaviourError>,
    observed: Observed
) async throws -> Int {
    let promise = source
    // 1.x's `.nowOr(.main)`: at once if it had already resolved here and this is the main queue, else on the main queue.
    let resolvedAtOnce = promise.result != nil && PromiseContext.auto == .main
    let value = try await (consume promise).value
    let result: Int
    if resolvedAtOnce {
        result = {
            MainActor.assumeIsolated {
                observed.ranOnMain()
                return value + 1
            }
        }()
    } else {
        result = await MainActor.run {
            observed.ranOnMain()
            return value + 1
        }
    }
    return result
}

/// `mapResult` after a step (issue 39): the step's result, a cancellation included, is the closure's.
func doubledOrMinusOne(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
    StdPromise(on: .immediate) { try await doubledOrMinusOne(input, observed: observed) }
        .recover(on: .immediate) { _ in preconditionFailure("the async doubledOrMinusOne throws only CancellationError") }
}

/// `mapResult` after a step (issue 39): the step's result, a cancellation included, is the closure's.
///
/// Async twin of `doubledOrMinusOne(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws only `CancellationError`, when that promise is cancelled; cancelling the awaiting Task requests cancellation
/// of the promise.
nonisolated(nonsending) func doubledOrMinusOne(
    _ input: Int,
    observed: Observed
) async throws(CancellationError) -> Int {
    let result: PromiseResult<Int, BehaviourError>
    do {
        let value = try await behaviourSource(input, observed: observed)
        let value2 = await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            observed.ran()
            return value * 2
        }
        result = .value(value2)
    } catch let error as BehaviourError {
        result = .error(error)
    } catch {
        result = .cancelled
    }
    let mapped: PromiseResult<Int, NoError>
    mapped = await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
        observed.ran()
        switch result {
        case .value(let value): return .value(value)
        case .error: return .value(-1)
        case .cancelled: return .value(-2)
        }
    }
    switch mapped {
    case .value(let value): return value
    case .error(let error): switch error {}
    case .cancelled: throw CancellationError()
    }
}

/// `flatMapResult` after a step: a rejection is retried with `retry`'s source, a cancellation stays one.
func doubledOrRetried(_ input: Int, retry: Int, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await doubledOrRetried(input, retry: retry, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
}

/// `flatMapResult` after a step: a rejection is retried with `retry`'s source, a cancellation stays one.
///
/// Async twin of `doubledOrRetried(_:retry:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func doubledOrRetried(_ input: Int, retry: Int, observed: Observed) async throws -> Int {
    let result: PromiseResult<Int, BehaviourError>
    do {
        let value2 = try await behaviourSource(input, observed: observed) * 2
        result = .value(value2)
    } catch let error as BehaviourError {
        result = .error(error)
    } catch {
        result = .cancelled
    }
    return try await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
        observed.ran()
        switch result {
        case .value(let value): return value
        case .error: return try await behaviourSource(retry, observed: observed)
        case .cancelled: throw CancellationError()
        }
    }
}

/// `recover` on `.nowOr(.queue(q))` (issue 37): at once, in the call, on a base that had already
/// rejected, else on q once it rejected.
func nowOrRecovered(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, NoError> {
    StdPromise(on: .immediate) { try await nowOrRecovered(source, observed: observed) }
        .recover(on: .immediate) { _ in preconditionFailure("the async nowOrRecovered throws only CancellationError") }
        .then(on: .nowOr(.queue(behaviourQueue))) { _ in }
}

/// `recover` on `.nowOr(.queue(q))` (issue 37): at once, in the call, on a base that had already
/// rejected, else on q once it rejected.
///
/// Async twin of `nowOrRecovered(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws only `CancellationError`, when that promise is cancelled; cancelling the awaiting Task requests cancellation
/// of the promise.
nonisolated(nonsending) func nowOrRecovered(
    _ source: Promise<Int, BehaviourError>,
    observed: Observed
) async throws(CancellationError) -> Int {
    let promise = source
    // 1.x's `.nowOr`: at once if it had already resolved here, else on its context.
    let resolvedAtOnce = promise.result != nil
    do {
        return try await (consume promise).value
    } catch let error as CancellationError {
        throw error
    } catch {
        let value: Int
        if resolvedAtOnce {
            observed.ran()
            value = -1
        } else {
            value = await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
                observed.ran()
                return -1
            }
        }
        return value
    }
}

/// A `flatMap` of several statements on `.nowOr(.queue(q))`: its promise, awaited on either path.
func nowOrCheckedAndChained(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await nowOrCheckedAndChained(source, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
        .then(on: .nowOr(.queue(behaviourQueue))) { _ in }
}

/// A `flatMap` of several statements on `.nowOr(.queue(q))`: its promise, awaited on either path.
///
/// Async twin of `nowOrCheckedAndChained(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func nowOrCheckedAndChained(
    _ source: Promise<Int, BehaviourError>,
    observed: Observed
) async throws -> Int {
    let promise = source
    // 1.x's `.nowOr`: at once if it had already resolved here, else on its context.
    let resolvedAtOnce = promise.result != nil
    let value = try await (consume promise).value
    let next: Promise<Int, BehaviourError>
    if resolvedAtOnce {
        next = {
            observed.ran()
            guard value < 100 else { return Promise(rejected: .failed) }
            return behaviourSource(value * 2, observed: observed)
        }()
    } else {
        next = await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            observed.ran()
            guard value < 100 else { return Promise(rejected: .failed) }
            return behaviourSource(value * 2, observed: observed)
        }
    }
    return try await next.value
}

/// A `flatMap` of statements on `.nowOr(.main)` off the main actor: its promise made on the main
/// queue, in the call when `source` had resolved and the caller was on the main queue.
func nowOrMainChained(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await nowOrMainChained(source, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
        .then(on: .nowOr(.main)) { _ in }
}

/// A `flatMap` of statements on `.nowOr(.main)` off the main actor: its promise made on the main
/// queue, in the call when `source` had resolved and the caller was on the main queue.
///
/// Async twin of `nowOrMainChained(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func nowOrMainChained(
    _ source: Promise<Int, BehaviourError>,
    observed: Observed
) async throws -> Int {
    let promise = source
    // 1.x's `.nowOr(.main)`: at once if it had already resolved here and this is the main queue, else on the main queue.
    let resolvedAtOnce = promise.result != nil && PromiseContext.auto == .main
    let value = try await (consume promise).value
    let next: Promise<Int, BehaviourError>
    if resolvedAtOnce {
        next = {
            MainActor.assumeIsolated {
                observed.ranOnMain()
                guard value < 100 else { return Promise(rejected: .failed) }
                return Promise(fulfilled: value * 2)
            }
        }()
    } else {
        next = await MainActor.run {
            observed.ranOnMain()
            guard value < 100 else { return Promise(rejected: .failed) }
            return Promise(fulfilled: value * 2)
        }
    }
    return try await next.value
}

/// `tap` on `.nowOr(.queue(q))` (issue 37): the closure saw the result at once, in the call, when
/// `source` had resolved, else on q; the promise is the source's.
func nowOrTapped(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await nowOrTapped(source, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
}

/// `tap` on `.nowOr(.queue(q))` (issue 37): the closure saw the result at once, in the call, when
/// `source` had resolved, else on q; the promise is the source's.
///
/// Async twin of `nowOrTapped(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func nowOrTapped(
    _ source: Promise<Int, BehaviourError>,
    observed: Observed
) async throws -> Int {
    let promise = source
    // 1.x's `.nowOr`: at once if it had already resolved here, else on its context.
    let resolvedAtOnce = promise.result != nil
    let result: PromiseResult<Int, BehaviourError>
    do {
        let value2 = try await (consume promise).value
        result = .value(value2)
    } catch let error as BehaviourError {
        result = .error(error)
    } catch {
        result = .cancelled
    }
    if resolvedAtOnce {
        if result.value != nil { observed.ran() }
    } else {
        await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            if result.value != nil { observed.ran() }
        }
    }
    switch result {
    case .value(let value): return value
    case .error(let error): throw error
    case .cancelled: throw CancellationError()
    }
}

/// `always` on `.nowOr(.queue(q))`: at once when `source` had resolved, else on q, whatever the result.
func nowOrAlways(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await nowOrAlways(source, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
        .then(on: .nowOr(.queue(behaviourQueue))) { _ in }
}

/// `always` on `.nowOr(.queue(q))`: at once when `source` had resolved, else on q, whatever the result.
///
/// Async twin of `nowOrAlways(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func nowOrAlways(
    _ source: Promise<Int, BehaviourError>,
    observed: Observed
) async throws -> Int {
    let promise = source
    // 1.x's `.nowOr`: at once if it had already resolved here, else on its context.
    let resolvedAtOnce = promise.result != nil
    do {
        let value = try await (consume promise).value
        if resolvedAtOnce {
            observed.ran()
        } else {
            await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
                observed.ran()
            }
        }
        return value
    } catch {
        if resolvedAtOnce {
            observed.ran()
        } else {
            await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
                observed.ran()
            }
        }
        throw error
    }
}

/// `onCancel` on `.nowOr(.queue(q))`: at once when `source` had been cancelled, else on q once it is.
func nowOrOnCancel(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) { try await nowOrOnCancel(source, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
}

/// `onCancel` on `.nowOr(.queue(q))`: at once when `source` had been cancelled, else on q once it is.
///
/// Async twin of `nowOrOnCancel(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func nowOrOnCancel(
    _ source: Promise<Int, BehaviourError>,
    observed: Observed
) async throws -> Int {
    let promise = source
    // 1.x's `.nowOr`: at once if it had already resolved here, else on its context.
    let resolvedAtOnce = promise.result != nil
    let value: Int
    do {
        value = try await (consume promise).value
    } catch let error as CancellationError {
        if resolvedAtOnce {
            observed.ran()
        } else {
            await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
                observed.ran()
            }
        }
        throw error
    }
    return value
}

/// A `map` with a token on `.nowOr(.queue(q))`: skipped, its promise cancelled, once the token is invalidated.
func nowOrIncrementedUnlessInvalidated(_ source: Promise<Int, BehaviourError>, token: PromiseInvalidationToken,
                                       observed: Observed) -> Promise<Int, BehaviourError> {
    StdPromise(on: .immediate) {
        try await nowOrIncrementedUnlessInvalidated(source, token: token, observed: observed)
    }
        .mapError(on: .immediate) { $0 as! BehaviourError }
        .then(on: .nowOr(.queue(behaviourQueue))) { _ in }
}

/// A `map` with a token on `.nowOr(.queue(q))`: skipped, its promise cancelled, once the token is invalidated.
///
/// Async twin of `nowOrIncrementedUnlessInvalidated(_:token:observed:)` (added by tomorrowland-migrate): awaits the
/// promise it returns.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func nowOrIncrementedUnlessInvalidated(
    _ source: Promise<Int, BehaviourError>,
    token: PromiseInvalidationToken,
    observed: Observed
) async throws -> Int {
    let validity = token.validity()
    let promise = source
    // 1.x's `.nowOr`: at once if it had already resolved here, else on its context.
    let resolvedAtOnce = promise.result != nil
    let value = try await (consume promise).value
    let result: Int
    if resolvedAtOnce {
        guard validity.isValid else { throw CancellationError() }
        observed.ran()
        result = value + 1
    } else {
        result = try await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            guard validity.isValid else { throw CancellationError() }
            observed.ran()
            return value + 1
        }
    }
    return result
}

/// `PromiseContext.isExecutingNow` on `.nowOr(.queue(q))`: true when the closure ran at once.
func nowOrExecutingNow(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Bool, BehaviourError> {
    StdPromise(on: .immediate) { try await nowOrExecutingNow(source, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
        .then(on: .nowOr(.queue(behaviourQueue))) { _ in }
}

/// `PromiseContext.isExecutingNow` on `.nowOr(.queue(q))`: true when the closure ran at once.
///
/// Async twin of `nowOrExecutingNow(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func nowOrExecutingNow(
    _ source: Promise<Int, BehaviourError>,
    observed: Observed
) async throws -> Bool {
    let promise = source
    // 1.x's `.nowOr`: at once if it had already resolved here, else on its context.
    let resolvedAtOnce = promise.result != nil
    _ = try await (consume promise).value
    let value: Bool
    if resolvedAtOnce {
        observed.ran()
        value = resolvedAtOnce
    } else {
        value = await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            observed.ran()
            return resolvedAtOnce
        }
    }
    return value
}

/// `PromiseContext.isExecutingNow` on `.nowOr(.main)` off the main actor.
func nowOrMainExecutingNow(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Bool, BehaviourError> {
    StdPromise(on: .immediate) { try await nowOrMainExecutingNow(source, observed: observed) }
        .mapError(on: .immediate) { $0 as! BehaviourError }
        .then(on: .nowOr(.main)) { _ in }
}

/// `PromiseContext.isExecutingNow` on `.nowOr(.main)` off the main actor.
///
/// Async twin of `nowOrMainExecutingNow(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's `BehaviourError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
/// requests cancellation of the promise.
nonisolated(nonsending) func nowOrMainExecutingNow(
    _ source: Promise<Int, BehaviourError>,
    observed: Observed
) async throws -> Bool {
    let promise = source
    // 1.x's `.nowOr(.main)`: at once if it had already resolved here and this is the main queue, else on the main queue.
    let resolvedAtOnce = promise.result != nil && PromiseContext.auto == .main
    _ = try await (consume promise).value
    let value: Bool
    if resolvedAtOnce {
        value = {
            MainActor.assumeIsolated {
                observed.ranOnMain()
                return resolvedAtOnce
            }
        }()
    } else {
        value = await MainActor.run {
            observed.ranOnMain()
            return resolvedAtOnce
        }
    }
    return value
}

/// `mapResult` with a step after it (issue 37): the step after takes the closure's value.
func settledThenIncremented(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
    StdPromise(on: .immediate) { try await settledThenIncremented(input, observed: observed) }
        .recover(on: .immediate) { _ in preconditionFailure("the async settledThenIncremented throws only CancellationError") }
}

/// `mapResult` with a step after it (issue 37): the step after takes the closure's value.
///
/// Async twin of `settledThenIncremented(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws only `CancellationError`, when that promise is cancelled; cancelling the awaiting Task requests cancellation
/// of the promise.
nonisolated(nonsending) func settledThenIncremented(
    _ input: Int,
    observed: Observed
) async throws(CancellationError) -> Int {
    let result: PromiseResult<Int, BehaviourError>
    do {
        let value = try await behaviourSource(input, observed: observed)
        let value2 = await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            observed.ran()
            return value * 2
        }
        result = .value(value2)
    } catch let error as BehaviourError {
        result = .error(error)
    } catch {
        result = .cancelled
    }
    let mapped: PromiseResult<Int, NoError>
    mapped = await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
        observed.ran()
        switch result {
        case .value(let value): return .value(value)
        case .error: return .value(-1)
        case .cancelled: return .value(-2)
        }
    }
    let value3: Int
    switch mapped {
    case .value(let mappedValue): value3 = mappedValue
    case .error(let error): switch error {}
    case .cancelled: throw CancellationError()
    }
    let value = value3
    return await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
        observed.ran()
        return value + 1
    }
}

/// `mapResult` after `catch`: the closure reads the result of the `catch`'s promise.
func caughtThenSettled(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
    StdPromise(on: .immediate) { try await caughtThenSettled(input, observed: observed) }
        .recover(on: .immediate) { _ in preconditionFailure("the async caughtThenSettled throws only CancellationError") }
}

/// `mapResult` after `catch`: the closure reads the result of the `catch`'s promise.
///
/// Async twin of `caughtThenSettled(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws only `CancellationError`, when that promise is cancelled; cancelling the awaiting Task requests cancellation
/// of the promise.
nonisolated(nonsending) func caughtThenSettled(
    _ input: Int,
    observed: Observed
) async throws(CancellationError) -> Int {
    func steps() async throws -> Int {
        do {
            return try await behaviourSource(input, observed: observed)
        } catch let error where !(error is CancellationError) {
            await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
                observed.ran()
            }
            throw error
        }
    }
    let result: PromiseResult<Int, BehaviourError>
    do {
        let value2 = try await steps()
        result = .value(value2)
    } catch let error as BehaviourError {
        result = .error(error)
    } catch {
        result = .cancelled
    }
    let mapped: PromiseResult<Int, NoError>
    mapped = await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
        observed.ran()
        switch result {
        case .value(let value): return .value(value)
        case .error: return .value(-1)
        case .cancelled: return .value(-2)
        }
    }
    switch mapped {
    case .value(let value): return value
    case .error(let error): switch error {}
    case .cancelled: throw CancellationError()
    }
}

/// `mapResult` with a token: skipped, its promise cancelled, once the token is invalidated.
func settledUnlessInvalidated(_ input: Int, token: PromiseInvalidationToken, observed: Observed) -> Promise<Int, NoError> {
    StdPromise(on: .immediate) { try await settledUnlessInvalidated(input, token: token, observed: observed) }
        .recover(on: .immediate) { _ in preconditionFailure("the async settledUnlessInvalidated throws only CancellationError") }
}

/// `mapResult` with a token: skipped, its promise cancelled, once the token is invalidated.
///
/// Async twin of `settledUnlessInvalidated(_:token:observed:)` (added by tomorrowland-migrate): awaits the promise it
/// returns.
/// Throws only `CancellationError`, when that promise is cancelled; cancelling the awaiting Task requests cancellation
/// of the promise.
nonisolated(nonsending) func settledUnlessInvalidated(
    _ input: Int,
    token: PromiseInvalidationToken,
    observed: Observed
) async throws(CancellationError) -> Int {
    let validity = token.validity()
    let result = await behaviourSource(input, observed: observed).resolvedResult
    let mapped: PromiseResult<Int, NoError>
    mapped = try await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent () async throws(CancellationError) -> PromiseResult<Int, NoError> in
        guard validity.isValid else { throw CancellationError() }
        observed.ran()
        return .value(result.value ?? -1)
    }
    switch mapped {
    case .value(let value): return value
    case .error(let error): switch error {}
    case .cancelled: throw CancellationError()
    }
}

/// `mapResult` on `.nowOr(.queue(q))`: at once when `source` had resolved, else on q.
func nowOrSettled(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, NoError> {
    StdPromise(on: .immediate) { try await nowOrSettled(source, observed: observed) }
        .recover(on: .immediate) { _ in preconditionFailure("the async nowOrSettled throws only CancellationError") }
        .then(on: .nowOr(.queue(behaviourQueue))) { _ in }
}

/// `mapResult` on `.nowOr(.queue(q))`: at once when `source` had resolved, else on q.
///
/// Async twin of `nowOrSettled(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws only `CancellationError`, when that promise is cancelled; cancelling the awaiting Task requests cancellation
/// of the promise.
nonisolated(nonsending) func nowOrSettled(
    _ source: Promise<Int, BehaviourError>,
    observed: Observed
) async throws(CancellationError) -> Int {
    let promise = source
    // 1.x's `.nowOr`: at once if it had already resolved here, else on its context.
    let resolvedAtOnce = promise.result != nil
    let result = await (consume promise).resolvedResult
    let mapped: PromiseResult<Int, NoError>
    if resolvedAtOnce {
        mapped = {
            observed.ran()
            return .value(result.value ?? -1)
        }()
    } else {
        mapped = await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            observed.ran()
            return .value(result.value ?? -1)
        }
    }
    switch mapped {
    case .value(let value): return value
    case .error(let error): switch error {}
    case .cancelled: throw CancellationError()
    }
}

/// `mapResult` after a `flatMap`: the first promise's error is the closure's result too.
func chainedOrMinusOne(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
    StdPromise(on: .immediate) { try await chainedOrMinusOne(input, observed: observed) }
        .recover(on: .immediate) { _ in preconditionFailure("the async chainedOrMinusOne throws only CancellationError") }
}

/// `mapResult` after a `flatMap`: the first promise's error is the closure's result too.
///
/// Async twin of `chainedOrMinusOne(_:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws only `CancellationError`, when that promise is cancelled; cancelling the awaiting Task requests cancellation
/// of the promise.
nonisolated(nonsending) func chainedOrMinusOne(
    _ input: Int,
    observed: Observed
) async throws(CancellationError) -> Int {
    let result: PromiseResult<Int, BehaviourError>
    do {
        let value2 = try await behaviourSource(input, observed: observed)
        let value3 = try await behaviourSource(value2 - 3, observed: observed)
        result = .value(value3)
    } catch let error as BehaviourError {
        result = .error(error)
    } catch {
        result = .cancelled
    }
    let mapped: PromiseResult<Int, NoError>
    mapped = {
        observed.ran()
        return .value(result.value ?? -1)
    }()
    switch mapped {
    case .value(let value): return value
    case .error(let error): switch error {}
    case .cancelled: throw CancellationError()
    }
}

/// Stock behind a lock, whose chains take it with `lock(); defer { unlock() }` in a closure
/// (Kitchen's `InventoryStore`): in the twin, `withLock` holds it over the same statements.
final class BehaviourStock: @unchecked Sendable {
    private let lock = NSLock()
    private var stock: [String: Int] = [:]

    /// The level of `sku`, read under the lock (it would never return if a chain left it held).
    func level(of sku: String) -> Int {
        lock.withLock { stock[sku] ?? 0 }
    }

    /// Adds `amount` of `sku` after `delay`, on q, under the lock: the level after it.
    func restock(_ sku: String, amount: Int, after delay: TimeInterval, observed: Observed) -> Promise<Int, NoError> {
        StdPromise(on: .immediate) { try await self.restock(sku, amount: amount, after: delay, observed: observed) }
            .recover(on: .immediate) { _ in preconditionFailure("the async restock throws only CancellationError") }
    }

    /// Adds `amount` of `sku` after `delay`, on q, under the lock: the level after it.
    ///
    /// Async twin of `restock(_:amount:after:observed:)` (added by tomorrowland-migrate): awaits the promise it
    /// returns.
    /// Throws only `CancellationError`, when that promise is cancelled; cancelling the awaiting Task requests
    /// cancellation of the promise.
    nonisolated(nonsending) func restock(
        _ sku: String,
        amount: Int,
        after delay: TimeInterval,
        observed: Observed
    ) async throws(CancellationError) -> Int {
        let value = try await Promise<Int, NoError>(on: .utility, fulfilled: amount, after: delay).value
        return await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            return self.lock.withLock {
                observed.ran()
                self.stock[sku, default: 0] += value
                return self.stock[sku] ?? 0
            }
        }
    }

    /// Takes `source`'s value of `sku` out, under the lock, or throws: the lock is released either way.
    func take(_ sku: String, from source: Promise<Int, BehaviourError>) -> Promise<Int, Error> {
        StdPromise(on: .immediate) { try await self.take(sku, from: source) }
    }

    /// Takes `source`'s value of `sku` out, under the lock, or throws: the lock is released either way.
    ///
    /// Async twin of `take(_:from:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
    /// Throws the promise's error, or `CancellationError` when it is cancelled; cancelling the awaiting Task requests
    /// cancellation of the promise.
    nonisolated(nonsending) func take(_ sku: String, from source: Promise<Int, BehaviourError>) async throws -> Int {
        let amount = try await source.value
        return try await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
            return try self.lock.withLock {
                guard let have = self.stock[sku], have >= amount else { throw BehaviourError.failed }
                self.stock[sku] = have - amount
                return have - amount
            }
        }
    }
}

/// An oil change whose `always` on q clears what it set, on every outcome (Kitchen's
/// `FryerStation.changeOil(duration:)`, on a `Sendable` type), in a chain that cannot fail.
final class BehaviourFryer: @unchecked Sendable {
    private let lock = NSLock()
    private var change: Promise<Void, NoError>?
    private var changes = 0

    /// The oil change under way, if any.
    var changingOil: Promise<Void, NoError>? {
        get { lock.withLock { change } }
        set { lock.withLock { change = newValue } }
    }

    /// How many oil changes have started.
    var oilChanges: Int {
        get { lock.withLock { changes } }
        set { lock.withLock { changes = newValue } }
    }

    func changeOil(duration: TimeInterval, observed: Observed) -> Promise<Void, NoError> {
        StdPromise(on: .immediate) { try await self.changeOil(duration: duration, observed: observed) }
            .recover(on: .immediate) { _ in preconditionFailure("the async changeOil throws only CancellationError") }
    }

    /// Async twin of `changeOil(duration:observed:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
    /// Throws only `CancellationError`, when that promise is cancelled; cancelling the awaiting Task requests
    /// cancellation of the promise.
    nonisolated(nonsending) func changeOil(duration: TimeInterval, observed: Observed) async throws(CancellationError) {
        oilChanges += 1
        let change = Promise<Void, NoError>(on: .queue(behaviourQueue), fulfilled: (), after: duration)
        changingOil = change
        do {
            try await change.value
            await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
                observed.ran()
                self.changingOil = nil
            }
        } catch {
            await withTaskExecutorPreference(PromiseContext.queue(behaviourQueue).taskExecutor) { @concurrent in
                observed.ran()
                self.changingOil = nil
            }
            throw error
        }
    }
}
