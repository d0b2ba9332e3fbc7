import Foundation
import Tomorrowland

public struct ReconciliationReport: Hashable, Sendable {
    public var account: AccountID
    public var ledgerBalance: Money
    public var bankBalance: Money
    public var missingTransactionIDs: [String]

    public var isBalanced: Bool { ledgerBalance == bankBalance && missingTransactionIDs.isEmpty }
}

/// Compares the ledger with the bank's first page for `account`: the balances, and which of
/// the bank's transactions the ledger does not have.
public func reconcile(
    _ account: AccountID,
    store: LedgerStoring,
    bank: BankAPIClient,
    bankBalance: Money
) -> LedgerPromise<ReconciliationReport> {
    let ledger = when(fulfilled: store.account(account), store.transactions(for: account, in: nil))
    let remote = bank.fetchTransactions(account: account, page: nil).ledgerErrors
    return when(fulfilled: ledger, remote)
        .map(on: .utility) { local, page in
            let (stored, transactions) = local
            let known = Set(transactions.map(\.id))
            let missing = page.transactions.map { "bank-\($0.id)" }.filter { !known.contains($0) }
            return ReconciliationReport(
                account: account,
                ledgerBalance: stored.balance,
                bankBalance: bankBalance,
                missingTransactionIDs: missing)
        }
}

/// Reconciles several accounts; a failure of one does not hide the others' reports.
public func reconcileAll(
    _ accounts: [(AccountID, Money)],
    store: LedgerStoring,
    bank: BankAPIClient
) -> Guaranteed<[AccountID: PromiseResult<ReconciliationReport, LedgerError>]> {
    let reports = accounts.map { account, balance in
        reconcile(account, store: store, bank: bank, bankBalance: balance)
            .mapResult(on: .immediate) { result -> PromiseResult<(AccountID, PromiseResult<ReconciliationReport, LedgerError>), NoError> in
                .value((account, result))
            }
    }
    return when(fulfilled: reports).map(on: .utility) { pairs in
        Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }
}
