// Delivery: how a resolved promise's callbacks are fired without recursion.

/// Fires callback lists iteratively, depth-first, in constant stack.
///
/// When a promise resolves, its list is pushed onto the thread's delivery stack. If the
/// thread is not delivering yet, it runs the loop: fire the next node of the top frame
/// (the steps the cancel-request loop shares: `takeNode`, `orderPushed`).
/// Every resolution that happens on this thread while a node fires — a child resolved by
/// its callback, a pipe, and also a `Resolver` call made by user code inside an
/// `.immediate` callback — only publishes its result and pushes its list: nothing is
/// delivered nested (rule 19: "A resolution made while the thread is delivering callbacks
/// [...] does not nest: the result is recorded at once, and the callbacks it triggers run
/// right after the current callback returns").
/// The lists pushed while one node fired are then delivered in the order they were
/// pushed, before the rest of the list that node came from — the order recursion would
/// give, except that the callback itself has returned first — while the stack depth
/// stays constant.
enum Delivery {
    /// Delivers `list` (already in registration order) of the resolved `upstream`: at once
    /// if the thread is not delivering, else after the callback being delivered returns.
    static func deliver(_ upstream: PromiseCore, list: Unmanaged<PromiseNode>?) {
        guard let head = list else { return }
        // Borrowed, not retained: the thread's slot keeps it alive while this thread runs.
        ThreadState.currentUnretained._withUnsafeGuaranteedRef { thread in
            // The common list of an awaited promise: one node that runs no user code (an
            // awaiting Task's, which only resumes a continuation), so nothing can nest and
            // nothing is left to order. Outside a delivery it fires here, without the stack;
            // inside one it waits its turn.
            if !thread.isDelivering, let node = loneNodeRunningNoUserCode(head) {
                node.upstreamResolved(upstream, synchronously: false)
                return
            }
            let core = Unmanaged.passUnretained(upstream)
            if thread.isDelivering {
                if core.toOpaque() == thread.firingNode {
                    // The node being fired is this promise (a child resolved by its callback):
                    // its frame adopts the loop's reference to it instead of taking its own.
                    thread.firingNodeAdopted = true
                    thread.deliveryStack.append(.init(adopting: core, remaining: list))
                } else {
                    thread.deliveryStack.append(.init(core: upstream, remaining: list))
                }
                return
            }
            // The outermost frame (index 0) borrows the promise: this call's caller keeps it
            // alive until the loop below has returned, and the loop pops frame 0 without a
            // release.
            thread.deliveryStack.append(.init(adopting: core, remaining: list))
            // Callbacks fired by resolution run with `isExecutingNow == false` (rule 13); the
            // loop sets it once for all of them.
            let executingNow = thread.isExecutingNow
            thread.isExecutingNow = false
            thread.isDelivering = true
            run(thread)
            thread.isDelivering = false
            thread.isExecutingNow = executingNow
        }
    }

    /// The list's only node, taken, if it runs no user code (`PromiseNode.runsNoUserCode`).
    @inline(__always)
    private static func loneNodeRunningNoUserCode(_ head: Unmanaged<PromiseNode>) -> PromiseNode? {
        let node = head._withUnsafeGuaranteedRef { $0 }
        guard node.next == nil, node.runsNoUserCode else { return nil }
        return head.takeRetainedValue()
    }

    /// The loop. Each node is taken with the list's reference, fired borrowed, then released,
    /// unless it published its own list meanwhile: that frame adopted the reference (so the
    /// node, a child box, costs no retain at the push and no release after firing), and
    /// releases it when popped. Either way the node stays alive while it fires, and its
    /// frame's promise until the frame is popped. Frame 0 is the outermost `deliver`'s, whose
    /// promise that call's caller keeps alive (a method's `self`): it is pushed and popped
    /// without a retain and a release.
    private static func run(_ thread: ThreadState) {
        while let top = thread.deliveryStack.indices.last {
            guard let node = thread.deliveryStack.takeUnmanagedNode(at: top) else {
                if top == 0 {
                    thread.deliveryStack.removeLast()  // the outermost frame: borrowed
                } else {
                    thread.deliveryStack.popFrame()
                }
                continue
            }
            thread.firingNode = node.toOpaque()
            thread.deliveryStack[top].core._withUnsafeGuaranteedRef { upstream in
                node._withUnsafeGuaranteedRef { $0.upstreamResolved(upstream, synchronously: false) }
            }
            thread.firingNode = nil
            if thread.firingNodeAdopted {
                thread.firingNodeAdopted = false
            } else {
                node.release()
            }
            thread.deliveryStack.orderPushed(above: top)
        }
    }
}
