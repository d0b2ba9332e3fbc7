import Foundation
import XCTest
import Tomorrowland
import OrdersCore

/// Pins, for the functions whose body is a bare promise chain (nothing before the chain), that
/// the first request goes out *during* the call, that two calls send their requests in call
/// order, and that a cancel right after the call reaches the request in flight: what a 1.x
/// promise function did. A rewrite into `StdPromise { try await twin() }` starts the work when
/// its Task runs, after the call returns; MIGRATION.md documents that change as acceptable, so
/// this class is kept apart: run `swift test --skip CallTimeStartTests` to accept it.
final class CallTimeStartTests: OrdersTestCase {
    func testFetchMenuRequestsDuringTheCall() {
        server.hold("menu/1")
        server.hold("menu/2")
        let first = api.fetchMenu(restaurantID: 2)
        XCTAssertEqual(server.received, ["GET menu/2"])
        let second = api.fetchMenu(restaurantID: 1)
        XCTAssertEqual(server.received, ["GET menu/2", "GET menu/1"])
        server.release("menu/1")
        server.release("menu/2")
        XCTAssertNotNil(value(of: first))
        XCTAssertNotNil(value(of: second))
    }

    func testCancellingFetchMenuRightAfterTheCallReachesTheRequest() {
        server.hold("menu/1")
        let promise = api.fetchMenu(restaurantID: 1)
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(server.cancelled, ["GET menu/1"])
    }

    func testFallbackRequestsThePrimaryDuringTheCall() {
        server.hold("menu/1")
        let promise = api.fetchMenuWithFallback(restaurantID: 1)
        XCTAssertEqual(server.received, ["GET menu/1"])
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(server.cancelled, ["GET menu/1"])
        XCTAssertEqual(server.received, ["GET menu/1"])  // a cancel is not a reason to try the mirror
    }

    func testPricesAreRequestedDuringTheCall() {
        server.hold("prices")
        let promise = api.fetchCurrentPrices()
        XCTAssertEqual(server.received, ["GET prices"])
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(server.cancelled, ["GET prices"])
    }

    func testMenuForCheckoutRequestsDuringTheCall() {
        server.hold("menu/2")
        let promise = api.fetchMenuForCheckout(restaurantID: 2)
        XCTAssertEqual(server.received, ["GET menu/2"])
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(server.cancelled, ["GET menu/2"])
    }

    func testRecommendationsRequestTheFavouriteMenuDuringTheCall() {
        let model = CheckoutModel(api: api, payments: payments)
        model.favoriteRestaurantID = 2
        server.hold("menu/2")
        let promise = model.loadRecommendations()
        model.favoriteRestaurantID = 1  // too late: the request is out
        XCTAssertEqual(server.received, ["GET menu/2"])
        server.release("menu/2")
        XCTAssertEqual(value(of: promise), [])  // pizza is over budget
    }

    func testCookingStatusRequestsInCallOrder() {
        let kitchen = KitchenClient(server: server)
        server.hold("orders/a/status")
        server.hold("orders/b/status")
        let first = kitchen.cookingStatus(orderID: "a")
        let second = kitchen.cookingStatus(orderID: "b")
        XCTAssertEqual(server.received, ["GET orders/a/status", "GET orders/b/status"])
        first.requestCancel()
        second.requestCancel()
        assertCancelled(first)
        assertCancelled(second)
        XCTAssertEqual(Set(server.cancelled), ["GET orders/a/status", "GET orders/b/status"])
    }

    func testAuthorizeWithBackupAsksThePrimaryDuringTheCall() {
        paymentService.holdAuthorizations()
        let promise = payments.authorizeWithBackup(amountCents: 700, card: "4242")
        XCTAssertEqual(paymentService.calls, ["authorize 700 4242 via primary"])
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(paymentService.cancelledCalls, ["authorize 700 4242 via primary"])
    }

    func testFetchPriceRequestsDuringTheCall() {
        server.hold("prices")
        let promise = api.fetchPrice(itemID: "fries", default: 1)
        XCTAssertEqual(server.received, ["GET prices"])
        server.release("prices")
        XCTAssertEqual(value(of: promise), 250)
    }

    func testETARequestGoesOutDuringTheCall() {
        server.hold("eta/order-17")
        let promise = api.fetchETA(orderID: "order-17")
        XCTAssertEqual(server.received, ["GET eta/order-17"])
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(server.cancelled, ["GET eta/order-17"])
    }
}
