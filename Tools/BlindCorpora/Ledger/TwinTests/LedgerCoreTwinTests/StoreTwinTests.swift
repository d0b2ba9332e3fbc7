import Foundation
import XCTest
import LedgerCore
import Tomorrowland

/// Tests of the async twins of the ledger store's promise API (LedgerStoring's requirements
/// get their twins in a protocol extension; LedgerStore's own methods next to them).
final class StoreTwinTests: XCTestCase {
    func testAccountTwinReturnsTheAccount() async throws {
        let store = Fixtures.store()
        let account = try await store.account("savings")
        XCTAssertEqual(account.name, "Savings")
        XCTAssertEqual(account.balance, Money(5000, .eur))
    }

    func testAccountTwinThrowsTheTypedError() async {
        let store: LedgerStoring = Fixtures.store()
        do {
            _ = try await store.account("nope")
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .accountNotFound("nope"))
        }
    }

    func testAccountsTwinThroughTheProtocol() async throws {
        let store: LedgerStoring = RecordingStore()
        let names = try await store.accounts().map(\.name)
        XCTAssertEqual(names, ["Checking", "Credit card", "Dollar account", "Savings"])
    }

    func testInsertAndTransactionsTwins() async throws {
        let log = LedgerLog()
        let store = Fixtures.store(log: log)
        let inserted = try await store.insert([
            Fixtures.transaction("a", -100, "Market", day: 3),
            Fixtures.transaction("b", -200, "Rail", day: 20),
        ])
        XCTAssertEqual(inserted, 2)
        try await store.insert([Fixtures.transaction("a", -100, "Market", day: 3)])  // @discardableResult kept
        let rows = try await store.transactions(for: "checking", in: Fixtures.january)
        XCTAssertEqual(rows.map(\.id), ["b", "a"])
        // The request line is logged during the call, the timing line when the rows arrive,
        // before the twin returns.
        XCTAssertEqual(log.entries.count, 2)
        XCTAssertEqual(log.entries[0], "transactions(checking, 2024-01)")
        XCTAssertTrue(log.entries[1].hasPrefix("transactions(checking): 2 rows"), log.entries[1])
    }

    func testPostAndBalanceTwins() async throws {
        let store = Fixtures.store()
        let entry = JournalEntry(id: "j1", debit: "checking", credit: "savings", amount: Money(250, .eur), memo: "", bookedAt: Date())
        let left = try await store.post(entry)
        XCTAssertEqual(left, Money(750, .eur))
        let savings = try await store.balance(of: "savings")
        XCTAssertEqual(savings, Money(5250, .eur))
        do {
            _ = try await store.post(JournalEntry(id: "j2", debit: "checking", credit: "savings", amount: Money(5000, .eur), memo: "", bookedAt: Date()))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .insufficientFunds(available: Money(750, .eur), requested: Money(5000, .eur)))
        }
    }

    func testUpsertTwinCannotFail() async throws {
        let store = Fixtures.store()
        let stored = try await store.upsert(Account(id: "checking", name: "Main", balance: Money(1, .eur)))
        XCTAssertEqual(stored.name, "Main")
        XCTAssertEqual(stored.balance, Money(1000, .eur), "upsert keeps the ledger's balance")
    }

    func testSnapshotAndStaticRestoreTwins() async throws {
        let store = Fixtures.store()
        try await store.insert([Fixtures.transaction("a", -100, "Market", day: 3)])
        let data = try await store.snapshot()
        let restored = try await LedgerStore.restore(from: data, queue: DispatchQueue(label: "twin.restored"))
        let balance = try await restored.balance(of: "checking")
        XCTAssertEqual(balance, Money(minorUnits: -100, currency: .eur))
        do {
            _ = try await LedgerStore.restore(from: Data("nope".utf8))
            XCTFail("expected an error")
        } catch {
            XCTAssertTrue(error is DecodingError, "\(error)")
        }
    }

    func testReconcileTwin() async throws {
        let store = Fixtures.store()
        let bank = FakeBankClient()
        bank.pages["first"] = TransactionPage(transactions: [Fixtures.remote("2", -300, "Rail", day: 3)], next: nil)
        let report = try await reconcile("checking", store: store, bank: bank, bankBalance: Money(1000, .eur))
        XCTAssertEqual(report.missingTransactionIDs, ["bank-2"])
        do {
            _ = try await reconcile("ghost", store: store, bank: bank, bankBalance: .zero(.eur))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .accountNotFound("ghost"))
        }
        let all = try await reconcileAll([("checking", Money(1000, .eur))], store: store, bank: bank)
        XCTAssertEqual(all["checking"]?.value?.missingTransactionIDs, ["bank-2"])
    }

    func testGenericRecordTwins() async throws {
        let merchant = MerchantInfo(id: "corner-market", displayName: "Corner Market", category: .groceries)
        let records = FakeRecords(records: ["MerchantInfo/corner-market": try JSONEncoder().encode(merchant)])
        let raw = try await records.fetchRecord(kind: "MerchantInfo", id: "corner-market")
        XCTAssertFalse(raw.isEmpty)
        let fetched: MerchantInfo = try await records.fetch(MerchantInfo.self, id: "corner-market")
        XCTAssertEqual(fetched, merchant)
        let both = try await records.fetchAll(MerchantInfo.self, ids: ["corner-market", "corner-market"])
        XCTAssertEqual(both, [merchant, merchant])
        let known = try await records.merchant(named: "Corner Market")
        XCTAssertEqual(known, merchant)
        let unknown = try await records.merchant(named: "Nobody")
        XCTAssertNil(unknown)
    }
}
