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
        let output: Promise<Value, E> = register(on: context, token: nil, trigger: .all, kind: .transformer) { result in
            timer.cancel()
            switch result {
            case .value(let value): return .resolve(.value(value))
            case .error(let error): return .resolve(.error(mapError(error)))
            case .cancelled: return .resolve(.cancelled)
            }
        }
        let box = output._box
        if box.currentState.isResolvingOrResolved { return output }
        if !(delay > 0) && context.firesSynchronouslyWithoutDelay {
            box.resolveGivingUpUpstream { box.resolve(.error(timedOut), inline: true) }
            timer.cancel()
            return output
        }
        let error = UncheckedSendable(timedOut)
        timer.arm(on: context.timerContext, after: delay) { [weak box] in
            guard let box else { return }
            box.resolveGivingUpUpstream { box.resolve(.error(error.value), inline: true) }
        }
        return output
    }
}

extension Promise where Error == Swift.Error {
    /// Returns a promise with this promise's result, or rejected with
    /// `PromiseTimeoutError<Swift.Error>.timedOut` if this promise has not resolved after
    /// `delay` seconds. Upstream errors pass through unchanged.
    ///
    /// Context, timing and cancellation are those of the generic `timeout(on:delay:)`; this
    /// overload is the one chosen for `StdPromise`.
    public func timeout(on context: PromiseContext = .nowOr(.auto), delay: TimeInterval) -> Promise<Value, Swift.Error> {
        makeTimeout(on: context, delay: delay, timedOut: PromiseTimeoutError<Swift.Error>.timedOut) { $0 }
    }
}
