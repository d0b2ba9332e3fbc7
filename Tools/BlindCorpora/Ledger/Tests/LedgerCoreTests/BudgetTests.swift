import Foundation
import XCTest
import LedgerCore
import Tomorrowland

final class BudgetTests: XCTestCase {
    private func seededStore() throws -> LedgerStore {
        let store = Fixtures.store()
        _ = try value(of: store.insert([
            Fixtures.transaction("g1", -4000, "Market", day: 3, category: .groceries),
            Fixtures.transaction("g2", -2000, "Market", day: 9, category: .groceries),
            Fixtures.transaction("r1", -90_000, "Landlord", day: 1, category: .rent),
            Fixtures.transaction("s1", 250_000, "Payroll", day: 25, category: .salary),
            Fixtures.transaction("u1", -500, "???", day: 12),
            Fixtures.transaction("g3", -9999, "Market", day: 2, month: Fixtures.february, category: .groceries),
        ]))
        _ = try value(of: store.insert([
            Transaction(id: "d1", accountID: "usd", amount: Money(-11, .usd), bookedAt: Fixtures.date(Fixtures.january, day: 4), payee: "Diner", category: .dining),
        ]))
        return store
    }

    func testReportSumsSpendingPerCategoryInOneCurrency() throws {
        let store = try seededStore()
        let tracker = BudgetTracker(store: store, fx: FXRateService(provider: FakeFXProvider()), budgets: [
            Budget(category: .groceries, limit: Money(50, .eur)),
            Budget(category: .rent, limit: Money(1000, .eur)),
            Budget(category: .dining, limit: Money(20, .eur)),
        ])
        let report = try value(of: tracker.report(for: Fixtures.january, accounts: ["checking", "usd"], in: .eur))
        XCTAssertEqual(report.lines.map(\.spent), [Money(60, .eur), Money(900, .eur), Money(10, .eur)])
        XCTAssertEqual(report.overBudget, [.groceries])
        XCTAssertEqual(report.uncategorisedSpending, Money(5, .eur))
        XCTAssertEqual(report.lines[1].remaining, Money(100, .eur))
    }

    func testReportFailsForAnUnknownAccount() throws {
        let tracker = BudgetTracker(store: try seededStore(), fx: FXRateService(provider: FakeFXProvider()))
        XCTAssertEqual(error(of: tracker.report(for: Fixtures.january, accounts: ["checking", "ghost"], in: .eur)), .accountNotFound("ghost"))
    }

    func testRemainingForACategory() throws {
        let tracker = BudgetTracker(store: try seededStore(), fx: FXRateService(provider: FakeFXProvider()), budgets: [
            Budget(category: .groceries, limit: Money(100, .eur)),
        ])
        let (left, share) = try value(of: tracker.remaining(for: .groceries, month: Fixtures.january, accounts: ["checking"], in: .usd))
        XCTAssertEqual(left, Money(44, .usd))
        XCTAssertEqual(share, 0.6, accuracy: 0.001)
        let none = try value(of: tracker.remaining(for: .rent, month: Fixtures.january, accounts: ["checking"], in: .usd))
        XCTAssertEqual(none.left, .zero(.usd))
    }

    func testRulesCategoriseOnlyUncategorisedTransactions() throws {
        let engine = RuleEngine()
        let input = [
            Fixtures.transaction("a", -100, "Super Market", day: 1),
            Fixtures.transaction("b", -100, "Market", day: 1, category: .dining),
            Fixtures.transaction("c", -100, "Unknown", day: 1),
            Fixtures.transaction("d", 100, "Refund", day: 1),
        ]
        let output = try value(of: engine.categorise(input))
        XCTAssertEqual(output.map(\.category), [.groceries, .dining, .uncategorised, .salary])
    }

    func testLearningAddsTheRuleBeforeTheResult() throws {
        let engine = RuleEngine(rules: [])
        let moved = Fixtures.transaction("a", -100, "Bakery Bob", day: 1)
        let promise = engine.learn(from: moved, as: .groceries, recategorising: [
            Fixtures.transaction("b", -300, "Bakery Bob", day: 2, category: .dining),
            Fixtures.transaction("c", -300, "Cinema", day: 2, category: .entertainment),
        ])
        XCTAssertEqual(engine.rules.first?.payeeContains, "Bakery Bob")
        XCTAssertEqual(engine.learnedCount, 1)
        XCTAssertEqual(try value(of: promise).map(\.category), [.groceries, .entertainment])
    }
}
