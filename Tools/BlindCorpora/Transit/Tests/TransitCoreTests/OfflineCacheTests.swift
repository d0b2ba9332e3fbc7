import Foundation
import Tomorrowland
import TransitCore
import XCTest

final class OfflineCacheTests: XCTestCase {
    private let sample = [Departure(routeID: "R1", stopID: "S2", headsign: "Central Station", scheduledMinute: 481)]

    func testMissThenHit() async {
        let cache = OfflineCache()
        let miss = await cache.departures(for: "S2")
        XCTAssertEqual(miss.result, .error(.notFound("S2")))
        await cache.store(sample, for: "S2")
        let hit = await cache.departures(for: "S2")
        XCTAssertEqual(hit.result?.value, sample)
        let hits = await cache.hits
        let misses = await cache.misses
        XCTAssertEqual([hits, misses], [1, 1])
    }

    func testEntriesExpire() async {
        let clock = TestClock()
        let cache = OfflineCache(maxAge: 60, now: { clock.now })
        await cache.store(sample, for: "S2")
        clock.advance(61)
        let expired = await cache.departures(for: "S2")
        XCTAssertEqual(expired.result, .error(.notFound("S2")))
    }

    func testFallsBackToTheNetworkAndSavesTheAnswer() async {
        let server = FakeTransitServer()
        let service = DepartureService(server: server)
        let cache = OfflineCache()
        let first = await resolvedAsync(await cache.departures(for: "S1", fallingBackTo: service))
        XCTAssertEqual(first?.value?.count, 4)
        var count = 0
        for _ in 0..<500 where count == 0 {
            count = await cache.count
            if count == 0 { try? await Task.sleep(nanoseconds: 2_000_000) }
        }
        XCTAssertEqual(count, 1)
        let second = await resolvedAsync(await cache.departures(for: "S1", fallingBackTo: service))
        XCTAssertEqual(second?.value?.count, 4)
        XCTAssertEqual(server.requestCount("departures/S1"), 1)
    }

    func testFallbackErrorsComeFromTheNetwork() async {
        let cache = OfflineCache()
        let result = await resolvedAsync(await cache.departures(for: "S9", fallingBackTo: DepartureService(server: FakeTransitServer())))
        XCTAssertEqual(result, .error(.notFound("S9")))
    }

    func testRefreshCountsStops() async {
        let service = DepartureService(server: FakeTransitServer())
        let cache = OfflineCache()
        let refreshed = await resolvedAsync(await cache.refresh(stopIDs: ["S1", "S2"], from: service))
        XCTAssertEqual(refreshed?.value, 2)
        let failed = await resolvedAsync(await cache.refresh(stopIDs: ["S1", "S9"], from: service))
        XCTAssertEqual(failed?.value, 0)
    }

    func testPurgeRemovesOldEntries() async {
        let clock = TestClock()
        let cache = OfflineCache(maxAge: 60, now: { clock.now })
        await cache.store(sample, for: "S1")
        clock.advance(30)
        await cache.store(sample, for: "S2")
        clock.advance(40)
        let purged = await cache.purge()
        XCTAssertEqual(purged.result?.value, 1)
        let count = await cache.count
        XCTAssertEqual(count, 1)
    }
}
