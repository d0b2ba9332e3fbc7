import Foundation
import Tomorrowland
import XCTest
@testable import KitchenCore
import KitchenReports

final class ShiftReportTests: XCTestCase {
    func testCloseShiftCountsPrintedAndFailedOrders() throws {
        let pass = Fixtures.pass()
        let reporter = ShiftReporter(pass: pass, dispatch: CourierDispatch(backend: KitchenBackend(menu: Fixtures.menu)))
        let summary = try value(of: reporter.closeShift(lastOrders: [
            Fixtures.order("T1", [Fixtures.burger]),
            Fixtures.order("T2", [OrderItem(sku: "XXX", name: "Ghost", station: .cold)]),
        ]))
        XCTAssertEqual(summary.ticketsPrinted, 1)
        XCTAssertEqual(summary.ordersFailed, 1)
        XCTAssertEqual(summary.couriersBooked, 0)
    }

    func testCloseShiftListsLowStock() throws {
        let pass = Fixtures.pass()
        let reporter = ShiftReporter(pass: pass, dispatch: CourierDispatch(backend: KitchenBackend(menu: Fixtures.menu)))
        reporter.watchList = ["SLD": 2, "BRG": 3]
        let summary = try value(of: reporter.closeShift(lastOrders: [Fixtures.order("T1", [Fixtures.salad])]))
        XCTAssertEqual(summary.lowStock, ["SLD"])
    }

    func testCloseShiftWithNoOrdersIsReadyAtOnce() {
        let reporter = ShiftReporter(pass: Fixtures.pass(), dispatch: CourierDispatch(backend: KitchenBackend(menu: Fixtures.menu)))
        let summary = reporter.closeShift(lastOrders: [])
        XCTAssertEqual(summary.result?.value?.ticketsPrinted, 0)
    }

    func testCloseShiftBooksCouriersForDeliveries() throws {
        let backend = KitchenBackend(menu: Fixtures.menu, couriers: Fixtures.couriers)
        let reporter = ShiftReporter(pass: Fixtures.pass(), dispatch: CourierDispatch(backend: backend))
        let deliveries = [
            Fixtures.order("U1", [Fixtures.fries], channel: .delivery(platform: "uber")),
            Fixtures.order("U2", [Fixtures.fries], channel: .delivery(platform: "uber")),
        ]
        let summary = try value(of: reporter.closeShift(lastOrders: deliveries, deliveries: deliveries))
        XCTAssertEqual(summary.ticketsPrinted, 2)
        XCTAssertEqual(summary.couriersBooked, 2)
    }

    func testCloseShiftFailsWhenNoCourierIsLeft() {
        let backend = KitchenBackend(menu: Fixtures.menu, couriers: [Fixtures.couriers[0]])
        let reporter = ShiftReporter(pass: Fixtures.pass(), dispatch: CourierDispatch(backend: backend))
        let deliveries = [
            Fixtures.order("U1", [Fixtures.fries], channel: .delivery(platform: "uber")),
            Fixtures.order("U2", [Fixtures.fries], channel: .delivery(platform: "uber")),
        ]
        XCTAssertEqual(error(of: reporter.closeShift(lastOrders: [], deliveries: deliveries)) as? KitchenError, .noCourier)
    }
}
