import Foundation
import XCTest
import LedgerCore
import LedgerFeatures
import Tomorrowland

/// View models are @MainActor; each test is an async @MainActor method.
final class FeatureTests: XCTestCase {
    override func setUp() {
        super.setUp()
        QueueProbe.install()
    }

    private nonisolated func makeFX() -> FXRateService {
        FXRateService(provider: FakeFXProvider())
    }

    // MARK: Accounts

    @MainActor
    func testAccountsLoadOnTheMainQueue() async {
        let model = AccountsViewModel(store: Fixtures.store(), fx: makeFX(), displayCurrency: .usd)
        let queues = Locked<[String]>([])
        let loaded = expectation(description: "loaded")
        model.onChange = { state in
            queues.append(QueueProbe.current)
            if case .loaded = state { loaded.fulfill() }
        }
        model.load()
        XCTAssertEqual(model.state, .loading)
        await fulfillment(of: [loaded], timeout: testTimeout)
        guard case .loaded(let rows) = model.state else { return XCTFail("\(model.state)") }
        XCTAssertEqual(rows.map(\.name), ["Checking", "Credit card", "Dollar account", "Savings"])
        XCTAssertEqual(rows[0].balanceText, "€1000.00")
        XCTAssertEqual(rows[0].convertedText, "$1100.00")
        XCTAssertEqual(queues.value, ["main", "main"])
    }

    @MainActor
    func testAReloadSilencesAndCancelsTheOneBefore() async {
        let provider = FakeFXProvider()
        provider.hold = true
        let store = LedgerStore(queue: DispatchQueue(label: "test.reload"), accounts: [
            Account(id: "a", name: "A", balance: Money(10, .eur)),
            Account(id: "b", name: "B", balance: Money(20, .eur)),
        ])
        let model = AccountsViewModel(store: store, fx: FXRateService(provider: provider), displayCurrency: .usd)
        var states: [AccountsViewModel.State] = []
        model.onChange = { states.append($0) }
        model.load()
        await eventually("the rate is requested") { provider.calls.value.count == 1 }
        provider.hold = false
        // Another pair, so the new load cannot join the old one's rate request.
        model.displayCurrency = .gbp
        model.load()
        await eventually("the first load's rate request is cancelled") { provider.cancels.value == 1 }
        await eventually("the second load finished") {
            if case .loaded = model.state { return true }
            return false
        }
        guard case .loaded(let rows) = model.state else { return XCTFail("\(model.state)") }
        XCTAssertEqual(rows.map(\.convertedText), ["£8.50", "£17.00"])
        XCTAssertEqual(states.count, 3, "the first load's callbacks never ran: \(states)")
        XCTAssertEqual(Array(states.prefix(2)), [.loading, .loading])
    }

    @MainActor
    func testFailedLoadShowsAMessage() async {
        let provider = FakeFXProvider(rates: [:])
        let model = AccountsViewModel(store: Fixtures.store(), fx: FXRateService(provider: provider), displayCurrency: .chf)
        model.load()
        await eventually("the load failed") {
            if case .failed = model.state { return true }
            return false
        }
        // Whichever conversion fails first decides the message (EUR/CHF or USD/CHF).
        guard case .failed(let message) = model.state else { return XCTFail("\(model.state)") }
        XCTAssertTrue(message.hasPrefix("No exchange rate for "), message)
        XCTAssertTrue(message.hasSuffix("/CHF right now."), message)
    }

    @MainActor
    func testRefreshTotal() async throws {
        let model = AccountsViewModel(store: Fixtures.store(), fx: makeFX(), displayCurrency: .eur)
        let promise = model.refreshTotal()
        XCTAssertEqual(model.totalText, "…")
        let total = try await fulfilledValue(promise)
        // 1000 + 5000 + 200 USD (181.82 EUR) + 0
        XCTAssertEqual(total, Money(6181.82, .eur))
        XCTAssertEqual(model.totalText, "€6181.82")
    }

    // MARK: Transfers

    @MainActor
    func testTransferFlow() async throws {
        let store = Fixtures.store()
        let model = TransferViewModel(service: TransferService(store: store, fx: makeFX(), fraud: FakeFraudProvider()))
        let quote = model.requestQuote(TransferRequest(from: "checking", to: "savings", amount: Money(100, .eur)))
        // Set during the call. (The step may already be .awaitingConfirmation: the quote is
        // shown with .nowOr(.main), synchronously if it was ready before that callback was added.)
        XCTAssertTrue(model.isBusy)
        XCTAssertEqual(model.events.first, "quote requested")
        _ = try await fulfilledValue(quote)
        await eventually("the spinner stops") { !model.isBusy }
        guard case .awaitingConfirmation = model.step else { return XCTFail("\(model.step)") }
        let receipt = try await fulfilledValue(model.confirm(code: nil))
        XCTAssertEqual(receipt.newBalance, Money(900, .eur))
        XCTAssertEqual(model.step, .done(receipt))
        XCTAssertFalse(model.isBusy)
        XCTAssertEqual(model.events, ["quote requested", "quote ready", "confirming", "confirmed \(receipt.reference)"])
    }

