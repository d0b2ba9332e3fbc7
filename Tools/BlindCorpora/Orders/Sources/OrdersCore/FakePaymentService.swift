import Foundation
import Tomorrowland

/// A payment processor stand-in on dispatch timers. Calls are logged when they are made. Cards
/// starting with "4000" are declined; a processor in `unavailableProcessors` answers
/// `.serviceUnavailable`.
public final class FakePaymentService {
    private let desk = CallDesk<Authorization, PaymentError>(label: "orders.fake-payments")
    private let captureLog = EventLog()
    private let queue = DispatchQueue(label: "orders.fake-payments.capture")
    private let unavailable = Guarded<Set<String>>([])

    public init() {}

    public var calls: [String] { return desk.calls }
    public var cancelledCalls: [String] { return desk.cancelled }
    public var captures: [String] { return captureLog.entries }

    public var unavailableProcessors: Set<String> {
        get { return unavailable.value }
        set { unavailable.value = newValue }
    }

    /// The processor's authorizations stay in flight until `releaseAuthorizations(processor:)`.
    public func holdAuthorizations(processor: String = "primary") { desk.hold("authorize/\(processor)") }
    public func releaseAuthorizations(processor: String = "primary") { desk.release("authorize/\(processor)") }

    public func authorize(amountCents: Int, card: String, processor: String = "primary") -> Promise<Authorization, PaymentError> {
        let isDown = unavailable.value.contains(processor)
        return desk.start("authorize \(amountCents) \(card) via \(processor)", key: "authorize/\(processor)") { resolver in
            if amountCents <= 0 {
                resolver.reject(with: .invalidAmount)
            } else if isDown {
                resolver.reject(with: .serviceUnavailable)
            } else if card.hasPrefix("4000") {
                resolver.reject(with: .declined("card \(card) declined"))
            } else {
                resolver.fulfill(with: Authorization(id: "auth-\(card.suffix(4))-\(amountCents)", processor: processor, amountCents: amountCents))
            }
        }
    }

    public func capture(_ authorization: Authorization, orderID: String) -> Promise<Receipt, PaymentError> {
        return Promise(on: .queue(queue)) { resolver in
            self.captureLog.append("capture \(authorization.id) for \(orderID)")
            resolver.fulfill(with: Receipt(orderID: orderID, authorizationID: authorization.id, amountCents: authorization.amountCents))
        }
    }
}
