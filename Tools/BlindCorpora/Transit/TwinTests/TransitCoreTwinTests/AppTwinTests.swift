import Foundation
import Tomorrowland
import TransitCore
import TransitUI
import XCTest

/// The async twins of the planner, alerts, storage, wallet and view models.
final class AppTwinTests: XCTestCase {
    private func makePlanner(_ server: FakeTransitServer = FakeTransitServer()) -> TripPlanner {
        TripPlanner(stops: RemoteStopService(server: server), server: server)
    }

    func testPlanTwin() async throws {
        let planner = makePlanner()
        let itinerary = try await planner.plan(from: TwinPlaces.nearMarket, to: TwinPlaces.nearUniversity, departingAfter: 480)
        XCTAssertEqual(itinerary.legs.map { $0.routeID }, ["R1", "R3"])
        XCTAssertEqual(itinerary.arriveMinute, 499)
        XCTAssertEqual(planner.log, ["plan.start", "plan.stops S2->S4", "plan.end"])
        XCTAssertEqual(planner.planCount, 1)
    }

    func testPlanTwinErrors() async {
        let planner = makePlanner()
        await assertThrows(.noRoute) {
            try await planner.plan(from: TwinPlaces.nearMarket, to: TwinPlaces.nearAirport, departingAfter: 480)
        }
        await assertThrows(.invalidRequest("origin and destination are the same")) {
            try await planner.plan(from: TwinPlaces.nearMarket, to: TwinPlaces.nearMarket, departingAfter: 480)
        }
    }

