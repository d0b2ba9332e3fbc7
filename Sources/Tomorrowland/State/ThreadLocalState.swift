// Per-thread state: the delivery and cancel-request stacks, `PromiseContext.isExecutingNow`,
// and the `.main` FIFO.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// State that belongs to one thread. Never shared: reached only through `current`.
///
/// Safety of `@unchecked Sendable` (and of unchecked exclusivity on its fields): an instance
/// is only ever touched by the thread whose thread-specific slot holds it.
@usableFromInline
final class ThreadState: @unchecked Sendable {
    /// One promise whose callback list is being delivered on this thread.
    struct Cursor {
        /// The resolved promise (kept alive by the cursor).
        let upstream: PromiseCore
        /// The nodes still to fire, in registration order. Each is retained by the list.
        var remaining: Unmanaged<PromiseNode>?
    }

    /// One promise whose cancel request is being carried out on this thread.
    struct CancelFrame {
        /// The promise asked to cancel (kept alive by the frame).
        let core: PromiseCore
        /// Its cancel handlers still to run, in registration order. Each is retained by the list.
        var handlers: Unmanaged<PromiseNode>?
    }

    /// Depth-first delivery stack (rule 19): the top cursor fires next.
    @exclusivity(unchecked) var deliveryStack: [Cursor] = []
    /// Whether `Delivery.deliver` is running its loop on this thread.
    @exclusivity(unchecked) var isDelivering = false
    /// Depth-first stack of cancel requests (`PromiseCore.requestCancel`): the top runs next.
    @exclusivity(unchecked) var cancelStack: [CancelFrame] = []
    /// Whether `PromiseCore.requestCancel` is running its loop on this thread.
    @exclusivity(unchecked) var isCancelling = false
    /// `PromiseContext.isExecutingNow` (rule 13).
    @usableFromInline @exclusivity(unchecked) var isExecutingNow = false
    /// Non-nil while this thread runs a `.main` turn: `.main` work enqueued now runs after
    /// the current block in the same turn (rule 10).
    var mainFIFO: [@Sendable () -> Void]? = nil

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<ThreadState>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<ThreadState>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "Tomorrowland: pthread_key_create failed")
        return key
    }()

    /// The calling thread's state, created on first use.
    @usableFromInline
    static var current: ThreadState {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadState>.fromOpaque(pointer).takeUnretainedValue()
        }
        let state = ThreadState()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }
}
