// The inventory's promise API, tested the 1.x way (and, in async tests, through `.value`).

import AppCore
import Tomorrowland
import TomorrowlandAsync
import XCTest

final class InventoryTests: XCTestCase {
    func testSummaryReadsEveryPromise() async throws {
        let summary = try await inventorySummary()
        XCTAssertEqual(summary, "60,700,90,1,5,50 apples,pears")
    }

    func testOverloadsByParameterType() async throws {
        let byName = try await stockLevel("pears").value
        let byNumber = try await stockLevel(3).value
        XCTAssertEqual([byName, byNumber], [50, 300])
        let missing = await stockLevel("").resolvedResult
        XCTAssertEqual(missing.error, .unknownItem(""))
    }

    /// A switch on the result: `convert-calls` makes it a do/catch on the async twin, whose
    /// typed catch must still receive the promise's error.
    func testMissingItemBySwitch() async {
        var outcome = ""
        switch await stockLevel("").resolvedResult {
        case .value(let level):
            outcome = "level \(level)"
        case .error(let error):
            outcome = "error \(error)"
        case .cancelled:
            outcome = "cancelled"
        }
        XCTAssertEqual(outcome, "error \(StockFailure.unknownItem(""))")
    }

    func testCatalogFailsWithItsOwnError() async throws {
        let price = try await makeCatalog().price(of: "apples").value
        XCTAssertEqual(price, 120)
        let unknown = await makeCatalog().price(of: "kiwis").resolvedResult
        XCTAssertEqual(unknown.error, .unknownItem("?"))
    }

    func testPruneKeepsTheFirstEntries() throws {
        var entries = ["a", "b", "c", "d"]
        let done = expectation(description: "pruned")
        _ = prune(&entries, keeping: 1).then(on: .immediate) { removed in
            XCTAssertEqual(removed, 3)
            done.fulfill()
        }
        XCTAssertEqual(entries, ["a"])
        wait(for: [done], timeout: 5)
    }

    func testSubclassOverridesRestock() async throws {
        let warehouse: Warehouse = ColdWarehouse()
        let restocked = try await warehouse.restock("figs").value
        let loaded = try await ColdWarehouse().load("figs").value
        XCTAssertEqual([restocked, loaded], [50, 4])
    }
}
