import Foundation
import Tomorrowland

public struct Budget: Hashable, Codable, Sendable {
    public var category: Category
    public var limit: Money

    public init(category: Category, limit: Money) {
        self.category = category
        self.limit = limit
    }
}

public struct BudgetLine: Hashable, Sendable {
    public var budget: Budget
    public var spent: Money

    public var remaining: Money {
        budget.limit.subtracting(spent) ?? budget.limit
    }

    public var isOver: Bool { spent.minorUnits > budget.limit.minorUnits }
}

public struct BudgetReport: Hashable, Sendable {
    public var month: Month
    public var lines: [BudgetLine]
    public var uncategorisedSpending: Money

    public var overBudget: [Category] {
        lines.filter(\.isOver).map(\.budget.category)
    }
}

/// Monthly spending against budgets, across accounts in different currencies.
///
/// Not thread-safe: `budgets` belongs to the budgets screen.
public final class BudgetTracker {
    private let store: LedgerStoring
    private let fx: FXRateService
    public var budgets: [Budget]

    public init(store: LedgerStoring, fx: FXRateService, budgets: [Budget] = []) {
        self.store = store
        self.fx = fx
        self.budgets = budgets
    }

    /// Spending of `month` over `accounts`, in `currency`, against every budget.
    public func report(for month: Month, accounts: [AccountID], in currency: Currency) -> LedgerPromise<BudgetReport> {
        let budgets = self.budgets
        let fx = self.fx
        let fetches = accounts.map { store.transactions(for: $0, in: month) }
        return when(fulfilled: fetches, cancelOnFailure: true)
            .map(on: .utility) { perAccount in perAccount.flatMap { $0 }.filter { $0.amount.isNegative } }
            .flatMap(on: .utility) { spending in
                fx.convertAll(spending.map { $0.amount.negated }, to: currency)
                    .map(on: .immediate) { amounts in zip(spending.map(\.category), amounts).map { ($0, $1) } }
            }
            .map(on: .utility) { pairs in
                BudgetTracker.makeReport(month: month, budgets: budgets, spending: pairs, currency: currency)
            }
    }

    /// What is left of the budget for `category` this month, and the share already spent.
    public func remaining(for category: Category, month: Month, accounts: [AccountID], in currency: Currency) -> LedgerPromise<(left: Money, share: Double)> {
        guard let budget = budgets.first(where: { $0.category == category }) else {
            return Promise(fulfilled: (left: .zero(currency), share: 1))
        }
        return when(fulfilled: report(for: month, accounts: accounts, in: currency), fx.convert(budget.limit, to: currency))
            .map(on: .utility) { report, limit in
                let spent = report.lines.first { $0.budget.category == category }?.spent ?? .zero(currency)
                let left = limit.subtracting(spent) ?? limit
                let share = limit.minorUnits == 0 ? 1 : Double(spent.minorUnits) / Double(limit.minorUnits)
                return (left: left, share: share)
            }
    }

    static func makeReport(month: Month, budgets: [Budget], spending: [(Category, Money)], currency: Currency) -> BudgetReport {
        var byCategory: [Category: Int64] = [:]
        for (category, amount) in spending {
            byCategory[category, default: 0] += amount.minorUnits
        }
        let lines = budgets.map { budget in
            BudgetLine(budget: budget, spent: Money(minorUnits: byCategory[budget.category] ?? 0, currency: currency))
        }
        return BudgetReport(
            month: month,
            lines: lines,
            uncategorisedSpending: Money(minorUnits: byCategory[.uncategorised] ?? 0, currency: currency))
    }
}
