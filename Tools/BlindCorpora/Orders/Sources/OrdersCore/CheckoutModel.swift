import Foundation
import Tomorrowland

/// The checkout screen's model. UI state is written on the main queue.
public final class CheckoutModel {
    public enum CouponState: Equatable {
        case none, checking, applied(Int), rejected
    }

    public let api: OrdersAPI
    public let payments: PaymentCoordinator
    public let events = EventLog()
    public var cart = Cart()
    public var quote: Quote?
    public var favoriteRestaurantID = 1
    public var budgetCents = 500

    public private(set) var isLoading = false
    public private(set) var requestCount = 0
    public private(set) var menu: Menu?
    public private(set) var lastError: String?
    public private(set) var lastUIQueue: String?
    public private(set) var couponState: CouponState = .none
    public private(set) var lastCouponCode: String?
    public private(set) var discountPercent = 0
    public private(set) var isCheckingOut = false

    public init(api: OrdersAPI, payments: PaymentCoordinator) {
        self.api = api
        self.payments = payments
    }

    /// Loads the menu for the screen; `isLoading` is true until it is shown (or failed).
    public func loadMenu(restaurantID: Int) -> Promise<Menu, NetworkError> {
        isLoading = true
        requestCount += 1
        events.append("loadMenu \(restaurantID)")
        return api.fetchMenuWithFallback(restaurantID: restaurantID).then(on: .main) { [weak self] menu in
            self?.menu = menu
            self?.lastUIQueue = OrderQueues.whereAmI()
        }.catch(on: .main) { [weak self] error in
            self?.lastError = "\(error)"
        }.always(on: .main) { [weak self] _ in
            self?.isLoading = false
        }
    }

    /// Fetches the server-side cart and the current prices (in that order) and prices the cart
    /// on the pricing queue.
    public func refreshQuote() -> StdPromise<Quote> {
        requestCount += 1
        events.append("refreshQuote")
        let cartRequest = api.server.get("cart")
        let priceRequest = api.fetchCurrentPrices()
        return when(fulfilled: cartRequest.upcast, priceRequest).tryMap(on: .queue(OrderQueues.pricing)) { [weak self] pair -> Quote in
            guard let self = self else {
                throw OwnerGoneError(owner: "CheckoutModel")
            }
            let cart = Parsing.cart(pair.0)
            let quote = Pricing.quote(cart: cart, prices: pair.1, discountPercent: self.discountPercent,
                                      computedOn: OrderQueues.whereAmI())
            self.cart = cart
            self.quote = quote
            return quote
        }
    }

    /// Checks a coupon code with the server and applies its discount.
    public func applyCoupon(_ code: String) -> Promise<Int, CheckoutError> {
        couponState = .checking
        lastCouponCode = code
        events.append("coupon \(code)")
        return api.server.get("coupon/\(code)").mapError(on: .immediate) { error -> CheckoutError in
            if case .notFound = error {
                return .invalidCoupon(code)
            }
            return .network(error)
        }.flatMap(on: .utility) { body -> Promise<Int, CheckoutError> in
            guard let percent = Parsing.couponPercent(body), (1...50).contains(percent) else {
                return Promise(rejected: .invalidCoupon(code))
            }
            return Promise(fulfilled: percent)
        }.then(on: .main) { [weak self] percent in
            self?.discountPercent = percent
            self?.couponState = .applied(percent)
        }.catch(on: .main) { [weak self] _ in
            self?.couponState = .rejected
        }
    }

    /// The favourite restaurant's dishes within budget, cheapest first. Cancelled if the model
    /// goes away before the menu arrives.
    public func loadRecommendations() -> Promise<[MenuItem], NetworkError> {
        return api.fetchMenu(restaurantID: favoriteRestaurantID).flatMap(on: .utility) { [weak self] menu -> Promise<[MenuItem], NetworkError> in
            guard let self = self else {
                return Promise(with: .cancelled)
            }
            let affordable = menu.items.filter { $0.priceCents <= self.budgetCents }
            return Promise(fulfilled: affordable.sorted { $0.priceCents < $1.priceCents })
        }
    }

    /// Places the order and pays the quoted total. Only one checkout runs at a time.
    public func checkout(card: String) -> Promise<Receipt, CheckoutError> {
        guard !isCheckingOut else {
            return Promise(rejected: .alreadyInProgress)
        }
        isCheckingOut = true
        events.append("checkout \(cart.encoded())")
        let amount = quote?.totalCents ?? 0
        let payments = self.payments
        return placeOrder(cart, api: api, log: events).mapError(on: .immediate) { error -> CheckoutError in
            if let error = error as? CheckoutError {
                return error
            }
            return .network(error as? NetworkError ?? .server(500))
        }.flatMap(on: .utility) { order -> Promise<Receipt, CheckoutError> in
            return payments.charge(order: order, amountCents: amount, card: card).mapError(on: .immediate) { .payment($0) }
        }.always(on: .main) { [weak self] _ in
            self?.isCheckingOut = false
        }
    }
}
