import Foundation
import XCTest
import LedgerCore
import Tomorrowland

final class TransferTests: XCTestCase {
    override func setUp() {
        super.setUp()
        QueueProbe.install()
    }

    private func makeService(fraud: FraudScreening = FakeFraudProvider(), provider: FakeFXProvider = FakeFXProvider()) -> (TransferService, LedgerStore) {
        let store = Fixtures.store()
        return (TransferService(store: store, fx: FXRateService(provider: provider), fraud: fraud), store)
    }

    func testPrepareQuotesASameCurrencyTransfer() throws {
        let (service, _) = makeService()
        let quote = try value(of: service.prepare(TransferRequest(from: "checking", to: "savings", amount: Money(100, .eur), memo: "rent")))
        XCTAssertEqual(quote.fee, .zero(.eur))
        XCTAssertEqual(quote.credited, Money(100, .eur))
        XCTAssertNil(quote.rate)
        XCTAssertNil(quote.confirmationCode)
        XCTAssertEqual(quote.verdict, FraudVerdict(score: 10, provider: "fake"))
    }

    func testPrepareConvertsOnTheFXQueue() throws {
        let provider = FakeFXProvider()
        let (service, _) = makeService(provider: provider)
        let quote = try value(of: service.prepare(TransferRequest(from: "checking", to: "usd", amount: Money(100, .eur))))
        XCTAssertEqual(quote.credited, Money(110, .usd))
        XCTAssertEqual(quote.rate?.rate, 1.1)
        XCTAssertEqual(provider.callQueues.value, ["fx"])
    }

    func testPrepareRejectsBadRequestsAtOnce() {
        let (service, _) = makeService()
        XCTAssertEqual(service.prepare(TransferRequest(from: "checking", to: "savings", amount: .zero(.eur))).result, .error(.invalidAmount))
        XCTAssertEqual(service.prepare(TransferRequest(from: "checking", to: "checking", amount: Money(1, .eur))).result, .error(.sameAccount))
    }

    func testPrepareRejectsInsufficientFunds() {
        let (service, _) = makeService()
        let request = TransferRequest(from: "checking", to: "savings", amount: Money(1500, .eur))
        XCTAssertEqual(error(of: service.prepare(request)), .insufficientFunds(available: Money(1000, .eur), requested: Money(1500, .eur)))
    }

    func testPrepareRejectsSuspectedFraudAndAsksForACodeWhenRisky() throws {
        let (blocked, _) = makeService(fraud: FakeFraudProvider(score: 90))
        let request = TransferRequest(from: "checking", to: "savings", amount: Money(10, .eur))
        XCTAssertEqual(error(of: blocked.prepare(request)), .fraudSuspected(score: 90))
        let (risky, _) = makeService(fraud: FakeFraudProvider(score: 60))
        XCTAssertNotNil(try value(of: risky.prepare(request)).confirmationCode)
    }

    func testConfirmBooksBothSides() throws {
        let (service, store) = makeService()
        let quote = try value(of: service.prepare(TransferRequest(from: "checking", to: "usd", amount: Money(100, .eur))))
        let receipt = try value(of: service.confirm(quote, code: nil))
        XCTAssertEqual(receipt.newBalance, Money(900, .eur))
        XCTAssertTrue(receipt.settled)
        XCTAssertEqual(try value(of: store.balance(of: "usd")), Money(310, .usd))
    }

    func testConfirmChecksExpiryAndCode() throws {
        let (service, _) = makeService(fraud: FakeFraudProvider(score: 60))
        var quote = try value(of: service.prepare(TransferRequest(from: "checking", to: "savings", amount: Money(10, .eur))))
        XCTAssertEqual(error(of: service.confirm(quote, code: "000000x")), .confirmationCodeInvalid)
        quote.expiresAt = Date().addingTimeInterval(-1)
        XCTAssertEqual(service.confirm(quote, code: quote.confirmationCode).result, .error(.confirmationExpired))
    }

    func testConfirmLogsBeforeSubmitting() throws {
        let (service, _) = makeService()
        let quote = try value(of: service.prepare(TransferRequest(from: "checking", to: "savings", amount: Money(10, .eur))))
        let promise = service.confirm(quote, code: nil)
        XCTAssertTrue(LedgerLog.shared.entries.contains("confirm \(quote.id)"))
        _ = try value(of: promise)
    }

    func testTransferNowPreparesAndConfirms() throws {
        let (service, store) = makeService()
        let receipt = try value(of: service.transferNow(TransferRequest(from: "savings", to: "checking", amount: Money(1000, .eur))))
        XCTAssertEqual(receipt.newBalance, Money(4000, .eur))
        XCTAssertEqual(try value(of: store.balance(of: "checking")), Money(2000, .eur))
    }

    // MARK: Fraud screening

