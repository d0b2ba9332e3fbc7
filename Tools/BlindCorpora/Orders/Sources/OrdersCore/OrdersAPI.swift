import Foundation
import Tomorrowland

/// The typed client of the ordering backend.
public final class OrdersAPI {
    public let server: FakeServer
    private let lock = NSLock()
    private var menuLoads: [Int: Promise<Menu, NetworkError>] = [:]
    /// Where the last price list was parsed (a queue tag).
    public let lastPriceParseQueue = Guarded<String?>(nil)

    public init(server: FakeServer) {
        self.server = server
        OrderQueues.install()
    }

    /// Loads and parses a restaurant's menu on a utility queue.
    public func fetchMenu(restaurantID: Int) -> Promise<Menu, NetworkError> {
        return server.get("menu/\(restaurantID)").flatMap(on: .utility) { body -> Promise<Menu, NetworkError> in
            guard let items = Parsing.menuItems(body) else {
                return Promise(rejected: .decoding("menu/\(restaurantID)"))
            }
            let menu = Menu(restaurantID: restaurantID, items: items, source: "primary",
                            parsedOn: OrderQueues.whereAmI())
            return Promise(fulfilled: menu)
        }
    }

    /// Like `fetchMenu`, but falls back to the mirror when the primary is offline or failing.
    public func fetchMenuWithFallback(restaurantID: Int) -> Promise<Menu, NetworkError> {
        return fetchMenu(restaurantID: restaurantID).flatMapError(on: .utility) { error -> Promise<Menu, NetworkError> in
            switch error {
            case .offline, .server:
                return self.server.get("mirror/menu/\(restaurantID)").map(on: .utility) { body in
                    let items = Parsing.menuItems(body) ?? []
                    return Menu(restaurantID: restaurantID, items: items, source: "mirror",
                                parsedOn: OrderQueues.whereAmI())
                }
            case .notFound, .decoding:
                return Promise(rejected: error)
            }
        }
    }

    /// The current price list, parsed on the pricing queue.
    public func fetchCurrentPrices() -> StdPromise<[String: Int]> {
        return server.get("prices").upcast.tryMap(on: .queue(OrderQueues.pricing)) { body in
            self.lastPriceParseQueue.value = OrderQueues.whereAmI()
            let prices = try Parsing.prices(body)
            guard !prices.isEmpty else {
                throw NetworkError.decoding("prices: empty")
            }
            return prices
        }
    }

    /// One item's price, or `fallback` if the price list can't be had (reported to telemetry).
    public func fetchPrice(itemID: String, default fallback: Int) -> Promise<Int, NoError> {
        return fetchCurrentPrices().map(on: .immediate) { prices in
            prices[itemID] ?? fallback
        }.recover(on: .utility) { error in
            // Tell the backend we had to fall back; nobody waits for that answer.
            _ = self.server.post("telemetry", body: "price-fallback \(itemID)")
            return fallback
        }
    }

    /// The menu as checkout needs it: errors as `CheckoutError`, an empty menu is an error.
    public func fetchMenuForCheckout(restaurantID: Int) -> Promise<Menu, CheckoutError> {
        return fetchMenuWithFallback(restaurantID: restaurantID)
            .mapError(on: .immediate) { CheckoutError.network($0) }
            .flatMap(on: .utility) { menu -> Promise<Menu, CheckoutError> in
                if menu.items.isEmpty {
                    return Promise(rejected: .menuUnavailable)
                }
                return Promise(fulfilled: menu)
            }
    }

    /// One network load per restaurant however many screens ask; it is cancelled only when
    /// every caller has cancelled.
    public func sharedMenu(restaurantID: Int) -> Promise<Menu, NetworkError> {
        lock.lock()
        if let existing = menuLoads[restaurantID] {
            lock.unlock()
            return existing.makeChild()
        }
        let load = fetchMenu(restaurantID: restaurantID).propagatingCancellation(on: .immediate) { [weak self] promise in
            self?.forgetMenuLoad(restaurantID, ifItIs: promise)
        }
        menuLoads[restaurantID] = load
        lock.unlock()
        load.tap(on: .immediate) { [weak self] result in
            if result.value == nil {
                self?.forgetMenuLoad(restaurantID, ifItIs: load)
            }
        }
        return load.makeChild()
    }

    private func forgetMenuLoad(_ restaurantID: Int, ifItIs promise: Promise<Menu, NetworkError>) {
        lock.lock()
        if menuLoads[restaurantID] == promise {
            menuLoads[restaurantID] = nil
        }
        lock.unlock()
    }

    /// Minutes until the order arrives; gives up after `timeout` seconds.
    public func fetchETA(orderID: String, timeout: TimeInterval = 5) -> Promise<Int, PromiseTimeoutError<NetworkError>> {
        return server.get("eta/\(orderID)").map(on: .utility) { body in
            Int(body.trimmingCharacters(in: .whitespaces)) ?? 0
        }.timeout(on: .utility, delay: timeout)
    }

    /// The order's status, delivered on the kitchen queue after a short settling delay (the
    /// status endpoint flaps for a moment after a change).
    public func fetchStatus(orderID: String, settleDelay: TimeInterval = 0.01) -> Promise<OrderStatus, NetworkError> {
        return server.get("orders/\(orderID)/status").map(on: .utility) { body in
            OrderStatus(rawValue: body) ?? .placed
        }.delay(on: .queue(OrderQueues.kitchen), settleDelay)
    }
}
