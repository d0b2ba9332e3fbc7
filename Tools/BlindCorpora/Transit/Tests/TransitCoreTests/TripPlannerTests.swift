import Foundation
import Tomorrowland
import TransitCore
import XCTest

final class TripPlannerTests: XCTestCase {
    private func makePlanner(_ server: FakeTransitServer, queue: OperationQueue = TransitQueues.routing) -> TripPlanner {
        TripPlanner(stops: RemoteStopService(server: server), server: server, routingQueue: queue)
    }

    func testPlanWithOneTransferAtTheHub() {
        let planner = makePlanner(FakeTransitServer())
        let itinerary = resolved(planner.plan(from: Places.nearMarket, to: Places.nearUniversity, departingAfter: 480))?.value
        XCTAssertEqual(itinerary?.legs, [
            Leg(routeID: "R1", from: "S2", to: "S1", departMinute: 481, arriveMinute: 483),
            Leg(routeID: "R3", from: "S1", to: "S4", departMinute: 486, arriveMinute: 499),
        ])
        XCTAssertEqual(itinerary?.transfers, 1)
        XCTAssertEqual(itinerary?.duration, 18)
    }

    func testDirectPlan() {
        let planner = makePlanner(FakeTransitServer())
        let itinerary = resolved(planner.plan(from: Places.nearCentral, to: Places.nearUniversity, departingAfter: 480))?.value
        XCTAssertEqual(itinerary?.legs.count, 1)
        XCTAssertEqual(itinerary?.arriveMinute, 494)
    }

    func testTransferTimeIsConfigurable() {
        let planner = makePlanner(FakeTransitServer())
        planner.transferMinutes = 10
        let itinerary = resolved(planner.plan(from: Places.nearMarket, to: Places.nearUniversity, departingAfter: 480))?.value
        XCTAssertEqual(itinerary?.arriveMinute, 506)
    }

    func testStatementsBeforeTheChainRunDuringTheCall() {
        let server = FakeTransitServer()
        let planner = makePlanner(server)
        let promise = planner.plan(from: Places.nearMarket, to: Places.nearUniversity, departingAfter: 480)
        XCTAssertEqual(planner.planCount, 1)
        XCTAssertEqual(planner.lastQuery, "0.0021,0.0->0.0301,0.0301@480")
        XCTAssertEqual(planner.log, ["plan.start"])
        XCTAssertEqual(server.requestLog, ["stops/near", "stops/near"])
        _ = resolved(promise)
        XCTAssertEqual(planner.log, ["plan.start", "plan.stops S2->S4", "plan.end"])
    }

    func testSamePlaceIsRejectedBeforeAnythingHappens() {
        let server = FakeTransitServer()
        let planner = makePlanner(server)
        let promise = planner.plan(from: Places.nearMarket, to: Places.nearMarket, departingAfter: 480)
        XCTAssertEqual(promise.result, .error(.invalidRequest("origin and destination are the same")))
        XCTAssertEqual(planner.planCount, 0)
        XCTAssertEqual(planner.log, [])
        XCTAssertEqual(server.requestLog, [])
    }

    func testNoRoute() {
        let planner = makePlanner(FakeTransitServer())
        XCTAssertEqual(resolved(planner.plan(from: Places.nearMarket, to: Places.nearAirport, departingAfter: 480)), .error(.noRoute))
        XCTAssertEqual(resolved(planner.plan(from: Places.nearMarket, to: Places.nowhere, departingAfter: 480)), .error(.noRoute))
        XCTAssertEqual(planner.log.last, "plan.end")
    }

    func testStopSearchFailureIsPassedOn() {
        let server = FakeTransitServer()
        server.fail("stops/near", with: .server(status: 500))
        let planner = makePlanner(server)
        XCTAssertEqual(resolved(planner.plan(from: Places.nearMarket, to: Places.nearUniversity, departingAfter: 480)),
                       .error(.server(status: 500)))
    }

    func testCancellingAPlanCancelsBothStopSearches() {
        let server = FakeTransitServer()
        server.hang("stops/near")
        let planner = makePlanner(server)
        let promise = planner.plan(from: Places.nearMarket, to: Places.nearUniversity, departingAfter: 480)
        promise.requestCancel()
        XCTAssertTrue(eventually { server.cancelledRequests.count == 2 })
        XCTAssertEqual(resolved(promise)?.isCancelled, true)
        XCTAssertEqual(planner.log, ["plan.start", "plan.cancelled"])
    }

    func testRouteWaitsForTheRoutingQueue() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let planner = makePlanner(FakeTransitServer(), queue: queue)
        let promise = planner.route(from: TransitFixtures.central, to: TransitFixtures.harbour, departingAfter: 600)
        spin(0.1)
        XCTAssertNil(promise.result)
        queue.isSuspended = false
        XCTAssertEqual(resolved(promise)?.value?.legs.map { $0.routeID }, ["R2"])
    }

    func testRouteCancelledBeforeItStarts() {
        let queue = OperationQueue()
        queue.isSuspended = true
        let planner = makePlanner(FakeTransitServer(), queue: queue)
        let promise = planner.route(from: TransitFixtures.central, to: TransitFixtures.harbour, departingAfter: 600)
        promise.requestCancel()
        queue.isSuspended = false
        XCTAssertEqual(resolved(promise)?.isCancelled, true)
    }

    func testRouteToTheSameStopHasNoLegs() {
        let planner = makePlanner(FakeTransitServer())
        let itinerary = resolved(planner.route(from: TransitFixtures.central, to: TransitFixtures.central, departingAfter: 600))?.value
        XCTAssertEqual(itinerary?.legs, [])
        XCTAssertEqual(itinerary.map(ItineraryFormatter.summary), "You are there")
    }

    func testBestPlanPicksTheEarliestArrivalAndSkipsFailures() {
        let planner = makePlanner(FakeTransitServer())
        let best = resolved(planner.bestPlan(from: [Places.nearMarket, Places.nearCentral, Places.nearUniversity],
                                             to: Places.nearUniversity, departingAfter: 480))
        XCTAssertEqual(best?.value?.arriveMinute, 494)
        XCTAssertEqual(resolved(planner.bestPlan(from: [Places.nearAirport], to: Places.nearUniversity, departingAfter: 480)),
                       .error(.noRoute))
    }

    func testSummaries() {
        let transfer = Itinerary(legs: [
            Leg(routeID: "R1", from: "S2", to: "S1", departMinute: 481, arriveMinute: 483),
            Leg(routeID: "R3", from: "S1", to: "S4", departMinute: 486, arriveMinute: 499),
        ])
        XCTAssertEqual(ItineraryFormatter.summary(transfer), "08:01–08:19 R1 → R3 (1 change)")
        XCTAssertEqual(ItineraryFormatter.clock(1_445), "00:05")
    }
}
