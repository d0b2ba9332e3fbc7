import Foundation
import Tomorrowland
import TransitCore
import XCTest

final class AlertServiceTests: XCTestCase {
    func testFeedIsNotFetchedUntilFirstUse() {
        let server = FakeTransitServer()
        let alerts = AlertService(server: server)
        spin(0.1)
        XCTAssertEqual(alerts.events, [])
        XCTAssertEqual(server.requestCount("alerts"), 0)
    }

    func testActiveAlertsMostSevereFirst() {
        let alerts = AlertService(server: FakeTransitServer())
        XCTAssertEqual(resolved(alerts.activeAlerts())?.value?.map { $0.id }, ["A2", "A1", "A3"])
        XCTAssertEqual(alerts.events, ["feed.fetch"])
    }

    func testFeedIsFetchedOnceForEveryCaller() {
        let server = FakeTransitServer()
        let alerts = AlertService(server: server)
        let first = alerts.activeAlerts()
        let second = alerts.alerts(routeID: "R2")
        _ = resolved(first)
        _ = resolved(second)
        _ = resolved(alerts.activeAlerts())
        XCTAssertEqual(server.requestCount("alerts"), 1)
    }

    func testAlertsOfARouteBySeverity() {
        let alerts = AlertService(server: FakeTransitServer())
        XCTAssertEqual(resolved(alerts.alerts(routeID: "R2"))?.value?.map { $0.id }, ["A1", "A3"])
        XCTAssertEqual(resolved(alerts.alerts(routeID: "R2", atLeast: .warning))?.value?.map { $0.id }, ["A1"])
    }

    func testHeadline() {
        let alerts = AlertService(server: FakeTransitServer())
        XCTAssertEqual(resolved(alerts.headline(routeID: "R3"))?.value, .some("University branch closed for works"))
        XCTAssertEqual(resolved(alerts.headline(routeID: "R7"))?.value, .some(nil))
    }

    func testHeadlineIsNilAndLoggedWhenTheFeedFails() {
        let server = FakeTransitServer()
        server.fail("alerts", with: .offline)
        let alerts = AlertService(server: server)
        XCTAssertEqual(resolved(alerts.headline(routeID: "R3"))?.value, .some(nil))
        XCTAssertEqual(alerts.events, ["feed.fetch", "headline.error offline"])
    }

    func testDismissHidesTheAlert() {
        let alerts = AlertService(server: FakeTransitServer())
        XCTAssertNotNil(resolved(alerts.dismiss(alertID: "A2"))?.value)
        XCTAssertEqual(resolved(alerts.activeAlerts())?.value?.map { $0.id }, ["A1", "A3"])
        XCTAssertEqual(alerts.events, ["dismiss A2", "feed.fetch"])
    }

    func testCancelledDismissIsReported() {
        let server = FakeTransitServer()
        server.hang("alerts/A1/dismiss")
        let alerts = AlertService(server: server)
        let promise = alerts.dismiss(alertID: "A1")
        XCTAssertEqual(alerts.events, ["dismiss A1"])
        promise.requestCancel()
        XCTAssertEqual(resolved(promise)?.isCancelled, true)
        XCTAssertTrue(eventually { alerts.events == ["dismiss A1", "dismiss.cancelled A1"] })
        XCTAssertEqual(server.cancelledRequests, ["alerts/A1/dismiss"])
    }
}
