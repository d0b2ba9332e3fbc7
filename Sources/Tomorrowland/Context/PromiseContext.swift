// PromiseContext: where a callback or promise handler runs.

import Dispatch
import Foundation

/// The context a callback or a promise handler runs on.
///
/// ## Main
/// `.main` runs on the main queue. A `.main` callback triggered while another `.main`
/// callback is running does not nest and does not wait for a new main-queue turn: it runs
/// right after the current one returns, in the same turn, in order (Tomorrowland 1.x
/// semantics). `.queue(.main)` always performs a fresh `DispatchQueue.main.async`.
///
/// "Main" is decided by the main *queue* (or main actor), never by `Thread.isMainThread`:
/// after `dispatchMain()` (every async `main`, Swift Testing) main-queue work runs on a
/// thread that is not the process's main thread.
public enum PromiseContext: Sendable {
    /// The main queue, with same-turn ordering of chained callbacks.
    case main
    /// `DispatchQueue.global(qos: .background)`.
    case background
    /// `DispatchQueue.global(qos: .utility)`.
    case utility
    /// `DispatchQueue.global(qos: .default)`.
    case `default`
    /// `DispatchQueue.global(qos: .userInitiated)`.
    case userInitiated
    /// `DispatchQueue.global(qos: .userInteractive)`.
    case userInteractive
    /// A specific dispatch queue.
    case queue(DispatchQueue)
    /// A specific operation queue: each callback is added as an operation.
    case operationQueue(OperationQueue)
    /// Synchronously, on whatever thread resolves the promise (or registers the callback on
    /// an already-resolved promise). The callback must be prepared to run on any thread.
    case immediate
    /// Synchronously if the promise is already resolved when the callback is registered,
    /// otherwise on the wrapped context. In `Promise(on:_:)` it always runs synchronously;
    /// in delayed contexts (`DelayedPromise`, `PromiseOperation`, timers) it means the
    /// wrapped context. See `isExecutingNow`.
    indirect case nowOr(PromiseContext)

    /// `.main` when called on the main queue (or main actor), otherwise `.default`.
    ///
    /// Evaluated when a method is called, not when its callback runs.
    public static var auto: PromiseContext {
        MainQueue.isCurrent ? .main : .default
    }

    /// Whether the current code runs synchronously inside a `.nowOr` callback or handler.
    ///
    /// An `.immediate` callback that runs synchronously during registration inherits the
    /// caller's value; an `.immediate` callback fired later by resolution sees `false`.
    /// The value is per thread and false everywhere else.
    public static var isExecutingNow: Bool {
        ThreadState.current.isExecutingNow
    }

    /// The context for a Dispatch QoS class: `.background`, `.utility`, `.default`,
    /// `.userInitiated` or `.userInteractive` (`.unspecified` maps to `.default`).
    public init(qos: DispatchQoS.QoSClass) {
        switch qos {
        case .background: self = .background
        case .utility: self = .utility
        case .default: self = .default
        case .userInitiated: self = .userInitiated
        case .userInteractive: self = .userInteractive
        case .unspecified: self = .default
        @unknown default: self = .default
        }
    }
}

extension PromiseContext: Equatable, Hashable {
    /// Contexts are equal when they are the same case; queues are compared by identity.
    public static func == (lhs: PromiseContext, rhs: PromiseContext) -> Bool {
        switch (lhs, rhs) {
        case (.main, .main), (.background, .background), (.utility, .utility),
             (.default, .default), (.userInitiated, .userInitiated),
             (.userInteractive, .userInteractive), (.immediate, .immediate):
            return true
        case let (.queue(a), .queue(b)): return a === b
        case let (.operationQueue(a), .operationQueue(b)): return a === b
        case let (.nowOr(a), .nowOr(b)): return a == b
        default: return false
        }
    }

    /// Hashes the case and, for queues, the queue's identity.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .main: hasher.combine(0)
        case .background: hasher.combine(1)
        case .utility: hasher.combine(2)
        case .default: hasher.combine(3)
        case .userInitiated: hasher.combine(4)
        case .userInteractive: hasher.combine(5)
        case .queue(let queue): hasher.combine(6); hasher.combine(ObjectIdentifier(queue))
        case .operationQueue(let queue): hasher.combine(7); hasher.combine(ObjectIdentifier(queue))
        case .immediate: hasher.combine(8)
        case .nowOr(let context): hasher.combine(9); hasher.combine(context)
        }
    }
}

