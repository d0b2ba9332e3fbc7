import Foundation
import Tomorrowland

/// The local ledger database. Every call is answered on the database queue.
public protocol LedgerStoring: AnyObject, Sendable {
    /// The account with `id`, or `.accountNotFound`.
    func account(_ id: AccountID) -> LedgerPromise<Account>

    /// Every account, ordered by name.
    func accounts() -> LedgerPromise<[Account]>

    /// The account's transactions, newest first; only those booked in `month` when given.
    func transactions(for account: AccountID, in month: Month?) -> LedgerPromise<[Transaction]>

    /// Inserts transactions that are not stored yet (matched by id) and adjusts balances.
    /// Fulfils with the number inserted.
    @discardableResult
    func insert(_ transactions: [Transaction]) -> LedgerPromise<Int>

    /// Posts a journal entry between two local accounts. Fulfils with the debited account's
    /// new balance.
    func post(_ entry: JournalEntry) -> LedgerPromise<Money>
}
