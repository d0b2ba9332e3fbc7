// retry: run a promise-producing operation again while it rejects.

import Foundation
import Synchronization

/// Runs `body` and, while the promise it returns rejects, runs it again, up to `attempts`
/// times in total. Returns a promise of the first fulfilment, or of the last error.
///
/// ```swift
/// let feed = retry(on: .utility, attempts: 3, delay: 0.5, while: { $0 is URLError }) {
///     MyAPI.requestFeed(for: user)
/// }
/// ```
///
/// - `body` runs on `context`: the first attempt at once for `.immediate`/`.nowOr` (like
///   `Promise(on:_:)`), dispatched otherwise. `shouldRetry` runs on `context` with each error
///   (`.nowOr` synchronously when the attempt is already rejected); a retry without delay
///   runs `body` right there, later ones after `delay` seconds on `context` (`.immediate`
///   means `.auto` for that timer, as for `delay(on:_:)`). Attempts never overlap, and
///   attempts that reject synchronously do not grow the stack.
/// - Isolation: with a named context (`.utility`, `.queue(q)`, …) or a context held in a
///   value, both closures are nonisolated and run there. Otherwise, if `body` (or else
///   `shouldRetry`) is isolated to an actor (written in `@MainActor` code or an actor method),
///   both run on that actor, never synchronously on another one (see the Threading article);
///   give them the same isolation.
/// - `attempts` counts the first one: `attempts: 3` means at most two retries. Values below 1
///   mean 1. A `delay` ≤ 0 retries at once; a NaN or `+infinity` `delay` never fires, so the
///   returned promise waits for a cancel request after the first retryable error.
/// - The returned promise fulfils with the first value and rejects with the last error (when
///   `shouldRetry` returns `false` or the attempts run out). If an attempt is cancelled, the
///   returned promise is cancelled and nothing is retried.
/// - Cancellation: a cancel request on the returned promise stops at once: the returned
///   promise is cancelled, a pending delay is dropped, no further attempt starts, and the
///   in-flight attempt is asked to cancel (as one of its observers, rule 5). Once the
///   request is in, an attempt that resolves concurrently cannot resolve the returned promise
///   any more: it ends cancelled, never rejected with an error that would have been retried.
public func retry<Value, Error>(
    on context: PromiseContext.CallerIsolated,
    attempts: Int,
    delay: TimeInterval = 0,
    @_inheritActorContext while shouldRetry: @escaping @isolated(any) @Sendable (Error) -> Bool = { _ in true },
    @_inheritActorContext _ body: @escaping @isolated(any) @Sendable () -> Promise<Value, Error>
) -> Promise<Value, Error> {
    _retry(on: context.context, isolation: body.isolation ?? shouldRetry.isolation, attempts: attempts, delay: delay,
           shouldRetry: unisolated(shouldRetry), body: unisolated(body))
}

/// `retry(on:attempts:delay:while:_:)` with a context held in a value (a `PromiseContext` property
/// or parameter, `PromiseContext.x`, a conditional): `body` and `shouldRetry` are nonisolated and
/// run on the context the value holds, as with a named context and as in Tomorrowland 1.x.
public func retry<Value, Error>(
    on context: any PromiseContextConvertible,
    attempts: Int,
    delay: TimeInterval = 0,
    while shouldRetry: @escaping @Sendable (Error) -> Bool = { _ in true },
    _ body: @escaping @Sendable () -> Promise<Value, Error>
) -> Promise<Value, Error> {
    _retry(on: context.promiseContext, isolation: nil, attempts: attempts, delay: delay, shouldRetry: shouldRetry, body: body)
}

/// `retry(on:attempts:delay:while:_:)` with a named context (`.utility`, `.queue(q)`, …):
/// `body` and `shouldRetry` are nonisolated and run on that context, as in Tomorrowland 1.x.
public func retry<Value, Error>(
    on context: PromiseContext.Named,
    attempts: Int,
    delay: TimeInterval = 0,
    while shouldRetry: @escaping @Sendable (Error) -> Bool = { _ in true },
    _ body: @escaping @Sendable () -> Promise<Value, Error>
) -> Promise<Value, Error> {
    _retry(on: context.context, isolation: nil, attempts: attempts, delay: delay, shouldRetry: shouldRetry, body: body)
}

/// `retry` with the callbacks' isolation taken apart: they may only run on `isolation`.
func _retry<Value, Error>(
    on context: PromiseContext, isolation: (any Actor)?, attempts: Int, delay: TimeInterval,
    shouldRetry: @escaping @Sendable (Error) -> Bool, body: @escaping @Sendable () -> Promise<Value, Error>
) -> Promise<Value, Error> {
    let (output, resolver) = Promise<Value, Error>.makeWithResolver()
    let driver = RetryDriver(context: context, isolation: isolation, attempts: max(attempts, 1), delay: delay,
                             shouldRetry: shouldRetry, body: body, resolver: resolver)
    resolver.onRequestCancel(on: .immediate) { _ in driver.stop() }
    ActorDelivery.execute(on: context, synchronously: true, isolation: isolation) { driver.requestAttempt() }
    return output
}

