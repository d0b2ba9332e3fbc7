import Foundation
import XCTest
import Tomorrowland
import OrdersCore

final class OrdersAPITests: OrdersTestCase {
    // fetchMenu: flatMap on .utility, typed error

    func testFetchMenuParsesItemsOnUtilityQueue() {
        let menu = value(of: api.fetchMenu(restaurantID: 1))
        XCTAssertEqual(menu?.items.map { $0.id }, ["burger", "fries", "shake"])
        XCTAssertEqual(menu?.items.first?.priceCents, 550)
        XCTAssertEqual(menu?.source, "primary")
        XCTAssertEqual(menu?.parsedOn, "utility")
    }

    func testFetchMenuUnparsableBodyIsATypedDecodingError() {
        server.stub("menu/9", body: "garbage")
        XCTAssertEqual(error(of: api.fetchMenu(restaurantID: 9)), .decoding("menu/9"))
    }

    func testFetchMenuMissingMenuIsATypedNotFound() {
        XCTAssertEqual(error(of: api.fetchMenu(restaurantID: 404)), .notFound("menu/404"))
    }

    // fetchMenuWithFallback: flatMapError returning another request

    func testFallbackUsesTheMirrorWhenThePrimaryFails() {
        server.stub("menu/1", error: .server(503))
        let menu = value(of: api.fetchMenuWithFallback(restaurantID: 1))
        XCTAssertEqual(menu?.source, "mirror")
        XCTAssertEqual(menu?.items, [MenuItem(id: "burger", name: "Burger", priceCents: 500)])
        XCTAssertEqual(menu?.parsedOn, "utility")
        XCTAssertEqual(server.received, ["GET menu/1", "GET mirror/menu/1"])
    }

    func testFallbackUsesTheMirrorWhenOffline() {
        server.stub("menu/1", error: .offline)
        XCTAssertEqual(value(of: api.fetchMenuWithFallback(restaurantID: 1))?.source, "mirror")
    }

    func testFallbackDoesNotHideNotFound() {
        XCTAssertEqual(error(of: api.fetchMenuWithFallback(restaurantID: 5)), .notFound("menu/5"))
        XCTAssertEqual(server.received, ["GET menu/5"])
    }

    func testFallbackFromPrimaryThatWorksMakesOneRequest() {
        XCTAssertEqual(value(of: api.fetchMenuWithFallback(restaurantID: 1))?.source, "primary")
        XCTAssertEqual(server.received, ["GET menu/1"])
    }

    func testCancelDuringTheFallbackReachesTheMirrorRequest() {
        server.stub("menu/1", error: .offline)
        server.hold("mirror/menu/1")
        let promise = api.fetchMenuWithFallback(restaurantID: 1)
        waitUntil("the mirror was asked") { server.received.contains("GET mirror/menu/1") }
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(server.cancelled, ["GET mirror/menu/1"])
    }

    // fetchCurrentPrices: StdPromise, tryMap on .queue(pricing)

    func testPricesAreParsedOnThePricingQueue() {
        let prices = value(of: api.fetchCurrentPrices())
        XCTAssertEqual(prices, ["burger": 600, "fries": 250, "shake": 450])
        XCTAssertEqual(api.lastPriceParseQueue.value, "pricing")
    }

    func testBadPriceListThrowsADecodingError() {
        server.stub("prices", body: "burger=abc")
        let failure = error(of: api.fetchCurrentPrices())
        XCTAssertEqual(failure as? NetworkError, .decoding("prices: burger=abc"))
    }

    func testEmptyPriceListIsAnError() {
        server.stub("prices", body: "")
        XCTAssertEqual(error(of: api.fetchCurrentPrices()) as? NetworkError, .decoding("prices: empty"))
    }

    func testPriceRequestErrorPassesThroughAsNetworkError() {
        server.stub("prices", error: .server(502))
        XCTAssertEqual(error(of: api.fetchCurrentPrices()) as? NetworkError, .server(502))
    }

    // fetchPrice: recover that fires another request

    func testFetchPriceReturnsThePrice() {
        XCTAssertEqual(value(of: api.fetchPrice(itemID: "burger", default: 99)), 600)
        XCTAssertEqual(server.received, ["GET prices"])
    }

    func testFetchPriceFallsBackAndReportsToTelemetry() {
        server.stub("prices", error: .offline)
        XCTAssertEqual(value(of: api.fetchPrice(itemID: "burger", default: 99)), 99)
        // The telemetry request was made by the recover callback, before the promise resolved.
        XCTAssertEqual(server.received, ["GET prices", "POST telemetry price-fallback burger"])
    }

