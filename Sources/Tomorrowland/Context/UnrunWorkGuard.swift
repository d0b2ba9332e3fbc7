// UnrunWorkGuard: a node whose scheduled work is dropped unrun (a cancelled operation)
// is still released, so its promise cannot stay pending forever (rule 1).

import Synchronization

/// Drops `node` if the work that would have fired it is released without running.
///
/// Safety of `@unchecked Sendable`: `ran` is atomic; `node` is immutable.
@usableFromInline
final class UnrunWorkGuard: @unchecked Sendable {
    private let node: PromiseNode
    private let ran = Atomic<Bool>(false)

    init(node: PromiseNode) { self.node = node }

    func markRan() { ran.store(true, ordering: .releasing) }

    deinit {
        if !ran.load(ordering: .acquiring) { node.dropped() }
    }
}