/// Runs the attempts of one `retry`.
///
/// Attempts are started through a trampoline (`pendingRuns`): whoever raises it from zero
/// runs attempts until it falls back to zero, so an attempt that rejects synchronously
/// schedules the next one instead of recursing into it.
///
/// The mutable state is one `State` under one lock, taken only for short transitions: never
/// across `body`, `shouldRetry` or a resolution (which runs observers).
///
/// Safety of `@unchecked Sendable`: the only mutable state is `state` (behind its lock) and
/// `pendingRuns` (atomic); the rest is immutable.
final class RetryDriver<Value, Error>: @unchecked Sendable {
    /// The attempts of a retry that is still going.
    private struct Attempts {
        /// Attempts not started yet.
        var left: Int
        /// The number of the latest attempt, and of the latest one that resolved.
        var started = 0
        var resolved = 0
        /// The observer of the pending attempt (asked to cancel by a cancel request).
        var inFlight: PromiseCore?
        /// The pending delay before the next attempt.
        var timer: ContextTimer?
    }

    private enum State {
        /// Attempts go on (or the output was resolved by the last one).
        case running(Attempts)
        /// A cancel request stopped everything: the output can only be cancelled.
        case stopped
    }

    private let context: PromiseContext
    /// The actor `body` and `shouldRetry` are isolated to (`nil`: nonisolated).
    private let isolation: (any Actor)?
    private let timerContext: PromiseContext
    private let delay: TimeInterval
    private let shouldRetry: @Sendable (Error) -> Bool
    private let body: @Sendable () -> Promise<Value, Error>
    private let resolver: Promise<Value, Error>.Resolver
    private let pendingRuns = Atomic(0)
    private let state: Locked<State>

    init(
        context: PromiseContext,
        isolation: (any Actor)?,
        attempts: Int,
        delay: TimeInterval,
        shouldRetry: @escaping @Sendable (Error) -> Bool,
        body: @escaping @Sendable () -> Promise<Value, Error>,
        resolver: Promise<Value, Error>.Resolver
    ) {
        self.context = context
        self.isolation = isolation
        timerContext = context.timerContext
        self.delay = delay
        self.shouldRetry = shouldRetry
        self.body = body
        self.resolver = resolver
        state = Locked(.running(Attempts(left: attempts)))
    }

    /// Applies `change` to the attempts if the retry is still running; `nil` once stopped.
    private func ifRunning<R>(_ change: (inout Attempts) -> R) -> R? {
        state.withLock { state in
            guard case .running(var attempts) = state else { return nil }
            let result = change(&attempts)
            state = .running(attempts)
            return result
        }
    }

    /// Starts the next attempt here, or lets the thread already running attempts do it.
    func requestAttempt() {
        guard pendingRuns.add(1, ordering: .acquiringAndReleasing).newValue == 1 else { return }
        repeat {
            runAttempt()
        } while pendingRuns.subtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }

    /// Cancels the output and the in-flight attempt, and drops a pending delay.
    ///
    /// The request stops at once: from the moment the state is `.stopped`, an attempt that
    /// resolves can only cancel the output too (never resolve it with its own result), so
    /// an intermediate error cannot get in before the `cancel()` below.
    func stop() {
        let previous = state.withLock { state in
            defer { state = .stopped }
            return state
        }
        resolver.cancel()
        guard case .running(let attempts) = previous else { return }
        attempts.timer?.cancel()
        attempts.inFlight?.requestCancel()
    }

    private func runAttempt() {
        let started = ifRunning { attempts -> Int in
            attempts.left -= 1
            attempts.started += 1
            return attempts.started
        }
        guard let number = started else { return }
        let attempt = body()
        let observer: Promise<Void, NoError> = attempt.register(
            on: context, token: nil, trigger: .error, kind: .transformer, isolation: isolation
        ) { [self] result in
            attemptResolved(number, result)
            return .resolve(.value(()))
        }
        let running: Void? = ifRunning { attempts in
            if attempts.resolved < number { attempts.inFlight = observer._box }
        }
        if running == nil { observer._box.requestCancel() }
    }

    /// Values and cancellation arrive on the resolving thread; errors on `context`.
    private func attemptResolved(_ number: Int, _ result: PromiseResult<Value, Error>) {
        // (`inFlight` is this attempt's observer, kept alive by its own delivery: clearing
        // it under the lock frees nothing there; the same holds for the fired timer below.)
        let retries = ifRunning { attempts -> Bool in
            attempts.resolved = number
            attempts.inFlight = nil
            return attempts.left > 0
        }
        guard let retries else {
            #if TOMORROWLAND_SCHEDULE_POINTS
            if SchedulePoints.isReintroduced(.retryResolvesAfterStop) {
                resolver.resolve(with: result)
                return
            }
            #endif
            // Stopped by a cancel request, which "stops at once: the returned promise is
            // cancelled": never resolved with this attempt's result (an intermediate error).
            resolver.cancel()
            return
        }
        guard case .error(let error) = result, retries, shouldRetry(error) else {
            resolver.resolve(with: result)
            return
        }
        guard delay.waitsForTimer else {
            requestAttempt()
            return
        }
        let timer = ContextTimer()
        guard ifRunning({ $0.timer = timer }) != nil else { return }  // stop() cancels the output
        timer.arm(on: timerContext, after: delay) { [self] in
            _ = ifRunning { $0.timer = nil }
            if let isolation {
                ActorDelivery.execute(on: timerContext, synchronously: false, isolation: isolation) { [self] in requestAttempt() }
            } else {
                requestAttempt()
            }
        }
    }
}
