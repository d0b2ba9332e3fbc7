import Foundation
import Tomorrowland

public struct Statement: Hashable, Sendable {
    public var account: Account
    public var month: Month
    public var opening: Money
    public var closing: Money
    /// Oldest first.
    public var lines: [Transaction]
}

public struct ExportedFile: Hashable, Sendable {
    public var name: String
    public var mimeType: String
    public var contents: Data

    public init(name: String, mimeType: String, contents: Data) {
        self.name = name
        self.mimeType = mimeType
        self.contents = contents
    }

    public var text: String? { String(data: contents, encoding: .utf8) }
}

/// Pure text formatting for statements. Static so it can be passed to `map` by name.
public enum StatementFormatter {
    private static let dayFormat = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!).year().month().day()

    private static func day(_ date: Date) -> String {
        date.formatted(dayFormat)
    }

    public static func csvLine(_ transaction: Transaction) -> String {
        let payee = transaction.payee.replacingOccurrences(of: "\"", with: "\"\"")
        return "\(day(transaction.bookedAt)),\"\(payee)\",\(transaction.category.rawValue),\(transaction.amount.minorUnits)"
    }

    public static func csv(_ statement: Statement) -> String {
        let header = "date,payee,category,amount_minor"
        return ([header] + statement.lines.map(csvLine)).joined(separator: "\n") + "\n"
    }

    public static func plainText(_ statement: Statement) -> String {
        var lines = [
            "Statement \(statement.account.name) \(statement.month)",
            "Opening balance: \(statement.opening)",
        ]
        lines += statement.lines.map { "\(day($0.bookedAt))  \($0.payee)  \($0.amount)" }
        lines.append("Closing balance: \(statement.closing)")
        return lines.joined(separator: "\n") + "\n"
    }

    public static func fileName(for statement: Statement, extension ext: String) -> String {
        "statement-\(statement.account.id.rawValue)-\(statement.month).\(ext)"
    }
}

/// Builds monthly statements from the ledger. Not thread-safe (holds a per-screen cache).
public final class StatementBuilder {
    private let store: LedgerStoring
    private var built: [String: Statement] = [:]

    public init(store: LedgerStoring) {
        self.store = store
    }

    /// The statement of `account` for `month`: opening and closing balances and the lines.
    public func statement(for account: AccountID, month: Month) -> LedgerPromise<Statement> {
        let key = "\(account)/\(month)"
        if let cached = built[key] {
            return Promise(fulfilled: cached)
        }
        return when(fulfilled: store.account(account), store.transactions(for: account, in: nil))
            .map(on: .utility) { account, all in
                StatementBuilder.build(account: account, month: month, all: all)
            }
    }

    /// Remembers a statement the screen built, so going back to it is instant.
    public func remember(_ statement: Statement) {
        built["\(statement.account.id)/\(statement.month)"] = statement
    }

    /// Statements for the last `count` months, newest first.
    public func recentStatements(for account: AccountID, count: Int, endingIn last: Month) -> LedgerPromise<[Statement]> {
        var months: [Month] = []
        var month = last
        for _ in 0..<count {
            months.append(month)
            month = month.previous
        }
        return when(fulfilled: months.map { statement(for: account, month: $0) })
    }

    static func build(account: Account, month: Month, all: [Transaction]) -> Statement {
        // Balances walk back from today's balance.
        let after = all.filter { $0.bookedAt >= month.next.start }.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
        let lines = all.filter { month.contains($0.bookedAt) }.sorted { $0.bookedAt < $1.bookedAt }
        let during = lines.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
        let closing = Money(minorUnits: account.balance.minorUnits - after, currency: account.currency)
        let opening = Money(minorUnits: closing.minorUnits - during, currency: account.currency)
        return Statement(account: account, month: month, opening: opening, closing: closing, lines: lines)
    }
}