    func testFetchPriceOfAnUnknownItemUsesTheDefaultWithoutTelemetry() {
        XCTAssertEqual(value(of: api.fetchPrice(itemID: "soup", default: 99)), 99)
        XCTAssertEqual(server.received, ["GET prices"])
    }

    // fetchMenuForCheckout: mapError then flatMap

    func testMenuForCheckoutWrapsNetworkErrors() {
        XCTAssertEqual(error(of: api.fetchMenuForCheckout(restaurantID: 404)), .network(.notFound("menu/404")))
    }

    func testMenuForCheckoutRejectsAnEmptyMenu() {
        server.stub("menu/7", body: "")
        XCTAssertEqual(error(of: api.fetchMenuForCheckout(restaurantID: 7)), .menuUnavailable)
    }

    func testMenuForCheckoutValue() {
        XCTAssertEqual(value(of: api.fetchMenuForCheckout(restaurantID: 2))?.items.map { $0.name }, ["Pizza"])
    }

    // sharedMenu: propagatingCancellation + makeChild

    func testSharedMenuMakesOneRequestForTwoCallers() {
        server.hold("menu/1")
        let first = api.sharedMenu(restaurantID: 1)
        let second = api.sharedMenu(restaurantID: 1)
        XCTAssertEqual(server.received, ["GET menu/1"])
        server.release("menu/1")
        XCTAssertEqual(value(of: first)?.items.count, 3)
        XCTAssertEqual(value(of: second)?.items.count, 3)
    }

    func testSharedMenuIsCancelledOnlyWhenEveryCallerCancels() {
        server.hold("menu/1")
        let first = api.sharedMenu(restaurantID: 1)
        let second = api.sharedMenu(restaurantID: 1)
        first.requestCancel()
        XCTAssertEqual(server.cancelled, [])
        second.requestCancel()
        waitUntil("the shared request is cancelled") { server.cancelled == ["GET menu/1"] }
        assertCancelled(first)
        assertCancelled(second)
        // A new caller starts a new load.
        let third = api.sharedMenu(restaurantID: 1)
        XCTAssertEqual(server.received, ["GET menu/1", "GET menu/1"])
        server.release("menu/1")
        XCTAssertEqual(value(of: third)?.items.count, 3)
    }

    func testSharedMenuStillLoadsWhenOnlyOneCallerCancels() {
        server.hold("menu/1")
        let first = api.sharedMenu(restaurantID: 1)
        let second = api.sharedMenu(restaurantID: 1)
        first.requestCancel()
        server.release("menu/1")
        XCTAssertEqual(value(of: second)?.source, "primary")
        XCTAssertEqual(server.cancelled, [])
    }

    func testSharedMenuDoesNotKeepAFailedLoad() {
        XCTAssertEqual(error(of: api.sharedMenu(restaurantID: 8)), .notFound("menu/8"))
        server.stub("menu/8", body: "soup=Soup:300")
        XCTAssertEqual(value(of: api.sharedMenu(restaurantID: 8))?.items.map { $0.id }, ["soup"])
        XCTAssertEqual(server.received, ["GET menu/8", "GET menu/8"])
    }

    // fetchETA: timeout

    func testETAValue() {
        XCTAssertEqual(value(of: api.fetchETA(orderID: "order-17")), 25)
    }

    func testETAErrorIsWrappedAsRejected() {
        let failure = error(of: api.fetchETA(orderID: "unknown"))
        XCTAssertEqual(failure, .rejected(.notFound("eta/unknown")))
    }

    func testETATimesOutAndTheAbandonedRequestIsCancelled() {
        server.hold("eta/o9")
        let failure = error(of: api.fetchETA(orderID: "o9", timeout: 0.05))
        XCTAssertEqual(failure, .timedOut)
        waitUntil("the timed-out request is cancelled") { server.cancelled == ["GET eta/o9"] }
    }

    // fetchStatus: delay on a named queue

    func testStatusIsDeliveredOnTheKitchenQueue() {
        let promise = api.fetchStatus(orderID: "order-17")
        let queue = Box<String?>(nil)
        recordResolvingQueue(of: promise, into: queue)
        XCTAssertEqual(value(of: promise), .cooking)
        waitUntil("the observer ran") { queue.value != nil }
        XCTAssertEqual(queue.value, "kitchen")
    }

    func testStatusErrorIsTyped() {
        XCTAssertEqual(error(of: api.fetchStatus(orderID: "nope")), .notFound("orders/nope/status"))
    }
}
