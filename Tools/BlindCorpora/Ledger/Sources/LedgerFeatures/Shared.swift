import Foundation
import LedgerCore
import Tomorrowland

// Compiled into LedgerFeatures and, through a symbolic link, into LedgerFeaturesLite (the
// widget): the headline numbers both show.

/// Money as the app shows it.
public enum MoneyText {
    public static func symbol(for currency: Currency) -> String {
        switch currency {
        case .eur: return "€"
        case .usd: return "$"
        case .gbp: return "£"
        case .chf: return "CHF "
        case .jpy: return "¥"
        }
    }

    public static func format(_ money: Money) -> String {
        let symbol = self.symbol(for: money.currency)
        let text = money.description.replacingOccurrences(of: " \(money.currency.rawValue)", with: "")
        return text.hasPrefix("-") ? "-\(symbol)\(text.dropFirst())" : "\(symbol)\(text)"
    }

    /// "€1.2k" for headers.
    public static func compact(_ money: Money) -> String {
        let major = money.majorValue
        guard abs(major) >= 1000 else { return format(money) }
        let thousands = (abs(major) / 100).rounded() / 10
        let sign = major < 0 ? "-" : ""
        return "\(sign)\(symbol(for: money.currency))\(thousands)k"
    }
}

public struct BalanceSummary: Hashable, Sendable {
    public var total: Money
    public var text: String
    public var accountCount: Int
}

/// Loads the total balance over every account, in one currency.
public final class BalanceSummaryLoader {
    private let store: LedgerStoring
    private let fx: FXRateService

    public init(store: LedgerStoring, fx: FXRateService) {
        self.store = store
        self.fx = fx
    }

    /// The sum of every account's balance, converted to `currency`.
    public func totalBalance(in currency: Currency) -> LedgerPromise<Money> {
        return store.accounts()
            .flatMap(on: .nowOr(.fx)) { [fx] accounts in
                fx.total(of: accounts.map(\.balance), in: currency)
            }
    }

    /// `totalBalance(in:)` formatted for display.
    public func summaryText(in currency: Currency) -> LedgerPromise<String> {
        return totalBalance(in: currency).map(on: .utility, MoneyText.format)
    }

    /// The total, its text and how many accounts went into it.
    public func summary(in currency: Currency) -> LedgerPromise<BalanceSummary> {
        return when(fulfilled: totalBalance(in: currency), store.accounts())
            .map(on: .utility) { total, accounts in
                BalanceSummary(total: total, text: MoneyText.format(total), accountCount: accounts.count)
            }
    }
}