    @MainActor
    func testConfirmWithoutAQuoteFailsAtOnce() async {
        let model = TransferViewModel(service: TransferService(store: Fixtures.store(), fx: makeFX(), fraud: FakeFraudProvider()))
        XCTAssertEqual(model.confirm(code: nil).result, .error(.confirmationExpired))
    }

    @MainActor
    func testCancellingAQuoteReachesTheFraudProvider() async {
        let fraud = FakeFraudProvider(hold: true)
        let model = TransferViewModel(service: TransferService(store: Fixtures.store(), fx: makeFX(), fraud: fraud))
        let quote = model.requestQuote(TransferRequest(from: "checking", to: "savings", amount: Money(100, .eur)))
        await eventually("the provider is asked") { fraud.screened.value == 1 }
        model.cancel()
        let outcome = await resolved(quote)
        XCTAssertEqual(outcome, .cancelled)
        await eventually("the provider saw the cancel") { fraud.cancels.value == 1 }
        await eventually("back to editing") { model.step == .editing && !model.isBusy }
        XCTAssertEqual(model.events, ["quote requested", "quote cancelled"])
    }

    @MainActor
    func testPremiumServiceOverridesPrepareAndFee() async throws {
        let service = PremiumTransferService(store: Fixtures.store(), fx: makeFX(), fraud: FakeFraudProvider(score: 60), freeAllowanceMinor: 10_000)
        let small = service.prepare(TransferRequest(from: "checking", to: "savings", amount: Money(50, .eur)))
        XCTAssertEqual(service.preparedCount, 1)
        let quote = try await fulfilledValue(small)
        XCTAssertEqual(quote.fee, .zero(.eur))
        XCTAssertNil(quote.confirmationCode)
        let premiumFee = try await fulfilledValue(service.fee(for: TransferRequest(from: "checking", to: "savings", amount: Money(600, .eur))))
        XCTAssertEqual(premiumFee, Money(minorUnits: 50, currency: .eur))
        let receipt = try await fulfilledValue(service.transferNow(TransferRequest(from: "checking", to: "savings", amount: Money(600, .eur))))
        XCTAssertEqual(receipt.newBalance, Money(399.50, .eur))
    }

    // MARK: Import

    @MainActor
    func testImportViewModelSilencesACancelledImport() async {
        let bank = FakeBankClient()
        bank.hold = true
        let model = ImportViewModel { TransactionImporter(client: bank, store: RecordingStore()) }
        model.startImport("checking")
        XCTAssertEqual(model.status, .importing("checking"))
        model.cancelImport()
        await eventually("the request is cancelled") { bank.cancels.value == ["first"] }
        XCTAssertEqual(model.status, .idle)
        XCTAssertEqual(model.history, ["start checking", "cancelled"])
    }

    @MainActor
    func testImportViewModelFinishes() async throws {
        let bank = FakeBankClient()
        bank.pages["first"] = TransactionPage(transactions: [Fixtures.remote("1", -100, "Cafe", day: 1)], next: nil)
        let model = ImportViewModel { TransactionImporter(client: bank, store: RecordingStore()) }
        model.startImport("checking")
        await eventually("finished") { model.status == .finished(ImportSummary(pages: 1, fetched: 1, inserted: 1)) }
        let quick = try await fulfilledValue(model.quickImport("checking", days: 100_000))
        XCTAssertEqual(quick.pages, 1)
        XCTAssertEqual(model.history, ["start checking", "finished 1/1", "quick checking"])
    }

    // MARK: Statements and budgets

    @MainActor
    func testMonthsAreLoadedOnceAndShared() async throws {
        let log = LedgerLog()
        let store = Fixtures.store(log: log)
        _ = try await fulfilledValue(store.insert([
            Fixtures.transaction("a", -100, "Market", day: 3),
            Fixtures.transaction("b", -100, "Market", day: 3, month: Fixtures.february),
        ]))
        let model = StatementsViewModel(account: "checking", store: store)
        let first = model.showMonths()
        let second = model.showMonths()
        let firstMonths = try await fulfilledValue(first)
        XCTAssertEqual(firstMonths, [Fixtures.february, Fixtures.january])
        let secondMonths = try await fulfilledValue(second)
        XCTAssertEqual(secondMonths, [Fixtures.february, Fixtures.january])
        XCTAssertEqual(model.months, [Fixtures.february, Fixtures.january])
        XCTAssertFalse(model.isLoadingMonths)
        XCTAssertEqual(log.entries.filter { $0.hasPrefix("transactions(checking, all)") }.count, 1)
        XCTAssertEqual(model.availableMonths.promise, model.availableMonths.promise)
    }

