import Foundation
import LedgerCore
import Tomorrowland

/// The transfer screen: edit → quote → confirm (with a code for risky transfers) → receipt.
@MainActor
public final class TransferViewModel {
    public enum Step: Equatable {
        case editing
        case quoting
        case awaitingConfirmation(TransferQuote)
        case submitting
        case done(TransferReceipt)
        case failed(LedgerError)
    }

    public private(set) var step: Step = .editing
    public private(set) var isBusy = false
    public private(set) var events: [String] = []
    /// Whether the confirmation sheet slid in (false when the quote was ready at once).
    public private(set) var quoteAppearedAnimated = false

    private let service: TransferService
    /// Quote post-processing runs here, off the main queue.
    private let workContext: PromiseContext = .userInitiated
    private var quoteRequest: PromiseCancellable?
    public var confirmationTimeout: TimeInterval = 30

    public init(service: TransferService) {
        self.service = service
    }

    /// Step 1. The screen shows a spinner from the moment this is called.
    @discardableResult
    public func requestQuote(_ request: TransferRequest) -> LedgerPromise<TransferQuote> {
        quoteRequest?.requestCancel()
        isBusy = true
        step = .quoting
        events.append("quote requested")
        let promise = service.prepare(request)
            .map(on: workContext) { quote -> TransferQuote in
                var rounded = quote
                rounded.expiresAt = Date(timeIntervalSince1970: quote.expiresAt.timeIntervalSince1970.rounded(.down))
                return rounded
            }
            .then(on: .nowOr(.main)) { [weak self] quote in
                self?.quoteAppearedAnimated = !PromiseContext.isExecutingNow
                self?.events.append("quote ready")
                self?.step = .awaitingConfirmation(quote)
            }
            .catch { [weak self] error in
                self?.events.append("quote failed")
                self?.step = .failed(error)
            }
            .onCancel { [weak self] in
                self?.events.append("quote cancelled")
                self?.step = .editing
            }
            .always { [weak self] _ in
                self?.isBusy = false
            }
        quoteRequest = promise.cancellable
        return promise
    }

    /// Step 2. Fails at once unless a quote is waiting for confirmation.
    public func confirm(code: String?) -> LedgerPromise<TransferReceipt> {
        guard case .awaitingConfirmation(let quote) = step else {
            return Promise(rejected: .confirmationExpired)
        }
        step = .submitting
        isBusy = true
        events.append("confirming")
        return service.confirm(quote, code: code)
            .timingOut(after: confirmationTimeout)
            .then(on: .ui) { receipt in
                self.events.append("confirmed \(receipt.reference)")
                self.step = .done(receipt)
            }
            .catch(on: .ui) { error in
                self.events.append("confirm failed")
                self.step = .failed(error)
            }
            .always(on: .main) { _ in
                self.isBusy = false
            }
    }

    /// Back to editing; a quote in flight is asked to cancel.
    public func cancel() {
        quoteRequest?.requestCancel()
        quoteRequest = nil
        if case .quoting = step {
            return  // onCancel moves to .editing when the quote is cancelled
        }
        step = .editing
    }
}
