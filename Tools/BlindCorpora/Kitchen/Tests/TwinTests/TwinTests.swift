import Foundation
import KitchenCore
import KitchenReports
import TomorrowlandAsync
import XCTest

/// The async twins of the kitchen's promise functions: same values, same errors, and a
/// cancelled Task cancels the work behind the promise.
final class TwinTests: XCTestCase {
    static let burger = OrderItem(sku: "BRG", name: "Burger", station: .grill)
    static let fries = OrderItem(sku: "FRY", name: "Fries", station: .fryer)
    static let salad = OrderItem(sku: "SLD", name: "Caesar", station: .cold)
    static let couriers = [Courier(id: "c1", name: "Ana", etaMinutes: 12)]

    func makeBackend(latency: TimeInterval = 0.01) -> KitchenBackend {
        return KitchenBackend(menu: [Self.burger, Self.fries, Self.salad], couriers: Self.couriers, latency: latency)
    }

    func makePass(printer: TicketPrinter = TicketPrinter()) -> KitchenPass {
        let stations: [StationWorker] = [
            GrillStation(context: .queue(DispatchQueue(label: "twin.grill"))),
            FryerStation(context: .queue(DispatchQueue(label: "twin.fryer"))),
            StationWorker(station: .cold, context: .utility),
        ]
        return KitchenPass(inventory: InventoryStore(stock: ["BRG": 5, "FRY": 5, "SLD": 1]), printer: printer, stations: stations)
    }

    func testFetchMenu() async throws {
        let menu = try await MenuService(backend: makeBackend()).fetchMenu()
        XCTAssertEqual(menu["SLD"], Self.salad)
    }

    func testUnknownItemThrowsTheKitchenError() async {
        do {
            _ = try await MenuService(backend: makeBackend()).item(sku: "XXX")
            XCTFail("expected an error")
        } catch let error as KitchenError {
            XCTAssertEqual(error, .unknownItem("XXX"))
        } catch {
            XCTFail("unexpected \(error)")
        }
    }

    func testLinesOfANoErrorPromise() async throws {
        let lines = try await MenuService(backend: makeBackend()).lines(for: ["FRY", "NOPE"])
        XCTAssertEqual(lines, [Self.fries])
    }

    func testReserveAndRelease() async throws {
        let store = InventoryStore(stock: ["SLD": 3])
        let reservation = try await store.reserve(for: Order(id: "T1", channel: .table(1), items: [Self.salad, Self.salad]))
        XCTAssertEqual(store.level(of: "SLD"), 1)
        let returned = try await store.release(reservation)
        XCTAssertEqual(returned, 2)
        XCTAssertEqual(store.level(of: "SLD"), 3)
    }

    func testShortageThrowsTheInventoryError() async {
        let store = InventoryStore(stock: ["SLD": 0])
        do {
            _ = try await store.reserve(for: Order(id: "T1", channel: .table(1), items: [Self.salad]))
            XCTFail("expected a shortage")
        } catch let error as InventoryError {
            XCTAssertEqual(error, .shortage(sku: "SLD", missing: 1))
        } catch {
            XCTFail("unexpected \(error)")
        }
    }

    func testCookThroughTheBaseClassReachesTheGrill() async throws {
        let worker: StationWorker = GrillStation(context: .utility)
        let cooked = try await worker.cook(Self.burger)
        XCTAssertEqual(cooked.seconds, 360)
    }

    func testOrderSourceThroughTheProtocol() async throws {
        let pos = DiningRoomPOS()
        let order = pos.ringIn(table: 2, items: [Self.salad])
        let source: OrderSource = pos
        let orders = try await source.fetchNewOrders()
        XCTAssertEqual(orders, [order])
        try await source.acknowledge(order)
        XCTAssertEqual(pos.acknowledged, [order.id])
    }

