import Foundation
import GalleryCore
import Tomorrowland
import XCTest

final class HelperTests: XCTestCase {
    func testRetryingRetriesWhileOffline() throws {
        let calls = OrderLog()

        let promise = retrying(attempts: 3) { () -> GalleryPromise<Int> in
            calls.append("call")
            if calls.all.count < 3 {
                return Promise(rejected: .offline)
            }
            return Promise(fulfilled: 42)
        }

        XCTAssertEqual(try value(of: promise), 42)
        XCTAssertEqual(calls.all.count, 3)
    }

    func testRetryingGivesUpOnAnErrorNotWorthRetrying() {
        let calls = OrderLog()

        let promise = retrying(attempts: 5) { () -> GalleryPromise<Int> in
            calls.append("call")
            return Promise(rejected: .permissionDenied)
        }

        XCTAssertEqual(error(of: promise), .permissionDenied)
        XCTAssertEqual(calls.all.count, 1)
    }

    func testRetryingStopsAfterTheLastAttempt() {
        let calls = OrderLog()

        let promise = retrying(attempts: 2, delay: 0.01) { () -> GalleryPromise<String> in
            calls.append("call")
            return Promise(rejected: .timedOut)
        }

        XCTAssertEqual(error(of: promise), .timedOut)
        XCTAssertEqual(calls.all.count, 2)
    }

    func testValueOrNilOfARejectedPromiseIsNilAtOnce() {
        let promise = valueOrNil(GalleryPromise<Int>(rejected: .offline))

        XCTAssertEqual(promise.result?.value, .some(nil))
    }

    func testSettledKeepsTheValuesInOrder() {
        let promises: [GalleryPromise<Int>] = [Promise(fulfilled: 1), Promise(rejected: .offline), Promise(on: .utility) { $0.fulfill(with: 3) }]

        XCTAssertEqual(result(of: settled(promises))?.value, [1, 3])
    }

    func testRaceTakesTheFirstAnswerAndCancelsTheOther() {
        let transport = ManualTransport()
        let cloud = CloudAccountSource(name: "Cloud", transport: transport)

        let loserCancelled = expectation(description: "losing request cancelled")
        transport.whenCancelled = { path in
            if path == "mirror/a" { loserCancelled.fulfill() }
        }

        let promise = race([cloud.fetch("mirror/a"), cloud.fetch("mirror/b")])
        transport.reply(to: "mirror/b", data: Data("b".utf8))

        XCTAssertEqual(result(of: promise)?.value, Data("b".utf8))
        wait(for: [loserCancelled], timeout: 10)
        XCTAssertEqual(transport.cancelledPaths, ["mirror/a"])
    }

    func testGalleryErrorFromATimeout() {
        XCTAssertEqual(GalleryError(PromiseTimeoutError<GalleryError>.timedOut), .timedOut)
        XCTAssertEqual(GalleryError(PromiseTimeoutError<GalleryError>.rejected(.offline)), .offline)
        XCTAssertEqual(GalleryError(GalleryError.permissionDenied), .permissionDenied)
    }
}
