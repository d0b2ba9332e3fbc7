import Foundation
import Tomorrowland

public struct ImportSummary: Hashable, Sendable {
    public var pages: Int
    public var fetched: Int
    public var inserted: Int

    public init(pages: Int = 0, fetched: Int = 0, inserted: Int = 0) {
        self.pages = pages
        self.fetched = fetched
        self.inserted = inserted
    }

    public var skipped: Int { fetched - inserted }
}

/// Pulls an account's transactions from the bank, page by page, into the ledger.
///
/// Not thread-safe: create one per import. The promise chains it returns do not capture it.
public final class TransactionImporter {
    private let client: BankAPIClient
    private let store: LedgerStoring
    private let rules: RuleEngine?
    /// Stops after this many pages even if the bank has more (first import of an old account).
    public var maxPages = 50
    public private(set) var importsStarted = 0

    public init(client: BankAPIClient, store: LedgerStoring, rules: RuleEngine? = nil) {
        self.client = client
        self.store = store
        self.rules = rules
    }

    /// Imports every page the bank has for `account`, oldest page last.
    ///
    /// Requesting cancellation stops the request in flight; pages already stored stay stored.
    public func importAll(into account: AccountID) -> LedgerPromise<ImportSummary> {
        importsStarted += 1
        let categorise = makeCategoriser()
        return TransactionImporter.importPages(
            client: client, store: store, account: account, from: nil,
            summary: ImportSummary(), pagesLeft: maxPages, categorise: categorise)
        .logFailures("import \(account)")
    }

    /// Imports pages until one reaches back before `date`.
    public func importRecent(into account: AccountID, since date: Date) -> LedgerPromise<ImportSummary> {
        importsStarted += 1
        let client = self.client, store = self.store
        let categorise = makeCategoriser()
        @Sendable func step(_ token: PageToken?, _ summary: ImportSummary) -> LedgerPromise<ImportSummary> {
            return client.fetchTransactions(account: account, page: token)
                .ledgerErrors
                .flatMap(on: .utility) { page -> LedgerPromise<ImportSummary> in
                    let recent = page.transactions.filter { $0.bookedAt >= date }
                    return categorise(recent.map { $0.asTransaction(in: account) })
                        .asLedger
                        .flatMap(on: .immediate) { store.insert($0) }
                        .flatMap(on: .immediate) { inserted -> LedgerPromise<ImportSummary> in
                            let next = ImportSummary(
                                pages: summary.pages + 1,
                                fetched: summary.fetched + recent.count,
                                inserted: summary.inserted + inserted)
                            let reachedBack = recent.count < page.transactions.count
                            guard let token = page.next, !reachedBack else {
                                return Promise(fulfilled: next)
                            }
                            return step(token, next)
                        }
                }
        }
        return step(nil, ImportSummary())
    }

    /// Applies the categorisation rules to a page before it is stored.
    public typealias Categoriser = @Sendable ([Transaction]) -> Guaranteed<[Transaction]>

    private func makeCategoriser() -> Categoriser {
        guard let rules = rules else {
            return { Promise(fulfilled: $0) }
        }
        // Snapshot the rules now: the import runs on other queues.
        let snapshot = rules.rules
        return { transactions in
            Promise(on: .utility) { resolver in
                resolver.fulfill(with: transactions.map { RuleEngine.apply(snapshot, to: $0) })
            }
        }
    }

    private static func importPages(
        client: BankAPIClient,
        store: LedgerStoring,
        account: AccountID,
        from token: PageToken?,
        summary: ImportSummary,
        pagesLeft: Int,
        categorise: @escaping Categoriser
    ) -> LedgerPromise<ImportSummary> {
        return client.fetchTransactions(account: account, page: token)
            .mapError(on: .immediate, LedgerError.bank)
            .flatMap(on: .utility) { page in
                categorise(page.transactions.map { $0.asTransaction(in: account) })
                    .asLedger
                    .flatMap(on: .ledgerDB) { transactions in store.insert(transactions) }
                    .map(on: .immediate) { inserted in (page, inserted) }
            }
            .flatMap(on: .utility) { page, inserted -> LedgerPromise<ImportSummary> in
                let next = ImportSummary(
                    pages: summary.pages + 1,
                    fetched: summary.fetched + page.transactions.count,
                    inserted: summary.inserted + inserted)
                guard let token = page.next, pagesLeft > 1 else {
                    return Promise(fulfilled: next)
                }
                return importPages(
                    client: client, store: store, account: account, from: token,
                    summary: next, pagesLeft: pagesLeft - 1, categorise: categorise)
            }
    }
}
