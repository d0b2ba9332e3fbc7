import Foundation
import Tomorrowland

/// Follows one order at a time. Starting to track another order (or stopping) silences and
/// cancels everything the tracker had in flight.
public final class OrderTracker {
    public let api: OrdersAPI
    private let token = PromiseInvalidationToken()
    private let updatesStore = Guarded<[OrderStatus]>([])
    public private(set) var trackedOrderID: String?
    public private(set) var refreshCount = 0
    public private(set) var lastETA: Int?

    public init(api: OrdersAPI) {
        self.api = api
    }

    public var updates: [OrderStatus] { return updatesStore.value }

    /// Starts following `orderID`: fetches its status and shows it.
    public func startTracking(orderID: String) -> TokenPromise<OrderStatus, NetworkError> {
        token.invalidate()
        trackedOrderID = orderID
        updatesStore.value = []
        return api.server.get("orders/\(orderID)/status")
            .withToken(token)
            .map(on: .utility) { body in
                OrderStatus(rawValue: body) ?? .placed
            }
            .then(on: .main) { [weak self] status in
                self?.updatesStore.modify { $0.append(status) }
            }
    }

    /// The ETA of `orderID`, shown unless tracking stopped meanwhile.
    public func latestETA(orderID: String) -> Promise<Int, NetworkError> {
        return api.server.get("eta/\(orderID)")
            .map(on: .utility, token: token) { body in
                Int(body) ?? -1
            }
            .then(on: .main, token: token) { [weak self] eta in
                self?.lastETA = eta
            }
            .requestCancelOnInvalidate(token)
    }

    /// Fetches the tracked order's status again.
    public func refresh() -> Promise<OrderStatus, NetworkError> {
        refreshCount += 1
        guard let orderID = trackedOrderID else {
            return Promise(rejected: .notFound("no tracked order"))
        }
        return api.fetchStatus(orderID: orderID).then(on: .main, token: token) { [weak self] status in
            self?.updatesStore.modify { $0.append(status) }
        }
    }

    public func stopTracking() {
        token.invalidate()
        trackedOrderID = nil
    }
}
