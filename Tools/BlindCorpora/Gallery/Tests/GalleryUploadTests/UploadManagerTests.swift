import Foundation
import GalleryCore
import GalleryUpload
import Tomorrowland
import XCTest

final class UploadManagerTests: XCTestCase {
    func testUploadGivesTheReceipt() throws {
        let manager = UploadManager(client: FakeUploadClient())

        let receipt = try value(of: manager.upload(Data(count: 5), for: "a"))

        XCTAssertEqual(receipt, UploadReceipt(assetID: "a", remoteURL: "https://cdn.example/uploads/a"))
    }

    func testTheUploadIsCountedDuringTheCall() {
        let client = FakeUploadClient()
        client.behave(.hold, for: "a")
        let manager = UploadManager(client: client)

        let promise = manager.upload(Data(count: 5), for: "a")

        XCTAssertEqual(manager.startedCount, 1)
        XCTAssertEqual(manager.progress(of: "a"), 0)
        promise.requestCancel()
        XCTAssertEqual(result(of: promise)?.isCancelled, true)
    }

    func testProgressIsReportedWhileInFlightAndClearedAfter() throws {
        let client = FakeUploadClient()
        client.behave(.hold, for: "a")
        let sent = expectation(description: "request sent")
        client.whenSent = { _ in sent.fulfill() }
        let manager = UploadManager(client: client)

        let promise = manager.upload(Data(count: 5), for: "a")
        wait(for: [sent], timeout: 10)
        client.reportProgress(0.5, for: "a")
        XCTAssertEqual(manager.progress(of: "a"), 0.5)
        client.complete("a", with: .success("https://cdn.example/a"))

        XCTAssertEqual(try value(of: promise).remoteURL, "https://cdn.example/a")
        XCTAssertNil(manager.progress(of: "a"))
    }

    func testOverQuotaIsRejectedDuringTheCall() {
        let manager = UploadManager(client: FakeUploadClient(), quotaBytes: 10)

        let promise = manager.upload(Data(count: 11), for: "big")

        XCTAssertEqual(promise.result, .error(.quotaExceeded(used: 0, limit: 10)))
        XCTAssertEqual(manager.startedCount, 0)
    }

    func testAFailedUploadGivesItsQuotaBack() throws {
        let client = FakeUploadClient()
        client.behave(.fail(.offline), for: "a")
        let manager = UploadManager(client: client, quotaBytes: 10)

        XCTAssertEqual(error(of: manager.upload(Data(count: 8), for: "a")), .offline)
        XCTAssertEqual(try value(of: manager.upload(Data(count: 8), for: "b")).assetID, "b")
        XCTAssertEqual(error(of: manager.upload(Data(count: 8), for: "c")), .quotaExceeded(used: 8, limit: 10))
    }

    func testACancelRequestReachesTheRequestInFlight() {
        let client = FakeUploadClient()
        client.behave(.hold, for: "a")
        let sent = expectation(description: "request sent")
        client.whenSent = { _ in sent.fulfill() }
        let manager = UploadManager(client: client)

        let promise = manager.upload(Data(count: 5), for: "a")
        wait(for: [sent], timeout: 10)
        promise.requestCancel()

        XCTAssertEqual(result(of: promise)?.isCancelled, true)
        XCTAssertEqual(client.cancelledPaths, ["uploads/a"])
    }

    func testAnUploadThatNeverAnswersTimesOut() {
        let client = FakeUploadClient()
        client.behave(.hold, for: "a")
        let manager = UploadManager(client: client, timeout: 0.05)

        XCTAssertEqual(error(of: manager.upload(Data(count: 5), for: "a")), .timedOut)
    }

    func testTheReceiptArrivesAfterTheManagerIsReleased() throws {
        let client = FakeUploadClient()
        client.behave(.hold, for: "a")
        let sent = expectation(description: "request sent")
        client.whenSent = { _ in sent.fulfill() }
        var manager: UploadManager? = UploadManager(client: client)

        let promise = manager!.upload(Data(count: 5), for: "a")
        wait(for: [sent], timeout: 10)
        manager = nil
        client.reportProgress(0.3, for: "a")
        client.complete("a", with: .success("https://cdn.example/late"))

        XCTAssertEqual(try value(of: promise).remoteURL, "https://cdn.example/late")
    }

    func testUploadAllGivesReceiptsInIDOrder() throws {
        let manager = UploadManager(client: FakeUploadClient())

        let receipts = try value(of: manager.uploadAll(["b": Data(count: 1), "a": Data(count: 2)]))

        XCTAssertEqual(receipts.map { $0.assetID }, ["a", "b"])
    }

    func testUploadAllCancelsTheRestWhenOneFails() {
        let client = FakeUploadClient()
        client.behave(.hold, for: "a")
        client.behave(.fail(.permissionDenied), for: "b")
        let heldCancelled = expectation(description: "held upload cancelled")
        client.whenCancelled = { path in
            if path == "uploads/a" { heldCancelled.fulfill() }
        }
        let manager = UploadManager(client: client)

        XCTAssertEqual(error(of: manager.uploadAll(["a": Data(count: 1), "b": Data(count: 1)])), .permissionDenied)
        wait(for: [heldCancelled], timeout: 10)
    }
}
