// ContextTimer: the one-shot monotonic timer behind delay, timeout, init(after:) and retry.

import Dispatch
import Foundation

extension PromiseContext {
    /// The context a timer-driven callback runs on (rules 12 and 24): `.immediate` means
    /// `.auto` (evaluated now, by the caller of the public method) and `.nowOr(c)` means `c`.
    var timerContext: PromiseContext {
        switch self {
        case .immediate: return .auto
        case .nowOr(let inner): return inner.timerContext
        default: return self
        }
    }

    /// Whether a zero or negative `timeout` on this context fires synchronously (rule 22;
    /// `delay` and `init(after:)` always dispatch, rules 12 and 24).
    var firesSynchronouslyWithoutDelay: Bool {
        switch self {
        case .immediate, .nowOr: return true
        default: return false
        }
    }
}

extension TimeInterval {
    /// Whether a timer for this delay waits, rather than running its work at once: `false`
    /// for zero and negative delays, `true` for NaN. As in 1.4, whose timers were
    /// `DispatchTime.now() + delay`, a NaN delay (like `.infinity`) is `.distantFuture`: the
    /// timer never fires, it is only cancelled.
    var waitsForTimer: Bool {
        !(self <= 0)
    }
}

/// Runs one piece of work on a context after a delay measured on the monotonic clock
/// (`DispatchTime`, uptime-based: wall-clock changes do not affect it), unless cancelled.
///
/// - `.operationQueue(q)`: an operation is added to `q` at once (by `arm`, or earlier by
///   `reservePlace`) and only becomes ready when the timer fires, so it keeps its place in
///   line (rule 24).
/// - `.main`: fires on a global queue, then joins the `.main` FIFO (rule 10).
/// - other queues: the dispatch timer targets the context's queue directly (no extra hop).
///
/// `cancel()` releases the work at once (and with it whatever it captured), so a cancelled
/// timer does not keep a promise or its stored result alive until the deadline.
///
/// The mutable state is one `State` under one lock, taken only for short transitions: the
/// work runs, and a released work closure is freed, after the lock is released.
///
/// Safety of `@unchecked Sendable`: the only mutable state is `state`, behind its lock.
final class ContextTimer: @unchecked Sendable {
    private enum State {
        /// Not armed yet. `reserved`: the operation `reservePlace` added to its queue.
        case unarmed(reserved: TimerOperation?)
        /// Armed: `work` waits to run. `source`: the dispatch timer, until it fires;
        /// `operation`: the operation that runs the work (`.operationQueue`), until it runs.
        case armed(work: @Sendable () -> Void, source: DispatchSourceTimer?, operation: TimerOperation?)
        /// The work was taken out to run, or the timer was cancelled: nothing is left to do.
        case done
    }

    private let state = Locked(State.unarmed(reserved: nil))

    init() {}

    /// With `.operationQueue(q)` (already passed through `timerContext`): adds the timer's
    /// operation to `q` now, not ready, so that the work armed later keeps this place in line
    /// (rule 24: "the operation is added to the queue at once and only becomes ready when the
    /// timer fires"). Nothing to do for other contexts, or once cancelled.
    ///
    /// Keep the returned reservation until `arm` was called: released before that (the code
    /// that would have armed the timer was dropped unrun), it cancels the timer, so the
    /// operation leaves the queue instead of waiting there forever.
    func reservePlace(on context: PromiseContext) -> TimerReservation? {
        guard case .operationQueue(let queue) = context else { return nil }
        let reserved: TimerOperation? = state.withLock { state in
            guard case .unarmed(reserved: nil) = state else { return nil }
            let operation = TimerOperation(timer: self)
            state = .unarmed(reserved: operation)
            return operation
        }
        guard let reserved else { return nil }
        queue.addOperation(reserved)
        return TimerReservation(timer: self)
    }

