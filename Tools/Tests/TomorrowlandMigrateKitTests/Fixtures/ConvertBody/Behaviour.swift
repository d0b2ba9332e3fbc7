// The input of ConvertBodyTests' runtime check: ConvertedBehaviour.swift (compiled into the tests)
// is exactly what add-async-twins and convert-body make of this file.

import Foundation
import Tomorrowland

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

/// Doubles the source's value on `behaviourQueue`.
func doubled(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
    behaviourSource(input, observed: observed).map(on: .queue(behaviourQueue)) { value in
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
    events.add("before \(input)")
    guard input != 7 else { return Promise(rejected: .failed) }
    return behaviourSource(input, observed: observed).map(on: .queue(behaviourQueue)) { value in
        observed.ran()
        events.add("map")
        return value + 1
    }
}

/// A rejected source recovered by another promise, made on `behaviourQueue`.
func recovered(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
    behaviourSource(input, observed: observed).flatMapError(on: .queue(behaviourQueue)) { _ in
        observed.ran()
        return Promise(fulfilled: 0)
    }
}

/// A service whose chain captures `[weak self]`.
final class Counting: Sendable {
    let events: Events

    init(events: Events) {
        self.events = events
    }

    func counted(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
        behaviourSource(input, observed: observed).map(on: .immediate) { [weak self] value in
            self?.events.add("counted \(value)")
            return value
        }
    }
}

/// `source`'s value, shown (`then`) and doubled on `behaviourQueue` (`map`), both registered with
/// `token`: skipped if it is invalidated after the call (the `map` then cancels the promise).
func shown(_ source: Promise<Int, BehaviourError>, token: PromiseInvalidationToken, events: Events, observed: Observed)
    -> Promise<Int, BehaviourError> {
    source.then(on: .immediate, token: token) { value in events.add("shown \(value)") }
        .map(on: .queue(behaviourQueue), token: token) { value in
            observed.ran()
            return value * 2
        }
}

/// The source's value plus one; a final `tap` records the result (a value, the typed error or
/// the cancellation) on `behaviourQueue`.
func tapped(_ input: Int, events: Events, observed: Observed) -> Promise<Int, BehaviourError> {
    behaviourSource(input, observed: observed).map(on: .immediate) { value in value + 1 }
        .tap(on: .queue(behaviourQueue)) { result in
            observed.ran()
            switch result {
            case .value(let value): events.add("value \(value)")
            case .error(let error): events.add("error \(error)")
            case .cancelled: events.add("cancelled")
            }
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
        behaviourSource(input, observed: observed).map(on: .immediate) { value in value + 1 }
            .tap(on: .queue(behaviourQueue)) { [journal] result in
                observed.ran()
                journal.add("eta \(result.value.map(String.init) ?? "-")")
            }
    }
}

/// The source's value plus one; a final `tap` that does not read the result records that it ran,
/// on `behaviourQueue`, whatever the result (a cancellation too).
func noted(_ input: Int, events: Events, observed: Observed) -> Promise<Int, BehaviourError> {
    behaviourSource(input, observed: observed).map(on: .immediate) { value in value + 1 }
        .tap(on: .queue(behaviourQueue)) { _ in
            observed.ran()
            events.add("noted")
        }
}

/// The source's value, untyped; a final `always` reads the result.
func settled(_ input: Int, events: Events, observed: Observed) -> StdPromise<Int> {
    behaviourSource(input, observed: observed).upcast.always(on: .immediate) { result in
        events.add(result.isCancelled ? "cancelled" : result.value.map { "value \($0)" } ?? "error \(result.error!)")
    }
}

/// The source's value plus one, then shown; an `onCancel` between them records a cancellation
/// on `behaviourQueue` (the `then` after it does not run then).
func watched(_ input: Int, events: Events, observed: Observed) -> Promise<Int, BehaviourError> {
    behaviourSource(input, observed: observed).map(on: .immediate) { value -> Int in value + 1 }
        .onCancel(on: .queue(behaviourQueue)) {
            observed.ran()
            events.add("cancelled")
        }
        .then(on: .immediate) { value in events.add("shown \(value)") }
}

/// The source's value plus one, or `PromiseTimeoutError<BehaviourError>.timedOut` after `seconds`
/// (a final `timeout`: timing out asks the source to cancel); a statement before the chain.
func bounded(_ input: Int, within seconds: TimeInterval, events: Events, observed: Observed) -> Promise<Int, PromiseTimeoutError<BehaviourError>> {
    events.add("before \(input)")
    return behaviourSource(input, observed: observed).map(on: .immediate) { value in value + 1 }
        .timeout(on: .queue(behaviourQueue), delay: seconds)
}

/// The source's value plus one, passed on `seconds` late on `behaviourQueue` (a final `delay`
/// after a step, as Orders' `fetchStatus`: a value, an error and a cancellation alike); a
/// statement before the chain.
func delayedIncrement(_ input: Int, by seconds: TimeInterval, events: Events, observed: Observed) -> Promise<Int, BehaviourError> {
    events.add("before \(input)")
    return behaviourSource(input, observed: observed).map(on: .immediate) { value in value + 1 }
        .delay(on: .queue(behaviourQueue), seconds)
}

/// The source's value plus one; a cancel request on the promise never reaches the source (a
/// final `ignoringCancel` after a step).
func uncancellableIncrement(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
    behaviourSource(input, observed: observed).map(on: .immediate) { value in value + 1 }.ignoringCancel()
}

/// An actor's chain, as Ledger's `SyncCoordinator.sync(_:)`: a statement before it, then a `then`
/// and an `always` on the actor (no context). 1.x ran both after the call returned, even when the
/// source had resolved: a second call made right after the first starts before the first is done.
actor Journal {
    private(set) var entries: [String] = []
    private(set) var inFlight = 0

    func record(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
        inFlight += 1
        entries.append("start \(input)")
        return behaviourSource(input, observed: observed)
            .then { value in
                self.entries.append("done \(value)")
            }
            .always { _ in
                self.inFlight -= 1
            }
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
        entries.append("start \(input)")
        return behaviourSource(input, observed: observed).map(on: .main) { value in
            self.entries.append("shown \(value)")
            return value
        }
    }
}

/// A nonisolated chain whose `map` (no context) waits for the caller's signal: 1.x ran it on a
/// queue, beside the caller; run inline in the call it would wait for its own caller, and time out.
func waitingForTheCaller(_ input: Int, next: DispatchSemaphore, observed: Observed) -> Promise<Bool, BehaviourError> {
    behaviourSource(input, observed: observed).map { _ in
        next.wait(timeout: .now() + 1) == .success
    }
}

/// `.nowOr(.queue(q))` on the chain's base (issue 39): 1.x ran the closure at once, in the call,
/// when `source` had already resolved, and on q once it resolved otherwise.
func nowOrIncremented(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    source.map(on: .nowOr(.queue(behaviourQueue))) { value in
        observed.ran()
        return value + 1
    }
}

/// The same with `then`, after which a named context runs: its promise cannot have resolved when
/// the `.nowOr` step was registered, so that step ran on q.
func nowOrNoted(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    source
        .then(on: .nowOr(.queue(behaviourQueue))) { _ in
            observed.ran()
        }
        .map(on: .utility) { $0 * 2 }
        .then(on: .nowOr(.queue(behaviourQueue))) { _ in
            observed.ran()
        }
}

/// `mapResult` on q: a rejection becomes -1, a cancellation stays one.
func settledOrMinusOne(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
    behaviourSource(input, observed: observed).mapResult(on: .queue(behaviourQueue)) { result -> PromiseResult<Int, NoError> in
        observed.ran()
        switch result {
        case .value(let value): return .value(value)
        case .error: return .value(-1)
        case .cancelled: return .cancelled
        }
    }
}

/// `mapResult` with a typed error: a value of 1 becomes an error.
func rejectingOne(_ input: Int, observed: Observed) -> Promise<Int, BehaviourError> {
    behaviourSource(input, observed: observed).mapResult(on: .immediate) { result in
        if case .value(1) = result { return .error(.failed) }
        return result
    }
}

/// `flatMap` on `.nowOr(.queue(q))`: the closure's promise, awaited on either path.
func nowOrChained(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    source.flatMap(on: .nowOr(.queue(behaviourQueue))) { value in
        behaviourSource(value + 1, observed: observed)
    }
}

/// `.nowOr(.main)` off the main actor (issue 37): the closure ran in the call when `source` had
/// resolved and the caller was on the main queue, else on the main queue.
func nowOrMainIncremented(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    source.map(on: .nowOr(.main)) { value in
        observed.ranOnMain()
        return value + 1
    }
}

/// `mapResult` after a step (issue 39): the step's result, a cancellation included, is the closure's.
func doubledOrMinusOne(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
    behaviourSource(input, observed: observed)
        .map(on: .queue(behaviourQueue)) { value -> Int in
            observed.ran()
            return value * 2
        }
        .mapResult(on: .queue(behaviourQueue)) { (result: PromiseResult<Int, BehaviourError>) -> PromiseResult<Int, NoError> in
            observed.ran()
            switch result {
            case .value(let value): return .value(value)
            case .error: return .value(-1)
            case .cancelled: return .value(-2)
            }
        }
}

/// `flatMapResult` after a step: a rejection is retried with `retry`'s source, a cancellation stays one.
func doubledOrRetried(_ input: Int, retry: Int, observed: Observed) -> Promise<Int, BehaviourError> {
    behaviourSource(input, observed: observed)
        .map(on: .immediate) { $0 * 2 }
        .flatMapResult(on: .queue(behaviourQueue)) { (result: PromiseResult<Int, BehaviourError>) -> Promise<Int, BehaviourError> in
            observed.ran()
            switch result {
            case .value(let value): return Promise(fulfilled: value)
            case .error: return behaviourSource(retry, observed: observed)
            case .cancelled: return Promise(with: .cancelled)
            }
        }
}

/// `recover` on `.nowOr(.queue(q))` (issue 37): at once, in the call, on a base that had already
/// rejected, else on q once it rejected.
func nowOrRecovered(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, NoError> {
    source.recover(on: .nowOr(.queue(behaviourQueue))) { _ in
        observed.ran()
        return -1
    }
}

/// A `flatMap` of several statements on `.nowOr(.queue(q))`: its promise, awaited on either path.
func nowOrCheckedAndChained(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    source.flatMap(on: .nowOr(.queue(behaviourQueue))) { value -> Promise<Int, BehaviourError> in
        observed.ran()
        guard value < 100 else { return Promise(rejected: .failed) }
        return behaviourSource(value * 2, observed: observed)
    }
}

/// A `flatMap` of statements on `.nowOr(.main)` off the main actor: its promise made on the main
/// queue, in the call when `source` had resolved and the caller was on the main queue.
func nowOrMainChained(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    source.flatMap(on: .nowOr(.main)) { value -> Promise<Int, BehaviourError> in
        observed.ranOnMain()
        guard value < 100 else { return Promise(rejected: .failed) }
        return Promise(fulfilled: value * 2)
    }
}

/// `tap` on `.nowOr(.queue(q))` (issue 37): the closure saw the result at once, in the call, when
/// `source` had resolved, else on q; the promise is the source's.
func nowOrTapped(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    source.tap(on: .nowOr(.queue(behaviourQueue))) { result in
        if result.value != nil { observed.ran() }
    }
}

/// `always` on `.nowOr(.queue(q))`: at once when `source` had resolved, else on q, whatever the result.
func nowOrAlways(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    source.always(on: .nowOr(.queue(behaviourQueue))) { _ in
        observed.ran()
    }
}

/// `onCancel` on `.nowOr(.queue(q))`: at once when `source` had been cancelled, else on q once it is.
func nowOrOnCancel(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, BehaviourError> {
    source.onCancel(on: .nowOr(.queue(behaviourQueue))) {
        observed.ran()
    }
}

/// A `map` with a token on `.nowOr(.queue(q))`: skipped, its promise cancelled, once the token is invalidated.
func nowOrIncrementedUnlessInvalidated(_ source: Promise<Int, BehaviourError>, token: PromiseInvalidationToken,
                                       observed: Observed) -> Promise<Int, BehaviourError> {
    source.map(on: .nowOr(.queue(behaviourQueue)), token: token) { value in
        observed.ran()
        return value + 1
    }
}

/// `PromiseContext.isExecutingNow` on `.nowOr(.queue(q))`: true when the closure ran at once.
func nowOrExecutingNow(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Bool, BehaviourError> {
    source.map(on: .nowOr(.queue(behaviourQueue))) { _ in
        observed.ran()
        return PromiseContext.isExecutingNow
    }
}

/// `PromiseContext.isExecutingNow` on `.nowOr(.main)` off the main actor.
func nowOrMainExecutingNow(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Bool, BehaviourError> {
    source.map(on: .nowOr(.main)) { _ in
        observed.ranOnMain()
        return PromiseContext.isExecutingNow
    }
}

/// `mapResult` with a step after it (issue 37): the step after takes the closure's value.
func settledThenIncremented(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
    behaviourSource(input, observed: observed)
        .map(on: .queue(behaviourQueue)) { value -> Int in
            observed.ran()
            return value * 2
        }
        .mapResult(on: .queue(behaviourQueue)) { (result: PromiseResult<Int, BehaviourError>) -> PromiseResult<Int, NoError> in
            observed.ran()
            switch result {
            case .value(let value): return .value(value)
            case .error: return .value(-1)
            case .cancelled: return .value(-2)
            }
        }
        .map(on: .queue(behaviourQueue)) { value -> Int in
            observed.ran()
            return value + 1
        }
}

/// `mapResult` after `catch`: the closure reads the result of the `catch`'s promise.
func caughtThenSettled(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
    behaviourSource(input, observed: observed)
        .catch(on: .queue(behaviourQueue)) { _ in
            observed.ran()
        }
        .mapResult(on: .queue(behaviourQueue)) { (result: PromiseResult<Int, BehaviourError>) -> PromiseResult<Int, NoError> in
            observed.ran()
            switch result {
            case .value(let value): return .value(value)
            case .error: return .value(-1)
            case .cancelled: return .value(-2)
            }
        }
}

/// `mapResult` with a token: skipped, its promise cancelled, once the token is invalidated.
func settledUnlessInvalidated(_ input: Int, token: PromiseInvalidationToken, observed: Observed) -> Promise<Int, NoError> {
    behaviourSource(input, observed: observed)
        .mapResult(on: .queue(behaviourQueue), token: token) { (result: PromiseResult<Int, BehaviourError>) -> PromiseResult<Int, NoError> in
            observed.ran()
            return .value(result.value ?? -1)
        }
}

/// `mapResult` on `.nowOr(.queue(q))`: at once when `source` had resolved, else on q.
func nowOrSettled(_ source: Promise<Int, BehaviourError>, observed: Observed) -> Promise<Int, NoError> {
    source.mapResult(on: .nowOr(.queue(behaviourQueue))) { result -> PromiseResult<Int, NoError> in
        observed.ran()
        return .value(result.value ?? -1)
    }
}

/// `mapResult` after a `flatMap`: the first promise's error is the closure's result too.
func chainedOrMinusOne(_ input: Int, observed: Observed) -> Promise<Int, NoError> {
    behaviourSource(input, observed: observed)
        .flatMap(on: .immediate) { behaviourSource($0 - 3, observed: observed) }
        .mapResult(on: .immediate) { (result: PromiseResult<Int, BehaviourError>) -> PromiseResult<Int, NoError> in
            observed.ran()
            return .value(result.value ?? -1)
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
        return Promise<Int, NoError>(on: .utility, fulfilled: amount, after: delay)
            .map(on: .queue(behaviourQueue)) { amount in
                self.lock.lock()
                defer { self.lock.unlock() }
                observed.ran()
                self.stock[sku, default: 0] += amount
                return self.stock[sku] ?? 0
            }
    }

    /// Takes `source`'s value of `sku` out, under the lock, or throws: the lock is released either way.
    func take(_ sku: String, from source: Promise<Int, BehaviourError>) -> Promise<Int, Error> {
        source
            .mapError(on: .immediate) { $0 as Error }
            .tryMap(on: .queue(behaviourQueue)) { amount in
                self.lock.lock()
                defer { self.lock.unlock() }
                guard let have = self.stock[sku], have >= amount else { throw BehaviourError.failed }
                self.stock[sku] = have - amount
                return have - amount
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
        oilChanges += 1
        let change = Promise<Void, NoError>(on: .queue(behaviourQueue), fulfilled: (), after: duration)
        changingOil = change
        return change.always(on: .queue(behaviourQueue)) { [weak self] _ in
            observed.ran()
            self?.changingOil = nil
        }
    }
}
