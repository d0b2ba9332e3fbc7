import Foundation
import Tomorrowland
import XCTest
@testable import PharmacyCore

final class PatientNotifierTests: XCTestCase {
    var journal: Journal!
    var backend: PharmacyBackend!
    var notifier: PatientNotifier!

    override func setUp() {
        super.setUp()
        journal = Journal()
        backend = Fixtures.backend()
        notifier = PatientNotifier(backend: backend, journal: journal)
    }

    func testNotifyReadyTellsThePatient() {
        XCTAssertEqual(waitForValue(notifier.notifyReady(Fixtures.amoxicillin)), true)
        XCTAssertEqual(notifier.sentTo, ["Ada"])
        XCTAssertEqual(notifier.failedMessages, 0)
    }

    func testUnreachablePatientIsTriedTwiceThenReportedFalse() {
        backend.unreachablePatients = ["Bo"]
        XCTAssertEqual(waitForValue(notifier.notifyReady(Fixtures.insulin)), false)
        XCTAssertEqual(notifier.failedMessages, 1)
        XCTAssertEqual(backend.requestCount, 2)
        XCTAssertEqual(notifier.sentTo, [])
    }

    func testNotifierGoneBeforeTheAnswerStillResolves() {
        backend.latency = 0.3
        var notifier: PatientNotifier? = PatientNotifier(backend: backend, journal: journal)
        let promise = notifier!.notifyReady(Fixtures.amoxicillin)
        notifier = nil
        XCTAssertEqual(waitForValue(promise), false)
        XCTAssertEqual(journal.entries, ["notifier gone: Ada not told"])
        XCTAssertEqual(backend.requestCount, 1)
    }

    func testNotifyAllFromTheBackgroundKeepsTheOrderAndShowsABanner() {
        Fixtures.labelMainQueue()
        backend.unreachablePatients = ["Bo"]
        let done = expectation(description: "everyone notified")
        var flags: [Bool] = []
        DispatchQueue.global(qos: .utility).async {
            _ = self.notifier.notifyAll([Fixtures.amoxicillin, Fixtures.insulin]).then(on: .immediate) { told in
                flags = told
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(flags, [true, false])
        XCTAssertEqual(journal.entries, ["notify 2 patients", "banner: 1 of 2 told"])
    }
}
