import Foundation
import Tomorrowland

/// The screen above the line: open orders, newest last.
@MainActor
public final class KitchenDisplayViewModel {
    public private(set) var openOrders: [String] = []
    public private(set) var isRefreshing = false
    public private(set) var banner: String?
    public private(set) var refreshCount = 0

    private let sources: [OrderSource]
    private let menu: MenuService
    /// Invalidated by every refresh, so that a slow poll never overwrites a newer one.
    private let refreshToken = PromiseInvalidationToken()
    /// Where results reach the screen.
    private let delivery: PromiseContext = .main

    public init(sources: [OrderSource], menu: MenuService) {
        self.sources = sources
        self.menu = menu
    }

    /// Polls every source and shows what arrived. A newer refresh supersedes this one: its
    /// callbacks are skipped and its polls are cancelled.
    @discardableResult
    public func refresh() -> StdPromise<Int> {
        refreshToken.invalidate()
        isRefreshing = true
        refreshCount += 1
        let polls = sources.map { source in
            source.fetchNewOrders().requestCancelOnInvalidate(refreshToken)
        }
        return when(fulfilled: polls)
            .map(on: .utility) { lists in lists.flatMap { $0 } }
            .withToken(refreshToken)
            .then(on: delivery) { orders in
                self.openOrders += orders.map { $0.id }
                self.isRefreshing = false
            }
            .catch(on: .main) { [weak self] error in
                self?.banner = "Could not load orders: \(error)"
                self?.isRefreshing = false
            }
            .map(on: .immediate) { $0.count }
            .inner
    }

    /// Bumps an order off the screen once its source took the acknowledgement.
    public func bump(_ order: Order, from source: OrderSource) -> Promise<Void, KitchenError> {
        return source.acknowledge(order)
            .then(on: .main) { [weak self] in
                self?.openOrders.removeAll { $0 == order.id }
            }
    }

    /// Shows the names of an order's items, from the menu.
    public func describe(skus: [String]) -> Promise<String, NoError> {
        return menu.lines(for: skus)
            .map(on: .nowOr(.main)) { items in
                items.map { $0.name }.joined(separator: ", ")
            }
            .then(on: .display) { [weak self] text in
                self?.banner = text
            }
    }
}
