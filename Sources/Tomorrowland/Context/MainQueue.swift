// MainQueue: how `.main` decides "main" and keeps chained callbacks in one turn.

import Dispatch

/// The main-queue side of `PromiseContext.main`.
enum MainQueue {
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the caller runs on the main queue: the main thread before `dispatchMain()`,
    /// or any thread running a main-queue block after it (where `Thread.isMainThread` is
    /// false on Linux). This is what `.auto` and the main-actor executor rely on.
    static var isCurrent: Bool {
        DispatchQueue.getSpecific(key: key) != nil
    }

    /// Runs `work` on the main queue. If the calling thread is running a `.main` turn, the
    /// work joins that turn's FIFO and runs right after the current callback (rule 10).
    static func enqueue(_ work: @escaping @Sendable () -> Void) {
        let thread = ThreadState.current
        if thread.mainFIFO != nil {
            thread.mainFIFO!.append(work)
            return
        }
        DispatchQueue.main.async { runTurn(work) }
    }

    /// One main-queue turn: `first`, then everything chained onto it, in order. Each block
    /// is released before the next one starts.
    private static func runTurn(_ first: @Sendable () -> Void) {
        let thread = ThreadState.current
        let outer = thread.mainFIFO
        thread.mainFIFO = []
        first()
        var index = 0
        while index < thread.mainFIFO!.count {
            let work = thread.mainFIFO![index]
            thread.mainFIFO![index] = {}
            index += 1
            work()
        }
        thread.mainFIFO = outer
    }
}
