import Foundation
import Tomorrowland
import XCTest
@testable import KitchenCore

final class CourierDispatchTests: XCTestCase {
    var backend: KitchenBackend!
    var dispatch: CourierDispatch!
    let delivery = Fixtures.order("U1", [Fixtures.fries], channel: .delivery(platform: "uber"))

    override func setUp() {
        super.setUp()
        backend = KitchenBackend(menu: Fixtures.menu, couriers: Fixtures.couriers)
        dispatch = CourierDispatch(backend: backend)
    }

    func testRequestBooksTheFirstFreeCourier() async {
        let booked = expectation(description: "booked")
        var name: String?
        let request = await dispatch.requestCourier(for: delivery)
        request.then(on: .utility) { courier in
            name = courier.name
            booked.fulfill()
        }
        await fulfillment(of: [booked], timeout: 10)
        XCTAssertEqual(name, "Ana")
        let kept = await dispatch.courier(for: "U1")
        XCTAssertEqual(kept?.id, "c1")
        let inFlight = await dispatch.requestsInFlight
        XCTAssertEqual(inFlight, 0)
    }

    func testSecondRequestGivesTheSameCourierAtOnce() async {
        let booked = expectation(description: "booked")
        await dispatch.requestCourier(for: delivery).always(on: .immediate) { _ in booked.fulfill() }
        await fulfillment(of: [booked], timeout: 10)
        let again = await dispatch.requestCourier(for: delivery)
        XCTAssertEqual(again.result?.value?.name, "Ana")
        XCTAssertEqual(backend.requestCount, 1)
    }

    func testNoCourierLeftIsAnError() async {
        let empty = CourierDispatch(backend: KitchenBackend(menu: Fixtures.menu))
        let failed = expectation(description: "failed")
        var failure: Error?
        await empty.requestCourier(for: delivery).catch(on: .immediate) { error in
            failure = error
            failed.fulfill()
        }
        await fulfillment(of: [failed], timeout: 10)
        XCTAssertEqual(failure as? KitchenError, .noCourier)
        let failures = await empty.failures
        XCTAssertEqual(failures, 1)
    }

    func testEstimatedPickupUsesTheCourierETA() throws {
        let eta = dispatch.estimatedPickup(for: delivery, courier: Promise(fulfilled: Fixtures.couriers[1]))
        XCTAssertEqual(eta.result?.value, 20)
    }

    func testEstimatedPickupFallsBackTo45Minutes() throws {
        let eta = dispatch.estimatedPickup(for: delivery, courier: Promise(rejected: KitchenError.noCourier))
        XCTAssertEqual(try value(of: eta), 45)
    }
}

final class ExpoRailTests: XCTestCase {
    @ExpoActor
    func testHangingATicketPutsItOnTheRail() async {
        let rail = ExpoRail(dispatch: CourierDispatch(backend: KitchenBackend(menu: Fixtures.menu)))
        let (ticket, resolver) = StdPromise<Ticket>.makeWithResolver()
        let hung = expectation(description: "hung")
        rail.hang(ticket).always(on: .immediate) { _ in hung.fulfill() }
        resolver.fulfill(with: Ticket(orderID: "T5", lines: [], number: 3))
        await fulfillment(of: [hung], timeout: 10)
        XCTAssertEqual(rail.rail, ["T5"])
    }

    @ExpoActor
    func testCallingATableAwayNeedsNoCourier() async {
        let rail = ExpoRail(dispatch: CourierDispatch(backend: KitchenBackend(menu: Fixtures.menu)))
        let call = rail.callAway(Fixtures.order("T1", [Fixtures.salad]))
        XCTAssertEqual(call.result?.value, "server")
        XCTAssertEqual(rail.called, ["T1"])
    }

    @ExpoActor
    func testCallingADeliveryAwayBooksACourier() async {
        let backend = KitchenBackend(menu: Fixtures.menu, couriers: Fixtures.couriers)
        let rail = ExpoRail(dispatch: CourierDispatch(backend: backend))
        let order = Fixtures.order("U3", [Fixtures.fries], channel: .delivery(platform: "uber"))
        let called = expectation(description: "called")
        var courier: String?
        rail.callAway(order).then(on: .main) { name in
            courier = name
            called.fulfill()
        }
        await fulfillment(of: [called], timeout: 10)
        XCTAssertEqual(courier, "Ana")
        XCTAssertEqual(rail.called, ["U3"])
    }
}
