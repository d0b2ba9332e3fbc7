import Foundation
import Tomorrowland
import TransitCore
import XCTest

/// The async twins of the core services: same names, `async`, throwing the promise's error.
final class ServiceTwinTests: XCTestCase {
    func testStopsNearTwin() async throws {
        let service = RemoteStopService(server: FakeTransitServer())
        let stops = try await service.stops(near: TwinPlaces.nearMarket, radius: 500)
        XCTAssertEqual(stops.map { $0.id }, ["S2", "S5", "S1"])
        XCTAssertEqual(service.trace.entries, ["filter@transit.decode"])
    }

    func testStopsNearTwinReachesTheOverride() async throws {
        let service = AccessibleStopService(server: FakeTransitServer())
        let stops = try await service.stops(near: TwinPlaces.nearMarket, radius: 500)
        XCTAssertEqual(stops.map { $0.id }, ["S2", "S1"])
        XCTAssertEqual(service.filteredCount, 1)
    }

    func testStopsNearTwinThroughTheProtocol() async throws {
        let provider: StopProviding = CachedStopService(upstream: RemoteStopService(server: FakeTransitServer()))
        let stops = try await provider.stops(near: TwinPlaces.nearMarket, radius: 100)
        XCTAssertEqual(stops.map { $0.id }, ["S2"])
    }

    func testStopsNearTwinThrowsTypedErrors() async {
        let server = FakeTransitServer()
        let service = RemoteStopService(server: server)
        await assertThrows(.invalidRequest("radius must be positive")) {
            try await service.stops(near: TwinPlaces.nearMarket, radius: 0)
        }
        server.isOffline = true
        await assertThrows(.offline) { try await service.stops(near: TwinPlaces.nearMarket, radius: 500) }
    }

    func testStopByIDTwin() async throws {
        let service = RemoteStopService(server: FakeTransitServer())
        let stop = try await service.stop(id: "S4")
        XCTAssertEqual(stop.name, "University")
        await assertThrows(.notFound("S99")) { try await service.stop(id: "S99") }
    }

    func testStopsOnRouteTwin() async throws {
        let service = RemoteStopService(server: FakeTransitServer())
        let stops = try await service.stops(onRoute: "R2")
        XCTAssertEqual(stops.map { $0.id }, ["S1", "S3", "S5"])
    }

    func testDeparturesTwin() async throws {
        let service = DepartureService(server: FakeTransitServer())
        let departures = try await service.departures(stopID: "S1", limit: 2)
        XCTAssertEqual(departures.map { $0.scheduledMinute }, [482, 485])
        let defaultLimit = try await service.departures(stopID: "S1")
        XCTAssertEqual(defaultLimit.count, 4)
        await assertThrows(.notFound("S9")) { try await service.departures(stopID: "S9") }
    }

    func testNextDepartureTwin() async throws {
        let service = DepartureService(server: FakeTransitServer())
        let next = try await service.nextDeparture(stopID: "S1", routeID: "R2")
        XCTAssertEqual(next.scheduledMinute, 490)
        await assertThrows(.notFound("R9@S1")) { try await service.nextDeparture(stopID: "S1", routeID: "R9") }
    }

    func testLiveDeparturesAndDelaysTwins() async throws {
        let server = FakeTransitServer()
        server.delays = ["R1": 10]
        let service = DepartureService(server: server)
        let delays = try await service.delays(stopID: "S1")
        XCTAssertEqual(delays, ["R1": 10])
        let live = try await service.liveDepartures(stopID: "S1")
        XCTAssertEqual(live.map { $0.expectedMinute }, [485, 490, 492, 507])
    }

    func testBoardTwin() async throws {
        let server = FakeTransitServer()
        let service = DepartureService(server: server)
        let board = try await service.board(stopIDs: ["S1", "S2"], limit: 1)
        XCTAssertEqual(board["S2"]?.map { $0.scheduledMinute }, [481])
        XCTAssertEqual(server.requestLog, ["departures/S1", "departures/S2"])
    }

    func testTimeoutTwin() async {
        let server = FakeTransitServer()
        server.setLatency(5, for: "departures/S2")
        let service = DepartureService(server: server)
        await assertThrows(.timedOut) { try await service.departures(stopID: "S2", timeout: 0.05) }
    }

    func testFastestDeparturesTwin() async throws {
        let server = FakeTransitServer()
        server.setLatency(3, for: "primary/")
        let service = DepartureService(server: server)
        let departures = try await service.fastestDepartures(stopID: "S1")
        XCTAssertEqual(departures.count, 4)
        let cancelled = await eventuallyAsync { server.cancelledRequests == ["primary/departures/S1"] }
        XCTAssertTrue(cancelled)
    }

