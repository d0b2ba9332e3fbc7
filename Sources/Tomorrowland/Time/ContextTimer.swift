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

    /// Whether a zero or negative delay on this context fires synchronously (rule 22).
    var firesSynchronouslyWithoutDelay: Bool {
        switch self {
        case .immediate, .nowOr: return true
        default: return false
        }
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
/// Safety of `@unchecked Sendable`: every mutable field is read and written under `lock`;
/// the work closure runs outside the lock, after being taken out of it exactly once.
final class ContextTimer: @unchecked Sendable {
    private let lock = NSLock()
    private var work: (@Sendable () -> Void)?
    private var source: DispatchSourceTimer?
    private var operation: TimerOperation?
    private var isCancelled = false
    private var isArmed = false

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
        lock.lock()
        guard !isCancelled, operation == nil else {
            lock.unlock()
            return nil
        }
        let operation = TimerOperation(timer: self)
        self.operation = operation
        lock.unlock()
        queue.addOperation(operation)
        return TimerReservation(timer: self)
    }

    /// Cancels the timer unless `arm` was called (see `reservePlace`).
    fileprivate func cancelIfNeverArmed() {
        lock.lock()
        let armed = isArmed
        lock.unlock()
        if !armed { cancel() }
    }

    /// Arms the timer: `work` runs on `context` (already passed through `timerContext`)
    /// after `delay` seconds. A `delay` ≤ 0 (or NaN) schedules the work at once without a
    /// timer. Does nothing if the timer was cancelled before being armed.
    func arm(on context: PromiseContext, after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        lock.lock()
        guard !isCancelled else {
            lock.unlock()
            return
        }
        isArmed = true
        self.work = work
        let fireQueue: DispatchQueue?
        switch context {
        case .operationQueue(let queue):
            let operation: TimerOperation
            if let reserved = self.operation {
                operation = reserved
                lock.unlock()
            } else {
                operation = TimerOperation(timer: self)
                self.operation = operation
                lock.unlock()
                // Added at once; it becomes ready when the timer fires (rule 24).
                queue.addOperation(operation)
            }
            if !(delay > 0) {
                operation.makeReady()
                return
            }
            fireQueue = DispatchQueue.global(qos: .userInitiated)
            lock.lock()
        case .main, .immediate, .nowOr:
            fireQueue = delay > 0 ? DispatchQueue.global(qos: .userInteractive) : nil
        case .queue(let queue):
            fireQueue = delay > 0 ? queue : nil
        case .background, .utility, .default, .userInitiated, .userInteractive:
            fireQueue = delay > 0 ? DispatchQueue.global(qos: context.qosClass) : nil
        }
        guard let fireQueue, !isCancelled else {
            lock.unlock()
            if fireQueue == nil { context.schedule { self.runWork() } }
            return
        }
        let source = DispatchSource.makeTimerSource(queue: fireQueue)
        self.source = source
        lock.unlock()
        source.schedule(deadline: .now() + delay)
        // The handler retains `self` (and `self` the source) until the timer fires or is
        // cancelled: both paths cancel the source, which releases the handler.
        source.setEventHandler { self.timerFired(on: context) }
        source.activate()
    }

    /// Cancels the timer and releases its work. Idempotent; also valid before `arm`.
    func cancel() {
        lock.lock()
        isCancelled = true
        let work = self.work
        self.work = nil
        let source = self.source
        self.source = nil
        let operation = self.operation
        self.operation = nil
        lock.unlock()
        source?.cancel()
        if let operation {
            operation.cancel()
            operation.makeReady()
        }
        _ = work // released here, outside the lock
    }

    private func timerFired(on context: PromiseContext) {
        lock.lock()
        let source = self.source
        self.source = nil
        let operation = self.operation
        lock.unlock()
        source?.cancel()
        switch context {
        case .operationQueue: operation?.makeReady()
        case .main: MainQueue.enqueue { self.runWork() }
        default: runWork()
        }
    }

    /// Takes the work out (once) and runs it on the current thread.
    fileprivate func runWork() {
        lock.lock()
        let work = self.work
        self.work = nil
        operation = nil
        lock.unlock()
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
/// fires. `makeReady()` posts the `isReady` change notifications corelibs `OperationQueue`
/// needs to notice it.
///
/// Safety of `@unchecked Sendable`: `ready` is atomic-by-lock; `timer` is immutable.
final class TimerOperation: Operation, @unchecked Sendable {
    private let timer: ContextTimer
    private let lock = NSLock()
    private var ready = false

    init(timer: ContextTimer) {
        self.timer = timer
        super.init()
    }

    override var isReady: Bool {
        lock.lock()
        let ready = self.ready
        lock.unlock()
        return ready && super.isReady
    }

    /// Marks the operation ready (once).
    func makeReady() {
        lock.lock()
        if ready {
            lock.unlock()
            return
        }
        lock.unlock()
        willChangeValue(forKey: "isReady")
        lock.lock()
        ready = true
        lock.unlock()
        didChangeValue(forKey: "isReady")
    }

    override func main() {
        guard !isCancelled else { return }
        timer.runWork()
    }
}
