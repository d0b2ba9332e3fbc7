import Foundation
import XCTest
import LedgerCore
import Tomorrowland

/// FX, transfers and fraud screening through their async twins.
final class MoneyTwinTests: XCTestCase {
    override func setUp() {
        super.setUp()
        QueueProbe.install()
    }

    // MARK: FX

    func testRateAndConvertTwins() async throws {
        let provider = FakeFXProvider()
        let fx = FXRateService(provider: provider)
        let rate = try await fx.rate(from: .eur, to: .usd)
        XCTAssertEqual(rate.rate, 1.1)
        let converted = try await fx.convert(Money(100, .eur), to: .usd)
        XCTAssertEqual(converted, Money(110, .usd))
        XCTAssertEqual(provider.calls.value, ["EUR/USD"], "the second call used the cached rate")
        do {
            _ = try await fx.convert(Money(1, .chf), to: .jpy)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .rateUnavailable(CurrencyPair(.chf, .jpy)))
        }
    }

    func testConvertAllAndTotalTwins() async throws {
        let fx = FXRateService(provider: FakeFXProvider())
        let amounts = [Money(100, .eur), Money(50, .usd), Money(10, .eur)]
        let all = try await fx.convertAll(amounts, to: .usd)
        XCTAssertEqual(all, [Money(110, .usd), Money(50, .usd), Money(11, .usd)])
        let total = try await fx.total(of: amounts, in: .usd)
        XCTAssertEqual(total, Money(171, .usd))
    }

    func testCancellingTheTaskCancelsTheRateLoad() async {
        let provider = FakeFXProvider()
        provider.hold = true
        let fx = FXRateService(provider: provider)
        let task = Task { try await fx.convert(Money(1, .eur), to: .gbp) }
        await eventually("the rate is requested") { provider.calls.value.count == 1 }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        await eventually("the provider saw the cancel") { provider.cancels.value == 1 }
    }

    func testCancellingTheTaskKeepsARateLoadSomeoneElseWants() async throws {
        let provider = FakeFXProvider()
        provider.hold = true
        let fx = FXRateService(provider: provider)
        let task = Task { try await fx.rate(from: .eur, to: .gbp) }
        await eventually("the rate is requested") { provider.calls.value.count == 1 }
        let other = fx.rate(from: .eur, to: .gbp) as LedgerPromise<FXRate>  // joins the same load
        task.cancel()
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(provider.cancels.value, 0, "the other caller still wants the rate")
        other.requestCancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(provider.cancels.value, 1)
        XCTAssertEqual(provider.calls.value.count, 1)
    }

    func testCacheTwinsGenericAndConstrained() async throws {
        let cache = ExpiringCache<String, [Int]>(lifetime: 60)
        let value = try await cache.value(for: "k") { StdPromise(fulfilled: [1, 2, 3]) }
        XCTAssertEqual(value, [1, 2, 3])
        let count = try await cache.count(for: "missing") { StdPromise(rejected: LedgerError.offline) }
        XCTAssertEqual(count, 0)
        let rates = ExpiringCache<CurrencyPair, FXRate>(lifetime: 60)
        let rate = try await rates.rate(for: CurrencyPair(.eur, .gbp), from: FakeFXProvider())
        XCTAssertEqual(rate.rate, 0.85)
        let direct = try await FakeFXProvider().latestRate(for: CurrencyPair(.gbp, .eur))
        XCTAssertEqual(direct.rate, 1 / 0.85, accuracy: 0.0001)
    }

    // MARK: Transfers

    private func makeService(fraud: FraudScreening = FakeFraudProvider()) -> (TransferService, LedgerStore) {
        let store = Fixtures.store()
        return (TransferService(store: store, fx: FXRateService(provider: FakeFXProvider()), fraud: fraud), store)
    }

    func testPrepareAndConfirmTwins() async throws {
        let (service, store) = makeService()
        let quote = try await service.prepare(TransferRequest(from: "checking", to: "usd", amount: Money(100, .eur)))
        XCTAssertEqual(quote.credited, Money(110, .usd))
        let receipt = try await service.confirm(quote, code: nil)
        XCTAssertEqual(receipt.newBalance, Money(900, .eur))
        // confirm logs before it submits; the log line is there once the twin returns.
        XCTAssertTrue(LedgerLog.shared.entries.contains("confirm \(quote.id)"))
        let usd = try await store.balance(of: "usd")
        XCTAssertEqual(usd, Money(310, .usd))
    }

    func testPrepareTwinThrowsTypedErrors() async {
        let (service, _) = makeService(fraud: FakeFraudProvider(score: 95))
        do {
            _ = try await service.prepare(TransferRequest(from: "checking", to: "savings", amount: Money(10, .eur)))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .fraudSuspected(score: 95))
        }
        do {
            _ = try await service.prepare(TransferRequest(from: "checking", to: "checking", amount: Money(10, .eur)))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .sameAccount)
        }
    }

    func testFeeTwinReachesTheOverride() async throws {
        let rail = FakeRail()
        let instant: TransferService = InstantTransferService(store: Fixtures.store(), fx: FXRateService(provider: FakeFXProvider()), fraud: FakeFraudProvider(), rail: rail)
        let fee = try await instant.fee(for: TransferRequest(from: "checking", to: "savings", amount: Money(200, .eur)))
        XCTAssertEqual(fee, Money(1, .eur))
        let (plain, _) = makeService()
        let free = try await plain.fee(for: TransferRequest(from: "checking", to: "savings", amount: Money(200, .eur)))
        XCTAssertEqual(free, .zero(.eur))
    }

    func testSubmitTwinReachesTheOverrideAndTaskCancelReachesTheRail() async throws {
        let rail = FakeRail()
        rail.hold = true
        let service = InstantTransferService(store: Fixtures.store(), fx: FXRateService(provider: FakeFXProvider()), fraud: FakeFraudProvider(), rail: rail)
        let quote = try await service.prepare(TransferRequest(from: "checking", to: "savings", amount: Money(200, .eur)))
        let task = Task { try await service.submit(quote) }
        await eventually("the rail is asked") { rail.sent.value.count == 1 }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(rail.cancelled.value, ["INST-\(quote.id.prefix(8))"])
    }

    func testTransferNowTwin() async throws {
        let (service, store) = makeService()
        let receipt = try await service.transferNow(TransferRequest(from: "savings", to: "checking", amount: Money(1000, .eur)))
        XCTAssertEqual(receipt.newBalance, Money(4000, .eur))
        let checking = try await store.balance(of: "checking")
        XCTAssertEqual(checking, Money(2000, .eur))
    }

    // MARK: Fraud

    func testScreenTwinTakesTheFirstAnswer() async throws {
        let slow = FakeFraudProvider(name: "slow", hold: true)
        let service = FraudCheckService(providers: [slow, FakeFraudProvider(name: "fast", score: 30)])
        let verdict = try await service.screen(TransferRequest(from: "a", to: "b", amount: Money(1, .eur)))
        XCTAssertEqual(verdict, FraudVerdict(score: 30, provider: "fast"))
        await eventually("the slow provider is cancelled") { slow.cancels.value == 1 }
    }

    func testScreenTwinThrowsOnTimeout() async {
        let service = FraudCheckService(providers: [FakeFraudProvider(hold: true)], timeout: 0.1)
        do {
            _ = try await service.screen(TransferRequest(from: "a", to: "b", amount: Money(1, .eur)))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? FraudError, .providerUnavailable("provider 0 timed out"))
        }
    }

    func testCancellingTheTaskCancelsEveryFraudProvider() async {
        let a = FakeFraudProvider(name: "a", hold: true)
        let b = FakeFraudProvider(name: "b", hold: true)
        let service = FraudCheckService(providers: [a, b], timeout: 600)
        let task = Task { try await service.screen(TransferRequest(from: "a", to: "b", amount: Money(1, .eur))) }
        await eventually("both providers are asked") { a.screened.value == 1 && b.screened.value == 1 }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        await eventually("both providers saw the cancel") { a.cancels.value == 1 && b.cancels.value == 1 }
    }
}