    /// Arms the timer: `work` runs on `context` (already passed through `timerContext`)
    /// after `delay` seconds. A `delay` ≤ 0 schedules the work at once without a timer; NaN and
    /// `.infinity` never fire (see `waitsForTimer`). Does nothing if the timer was cancelled
    /// before being armed.
    func arm(on context: PromiseContext, after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        let sourceQueue: DispatchQueue?
        switch context {
        case .operationQueue(let queue):
            armOperation(on: queue, after: delay, work)
            return
        case .main, .immediate, .nowOr:
            sourceQueue = delay.waitsForTimer ? DispatchQueue.global(qos: .userInteractive) : nil
        case .queue(let queue):
            sourceQueue = delay.waitsForTimer ? queue : nil
        case .background, .utility, .default, .userInitiated, .userInteractive:
            sourceQueue = delay.waitsForTimer ? DispatchQueue.global(qos: context.qosClass) : nil
        }
        #if TOMORROWLAND_SCHEDULE_POINTS
        // On a test's virtual clock (VirtualClock.swift) the clock fires the timer; under the
        // interleaving explorer a scenario thread does. Either way: no dispatch source.
        let clock = sourceQueue != nil ? VirtualClock.current : nil
        let explored = clock == nil && sourceQueue != nil && schedulePointTakesDeferredWork()
        let fireQueue = explored || clock != nil ? nil : sourceQueue
        #else
        let fireQueue = sourceQueue
        #endif
        let (armed, source): (Bool, DispatchSourceTimer?) = state.withLock { state in
            guard case .unarmed = state else { return (false, nil) }
            let source = fireQueue.map { DispatchSource.makeTimerSource(queue: $0) }
            state = .armed(work: work, source: source, operation: nil)
            return (true, source)
        }
        #if TOMORROWLAND_SCHEDULE_POINTS
        if let clock, let sourceQueue {
            if armed { clock.timerArmed(after: delay) { sourceQueue.async { self.timerFired(on: context) } } }
            return
        }
        if explored {
            if armed { schedulePointDefer { self.timerFired(on: context) } }
            return
        }
        #endif
        if let source {
            start(source, after: delay, on: context)
        } else if armed {
            context.schedule { self.runWork() }
        }
    }

    /// `arm` for `.operationQueue(queue)`: the operation (reserved, or added now) becomes
    /// ready when the timer fires (rule 24).
    private func armOperation(on queue: OperationQueue, after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        let armed: (operation: TimerOperation, isNew: Bool)? = state.withLock { state in
            guard case .unarmed(let reserved) = state else { return nil }
            let operation = reserved ?? TimerOperation(timer: self)
            state = .armed(work: work, source: nil, operation: operation)
            return (operation, reserved == nil)
        }
        guard let armed else { return }
        // Added at once; it becomes ready when the timer fires (rule 24).
        if armed.isNew { queue.addOperation(armed.operation) }
        guard delay.waitsForTimer else {
            armed.operation.makeReady()
            return
        }
        #if TOMORROWLAND_SCHEDULE_POINTS
        if let clock = VirtualClock.current {
            clock.timerArmed(after: delay) {
                DispatchQueue.global(qos: .userInitiated).async { self.timerFired(on: .operationQueue(queue)) }
            }
            return
        }
        #endif
        let source: DispatchSourceTimer? = state.withLock { state in
            // Cancelled while the operation was being added: nothing to start.
            guard case .armed(let work, source: nil, let operation) = state else { return nil }
            let source = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .userInitiated))
            state = .armed(work: work, source: source, operation: operation)
            return source
        }
        if let source { start(source, after: delay, on: .operationQueue(queue)) }
    }

    /// Starts the dispatch timer stored in the state.
    private func start(_ source: DispatchSourceTimer, after delay: TimeInterval, on context: PromiseContext) {
        source.schedule(deadline: .now() + delay)
        // The handler retains `self` (and `self` the source) until the timer fires or is
        // cancelled: both paths cancel the source, which releases the handler.
        source.setEventHandler { self.timerFired(on: context) }
        source.activate()
    }

    /// Cancels the timer and releases its work. Idempotent; also valid before `arm`.
    func cancel() {
        finish(unlessArmed: false)
    }

    /// Cancels the timer unless `arm` was called (see `reservePlace`).
    fileprivate func cancelIfNeverArmed() {
        finish(unlessArmed: true)
    }

    private func finish(unlessArmed: Bool) {
        let previous: State? = state.withLock { state in
            if unlessArmed, case .armed = state { return nil }
            defer { state = .done }
            return state
        }
        let source: DispatchSourceTimer?, operation: TimerOperation?
        switch previous {
        case .unarmed(let reserved): (source, operation) = (nil, reserved)
        case .armed(_, let armedSource, let armedOperation): (source, operation) = (armedSource, armedOperation)
        case .done, nil: return
        }
        source?.cancel()
        operation?.cancel()  // which makes it ready: the queue finishes it now
        // The work (in `previous`) is released here, outside the lock.
    }

    private func timerFired(on context: PromiseContext) {
        let (source, operation): (DispatchSourceTimer?, TimerOperation?) = state.withLock { state in
            guard case .armed(let work, let source, let operation) = state else { return (nil, nil) }
            state = .armed(work: work, source: nil, operation: operation)
            return (source, operation)
        }
        source?.cancel()
        switch context {
        case .operationQueue: operation?.makeReady()
        case .main: MainQueue.enqueue { self.runWork() }
        default: runWork()
        }
    }

    /// Takes the work out (once) and runs it on the current thread.
    fileprivate func runWork() {
        let work: (@Sendable () -> Void)? = state.withLock { state in
            guard case .armed(let work, _, _) = state else { return nil }
            state = .done
            return work
        }
        work?()
    }
}

