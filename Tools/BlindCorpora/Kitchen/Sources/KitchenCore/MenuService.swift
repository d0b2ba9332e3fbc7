import Foundation
import Tomorrowland

/// The menu, fetched once per shift and cached.
///
/// Not thread-safe: the kitchen uses it from the main queue only (the cache is written by a
/// `.main` callback).
public final class MenuService {
    public typealias MenuPromise = StdPromise<[String: OrderItem]>

    private let backend: KitchenBackend
    private var cache: [String: OrderItem]?
    private var inFlight: MenuPromise?
    public private(set) var fetchCount = 0

    public init(backend: KitchenBackend) {
        self.backend = backend
    }

    /// The menu, from the cache when we have it. Concurrent callers share one request.
    public func fetchMenu() -> MenuPromise {
        if let cache = cache {
            return Promise(fulfilled: cache)
        }
        if let inFlight = inFlight {
            return inFlight
        }
        fetchCount += 1
        let promise = backend.fetchMenu()
            .then(on: .main) { [weak self] menu in
                self?.cache = menu
            }
            .always(on: .main) { [weak self] _ in
                self?.inFlight = nil
            }
        inFlight = promise
        return promise
    }

    /// Looks an item up by SKU; an unknown SKU is `KitchenError.unknownItem`.
    public func item(sku: String) -> Promise<OrderItem, KitchenError> {
        return fetchMenu()
            .mapError(on: .immediate) { _ in KitchenError.unknownItem(sku) }
            .flatMap(on: .immediate) { menu -> Promise<OrderItem, KitchenError> in
                guard let item = menu[sku] else {
                    return Promise(rejected: .unknownItem(sku))
                }
                return Promise(fulfilled: item)
            }
    }

    /// Builds order lines from SKUs typed at the pass, skipping unknown ones.
    public func lines(for skus: [String]) -> Promise<[OrderItem], NoError> {
        return fetchMenu()
            .map(on: .utility) { menu in skus.compactMap { menu[$0] } }
            .recover(on: .utility) { error in
                NSLog("menu unavailable: \(error)")
                return []
            }
    }

    /// Drops the cache, e.g. when the chef edits the menu mid-shift.
    public func invalidate() {
        cache = nil
    }
}
