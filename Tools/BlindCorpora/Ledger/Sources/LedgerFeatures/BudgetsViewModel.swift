import Foundation
import LedgerCore
import Tomorrowland

/// The budgets screen: this month's report, and recategorising from it.
@MainActor
public final class BudgetsViewModel {
    public private(set) var report: BudgetReport?
    public private(set) var isLoading = false
    public private(set) var headline = ""
    public private(set) var recategorisedCount = 0
    public let currency: Currency
    /// Keeps the spinner up at least this long, so it does not flash.
    public var minimumSpinnerTime: TimeInterval = 0.3

    private let tracker: BudgetTracker
    private let rules: RuleEngine
    private let accounts: [AccountID]

    public init(tracker: BudgetTracker, rules: RuleEngine, accounts: [AccountID], currency: Currency) {
        self.tracker = tracker
        self.rules = rules
        self.accounts = accounts
        self.currency = currency
    }

    /// Loads the report of `month`.
    @discardableResult
    public func reload(month: Month) -> LedgerPromise<BudgetReport> {
        isLoading = true
        return tracker.report(for: month, accounts: accounts, in: currency)
            .delay(on: .utility, minimumSpinnerTime)
            .then { [weak self] report in
                self?.report = report
                self?.headline = BudgetsViewModel.headline(for: report)
            }
            .always { [weak self] _ in
                self?.isLoading = false
            }
    }

    /// What is left for `category`, as "€120.00 left (60 %)".
    public func remainingText(for category: LedgerCore.Category, month: Month) -> LedgerPromise<String> {
        return tracker.remaining(for: category, month: month, accounts: accounts, in: currency)
            .map(on: .utility) { left, share in
                "\(MoneyText.format(left)) left (\(Int((share * 100).rounded())) %)"
            }
    }

    /// The user moved `transaction` to `category`: learn a rule and apply it to `others`.
    public func recategorise(_ transaction: Transaction, as category: LedgerCore.Category, others: [Transaction]) -> Guaranteed<[Transaction]> {
        return rules.learn(from: transaction, as: category, recategorising: others)
            .then(on: .main) { [weak self] updated in
                self?.recategorisedCount += updated.filter { $0.category == category }.count
            }
    }

    nonisolated static func headline(for report: BudgetReport) -> String {
        let over = report.overBudget
        if over.isEmpty {
            return "On track in \(report.month)"
        }
        return "Over budget: " + over.map(\.rawValue).joined(separator: ", ")
    }
}
