import Foundation
import Tomorrowland

/// The app's named queues. Each carries a queue-specific label, so code (and tests) can tell
/// where a callback ran.
public enum TransitQueues {
    public static let labelKey = DispatchSpecificKey<String>()

    public static let network = makeQueue("transit.network", qos: .utility)
    public static let decode = makeQueue("transit.decode", qos: .userInitiated)
    public static let storage = makeQueue("transit.storage", qos: .utility)
    public static let ledger = makeQueue("transit.ledger", qos: .userInitiated)

    /// Route computations run here, one at a time.
    public static let routing: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "transit.routing"
        queue.maxConcurrentOperationCount = 1
        return queue
    }()

    private static func makeQueue(_ label: String, qos: DispatchQoS) -> DispatchQueue {
        let queue = DispatchQueue(label: label, qos: qos)
        queue.setSpecific(key: labelKey, value: label)
        return queue
    }

    /// The label of the named queue the caller runs on, or nil.
    public static func currentLabel() -> String? {
        DispatchQueue.getSpecific(key: labelKey)
    }
}

extension PromiseContext {
    /// JSON decoding and sorting happen here, off the main queue.
    public static let transitDecode = PromiseContext.queue(TransitQueues.decode)
    /// The on-disk cache and the favourites file.
    public static let transitStorage = PromiseContext.queue(TransitQueues.storage)
}
