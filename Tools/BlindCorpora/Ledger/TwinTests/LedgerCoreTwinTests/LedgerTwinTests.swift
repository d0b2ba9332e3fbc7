import Foundation
import XCTest
import LedgerCore
import Tomorrowland

/// Budgets, rules, statements, the outbox and the promise helpers through their async twins.
final class LedgerTwinTests: XCTestCase {
    private func seededStore() async throws -> LedgerStore {
        let store = Fixtures.store()
        try await store.insert([
            Fixtures.transaction("g1", -4000, "Market", day: 3, category: .groceries),
            Fixtures.transaction("g2", -2000, "Market", day: 9, category: .groceries),
            Fixtures.transaction("r1", -90_000, "Landlord", day: 1, category: .rent),
            Fixtures.transaction("f1", -500, "Rail", day: 2, month: Fixtures.february),
        ])
        return store
    }

    // MARK: Budgets and rules

    func testReportTwin() async throws {
        let tracker = BudgetTracker(store: try await seededStore(), fx: FXRateService(provider: FakeFXProvider()), budgets: [
            Budget(category: .groceries, limit: Money(50, .eur)),
            Budget(category: .rent, limit: Money(1000, .eur)),
        ])
        let report = try await tracker.report(for: Fixtures.january, accounts: ["checking"], in: .eur)
        XCTAssertEqual(report.lines.map(\.spent), [Money(60, .eur), Money(900, .eur)])
        XCTAssertEqual(report.overBudget, [.groceries])
        do {
            _ = try await tracker.report(for: Fixtures.january, accounts: ["ghost"], in: .eur)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .accountNotFound("ghost"))
        }
    }

    func testRemainingTwinReturnsALabelledTuple() async throws {
        let tracker = BudgetTracker(store: try await seededStore(), fx: FXRateService(provider: FakeFXProvider()), budgets: [
            Budget(category: .groceries, limit: Money(100, .eur)),
        ])
        let remaining = try await tracker.remaining(for: .groceries, month: Fixtures.january, accounts: ["checking"], in: .usd)
        XCTAssertEqual(remaining.left, Money(44, .usd))
        XCTAssertEqual(remaining.share, 0.6, accuracy: 0.001)
    }

    func testCategoriseAndLearnTwins() async throws {
        let engine = RuleEngine()
        let categorised = try await engine.categorise([
            Fixtures.transaction("a", -100, "Super Market", day: 1),
            Fixtures.transaction("b", 100, "Refund", day: 1),
        ])
        XCTAssertEqual(categorised.map(\.category), [.groceries, .salary])
        let learned = try await engine.learn(from: Fixtures.transaction("c", -100, "Bakery", day: 1), as: .dining,
                                             recategorising: [Fixtures.transaction("d", -100, "Bakery", day: 2, category: .groceries)])
        XCTAssertEqual(learned.map(\.category), [.dining])
        XCTAssertEqual(engine.learnedCount, 1)
    }

    // MARK: Statements

    func testStatementTwins() async throws {
        let builder = StatementBuilder(store: try await seededStore())
        let january = try await builder.statement(for: "checking", month: Fixtures.january)
        XCTAssertEqual(january.lines.map(\.id), ["r1", "g1", "g2"])
        XCTAssertEqual(january.closing, Money(40, .eur))
        let recent = try await builder.recentStatements(for: "checking", count: 2, endingIn: Fixtures.february)
        XCTAssertEqual(recent.map(\.month), [Fixtures.february, Fixtures.january])
        let files = try await CSVStatementExporter().exportAll(recent)
        XCTAssertEqual(files.map(\.name), ["statement-checking-2024-02.csv", "statement-checking-2024-01.csv"])
        do {
            _ = try await builder.statement(for: "ghost", month: Fixtures.january)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .accountNotFound("ghost"))
        }
    }

    // MARK: Outbox

    func testEnqueueTwinReturnsOnceDeliveredInOrder() async throws {
        let sender = FakeOutboxSender()
        let outbox = Outbox(sender: sender, retryDelay: 0.01)
        try await outbox.enqueue(OutboxItem(kind: .note, payload: "first"))
        XCTAssertEqual(outbox.pendingCount, 0)
        try await outbox.enqueue(OutboxItem(kind: .note, payload: "second"))
        XCTAssertEqual(sender.delivered.value, ["first", "second"])
    }

    func testEnqueueTwinRetriesThenThrows() async {
        let sender = FakeOutboxSender(failures: 10, error: .offline)
        let outbox = Outbox(sender: sender, maxAttempts: 3, retryDelay: 0.01)
        do {
            try await outbox.enqueue(OutboxItem(kind: .transfer, payload: "t"))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .offline)
        }
        XCTAssertEqual(sender.attempts.value, ["t", "t", "t"])
        XCTAssertEqual(outbox.pendingCount, 1)
    }

    func testFlushTwin() async throws {
        let sender = FakeOutboxSender(failures: 1, error: .invalidAmount)
        let outbox = Outbox(sender: sender, maxAttempts: 1, retryDelay: 0.01)
        for index in 1...3 {
            do {
                try await outbox.enqueue(OutboxItem(id: "id\(index)", kind: .note, payload: "p\(index)"))
            } catch {
                XCTAssertEqual(error as? LedgerError, .invalidAmount)
            }
        }
        let report = try await outbox.flush()
        XCTAssertEqual(report.delivered, ["id1", "id2", "id3"])
        XCTAssertEqual(sender.delivered.value, ["p1", "p2", "p3"])
    }

    // MARK: Helpers

    func testTimingOutTwin() async throws {
        let held = LedgerPromise<Int>(on: .immediate) { resolver in
            resolver.onRequestCancel(on: .immediate) { $0.cancel() }
        }
        do {
            _ = try await held.timingOut(after: 0.1)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .timedOut)
        }
        let quick = try await LedgerPromise(fulfilled: 4).timingOut(after: 5)
        XCTAssertEqual(quick, 4)
    }

    func testRetryLedgerTwin() async throws {
        let calls = Locked<Int>(0)
        let value = try await retryLedger(attempts: 3, delay: 0.01) { () -> LedgerPromise<String> in
            let call = calls.modify { count -> Int in
                count += 1
                return count
            }
            return call < 2 ? Promise(rejected: .offline) : Promise(fulfilled: "ok")
        }
        XCTAssertEqual(value, "ok")
        XCTAssertEqual(calls.value, 2)
    }
}
