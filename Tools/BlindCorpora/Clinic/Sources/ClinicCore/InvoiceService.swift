import Foundation
import Tomorrowland

/// Invoices for bookings, computed on the billing queue.
final class InvoiceService {
    private let server: FakeClinicServer
    /// Where the service reports results to its owner: `.main` in the app, `.immediate` in tools.
    let callbackContext: PromiseContext
    var cardLimitCents = 50_000
    private let lock = NSLock()
    private var _issued: [Invoice] = []

    init(server: FakeClinicServer, callbackContext: PromiseContext = .main) {
        self.server = server
        self.callbackContext = callbackContext
    }

    var issued: [Invoice] {
        lock.lock(); defer { lock.unlock() }
        return _issued
    }

    /// The invoice for a booking: the practitioner's price, scaled to the slot's length.
    func invoice(for booking: Booking) -> Promise<Invoice, ClinicError> {
        guard booking.status == .confirmed else {
            return Promise(rejected: .invalid("booking \(booking.id) is cancelled"))
        }
        return server.getPrice(for: booking)
            .map(on: .billing) { cents in
                Invoice(id: "INV-\(booking.id)", bookingID: booking.id, amountCents: cents, isPaid: false)
            }
            .then(on: .billing) { [weak self] invoice in
                guard let self = self else { return }
                self.lock.lock()
                self._issued.append(invoice)
                self.lock.unlock()
            }
    }

    /// Charges the invoice; an urgent payment reports on the thread that resolves it.
    func pay(_ invoice: Invoice, urgent: Bool) -> Promise<Invoice, ClinicError> {
        server.charge(invoice, limitCents: cardLimitCents)
            .map(on: urgent ? .immediate : .utility) { paid in paid }
    }

    /// Invoices and pays a booking, reporting on `callbackContext`.
    func settle(_ booking: Booking, completion: @escaping (Result<Invoice, ClinicError>) -> Void) {
        invoice(for: booking)
            .flatMap(on: .billing) { [weak self] invoice -> Promise<Invoice, ClinicError> in
                guard let self = self else { return Promise(rejected: .offline) }
                return self.pay(invoice, urgent: false)
            }
            .then(on: callbackContext) { paid in
                completion(.success(paid))
            }
            .catch(on: callbackContext) { error in
                completion(.failure(error))
            }
    }

    /// The total of the invoices of several bookings, 0 when any fails.
    func outstandingTotal(of bookings: [Booking]) -> Promise<Int, NoError> {
        when(fulfilled: bookings.map { invoice(for: $0) })
            .map(on: .nowOr(.billing)) { invoices in
                invoices.filter { !$0.isPaid }.reduce(0) { $0 + $1.amountCents }
            }
            .recover(on: .immediate) { _ in 0 }
    }

    /// A refund: the amount is worked out at once when the invoice is known.
    func refundAmount(for invoice: Promise<Invoice, ClinicError>) -> Promise<Int, ClinicError> {
        invoice.upcast.tryMap(on: .nowOr(.utility)) { invoice -> Int in
            guard invoice.isPaid else { throw ClinicError.invalid("unpaid") }
            return invoice.amountCents
        }
        .mapError(on: .immediate) { error in
            (error as? ClinicError) ?? .invalid("\(error)")
        }
    }
}