    func testAcknowledgeThrowsTheKitchenError() async {
        let source: OrderSource = DiningRoomPOS()
        do {
            try await source.acknowledge(Order(id: "D1", channel: .delivery(platform: "uber"), items: []))
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? KitchenError, .platformRejected("D1"))
        }
    }

    func testCancellingTheTaskStopsThePoll() async {
        let backend = makeBackend(latency: 30)
        let feed = DeliveryPlatformFeed(platform: "uber", backend: backend)
        let poll = Task { try await feed.fetchNewOrders() }
        poll.cancel()
        let result = await poll.result
        XCTAssertThrowsError(try result.get()) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(backend.cancelledRequests, ["orders.uber"])
    }

    func testFireGivesTheTicket() async throws {
        let pass = makePass()
        let ticket = try await pass.fire(Order(id: "T1", channel: .table(1), items: [Self.burger, Self.salad]))
        XCTAssertEqual(ticket.lines, ["#1 T1", "1x Burger [grill]", "1x Caesar [cold]"])
        XCTAssertEqual(pass.log, ["fire T1", "ticket 1 T1"])
    }

    func testFireWithinALimitTimesOut() async {
        let printer = TicketPrinter()
        printer.lineTime = 30
        do {
            _ = try await makePass(printer: printer).fire(Order(id: "T1", channel: .table(1), items: [Self.fries]), within: 0.05)
            XCTFail("expected a timeout")
        } catch {
            XCTAssertEqual(error as? KitchenError, .timedOut)
        }
    }

    func testFireAllCounts() async throws {
        let pass = makePass()
        let count = try await pass.fireAll([
            Order(id: "T1", channel: .table(1), items: [Self.fries]),
            Order(id: "T2", channel: .table(2), items: [Self.salad, Self.salad]),
        ])
        XCTAssertEqual(count, 1)
    }

    func testPrintTicket() async throws {
        let ticket = try await TicketPrinter().printTicket(for: Order(id: "T9", channel: .table(9), items: []), cooked: [])
        XCTAssertEqual(ticket.number, 1)
    }

    func testActorBooksACourier() async throws {
        let dispatch = CourierDispatch(backend: makeBackend())
        let order = Order(id: "U1", channel: .delivery(platform: "uber"), items: [Self.fries])
        let courier = try await dispatch.requestCourier(for: order)
        XCTAssertEqual(courier.name, "Ana")
        let inFlight = await dispatch.requestsInFlight
        XCTAssertEqual(inFlight, 0)
    }

    func testEstimatedPickup() async throws {
        let dispatch = CourierDispatch(backend: makeBackend())
        let order = Order(id: "U1", channel: .delivery(platform: "uber"), items: [])
        let minutes = try await dispatch.estimatedPickup(for: order, courier: StdPromise(rejected: KitchenError.noCourier))
        XCTAssertEqual(minutes, 45)
    }

    @MainActor
    func testRefreshTheScreen() async throws {
        let pos = DiningRoomPOS()
        let order = pos.ringIn(table: 4, items: [Self.burger])
        let screen = KitchenDisplayViewModel(sources: [pos], menu: MenuService(backend: makeBackend()))
        let count = try await screen.refresh()
        XCTAssertEqual(count, 1)
        XCTAssertEqual(screen.openOrders, [order.id])
    }

    @ExpoActor
    func testExpoCallsATableAway() async throws {
        let rail = ExpoRail(dispatch: CourierDispatch(backend: makeBackend()))
        let called = try await rail.callAway(Order(id: "T1", channel: .table(1), items: []))
        XCTAssertEqual(called, "server")
    }

    func testCloseShift() async throws {
        let reporter = ShiftReporter(pass: makePass(), dispatch: CourierDispatch(backend: makeBackend()))
        let summary = try await reporter.closeShift(lastOrders: [Order(id: "T1", channel: .table(1), items: [Self.fries])])
        XCTAssertEqual(summary.ticketsPrinted, 1)
    }
}
