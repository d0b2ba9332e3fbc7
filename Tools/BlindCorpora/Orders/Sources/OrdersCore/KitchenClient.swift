import Foundation
import Tomorrowland

/// Talks to the restaurant's kitchen. Ticket bookkeeping happens on the kitchen queue.
public final class KitchenClient {
    public let server: FakeServer
    /// Where status bodies are decoded; configurable for tests and for the widget extension.
    public let workContext: PromiseContext
    private let pendingStore = Guarded<Int>(0)
    private let ticketsStore = Guarded<[String]>([])
    public let lastTicketQueue = Guarded<String?>(nil)
    public let lastStatusQueue = Guarded<String?>(nil)
    public private(set) var lastSubmittedAt: Date?

    public init(server: FakeServer, workContext: PromiseContext = .queue(OrderQueues.kitchen)) {
        self.server = server
        self.workContext = workContext
        OrderQueues.install()
    }

    public var pendingTickets: Int { return pendingStore.value }
    public var tickets: [String] { return ticketsStore.value }

    /// Sends the order to the kitchen printer.
    public func submitTicket(for order: Order) -> Promise<String, NetworkError> {
        pendingStore.modify { $0 += 1 }
        lastSubmittedAt = Date()
        return server.post("kitchen/tickets", body: order.id).map(on: .queue(OrderQueues.kitchen)) { [weak self] body -> String in
            let ticket = body.isEmpty ? "ticket-unknown" : body
            self?.ticketsStore.modify { $0.append(ticket) }
            self?.lastTicketQueue.value = OrderQueues.whereAmI()
            return ticket
        }.always(on: .queue(OrderQueues.kitchen)) { [weak self] _ in
            self?.pendingStore.modify { $0 -= 1 }
        }
    }

    /// The order's cooking status, decoded on `workContext`.
    public func cookingStatus(orderID: String) -> Promise<OrderStatus, NetworkError> {
        return server.get("orders/\(orderID)/status").map(on: workContext) { body in
            let status = OrderStatus(rawValue: body) ?? .placed
            self.lastStatusQueue.value = OrderQueues.whereAmI()
            return status
        }
    }

    /// Polls the status until the order is ready; resolves to the number of polls it took.
    public func waitUntilReady(orderID: String, interval: TimeInterval = 0.01, attemptsLeft: Int = 20) -> Promise<Int, NetworkError> {
        return cookingStatus(orderID: orderID).flatMap(on: .utility) { status -> Promise<Int, NetworkError> in
            if status == .ready || status == .delivered {
                return Promise(fulfilled: 1)
            }
            guard attemptsLeft > 1 else {
                return Promise(rejected: .server(408))
            }
            return Promise<Void, NetworkError>(on: .utility, fulfilled: (), after: interval).flatMap(on: .utility) { _ in
                self.waitUntilReady(orderID: orderID, interval: interval, attemptsLeft: attemptsLeft - 1).map(on: .immediate) { $0 + 1 }
            }
        }
    }

    /// Reserves a cooking slot. Cancelling the reservation cancels the request and tells the
    /// kitchen to release the slot.
    public func reserveSlot(orderID: String) -> Promise<String, NetworkError> {
        return Promise(on: .immediate) { resolver in
            let request = self.server.post("kitchen/slots", body: orderID)
            resolver.onRequestCancel(on: .immediate) { _ in
                request.requestCancel()
                _ = self.server.post("kitchen/slots/release", body: orderID)
            }
            resolver.resolve(with: request.map(on: .utility) { "slot:\($0)" })
        }
    }
}
