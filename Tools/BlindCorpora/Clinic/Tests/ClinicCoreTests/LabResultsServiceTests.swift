import Foundation
import XCTest
import Tomorrowland
@testable import ClinicCore

final class LabResultsServiceTests: XCTestCase {
    func testResultsAreSortedByTestNameDescending() {
        let service = LabResultsService(server: makeServer())
        let results = waitForValue(service.results(patientID: "p1"))
        XCTAssertEqual(results?.map(\.test), ["iron", "glucose"])
    }

    func testResultsMapOnTheLabsQueue() {
        let service = LabResultsService(server: makeServer())
        let exp = expectation(description: "mapped")
        service.results(patientID: "p1").then(on: .immediate) { _ in
            XCTAssertEqual(ClinicQueues.current, "clinic.labs")
            exp.fulfill()
        }
        waitForExpectations(timeout: 5)
    }

    func testSlowResultsTimeOut() {
        let server = makeServer()
        server.hangingPaths = ["GET /labs?patient=p1"]
        let service = LabResultsService(server: server, deadline: 0.05)
        XCTAssertEqual(waitForError(service.results(patientID: "p1")), .timedOut)
    }

    func testPollingStopsWhenTheResultIsFinal() {
        let server = makeServer()
        server.pollsUntilFinal = ["L2": 2]
        let service = LabResultsService(server: server, pollInterval: 0.01)
        let result = waitForValue(service.pollUntilFinal(resultID: "L2"))
        XCTAssertEqual(result?.isFinal, true)
        XCTAssertEqual(server.requests.filter { $0 == "GET /labs/L2" }.count, 3)
    }

    func testPollingGivesUpAfterTheLastAttempt() {
        let server = makeServer()
        server.pollsUntilFinal = ["L2": 10]
        let service = LabResultsService(server: server, pollInterval: 0.01)
        XCTAssertEqual(waitForError(service.pollUntilFinal(resultID: "L2", attempts: 3)), .timedOut)
        XCTAssertEqual(server.requests.count, 3)
    }

    func testPrefetchIsSharedAndSurvivesAViewerCancelling() {
        let server = makeServer()
        server.latency = 0.1
        let service = LabResultsService(server: server)
        let firstViewer = service.prefetch(patientID: "p1")
        let secondViewer = service.prefetch(patientID: "p1")
        firstViewer.requestCancel()
        let value = waitForValue(secondViewer)
        XCTAssertEqual(value?.count, 2)
        XCTAssertEqual(server.requests, ["GET /labs?patient=p1"])
        XCTAssertEqual(server.cancelledRequests, [])
    }

    func testDelayedResultsArriveAfterTheDelay() {
        let server = makeServer()
        server.latency = 0.01
        let service = LabResultsService(server: server)
        let start = Date()
        let promise = service.delayedResults(patientID: "p1", by: 0.2)
        let results = waitForValue(promise)
        XCTAssertEqual(results?.count, 2)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.15)
    }

    func testAverageOfNoResultsIsInvalid() {
        let service = LabResultsService(server: makeServer())
        XCTAssertEqual(waitForError(service.averageValue(of: [])), .invalid("no results"))
    }

    func testAverageValue() {
        let service = LabResultsService(server: makeServer())
        let sem = DispatchSemaphore(value: 0)
        var average: Double?
        service.averageValue(of: makeServer().labResults["p1"]!).then(on: .utility) { value in
            average = value
            sem.signal()
        }
        XCTAssertEqual(sem.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(average ?? 0, 11.2, accuracy: 0.0001)
    }

    func testInvalidatingTheTokenCancelsTheRequestAndSkipsTheCallback() {
        let server = makeServer()
        server.hangingPaths = ["GET /labs?patient=p1"]
        let service = LabResultsService(server: server)
        let token = PromiseInvalidationToken()
        let shown = expectation(description: "shown")
        shown.isInverted = true
        let promise = service.results(patientID: "p1", token: token) { _ in shown.fulfill() }
        let cancelled = expectation(description: "cancelled")
        promise.onCancel(on: .utility) { cancelled.fulfill() }
        token.invalidate()
        wait(for: [cancelled, shown], timeout: 1)
        XCTAssertEqual(server.cancelledRequests, ["GET /labs?patient=p1"])
    }
}
