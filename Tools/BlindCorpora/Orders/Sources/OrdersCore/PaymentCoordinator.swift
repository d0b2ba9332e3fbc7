import Foundation
import Tomorrowland

/// Runs the authorize-then-capture dance. Its state is written on the payments queue.
public final class PaymentCoordinator {
    public enum State: Equatable {
        case idle, authorizing, capturing, paid, failed
    }

    public let service: FakePaymentService
    public let history = EventLog()
    private let stateStore = Guarded<State>(.idle)
    private let attemptsStore = Guarded<Int>(0)

    public init(service: FakePaymentService) {
        self.service = service
        OrderQueues.install()
    }

    public var state: State { return stateStore.value }
    public var attempts: Int { return attemptsStore.value }

    /// Authorizes `amountCents` on the card, then captures it for the order.
    public func charge(order: Order, amountCents: Int, card: String) -> Promise<Receipt, PaymentError> {
        stateStore.value = .authorizing
        attemptsStore.modify { $0 += 1 }
        history.append("charge \(order.id) \(amountCents)")
        return service.authorize(amountCents: amountCents, card: card)
            .flatMap(on: .queue(OrderQueues.payments)) { [weak self] authorization -> Promise<Receipt, PaymentError> in
                guard let self = self else {
                    return Promise(with: .cancelled)
                }
                self.stateStore.value = .capturing
                self.history.append("authorized \(authorization.id) on \(OrderQueues.whereAmI())")
                return self.service.capture(authorization, orderID: order.id)
            }
            .then(on: .queue(OrderQueues.payments)) { [weak self] _ in
                self?.stateStore.value = .paid
            }
            .catch(on: .queue(OrderQueues.payments)) { [weak self] _ in
                self?.stateStore.value = .failed
            }
    }

    /// Authorizes with the primary processor, and with the backup one if the primary is down.
    public func authorizeWithBackup(amountCents: Int, card: String) -> Promise<Authorization, PaymentError> {
        return service.authorize(amountCents: amountCents, card: card).flatMapError(on: .utility) { error -> Promise<Authorization, PaymentError> in
            guard error == .serviceUnavailable else {
                return Promise(rejected: error)
            }
            return self.service.authorize(amountCents: amountCents, card: card, processor: "backup")
        }
    }

    /// An authorization, or `PromiseTimeoutError.timedOut` if the processor takes longer than
    /// `seconds`.
    public func authorizeOrGiveUp(amountCents: Int, card: String, within seconds: TimeInterval) -> StdPromise<Authorization> {
        return service.authorize(amountCents: amountCents, card: card).upcast.timeout(on: .utility, delay: seconds)
    }
}
