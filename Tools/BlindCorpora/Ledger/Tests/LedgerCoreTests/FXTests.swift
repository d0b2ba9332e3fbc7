import Foundation
import XCTest
import LedgerCore
import Tomorrowland

final class FXTests: XCTestCase {
    override func setUp() {
        super.setUp()
        QueueProbe.install()
    }

    func testSameCurrencyNeedsNoRate() throws {
        let provider = FakeFXProvider()
        let fx = FXRateService(provider: provider)
        let promise = fx.convert(Money(10, .eur), to: .eur)
        XCTAssertEqual(promise.result, .value(Money(10, .eur)))
        XCTAssertEqual(try value(of: fx.rate(from: .usd, to: .usd)).rate, 1)
        XCTAssertEqual(provider.calls.value, [])
    }

    func testConvertsWithTheProviderRateAndItsInverse() throws {
        let fx = FXRateService(provider: FakeFXProvider())
        XCTAssertEqual(try value(of: fx.convert(Money(100, .eur), to: .usd)), Money(110, .usd))
        XCTAssertEqual(try value(of: fx.convert(Money(110, .usd), to: .eur)), Money(100, .eur))
    }

    func testRatesAreCachedAndConcurrentLoadsJoined() throws {
        let provider = FakeFXProvider()
        let fx = FXRateService(provider: provider)
        let a = fx.convert(Money(1, .eur), to: .usd)
        let b = fx.convert(Money(2, .eur), to: .usd)
        XCTAssertEqual(try value(of: a), Money(1.1, .usd))
        XCTAssertEqual(try value(of: b), Money(2.2, .usd))
        XCTAssertEqual(provider.calls.value, ["EUR/USD"])
    }

    func testUnknownPairIsATypedError() {
        let fx = FXRateService(provider: FakeFXProvider())
        XCTAssertEqual(error(of: fx.convert(Money(1, .chf), to: .jpy)), .rateUnavailable(CurrencyPair(.chf, .jpy)))
    }

    func testConvertAllKeepsOrderAndTotalAdds() throws {
        let fx = FXRateService(provider: FakeFXProvider())
        let amounts = [Money(100, .eur), Money(50, .usd), Money(10, .eur)]
        XCTAssertEqual(try value(of: fx.convertAll(amounts, to: .usd)), [Money(110, .usd), Money(50, .usd), Money(11, .usd)])
        XCTAssertEqual(try value(of: fx.total(of: amounts, in: .usd)), Money(171, .usd))
    }

    func testConvertAllFailsWithTheFirstFailure() {
        let fx = FXRateService(provider: FakeFXProvider())
        let amounts = [Money(1, .eur), Money(1, .jpy)]
        XCTAssertEqual(error(of: fx.convertAll(amounts, to: .usd)), .rateUnavailable(CurrencyPair(.jpy, .usd)))
    }

    func testCancellingTheOnlyCallerCancelsTheRateLoad() {
        let provider = FakeFXProvider()
        provider.hold = true
        let fx = FXRateService(provider: provider)
        let promise = fx.convert(Money(1, .eur), to: .usd)
        promise.requestCancel()
        XCTAssertEqual(result(of: promise), .cancelled)
        waitUntil("the provider saw the cancel") { provider.cancels.value == 1 }
    }

    func testAJoinedLoadIsCancelledOnlyWhenEveryCallerCancels() {
        let provider = FakeFXProvider()
        provider.hold = true
        let fx = FXRateService(provider: provider)
        let first = fx.rate(from: .eur, to: .gbp)
        let second = fx.rate(from: .eur, to: .gbp)
        XCTAssertEqual(provider.calls.value, ["EUR/GBP"])
        first.requestCancel()
        RunLoop.current.run(until: Date().addingTimeInterval(0.1))
        XCTAssertEqual(provider.cancels.value, 0, "the second caller still wants the rate")
        second.requestCancel()
        waitUntil("the provider saw the cancel") { provider.cancels.value == 1 }
        XCTAssertEqual(result(of: second), .cancelled)
    }

    func testStaleRateIsUsedWhenTheProviderFails() throws {
        let provider = FakeFXProvider()
        let cache = ExpiringCache<CurrencyPair, FXRate>(lifetime: 0)
        let pair = CurrencyPair(.eur, .usd)
        XCTAssertEqual(try value(of: cache.rate(for: pair, from: provider)).rate, 1.1)
        waitUntil("the rate is stored") { cache.staleValue(for: pair) != nil }
        provider.failing = true
        XCTAssertEqual(try value(of: cache.rate(for: pair, from: provider)).rate, 1.1)
        XCTAssertEqual(error(of: cache.rate(for: pair, from: provider, maxStaleness: -1)), .rateUnavailable(pair))
    }

    func testCacheCountsCollections() throws {
        let cache = ExpiringCache<String, [Int]>(lifetime: 60)
        XCTAssertEqual(try value(of: cache.count(for: "k") { StdPromise(fulfilled: [1, 2, 3]) }), 3)
        waitUntil("the value is cached") { cache.cachedValue(for: "k") != nil }
        XCTAssertEqual(try value(of: cache.count(for: "k") { StdPromise(rejected: LedgerError.offline) }), 3)
        XCTAssertEqual(try value(of: cache.count(for: "missing") { StdPromise(rejected: LedgerError.offline) }), 0)
    }
}
