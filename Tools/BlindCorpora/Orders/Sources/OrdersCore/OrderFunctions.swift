import Foundation
import Tomorrowland

/// Sends the cart to the backend. The order's `startedAt` is the moment of the call.
public func placeOrder(_ cart: Cart, api: OrdersAPI, log: EventLog) -> StdPromise<Order> {
    let startedAt = Date()
    log.append("placeOrder \(cart.encoded())")
    guard !cart.isEmpty else {
        return StdPromise(rejected: CheckoutError.emptyCart)
    }
    return api.server.post("orders", body: cart.encoded()).upcast.tryMap(on: .utility) { body -> Order in
        guard body.hasPrefix("order-") else {
            throw NetworkError.decoding("orders: \(body)")
        }
        return Order(id: body, cart: cart, startedAt: startedAt, status: .placed)
    }.then(on: .utility) { order in
        log.append("placed \(order.id)")
    }
}

/// Rebuilds the user's last cart, if everything in it is still in stock. Asks for the history
/// and the stock list at once (history first).
public func reorderLast(userID: String, api: OrdersAPI, log: EventLog) -> Promise<Cart, CheckoutError> {
    log.append("reorder \(userID)")
    let history = api.server.get("history/\(userID)")
    let stock = api.server.get("stock")
    return history.mapError(on: .immediate) { CheckoutError.network($0) }.flatMap(on: .utility) { body -> Promise<Cart, CheckoutError> in
        let previous = Parsing.cart(body)
        return stock.mapError(on: .immediate) { CheckoutError.network($0) }.flatMap(on: .utility) { stockBody -> Promise<Cart, CheckoutError> in
            let available = Set(stockBody.split(separator: ",").map(String.init))
            let missing = previous.lines.map { $0.itemID }.filter { !available.contains($0) }
            if !missing.isEmpty {
                return Promise(rejected: .outOfStock(missing))
            }
            return Promise(fulfilled: previous)
        }
    }
}

/// Loads the given menus, in order, so they are cached; resolves to how many loaded.
public func warmUpMenus(_ restaurantIDs: [Int], api: OrdersAPI, log: EventLog) -> Promise<Int, NoError> {
    var loads: [Promise<Menu?, NoError>] = []
    for id in restaurantIDs {
        log.append("warm \(id)")
        loads.append(api.fetchMenu(restaurantID: id).map(on: .immediate) { Optional($0) }.recover(on: .immediate) { _ in nil })
    }
    return when(fulfilled: loads).map(on: .utility) { menus in
        let loaded = menus.compactMap { $0 }
        log.append("warmed \(loaded.count)/\(menus.count)")
        return loaded.count
    }
}

public struct DeliveryEstimate: Equatable {
    public var minutes: Int
    public var askedAt: Date
}

/// Asks the kitchen and the courier for their estimates (kitchen first) and adds them up.
public func deliveryEstimate(orderID: String, api: OrdersAPI, log: EventLog) -> Promise<DeliveryEstimate, NetworkError> {
    let askedAt = Date()
    let kitchen = api.server.get("eta/\(orderID)")
    let courier = api.server.get("courier/\(orderID)")
    return when(fulfilled: kitchen, courier).map(on: .utility) { [weak log] bodies -> DeliveryEstimate in
        let minutes = (Int(bodies.0) ?? 0) + (Int(bodies.1) ?? 0)
        log?.append("estimate \(orderID) \(minutes)")
        return DeliveryEstimate(minutes: minutes, askedAt: askedAt)
    }
}
