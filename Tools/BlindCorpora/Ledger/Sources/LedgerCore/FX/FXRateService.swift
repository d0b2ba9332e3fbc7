import Foundation
import Tomorrowland

/// A source of exchange rates (the FX provider's API in the app).
public protocol FXRateProviding: Sendable {
    func latestRate(for pair: CurrencyPair) -> StdPromise<FXRate>
}

/// Converts money between currencies with rates cached for a few minutes.
public final class FXRateService: @unchecked Sendable {
    private let provider: FXRateProviding
    private let cache: ExpiringCache<CurrencyPair, FXRate>

    public init(provider: FXRateProviding, cacheLifetime: TimeInterval = 300) {
        self.provider = provider
        self.cache = ExpiringCache(lifetime: cacheLifetime)
    }

    /// The rate from one currency to another (1 for the same currency).
    public func rate(from: Currency, to: Currency) -> LedgerPromise<FXRate> {
        let pair = CurrencyPair(from, to)
        if from == to {
            return Promise(fulfilled: FXRate(pair: pair, rate: 1))
        }
        return cache.rate(for: pair, from: provider)
    }

    /// `amount` in `currency`.
    public func convert(_ amount: Money, to currency: Currency) -> LedgerPromise<Money> {
        guard amount.currency != currency else {
            return Promise(fulfilled: amount)
        }
        return rate(from: amount.currency, to: currency)
            .map(on: .fx) { rate in rate.convert(amount) }
    }

    /// Every amount in `currency`, in order. Fails with the first conversion that fails.
    public func convertAll(_ amounts: [Money], to currency: Currency) -> LedgerPromise<[Money]> {
        return when(fulfilled: amounts.map { convert($0, to: currency) }, cancelOnFailure: true)
    }

    /// The sum of `amounts`, in `currency`.
    public func total(of amounts: [Money], in currency: Currency) -> LedgerPromise<Money> {
        return convertAll(amounts, to: currency).map(on: .fx) { converted in
            converted.reduce(Money.zero(currency)) { $0.adding($1) ?? $0 }
        }
    }

    /// Drops every cached rate (after the user changes the home currency).
    public func flush() {
        cache.removeAll()
    }
}

/// Rates from a fixed table; the offline fallback and the demo mode.
public struct FixedRateProvider: FXRateProviding {
    public var rates: [CurrencyPair: Double]

    public init(rates: [CurrencyPair: Double]) {
        self.rates = rates
    }

    public func latestRate(for pair: CurrencyPair) -> StdPromise<FXRate> {
        if let rate = rates[pair] {
            return StdPromise(fulfilled: FXRate(pair: pair, rate: rate))
        }
        if let inverse = rates[pair.inverted], inverse != 0 {
            return StdPromise(fulfilled: FXRate(pair: pair, rate: 1 / inverse))
        }
        return StdPromise(rejected: LedgerError.rateUnavailable(pair))
    }
}
