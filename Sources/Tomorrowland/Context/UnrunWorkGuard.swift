// UnrunWorkGuard: a node whose scheduled work is dropped unrun (a cancelled operation)
// is still released, so its promise cannot stay pending forever (rule 1). UnrunWorkAction:
// the same for work that is not a node (a retry's next step, a timer's resolution).

import Synchronization

/// Drops `node` if the work that would have fired it is released without running.
///
/// Safety of `@unchecked Sendable`: `ran` is atomic; `node` is immutable.
@usableFromInline
final class UnrunWorkGuard: @unchecked Sendable {
    private let node: PromiseNode
    private let ran = SharedAtomic<Bool>(false, "unrunWork.ran")

    init(node: PromiseNode) { self.node = node }

    /// Releasing, and the unshared load in `deinit` acquiring: the work ran on the queue's
    /// thread, the last release of the guard may come from another.
    func markRan() { ran.store(true, ordering: .releasing) }

    deinit {
        if !ran.unsharedLoad(ordering: .acquiring) { node.dropped() }
    }
}

/// Runs `action` if the work that would have run instead is released without running: for
/// work that resolves something other than a node (a `retry`'s next step, a delayed
/// promise's resolution), which would otherwise stay pending for good. Made only for contexts
/// that may drop work (`PromiseContext.mayDropWork`; test it before building the action's
/// closure, which would otherwise be allocated on every context).
///
/// Safety of `@unchecked Sendable`: `ran` is atomic; `action` is immutable and `@Sendable`.
final class UnrunWorkAction: @unchecked Sendable {
    private let action: @Sendable () -> Void
    private let ran = SharedAtomic<Bool>(false, "unrunWork.ran")

    init(_ action: @escaping @Sendable () -> Void) { self.action = action }

    /// As `UnrunWorkGuard.markRan`.
    func markRan() { ran.store(true, ordering: .releasing) }

    deinit {
        if !ran.unsharedLoad(ordering: .acquiring) { action() }
    }
}

extension PromiseContext {
    /// Whether work scheduled here may be released without running: an operation queue's
    /// operations can be cancelled before they start.
    var mayDropWork: Bool {
        switch self {
        case .operationQueue: return true
        case .nowOr(let inner): return inner.mayDropWork
        default: return false
        }
    }
}
