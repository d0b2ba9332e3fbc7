import Foundation
import Tomorrowland
import XCTest
@testable import KitchenCore

/// XCTest on Linux cannot run a `@MainActor` test class's synchronous tests, so each test runs
/// its body on the main actor itself (XCTest calls tests on the main thread).
final class KitchenDisplayViewModelTests: XCTestCase {
    let backend = KitchenBackend(menu: Fixtures.menu)
    let pos = DiningRoomPOS()
    var feed: DeliveryPlatformFeed!
    @MainActor var viewModel: KitchenDisplayViewModel!

    /// A screen on the dining room and one delivery platform. Called first by every test (the
    /// view model is main-actor code, and XCTest's `setUp` is not).
    @MainActor
    func makeScreen() {
        feed = DeliveryPlatformFeed(platform: "deliveroo", backend: backend)
        viewModel = KitchenDisplayViewModel(sources: [pos, feed], menu: MenuService(backend: backend))
    }

    func testRefreshShowsEveryNewOrder() throws {
        try MainActor.assumeIsolated {
            makeScreen()
            let table = pos.ringIn(table: 3, items: [Fixtures.burger])
            backend.enqueue([Fixtures.order("R1", [Fixtures.fries], channel: .delivery(platform: "deliveroo"))], on: "deliveroo")
            XCTAssertEqual(try value(of: viewModel.refresh()), 2)
            XCTAssertEqual(viewModel.openOrders, [table.id, "R1"])
            XCTAssertFalse(viewModel.isRefreshing)
        }
    }

    func testRefreshFlagIsSetDuringTheCall() {
        MainActor.assumeIsolated {
            makeScreen()
            let refresh = viewModel.refresh()
            XCTAssertTrue(viewModel.isRefreshing)
            XCTAssertEqual(viewModel.refreshCount, 1)
            _ = result(of: refresh)
        }
    }

    func testNewerRefreshCancelsTheOlderOne() throws {
        try MainActor.assumeIsolated {
            makeScreen()
            backend.latency = 30
            let older = viewModel.refresh()
            backend.latency = 0.01
            backend.enqueue([Fixtures.order("R2", [Fixtures.fries], channel: .delivery(platform: "deliveroo"))], on: "deliveroo")
            let newer = viewModel.refresh()
            XCTAssertEqual(result(of: older)?.isCancelled, true)
            XCTAssertEqual(backend.cancelledRequests, ["orders.deliveroo"])
            XCTAssertEqual(try value(of: newer), 1)
            XCTAssertEqual(viewModel.openOrders, ["R2"])
        }
    }

    func testFailedPollShowsABanner() {
        MainActor.assumeIsolated {
            makeScreen()
            backend.failNext("orders.deliveroo", with: .platformRejected("poll"))
            _ = error(of: viewModel.refresh())
            XCTAssertEqual(viewModel.banner, "Could not load orders: platformRejected(\"poll\")")
            XCTAssertFalse(viewModel.isRefreshing)
        }
    }

    func testBumpTakesTheOrderOffTheScreen() throws {
        try MainActor.assumeIsolated {
            makeScreen()
            let table = pos.ringIn(table: 3, items: [Fixtures.burger])
            _ = try value(of: viewModel.refresh())
            try value(of: viewModel.bump(table, from: pos))
            XCTAssertEqual(viewModel.openOrders, [])
        }
    }

    func testBumpRejectedByTheSourceKeepsTheOrder() throws {
        try MainActor.assumeIsolated {
            makeScreen()
            let delivery = Fixtures.order("R1", [Fixtures.fries], channel: .delivery(platform: "deliveroo"))
            backend.enqueue([delivery], on: "deliveroo")
            _ = try value(of: viewModel.refresh())
            XCTAssertEqual(error(of: viewModel.bump(delivery, from: pos)), .platformRejected("R1"))
            XCTAssertEqual(viewModel.openOrders, ["R1"])
        }
    }

    func testDescribeShowsItemNames() throws {
        try MainActor.assumeIsolated {
            makeScreen()
            XCTAssertEqual(try value(of: viewModel.describe(skus: ["BRG", "SLD"])), "Burger, Caesar")
            XCTAssertEqual(viewModel.banner, "Burger, Caesar")
        }
    }
}
