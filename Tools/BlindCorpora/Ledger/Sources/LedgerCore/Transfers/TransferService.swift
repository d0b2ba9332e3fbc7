import Foundation
import Tomorrowland

public struct TransferRequest: Hashable, Sendable {
    public var from: AccountID
    public var to: AccountID
    /// In the source account's currency.
    public var amount: Money
    public var memo: String

    public init(from: AccountID, to: AccountID, amount: Money, memo: String = "") {
        self.from = from
        self.to = to
        self.amount = amount
        self.memo = memo
    }
}

/// What the user confirms in step 2.
public struct TransferQuote: Hashable, Sendable {
    public var id: String
    public var request: TransferRequest
    public var fee: Money
    /// What the receiving account gets, in its currency.
    public var credited: Money
    public var rate: FXRate?
    public var verdict: FraudVerdict
    public var expiresAt: Date
    /// Sent by SMS for risky transfers; `nil` when no code is needed.
    public var confirmationCode: String?

    public var totalDebit: Money {
        request.amount.adding(fee) ?? request.amount
    }
}

public struct TransferReceipt: Hashable, Sendable {
    public var quoteID: String
    public var reference: String
    public var newBalance: Money
    public var settled: Bool

    public init(quoteID: String, reference: String, newBalance: Money, settled: Bool) {
        self.quoteID = quoteID
        self.reference = reference
        self.newBalance = newBalance
        self.settled = settled
    }
}

/// Transfers in two steps: `prepare` quotes (balance, FX, fee, fraud screen), `confirm` books.
///
/// Subclasses choose the rail a confirmed transfer goes out on by overriding `submit(_:)`,
/// and may charge a fee by overriding `fee(for:)`.
open class TransferService: @unchecked Sendable {
    public let store: LedgerStoring
    public let fx: FXRateService
    public let fraud: FraudScreening
    public let clock: @Sendable () -> Date
    /// How long a quote can be confirmed.
    public var quoteLifetime: TimeInterval = 120
    /// Transfers scoring at least this much need a confirmation code.
    public var codeThreshold = 50

    public init(store: LedgerStoring, fx: FXRateService, fraud: FraudScreening, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.fx = fx
        self.fraud = fraud
        self.clock = clock
    }

    /// Step 1: checks the request and quotes it.
    open func prepare(_ request: TransferRequest) -> LedgerPromise<TransferQuote> {
        guard request.amount.minorUnits > 0 else {
            return Promise(rejected: .invalidAmount)
        }
        guard request.from != request.to else {
            return Promise(rejected: .sameAccount)
        }
        let fx = self.fx
        let expiresAt = clock().addingTimeInterval(quoteLifetime)
        let threshold = codeThreshold
        let screening = fraud.screen(request)
            .mapError(on: .immediate) { _ in LedgerError.timedOut }
            .flatMap(on: .immediate) { verdict -> LedgerPromise<FraudVerdict> in
                verdict.isBlocking ? Promise(rejected: .fraudSuspected(score: verdict.score)) : Promise(fulfilled: verdict)
            }
        return when(fulfilled: store.account(request.from), store.account(request.to), fee(for: request).asLedger, screening)
            .flatMap(on: .fx) { source, target, fee, verdict -> LedgerPromise<TransferQuote> in
                let debit = request.amount.adding(fee) ?? request.amount
                guard source.balance.minorUnits >= debit.minorUnits || source.kind == .credit else {
                    return Promise(rejected: .insufficientFunds(available: source.balance, requested: debit))
                }
                return fx.rate(from: source.currency, to: target.currency).map(on: .fx) { rate in
                    TransferQuote(
                        id: UUID().uuidString,
                        request: request,
                        fee: fee,
                        credited: rate.convert(request.amount),
                        rate: rate.rate == 1 ? nil : rate,
                        verdict: verdict,
                        expiresAt: expiresAt,
                        confirmationCode: verdict.score >= threshold ? TransferService.code(for: request) : nil)
                }
            }
    }

    /// Step 2: books a quote the user confirmed with `code` (ignored when none is needed).
    public func confirm(_ quote: TransferQuote, code: String?) -> LedgerPromise<TransferReceipt> {
        guard clock() < quote.expiresAt else {
            return Promise(rejected: .confirmationExpired)
        }
        if let expected = quote.confirmationCode, expected != code {
            return Promise(rejected: .confirmationCodeInvalid)
        }
        LedgerLog.shared.record("confirm \(quote.id)")
        return submit(quote).logFailures("transfer \(quote.id)")
    }

    /// Sends a confirmed quote. The default books both sides in the local ledger at once.
    open func submit(_ quote: TransferQuote) -> LedgerPromise<TransferReceipt> {
        return bookLocally(quote)
    }

    /// Books both sides of `quote` in the local ledger.
    final func bookLocally(_ quote: TransferQuote) -> LedgerPromise<TransferReceipt> {
        let entry = JournalEntry(
            id: quote.id, debit: quote.request.from, credit: quote.request.to,
            amount: quote.totalDebit, creditedAmount: quote.credited,
            memo: quote.request.memo, bookedAt: clock())
        return store.post(entry).map(on: .immediate) { balance in
            TransferReceipt(quoteID: quote.id, reference: "INT-\(quote.id.prefix(8))", newBalance: balance, settled: true)
        }
    }

    /// The fee for `request`, in the source currency. Free by default.
    open func fee(for request: TransferRequest) -> Guaranteed<Money> {
        return Promise(fulfilled: .zero(request.amount.currency))
    }

    /// Prepares and confirms in one go, for standing orders that the user confirmed once.
    public func transferNow(_ request: TransferRequest) -> LedgerPromise<TransferReceipt> {
        return prepare(request).flatMap(on: .immediate) { [weak self] quote -> LedgerPromise<TransferReceipt> in
            guard let self = self else { return Promise(with: .cancelled) }
            return self.confirm(quote, code: quote.confirmationCode)
        }
    }

    static func code(for request: TransferRequest) -> String {
        let digits = abs(request.from.rawValue.hashValue ^ request.to.rawValue.hashValue) % 1_000_000
        return String(format: "%06d", digits)
    }
}
