import Foundation
import Tomorrowland
import TransitCore
import XCTest

final class StopServiceTests: XCTestCase {
    func testStopsNearAreFilteredAndSortedByDistance() {
        let service = RemoteStopService(server: FakeTransitServer())
        let result = resolved(service.stops(near: Places.nearMarket, radius: 500))
        XCTAssertEqual(result?.value?.map { $0.id }, ["S2", "S5", "S1"])
    }

    func testSmallRadiusKeepsOnlyTheNearestStop() {
        let service = RemoteStopService(server: FakeTransitServer())
        XCTAssertEqual(resolved(service.stops(near: Places.nearMarket, radius: 100))?.value?.map { $0.id }, ["S2"])
    }

    func testNonPositiveRadiusIsRejectedWithoutARequest() {
        let server = FakeTransitServer()
        let service = RemoteStopService(server: server)
        let promise = service.stops(near: Places.nearMarket, radius: 0)
        XCTAssertEqual(promise.result, .error(.invalidRequest("radius must be positive")))
        XCTAssertEqual(server.requestLog, [])
    }

    func testFilteringRunsOnTheDecodeQueue() {
        let service = RemoteStopService(server: FakeTransitServer())
        _ = resolved(service.stops(near: Places.nearMarket, radius: 500))
        XCTAssertEqual(service.trace.entries, ["filter@transit.decode"])
    }

    func testDecodeContextHeldInAPropertyIsHonoured() {
        let service = RemoteStopService(server: FakeTransitServer(), decodeContext: .queue(TransitQueues.storage))
        _ = resolved(service.stops(near: Places.nearMarket, radius: 500))
        XCTAssertEqual(service.trace.entries, ["filter@transit.storage"])
    }

    func testStopByID() {
        let service = RemoteStopService(server: FakeTransitServer())
        XCTAssertEqual(resolved(service.stop(id: "S4"))?.value, TransitFixtures.university)
        XCTAssertEqual(resolved(service.stop(id: "S99")), .error(.notFound("S99")))
    }

    func testStopsOnRoute() {
        let service = RemoteStopService(server: FakeTransitServer())
        XCTAssertEqual(resolved(service.stops(onRoute: "R2"))?.value?.map { $0.id }, ["S1", "S3", "S5"])
        XCTAssertEqual(resolved(service.stops(onRoute: "R7")), .error(.notFound("R7")))
    }

    func testServerErrorsArePassedThrough() {
        let server = FakeTransitServer()
        server.fail("stops/near", with: .server(status: 500))
        let service = RemoteStopService(server: server)
        XCTAssertEqual(resolved(service.stops(near: Places.nearMarket, radius: 500)), .error(.server(status: 500)))
    }

    func testCancelReachesTheServer() {
        let server = FakeTransitServer()
        server.hang("stops/near")
        let service = RemoteStopService(server: server)
        let promise = service.stops(near: Places.nearMarket, radius: 500)
        promise.requestCancel()
        XCTAssertTrue(eventually { server.cancelledRequests == ["stops/near"] })
        XCTAssertEqual(resolved(promise)?.isCancelled, true)
    }

    func testAccessibleServiceDropsInaccessibleStops() {
        let service = AccessibleStopService(server: FakeTransitServer())
        let result = resolved(service.stops(near: Places.nearMarket, radius: 500))
        XCTAssertEqual(result?.value?.map { $0.id }, ["S2", "S1"])
        XCTAssertEqual(service.filteredCount, 1)
    }

    func testAccessibleServiceThroughTheProtocol() {
        let provider: StopProviding = AccessibleStopService(server: FakeTransitServer())
        XCTAssertEqual(resolved(provider.stops(near: Places.nearMarket, radius: 500))?.value?.count, 2)
    }

    func testCacheAnswersWhenOffline() {
        let server = FakeTransitServer()
        let cache = CachedStopService(upstream: RemoteStopService(server: server))
        XCTAssertEqual(resolved(cache.stops(near: Places.nearMarket, radius: 500))?.value?.count, 3)
        TransitQueues.storage.sync {}
        server.isOffline = true
        XCTAssertEqual(resolved(cache.stops(near: Places.nearMarket, radius: 500))?.value?.map { $0.id }, ["S2", "S5", "S1"])
        XCTAssertEqual(cache.servedFromCache, 1)
    }

    func testCacheWithoutEntryStillFailsOffline() {
        let server = FakeTransitServer()
        server.isOffline = true
        let cache = CachedStopService(upstream: RemoteStopService(server: server))
        XCTAssertEqual(resolved(cache.stops(near: Places.nearMarket, radius: 500)), .error(.offline))
    }

    func testCachedStopIsServedSynchronously() {
        let server = FakeTransitServer()
        let cache = CachedStopService(upstream: RemoteStopService(server: server))
        XCTAssertEqual(resolved(cache.stop(id: "S3"))?.value?.name, "Harbour")
        let second = cache.stop(id: "S3")
        XCTAssertEqual(second.result?.value?.name, "Harbour")
        XCTAssertEqual(server.requestCount("stops/S3"), 1)
    }
}
