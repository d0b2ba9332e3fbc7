import Foundation
import LedgerCore
import Tomorrowland

/// Premium customers: free transfers up to a monthly allowance and quotes that stay valid longer.
public final class PremiumTransferService: TransferService, @unchecked Sendable {
    public var freeAllowanceMinor: Int64
    public private(set) var preparedCount = 0

    public init(store: LedgerStoring, fx: FXRateService, fraud: FraudScreening, freeAllowanceMinor: Int64 = 100_000) {
        self.freeAllowanceMinor = freeAllowanceMinor
        super.init(store: store, fx: fx, fraud: fraud)
        quoteLifetime = 300
    }

    override public func prepare(_ request: TransferRequest) -> LedgerPromise<TransferQuote> {
        preparedCount += 1
        LedgerLog.shared.record("premium prepare #\(preparedCount)")
        return super.prepare(request).map(on: .immediate) { quote in
            var premium = quote
            premium.confirmationCode = quote.verdict.score >= 70 ? quote.confirmationCode : nil
            return premium
        }
    }

    override public func fee(for request: TransferRequest) -> Guaranteed<Money> {
        if request.amount.minorUnits <= freeAllowanceMinor {
            return Promise(fulfilled: .zero(request.amount.currency))
        }
        let excess = request.amount.minorUnits - freeAllowanceMinor
        return Promise(fulfilled: Money(minorUnits: excess / 1000, currency: request.amount.currency))
    }
}
