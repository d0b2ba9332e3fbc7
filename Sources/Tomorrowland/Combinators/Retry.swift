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
/// - `attempts` counts the first one: `attempts: 3` means at most two retries. Values below 1
///   mean 1. A `delay` ≤ 0 retries at once.
/// - The returned promise fulfils with the first value and rejects with the last error (when
///   `shouldRetry` returns `false` or the attempts run out). If an attempt is cancelled, the
///   returned promise is cancelled and nothing is retried.
/// - Cancellation: a cancel request on the returned promise stops at once: the returned
///   promise is cancelled, a pending delay is dropped, no further attempt starts, and the
///   in-flight attempt is asked to cancel (as one of its observers, rule 5).
public func retry<Value, Error>(
    on context: PromiseContext,
    attempts: Int,
    delay: TimeInterval = 0,
    while shouldRetry: @escaping @Sendable (Error) -> Bool = { _ in true },
    _ body: @escaping @Sendable () -> Promise<Value, Error>
) -> Promise<Value, Error> {
    let (output, resolver) = Promise<Value, Error>.makeWithResolver()
    let driver = RetryDriver(context: context, attempts: max(attempts, 1), delay: delay,
                             shouldRetry: shouldRetry, body: body, resolver: resolver)
    resolver.onRequestCancel(on: .immediate) { _ in driver.stop() }
    switch context {
    case .immediate, .nowOr:
        PromiseContext.run(context.inlineMode(synchronously: true)!) { driver.requestAttempt() }
    default:
        context.schedule { driver.requestAttempt() }
    }
    return output
}

/// Runs the attempts of one `retry`.
///
/// Attempts are started through a trampoline (`pendingRuns`): whoever raises it from zero
/// runs attempts until it falls back to zero, so an attempt that rejects synchronously
/// schedules the next one instead of recursing into it.
///
/// Safety of `@unchecked Sendable`: the `var`s are only touched under `lock`; the rest is
/// immutable or atomic.
final class RetryDriver<Value, Error>: @unchecked Sendable {
    private let context: PromiseContext
    private let timerContext: PromiseContext
    private let delay: TimeInterval
    private let shouldRetry: @Sendable (Error) -> Bool
    private let body: @Sendable () -> Promise<Value, Error>
    private let resolver: Promise<Value, Error>.Resolver
    private let pendingRuns = Atomic(0)
    private let lock = NSLock()
    private var attemptsLeft: Int
    /// The number of the latest attempt, and of the latest one that resolved.
    private var started = 0
    private var resolved = 0
    private var inFlight: PromiseCore?
    private var timer: ContextTimer?
    private var isStopped = false

    init(context: PromiseContext, attempts: Int, delay: TimeInterval, shouldRetry: @escaping @Sendable (Error) -> Bool, body: @escaping @Sendable () -> Promise<Value, Error>, resolver: Promise<Value, Error>.Resolver) {
        self.context = context
        timerContext = context.timerContext
        self.delay = delay
        self.shouldRetry = shouldRetry
        self.body = body
        self.resolver = resolver
        attemptsLeft = attempts
    }

    /// Starts the next attempt here, or lets the thread already running attempts do it.
    func requestAttempt() {
        guard pendingRuns.add(1, ordering: .acquiringAndReleasing).newValue == 1 else { return }
        repeat {
            runAttempt()
        } while pendingRuns.subtract(1, ordering: .acquiringAndReleasing).newValue != 0
    }

    /// Cancels the output and the in-flight attempt, and drops a pending delay.
    func stop() {
        lock.lock()
        isStopped = true
        let inFlight = self.inFlight
        self.inFlight = nil
        let timer = self.timer
        self.timer = nil
        lock.unlock()
        timer?.cancel()
        resolver.cancel()
        inFlight?.requestCancel()
    }

    private func runAttempt() {
        lock.lock()
        guard !isStopped else {
            lock.unlock()
            return
        }
        attemptsLeft -= 1
        started += 1
        let number = started
        lock.unlock()
        let attempt = body()
        let observer: Promise<Void, NoError> = attempt.register(on: context, token: nil, trigger: .error, kind: .transformer) { [self] result in
            attemptResolved(number, result)
            return .resolve(.value(()))
        }
        lock.lock()
        let stopped = isStopped
        if !stopped, resolved < number { inFlight = observer._box }
        lock.unlock()
        if stopped { observer._box.requestCancel() }
    }

    /// Values and cancellation arrive on the resolving thread; errors on `context`.
    private func attemptResolved(_ number: Int, _ result: PromiseResult<Value, Error>) {
        lock.lock()
        resolved = number
        inFlight = nil
        let retries = attemptsLeft > 0 && !isStopped
        lock.unlock()
        guard case .error(let error) = result, retries, shouldRetry(error) else {
            resolver.resolve(with: result)
            return
        }
        guard delay > 0 else {
            requestAttempt()
            return
        }
        let timer = ContextTimer()
        lock.lock()
        let stopped = isStopped
        if !stopped { self.timer = timer }
        lock.unlock()
        if stopped { return }
        timer.arm(on: timerContext, after: delay) { [self] in
            lock.lock()
            self.timer = nil
            lock.unlock()
            requestAttempt()
        }
    }
}
