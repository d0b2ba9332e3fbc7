import Foundation
import LedgerCore
import Tomorrowland

/// Runs bank imports for the whole app; owns the importer and the import history.
public actor SyncCoordinator {
    private let importer: TransactionImporter
    public private(set) var lastSummaries: [AccountID: ImportSummary] = [:]
    public private(set) var journal: [String] = []
    public private(set) var inFlight = 0

    public init(client: BankAPIClient, store: LedgerStoring, rules: [CategorisationRule] = RuleEngine.defaultRules) {
        self.importer = TransactionImporter(client: client, store: store, rules: RuleEngine(rules: rules))
    }

    /// Imports `account` and records the summary.
    public func sync(_ account: AccountID) -> LedgerPromise<ImportSummary> {
        inFlight += 1
        journal.append("start \(account)")
        return importer.importAll(into: account)
            .then { summary in
                self.lastSummaries[account] = summary
                self.journal.append("done \(account) +\(summary.inserted)")
            }
            .always { _ in
                self.inFlight -= 1
            }
    }

    /// Imports every account concurrently; fails with the first failure.
    public func syncAll(_ accounts: [AccountID]) -> LedgerPromise<[ImportSummary]> {
        journal.append("sync all \(accounts.count)")
        return when(fulfilled: accounts.map { sync($0) })
            .tap(on: .utility) { result in
                LedgerLog.shared.record("syncAll: \(result.value?.count ?? 0) accounts")
            }
    }

    public func summary(for account: AccountID) -> ImportSummary? {
        lastSummaries[account]
    }
}
