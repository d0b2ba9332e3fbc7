// PromiseNode: anything that can sit in one of a promise's two intrusive lists.

/// The base class of every entry in a promise's callback list or cancel-handler list.
///
/// Lists are lock-free Treiber stacks of retained nodes (see `PromiseCore`). A node is
/// in at most one list at a time. Child promises *are* nodes: registering `map` on a
/// promise pushes the child's own box onto the parent's list, so a chained operator
/// costs no separate node allocation.
///
/// Safety of `@unchecked Sendable`: `next` is written only before the node is published
/// by a compare-exchange and read only by the single thread that took the whole list.
@usableFromInline
class PromiseNode: @unchecked Sendable {
    /// Intrusive link; the list owns one retain of each node, `next` itself is unretained.
    @exclusivity(unchecked) final var next: Unmanaged<PromiseNode>?

    @inlinable init() {}

    /// The promise this node is registered on (its *upstream*) has resolved.
    ///
    /// - Parameter synchronously: `true` when the upstream was already resolved at
    ///   registration, so `.nowOr` may run at once (rule 12); `false` when called from
    ///   the delivery loop of the resolving thread.
    func upstreamResolved(_ upstream: PromiseCore, synchronously: Bool) {}

    /// The promise this node is registered on as a cancel handler was asked to cancel.
    func upstreamRequestedCancel(_ upstream: PromiseCore, synchronously: Bool) {}

    /// The node was removed from its list without firing (its promise resolved before a
    /// cancel handler ran, or the list was torn down). Releases whatever the node kept alive.
    func dropped() {}

    /// Whether firing this node runs no user code and resolves nothing (an awaiting Task's
    /// node only resumes a continuation): `Delivery` then fires it, when it is a list's only
    /// node on a thread not delivering, at once instead of through the delivery stack.
    var runsNoUserCode: Bool { false }

    // An awaiting Task waits on a node: a `PromiseAwaiter`, or a `TaskPromiseBox`'s own await
    // slot. Only those two override these (`suspend(on:)` calls them); virtual here, rather
    // than a protocol's, so the waiting Task can hold its target unmanaged.

    /// Await targets only: stores the awaiting Task's continuation and waits (a node registers
    /// on its promise, a box's slot arms); resumes it at once if the wait already ended.
    @usableFromInline
    func storeContinuationAndWait(_ continuation: AwaitContinuation) {
        preconditionFailure("Tomorrowland: not an await target")
    }

    /// Await targets only: the awaiting Task was cancelled. Requests cancel as its observer (its
    /// code's handles waived) and, with `stopWaitingOnCancel`, stops the wait.
    @usableFromInline
    func requestCancelForAwaitingTask() {
        preconditionFailure("Tomorrowland: not an await target")
    }
}

/// Sentinel heads. A list whose head is a sentinel is closed to new nodes. Which list passes
/// through which sentinel, and when, is `ListHead`'s (PromiseState.swift).
///
/// A sentinel is the address of a marker type's metadata: a symbol of the binary, known at
/// link time, never the address of a heap object and so never that of a node. It is only
/// compared, never retained or dereferenced. (Sentinel objects in `static let`s cost a
/// `swift_once` call on every access, several per promise.)
enum Sentinel {
    /// Marks the callback list closed by resolution: registrants fire their node themselves.
    private enum Resolved {}
    /// Marks the cancel-handler list closed by a cancel request: new handlers run at once.
    private enum CancelRequested {}

    /// Callback list: the promise is resolved; registrants fire their node themselves.
    @inline(__always) static var resolvedRef: Unmanaged<PromiseNode> { marker(Resolved.self) }
    /// Cancel-handler list: cancellation was requested; new handlers run at once.
    @inline(__always) static var cancelRequestedRef: Unmanaged<PromiseNode> { marker(CancelRequested.self) }

    /// The address of `type`'s metadata as a list head (a constant in optimized code).
    @inline(__always)
    private static func marker(_ type: Any.Type) -> Unmanaged<PromiseNode> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(type)))!)
    }

    @inline(__always)
    static func isResolved(_ node: Unmanaged<PromiseNode>?) -> Bool {
        node?.toOpaque() == resolvedRef.toOpaque()
    }

    @inline(__always)
    static func isCancelRequested(_ node: Unmanaged<PromiseNode>?) -> Bool {
        node?.toOpaque() == cancelRequestedRef.toOpaque()
    }

    @inline(__always)
    static func isSentinel(_ node: Unmanaged<PromiseNode>?) -> Bool {
        isResolved(node) || isCancelRequested(node)
    }
}

/// Reverses a LIFO list taken from a Treiber stack into registration (FIFO) order.
@inline(__always)
func reverseList(_ head: Unmanaged<PromiseNode>?) -> Unmanaged<PromiseNode>? {
    var reversed: Unmanaged<PromiseNode>? = nil
    var current = head
    while let node = current {
        let object = node._withUnsafeGuaranteedRef { $0 }
        current = object.next
        object.next = reversed
        reversed = node
    }
    return reversed
}

/// Releases every node of a list taken from a promise without firing them.
func dropList(_ head: Unmanaged<PromiseNode>?) {
    var current = head
    while let node = current {
        let object = node.takeRetainedValue()
        current = object.next
        object.next = nil
        object.dropped()
    }
}