    func testCancellingAPlanTaskCancelsBothSearches() async {
        let server = FakeTransitServer()
        server.hang("stops/near")
        let planner = makePlanner(server)
        let task = Task { try await planner.plan(from: TwinPlaces.nearMarket, to: TwinPlaces.nearUniversity, departingAfter: 480) }
        let started = await eventuallyAsync { server.requestLog.count == 2 }
        XCTAssertTrue(started)
        task.cancel()
        let result = await task.result
        XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is CancellationError, "\($0)") }
        let cancelled = await eventuallyAsync { server.cancelledRequests.count == 2 }
        XCTAssertTrue(cancelled)
    }

    func testRouteAndBestPlanTwins() async throws {
        let planner = makePlanner()
        let route = try await planner.route(from: TransitFixtures.central, to: TransitFixtures.harbour, departingAfter: 600)
        XCTAssertEqual(route.legs.map { $0.routeID }, ["R2"])
        let best = try await planner.bestPlan(from: [TwinPlaces.nearMarket, TwinPlaces.nearCentral],
                                              to: TwinPlaces.nearUniversity, departingAfter: 480)
        XCTAssertEqual(best.arriveMinute, 494)
    }

    func testAlertTwins() async throws {
        let server = FakeTransitServer()
        let alerts = AlertService(server: server)
        let active = try await alerts.activeAlerts()
        XCTAssertEqual(active.map { $0.id }, ["A2", "A1", "A3"])
        let route = try await alerts.alerts(routeID: "R2", atLeast: .warning)
        XCTAssertEqual(route.map { $0.id }, ["A1"])
        let headline = try await alerts.headline(routeID: "R3")
        XCTAssertEqual(headline, "University branch closed for works")
        try await alerts.dismiss(alertID: "A2")
        let remaining = try await alerts.activeAlerts()
        XCTAssertEqual(remaining.map { $0.id }, ["A1", "A3"])
        XCTAssertEqual(server.requestCount("alerts"), 2)
    }

    func testFavoritesTwins() async throws {
        let disk = FavoritesDisk()
        let store = FavoritesStore(stops: RemoteStopService(server: FakeTransitServer()), disk: disk)
        let added = try await store.add(stopID: "S2")
        XCTAssertEqual(added, [FavoriteStop(stopID: "S2", nickname: "Market Street")])
        _ = try await store.add(stopID: "S4", nickname: "Campus")
        let renamed = try await store.rename(stopID: "S2", to: "Home")
        XCTAssertEqual(renamed.nickname, "Home")
        let stops = try await store.resolvedStops()
        XCTAssertEqual(stops.map { $0.id }, ["S2", "S4"])
        XCTAssertEqual(disk.writes, 3)
    }

    func testFavoritesTwinErrors() async {
        let store = FavoritesStore(stops: RemoteStopService(server: FakeTransitServer()), disk: FavoritesDisk())
        await assertThrows(.notFound("S99")) { try await store.add(stopID: "S99") }
        await assertThrows(.notFound("S1")) { try await store.remove(stopID: "S1") }
    }

    func testOfflineCacheTwins() async throws {
        let server = FakeTransitServer()
        let cache = OfflineCache()
        await assertThrows(.notFound("S1")) { try await cache.departures(for: "S1") }
        let fetched = try await cache.departures(for: "S1", fallingBackTo: DepartureService(server: server))
        XCTAssertEqual(fetched.count, 4)
        let refreshed = try await cache.refresh(stopIDs: ["S1", "S2"], from: DepartureService(server: server))
        XCTAssertEqual(refreshed, 2)
        let purged = try await cache.purge()
        XCTAssertEqual(purged, 0)
    }

    func testWalletTwins() async throws {
        let wallet = TicketWallet(server: FakeTransitServer())
        let ticket = try await wallet.purchase(.single)
        XCTAssertEqual(ticket.id, "T1")
        let balance = try await wallet.balance()
        XCTAssertEqual(balance, 750)
        let activated = try await wallet.activate(ticketID: "T1")
        XCTAssertTrue(activated.isActivated)
        let topped = try await wallet.topUp(cents: 250)
        XCTAssertEqual(topped, 1_000)
        let tickets = try await wallet.allTickets()
        XCTAssertEqual(tickets.map { $0.id }, ["T1"])
    }

    func testWalletTwinErrors() async {
        let wallet = TicketWallet(server: FakeTransitServer(), balanceCents: 300)
        await assertThrows(.insufficientFunds(needed: 400)) { try await wallet.purchase(.day) }
        await assertThrows(.insufficientFunds(needed: 650)) { try await wallet.purchaseAll([.single, .day]) }
        await assertThrows(.notFound("T9")) { try await wallet.activate(ticketID: "T9") }
    }

    func testPurchaseAllTwin() async throws {
        let server = FakeTransitServer()
        let wallet = TicketWallet(server: server)
        let tickets = try await wallet.purchaseAll([.single, .day])
        XCTAssertEqual(tickets.map { $0.kind }, [.single, .day])
        XCTAssertEqual(server.requestLog, ["fares/single", "fares/day"])
    }

    func testStopListLoadTwin() async throws {
        let model = await StopListViewModel(service: RemoteStopService(server: FakeTransitServer()))
        let stops = try await model.load(near: TwinPlaces.nearMarket)
        XCTAssertEqual(stops.count, 3)
        let shown = await model.stops.map { $0.id }
        XCTAssertEqual(shown, ["S2", "S5", "S1"])
        let names = try await model.stopNames(near: TwinPlaces.nearMarket)
        XCTAssertEqual(names, ["Market Street", "Old Town", "Central Station"])
    }

    func testDeparturesRefreshTwin() async throws {
        let model = await DeparturesViewModel(service: DepartureService(server: FakeTransitServer()), stopID: "S2")
        let rows = try await model.refresh()
        XCTAssertEqual(rows.map { $0.time }, ["08:01", "08:16"])
        let count = await model.refreshCount
        XCTAssertEqual(count, 1)
    }

    func testTripPlannerViewModelTwin() async throws {
        let server = FakeTransitServer()
        let model = await TripPlannerViewModel(planner: TripPlanner(stops: RemoteStopService(server: server), server: server))
        let summary = try await model.plan(from: TwinPlaces.nearCentral, to: TwinPlaces.nearUniversity, departingAfter: 480)
        XCTAssertEqual(summary, "08:01–08:14 R3 (direct)")
        let status = await model.status
        XCTAssertEqual(status, .found("08:01–08:14 R3 (direct)"))
    }

    func testWalletViewModelTwins() async throws {
        let model = await WalletViewModel(wallet: TicketWallet(server: FakeTransitServer()))
        let ticket = try await model.buy(.single)
        XCTAssertEqual(ticket.id, "T1")
        let (balance, tickets) = try await model.reload()
        XCTAssertEqual(balance, 750)
        XCTAssertEqual(tickets.count, 1)
        let text = await model.balanceText
        XCTAssertEqual(text, "€7.50")
    }

    func testVehicleMapHeadlineTwin() async throws {
        let model = await VehicleMapViewModel(tracker: VehicleTracker(server: FakeTransitServer()))
        let headline = try await model.loadHeadline(routeID: "R2", from: AlertService(server: FakeTransitServer()))
        XCTAssertEqual(headline, "Harbour line runs every 20 minutes")
        let shown = await model.alertHeadline
        XCTAssertEqual(shown, "Harbour line runs every 20 minutes")
    }
}