extension PromiseContext {
    /// The Dispatch QoS class of a global-queue context.
    fileprivate var qosClass: DispatchQoS.QoSClass {
        switch self {
        case .background: return .background
        case .utility: return .utility
        case .userInitiated: return .userInitiated
        case .userInteractive: return .userInteractive
        default: return .default
        }
    }
}

/// A place reserved in an operation queue by `ContextTimer.reservePlace`: released before
/// the timer is armed, it cancels the timer (its operation then finishes without running).
final class TimerReservation: Sendable {
    private let timer: ContextTimer

    fileprivate init(timer: ContextTimer) {
        self.timer = timer
    }

    deinit { timer.cancelIfNeverArmed() }
}

/// The operation a `ContextTimer` adds to an `OperationQueue`: not ready until the timer
/// fires, or until it is cancelled. `makeReady()` posts the `isReady` change notifications
/// corelibs `OperationQueue` needs to notice it.
///
/// Safety of `@unchecked Sendable`: `readiness` is behind its lock; `timer` is immutable.
final class TimerOperation: Operation, @unchecked Sendable {
    private let timer: ContextTimer
    private let readiness = Locked(Readiness.waiting)

    /// Where the operation is on its way to ready; only one caller announces the change.
    private enum Readiness {
        /// The timer has not fired.
        case waiting
        /// One caller won `makeReady` and is posting the `isReady` change.
        case announcing
        /// Ready to run.
        case ready
    }

    init(timer: ContextTimer) {
        self.timer = timer
        super.init()
    }

    override var isReady: Bool {
        readiness.withLock { $0 == .ready } && super.isReady
    }

    /// Marks the operation ready (once): the first caller posts the `isReady` change around
    /// the switch to `.ready`; a racing second caller does nothing.
    func makeReady() {
        let won = readiness.withLock { state in
            guard state == .waiting else { return false }
            state = .announcing
            return true
        }
        guard won else { return }
        willChangeValue(forKey: "isReady")
        readiness.withLock { $0 = .ready }
        didChangeValue(forKey: "isReady")
    }

    /// Cancelled from outside (`cancelAllOperations()`), it becomes ready at once, so that the
    /// queue finishes it now rather than when the timer would have fired.
    override func cancel() {
        super.cancel()
        makeReady()
    }

    /// Runs `main()` unless cancelled, then releases whatever work is left: none when it ran;
    /// cancelled (before the start, or between the start's check and `main()`'s), the timer's
    /// work unrun, and with it what it captured (a resolver: rule 1), on the queue's thread.
    override func start() {
        super.start()
        timer.cancel()
    }

    override func main() {
        guard !isCancelled else { return }
        timer.runWork()
    }
}
