// Delivery: how a resolved promise's callbacks are fired without recursion.

/// Fires callback lists iteratively, depth-first, in constant stack.
///
/// When a promise resolves, its list is pushed onto the thread's delivery stack. If the
/// thread is not delivering yet, it runs the loop: fire the next node of the top cursor;
/// a node that resolves a child synchronously (an `.immediate` callback, a pipe) pushes
/// the child's list, which is therefore delivered before the parent's remaining nodes —
/// the order recursion would give (rule 19) — while the stack depth stays constant.
enum Delivery {
    /// Delivers `list` (already in registration order) of the resolved `upstream`.
    ///
    /// - Parameter inline: `true` when the resolution comes from user code (a `Resolver`):
    ///   the callbacks have run (or been scheduled) by the time this returns, even inside a
    ///   callback that is itself being delivered. `false` for internal resolutions (a child
    ///   or a pipe), which the enclosing loop picks up: that is what keeps chains flat.
    static func deliver(_ upstream: PromiseCore, list: Unmanaged<PromiseNode>?, inline: Bool) {
        guard list != nil else { return }
        let thread = ThreadState.current
        thread.deliveryStack.append(.init(upstream: upstream, remaining: list))
        // Callbacks fired by resolution run with `isExecutingNow == false` (rule 13); the loop
        // sets it once for all of them.
        if thread.isDelivering {
            guard inline else { return }
            let executingNow = thread.isExecutingNow
            thread.isExecutingNow = false
            run(thread, downTo: thread.deliveryStack.count - 1)
            thread.isExecutingNow = executingNow
        } else {
            let executingNow = thread.isExecutingNow
            thread.isExecutingNow = false
            thread.isDelivering = true
            run(thread, downTo: 0)
            thread.isDelivering = false
            thread.isExecutingNow = executingNow
        }
    }

    private static func run(_ thread: ThreadState, downTo floor: Int) {
        while thread.deliveryStack.count > floor {
            let top = thread.deliveryStack.count - 1
            guard let node = thread.deliveryStack[top].remaining else {
                thread.deliveryStack.removeLast()
                continue
            }
            let object = node.takeRetainedValue()
            thread.deliveryStack[top].remaining = object.next
            object.next = nil
            object.upstreamResolved(thread.deliveryStack[top].upstream, synchronously: false)
        }
    }
}
