import Foundation
import Tomorrowland
import TransitCore
import XCTest

final class RealtimeTests: XCTestCase {
    func testPositionsOfARoute() {
        let tracker = VehicleTracker(server: FakeTransitServer())
        XCTAssertEqual(resolved(tracker.positions(routeID: "R1"))?.value?.map { $0.vehicleID }, ["V10", "V11"])
        XCTAssertEqual(resolved(tracker.positions(routeID: "R5"))?.value, [])
    }

    func testConcurrentCallersShareOneRequest() {
        let server = FakeTransitServer()
        let tracker = VehicleTracker(server: server)
        let first = tracker.positions(routeID: "R1")
        let second = tracker.positions(routeID: "R1")
        XCTAssertEqual(resolved(first)?.value?.count, 2)
        XCTAssertEqual(resolved(second)?.value?.count, 2)
        XCTAssertEqual(server.requestCount("realtime/vehicles/R1"), 1)
        XCTAssertEqual(tracker.networkRequestsStarted, 1)
    }

    func testSharedRequestIsForgottenOnceResolved() {
        let requests = InFlightRequests<String, Int>()
        let promise = requests.value(for: "a") { TransitPromise(fulfilled: 1) }
        XCTAssertEqual(resolved(promise)?.value, 1)
        XCTAssertEqual(requests.pendingKeys, 0)
        _ = requests.value(for: "a") { TransitPromise(fulfilled: 2) }
        XCTAssertEqual(requests.startedCount, 2)
    }

    func testOneCallerCancellingDoesNotCancelTheSharedRequest() {
        let server = FakeTransitServer()
        server.hang("realtime/vehicles/R3")
        let tracker = VehicleTracker(server: server)
        let first = tracker.positions(routeID: "R3")
        let second = tracker.positions(routeID: "R3")
        first.requestCancel()
        spin(0.2)
        XCTAssertEqual(server.cancelledRequests, [])
        XCTAssertNil(second.result)
    }

    func testPositionOfOneVehicle() {
        let tracker = VehicleTracker(server: FakeTransitServer())
        XCTAssertEqual(resolved(tracker.position(vehicleID: "V30", routeID: "R3"))?.value?.routeID, "R3")
        XCTAssertEqual(resolved(tracker.position(vehicleID: "V99", routeID: "R1")), .error(.notFound("V99")))
    }

    func testCancellingAPositionForwardsAtOnce() {
        let server = FakeTransitServer()
        server.hang("realtime/vehicles/R1")
        let tracker = VehicleTracker(server: server)
        let promise = tracker.position(vehicleID: "V10", routeID: "R1")
        promise.requestCancel()
        XCTAssertTrue(eventually { server.cancelledRequests == ["realtime/vehicles/R1"] })
        XCTAssertEqual(resolved(promise)?.isCancelled, true)
        XCTAssertEqual(tracker.cancelCallbacks, 1)
    }

    func testNearestVehicleAcrossRoutes() {
        let server = FakeTransitServer()
        let tracker = VehicleTracker(server: server)
        let promise = tracker.nearestVehicle(to: Coordinate(latitude: 0.0012, longitude: 0), routes: ["R1", "R3"])
        XCTAssertEqual(server.requestLog, ["realtime/vehicles/R1", "realtime/vehicles/R3"])
        XCTAssertEqual(resolved(promise)?.value?.vehicleID, "V10")
        XCTAssertEqual(resolved(tracker.nearestVehicle(to: Places.nowhere, routes: [])), .error(.notFound("vehicles")))
    }

    func testFeedPollsOnItsContextUntilStopped() {
        let tracker = VehicleTracker(server: FakeTransitServer())
        let updates = Counter()
        let feed = tracker.feed(routeID: "R1", interval: 0.05, context: .queue(TransitQueues.storage))
        feed.start { _ in updates.increment() }
        XCTAssertTrue(feed.isRunning)
        XCTAssertTrue(eventually { feed.values.count >= 3 })
        feed.stop()
        XCTAssertFalse(feed.isRunning)
        let seen = feed.values.count
        spin(0.3)
        XCTAssertLessThanOrEqual(feed.values.count, seen + 1)
        XCTAssertGreaterThanOrEqual(updates.value, 3)
        XCTAssertEqual(Set(feed.trace.entries), ["update@transit.storage"])
    }

    func testFeedKeepsPollingAfterErrors() {
        let server = FakeTransitServer()
        server.fail("realtime/", with: .offline)
        let tracker = VehicleTracker(server: server)
        let feed = tracker.feed(routeID: "R1", interval: 0.03)
        feed.start { _ in }
        XCTAssertTrue(eventually { feed.errors.count >= 2 })
        feed.stop()
        XCTAssertEqual(feed.values.count, 0)
        XCTAssertTrue(feed.errors.allSatisfy { $0 == .offline })
    }

    func testStoppingCancelsThePollInFlight() {
        let server = FakeTransitServer()
        server.hang("realtime/vehicles/R1")
        let tracker = VehicleTracker(server: server)
        let feed = PollingFeed<VehiclePosition>(interval: 0.05) {
            tracker.position(vehicleID: "V10", routeID: "R1")
        }
        feed.start { _ in }
        XCTAssertEqual(server.requestLog, ["realtime/vehicles/R1"])
        feed.stop()
        XCTAssertTrue(eventually { server.cancelledRequests == ["realtime/vehicles/R1"] })
    }
}
