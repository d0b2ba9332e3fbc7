import Foundation
import XCTest
import Tomorrowland
import OrdersCore

final class CheckoutModelTests: OrdersTestCase {
    var model: CheckoutModel!

    override func setUp() {
        super.setUp()
        model = CheckoutModel(api: api, payments: payments)
    }

    override func tearDown() {
        model = nil
        super.tearDown()
    }

    // loadMenu: state set before the chain; [weak self] then/catch/always on .main

    func testLoadMenuSetsLoadingStateDuringTheCall() {
        server.hold("menu/1")
        let promise = model.loadMenu(restaurantID: 1)
        XCTAssertTrue(model.isLoading)
        XCTAssertEqual(model.requestCount, 1)
        XCTAssertEqual(model.events.entries, ["loadMenu 1"])
        XCTAssertEqual(server.received, ["GET menu/1"])
        server.release("menu/1")
        XCTAssertEqual(value(of: promise)?.items.count, 3)
        XCTAssertFalse(model.isLoading)
        XCTAssertEqual(model.menu?.items.count, 3)
        XCTAssertEqual(model.lastUIQueue, "main")
        XCTAssertNil(model.lastError)
    }

    func testTwoLoadMenuCallsRequestInCallOrder() {
        server.hold("menu/1")
        server.hold("menu/2")
        let first = model.loadMenu(restaurantID: 2)
        let second = model.loadMenu(restaurantID: 1)
        XCTAssertEqual(server.received, ["GET menu/2", "GET menu/1"])
        XCTAssertEqual(model.requestCount, 2)
        XCTAssertEqual(model.events.entries, ["loadMenu 2", "loadMenu 1"])
        server.release("menu/2")
        server.release("menu/1")
        XCTAssertNotNil(value(of: first))
        XCTAssertNotNil(value(of: second))
    }

    func testLoadMenuFailureIsShownAndClearsLoading() {
        XCTAssertEqual(error(of: model.loadMenu(restaurantID: 404)), .notFound("menu/404"))
        XCTAssertFalse(model.isLoading)
        XCTAssertEqual(model.lastError, "\(NetworkError.notFound("menu/404"))")
        XCTAssertNil(model.menu)
    }

    func testLoadMenuFallsBackToTheMirror() {
        server.stub("menu/1", error: .server(500))
        XCTAssertEqual(value(of: model.loadMenu(restaurantID: 1))?.source, "mirror")
        XCTAssertEqual(model.menu?.source, "mirror")
        XCTAssertEqual(model.lastUIQueue, "main")
    }

    func testCancellingLoadMenuRightAfterTheCallReachesTheRequest() {
        server.hold("menu/1")
        let promise = model.loadMenu(restaurantID: 1)
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(server.cancelled, ["GET menu/1"])
        XCTAssertFalse(model.isLoading)  // always ran
        XCTAssertNil(model.lastError)  // catch did not
    }

    // refreshQuote: two requests before the chain; tryMap on .queue(pricing) with [weak self]

    func testRefreshQuoteAsksForCartThenPricesDuringTheCall() {
        server.hold("cart")
        server.hold("prices")
        let promise = model.refreshQuote()
        XCTAssertEqual(server.received, ["GET cart", "GET prices"])
        XCTAssertEqual(model.requestCount, 1)
        XCTAssertEqual(model.events.entries, ["refreshQuote"])
        server.release("prices")
        server.release("cart")
        let quote = value(of: promise)
        XCTAssertEqual(quote?.subtotalCents, 1450)
        XCTAssertEqual(quote?.discountCents, 0)
        XCTAssertEqual(quote?.deliveryCents, 299)
        XCTAssertEqual(quote?.totalCents, 1749)
        XCTAssertEqual(quote?.computedOn, "pricing")
        XCTAssertEqual(model.quote, quote)
        XCTAssertEqual(model.cart, standardCart)
    }

    func testRefreshQuoteAfterTheModelIsGoneFailsWithOwnerGone() {
        server.hold("cart")
        let promise = model.refreshQuote()
        weak let weakModel = model
        model = nil
        XCTAssertNil(weakModel)
        server.release("cart")
        let failure = error(of: promise)
        XCTAssertEqual((failure as? OwnerGoneError)?.owner, "CheckoutModel")
    }

    func testRefreshQuoteUsesTheAppliedCoupon() {
        XCTAssertEqual(value(of: model.applyCoupon("SAVE10")), 10)
        let quote = value(of: model.refreshQuote())
        XCTAssertEqual(quote?.discountCents, 145)
        XCTAssertEqual(quote?.totalCents, 1450 - 145 + 299)
    }

