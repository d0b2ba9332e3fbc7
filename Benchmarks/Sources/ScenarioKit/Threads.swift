// Threads: runs a body on several threads at once, for the contention scenario (i).

import Foundation

/// Runs `body(threadIndex)` on `count` new threads at the same time and waits for all.
public func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            start.wait()
            body(index)
            done.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    done.wait()
}
