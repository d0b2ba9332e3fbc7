import Foundation
import XCTest
import LedgerCore
import Tomorrowland

final class BankingTwinTests: XCTestCase {
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
            "p2": TransactionPage(transactions: [Fixtures.remote("3", -4500, "City Rail", day: 15)], next: PageToken(rawValue: "p3")),
            "p3": TransactionPage(transactions: [Fixtures.remote("4", -90_000, "Landlord Ltd", day: 1)], next: nil),
        ]
        return bank
    }

    func testImportAllTwinWalksThePagesInOrder() async throws {
        let bank = threePageBank()
        let store = RecordingStore()
        let importer = TransactionImporter(client: bank, store: store, rules: RuleEngine())
        let summary = try await importer.importAll(into: "checking")
        XCTAssertEqual(summary, ImportSummary(pages: 3, fetched: 4, inserted: 4))
        XCTAssertEqual(bank.requests.value, ["first", "p2", "p3"])
        XCTAssertEqual(store.insertQueues.value, ["db", "db", "db"])
        XCTAssertEqual(importer.importsStarted, 1)
    }

    func testImportAllTwinThrowsMappedBankErrors() async {
        let bank = threePageBank()
        bank.failures["p3"] = .rateLimited
        let importer = TransactionImporter(client: bank, store: RecordingStore())
        do {
            _ = try await importer.importAll(into: "checking")
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? LedgerError, .bank(.rateLimited))
        }
    }

    func testCancellingTheTaskCancelsTheImportsRequest() async {
        let bank = threePageBank()
        bank.hold = true
        let task = Task {
            try await TransactionImporter(client: bank, store: RecordingStore()).importAll(into: "checking")
        }
        await eventually("the first page is requested") { bank.requests.value == ["first"] }
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(bank.cancels.value, ["first"])
    }

    func testImportRecentTwin() async throws {
        let bank = threePageBank()
        let importer = TransactionImporter(client: bank, store: RecordingStore())
        let summary = try await importer.importRecent(into: "checking", since: Fixtures.date(Fixtures.january, day: 20))
        XCTAssertEqual(summary, ImportSummary(pages: 2, fetched: 2, inserted: 2))
    }

    func testBankClientTwinsThroughTheProtocol() async throws {
        let transport = FakeTransport()
        transport.respond(to: "/v2/accounts/checking/transactions", with: TransactionPage(transactions: [Fixtures.remote("9", -1, "x", day: 1)], next: nil))
        let client: BankAPIClient = HTTPBankClient(transport: transport)
        let page = try await client.fetchTransactions(account: "checking", page: nil)
        XCTAssertEqual(page.transactions.map(\.id), ["9"])
        do {
            _ = try await client.fetchAccounts()
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? BankAPIError, .http(status: 404))
        }
    }

    func testCancellingTheTaskCancelsTheHTTPTask() async {
        let transport = FakeTransport()
        transport.hold = true
        let client = HTTPBankClient(transport: transport)
        let task = Task { try await client.fetchTransactions(account: "checking", page: PageToken(rawValue: "c9")) }
        await eventually("the request is sent") { transport.sent.value.count == 1 }
        task.cancel()
        let outcome = await task.result
        XCTAssertTrue((outcome.failure) is CancellationError)
        XCTAssertEqual(transport.cancelled.value, ["/v2/accounts/checking/transactions?c9"])
    }

    func testAccessTokenTwin() async throws {
        let vault = FakeVault(token: "secret")
        let session = BankSession(bankID: "bank", vault: vault)
        let token = try await session.accessToken()
        XCTAssertEqual(token, "secret")
        try await session.store(token: "rotated")
        let rotated = try await session.accessToken()
        XCTAssertEqual(rotated, "rotated")
        XCTAssertEqual(vault.reads.value, 1)
    }

    func testAccessTokenTwinThrowsCancellationWhenTheUserDismissesFaceID() async {
        let session = BankSession(bankID: "bank", vault: FakeVault(error: VaultError.userCancelled))
        do {
            _ = try await session.accessToken()
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }
}

private extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
