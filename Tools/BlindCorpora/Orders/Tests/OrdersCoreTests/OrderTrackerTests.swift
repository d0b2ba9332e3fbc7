import Foundation
import XCTest
import Tomorrowland
import OrdersCore

final class OrderTrackerTests: OrdersTestCase {
    var tracker: OrderTracker!

    override func setUp() {
        super.setUp()
        tracker = OrderTracker(api: api)
    }

    override func tearDown() {
        tracker = nil
        super.tearDown()
    }

    // startTracking: invalidate + state before a withToken chain

    func testStartTrackingSetsStateDuringTheCall() {
        server.hold("orders/order-17/status")
        let tracking = tracker.startTracking(orderID: "order-17")
        XCTAssertEqual(tracker.trackedOrderID, "order-17")
        XCTAssertEqual(tracker.updates, [])
        XCTAssertEqual(server.received, ["GET orders/order-17/status"])
        server.release("orders/order-17/status")
        XCTAssertEqual(value(of: tracking.inner), .cooking)
        XCTAssertEqual(tracker.updates, [.cooking])
    }

    func testTrackingAnotherOrderCancelsAndSilencesTheFirst() {
        server.hold("orders/o1/status")
        let first = tracker.startTracking(orderID: "o1")
        let second = tracker.startTracking(orderID: "order-17")
        waitUntil("the first request is cancelled") { server.cancelled == ["GET orders/o1/status"] }
        assertCancelled(first.inner)
        XCTAssertEqual(value(of: second.inner), .cooking)
        XCTAssertEqual(tracker.updates, [.cooking])
        XCTAssertEqual(tracker.trackedOrderID, "order-17")
    }

    func testStartTrackingClearsEarlierUpdates() {
        _ = value(of: tracker.startTracking(orderID: "order-17").inner)
        XCTAssertEqual(tracker.updates, [.cooking])
        server.hold("orders/order-17/status")
        let again = tracker.startTracking(orderID: "order-17")
        XCTAssertEqual(tracker.updates, [])
        server.release("orders/order-17/status")
        _ = value(of: again.inner)
        XCTAssertEqual(tracker.updates, [.cooking])
    }

    func testStartTrackingErrorIsTyped() {
        XCTAssertEqual(error(of: tracker.startTracking(orderID: "zz").inner), .notFound("orders/zz/status"))
        XCTAssertEqual(tracker.updates, [])
    }

    // latestETA: map/then with token:, requestCancelOnInvalidate

    func testLatestETAIsShown() {
        XCTAssertEqual(value(of: tracker.latestETA(orderID: "order-17")), 25)
        XCTAssertEqual(tracker.lastETA, 25)
    }

    func testStopTrackingCancelsTheETARequest() {
        server.hold("eta/order-17")
        let promise = tracker.latestETA(orderID: "order-17")
        tracker.stopTracking()
        assertCancelled(promise)
        XCTAssertEqual(server.cancelled, ["GET eta/order-17"])
        XCTAssertNil(tracker.lastETA)
    }

    // refresh: counter + guard before the chain; then(token:)

    func testRefreshWithoutAnOrderIsRejectedAtOnce() {
        let promise = tracker.refresh()
        XCTAssertEqual(promise.result?.error, .notFound("no tracked order"))
        XCTAssertEqual(tracker.refreshCount, 1)
        XCTAssertEqual(server.received, [])
    }

    func testRefreshCountsAndRequestsDuringTheCall() {
        server.stub("orders/order-17/status", bodies: ["cooking", "ready"])
        _ = value(of: tracker.startTracking(orderID: "order-17").inner)
        server.hold("orders/order-17/status")
        let promise = tracker.refresh()
        XCTAssertEqual(tracker.refreshCount, 1)
        XCTAssertEqual(server.received, ["GET orders/order-17/status", "GET orders/order-17/status"])
        server.release("orders/order-17/status")
        XCTAssertEqual(value(of: promise), .ready)
        XCTAssertEqual(tracker.updates, [.cooking, .ready])
    }

    func testRefreshAfterStopKeepsItsValueButIsNotShown() {
        server.stub("orders/order-17/status", bodies: ["cooking", "ready"])
        _ = value(of: tracker.startTracking(orderID: "order-17").inner)
        server.hold("orders/order-17/status")
        let promise = tracker.refresh()
        tracker.stopTracking()
        server.release("orders/order-17/status")
        XCTAssertEqual(value(of: promise), .ready)
        XCTAssertEqual(tracker.updates, [.cooking])
    }
}
