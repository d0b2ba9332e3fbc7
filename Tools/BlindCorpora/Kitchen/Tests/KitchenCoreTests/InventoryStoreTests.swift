import Foundation
import Tomorrowland
import XCTest
@testable import KitchenCore

final class InventoryStoreTests: XCTestCase {
    func testReserveTakesStock() throws {
        let store = InventoryStore(stock: Fixtures.stock())
        let order = Fixtures.order("T1", [Fixtures.burger, OrderItem(sku: "BRG", name: "Burger", station: .grill, quantity: 2)])
        let reservation = try value(of: store.reserve(for: order))
        XCTAssertEqual(reservation.skus, ["BRG": 3])
        XCTAssertEqual(store.level(of: "BRG"), 7)
    }

    func testShortageIsTypedAndLeavesTheStock() {
        let store = InventoryStore(stock: Fixtures.stock())
        let order = Fixtures.order("T1", [Fixtures.burger, OrderItem(sku: "SLD", name: "Caesar", station: .cold, quantity: 5)])
        XCTAssertEqual(error(of: store.reserve(for: order)), .shortage(sku: "SLD", missing: 3))
        XCTAssertEqual(store.level(of: "BRG"), 10)
        XCTAssertEqual(store.level(of: "SLD"), 2)
    }

    func testEmptyOrderIsRejectedDuringTheCall() {
        let store = InventoryStore(stock: Fixtures.stock())
        let promise = store.reserve(for: Fixtures.order("T1", []))
        XCTAssertEqual(promise.result, .error(.emptyOrder))
    }

    func testReservationResolvesOnTheInventoryQueue() {
        let store = InventoryStore(stock: Fixtures.stock())
        let ran = expectation(description: "callback")
        var queue: String?
        // Holding the inventory queue makes sure the callback is registered before the
        // reservation resolves (else `.immediate` would run it here, during registration).
        KitchenQueues.inventory.sync {
            store.reserve(for: Fixtures.order("T1", [Fixtures.fries])).then(on: .immediate) { _ in
                queue = KitchenQueues.current
                ran.fulfill()
            }
        }
        wait(for: [ran], timeout: 10)
        XCTAssertEqual(queue, "kitchen.inventory")
    }

    func testImmediateContextReservesBeforeTheCallReturns() {
        let store = InventoryStore(stock: Fixtures.stock(), context: .immediate)
        let promise = store.reserve(for: Fixtures.order("T1", [Fixtures.salad]))
        XCTAssertEqual(promise.result?.value?.skus, ["SLD": 1])
        XCTAssertEqual(store.level(of: "SLD"), 1)
    }

    func testReleaseReturnsTheStockOnce() throws {
        let store = InventoryStore(stock: Fixtures.stock())
        let reservation = try value(of: store.reserve(for: Fixtures.order("T1", [Fixtures.salad, Fixtures.salad])))
        XCTAssertEqual(store.level(of: "SLD"), 0)
        XCTAssertEqual(try value(of: store.release(reservation)), 2)
        XCTAssertEqual(try value(of: store.release(reservation)), 0)
        XCTAssertEqual(store.level(of: "SLD"), 2)
    }

    func testRestockArrivesAfterTheDelay() throws {
        let store = InventoryStore(stock: Fixtures.stock())
        let restock = store.restock("SLD", amount: 6, after: 0.5)
        XCTAssertNil(restock.result)
        XCTAssertEqual(try value(of: restock), 8)
        XCTAssertEqual(store.level(of: "SLD"), 8)
    }

    func testCancelledRestockIsNotBooked() {
        let store = InventoryStore(stock: Fixtures.stock())
        let restock = store.restock("SLD", amount: 6, after: 30)
        restock.requestCancel()
        XCTAssertEqual(result(of: restock)?.isCancelled, true)
        flush(KitchenQueues.inventory)
        XCTAssertEqual(store.level(of: "SLD"), 2)
    }

    func testConcurrentReservationsNeverOversell() {
        let store = InventoryStore(stock: ["SLD": 5])
        let orders = (1...8).map { Fixtures.order("T\($0)", [Fixtures.salad]) }
        let outcomes = orders.map { store.reserve(for: $0).mapResult(on: .immediate) { result -> PromiseResult<Bool, NoError> in
            .value(result.value != nil)
        } }
        let all = expectation(description: "all")
        var granted = 0
        when(fulfilled: outcomes).then(on: .main) { flags in
            granted = flags.filter { $0 }.count
            all.fulfill()
        }
        wait(for: [all], timeout: 10)
        XCTAssertEqual(granted, 5)
        XCTAssertEqual(store.level(of: "SLD"), 0)
    }
}
