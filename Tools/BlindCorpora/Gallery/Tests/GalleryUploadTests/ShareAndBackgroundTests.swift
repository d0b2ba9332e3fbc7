import Foundation
import GalleryCore
import GalleryUpload
import Tomorrowland
import XCTest

final class ShareServiceTests: XCTestCase {
    private let originals: [String: Data] = ["p1": Data(count: 3), "p2": Data(count: 4)]

    private func makeService(client: FakeUploadClient = FakeUploadClient(), transport: ScriptedTransport) -> ShareService {
        transport.answer("share/settings", with: [.success(Data("7d".utf8))])
        let originals = self.originals
        return ShareService(
            uploads: UploadManager(client: client),
            links: CloudAccountSource(name: "Backend", transport: transport),
            originals: { originals[$0] }
        )
    }

    func testShareUploadsAndCreatesTheLink() throws {
        let transport = ScriptedTransport()
        transport.answer("share/Trip?n=2&expiry=7d", with: [.success(Data("https://gal.example/s/1".utf8))])
        let service = makeService(transport: transport)

        // The `within:` variant: its promise resolves after the share's `.main` tap was queued.
        let link = try value(of: service.share(Album(name: "Trip", assetIDs: ["p1", "p2"]), with: ["ann"], within: 60))
        drainMainQueue()

        XCTAssertEqual(link.url, "https://gal.example/s/1")
        XCTAssertEqual(link.recipients, ["ann"])
        XCTAssertEqual(service.shared["Trip"], link)
    }

    func testSharingWithNobodyFailsDuringTheCall() {
        let service = makeService(transport: ScriptedTransport())

        let promise = service.share(Album(name: "Trip", assetIDs: ["p1"]), with: [])

        XCTAssertEqual(promise.result?.error, .invalidEdit("no recipients"))
        XCTAssertEqual(service.attempts, 1)
    }

    func testAMissingOriginalIsNotFound() {
        let service = makeService(transport: ScriptedTransport())

        XCTAssertEqual(error(of: service.share(Album(name: "Trip", assetIDs: ["p1", "gone"]), with: ["ann"])), .notFound("gone"))
    }

    func testTheLinkRequestIsRetriedWhileOffline() throws {
        let transport = ScriptedTransport()
        transport.answer("share/Pets?n=1&expiry=7d", with: [.failure(.offline), .success(Data("https://gal.example/s/2".utf8))])
        let service = makeService(transport: transport)

        let link = try value(of: service.share(Album(name: "Pets", assetIDs: ["p1"]), with: ["bo"]))

        XCTAssertEqual(link.url, "https://gal.example/s/2")
        XCTAssertEqual(transport.requestedPaths.filter { $0.hasPrefix("share/Pets") }.count, 2)
    }

    func testSettingsAreFetchedOnceForSeveralShares() throws {
        let transport = ScriptedTransport()
        transport.answer("share/A?n=1&expiry=7d", with: [.success(Data("a".utf8))])
        transport.answer("share/B?n=1&expiry=7d", with: [.success(Data("b".utf8))])
        let service = makeService(transport: transport)

        _ = try value(of: service.share(Album(name: "A", assetIDs: ["p1"]), with: ["x"]))
        _ = try value(of: service.share(Album(name: "B", assetIDs: ["p2"]), with: ["x"]))

        XCTAssertEqual(transport.requestedPaths.filter { $0 == "share/settings" }.count, 1)
    }

    func testAShareThatTakesTooLongTimesOutAndCancelsItsUploads() {
        let client = FakeUploadClient()
        client.behave(.hold, for: "p1")
        let uploadCancelled = expectation(description: "upload cancelled")
        client.whenCancelled = { path in
            if path == "uploads/p1" { uploadCancelled.fulfill() }
        }
        let service = makeService(client: client, transport: ScriptedTransport())

        let promise = service.share(Album(name: "Slow", assetIDs: ["p1"]), with: ["ann"], within: 0.05)

        XCTAssertEqual(error(of: promise), .timedOut)
        wait(for: [uploadCancelled], timeout: 10)
    }
}

final class BackgroundUploaderTests: XCTestCase {
    func testUploadsRunOneAtATimeInOrder() throws {
        let client = FakeUploadClient()
        let uploader = BackgroundUploader(uploads: UploadManager(client: client))

        let first = uploader.enqueue(Data(count: 1), for: "a")
        let second = uploader.enqueue(Data(count: 1), for: "b")

        XCTAssertEqual(uploader.queued, 2)
        XCTAssertEqual(try value(of: second).assetID, "b")
        XCTAssertEqual(try value(of: first).assetID, "a")
        XCTAssertEqual(uploader.completed, ["a", "b"])
        XCTAssertEqual(client.sentPaths, ["uploads/a", "uploads/b"])
    }

    func testAPauseDelaysButStillUploads() throws {
        let uploader = BackgroundUploader(uploads: UploadManager(client: FakeUploadClient()))

        XCTAssertEqual(try value(of: uploader.enqueue(Data(count: 1), for: "burst", after: 0.05)).assetID, "burst")
    }

    func testAnUploadCancelledBeforeItStartsIsNeverSent() {
        let client = FakeUploadClient()
        let uploader = BackgroundUploader(uploads: UploadManager(client: client))
        uploader.isSuspended = true

        let promise = uploader.enqueue(Data(count: 1), for: "never")
        uploader.cancelAll()
        uploader.isSuspended = false

        XCTAssertEqual(result(of: promise)?.isCancelled, true)
        XCTAssertEqual(client.sentPaths, [])
    }

    func testDrainWaitsForTheQueuedUploads() {
        let client = FakeUploadClient()
        let uploader = BackgroundUploader(uploads: UploadManager(client: client))
        uploader.isSuspended = true
        _ = uploader.enqueue(Data(count: 1), for: "x")
        _ = uploader.enqueue(Data(count: 1), for: "y")

        let drained = uploader.drain()
        XCTAssertNil(drained.result)
        uploader.isSuspended = false

        XCTAssertNotNil(result(of: drained)?.value)
        XCTAssertEqual(client.sentPaths, ["uploads/x", "uploads/y"])
    }

    func testAFailedUploadIsNotRecordedAsCompleted() {
        let client = FakeUploadClient()
        client.behave(.fail(.offline), for: "bad")
        let uploader = BackgroundUploader(uploads: UploadManager(client: client))

        XCTAssertEqual(error(of: uploader.enqueue(Data(count: 1), for: "bad")), .offline)
        XCTAssertEqual(uploader.completed, [])
    }
}
