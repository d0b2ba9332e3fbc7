import Foundation
import Tomorrowland

/// The ledger database: an in-memory store whose state only the database queue touches.
///
/// Thread-safety: every read and write runs on `queue` (`LedgerQueues.database` unless a test
/// gives its own), hence `@unchecked Sendable`.
public final class LedgerStore: LedgerStoring, @unchecked Sendable {
    public let queue: DispatchQueue
    private var accountsByID: [AccountID: Account] = [:]
    private var transactionsByAccount: [AccountID: [Transaction]] = [:]
    private var knownTransactionIDs: Set<String> = []
    private let log: LedgerLog

    public init(queue: DispatchQueue = LedgerQueues.database, accounts: [Account] = [], log: LedgerLog = .shared) {
        self.queue = queue
        self.log = log
        for account in accounts {
            accountsByID[account.id] = account
        }
    }

    // MARK: Reads

    public func account(_ id: AccountID) -> LedgerPromise<Account> {
        return Promise(on: .queue(queue)) { resolver in
            if let account = self.accountsByID[id] {
                resolver.fulfill(with: account)
            } else {
                resolver.reject(with: .accountNotFound(id))
            }
        }
    }

    public func accounts() -> LedgerPromise<[Account]> {
        return Promise(on: .queue(queue)) { resolver in
            resolver.fulfill(with: self.accountsByID.values.sorted { $0.name < $1.name })
        }
    }

    public func transactions(for account: AccountID, in month: Month?) -> LedgerPromise<[Transaction]> {
        let requested = Date()
        log.record("transactions(\(account), \(month.map(String.init(describing:)) ?? "all"))")
        return self.account(account)
            .map(on: .queue(queue)) { _ in
                let all = self.transactionsByAccount[account] ?? []
                let filtered = month.map { month in all.filter { month.contains($0.bookedAt) } } ?? all
                return filtered.sorted { $0.bookedAt > $1.bookedAt }
            }
            .tap(on: .immediate) { [log] result in
                if case .value(let rows) = result {
                    log.record("transactions(\(account)): \(rows.count) rows in \(Int(Date().timeIntervalSince(requested) * 1000)) ms")
                }
            }
    }

    /// Several accounts by id, in the order given.
    public func accounts(withIDs ids: AccountID...) -> LedgerPromise<[Account]> {
        return when(fulfilled: ids.map { account($0) })
    }

    /// The account's current balance.
    public func balance(of id: AccountID) -> LedgerPromise<Money> {
        return account(id).map(on: .immediate) { $0.balance }
    }

    // MARK: Writes

    @discardableResult
    public func insert(_ transactions: [Transaction]) -> LedgerPromise<Int> {
        return Promise(on: .queue(queue)) { resolver in
            var inserted = 0
            for transaction in transactions where !self.knownTransactionIDs.contains(transaction.id) {
                guard var account = self.accountsByID[transaction.accountID] else {
                    resolver.reject(with: .accountNotFound(transaction.accountID))
                    return
                }
                guard let newBalance = account.balance.adding(transaction.amount) else {
                    resolver.reject(with: .storage("currency of \(transaction.id) does not match \(account.id)"))
                    return
                }
                account.balance = newBalance
                self.accountsByID[account.id] = account
                self.transactionsByAccount[transaction.accountID, default: []].append(transaction)
                self.knownTransactionIDs.insert(transaction.id)
                inserted += 1
            }
            resolver.fulfill(with: inserted)
        }
    }

    public func post(_ entry: JournalEntry) -> LedgerPromise<Money> {
        guard entry.amount.minorUnits > 0 else {
            return LedgerPromise(rejected: .invalidAmount)
        }
        return when(fulfilled: account(entry.debit), account(entry.credit))
            .flatMap(on: .ledgerDB) { debit, credit -> LedgerPromise<Money> in
                guard debit.balance.minorUnits >= entry.amount.minorUnits || debit.kind == .credit else {
                    return Promise(rejected: .insufficientFunds(available: debit.balance, requested: entry.amount))
                }
                let outgoing = Transaction(
                    id: entry.id + "-out", accountID: debit.id, amount: entry.amount.negated,
                    bookedAt: entry.bookedAt, payee: credit.name, memo: entry.memo, category: .transfer)
                let incoming = Transaction(
                    id: entry.id + "-in", accountID: credit.id, amount: entry.creditedAmount,
                    bookedAt: entry.bookedAt, payee: debit.name, memo: entry.memo, category: .transfer)
                return self.insert([outgoing, incoming]).flatMap(on: .immediate) { _ in self.balance(of: debit.id) }
            }
    }

    /// Adds or replaces an account (used by the importer for accounts the bank reports).
    @discardableResult
    public func upsert(_ account: Account) -> Guaranteed<Account> {
        return Promise(on: .queue(queue)) { resolver in
            var stored = account
            if let existing = self.accountsByID[account.id] {
                stored.balance = existing.balance
            }
            self.accountsByID[account.id] = stored
            resolver.fulfill(with: stored)
        }
    }

    // MARK: Snapshots

    struct Snapshot: Codable {
        var accounts: [Account]
        var transactions: [Transaction]
    }

    /// Serialises the whole store, for backups.
    public func snapshot() -> StdPromise<Data> {
        return StdPromise(on: .queue(queue)) { resolver in
            let snapshot = Snapshot(
                accounts: Array(self.accountsByID.values),
                transactions: self.transactionsByAccount.values.flatMap { $0 })
            resolver.fulfill(with: try JSONEncoder().encode(snapshot))
        }
    }

    /// Rebuilds a store from `snapshot()`'s data, decoding off the caller's thread.
    public static func restore(from data: Data, queue: DispatchQueue = LedgerQueues.database) -> StdPromise<LedgerStore> {
        return StdPromise<Data>(fulfilled: data)
            .tryMap(on: .utility) { data in try JSONDecoder().decode(Snapshot.self, from: data) }
            .flatMap(on: .utility) { snapshot -> StdPromise<LedgerStore> in
                let store = LedgerStore(queue: queue, accounts: snapshot.accounts.map { account in
                    var opening = account
                    opening.balance = .zero(account.currency)
                    return opening
                })
                // Re-inserting replays the balances from the transactions.
                return store.insert(snapshot.transactions).std.map(on: .immediate) { _ in store }
            }
    }

    #if DEBUG
    /// A human-readable dump of the store, for the debug menu.
    public func debugDescriptionPromise() -> Guaranteed<String> {
        return Promise(on: .queue(queue)) { resolver in
            let lines = self.accountsByID.values.sorted { $0.id.rawValue < $1.id.rawValue }.map { account in
                "\(account.id): \(account.balance) (\(self.transactionsByAccount[account.id]?.count ?? 0) transactions)"
            }
            resolver.fulfill(with: lines.joined(separator: "\n"))
        }
    }
    #endif
}
