// timeout(on:delay:): give up waiting after a delay.

import Foundation

extension Promise {
    /// Returns a promise with this promise's result, or rejected with
    /// `PromiseTimeoutError.timedOut` if this promise has not resolved after `delay` seconds
    /// (measured on the monotonic clock). Upstream errors become `.rejected(error)`.
    ///
    /// The result is delivered on `context`. The default `.nowOr(.auto)` gives an
    /// already-resolved promise when this promise is already resolved. The timer fires on
    /// `context` too (`.immediate` means `.auto`, `.nowOr(c)` means `c`; `.operationQueue`
    /// adds its operation at once and makes it ready when the timer fires). With `delay` ≤ 0
    /// it times out at once: synchronously for `.immediate`/`.nowOr`, dispatched otherwise.
    /// A NaN or `+infinity` `delay` never times out (as in 1.4, where `.now() + delay` is then
    /// `.distantFuture`).
    ///
    /// When this promise resolves first, the pending timeout is disarmed at once, on the
    /// resolving thread, before the result hops to `context`: a timeout whose work is already
    /// queued on `context` (even with `delay` 0) never wins against a receiver that resolved
    /// before it ran.
    ///
    /// Cancellation: the returned promise is a normal child. When it times out it gives up
    /// its observer slot on this promise, which can then be cancelled automatically if no
    /// other observer wants it; this promise is never cancelled directly.
    public func timeout(on context: PromiseContext = .nowOr(.auto), delay: TimeInterval) -> Promise<Value, PromiseTimeoutError<Error>> {
        makeTimeout(on: context, delay: delay, timedOut: .timedOut) { .rejected($0) }
    }

    /// Shared by both `timeout` overloads.
    func makeTimeout<E>(on context: PromiseContext, delay: TimeInterval, timedOut: E, mapError: @escaping (Error) -> E) -> Promise<Value, E> {
        let timer = ContextTimer()
        // Registered before the output, so it fires first, on the resolving thread (rule 22:
        // "when the receiver resolves first, the pending timeout is disarmed at once, on the
        // resolving thread, before the hop to `context`").
        _box.register(TimeoutDisarmNode(timer: timer))
        let output: Promise<Value, E> = register(on: context, token: nil, trigger: .all, kind: .transformer) { result in
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error): return .resolve(.error(mapError(error)))
            case .cancelled: return .resolve(.cancelled)
            }
        }
        let box = output._box
        if box.currentState.isResolvingOrResolved { return output }
        if !delay.waitsForTimer && context.firesSynchronouslyWithoutDelay {
            box.resolveGivingUpUpstream { box.resolve(.error(timedOut)) }
            timer.cancel()
            return output
        }
        let error = UncheckedSendable(timedOut)
        timer.arm(on: context.timerContext, after: delay) { [weak box] in
            guard let box else { return }
            box.resolveGivingUpUpstream { box.resolve(.error(error.value)) }
        }
        return output
    }
}

extension Promise where Error == Swift.Error {
    /// Returns a promise with this promise's result, or rejected with
    /// `PromiseTimeoutError<Swift.Error>.timedOut` if this promise has not resolved after
    /// `delay` seconds. Upstream errors pass through unchanged.
    ///
    /// Context, timing, disarming when this promise resolves first, and cancellation are
    /// those of the generic `timeout(on:delay:)`; this overload is the one chosen for
    /// `StdPromise`.
    public func timeout(on context: PromiseContext = .nowOr(.auto), delay: TimeInterval) -> Promise<Value, Swift.Error> {
        makeTimeout(on: context, delay: delay, timedOut: PromiseTimeoutError<Swift.Error>.timedOut) { $0 }
    }
}

/// A timeout's node on its receiver: disarms the timer on the thread that resolves the
/// receiver, before the output's hop to its context (rule 22). Not an observer: it takes no
/// part in cancellation propagation. Dropped unfired, it leaves the timer armed (the output
/// then gets no result from the receiver, so the timeout is what resolves it).
///
/// Safety of `@unchecked Sendable`: `timer` is immutable and itself thread-safe.
final class TimeoutDisarmNode: PromiseNode, @unchecked Sendable {
    private let timer: ContextTimer

    init(timer: ContextTimer) {
        self.timer = timer
    }

    override func upstreamResolved(_ upstream: PromiseCore, synchronously: Bool) {
        timer.cancel()
    }
}
