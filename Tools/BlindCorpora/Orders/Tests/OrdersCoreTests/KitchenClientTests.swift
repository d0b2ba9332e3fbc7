import Foundation
import XCTest
import Tomorrowland
import OrdersCore

final class KitchenClientTests: OrdersTestCase {
    var kitchen: KitchenClient!

    override func setUp() {
        super.setUp()
        kitchen = KitchenClient(server: server)
    }

    override func tearDown() {
        kitchen = nil
        super.tearDown()
    }

    func order(_ id: String) -> Order {
        return Order(id: id, cart: standardCart, startedAt: Date(), status: .placed)
    }

    // submitTicket: counter + timestamp before the chain; [weak self] map/always on .queue(kitchen)

    func testSubmitTicketIsPendingDuringTheCall() {
        server.hold("kitchen/tickets")
        let before = Date()
        let promise = kitchen.submitTicket(for: order("o1"))
        let after = Date()
        XCTAssertEqual(kitchen.pendingTickets, 1)
        XCTAssertEqual(server.received, ["POST kitchen/tickets o1"])
        if let submittedAt = kitchen.lastSubmittedAt {
            XCTAssertGreaterThanOrEqual(submittedAt, before)
            XCTAssertLessThanOrEqual(submittedAt, after)
        } else {
            XCTFail("lastSubmittedAt not set during the call")
        }
        server.release("kitchen/tickets")
        XCTAssertEqual(value(of: promise), "ticket-1")
        XCTAssertEqual(kitchen.tickets, ["ticket-1"])
        XCTAssertEqual(kitchen.lastTicketQueue.value, "kitchen")
        XCTAssertEqual(kitchen.pendingTickets, 0)
    }

    func testTwoTicketsArePostedInCallOrder() {
        server.hold("kitchen/tickets")
        let first = kitchen.submitTicket(for: order("o1"))
        let second = kitchen.submitTicket(for: order("o2"))
        XCTAssertEqual(server.received, ["POST kitchen/tickets o1", "POST kitchen/tickets o2"])
        XCTAssertEqual(kitchen.pendingTickets, 2)
        server.release("kitchen/tickets")
        XCTAssertEqual(value(of: first), "ticket-1")
        XCTAssertEqual(value(of: second), "ticket-2")
        XCTAssertEqual(kitchen.pendingTickets, 0)
    }

    func testCancellingATicketReachesTheRequest() {
        server.hold("kitchen/tickets")
        let promise = kitchen.submitTicket(for: order("o1"))
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(server.cancelled, ["POST kitchen/tickets o1"])
        XCTAssertEqual(kitchen.pendingTickets, 0)
        XCTAssertEqual(kitchen.tickets, [])
    }

    func testTicketErrorIsTyped() {
        server.stub("kitchen/tickets", error: .server(503))
        XCTAssertEqual(error(of: kitchen.submitTicket(for: order("o1"))), .server(503))
        XCTAssertEqual(kitchen.pendingTickets, 0)
    }

    // cookingStatus: map on a context held in a property

    func testCookingStatusIsDecodedOnTheWorkContext() {
        XCTAssertEqual(value(of: kitchen.cookingStatus(orderID: "order-17")), .cooking)
        XCTAssertEqual(kitchen.lastStatusQueue.value, "kitchen")

        let utilityKitchen = KitchenClient(server: server, workContext: .utility)
        XCTAssertEqual(value(of: utilityKitchen.cookingStatus(orderID: "order-17")), .cooking)
        XCTAssertEqual(utilityKitchen.lastStatusQueue.value, "utility")
    }

    // waitUntilReady: recursion through Promise(on:fulfilled:after:)

    func testWaitUntilReadyCountsThePolls() {
        server.stub("orders/o5/status", bodies: ["cooking", "cooking", "ready"])
        XCTAssertEqual(value(of: kitchen.waitUntilReady(orderID: "o5")), 3)
        XCTAssertEqual(server.received.count, 3)
    }

    func testWaitUntilReadyGivesUp() {
        server.stub("orders/o5/status", body: "cooking")
        XCTAssertEqual(error(of: kitchen.waitUntilReady(orderID: "o5", attemptsLeft: 2)), .server(408))
        XCTAssertEqual(server.received.count, 2)
    }

    func testCancellingWaitUntilReadyStopsPolling() {
        server.stub("orders/o5/status", body: "cooking")
        let promise = kitchen.waitUntilReady(orderID: "o5", interval: 0.01, attemptsLeft: 1_000_000)
        waitUntil("a few polls happened") { server.received.count >= 3 }
        promise.requestCancel()
        assertCancelled(promise)
    }

    // reserveSlot: Promise(on: .immediate) with onRequestCancel and resolve(with:)

    func testReserveSlot() {
        XCTAssertEqual(value(of: kitchen.reserveSlot(orderID: "o1")), "slot:A3")
        XCTAssertEqual(server.received, ["POST kitchen/slots o1"])
    }

    func testCancellingAReservationReleasesTheSlot() {
        server.hold("kitchen/slots")
        let promise = kitchen.reserveSlot(orderID: "o1")
        XCTAssertEqual(server.received, ["POST kitchen/slots o1"])
        promise.requestCancel()
        assertCancelled(promise)
        XCTAssertEqual(server.cancelled, ["POST kitchen/slots o1"])
        XCTAssertEqual(server.received, ["POST kitchen/slots o1", "POST kitchen/slots/release o1"])
    }
}
