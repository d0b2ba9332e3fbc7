import Foundation
import XCTest
import LedgerCore
import Tomorrowland

final class ImportTests: XCTestCase {
    override func setUp() {
        super.setUp()
        QueueProbe.install()
    }

    private func threePageBank() -> FakeBankClient {
        let bank = FakeBankClient()
        bank.pages = [
            "first": TransactionPage(transactions: [
                Fixtures.remote("1", -1200, "Corner Market", day: 28),
                Fixtures.remote("2", 250_000, "ACME Payroll", day: 25),
            ], next: PageToken(rawValue: "p2")),
            "p2": TransactionPage(transactions: [
                Fixtures.remote("3", -4500, "City Rail", day: 15),
            ], next: PageToken(rawValue: "p3")),
            "p3": TransactionPage(transactions: [
                Fixtures.remote("4", -90_000, "Landlord Ltd", day: 1),
                Fixtures.remote("1", -1200, "Corner Market", day: 28),  // the bank repeats itself
            ], next: nil),
        ]
        return bank
    }

    func testImportAllWalksEveryPageInOrder() throws {
        let bank = threePageBank()
        let store = RecordingStore()
        let importer = TransactionImporter(client: bank, store: store)
        let summary = try value(of: importer.importAll(into: "checking"))
        XCTAssertEqual(summary, ImportSummary(pages: 3, fetched: 5, inserted: 4))
        XCTAssertEqual(summary.skipped, 1)
        XCTAssertEqual(bank.requests.value, ["first", "p2", "p3"])
        XCTAssertEqual(try value(of: store.inner.balance(of: "checking")), Money(minorUnits: 100_000 - 1200 + 250_000 - 4500 - 90_000, currency: .eur))
    }

    func testImportStoresEachPageOnTheDatabaseQueue() throws {
        let store = RecordingStore()
        let importer = TransactionImporter(client: threePageBank(), store: store)
        _ = try value(of: importer.importAll(into: "checking"))
        XCTAssertEqual(store.insertQueues.value, ["db", "db", "db"])
        XCTAssertEqual(store.inserted.value.prefix(2), ["bank-1", "bank-2"])
    }

    func testImportStartsTheFirstRequestDuringTheCall() {
        let bank = threePageBank()
        bank.hold = true
        let importer = TransactionImporter(client: bank, store: RecordingStore())
        XCTAssertEqual(importer.importsStarted, 0)
        let promise = importer.importAll(into: "checking")
        XCTAssertEqual(importer.importsStarted, 1)
        XCTAssertEqual(bank.requests.value, ["first"])
        promise.requestCancel()
    }

    func testImportAppliesCategorisationRules() throws {
        let store = RecordingStore()
        let importer = TransactionImporter(client: threePageBank(), store: store, rules: RuleEngine())
        _ = try value(of: importer.importAll(into: "checking"))
        let categories = try value(of: store.transactions(for: "checking", in: nil)).map { "\($0.payee)=\($0.category.rawValue)" }
        XCTAssertEqual(Set(categories), ["Corner Market=groceries", "ACME Payroll=salary", "City Rail=transport", "Landlord Ltd=rent"])
    }

    func testBankErrorsBecomeLedgerErrors() {
        let bank = threePageBank()
        bank.failures["p2"] = .http(status: 502)
        let importer = TransactionImporter(client: bank, store: RecordingStore())
        XCTAssertEqual(error(of: importer.importAll(into: "checking")), .bank(.http(status: 502)))
        XCTAssertEqual(bank.requests.value, ["first", "p2"])
    }

    func testMaxPagesStopsEarly() throws {
        let importer = TransactionImporter(client: threePageBank(), store: RecordingStore())
        importer.maxPages = 2
        XCTAssertEqual(try value(of: importer.importAll(into: "checking")).pages, 2)
    }

    func testCancellingAnImportCancelsTheRequestInFlight() {
        let bank = threePageBank()
        bank.hold = true
        let importer = TransactionImporter(client: bank, store: RecordingStore())
        let promise = importer.importAll(into: "checking")
        promise.requestCancel()
        XCTAssertEqual(result(of: promise), .cancelled)
        XCTAssertEqual(bank.cancels.value, ["first"])
    }

