import Foundation
import Tomorrowland

/// The instant-payment network, callback style.
public protocol InstantPaymentRail: AnyObject, Sendable {
    func send(amount: Money, to account: AccountID, reference: String, completion: @escaping @Sendable (Result<String, LedgerError>) -> Void)
    func cancel(reference: String)
}

/// Instant transfers: 0.5 % fee, sent on the instant rail, booked locally once the rail accepted.
public final class InstantTransferService: TransferService, @unchecked Sendable {
    private let rail: InstantPaymentRail
    /// The rail must accept within this time or the transfer fails with `.timedOut`.
    public var railTimeout: TimeInterval = 10

    public init(store: LedgerStoring, fx: FXRateService, fraud: FraudScreening, rail: InstantPaymentRail) {
        self.rail = rail
        super.init(store: store, fx: fx, fraud: fraud)
    }

    override public func fee(for request: TransferRequest) -> Guaranteed<Money> {
        let minor = max(1, request.amount.minorUnits / 200)
        return Promise(fulfilled: Money(minorUnits: minor, currency: request.amount.currency))
    }

    override public func submit(_ quote: TransferQuote) -> LedgerPromise<TransferReceipt> {
        let rail = self.rail
        let reference = "INST-\(quote.id.prefix(8))"
        let sent = LedgerPromise<String>(on: .immediate) { resolver in
            rail.send(amount: quote.credited, to: quote.request.to, reference: reference) { result in
                resolver.resolve(with: result)
            }
            resolver.onRequestCancel(on: .immediate) { _ in
                rail.cancel(reference: reference)
            }
        }
        return sent
            .timingOut(after: railTimeout)
            .flatMap(on: .ledgerDB) { [store = self.store, clock = self.clock] railReference in
                store.post(JournalEntry(
                    id: quote.id, debit: quote.request.from, credit: quote.request.to,
                    amount: quote.totalDebit, creditedAmount: quote.credited,
                    memo: quote.request.memo, bookedAt: clock()))
                .map(on: .immediate) { balance in
                    TransferReceipt(quoteID: quote.id, reference: railReference, newBalance: balance, settled: true)
                }
            }
    }
}

/// Transfers that go out in the nightly batch: queued as operations, one at a time.
public final class ScheduledTransferService: TransferService, @unchecked Sendable {
    private let operationQueue: OperationQueue
    public private(set) var scheduled: [String] = []

    public init(store: LedgerStoring, fx: FXRateService, fraud: FraudScreening, operationQueue: OperationQueue = LedgerQueues.scheduledTransfers) {
        self.operationQueue = operationQueue
        super.init(store: store, fx: fx, fraud: fraud)
    }

    override public func submit(_ quote: TransferQuote) -> LedgerPromise<TransferReceipt> {
        scheduled.append(quote.id)
        let book = bookLocally
        let operation = PromiseOperation<TransferReceipt, LedgerError>(on: .immediate) { resolver in
            resolver.resolve(with: book(quote).map(on: .immediate) { receipt in
                var scheduledReceipt = receipt
                scheduledReceipt.reference = "SCH-\(quote.id.prefix(8))"
                scheduledReceipt.settled = false
                return scheduledReceipt
            })
        }
        operationQueue.addOperation(operation)
        return operation.promise
    }
}
