import Foundation
import XCTest
import Tomorrowland
import OrdersCore

final class OrderFunctionsTests: OrdersTestCase {
    // placeOrder: timestamp + log line before the chain, early return, tryMap + then

    func testPlaceOrderStartTimeIsTheMomentOfTheCall() {
        server.hold("orders")
        let before = Date()
        let promise = placeOrder(standardCart, api: api, log: log)
        let after = Date()
        // Let the request sit for a while before answering, so a late timestamp would show.
        Thread.sleep(forTimeInterval: 0.05)
        server.release("orders")
        let order = value(of: promise)
        XCTAssertEqual(order?.id, "order-17")
        XCTAssertEqual(order?.cart, standardCart)
        XCTAssertEqual(order?.status, .placed)
        if let startedAt = order?.startedAt {
            XCTAssertGreaterThanOrEqual(startedAt, before)
            XCTAssertLessThanOrEqual(startedAt, after)
        }
    }

    func testPlaceOrderLogsAndPostsDuringTheCall() {
        server.hold("orders")
        let promise = placeOrder(standardCart, api: api, log: log)
        XCTAssertEqual(log.entries, ["placeOrder burger*2;fries*1"])
        XCTAssertEqual(server.received, ["POST orders burger*2;fries*1"])
        server.release("orders")
        XCTAssertNotNil(value(of: promise))
        XCTAssertEqual(log.entries, ["placeOrder burger*2;fries*1", "placed order-17"])
    }

    func testPlaceOrderWithAnEmptyCartIsRejectedAtOnce() {
        let promise = placeOrder(Cart(), api: api, log: log)
        XCTAssertEqual(promise.result?.error as? CheckoutError, .emptyCart)
        XCTAssertEqual(log.entries, ["placeOrder "])
        XCTAssertEqual(server.received, [])
    }

    func testPlaceOrderWithABadAnswerIsADecodingError() {
        server.stub("orders", body: "oops")
        XCTAssertEqual(error(of: placeOrder(standardCart, api: api, log: log)) as? NetworkError, .decoding("orders: oops"))
        XCTAssertEqual(log.entries, ["placeOrder burger*2;fries*1"])
    }

    func testTwoPlaceOrderCallsPostInCallOrder() {
        server.hold("orders")
        let single = Cart(lines: [CartLine(itemID: "shake", quantity: 1)])
        let first = placeOrder(standardCart, api: api, log: log)
        let second = placeOrder(single, api: api, log: log)
        XCTAssertEqual(server.received, ["POST orders burger*2;fries*1", "POST orders shake*1"])
        XCTAssertEqual(log.entries, ["placeOrder burger*2;fries*1", "placeOrder shake*1"])
        server.release("orders")
        XCTAssertNotNil(value(of: first))
        XCTAssertNotNil(value(of: second))
    }

    func testCancellingPlaceOrderRightAfterTheCallReachesTheRequest() {
        server.hold("orders")
        let promise = placeOrder(standardCart, api: api, log: log)
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(server.cancelled, ["POST orders burger*2;fries*1"])
    }

    // reorderLast: two requests started before the chain, nested flatMap, typed errors

    func testReorderAsksForHistoryThenStockDuringTheCall() {
        server.hold("history/u1")
        server.hold("stock")
        let promise = reorderLast(userID: "u1", api: api, log: log)
        XCTAssertEqual(log.entries, ["reorder u1"])
        XCTAssertEqual(server.received, ["GET history/u1", "GET stock"])
        server.release("stock")
        server.release("history/u1")
        XCTAssertEqual(value(of: promise), Cart(lines: [CartLine(itemID: "burger", quantity: 1), CartLine(itemID: "fries", quantity: 2)]))
    }

    func testReorderReportsWhatIsOutOfStock() {
        server.stub("stock", body: "burger")
        XCTAssertEqual(error(of: reorderLast(userID: "u1", api: api, log: log)), .outOfStock(["fries"]))
    }

    func testReorderHistoryErrorIsTyped() {
        XCTAssertEqual(error(of: reorderLast(userID: "u2", api: api, log: log)), .network(.notFound("history/u2")))
    }

    func testReorderStockErrorIsTyped() {
        server.stub("stock", error: .offline)
        XCTAssertEqual(error(of: reorderLast(userID: "u1", api: api, log: log)), .network(.offline))
    }

    func testCancellingReorderReachesTheHistoryRequest() {
        server.hold("history/u1")
        let promise = reorderLast(userID: "u1", api: api, log: log)
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertTrue(server.cancelled.contains("GET history/u1"), "\(server.cancelled)")
    }

    // warmUpMenus: a loop that starts requests, then when(fulfilled:)

    func testWarmUpStartsEveryLoadInOrderDuringTheCall() {
        for id in 1...3 { server.hold("menu/\(id)") }
        let promise = warmUpMenus([1, 2, 3], api: api, log: log)
        XCTAssertEqual(server.received, ["GET menu/1", "GET menu/2", "GET menu/3"])
        XCTAssertEqual(log.entries, ["warm 1", "warm 2", "warm 3"])
        for id in 1...3 { server.release("menu/\(id)") }
        XCTAssertEqual(value(of: promise), 2)  // menu/3 does not exist
        XCTAssertEqual(log.entries.last, "warmed 2/3")
    }

    func testWarmUpOfNothing() {
        XCTAssertEqual(value(of: warmUpMenus([], api: api, log: log)), 0)
        XCTAssertEqual(log.entries, ["warmed 0/0"])
    }

    // deliveryEstimate: timestamp + two requests before the chain, [weak log]

    func testDeliveryEstimateAsksKitchenThenCourierDuringTheCall() {
        server.hold("eta/order-17")
        server.hold("courier/order-17")
        let before = Date()
        let promise = deliveryEstimate(orderID: "order-17", api: api, log: log)
        let after = Date()
        XCTAssertEqual(server.received, ["GET eta/order-17", "GET courier/order-17"])
        Thread.sleep(forTimeInterval: 0.05)
        server.release("courier/order-17")
        server.release("eta/order-17")
        let estimate = value(of: promise)
        XCTAssertEqual(estimate?.minutes, 35)
        if let askedAt = estimate?.askedAt {
            XCTAssertGreaterThanOrEqual(askedAt, before)
            XCTAssertLessThanOrEqual(askedAt, after)
        }
        XCTAssertEqual(log.entries, ["estimate order-17 35"])
    }

    func testDeliveryEstimateErrorIsTyped() {
        server.stub("eta/o2", body: "5")
        XCTAssertEqual(error(of: deliveryEstimate(orderID: "o2", api: api, log: log)), .notFound("courier/o2"))
    }

    func testCancellingTheEstimateReachesBothRequests() {
        server.hold("eta/order-17")
        server.hold("courier/order-17")
        let promise = deliveryEstimate(orderID: "order-17", api: api, log: log)
        promise.requestCancel()
        assertCancelled(promise)
        waitUntil("both requests are cancelled") { server.cancelled.count == 2 }
        XCTAssertEqual(Set(server.cancelled), ["GET eta/order-17", "GET courier/order-17"])
    }
}