    func testImportRecentStopsAtTheDate() throws {
        let bank = threePageBank()
        let store = RecordingStore()
        let importer = TransactionImporter(client: bank, store: store)
        let summary = try value(of: importer.importRecent(into: "checking", since: Fixtures.date(Fixtures.january, day: 20)))
        XCTAssertEqual(summary, ImportSummary(pages: 2, fetched: 2, inserted: 2))
        XCTAssertEqual(bank.requests.value, ["first", "p2"])
    }

    // MARK: HTTP client

    func testHTTPClientDecodesPages() throws {
        let transport = FakeTransport()
        let path = "/v2/accounts/checking/transactions"
        transport.respond(to: path, with: TransactionPage(transactions: [Fixtures.remote("9", -100, "Cafe", day: 2)], next: PageToken(rawValue: "c2")))
        transport.respond(to: path, cursor: "c2", with: TransactionPage(transactions: [], next: nil))
        let client = HTTPBankClient(transport: transport)
        let first = try value(of: client.fetchTransactions(account: "checking", page: nil))
        XCTAssertEqual(first.transactions.map(\.id), ["9"])
        XCTAssertEqual(first.next, PageToken(rawValue: "c2"))
        let second = try value(of: client.fetchTransactions(account: "checking", page: first.next))
        XCTAssertEqual(second.next, nil)
        XCTAssertEqual(transport.sent.value.map { $0.query["cursor"] }, [nil, "c2"])
        XCTAssertEqual(transport.sent.value.first?.query["limit"], "100")
    }

    func testHTTPClientSendsDuringTheCall() {
        let transport = FakeTransport()
        transport.hold = true
        let client = HTTPBankClient(transport: transport)
        let promise = client.fetchAccounts()
        XCTAssertEqual(transport.sent.value.map(\.path), ["/v2/accounts"])
        promise.requestCancel()
    }

    func testHTTPClientReportsMalformedPagesAndStatus() {
        let transport = FakeTransport()
        transport.responses["/v2/accounts"] = Data("{".utf8)
        transport.errors["/v2/accounts/x/transactions"] = BankAPIError.unauthorized
        let client = HTTPBankClient(transport: transport)
        XCTAssertEqual(error(of: client.fetchAccounts()), .malformedPage(0))
        XCTAssertEqual(error(of: client.fetchTransactions(account: "x", page: nil)), .unauthorized)
    }

    func testCancellingAFetchCancelsTheHTTPTask() {
        let transport = FakeTransport()
        transport.hold = true
        let client = HTTPBankClient(transport: transport)
        let promise = client.fetchTransactions(account: "checking", page: nil)
        promise.requestCancel()
        XCTAssertEqual(result(of: promise), .cancelled)
        XCTAssertEqual(transport.cancelled.value, ["/v2/accounts/checking/transactions"])
    }

    // MARK: Session

    func testSessionReadsTheVaultOnce() throws {
        let vault = FakeVault(token: "secret")
        let session = BankSession(bankID: "bank", vault: vault)
        XCTAssertEqual(try value(of: session.accessToken()), "secret")
        XCTAssertEqual(try value(of: session.accessToken()), "secret")
        XCTAssertEqual(vault.reads.value, 1)
        session.invalidate()
        _ = try value(of: session.accessToken())
        XCTAssertEqual(vault.reads.value, 2)
    }

    func testDismissedFaceIDCancels() {
        let session = BankSession(bankID: "bank", vault: FakeVault(error: VaultError.userCancelled))
        XCTAssertEqual(result(of: session.accessToken())?.isCancelled, true)
        let missing = BankSession(bankID: "bank", vault: FakeVault(error: VaultError.missing))
        XCTAssertEqual(error(of: missing.accessToken()) as? VaultError, .missing)
    }

    func testStoringATokenCachesIt() throws {
        let vault = FakeVault()
        let session = BankSession(bankID: "bank", vault: vault)
        _ = try value(of: session.store(token: "new"))
        XCTAssertEqual(try value(of: session.accessToken()), "new")
        XCTAssertEqual(vault.reads.value, 0)
    }
}
