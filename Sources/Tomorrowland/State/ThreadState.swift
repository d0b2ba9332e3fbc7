// ThreadState: the per-thread state: the delivery and cancel-request stacks (and the steps their loops
// share), `PromiseContext.isExecutingNow`, and the `.main` FIFO.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// State that belongs to one thread. Never shared: reached only through `current`.
///
/// Safety of `@unchecked Sendable` (and of unchecked exclusivity on its fields): an instance
/// is only ever touched by the thread whose thread-specific slot holds it.
@usableFromInline
final class ThreadState: @unchecked Sendable {
    /// One promise's list still to fire: on the delivery stack its callbacks, on the cancel
    /// stack its cancel handlers.
    struct Frame {
        /// The promise the list was taken from, retained by the frame until `popFrame()`
        /// (except the delivery stack's frames made with `init(adopting:)`, see `Delivery.run`).
        /// `Unmanaged` so that the loops pass it on borrowed (`_withUnsafeGuaranteedRef`)
        /// instead of paying a retain and a release per node fired: the frame keeps its retain
        /// until the loop pops it, which is only after its list is done, so the promise outlives
        /// each call (frames pushed meanwhile go above; the array may move, the object does not).
        let core: Unmanaged<PromiseCore>
        /// The nodes still to fire, in registration order. Each is retained by the list.
        var remaining: Unmanaged<PromiseNode>?

        init(core: PromiseCore, remaining: Unmanaged<PromiseNode>?) {
            self.core = Unmanaged.passRetained(core)
            self.remaining = remaining
        }

        /// A frame that holds `core` through a reference that is not its own: one the caller
        /// hands over (the delivery loop's reference to the node it is firing, which is
        /// `core`), or, for the outermost delivery's frame, the reference of that call's caller.
        init(adopting core: Unmanaged<PromiseCore>, remaining: Unmanaged<PromiseNode>?) {
            self.core = core
            self.remaining = remaining
        }
    }

    /// Depth-first delivery stack (rule 19): the top frame fires next (`Delivery`).
    @exclusivity(unchecked) var deliveryStack: [Frame] = []
    /// Whether `Delivery.deliver` is running its loop on this thread.
    @exclusivity(unchecked) var isDelivering = false
    /// The node the delivery loop is firing (its address), while it fires.
    @exclusivity(unchecked) var firingNode: UnsafeMutableRawPointer? = nil
    /// Set when the firing node published its own list and its frame adopted the loop's
    /// reference to it: the loop then does not release the node.
    @exclusivity(unchecked) var firingNodeAdopted = false
    /// Depth-first stack of cancel requests (`PromiseCore.requestCancel`): the top runs next.
    @exclusivity(unchecked) var cancelStack: [Frame] = []
    /// Whether `PromiseCore.requestCancel` is running its loop on this thread.
    @exclusivity(unchecked) var isCancelling = false
    /// `PromiseContext.isExecutingNow` (rule 13).
    @usableFromInline @exclusivity(unchecked) var isExecutingNow = false
    /// Non-nil while this thread runs a `.main` turn: `.main` work enqueued now runs after
    /// the current block in the same turn (rule 10).
    @exclusivity(unchecked) var mainFIFO: [@Sendable () -> Void]? = nil

    /// The thread-specific key plus one; 0 until the first thread creates it. An `Atomic` of
    /// an integer with a constant initial value is laid out statically, so `key` is one load;
    /// a `static let` computed by a closure costs a `swift_once` call on every access (one per
    /// delivery, per cancel request).
    private static let keyPlusOne = SharedAtomic<UInt>(0, "threadKey")  // word-sized: pthread_key_t fits on every platform

    /// The key of the thread-specific slot that owns each thread's state.
    @inline(__always)
    private static var key: pthread_key_t {
        // Acquiring: pairs with `createKey`'s compare-exchange (the key was created before it
        // was published). No schedule point (`unscheduledLoad`): the cell is written once, by
        // that compare-exchange, which is one; this load is on every delivery's path.
        let stored = keyPlusOne.unscheduledLoad(ordering: .acquiring)
        if stored != 0 { return pthread_key_t(truncatingIfNeeded: stored &- 1) }
        return createKey()
    }

    /// Creates the key; if another thread published one first, deletes this one and uses that.
    @inline(never)
    private static func createKey() -> pthread_key_t {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<ThreadState>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<ThreadState>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "Tomorrowland: pthread_key_create failed")
        let (published, winner) = keyPlusOne.compareExchange(
            expected: 0, desired: UInt(key) &+ 1, ordering: .acquiringAndReleasing)
        if published { return key }
        pthread_key_delete(key)
        return pthread_key_t(truncatingIfNeeded: winner &- 1)
    }

    /// The calling thread's state, created on first use.
    @usableFromInline
    static var current: ThreadState {
        currentUnretained.takeUnretainedValue()
    }

    /// The calling thread's state without a retain: the thread-specific slot owns it until
    /// the thread exits (its destructor is the only release), so the calling thread may use
    /// it through `_withUnsafeGuaranteedRef` for as long as it runs. The delivery loop
    /// uses this: a strong `current` costs a retain and a release (two atomic RMWs) per
    /// resolution that delivers callbacks.
    @inline(__always)
    static var currentUnretained: Unmanaged<ThreadState> {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadState>.fromOpaque(pointer)
        }
        let state = Unmanaged.passRetained(ThreadState())
        pthread_setspecific(key, state.toOpaque())
        return state
    }
}

/// The two steps the delivery loop and the cancel-request loop share. Both drain a stack of
/// frames depth-first: fire the next node of the top frame, then put the frames that node
/// pushed in push order.
extension Array where Element == ThreadState.Frame {
    /// Unlinks and returns the next node of frame `top`, with the list's retain; `nil` once
    /// its list is done.
    @inline(__always)
    mutating func takeUnmanagedNode(at top: Int) -> Unmanaged<PromiseNode>? {
        guard let node = self[top].remaining else { return nil }
        node._withUnsafeGuaranteedRef {
            self[top].remaining = $0.next
            $0.next = nil
        }
        return node
    }

    /// Unlinks and returns the next node of frame `top`; `nil` once its list is done.
    @inline(__always)
    mutating func takeNode(at top: Int) -> PromiseNode? {
        guard let node = self[top].remaining else { return nil }
        let object = node.takeRetainedValue()
        self[top].remaining = object.next
        object.next = nil
        return object
    }

    /// Removes the top frame and returns its promise with the frame's retain.
    @inline(__always) @discardableResult
    mutating func popFrame() -> PromiseCore {
        removeLast().core.takeRetainedValue()
    }

    /// Rule 19: the frames pushed while the node of frame `top` fired (usually none or one)
    /// go on top in push order: the first pushed is carried out first, as a nested call
    /// would have done, before the rest of the list that node came from.
    @inline(__always)
    mutating func orderPushed(above top: Int) {
        if count > top + 2 {
            self[(top + 1)...].reverse()
        }
    }
}
