import Foundation
import Tomorrowland

/// Stock levels, by SKU.
///
/// `@unchecked Sendable` is safe: `stock` and `reservations` are only touched while `lock`
/// is held, and the store has no other mutable state.
public final class InventoryStore: @unchecked Sendable {
    private let lock = NSLock()
    private var stock: [String: Int]
    private var reservations: [String: Reservation] = [:]

    /// Where reservations are computed. A property so that a busy kitchen can put it on its
    /// own queue and tests can make it `.immediate`.
    public let context: PromiseContext

    public init(stock: [String: Int], context: PromiseContext = .queue(KitchenQueues.inventory)) {
        self.stock = stock
        self.context = context
    }

    public func level(of sku: String) -> Int {
        lock.lock(); defer { lock.unlock() }
        return stock[sku] ?? 0
    }

    /// Takes the order's items out of stock, or fails without touching the stock.
    public func reserve(for order: Order) -> Promise<Reservation, InventoryError> {
        guard !order.items.isEmpty else {
            return Promise(rejected: .emptyOrder)
        }
        return Promise(on: context) { resolver in
            self.lock.lock()
            defer { self.lock.unlock() }
            var needed: [String: Int] = [:]
            for item in order.items {
                needed[item.sku, default: 0] += item.quantity
            }
            for (sku, count) in needed.sorted(by: { $0.key < $1.key }) {
                let have = self.stock[sku] ?? 0
                if have < count {
                    resolver.reject(with: .shortage(sku: sku, missing: count - have))
                    return
                }
            }
            for (sku, count) in needed {
                self.stock[sku, default: 0] -= count
            }
            let reservation = Reservation(orderID: order.id, skus: needed)
            self.reservations[order.id] = reservation
            resolver.fulfill(with: reservation)
        }
    }

    /// Puts a reservation's items back (an order was voided or failed at a station).
    @discardableResult
    public func release(_ reservation: Reservation) -> Promise<Int, NoError> {
        return Promise(on: context) { resolver in
            self.lock.lock()
            defer { self.lock.unlock() }
            guard self.reservations.removeValue(forKey: reservation.orderID) != nil else {
                resolver.fulfill(with: 0)
                return
            }
            var returned = 0
            for (sku, count) in reservation.skus {
                self.stock[sku, default: 0] += count
                returned += count
            }
            resolver.fulfill(with: returned)
        }
    }

    /// A delivery of stock arriving at the back door, booked after the driver's checklist.
    public func restock(_ sku: String, amount: Int, after delay: TimeInterval) -> Promise<Int, NoError> {
        return Promise<Int, NoError>(on: .utility, fulfilled: amount, after: delay)
            .map(on: context) { amount in
                self.lock.lock()
                defer { self.lock.unlock() }
                self.stock[sku, default: 0] += amount
                return self.stock[sku] ?? 0
            }
    }
}
