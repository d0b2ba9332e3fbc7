import Foundation
import Tomorrowland
import XCTest
@testable import KitchenCore

final class MenuServiceTests: XCTestCase {
    var backend: KitchenBackend!
    var menu: MenuService!

    override func setUp() {
        super.setUp()
        backend = KitchenBackend(menu: Fixtures.menu)
        menu = MenuService(backend: backend)
    }

    func testFetchMenuGivesEveryItem() throws {
        let items = try value(of: menu.fetchMenu())
        XCTAssertEqual(items.count, 3)
        XCTAssertEqual(items["BRG"], Fixtures.burger)
    }

    func testSecondFetchIsServedFromTheCacheDuringTheCall() throws {
        _ = try value(of: menu.fetchMenu())
        let second = menu.fetchMenu()
        XCTAssertEqual(second.result?.value?.count, 3)
        XCTAssertEqual(menu.fetchCount, 1)
        XCTAssertEqual(backend.requestCount, 1)
    }

    func testConcurrentFetchesShareOneRequest() throws {
        let first = menu.fetchMenu()
        let second = menu.fetchMenu()
        XCTAssertEqual(first, second)
        _ = try value(of: second)
        XCTAssertEqual(backend.requestCount, 1)
    }

    func testFailedFetchIsNotCached() throws {
        backend.failNext("menu", with: .timedOut)
        XCTAssertEqual(error(of: menu.fetchMenu()) as? KitchenError, .timedOut)
        let items = try value(of: menu.fetchMenu())
        XCTAssertEqual(items.count, 3)
        XCTAssertEqual(menu.fetchCount, 2)
    }

    func testItemBySKU() throws {
        let item = try value(of: menu.item(sku: "FRY"))
        XCTAssertEqual(item.name, "Fries")
    }

    func testUnknownSKUIsATypedError() {
        XCTAssertEqual(error(of: menu.item(sku: "XXX")), .unknownItem("XXX"))
    }

    func testMenuFailureBecomesUnknownItem() {
        backend.failNext("menu", with: .timedOut)
        XCTAssertEqual(error(of: menu.item(sku: "BRG")), KitchenError.unknownItem("BRG"))
    }

    func testLinesSkipUnknownSKUs() throws {
        let lines = try value(of: menu.lines(for: ["SLD", "NOPE", "BRG"]))
        XCTAssertEqual(lines.map { $0.sku }, ["SLD", "BRG"])
    }

    func testLinesAreEmptyWhenTheMenuIsDown() throws {
        backend.failNext("menu", with: .timedOut)
        XCTAssertEqual(try value(of: menu.lines(for: ["SLD"])), [])
    }

    func testReleasedServiceStillDeliversButDoesNotCache() throws {
        var service: MenuService? = MenuService(backend: backend)
        weak var released = service
        let request = service!.fetchMenu()
        service = nil
        XCTAssertNil(released)
        let items = try value(of: request)
        XCTAssertEqual(items.count, 3)
    }

    func testInvalidateRefetches() throws {
        _ = try value(of: menu.fetchMenu())
        menu.invalidate()
        _ = try value(of: menu.fetchMenu())
        XCTAssertEqual(backend.requestCount, 2)
    }
}
