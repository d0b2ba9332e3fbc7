import Foundation
import XCTest
import LedgerCore
import Tomorrowland

final class HelperTests: XCTestCase {
    /// A promise that only resolves when asked to cancel.
    private func pending<T>(_ type: T.Type, cancelled: Locked<Int>? = nil) -> LedgerPromise<T> {
        return LedgerPromise<T>(on: .immediate) { resolver in
            resolver.onRequestCancel(on: .immediate) { resolver in
                cancelled?.modify { $0 += 1 }
                resolver.cancel()
            }
        }
    }

    func testTimingOutRejectsWithTimedOut() {
        XCTAssertEqual(error(of: pending(Int.self).timingOut(after: 0.1)), .timedOut)
        XCTAssertEqual(error(of: LedgerPromise<Int>(rejected: .offline).timingOut(after: 5)), .offline)
        XCTAssertEqual(result(of: LedgerPromise(fulfilled: 3).timingOut(after: 5)), .value(3))
    }

    func testOrElseRecoversButKeepsCancellation() {
        XCTAssertEqual(LedgerPromise<Int>(rejected: .offline).orElse(7).result, .value(7))
        XCTAssertEqual(LedgerPromise<Int>(with: .cancelled).orElse(7).result, .cancelled)
    }

    func testLogFailuresRecordsRejections() {
        let log = LedgerLog()
        _ = result(of: LedgerPromise<Int>(rejected: .offline).logFailures("sync", to: log))
        _ = result(of: LedgerPromise<Int>(fulfilled: 1).logFailures("fine", to: log))
        XCTAssertEqual(log.entries, ["sync failed: offline"])
    }

    func testConversions() throws {
        XCTAssertEqual(try value(of: Guaranteed(fulfilled: 2).asLedger), 2)
        XCTAssertEqual(error(of: BankPromise<Int>(rejected: .unauthorized).ledgerErrors), .bank(.unauthorized))
        XCTAssertEqual(error(of: LedgerPromise<Int>(rejected: .offline).std) as? LedgerError, .offline)
        XCTAssertNotNil(try value(of: LedgerPromise(fulfilled: 1).asVoid()))
    }

    func testAwaitValueBridge() async throws {
        let value = try await LedgerPromise(fulfilled: 5).awaitValue()
        XCTAssertEqual(value, 5)
        do {
            _ = try await LedgerPromise<Int>(rejected: .offline).awaitValue()
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .offline)
        }
    }

    func testCancellingTheAwaitingTaskCancelsThePromise() async throws {
        let cancels = Locked<Int>(0)
        let promise = pending(Int.self, cancelled: cancels)
        let task = Task { try await promise.awaitValue() }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(cancels.value, 1)
    }

    // MARK: Records

    func testGenericRecordFetching() throws {
        let merchant = MerchantInfo(id: "corner-market", displayName: "Corner Market", category: .groceries)
        let records = FakeRecords(records: [
            "MerchantInfo/corner-market": try JSONEncoder().encode(merchant),
            "MerchantInfo/broken": Data("{}".utf8),
        ])
        XCTAssertEqual(try value(of: records.fetch(MerchantInfo.self, id: "corner-market")), merchant)
        XCTAssertTrue(error(of: records.fetch(MerchantInfo.self, id: "broken")) is DecodingError)
        XCTAssertEqual(try value(of: records.fetchAll(MerchantInfo.self, ids: ["corner-market", "corner-market"])).count, 2)
        XCTAssertEqual(try value(of: records.merchant(named: "Corner Market")), merchant)
        XCTAssertEqual(try value(of: records.merchant(named: "Nobody")), nil)
    }

    // MARK: Reconciliation

    func testReconcileFindsMissingTransactions() throws {
        let store = Fixtures.store()
        _ = try value(of: store.insert([Fixtures.remote("1", -100, "Cafe", day: 2).asTransaction(in: "checking")]))
        let bank = FakeBankClient()
        bank.pages["first"] = TransactionPage(transactions: [
            Fixtures.remote("1", -100, "Cafe", day: 2),
            Fixtures.remote("2", -300, "Rail", day: 3),
        ], next: nil)
        let report = try value(of: reconcile("checking", store: store, bank: bank, bankBalance: Money(996, .eur)))
        XCTAssertEqual(report.missingTransactionIDs, ["bank-2"])
        XCTAssertEqual(report.ledgerBalance, Money(999, .eur))
        XCTAssertFalse(report.isBalanced)

        let all = try value(of: reconcileAll([("checking", Money(999, .eur)), ("ghost", .zero(.eur))], store: store, bank: bank))
        XCTAssertEqual(all["ghost"]?.error, .accountNotFound("ghost"))
        XCTAssertEqual(all["checking"]?.value?.missingTransactionIDs, ["bank-2"])
    }
}