    func testFirstFraudAnswerWinsAndTheOthersAreCancelled() throws {
        let slow = FakeFraudProvider(name: "slow", hold: true)
        let fast = FakeFraudProvider(name: "fast", score: 20)
        let service = FraudCheckService(providers: [slow, fast])
        let verdict = try value(of: service.screen(TransferRequest(from: "a", to: "b", amount: Money(1, .eur))))
        XCTAssertEqual(verdict.provider, "fast")
        waitUntil("the slow provider is cancelled") { slow.cancels.value == 1 }
    }

    func testSilentFraudProviderTimesOut() {
        let silent = FakeFraudProvider(name: "silent", hold: true)
        let service = FraudCheckService(providers: [silent], timeout: 0.2)
        let error = self.error(of: service.screen(TransferRequest(from: "a", to: "b", amount: Money(1, .eur))))
        XCTAssertEqual(error, .providerUnavailable("provider 0 timed out"))
    }

    func testPrepareFailsWithTimedOutWhenScreeningTimesOut() {
        let fraud = FraudCheckService(providers: [FakeFraudProvider(hold: true)], timeout: 0.2)
        let (service, _) = makeService(fraud: fraud)
        XCTAssertEqual(error(of: service.prepare(TransferRequest(from: "checking", to: "savings", amount: Money(1, .eur)))), .timedOut)
    }

    func testHeuristicScreening() throws {
        let screening = HeuristicScreening(knownPayees: ["savings"])
        XCTAssertEqual(try value(of: screening.screen(TransferRequest(from: "checking", to: "savings", amount: Money(10, .eur)))).score, 10)
        XCTAssertEqual(try value(of: screening.screen(TransferRequest(from: "checking", to: "x", amount: Money(10_000, .eur)))).score, 90)
        XCTAssertEqual(TrustedScreening().screen(TransferRequest(from: "a", to: "b", amount: Money(1, .eur))).result, .value(.unscreened))
    }

    // MARK: Subclasses

    func testInstantTransfersChargeAFeeAndGoThroughTheRail() throws {
        let rail = FakeRail()
        let store = Fixtures.store()
        let service = InstantTransferService(store: store, fx: FXRateService(provider: FakeFXProvider()), fraud: FakeFraudProvider(), rail: rail)
        let quote = try value(of: service.prepare(TransferRequest(from: "checking", to: "savings", amount: Money(200, .eur))))
        XCTAssertEqual(quote.fee, Money(1, .eur))
        let receipt = try value(of: service.confirm(quote, code: nil))
        XCTAssertTrue(receipt.reference.hasPrefix("RAIL-INST-"))
        XCTAssertEqual(receipt.newBalance, Money(799, .eur))
        XCTAssertEqual(rail.sent.value, ["200.00 EUR -> savings"])
    }

    func testCancellingAnInstantTransferCancelsItOnTheRail() throws {
        let rail = FakeRail()
        rail.hold = true
        let service = InstantTransferService(store: Fixtures.store(), fx: FXRateService(provider: FakeFXProvider()), fraud: FakeFraudProvider(), rail: rail)
        let quote = try value(of: service.prepare(TransferRequest(from: "checking", to: "savings", amount: Money(200, .eur))))
        let promise = service.submit(quote)
        promise.requestCancel()
        XCTAssertEqual(result(of: promise), .cancelled)
        XCTAssertEqual(rail.cancelled.value, ["INST-\(quote.id.prefix(8))"])
    }

    func testSilentRailTimesOut() throws {
        let rail = FakeRail()
        rail.hold = true
        let service = InstantTransferService(store: Fixtures.store(), fx: FXRateService(provider: FakeFXProvider()), fraud: FakeFraudProvider(), rail: rail)
        service.railTimeout = 0.2
        let quote = try value(of: service.prepare(TransferRequest(from: "checking", to: "savings", amount: Money(200, .eur))))
        XCTAssertEqual(error(of: service.confirm(quote, code: nil)), .timedOut)
    }

    func testScheduledTransfersGoOutInOrder() throws {
        let store = Fixtures.store()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let service = ScheduledTransferService(store: store, fx: FXRateService(provider: FakeFXProvider()), fraud: FakeFraudProvider(), operationQueue: queue)
        let first = try value(of: service.prepare(TransferRequest(from: "checking", to: "savings", amount: Money(600, .eur))))
        let second = try value(of: service.prepare(TransferRequest(from: "checking", to: "savings", amount: Money(600, .eur))))
        queue.isSuspended = true
        let a = service.confirm(first, code: nil)
        let b = service.confirm(second, code: nil)
        XCTAssertEqual(service.scheduled, [first.id, second.id])
        XCTAssertNil(a.result)
        queue.isSuspended = false
        let receipt = try value(of: a)
        XCTAssertFalse(receipt.settled)
        XCTAssertTrue(receipt.reference.hasPrefix("SCH-"))
        XCTAssertEqual(receipt.newBalance, Money(400, .eur))
        XCTAssertEqual(error(of: b), .insufficientFunds(available: Money(400, .eur), requested: Money(600, .eur)))
    }
}
