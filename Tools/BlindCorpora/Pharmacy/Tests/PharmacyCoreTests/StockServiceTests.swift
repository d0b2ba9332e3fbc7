import Foundation
import Tomorrowland
import XCTest
@testable import PharmacyCore

final class StockServiceTests: XCTestCase {
    var journal: Journal!
    var backend: PharmacyBackend!
    var stock: StockService!

    override func setUp() {
        super.setUp()
        journal = Journal()
        backend = Fixtures.backend()
        stock = StockService(backend: backend, journal: journal)
    }

    func testKnownLevelHasResolvedWhenTheCallReturns() {
        XCTAssertEqual(waitForValue(stock.level(of: "Amoxicillin")), 100)
        let again = stock.level(of: "Amoxicillin")
        XCTAssertEqual(again.result?.value, 100)
        XCTAssertEqual(backend.requestCount, 1)
    }

    func testWithLevelRunsOnTheStockQueueWhenTheLevelMustBeFetched() {
        backend.latency = 0.3
        let ran = expectation(description: "body ran")
        var queue: String?
        var atOnce: Bool?
        DispatchQueue.global(qos: .utility).async {
            _ = self.stock.withLevel(of: "Insulin") { _, now in
                queue = QueueLabel.current
                atOnce = now
                ran.fulfill()
            }
        }
        wait(for: [ran], timeout: 10)
        XCTAssertEqual(queue, "stock")
        XCTAssertEqual(atOnce, false)
    }

    func testWithLevelRunsInTheCallerWhenTheLevelIsKnown() {
        XCTAssertEqual(waitForValue(stock.level(of: "Insulin")), 2)
        let caller = DispatchQueue(label: "test.caller")
        caller.setSpecific(key: QueueLabel.key, value: "caller")
        let done = expectation(description: "called from the caller queue")
        var order: [String] = []
        caller.async {
            _ = self.stock.withLevel(of: "Insulin") { level, now in
                order.append("body \(level) now=\(now) on \(QueueLabel.current ?? "?")")
            }
            order.append("returned")
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(order, ["body 2 now=true on caller", "returned"])
    }

    func testReserveTakesStockOffTheShelf() {
        XCTAssertEqual(waitForValue(stock.reserve(30, of: "Amoxicillin")), 70)
        XCTAssertEqual(stock.level(of: "Amoxicillin").result?.value, 70)
        XCTAssertEqual(stock.reservationCount, 1)
        XCTAssertEqual(journal.entries, ["reserve 30 Amoxicillin"])
    }

    func testReservingMoreThanThereIsRejectsWithTheLevels() {
        XCTAssertEqual(waitForError(stock.reserve(5, of: "Insulin")),
                       .outOfStock(drug: "Insulin", requested: 5, available: 2))
        XCTAssertEqual(stock.reservationCount, 0)
    }

    func testRestockArrivesLater() {
        let arrived = expectation(description: "restock arrived")
        let promise = stock.restock("Insulin", amount: 10, after: 0.3)
        XCTAssertNil(promise.result)
        promise.then(on: .utility) { level in
            XCTAssertEqual(level, 10)
            arrived.fulfill()
        }.catch(on: .utility) { error in
            XCTFail("restock failed: \(error)")
        }
        wait(for: [arrived], timeout: 10)
    }

    func testCancellingARestockStopsTheDelivery() {
        let promise = stock.restock("Insulin", amount: 10, after: 5)
        promise.requestCancel()
        XCTAssertEqual(waitForResult(promise)?.isCancelled, true)
        XCTAssertEqual(journal.entries, ["restock Insulin cancelled"])
    }

    func testRestockThatTakesTooLongTimesOut() {
        let promise = stock.restock("Insulin", amount: 10, after: 5, limit: 0.05)
        XCTAssertEqual(waitForError(promise), .timedOut)
    }
}
