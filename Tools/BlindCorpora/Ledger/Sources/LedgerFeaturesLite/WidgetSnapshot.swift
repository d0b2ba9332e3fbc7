import Foundation
import LedgerCore
import Tomorrowland

/// What the home-screen widget draws.
public struct WidgetSnapshot: Hashable, Sendable {
    public var headline: String
    public var isPlaceholder: Bool

    public init(headline: String, isPlaceholder: Bool) {
        self.headline = headline
        self.isPlaceholder = isPlaceholder
    }
}

/// Builds widget snapshots under the widget's tight time budget.
public final class WidgetSnapshotProvider {
    private let loader: BalanceSummaryLoader
    public let currency: Currency

    public init(store: LedgerStoring, fx: FXRateService, currency: Currency) {
        self.loader = BalanceSummaryLoader(store: store, fx: fx)
        self.currency = currency
    }

    /// The total balance, or a placeholder if it cannot be computed within `budget` seconds.
    public func snapshot(within budget: TimeInterval = 2) -> Guaranteed<WidgetSnapshot> {
        return loader.summaryText(in: currency)
            .timingOut(after: budget)
            .map(on: .immediate) { WidgetSnapshot(headline: $0, isPlaceholder: false) }
            .recover(on: .immediate) { _ in WidgetSnapshot(headline: "—", isPlaceholder: true) }
    }
}
