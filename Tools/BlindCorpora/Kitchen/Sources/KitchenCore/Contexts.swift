import Foundation
import Tomorrowland

/// The kitchen's own queues. Each one is serial; the label shows up in crash logs.
public enum KitchenQueues {
    /// Marks a queue so that code (and tests) can ask which queue it runs on.
    public static let nameKey = DispatchSpecificKey<String>()

    public static let pass = makeQueue("kitchen.pass")
    public static let printer = makeQueue("kitchen.printer")
    public static let inventory = makeQueue("kitchen.inventory")

    static func makeQueue(_ label: String) -> DispatchQueue {
        let queue = DispatchQueue(label: label, qos: .userInitiated)
        queue.setSpecific(key: nameKey, value: label)
        return queue
    }

    /// The label of the kitchen queue the caller runs on, if any.
    public static var current: String? {
        DispatchQueue.getSpecific(key: nameKey)
    }
}

extension PromiseContext {
    /// The pass: where a finished order is assembled. Serial, so pass callbacks never overlap.
    public static let pass = PromiseContext.queue(KitchenQueues.pass)

    /// Printing: one ticket at a time.
    public static let printing = PromiseContext.queue(KitchenQueues.printer)

    /// Where the kitchen display is refreshed.
    public static let display = PromiseContext.main
}
