import Foundation
import Tomorrowland
import TransitCore
import TransitUI
import XCTest

/// View models are main-actor types; XCTest runs synchronous tests on the main thread.
func onMainActor(_ body: @MainActor () -> Void) {
    MainActor.assumeIsolated(body)
}

final class StopListViewModelTests: XCTestCase {
    func testLoadSetsFlagsDuringTheCallAndStopsAfter() {
        onMainActor {
            let model = StopListViewModel(service: RemoteStopService(server: FakeTransitServer()))
            let promise = model.load(near: Places.nearMarket)
            XCTAssertTrue(model.isLoading)
            XCTAssertEqual(model.loadCount, 1)
            XCTAssertEqual(resolved(promise)?.value?.count, 3)
            XCTAssertEqual(model.stops.map { $0.id }, ["S2", "S5", "S1"])
            XCTAssertTrue(eventually { !model.isLoading })
            XCTAssertNil(model.errorMessage)
        }
    }

    func testLoadErrorIsShown() {
        onMainActor {
            let server = FakeTransitServer()
            server.isOffline = true
            let model = StopListViewModel(service: RemoteStopService(server: server))
            _ = resolved(model.load(near: Places.nearMarket))
            XCTAssertEqual(model.errorMessage, "You are offline.")
            XCTAssertEqual(model.stops, [])
        }
    }

    func testCancelLoadingCancelsTheRequestAndSkipsCallbacks() {
        onMainActor {
            let server = FakeTransitServer()
            server.hang("stops/near")
            let model = StopListViewModel(service: RemoteStopService(server: server))
            let promise = model.load(near: Places.nearMarket)
            model.cancelLoading()
            XCTAssertTrue(eventually { server.cancelledRequests == ["stops/near"] })
            XCTAssertEqual(resolved(promise)?.isCancelled, true)
            XCTAssertTrue(eventually { !model.isLoading })
            XCTAssertEqual(model.stops, [])
            XCTAssertNil(model.errorMessage)
        }
    }

    func testStopNames() {
        onMainActor {
            let server = FakeTransitServer()
            let model = StopListViewModel(service: RemoteStopService(server: server))
            XCTAssertEqual(resolved(model.stopNames(near: Places.nearMarket))?.value, .some(["Market Street", "Old Town", "Central Station"]))
            server.isOffline = true
            XCTAssertEqual(resolved(model.stopNames(near: Places.nearMarket))?.value, .some(nil))
        }
    }

    func testMessages() {
        onMainActor {
            XCTAssertEqual(StopListViewModel.message(for: .insufficientFunds(needed: 40)), "Top up 40 cents.")
            XCTAssertEqual(StopListViewModel.message(for: .notFound("S9")), "Not found: S9")
        }
    }
}

final class DeparturesViewModelTests: XCTestCase {
    func testRefreshFillsTheRows() {
        onMainActor {
            let model = DeparturesViewModel(service: DepartureService(server: FakeTransitServer()), stopID: "S2")
            let promise = model.refresh()
            XCTAssertTrue(model.isRefreshing)
            _ = resolved(promise)
            XCTAssertEqual(model.rows, [
                DeparturesViewModel.Row(title: "R1 Central Station", time: "08:01", isDelayed: false),
                DeparturesViewModel.Row(title: "R1 Central Station", time: "08:16", isDelayed: false),
            ])
            XCTAssertEqual(model.refreshCount, 1)
            XCTAssertTrue(eventually { !model.isRefreshing })
        }
    }

    func testDelaysAreShown() {
        onMainActor {
            let server = FakeTransitServer()
            server.delays = ["R1": 5]
            let model = DeparturesViewModel(service: DepartureService(server: server), stopID: "S2")
            _ = resolved(model.refresh())
            XCTAssertEqual(model.rows.first?.time, "08:06")
            XCTAssertEqual(model.rows.first?.isDelayed, true)
        }
    }

    func testRefreshErrorIsKept() {
        onMainActor {
            let server = FakeTransitServer()
            server.fail("departures", with: .server(status: 502))
            let model = DeparturesViewModel(service: DepartureService(server: server), stopID: "S2")
            _ = resolved(model.refresh())
            XCTAssertEqual(model.lastError, .server(status: 502))
            XCTAssertEqual(model.rows, [])
        }
    }

    func testAutoRefreshRepeatsUntilStopped() {
        onMainActor {
            let model = DeparturesViewModel(service: DepartureService(server: FakeTransitServer()), stopID: "S1")
            model.refreshInterval = 0.05
            model.startAutoRefresh()
            XCTAssertTrue(eventually { model.refreshCount >= 3 })
            model.stopAutoRefresh()
            let count = model.refreshCount
            spin(0.4)
            XCTAssertLessThanOrEqual(model.refreshCount, count + 1)
        }
    }
}

final class TripPlannerViewModelTests: XCTestCase {
    @MainActor
    private static func makeModel(_ server: FakeTransitServer) -> TripPlannerViewModel {
        TripPlannerViewModel(planner: TripPlanner(stops: RemoteStopService(server: server), server: server))
    }

