import Foundation
import Tomorrowland
import XCTest
@testable import KitchenCore

final class KitchenPassTests: XCTestCase {
    func testFirePrintsATicketWithEveryLine() throws {
        let pass = Fixtures.pass()
        let ticket = try value(of: pass.fire(Fixtures.order("T1", [Fixtures.burger, Fixtures.fries], note: "no salt")))
        XCTAssertEqual(ticket.lines, ["#1 T1", "1x Burger [grill]", "1x Fries [fryer]", "NOTE: no salt"])
        XCTAssertEqual(pass.inFlight, 0)
        XCTAssertEqual(pass.log, ["fire T1", "ticket 1 T1"])
    }

    func testFireLogsAndCountsBeforeReturning() {
        let pass = Fixtures.pass()
        let ticket = pass.fire(Fixtures.order("T1", [Fixtures.salad]))
        XCTAssertEqual(pass.inFlight, 1)
        XCTAssertEqual(pass.log, ["fire T1"])
        XCTAssertNil(ticket.result)
        _ = result(of: ticket)
    }

    func testShortageIsOutOfStock() {
        let pass = Fixtures.pass()
        let order = Fixtures.order("T1", [OrderItem(sku: "SLD", name: "Caesar", station: .cold, quantity: 3)])
        XCTAssertEqual(error(of: pass.fire(order)) as? KitchenError, .outOfStock("SLD"))
        XCTAssertEqual(pass.log.last, "failed T1: outOfStock(\"SLD\")")
    }

    func testStationFailureGivesTheStockBack() {
        let inventory = InventoryStore(stock: Fixtures.stock())
        let pass = Fixtures.pass(inventory: inventory)
        pass.worker(for: .fryer)?.isDown = true
        let failure = error(of: pass.fire(Fixtures.order("T1", [Fixtures.burger, Fixtures.fries])))
        XCTAssertEqual(failure as? KitchenError, .stationDown(.fryer))
        flush(KitchenQueues.pass, KitchenQueues.inventory)
        XCTAssertEqual(inventory.level(of: "BRG"), 10)
        XCTAssertEqual(inventory.level(of: "FRY"), 10)
    }

    func testVoidCancelsThePrintJob() {
        let printer = TicketPrinter()
        printer.lineTime = 30
        let inventory = InventoryStore(stock: Fixtures.stock())
        let pass = Fixtures.pass(inventory: inventory, printer: printer)
        let ticket = pass.fire(Fixtures.order("T1", [Fixtures.salad]))
        pass.void("T1")
        XCTAssertEqual(result(of: ticket)?.isCancelled, true)
        XCTAssertEqual(pass.log.last, "voided T1")
        flush(KitchenQueues.pass, KitchenQueues.inventory, KitchenQueues.printer)
        XCTAssertEqual(printer.printedTickets, [])
        XCTAssertEqual(inventory.level(of: "SLD"), 2)
    }

    func testVoidOfAnUnknownOrderDoesNothing() throws {
        let pass = Fixtures.pass()
        let ticket = pass.fire(Fixtures.order("T1", [Fixtures.salad]))
        pass.void("T2")
        XCTAssertEqual(try value(of: ticket).orderID, "T1")
    }

    func testFireAllCountsThePrintedTickets() throws {
        let pass = Fixtures.pass()
        let orders = [
            Fixtures.order("T1", [Fixtures.burger]),
            Fixtures.order("T2", [OrderItem(sku: "SLD", name: "Caesar", station: .cold, quantity: 9)]),
            Fixtures.order("T3", [Fixtures.fries, Fixtures.salad]),
        ]
        XCTAssertEqual(try value(of: pass.fireAll(orders)), 2)
        XCTAssertEqual(pass.inFlight, 0)
    }

    func testTicketNumbersFollowThePrintOrder() throws {
        let pass = Fixtures.pass()
        let first = try value(of: pass.fire(Fixtures.order("T1", [Fixtures.salad])))
        let second = try value(of: pass.fire(Fixtures.order("T2", [Fixtures.fries])))
        XCTAssertEqual([first.number, second.number], [1, 2])
    }

    func testLateTicketIsTimedOut() {
        let printer = TicketPrinter()
        printer.lineTime = 30
        let pass = Fixtures.pass(printer: printer)
        let ticket = pass.fire(Fixtures.order("T1", [Fixtures.fries]), within: 0.05)
        XCTAssertEqual(error(of: ticket) as? KitchenError, .timedOut)
    }

    func testTicketWithinTheLimit() throws {
        let pass = Fixtures.pass()
        let ticket = try value(of: pass.fire(Fixtures.order("T1", [Fixtures.fries]), within: 30))
        XCTAssertEqual(ticket.orderID, "T1")
    }

    func testPassIsKeptUntilTheOrderIsDone() throws {
        var pass: KitchenPass? = Fixtures.pass()
        weak var released = pass
        let ticket = pass!.fire(Fixtures.order("T1", [Fixtures.salad]))
        pass = nil
        XCTAssertEqual(try value(of: ticket).orderID, "T1")
        flush(KitchenQueues.pass)
        let gone = expectation(description: "main queue drained")
        DispatchQueue.main.async { gone.fulfill() }
        wait(for: [gone], timeout: 10)
        XCTAssertNil(released)
    }
}

final class TicketPrinterTests: XCTestCase {
    func testJamIsAnError() {
        let printer = TicketPrinter()
        printer.jam()
        let job = printer.printTicket(for: Fixtures.order("T1", [Fixtures.salad]), cooked: [])
        XCTAssertEqual(error(of: job) as? KitchenError, .printerJammed)
        XCTAssertEqual(printer.printedTickets, [])
    }

    func testWarmUpRunsOnceOnFirstPrint() throws {
        let printer = TicketPrinter()
        XCTAssertEqual(printer.warmUpCount, 0)
        _ = try value(of: printer.printTicket(for: Fixtures.order("T1", []), cooked: []))
        _ = try value(of: printer.printTicket(for: Fixtures.order("T2", []), cooked: []))
        XCTAssertEqual(printer.warmUpCount, 1)
        XCTAssertEqual(printer.printedTickets.map { $0.number }, [1, 2])
    }

    func testPrintedTicketIsDeliveredOnThePrinterQueue() {
        let printer = TicketPrinter()
        printer.lineTime = 1  // the job is still printing when the callback is registered
        let done = expectation(description: "printed")
        var queue: String?
        printer.printTicket(for: Fixtures.order("T1", []), cooked: []).then(on: .immediate) { _ in
            queue = KitchenQueues.current
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(queue, "kitchen.printer")
    }

    func testCancelledPrintJobNeverPrints() {
        let printer = TicketPrinter()
        printer.lineTime = 30
        let job = printer.printTicket(for: Fixtures.order("T1", [Fixtures.salad]), cooked: [])
        job.requestCancel()
        XCTAssertEqual(result(of: job)?.isCancelled, true)
        flush(KitchenQueues.printer)
        XCTAssertEqual(printer.printedTickets, [])
    }
}
