import Foundation
import XCTest
import LedgerCore
import Tomorrowland

final class LedgerStoreTests: XCTestCase {
    override func setUp() {
        super.setUp()
        QueueProbe.install()
    }

    func testAccountIsFound() throws {
        let store = Fixtures.store()
        let account = try value(of: store.account("savings"))
        XCTAssertEqual(account.name, "Savings")
        XCTAssertEqual(account.balance, Money(5000, .eur))
    }

    func testMissingAccountRejectsWithTypedError() {
        let store = Fixtures.store()
        XCTAssertEqual(error(of: store.account("nope")), .accountNotFound("nope"))
    }

    func testAccountsByIDKeepTheOrderGiven() throws {
        let store = Fixtures.store()
        XCTAssertEqual(try value(of: store.accounts(withIDs: "usd", "checking")).map(\.name), ["Dollar account", "Checking"])
        XCTAssertEqual(error(of: store.accounts(withIDs: "checking", "ghost")), .accountNotFound("ghost"))
    }

    func testAccountsAreSortedByName() throws {
        let names = try value(of: Fixtures.store().accounts()).map(\.name)
        XCTAssertEqual(names, ["Checking", "Credit card", "Dollar account", "Savings"])
    }

    func testInsertSkipsKnownTransactionsAndAdjustsBalances() throws {
        let store = Fixtures.store()
        let first = [
            Fixtures.transaction("t1", -2500, "Market", day: 3),
            Fixtures.transaction("t2", 100_000, "Payroll", day: 25),
        ]
        XCTAssertEqual(try value(of: store.insert(first)), 2)
        XCTAssertEqual(try value(of: store.insert(first + [Fixtures.transaction("t3", -999, "Cafe", day: 5)])), 1)
        XCTAssertEqual(try value(of: store.balance(of: "checking")), Money(minorUnits: 100_000 + 100_000 - 2500 - 999, currency: .eur))
    }

    func testInsertIntoUnknownAccountFails() {
        let store = Fixtures.store()
        let orphan = Fixtures.transaction("t1", -100, "Market", day: 1, account: "ghost")
        XCTAssertEqual(error(of: store.insert([orphan])), .accountNotFound("ghost"))
    }

    func testPostMovesMoneyBetweenAccounts() throws {
        let store = Fixtures.store()
        let entry = JournalEntry(id: "j1", debit: "checking", credit: "savings", amount: Money(250, .eur), memo: "rainy day", bookedAt: Date())
        XCTAssertEqual(try value(of: store.post(entry)), Money(750, .eur))
        XCTAssertEqual(try value(of: store.balance(of: "savings")), Money(5250, .eur))
        let lines = try value(of: store.transactions(for: "savings", in: nil))
        XCTAssertEqual(lines.map(\.id), ["j1-in"])
        XCTAssertEqual(lines.first?.category, .transfer)
    }

    func testPostRejectsOverdraftButAllowsCredit() throws {
        let store = Fixtures.store()
        let overdraft = JournalEntry(id: "j2", debit: "checking", credit: "savings", amount: Money(5000, .eur), memo: "", bookedAt: Date())
        XCTAssertEqual(error(of: store.post(overdraft)), .insufficientFunds(available: Money(1000, .eur), requested: Money(5000, .eur)))
        let fromCard = JournalEntry(id: "j3", debit: "card", credit: "checking", amount: Money(300, .eur), memo: "", bookedAt: Date())
        XCTAssertEqual(try value(of: store.post(fromCard)), Money(-300, .eur))
    }

    func testPostRejectsZeroAmountSynchronously() {
        let store = Fixtures.store()
        let entry = JournalEntry(id: "j4", debit: "checking", credit: "savings", amount: .zero(.eur), memo: "", bookedAt: Date())
        let promise = store.post(entry)
        XCTAssertEqual(promise.result, .error(.invalidAmount))
    }

    func testTransactionsAreFilteredByMonthNewestFirst() throws {
        let store = Fixtures.store()
        _ = try value(of: store.insert([
            Fixtures.transaction("a", -100, "Market", day: 3),
            Fixtures.transaction("b", -200, "Rail", day: 20),
            Fixtures.transaction("c", -300, "Market", day: 2, month: Fixtures.february),
        ]))
        XCTAssertEqual(try value(of: store.transactions(for: "checking", in: Fixtures.january)).map(\.id), ["b", "a"])
        XCTAssertEqual(try value(of: store.transactions(for: "checking", in: nil)).map(\.id), ["c", "b", "a"])
    }

    func testTransactionsLogsTheRequestBeforeTheDatabaseQueueRuns() throws {
        let queue = DispatchQueue(label: "test.db.suspended")
        let log = LedgerLog()
        let store = Fixtures.store(queue: queue, log: log)
        queue.suspend()
        let promise = store.transactions(for: "checking", in: Fixtures.january)
        // Logged during the call, before any database work.
        XCTAssertEqual(log.entries, ["transactions(checking, 2024-01)"])
        XCTAssertNil(promise.result)
        queue.resume()
        XCTAssertEqual(try value(of: promise), [])
        waitUntil("the timing line is logged") { log.entries.count == 2 }
        XCTAssertTrue(log.entries[1].hasPrefix("transactions(checking): 0 rows"))
    }

    func testCallbacksRunOnTheContextTheyName() {
        let store = Fixtures.store()
        let queues = Locked<[String]>([])
        let done = expectation(description: "chain finished")
        store.account("checking")
            .then(on: .ledgerDB) { _ in queues.append("ledgerDB: \(QueueProbe.current)") }
            .then(on: .fx) { _ in queues.append("fx: \(QueueProbe.current)") }
            .then(on: .main) { _ in queues.append("main: \(QueueProbe.current)") }
            .then(on: .queue(LedgerQueues.database)) { _ in queues.append("queue(db): \(QueueProbe.current)") }
            .always(on: .utility) { _ in
                queues.append("utility: \(QueueProbe.current)")
                done.fulfill()
            }
        wait(for: [done], timeout: testTimeout)
        XCTAssertEqual(queues.value, ["ledgerDB: db", "fx: fx", "main: main", "queue(db): db", "utility: other"])
    }

    func testSnapshotRestoresBalancesAndTransactions() throws {
        let store = Fixtures.store()
        _ = try value(of: store.insert([Fixtures.transaction("a", -100, "Market", day: 3)]))
        let data = try value(of: store.snapshot())
        let restored = try value(of: LedgerStore.restore(from: data, queue: DispatchQueue(label: "restored")))
        XCTAssertEqual(try value(of: restored.balance(of: "checking")), Money(minorUnits: -100, currency: .eur))
        XCTAssertEqual(try value(of: restored.transactions(for: "checking", in: nil)).map(\.id), ["a"])
    }

    func testRestoreRejectsGarbage() {
        let result = self.result(of: LedgerStore.restore(from: Data("nope".utf8)))
        XCTAssertNotNil(result?.error)
    }

    #if DEBUG
    func testDebugDescriptionListsAccounts() throws {
        let text = try value(of: Fixtures.store().debugDescriptionPromise())
        XCTAssertTrue(text.contains("checking: 1000.00 EUR (0 transactions)"), text)
    }
    #endif
}
