import Foundation
import Tomorrowland
import TransitCore
import XCTest

final class DepartureServiceTests: XCTestCase {
    func testDeparturesAreSortedAndLimited() {
        let service = DepartureService(server: FakeTransitServer())
        let result = resolved(service.departures(stopID: "S1", limit: 2))
        XCTAssertEqual(result?.value?.map { $0.scheduledMinute }, [482, 485])
    }

    func testSortingRunsOnTheDecodeQueue() {
        let service = DepartureService(server: FakeTransitServer())
        _ = resolved(service.departures(stopID: "S1"))
        XCTAssertEqual(service.trace.entries, ["sort@transit.decode"])
    }

    func testUnknownStopAndBadLimit() {
        let server = FakeTransitServer()
        let service = DepartureService(server: server)
        XCTAssertEqual(resolved(service.departures(stopID: "S9")), .error(.notFound("S9")))
        XCTAssertEqual(service.departures(stopID: "S1", limit: 0).result, .error(.invalidRequest("limit")))
        XCTAssertEqual(server.requestLog, ["departures/S9"])
    }

    func testNextDepartureOfARoute() {
        let service = DepartureService(server: FakeTransitServer())
        XCTAssertEqual(resolved(service.nextDeparture(stopID: "S1", routeID: "R2"))?.value?.headsign, "Harbour")
        XCTAssertEqual(resolved(service.nextDeparture(stopID: "S1", routeID: "R9")), .error(.notFound("R9@S1")))
    }

    func testLiveDeparturesApplyDelaysAndResort() {
        let server = FakeTransitServer()
        server.delays = ["R1": 10]
        let service = DepartureService(server: server)
        let result = resolved(service.liveDepartures(stopID: "S1"))
        XCTAssertEqual(result?.value?.map { $0.expectedMinute }, [485, 490, 492, 507])
        XCTAssertEqual(result?.value?.map { $0.routeID }, ["R3", "R2", "R1", "R1"])
    }

    func testLiveDeparturesStartBothRequestsInTheCall() {
        let server = FakeTransitServer()
        let service = DepartureService(server: server)
        let promise = service.liveDepartures(stopID: "S2")
        XCTAssertEqual(server.requestLog, ["departures/S2", "realtime/delays/S2"])
        _ = resolved(promise)
    }

    func testLiveDeparturesMergeOnAUtilityQueueByDefault() {
        let service = DepartureService(server: FakeTransitServer())
        _ = resolved(service.liveDepartures(stopID: "S2"))
        XCTAssertEqual(service.trace.entries, ["sort@transit.decode", "merge@unnamed"])
    }

    func testLiveDeparturesFailureCancelsTheOtherRequest() {
        let server = FakeTransitServer()
        server.hang("departures/")
        server.fail("realtime/", with: .server(status: 503))
        let service = DepartureService(server: server)
        XCTAssertEqual(resolved(service.liveDepartures(stopID: "S1")), .error(.server(status: 503)))
        XCTAssertTrue(eventually { server.cancelledRequests == ["departures/S1"] })
    }

    func testBoardRequestsEveryStopInOrder() {
        let server = FakeTransitServer()
        let service = DepartureService(server: server)
        let promise = service.board(stopIDs: ["S1", "S2"], limit: 1)
        XCTAssertEqual(server.requestLog, ["departures/S1", "departures/S2"])
        let board = resolved(promise)?.value
        XCTAssertEqual(board?["S1"]?.map { $0.scheduledMinute }, [482])
        XCTAssertEqual(board?["S2"]?.map { $0.scheduledMinute }, [481])
    }

    func testBoardFailsWithTheFirstFailure() {
        let service = DepartureService(server: FakeTransitServer())
        XCTAssertEqual(resolved(service.board(stopIDs: ["S1", "S9"])), .error(.notFound("S9")))
    }

    func testTimeoutGivesTimedOut() {
        let server = FakeTransitServer()
        server.setLatency(5, for: "departures/S2")
        let service = DepartureService(server: server)
        XCTAssertEqual(resolved(service.departures(stopID: "S2", timeout: 0.05)), .error(.timedOut))
    }

    func testTimeoutPassesValuesAndErrorsThrough() {
        let service = DepartureService(server: FakeTransitServer())
        XCTAssertEqual(resolved(service.departures(stopID: "S2", timeout: 5))?.value?.count, 2)
        XCTAssertEqual(resolved(service.departures(stopID: "S9", timeout: 5)), .error(.notFound("S9")))
    }

    func testFastestDeparturesTakesTheMirrorAndCancelsThePrimary() {
        let server = FakeTransitServer()
        server.setLatency(3, for: "primary/")
        let service = DepartureService(server: server)
        XCTAssertEqual(resolved(service.fastestDepartures(stopID: "S1"))?.value?.count, 4)
        XCTAssertTrue(eventually { server.cancelledRequests == ["primary/departures/S1"] })
    }

    func testDepartureCountNeverFails() {
        let service = DepartureService(server: FakeTransitServer())
        XCTAssertEqual(resolved(service.departureCount(stopID: "S1"))?.value, 4)
        XCTAssertEqual(resolved(service.departureCount(stopID: "S9"))?.value, 0)
    }

    func testMergedDeparturesAcrossStops() {
        let service = DepartureService(server: FakeTransitServer())
        let merged = resolved(mergedDepartures(service, stopIDs: ["S1", "S2"], limit: 2))?.value
        XCTAssertEqual(merged?.map { "\($0.stopID)@\($0.scheduledMinute)" }, ["S2@481", "S1@482", "S1@485", "S2@496"])
        XCTAssertEqual(resolved(mergedDepartures(service, stopIDs: ["S9"])), .error(.notFound("S9")))
    }

    func testFareQuote() {
        let server = FakeTransitServer()
        XCTAssertEqual(resolved(TicketWallet.fareQuote(.day, server: server))?.value, 700)
        server.fares[.week] = nil
        XCTAssertEqual(resolved(TicketWallet.fareQuote(.week, server: server)), .error(.notFound("week")))
    }
}
