// Delayed results: delay(on:_:) and the init(on:…:after:) timers.

import Foundation

extension Promise {
    /// Returns a promise with the same result as this one, delivered `delay` seconds after
    /// this promise resolves (measured on the monotonic clock).
    ///
    /// The returned promise resolves on `context` (`.immediate` means `.auto`, evaluated
    /// now; `.nowOr(c)` means `c`). With `.operationQueue` the operation is added to the
    /// queue when `delay` is called, even while this promise is still pending, and becomes
    /// ready when the delay after this promise's resolution elapses: on a serial queue it
    /// then runs ahead of work added after it (until then it does not hold up ready work).
    /// A `delay` ≤ 0 dispatches the result on that context at once, never synchronously, even
    /// for `.immediate` or `.nowOr` (rules 12 and 24; only `timeout` fires synchronously at
    /// zero, rule 22). A NaN or `+infinity` `delay` never delivers (as in 1.4, where
    /// `.now() + delay` is then `.distantFuture`). On an operation queue that cancels the
    /// timer's operation, the returned promise is cancelled (rule 1).
    ///
    /// Cancellation: the returned promise is a normal child, so cancel requests are passed
    /// upstream. If this promise was cancelled, a cancel request during the delay cancels the
    /// returned promise at once; if it was fulfilled or rejected, a cancel request does not
    /// shorten the delay. Meant mostly for debugging; for a cancellable timer use
    /// `init(on:fulfilled:after:)`.
    public func delay(on context: PromiseContext = .auto, _ delay: TimeInterval) -> Promise<Value, Error> {
        let timerContext = context.timerContext
        let timer = ContextTimer()
        // Rule 24: "the operation is added to the queue at once and only becomes ready when
        // the timer fires": at once means now, not when this promise resolves.
        let reservation = timer.reservePlace(on: timerContext)
        return register(on: .immediate, token: nil, trigger: .all, kind: .transformer) { result in
            defer { withExtendedLifetime(reservation) {} }  // until the timer is armed
            let (delayed, resolver) = Promise.makeWithResolver()
            if case .cancelled = result { resolver.cancelsOnRequest(timer) }
            resolver.resolve(with: result, when: timer, on: timerContext, after: delay)
            return .adopt(delayed)
        }
    }

    /// Returns a promise that fulfills with `value` after `delay` seconds, on `context`.
    ///
    /// A cancellable timer: `requestCancel()` cancels the promise at once and releases the
    /// value. `.immediate` means `.auto` and `.nowOr(c)` means `c`, also for a `delay` ≤ 0
    /// (the value is then dispatched at once). With `.operationQueue` the operation is added
    /// at once and becomes ready when the timer fires; if the queue cancels that operation, the
    /// promise is cancelled (rule 1). A NaN or `+infinity` `delay` never fires: the promise stays
    /// pending until it is asked to cancel (or its operation is cancelled).
    public init(on context: PromiseContext = .auto, fulfilled value: Value, after delay: TimeInterval) {
        self.init(on: context, with: .value(value), after: delay)
    }

    /// Returns a promise that rejects with `error` after `delay` seconds, on `context`.
    ///
    /// Same timing and cancellation as `init(on:fulfilled:after:)`.
    public init(on context: PromiseContext = .auto, rejected error: Error, after delay: TimeInterval) {
        self.init(on: context, with: .error(error), after: delay)
    }

    /// Returns a promise that resolves with `result` after `delay` seconds, on `context`.
    ///
    /// A cancellable timer: `requestCancel()` cancels the promise synchronously and releases
    /// the stored result before the delay ends (rule 23). `.immediate` means `.auto` and
    /// `.nowOr(c)` means `c` (rules 12 and 24), also for a `delay` ≤ 0, which dispatches the
    /// result at once; a NaN or `+infinity` `delay` never fires. The pending timer keeps the
    /// promise resolvable (rule 1); an operation queue that cancels the timer's operation
    /// cancels the promise.
    public init(on context: PromiseContext = .auto, with result: PromiseResult<Value, Error>, after delay: TimeInterval) {
        let (promise, resolver) = Promise.makeWithResolver()
        let timer = ContextTimer()
        resolver.cancelsOnRequest(timer)
        resolver.resolve(with: result, when: timer, on: context.timerContext, after: delay)
        self = promise
    }

    /// Returns a promise that resolves with `result` after `delay` seconds.
    @available(*, deprecated, renamed: "init(on:with:after:)")
    public init(on context: PromiseContext = .auto, result: PromiseResult<Value, Error>, after delay: TimeInterval) {
        self.init(on: context, with: result, after: delay)
    }
}

extension Promise.Resolver {
    /// A cancel request cancels the promise at once and the timer with it, which releases
    /// the result the timer holds (rule 23).
    fileprivate func cancelsOnRequest(_ timer: ContextTimer) {
        onRequestCancel(on: .immediate) { resolver in
            timer.cancel()
            resolver.cancel()
        }
    }

    /// Arms `timer` to resolve the promise with `result` on `context` after `delay` seconds.
    fileprivate func resolve(with result: PromiseResult<Value, Error>, when timer: ContextTimer, on context: PromiseContext, after delay: TimeInterval) {
        let pending = UncheckedSendable((self, result))
        // Dropped unrun (an operation queue's cancelled operation), the timer cancels the
        // promise: its cancel handler would keep it pending for good otherwise (rule 1).
        let dropped = context.mayDropWork ? UnrunWorkAction { pending.value.0.cancel() } : nil
        timer.arm(on: context, after: delay) {
            dropped?.markRan()
            pending.value.0.resolve(with: pending.value.1)
        }
    }
}