    @MainActor
    func testExportAppendsTheFile() async throws {
        let model = StatementsViewModel(account: "checking", store: Fixtures.store())
        let file = try await fulfilledValue(model.export(Fixtures.january))
        XCTAssertEqual(file.mimeType, "text/csv")
        XCTAssertEqual(model.exported, [file])
        XCTAssertNil(model.errorMessage)
        _ = await resolved(StatementsViewModel(account: "ghost", store: Fixtures.store()).export(Fixtures.january))
    }

    @MainActor
    func testBudgetsReload() async throws {
        let store = Fixtures.store()
        _ = try await fulfilledValue(store.insert([Fixtures.transaction("g", -6000, "Market", day: 3, category: .groceries)]))
        let tracker = BudgetTracker(store: store, fx: makeFX(), budgets: [Budget(category: .groceries, limit: Money(50, .eur))])
        let model = BudgetsViewModel(tracker: tracker, rules: RuleEngine(), accounts: ["checking"], currency: .eur)
        model.minimumSpinnerTime = 0.05
        let promise = model.reload(month: Fixtures.january)
        XCTAssertTrue(model.isLoading)
        _ = try await fulfilledValue(promise)
        XCTAssertFalse(model.isLoading)
        XCTAssertEqual(model.headline, "Over budget: groceries")
        let remaining = try await fulfilledValue(model.remainingText(for: .groceries, month: Fixtures.january))
        XCTAssertEqual(remaining, "-€10.00 left (120 %)")
    }

    @MainActor
    func testRecategorise() async throws {
        let model = BudgetsViewModel(tracker: BudgetTracker(store: Fixtures.store(), fx: makeFX()), rules: RuleEngine(rules: []), accounts: [], currency: .eur)
        let moved = Fixtures.transaction("a", -100, "Bakery", day: 1)
        let updated = try await fulfilledValue(model.recategorise(moved, as: .groceries, others: [Fixtures.transaction("b", -100, "Bakery", day: 2)]))
        XCTAssertEqual(updated.map(\.category), [.groceries])
        XCTAssertEqual(model.recategorisedCount, 1)
    }
}

final class ActorFeatureTests: XCTestCase {
    func testSyncCoordinatorRecordsSummaries() async throws {
        let bank = FakeBankClient()
        bank.pages["first"] = TransactionPage(transactions: [Fixtures.remote("1", -100, "Corner Market", day: 1)], next: nil)
        let coordinator = SyncCoordinator(client: bank, store: RecordingStore())
        let summaries = try await coordinator.syncAll(["checking", "savings"]).awaitValue()
        // The bank reports the same transaction for both accounts; it is stored once.
        XCTAssertEqual(summaries.map(\.fetched), [1, 1])
        XCTAssertEqual(summaries.map(\.inserted).reduce(0, +), 1)
        let summary = await coordinator.summary(for: "checking")
        XCTAssertEqual(summary?.fetched, 1)
        let inFlight = await coordinator.inFlight
        XCTAssertEqual(inFlight, 0)
        let journal = await coordinator.journal
        // Both imports start during syncAll's call; their callbacks run on the actor afterwards.
        XCTAssertEqual(Array(journal.prefix(3)), ["sync all 2", "start checking", "start savings"])
        XCTAssertEqual(journal.dropFirst(3).filter { $0.hasPrefix("done") }.count, 2)
    }

    func testSyncCoordinatorPassesErrorsOn() async {
        let bank = FakeBankClient()
        bank.failures["first"] = .unauthorized
        let coordinator = SyncCoordinator(client: bank, store: RecordingStore())
        do {
            _ = try await coordinator.sync("checking").awaitValue()
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .bank(.unauthorized))
        }
        let summary = await coordinator.summary(for: "checking")
        XCTAssertNil(summary)
    }

    func testOutboxMonitorFlushesOnItsActor() async throws {
        let sender = FakeOutboxSender(failures: 1, error: .invalidAmount)
        let outbox = Outbox(sender: sender, maxAttempts: 1, retryDelay: 0.01)
        _ = try? await outbox.enqueue(OutboxItem(id: "x", kind: .note, payload: "x")).awaitValue()
        let monitor = OutboxMonitor(outbox: outbox)
        let report = try await monitor.flushNow().awaitValue()
        XCTAssertEqual(report.delivered, ["x"])
        let count = await monitor.flushCount
        XCTAssertEqual(count, 1)
        let last = await monitor.lastReport
        XCTAssertEqual(last, report)
    }

    func testOutboxMonitorPeriodicFlushStops() async throws {
        let outbox = Outbox(sender: FakeOutboxSender())
        let monitor = OutboxMonitor(outbox: outbox)
        await monitor.start(every: 0.05)
        for _ in 0..<400 {
            if await monitor.flushCount >= 2 { break }
            try await Task.sleep(nanoseconds: 25_000_000)
        }
        await monitor.stop()
        let stopped = await monitor.flushCount
        XCTAssertGreaterThanOrEqual(stopped, 2)
        let running = await monitor.isRunning
        XCTAssertFalse(running)
        try await Task.sleep(nanoseconds: 200_000_000)
        let later = await monitor.flushCount
        XCTAssertEqual(later, stopped)
    }
}
