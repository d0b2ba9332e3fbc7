import Foundation
import LedgerCore
import Tomorrowland

/// The accounts list: every account with its balance, and the total in the display currency.
@MainActor
public final class AccountsViewModel {
    public struct Row: Hashable, Sendable {
        public var id: AccountID
        public var name: String
        public var balanceText: String
        public var convertedText: String
    }

    public enum State: Equatable {
        case idle
        case loading
        case loaded([Row])
        case failed(String)
    }

    public private(set) var state: State = .idle {
        didSet { onChange?(state) }
    }
    public private(set) var totalText = "—"
    public var onChange: ((State) -> Void)?
    public var displayCurrency: Currency

    private let store: LedgerStoring
    private let fx: FXRateService
    private let token = PromiseInvalidationToken()
    /// Results are delivered on the main queue.
    private let deliveryContext: PromiseContext = .main
    private var totalRequest: PromiseCancellable?

    public init(store: LedgerStoring, fx: FXRateService, displayCurrency: Currency) {
        self.store = store
        self.fx = fx
        self.displayCurrency = displayCurrency
    }

    /// Reloads the list; a load still running is cancelled and its callbacks silenced.
    public func load() {
        token.invalidate()
        state = .loading
        let fx = self.fx
        let currency = displayCurrency
        store.accounts()
            .flatMap(on: .utility) { accounts in
                fx.convertAll(accounts.map(\.balance), to: currency).map(on: .immediate) { converted in
                    zip(accounts, converted).map { account, converted in
                        Row(id: account.id, name: account.name,
                            balanceText: MoneyText.format(account.balance),
                            convertedText: MoneyText.format(converted))
                    }
                }
            }
            .then(on: .main, token: token) { [weak self] rows in
                self?.state = .loaded(rows)
            }
            .catch(on: .main, token: token) { [weak self] error in
                self?.state = .failed(AccountsViewModel.message(for: error))
            }
            .requestCancelOnInvalidate(token)
    }

    /// Recomputes the header total. A refresh still running is asked to cancel.
    @discardableResult
    public func refreshTotal() -> LedgerPromise<Money> {
        totalRequest?.requestCancel()
        totalText = "…"
        let promise = BalanceSummaryLoader(store: store, fx: fx)
            .totalBalance(in: displayCurrency)
            .then(on: deliveryContext) { total in
                self.totalText = MoneyText.format(total)
            }
        totalRequest = promise.cancellable
        return promise
    }

    /// Stops everything in flight (the screen went away).
    public func stop() {
        token.invalidate()
        totalRequest?.requestCancel()
    }

    static func message(for error: LedgerError) -> String {
        switch error {
        case .offline:
            return "You're offline."
        case .rateUnavailable(let pair):
            return "No exchange rate for \(pair) right now."
        case .bank(.unauthorized):
            return "Please sign in to your bank again."
        default:
            return "Something went wrong (\(error))."
        }
    }

    #if DEBUG
    /// A view model over a demo ledger, for previews.
    public static func preview() -> AccountsViewModel {
        let store = LedgerStore(queue: DispatchQueue(label: "preview.db"), accounts: [
            Account(id: "checking", name: "Checking", balance: Money(1250, .eur)),
            Account(id: "savings", name: "Savings", kind: .savings, balance: Money(8000, .eur)),
        ])
        let fx = FXRateService(provider: FixedRateProvider(rates: [CurrencyPair(.eur, .usd): 1.1]))
        return AccountsViewModel(store: store, fx: fx, displayCurrency: .usd)
    }
    #endif
}
