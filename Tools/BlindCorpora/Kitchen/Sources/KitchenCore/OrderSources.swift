import Foundation
import Tomorrowland

/// Something the kitchen takes orders from: the dining room's POS, a delivery platform.
public protocol OrderSource: AnyObject {
    var name: String { get }

    /// Orders that arrived since the last call.
    func fetchNewOrders() -> StdPromise<[Order]>

    /// Tells the source the kitchen accepted the order.
    func acknowledge(_ order: Order) -> Promise<Void, KitchenError>
}

/// The dining room's point of sale: servers ring orders in, the kitchen takes them.
///
/// Not thread-safe: `ringIn` and `fetchNewOrders` are called from the main queue.
public final class DiningRoomPOS: OrderSource {
    public let name = "dining room"
    private var rungIn: [Order] = []
    public private(set) var acknowledged: [String] = []

    public init() {}

    public func ringIn(table: Int, items: [OrderItem], note: String? = nil) -> Order {
        let order = Order(id: "T\(table)-\(rungIn.count + acknowledged.count + 1)", channel: .table(table),
                          items: items, note: note)
        rungIn.append(order)
        return order
    }

    public func fetchNewOrders() -> StdPromise<[Order]> {
        let orders = rungIn
        rungIn = []
        return Promise(fulfilled: orders)
    }

    public func acknowledge(_ order: Order) -> Promise<Void, KitchenError> {
        guard case .table = order.channel else {
            return Promise(rejected: .platformRejected(order.id))
        }
        acknowledged.append(order.id)
        return Promise(fulfilled: ())
    }
}

/// A delivery platform's order feed, polled over the network.
///
/// `@unchecked Sendable` is safe: `seen` and `pollCount` are only touched on `stateQueue`,
/// a private serial queue (reads go through `stateQueue.sync`).
public final class DeliveryPlatformFeed: OrderSource, @unchecked Sendable {
    public let name: String
    private let backend: KitchenBackend
    private let stateQueue = DispatchQueue(label: "kitchen.feed.state")
    private var seen: Set<String> = []
    private var pollCount = 0
    /// How long a poll may take before the kitchen gives up on it.
    public var pollTimeout: TimeInterval = 5

    public init(platform: String, backend: KitchenBackend) {
        self.name = platform
        self.backend = backend
    }

    public var polls: Int {
        return stateQueue.sync { pollCount }
    }

    public func fetchNewOrders() -> StdPromise<[Order]> {
        stateQueue.sync { pollCount += 1 }
        return backend.pollOrders(platform: name)
            .timeout(on: .utility, delay: pollTimeout)
            .map(on: .queue(stateQueue)) { [weak self] orders -> [Order] in
                guard let self = self else { return orders }
                // Platforms resend orders they think we missed.
                let fresh = orders.filter { !self.seen.contains($0.id) }
                self.seen.formUnion(fresh.map { $0.id })
                return fresh
            }
    }

    public func acknowledge(_ order: Order) -> Promise<Void, KitchenError> {
        return backend.confirm(orderID: order.id, platform: name)
            .mapError(on: .immediate) { error -> KitchenError in
                if let kitchenError = error as? KitchenError {
                    return kitchenError
                }
                return .platformRejected(order.id)
            }
    }
}
