import Foundation
import XCTest
import LedgerCore
import LedgerFeaturesLite
import Tomorrowland

final class WidgetTests: XCTestCase {
    func testSnapshotShowsTheTotal() throws {
        let provider = WidgetSnapshotProvider(store: Fixtures.store(), fx: FXRateService(provider: FakeFXProvider()), currency: .eur)
        XCTAssertEqual(try value(of: provider.snapshot()), WidgetSnapshot(headline: "€6181.82", isPlaceholder: false))
    }

    func testSnapshotFallsBackToAPlaceholder() throws {
        let fx = FakeFXProvider()
        fx.hold = true
        let provider = WidgetSnapshotProvider(store: Fixtures.store(), fx: FXRateService(provider: fx), currency: .eur)
        XCTAssertEqual(try value(of: provider.snapshot(within: 0.2)), WidgetSnapshot(headline: "—", isPlaceholder: true))
        XCTAssertEqual(MoneyText.compact(Money(12_345, .gbp)), "£12.3k")
    }
}