// MARK: - Execution (internal)

extension PromiseContext {
    /// How a callback runs when it runs on the calling thread.
    @usableFromInline
    enum Inline {
        /// Keep the caller's `isExecutingNow` (an `.immediate` callback during registration).
        case inherit
        /// Set `isExecutingNow` to this value for the duration of the call.
        case executingNow(Bool)
    }

    /// Where a callback on this context runs once its promise has resolved.
    @usableFromInline
    enum Route {
        /// On the calling thread, now, with this `isExecutingNow` handling.
        case runHere(Inline)
        /// Later, through `schedule(_:)`.
        case scheduled
        /// Later, through `schedule(_:)`, on a context that may release the work without
        /// running it (an operation queue's operations can be cancelled before they start).
        /// A child promise guards its work with an `UnrunWorkGuard` (`ChildBox.scheduleGuarded`)
        /// so that it cannot stay pending. The other callers of `route` (cancel handlers, and
        /// `execute(synchronously:_:)` for `Promise(on:)`, `DelayedPromise` and `retry`)
        /// treat this case as `.scheduled`; `retry` and the timers guard their own work with an
        /// `UnrunWorkAction`.
        case scheduledGuarded
    }

    /// Where a callback on this context runs: on the calling thread (`.immediate`; `.nowOr`
    /// when `synchronously`, else where its inner context says) or scheduled.
    ///
    /// - Parameter synchronously: the promise was already resolved at registration (or
    ///   cancel was already requested, for cancel handlers), so `.nowOr` runs now.
    @inlinable
    func route(synchronously: Bool) -> Route {
        switch self {
        case .immediate: return .runHere(synchronously ? .inherit : .executingNow(false))
        case .nowOr(let inner): return synchronously ? .runHere(.executingNow(true)) : inner.route(synchronously: false)
        case .operationQueue: return .scheduledGuarded
        default: return .scheduled
        }
    }

    /// Runs `work` asynchronously on this context. `.nowOr(c)` schedules on `c`;
    /// `.immediate` runs at once (callers use `route(synchronously:)` first).
    @usableFromInline
    func schedule(_ work: @escaping @Sendable () -> Void) {
        switch self {
        case .main: MainQueue.enqueue(work)
        case .background: DispatchQueue.global(qos: .background).async(execute: work)
        case .utility: DispatchQueue.global(qos: .utility).async(execute: work)
        case .default: DispatchQueue.global(qos: .default).async(execute: work)
        case .userInitiated: DispatchQueue.global(qos: .userInitiated).async(execute: work)
        case .userInteractive: DispatchQueue.global(qos: .userInteractive).async(execute: work)
        case .queue(let queue): queue.async(execute: work)
        case .operationQueue(let queue): queue.addOperation(work)
        case .immediate: PromiseContext.withExecutingNow(false, work)
        case .nowOr(let inner): inner.schedule(work)
        }
    }

    /// Runs `work` now or schedules it, per `route(synchronously:)`.
    func execute(synchronously: Bool, _ work: @escaping @Sendable () -> Void) {
        if case .runHere(let mode) = route(synchronously: synchronously) {
            PromiseContext.run(mode, work)
        } else {
            schedule(work)
        }
    }

    /// Runs `body` on the calling thread with the `isExecutingNow` flag `mode` gives.
    @inlinable
    static func run<R>(_ mode: Inline, _ body: () throws -> R) rethrows -> R {
        switch mode {
        case .inherit: return try body()
        case .executingNow(let flag): return try withExecutingNow(flag, body)
        }
    }

    /// Runs `body` with `isExecutingNow` set to `flag`, restoring the outer value after.
    @inlinable
    static func withExecutingNow<R>(_ flag: Bool, _ body: () throws -> R) rethrows -> R {
        let thread = ThreadState.current
        let saved = thread.isExecutingNow
        thread.isExecutingNow = flag
        defer { thread.isExecutingNow = saved }
        return try body()
    }
}
