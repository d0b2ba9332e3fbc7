import Foundation
import Tomorrowland

/// Books couriers for delivery orders. An actor: assignments come from the pass, the expo and
/// the platforms' webhooks at once.
public actor CourierDispatch {
    private let backend: KitchenBackend
    private var assigned: [String: Courier] = [:]
    public private(set) var requestsInFlight = 0
    public private(set) var failures = 0

    public init(backend: KitchenBackend) {
        self.backend = backend
    }

    public func courier(for orderID: String) -> Courier? {
        return assigned[orderID]
    }

    /// Books a courier for the order, or gives the one already booked.
    public func requestCourier(for order: Order) -> StdPromise<Courier> {
        if let courier = assigned[order.id] {
            return Promise(fulfilled: courier)
        }
        requestsInFlight += 1
        return backend.findCourier(near: order.id)
            .then { courier in
                self.assigned[order.id] = courier
            }
            .always(on: .utility) { result in
                self.requestsInFlight -= 1
                if result.error != nil {
                    self.failures += 1
                }
            }
    }

    /// Minutes until the courier arrives; 45 when the platform cannot say.
    public nonisolated func estimatedPickup(for order: Order, courier: StdPromise<Courier>) -> Promise<Int, NoError> {
        return courier
            .map(on: .immediate) { $0.etaMinutes }
            .recover(on: .immediate) { _ in 45 }
    }
}

/// The expediter's actor: the rail of finished tickets is the expo's alone.
@globalActor
public actor ExpoActor {
    public static let shared = ExpoActor()
}

/// The rail of tickets waiting for a server or a courier.
@ExpoActor
public final class ExpoRail {
    public private(set) var rail: [String] = []
    public private(set) var called: [String] = []
    private let dispatch: CourierDispatch

    public init(dispatch: CourierDispatch) {
        self.dispatch = dispatch
    }

    /// Hangs the ticket on the rail when it prints; the promise gives its order's ID.
    public func hang(_ ticket: StdPromise<Ticket>) -> StdPromise<String> {
        return ticket
            .map(on: .immediate) { ticket -> String in
                self.rail.append(ticket.orderID)
                return ticket.orderID
            }
            .then(on: .main) { orderID in
                NSLog("expo: \(orderID) on the rail")
            }
    }

    /// Calls the order away: a server for a table, a courier for a delivery.
    public func callAway(_ order: Order) -> StdPromise<String> {
        guard order.isDelivery else {
            rail.removeAll { $0 == order.id }
            called.append(order.id)
            return Promise(fulfilled: "server")
        }
        let dispatch = self.dispatch
        return StdPromise<Courier>(on: .immediate) { resolver in
            Task {
                let courier = await dispatch.requestCourier(for: order)
                resolver.resolve(with: courier)
            }
        }
        .map(on: .auto) { courier -> String in
            self.rail.removeAll { $0 == order.id }
            self.called.append(order.id)
            return courier.name
        }
    }
}
