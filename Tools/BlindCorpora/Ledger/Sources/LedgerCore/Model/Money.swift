import Foundation

/// ISO 4217 currencies the app supports.
public enum Currency: String, Codable, CaseIterable, Hashable, Sendable {
    case eur = "EUR"
    case usd = "USD"
    case gbp = "GBP"
    case chf = "CHF"
    case jpy = "JPY"

    /// Digits after the decimal separator.
    public var minorDigits: Int {
        switch self {
        case .jpy: return 0
        default: return 2
        }
    }

    var minorUnitsPerMajor: Int64 {
        minorDigits == 0 ? 1 : 100
    }
}

/// An amount of money in minor units (cents), so sums never round.
public struct Money: Hashable, Codable, Sendable, CustomStringConvertible {
    public var minorUnits: Int64
    public var currency: Currency

    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// `Money(12.50, .eur)`: convenient in tests and fixtures.
    public init(_ major: Double, _ currency: Currency) {
        self.init(minorUnits: Int64((major * Double(currency.minorUnitsPerMajor)).rounded()), currency: currency)
    }

    public static func zero(_ currency: Currency) -> Money {
        Money(minorUnits: 0, currency: currency)
    }

    public var isNegative: Bool { minorUnits < 0 }

    public var negated: Money { Money(minorUnits: -minorUnits, currency: currency) }

    public var majorValue: Double {
        Double(minorUnits) / Double(currency.minorUnitsPerMajor)
    }

    /// Adds two amounts of the same currency; `nil` when the currencies differ.
    public func adding(_ other: Money) -> Money? {
        guard other.currency == currency else { return nil }
        return Money(minorUnits: minorUnits + other.minorUnits, currency: currency)
    }

    public func subtracting(_ other: Money) -> Money? {
        adding(other.negated)
    }

    public var description: String {
        let digits = currency.minorDigits
        let sign = minorUnits < 0 ? "-" : ""
        let absolute = abs(minorUnits)
        if digits == 0 {
            return "\(sign)\(absolute) \(currency.rawValue)"
        }
        let major = absolute / currency.minorUnitsPerMajor
        let minor = absolute % currency.minorUnitsPerMajor
        let minorText = minor < 10 ? "0\(minor)" : "\(minor)"
        return "\(sign)\(major).\(minorText) \(currency.rawValue)"
    }
}

/// A pair of currencies, the key of the FX cache.
public struct CurrencyPair: Hashable, Codable, Sendable, CustomStringConvertible {
    public var from: Currency
    public var to: Currency

    public init(_ from: Currency, _ to: Currency) {
        self.from = from
        self.to = to
    }

    public var inverted: CurrencyPair { CurrencyPair(to, from) }

    public var description: String { "\(from.rawValue)/\(to.rawValue)" }
}

/// A quoted exchange rate: 1 unit of `pair.from` buys `rate` units of `pair.to`.
public struct FXRate: Hashable, Codable, Sendable {
    public var pair: CurrencyPair
    public var rate: Double
    public var quotedAt: Date

    public init(pair: CurrencyPair, rate: Double, quotedAt: Date = Date()) {
        self.pair = pair
        self.rate = rate
        self.quotedAt = quotedAt
    }

    /// Converts `amount` (in `pair.from`) into `pair.to`, rounding half away from zero.
    public func convert(_ amount: Money) -> Money {
        precondition(amount.currency == pair.from, "converting \(amount.currency) with a \(pair) rate")
        let major = amount.majorValue * rate
        return Money(major, pair.to)
    }
}
