import Foundation

public struct AccountID: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }
}

public struct Account: Hashable, Codable, Sendable, Identifiable {
    public enum Kind: String, Codable, Sendable {
        case checking
        case savings
        case credit
    }

    public var id: AccountID
    public var name: String
    public var kind: Kind
    public var balance: Money
    /// The bank this account is imported from, if any.
    public var bankID: String?

    public var currency: Currency { balance.currency }

    public init(id: AccountID, name: String, kind: Kind = .checking, balance: Money, bankID: String? = nil) {
        self.id = id
        self.name = name
        self.kind = kind
        self.balance = balance
        self.bankID = bankID
    }
}

public enum Category: String, Codable, CaseIterable, Sendable {
    case groceries
    case rent
    case salary
    case transport
    case dining
    case utilities
    case entertainment
    case transfer
    case fees
    case uncategorised
}

public struct Transaction: Hashable, Codable, Sendable, Identifiable {
    public var id: String
    public var accountID: AccountID
    public var amount: Money
    public var bookedAt: Date
    public var payee: String
    public var memo: String
    public var category: Category

    public init(
        id: String,
        accountID: AccountID,
        amount: Money,
        bookedAt: Date,
        payee: String,
        memo: String = "",
        category: Category = .uncategorised
    ) {
        self.id = id
        self.accountID = accountID
        self.amount = amount
        self.bookedAt = bookedAt
        self.payee = payee
        self.memo = memo
        self.category = category
    }
}

/// A calendar month in UTC, the unit of statements and budgets.
public struct Month: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int

    public init(year: Int, month: Int) {
        precondition((1...12).contains(month), "month \(month)")
        self.year = year
        self.month = month
    }

    public init(containing date: Date) {
        let parts = Month.calendar.dateComponents([.year, .month], from: date)
        self.init(year: parts.year!, month: parts.month!)
    }

    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    public var start: Date {
        Month.calendar.date(from: DateComponents(year: year, month: month, day: 1))!
    }

    public var next: Month {
        month == 12 ? Month(year: year + 1, month: 1) : Month(year: year, month: month + 1)
    }

    public var previous: Month {
        month == 1 ? Month(year: year - 1, month: 12) : Month(year: year, month: month - 1)
    }

    public func contains(_ date: Date) -> Bool {
        date >= start && date < next.start
    }

    public static func < (lhs: Month, rhs: Month) -> Bool {
        (lhs.year, lhs.month) < (rhs.year, rhs.month)
    }

    public var description: String {
        month < 10 ? "\(year)-0\(month)" : "\(year)-\(month)"
    }
}

/// A double-entry posting between two accounts of the local ledger.
public struct JournalEntry: Hashable, Sendable {
    public var id: String
    public var debit: AccountID
    public var credit: AccountID
    /// In the debited account's currency.
    public var amount: Money
    /// In the credited account's currency (differs from `amount` for FX transfers).
    public var creditedAmount: Money
    public var memo: String
    public var bookedAt: Date

    public init(id: String, debit: AccountID, credit: AccountID, amount: Money, creditedAmount: Money? = nil, memo: String, bookedAt: Date) {
        self.id = id
        self.debit = debit
        self.credit = credit
        self.amount = amount
        self.creditedAmount = creditedAmount ?? amount
        self.memo = memo
        self.bookedAt = bookedAt
    }
}