    func testRefreshQuotePriceErrorPassesThrough() {
        server.stub("prices", error: .offline)
        XCTAssertEqual(error(of: model.refreshQuote()) as? NetworkError, .offline)
        XCTAssertNil(model.quote)
    }

    func testCancellingRefreshQuoteReachesBothRequests() {
        server.hold("cart")
        server.hold("prices")
        let promise = model.refreshQuote()
        promise.requestCancel()
        assertCancelled(promise)
        waitUntil("both requests are cancelled") { server.cancelled.count == 2 }
        XCTAssertEqual(Set(server.cancelled), ["GET cart", "GET prices"])
    }

    // applyCoupon: state before the chain; mapError, flatMap, then/catch on .main

    func testApplyCouponShowsCheckingDuringTheCall() {
        server.hold("coupon/SAVE10")
        let promise = model.applyCoupon("SAVE10")
        XCTAssertEqual(model.couponState, .checking)
        XCTAssertEqual(model.lastCouponCode, "SAVE10")
        XCTAssertEqual(model.events.entries, ["coupon SAVE10"])
        XCTAssertEqual(server.received, ["GET coupon/SAVE10"])
        server.release("coupon/SAVE10")
        XCTAssertEqual(value(of: promise), 10)
        XCTAssertEqual(model.couponState, .applied(10))
        XCTAssertEqual(model.discountPercent, 10)
    }

    func testUnknownCouponIsInvalid() {
        XCTAssertEqual(error(of: model.applyCoupon("NOPE")), .invalidCoupon("NOPE"))
        XCTAssertEqual(model.couponState, .rejected)
        XCTAssertEqual(model.discountPercent, 0)
    }

    func testTooGenerousCouponIsInvalid() {
        XCTAssertEqual(error(of: model.applyCoupon("HUGE")), .invalidCoupon("HUGE"))
        XCTAssertEqual(model.couponState, .rejected)
    }

    func testCouponServerErrorIsANetworkError() {
        server.stub("coupon/X", error: .server(500))
        XCTAssertEqual(error(of: model.applyCoupon("X")), .network(.server(500)))
    }

    // loadRecommendations: [weak self] guard in flatMap

    func testRecommendationsAreWithinBudgetCheapestFirst() {
        let items = value(of: model.loadRecommendations())
        XCTAssertEqual(items?.map { $0.id }, ["fries", "shake"])
    }

    func testRecommendationsAreCancelledWhenTheModelGoesAway() {
        server.hold("menu/1")
        let promise = model.loadRecommendations()
        model = nil
        server.release("menu/1")
        assertCancelled(promise)
    }

    // checkout: guard + flag + log before the chain; mapError, flatMap into payments, always

    func testCheckoutIsInProgressDuringTheCallAndRefusesASecondOne() {
        _ = value(of: model.refreshQuote())
        server.hold("orders")
        let promise = model.checkout(card: "4242")
        XCTAssertTrue(model.isCheckingOut)
        XCTAssertEqual(model.events.entries.suffix(2), ["checkout burger*2;fries*1", "placeOrder burger*2;fries*1"])
        XCTAssertEqual(server.received.last, "POST orders burger*2;fries*1")
        let second = model.checkout(card: "4242")
        XCTAssertEqual(second.result?.error, .alreadyInProgress)
        server.release("orders")
        let receipt = value(of: promise)
        XCTAssertEqual(receipt?.orderID, "order-17")
        XCTAssertEqual(receipt?.authorizationID, "auth-4242-1749")
        XCTAssertEqual(receipt?.amountCents, 1749)
        XCTAssertFalse(model.isCheckingOut)
        XCTAssertEqual(payments.state, .paid)
    }

    func testCheckoutWithADeclinedCard() {
        _ = value(of: model.refreshQuote())
        XCTAssertEqual(error(of: model.checkout(card: "4000-0002")), .payment(.declined("card 4000-0002 declined")))
        XCTAssertFalse(model.isCheckingOut)
        XCTAssertEqual(payments.state, .failed)
    }

    func testCheckoutWithAnEmptyCart() {
        XCTAssertEqual(error(of: model.checkout(card: "4242")), .emptyCart)
        XCTAssertFalse(model.isCheckingOut)
        XCTAssertEqual(server.received, [])
    }

    func testCancellingCheckoutWhileAuthorizingReachesThePaymentService() {
        _ = value(of: model.refreshQuote())
        paymentService.holdAuthorizations()
        let promise = model.checkout(card: "4242")
        waitUntil("the authorization started") { paymentService.calls.count == 1 }
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(paymentService.cancelledCalls, ["authorize 1749 4242 via primary"])
        XCTAssertFalse(model.isCheckingOut)
    }
}