    func testDepartureCountTwinNeverFails() async throws {
        let service = DepartureService(server: FakeTransitServer())
        let count = try await service.departureCount(stopID: "S1")
        let missing = try await service.departureCount(stopID: "S9")
        XCTAssertEqual([count, missing], [4, 0])
    }

    func testServerRequestTwin() async throws {
        let server = FakeTransitServer()
        let answer: Int = try await server.request("echo") { .success(42) }
        XCTAssertEqual(answer, 42)
        XCTAssertEqual(server.requestLog, ["echo"])
    }

    func testInFlightRequestsTwin() async throws {
        let requests = InFlightRequests<String, Int>()
        let value = try await requests.value(for: "a") { Promise(fulfilled: 7) }
        XCTAssertEqual(value, 7)
    }

    func testVehicleTwins() async throws {
        let tracker = VehicleTracker(server: FakeTransitServer())
        let positions = try await tracker.positions(routeID: "R1")
        XCTAssertEqual(positions.map { $0.vehicleID }, ["V10", "V11"])
        let vehicle = try await tracker.position(vehicleID: "V30", routeID: "R3")
        XCTAssertEqual(vehicle.routeID, "R3")
        let nearest = try await tracker.nearestVehicle(to: Coordinate(latitude: 0.0012, longitude: 0), routes: ["R1", "R3"])
        XCTAssertEqual(nearest.vehicleID, "V10")
        await assertThrows(.notFound("V99")) { try await tracker.position(vehicleID: "V99", routeID: "R1") }
    }

    func testCancellingTheAwaitingTaskCancelsTheRequest() async {
        let server = FakeTransitServer()
        server.hang("realtime/vehicles/R1")
        let tracker = VehicleTracker(server: server)
        let task = Task { try await tracker.position(vehicleID: "V10", routeID: "R1") }
        let started = await eventuallyAsync { server.requestLog == ["realtime/vehicles/R1"] }
        XCTAssertTrue(started)
        task.cancel()
        do {
            _ = try await task.value
            XCTFail("expected a cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        let cancelled = await eventuallyAsync { server.cancelledRequests == ["realtime/vehicles/R1"] }
        XCTAssertTrue(cancelled)
    }
}

/// Twins of `StdPromise` functions throw whatever the promise rejected with.
final class ImporterTwinTests: XCTestCase {
    func testImportStopsTwin() async throws {
        let importer = FeedImporter(downloader: LegacyFeedDownloader())
        let rows = try await importer.importStops(path: "stops.csv")
        XCTAssertEqual(rows.map { $0.id }, ["S1", "S2"])
        let text = try await importer.download(path: "stops.csv")
        XCTAssertTrue(text.hasPrefix("stop_id"))
    }

    func testImportStopsTwinThrowsTheFormatError() async {
        let downloader = LegacyFeedDownloader()
        downloader.payload = "nope"
        let importer = FeedImporter(downloader: downloader)
        do {
            _ = try await importer.importStops(path: "stops.csv", retryDelay: 0.01)
            XCTFail("expected a format error")
        } catch {
            XCTAssertEqual(error as? FeedFormatError, .missingHeader)
        }
        await assertThrows(.decoding("missingHeader")) { try await importer.importedStops(path: "stops.csv") }
    }

    func testBackgroundImportAndRouteTextTwins() async throws {
        let importer = FeedImporter(downloader: LegacyFeedDownloader())
        let count = try await importer.backgroundImport(path: "stops.csv")
        XCTAssertEqual(count, 2)
        let server = FakeTransitServer()
        let planner = TripPlanner(stops: RemoteStopService(server: server), server: server)
        let text = try await planner.routeText(from: TransitFixtures.central, to: TransitFixtures.harbour, departingAfter: 600)
        XCTAssertEqual(text, "transit.routing: 10:01–10:09 R2 (direct)")
    }
}

/// Twins of a free function and of a static method.
final class FreeFunctionTwinTests: XCTestCase {
    func testMergedDeparturesTwin() async throws {
        let service = DepartureService(server: FakeTransitServer())
        let merged = try await mergedDepartures(service, stopIDs: ["S1", "S2"], limit: 1)
        XCTAssertEqual(merged.map { $0.scheduledMinute }, [481, 482])
    }

    func testFareQuoteTwin() async throws {
        let server = FakeTransitServer()
        let price = try await TicketWallet.fareQuote(.single, server: server)
        XCTAssertEqual(price, 250)
        server.fares[.day] = nil
        await assertThrows(.notFound("day")) { try await TicketWallet.fareQuote(.day, server: server) }
    }
}
