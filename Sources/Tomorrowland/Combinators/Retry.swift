// retry: run a promise-producing operation again while it rejects. The public `retry(on:…)`
// overloads are generated into Generated/Handlers.swift (from the callback API table,
// Generator/Sources/CallbackAPI/Table.swift); they call `_retry`.

import Foundation
import Synchronization

/// `retry` with the callbacks' isolation taken apart: they may only run on `isolation`.
func _retry<Value, Error>(
    on context: PromiseContext, isolation: (any Actor)?, attempts: Int, delay: TimeInterval,
    shouldRetry: @escaping @Sendable (Error) -> Bool, body: @escaping @Sendable () -> Promise<Value, Error>
) -> Promise<Value, Error> {
    let (output, resolver) = Promise<Value, Error>.makeWithResolver()
    let driver = RetryDriver(context: context, isolation: isolation, attempts: max(attempts, 1), delay: delay,
                             shouldRetry: shouldRetry, body: body, resolver: resolver)
    resolver.onRequestCancel(on: .immediate) { _ in driver.stop() }
    let work = driver.stopsIfDropped(on: context, throughActor: isolation != nil)
    ActorDelivery.execute(on: context, synchronously: true, isolation: isolation) {
        work?.markRan()
        driver.requestAttempt()
    }
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
    private let pendingRuns = SharedAtomic(0, "retry.pendingRuns")
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
        // Acquiring and releasing (both): the thread that runs the attempts acts for the
        // requests counted meanwhile, so it acquires what their threads did before them.
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

    /// Stops the retry if work scheduled on `context` is released without running (an operation
    /// queue's cancelled operation; rule 1): nothing else would resolve the output, which its
    /// own cancel handler keeps (with this driver and the resolver). Nil, with nothing
    /// allocated, where work is never dropped: most contexts, and work that goes to an actor.
    func stopsIfDropped(on context: PromiseContext, throughActor: Bool) -> UnrunWorkAction? {
        !throughActor && context.mayDropWork ? UnrunWorkAction { [self] in stop() } : nil
    }

    private func runAttempt() {
        let started = ifRunning { attempts -> Int in
            attempts.left -= 1
            attempts.started += 1
            return attempts.started
        }
        guard let number = started else { return }
        let attempt = body()
        let work = stopsIfDropped(on: context, throughActor: isolation != nil)
        let observer: Promise<Void, NoError> = attempt.register(
            on: context, token: nil, trigger: .error, kind: .transformer, isolation: isolation
        ) { [self] result in
            work?.markRan()
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
        // (The timer's own work is what a queue may drop; the hop to an actor never is.)
        let work = stopsIfDropped(on: timerContext, throughActor: false)
        timer.arm(on: timerContext, after: delay) { [self] in
            work?.markRan()
            _ = ifRunning { $0.timer = nil }
            if let isolation {
                ActorDelivery.execute(on: timerContext, synchronously: false, isolation: isolation) { [self] in requestAttempt() }
            } else {
                requestAttempt()
            }
        }
    }
}