    func testPlanShowsTheSummary() {
        onMainActor {
            let model = Self.makeModel(FakeTransitServer())
            let promise = model.plan(from: Places.nearMarket, to: Places.nearUniversity, departingAfter: 480)
            XCTAssertEqual(model.status, .searching)
            XCTAssertEqual(resolved(promise)?.value, "08:01–08:19 R1 → R3 (1 change)")
            XCTAssertEqual(model.status, .found("08:01–08:19 R1 → R3 (1 change)"))
            XCTAssertEqual(model.itinerary?.transfers, 1)
        }
    }

    func testFailureIsShown() {
        onMainActor {
            let model = Self.makeModel(FakeTransitServer())
            _ = resolved(model.plan(from: Places.nearMarket, to: Places.nearAirport, departingAfter: 480))
            XCTAssertEqual(model.status, .failed("No route."))
        }
    }

    func testANewSearchCancelsTheOneInFlight() {
        onMainActor {
            let server = FakeTransitServer()
            server.hang("stops/near")
            let model = Self.makeModel(server)
            let first = model.plan(from: Places.nearMarket, to: Places.nearUniversity, departingAfter: 480)
            server.reset()
            let second = model.plan(from: Places.nearCentral, to: Places.nearUniversity, departingAfter: 480)
            XCTAssertTrue(eventually { server.cancelledRequests.count == 2 })
            XCTAssertEqual(resolved(first)?.isCancelled, true)
            XCTAssertEqual(resolved(second)?.value, "08:01–08:14 R3 (direct)")
            XCTAssertEqual(model.searches, 2)
            XCTAssertEqual(model.status, .found("08:01–08:14 R3 (direct)"))
        }
    }

    func testCancelReturnsToIdle() {
        onMainActor {
            let server = FakeTransitServer()
            server.hang("stops/near")
            let model = Self.makeModel(server)
            let promise = model.plan(from: Places.nearMarket, to: Places.nearUniversity, departingAfter: 480)
            model.cancel()
            XCTAssertEqual(resolved(promise)?.isCancelled, true)
            XCTAssertTrue(eventually { model.status == .idle })
        }
    }
}

final class WalletViewModelTests: XCTestCase {
    func testReload() {
        onMainActor {
            let model = WalletViewModel(wallet: TicketWallet(server: FakeTransitServer()))
            _ = resolved(model.reload())
            XCTAssertEqual(model.balanceText, "€10.00")
            XCTAssertEqual(model.tickets, [])
        }
    }

    func testBuyShowsTheTicketThenTheBalance() {
        onMainActor {
            let model = WalletViewModel(wallet: TicketWallet(server: FakeTransitServer()))
            let promise = model.buy(.single)
            XCTAssertTrue(model.isBusy)
            XCTAssertEqual(resolved(promise)?.value?.id, "T1")
            XCTAssertTrue(eventually { model.balanceText == "€7.50" })
            XCTAssertEqual(model.message, "Bought single ticket T1")
            XCTAssertTrue(eventually { !model.isBusy })
            XCTAssertEqual(model.tickets.map { $0.id }, ["T1"])
        }
    }

    func testBuyFailure() {
        onMainActor {
            let model = WalletViewModel(wallet: TicketWallet(server: FakeTransitServer()))
            _ = resolved(model.buy(.week))
            XCTAssertTrue(eventually { model.message == "Top up 1500 cents." })
        }
    }

    func testLeavingCancelsThePurchaseAndSkipsEveryCallback() {
        onMainActor {
            let server = FakeTransitServer()
            server.hang("fares/")
            let model = WalletViewModel(wallet: TicketWallet(server: server))
            let promise = model.buy(.single)
            model.leave()
            XCTAssertTrue(eventually { server.cancelledRequests == ["fares/single"] })
            _ = resolved(promise)
            spin(0.1)
            XCTAssertNil(model.message)
            // The `always` was registered with the token too, so nothing resets the flag.
            XCTAssertTrue(model.isBusy)
        }
    }

    func testFormat() {
        onMainActor {
            XCTAssertEqual(WalletViewModel.format(cents: 1_205), "€12.05")
        }
    }
}

final class VehicleMapViewModelTests: XCTestCase {
    func testShowUpdatesUntilHidden() {
        onMainActor {
            let model = VehicleMapViewModel(tracker: VehicleTracker(server: FakeTransitServer()))
            model.show(routeID: "R1", interval: 0.05)
            XCTAssertTrue(eventually { model.updates >= 2 })
            XCTAssertEqual(model.vehicles.map { $0.vehicleID }, ["V10", "V11"])
            model.hide()
            let updates = model.updates
            spin(0.3)
            XCTAssertLessThanOrEqual(model.updates, updates + 1)
        }
    }

    func testHeadline() {
        onMainActor {
            let model = VehicleMapViewModel(tracker: VehicleTracker(server: FakeTransitServer()))
            _ = resolved(model.loadHeadline(routeID: "R2", from: AlertService(server: FakeTransitServer())))
            XCTAssertEqual(model.alertHeadline, "Harbour line runs every 20 minutes")
        }
    }
}
