import Foundation
import XCTest
import LedgerCore
import LedgerFeatures
import Tomorrowland

/// The view models' twins keep their @MainActor isolation; the actor's keep the actor's.
final class FeatureTwinTests: XCTestCase {
    override func setUp() {
        super.setUp()
        QueueProbe.install()
    }

    private nonisolated func makeFX() -> FXRateService {
        FXRateService(provider: FakeFXProvider())
    }

    @MainActor
    func testRefreshTotalTwinUpdatesTheHeaderBeforeReturning() async throws {
        let model = AccountsViewModel(store: Fixtures.store(), fx: makeFX(), displayCurrency: .eur)
        let total = try await model.refreshTotal()
        XCTAssertEqual(total, Money(6181.82, .eur))
        XCTAssertEqual(model.totalText, "€6181.82")
    }

    @MainActor
    func testTransferTwinsRunTheWholeFlow() async throws {
        let model = TransferViewModel(service: TransferService(store: Fixtures.store(), fx: makeFX(), fraud: FakeFraudProvider()))
        let quote = try await model.requestQuote(TransferRequest(from: "checking", to: "savings", amount: Money(100, .eur)))
        XCTAssertEqual(model.step, .awaitingConfirmation(quote))
        XCTAssertFalse(model.isBusy, "the always callback ran before the twin returned")
        let receipt = try await model.confirm(code: nil)
        XCTAssertEqual(model.step, .done(receipt))
        XCTAssertEqual(model.events, ["quote requested", "quote ready", "confirming", "confirmed \(receipt.reference)"])
        do {
            _ = try await model.confirm(code: nil)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .confirmationExpired)
        }
    }

    @MainActor
    func testCancellingTheQuoteTaskReachesTheFraudProvider() async {
        let fraud = FakeFraudProvider(hold: true)
        let model = TransferViewModel(service: TransferService(store: Fixtures.store(), fx: makeFX(), fraud: fraud))
        let task = Task { try await model.requestQuote(TransferRequest(from: "checking", to: "savings", amount: Money(100, .eur))) }
        await eventually("the provider is asked") { fraud.screened.value == 1 }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(fraud.cancels.value, 1)
        XCTAssertEqual(model.step, .editing)
        XCTAssertEqual(model.events, ["quote requested", "quote cancelled"])
    }

    @MainActor
    func testQuickImportTwin() async throws {
        let bank = FakeBankClient()
        bank.pages["first"] = TransactionPage(transactions: [Fixtures.remote("1", -100, "Cafe", day: 1)], next: nil)
        let model = ImportViewModel { TransactionImporter(client: bank, store: RecordingStore()) }
        let summary = try await model.quickImport("checking", days: 100_000)
        XCTAssertEqual(summary.inserted, 1)
        XCTAssertEqual(model.status, .finished(summary))
        XCTAssertEqual(model.history, ["quick checking"])
    }

    @MainActor
    func testStatementsViewModelTwins() async throws {
        let store = Fixtures.store()
        try await store.insert([Fixtures.transaction("a", -100, "Market", day: 3)])
        let model = StatementsViewModel(account: "checking", store: store)
        let months = try await model.showMonths()
        XCTAssertEqual(months, [Fixtures.january])
        XCTAssertEqual(model.months, months)
        let file = try await model.export(Fixtures.january)
        XCTAssertEqual(model.exported, [file])
    }

    @MainActor
    func testBudgetsViewModelTwins() async throws {
        let store = Fixtures.store()
        try await store.insert([Fixtures.transaction("g", -2000, "Market", day: 3, category: .groceries)])
        let model = BudgetsViewModel(tracker: BudgetTracker(store: store, fx: makeFX(), budgets: [Budget(category: .groceries, limit: Money(50, .eur))]),
                                     rules: RuleEngine(), accounts: ["checking"], currency: .eur)
        model.minimumSpinnerTime = 0.01
        let report = try await model.reload(month: Fixtures.january)
        XCTAssertEqual(model.report, report)
        XCTAssertFalse(model.isLoading)
        let text = try await model.remainingText(for: .groceries, month: Fixtures.january)
        XCTAssertEqual(text, "€30.00 left (40 %)")
    }

    func testBalanceSummaryTwins() async throws {
        let loader = BalanceSummaryLoader(store: Fixtures.store(), fx: makeFX())
        let total = try await loader.totalBalance(in: .eur)
        XCTAssertEqual(total, Money(6181.82, .eur))
        let text = try await loader.summaryText(in: .eur)
        XCTAssertEqual(text, "€6181.82")
        let summary = try await loader.summary(in: .eur)
        XCTAssertEqual(summary.accountCount, 4)
    }

    func testSyncCoordinatorTwins() async throws {
        let bank = FakeBankClient()
        bank.pages["first"] = TransactionPage(transactions: [Fixtures.remote("1", -100, "Corner Market", day: 1)], next: nil)
        let coordinator = SyncCoordinator(client: bank, store: RecordingStore())
        let summary = try await coordinator.sync("checking")
        XCTAssertEqual(summary.inserted, 1)
        let recorded = await coordinator.summary(for: "checking")
        XCTAssertEqual(recorded, summary, "recorded on the actor before the twin returned")
        let all = try await coordinator.syncAll(["checking", "savings"])
        XCTAssertEqual(all.map(\.fetched), [1, 1])
    }

    func testCancellingTheSyncTaskCancelsTheBankRequest() async {
        let bank = FakeBankClient()
        bank.hold = true
        let coordinator = SyncCoordinator(client: bank, store: RecordingStore())
        let task = Task { try await coordinator.sync("checking") }
        await eventually("the first page is requested") { bank.requests.value == ["first"] }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(bank.cancels.value, ["first"])
        let inFlight = await coordinator.inFlight
        XCTAssertEqual(inFlight, 0)
    }

    func testOutboxMonitorTwinRunsOnItsGlobalActor() async throws {
        let monitor = OutboxMonitor(outbox: Outbox(sender: FakeOutboxSender()))
        let report = try await monitor.flushNow()
        XCTAssertEqual(report, FlushReport())
        let last = await monitor.lastReport
        XCTAssertEqual(last, report)
    }
}
