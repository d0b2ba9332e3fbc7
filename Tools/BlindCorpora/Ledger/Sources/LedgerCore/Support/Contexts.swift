import Foundation
import Tomorrowland

/// The queues the ledger core owns.
public enum LedgerQueues {
    /// The one serial queue every read and write of the ledger database runs on.
    public static let database = DispatchQueue(label: "com.example.ledger.database", qos: .userInitiated)

    /// FX math and cache bookkeeping. Serial, so cache writes happen in order.
    public static let fx = DispatchQueue(label: "com.example.ledger.fx", qos: .utility)

    /// Scheduled transfers go out one at a time, in the order they were confirmed.
    public static let scheduledTransfers: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "com.example.ledger.scheduled-transfers"
        queue.maxConcurrentOperationCount = 1
        return queue
    }()
}

extension PromiseContext {
    /// Callbacks that read or write the ledger database.
    public static let ledgerDB = PromiseContext.queue(LedgerQueues.database)

    /// FX conversions and rate bookkeeping.
    public static let fx = PromiseContext.queue(LedgerQueues.fx)

    /// Where feature code delivers results to the screen.
    public static let ui = PromiseContext.main

    /// Background work the user is actively waiting for.
    static let interactive = PromiseContext(qos: .userInitiated)
}
