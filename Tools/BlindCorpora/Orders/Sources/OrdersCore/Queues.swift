import Foundation

/// The queues the ordering code runs its work on, each tagged so that code (and tests) can ask
/// which queue they are running on.
public enum OrderQueues {
    public static let tagKey = DispatchSpecificKey<String>()

    /// Pricing math runs here, serially.
    public static let pricing = DispatchQueue(label: "orders.pricing")
    /// Kitchen tickets are bookkept here.
    public static let kitchen = DispatchQueue(label: "orders.kitchen")
    /// The payment coordinator's state lives here.
    public static let payments = DispatchQueue(label: "orders.payments")

    private static let installTags: Void = {
        pricing.setSpecific(key: tagKey, value: "pricing")
        kitchen.setSpecific(key: tagKey, value: "kitchen")
        payments.setSpecific(key: tagKey, value: "payments")
        DispatchQueue.main.setSpecific(key: tagKey, value: "main")
        DispatchQueue.global(qos: .utility).setSpecific(key: tagKey, value: "utility")
    }()

    /// Tags the queues. Safe to call any number of times.
    public static func install() {
        _ = installTags
    }

    /// The tag of the queue the caller runs on, or "untagged".
    public static func whereAmI() -> String {
        install()
        return DispatchQueue.getSpecific(key: tagKey) ?? "untagged"
    }
}
