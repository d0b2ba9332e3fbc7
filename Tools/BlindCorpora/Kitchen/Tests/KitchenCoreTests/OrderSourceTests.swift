import Foundation
import Tomorrowland
import XCTest
@testable import KitchenCore

final class OrderSourceTests: XCTestCase {
    func testPOSHandsOutRungInOrdersDuringTheCall() {
        let pos = DiningRoomPOS()
        let order = pos.ringIn(table: 7, items: [Fixtures.burger])
        let fetched = pos.fetchNewOrders()
        XCTAssertEqual(fetched.result?.value, [order])
        XCTAssertEqual(pos.fetchNewOrders().result?.value, [])
    }

    func testPOSAcknowledgesTables() throws {
        let pos = DiningRoomPOS()
        let order = pos.ringIn(table: 2, items: [Fixtures.salad])
        try value(of: pos.acknowledge(order))
        XCTAssertEqual(pos.acknowledged, [order.id])
    }

    func testPOSRejectsDeliveryOrders() {
        let pos = DiningRoomPOS()
        let order = Fixtures.order("D1", [Fixtures.fries], channel: .delivery(platform: "uber"))
        XCTAssertEqual(error(of: pos.acknowledge(order)), .platformRejected("D1"))
    }

    func testFeedSkipsOrdersItAlreadySaw() throws {
        let backend = KitchenBackend(menu: Fixtures.menu)
        let feed = DeliveryPlatformFeed(platform: "uber", backend: backend)
        let first = Fixtures.order("U1", [Fixtures.fries], channel: .delivery(platform: "uber"))
        backend.enqueue([first], on: "uber")
        XCTAssertEqual(try value(of: feed.fetchNewOrders()), [first])
        let second = Fixtures.order("U2", [Fixtures.burger], channel: .delivery(platform: "uber"))
        backend.enqueue([first, second], on: "uber")
        XCTAssertEqual(try value(of: feed.fetchNewOrders()), [second])
        XCTAssertEqual(feed.polls, 2)
    }

    func testSlowPollTimesOut() {
        let backend = KitchenBackend(menu: Fixtures.menu, latency: 30)
        let feed = DeliveryPlatformFeed(platform: "uber", backend: backend)
        feed.pollTimeout = 0.05
        let failure = error(of: feed.fetchNewOrders())
        guard let timeout = failure as? PromiseTimeoutError<Swift.Error>, case .timedOut = timeout else {
            return XCTFail("expected a timeout, got \(String(describing: failure))")
        }
    }

    func testPlatformErrorPassesThroughTheTimeout() {
        let backend = KitchenBackend(menu: Fixtures.menu)
        backend.failNext("orders.uber", with: .platformRejected("poll"))
        let feed = DeliveryPlatformFeed(platform: "uber", backend: backend)
        XCTAssertEqual(error(of: feed.fetchNewOrders()) as? KitchenError, .platformRejected("poll"))
    }

    func testCancellingAPollStopsTheServerCall() {
        let backend = KitchenBackend(menu: Fixtures.menu, latency: 30)
        let feed = DeliveryPlatformFeed(platform: "uber", backend: backend)
        let poll = feed.fetchNewOrders()
        poll.requestCancel()
        XCTAssertEqual(result(of: poll)?.isCancelled, true)
        XCTAssertEqual(backend.cancelledRequests, ["orders.uber"])
    }

    func testFeedAcknowledgementKeepsKitchenErrors() {
        let backend = KitchenBackend(menu: Fixtures.menu)
        backend.failNext("confirm.uber", with: .noCourier)
        let feed = DeliveryPlatformFeed(platform: "uber", backend: backend)
        let order = Fixtures.order("U1", [Fixtures.fries], channel: .delivery(platform: "uber"))
        XCTAssertEqual(error(of: feed.acknowledge(order)), .noCourier)
    }

    func testReleasedFeedStillDeliversTheOrders() throws {
        let backend = KitchenBackend(menu: Fixtures.menu)
        let order = Fixtures.order("U1", [Fixtures.fries], channel: .delivery(platform: "uber"))
        backend.enqueue([order, order], on: "uber")
        var feed: DeliveryPlatformFeed? = DeliveryPlatformFeed(platform: "uber", backend: backend)
        weak var released = feed
        let poll = feed!.fetchNewOrders()
        feed = nil
        XCTAssertNil(released)
        XCTAssertEqual(try value(of: poll), [order, order])
    }

    func testEverySourceThroughTheProtocol() throws {
        let backend = KitchenBackend(menu: Fixtures.menu)
        let pos = DiningRoomPOS()
        _ = pos.ringIn(table: 1, items: [Fixtures.salad])
        backend.enqueue([Fixtures.order("U9", [Fixtures.fries], channel: .delivery(platform: "uber"))], on: "uber")
        let sources: [OrderSource] = [pos, DeliveryPlatformFeed(platform: "uber", backend: backend)]
        let lists = try value(of: when(fulfilled: sources.map { $0.fetchNewOrders() }))
        XCTAssertEqual(lists.map { $0.count }, [1, 1])
    }
}
