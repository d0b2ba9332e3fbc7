import Foundation
import GalleryCore
import GalleryUI
import GalleryUpload
import TomorrowlandAsync
import XCTest

/// Calls the async twins of the promise functions (`func f(…) async throws -> T` next to
/// `func f(…) -> Promise<T, E>`), as code migrated to async/await does.
final class TwinTests: XCTestCase {
    func testCameraRollListsAssetsThroughTheProtocolTwin() async throws {
        let roll = CameraRollSource(assets: [Asset(id: "b"), Asset(id: "a")])

        let assets = try await roll.listAssets()

        XCTAssertEqual(assets.map { $0.id }, ["a", "b"])
    }

    func testTheTwinThrowsTheTypedError() async {
        let roll = CameraRollSource(assets: [], permissionGranted: false)

        do {
            _ = try await roll.listAssets()
            XCTFail("expected permissionDenied")
        } catch let error as GalleryError {
            XCTAssertEqual(error, .permissionDenied)
        } catch {
            XCTFail("unexpected \(error)")
        }
    }

    func testCloudFetchTwinAndTaskCancellationReachesTheRequest() async throws {
        let transport = TableTransport(["hello": Data("hi".utf8)])
        let cloud = CloudAccountSource(name: "Cloud", transport: transport)
        let data = try await cloud.fetch("hello")
        XCTAssertEqual(data, Data("hi".utf8))

        let sent = expectation(description: "slow request sent")
        transport.whenSent = { path in if path == "slow" { sent.fulfill() } }
        let task = Task { try await cloud.fetch("slow") }
        await fulfillment(of: [sent], timeout: 10)
        task.cancel()

        do {
            _ = try await task.value
            XCTFail("expected cancellation")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(transport.cancelledPaths, ["slow"])
    }

    func testRetryingTwinRetriesWhileOffline() async throws {
        let attempts = Counter()

        let value = try await retrying(attempts: 3) { () -> GalleryPromise<Int> in
            attempts.increment() < 2 ? Promise(rejected: .offline) : Promise(fulfilled: 7)
        }

        XCTAssertEqual(value, 7)
        XCTAssertEqual(attempts.value, 3)
    }

    func testGuaranteedTwinsNeverThrowAnError() async throws {
        let missing: Int? = try await valueOrNil(GalleryPromise<Int>(rejected: .offline))
        let kept: [Int] = try await settled([Promise(fulfilled: 1), Promise(rejected: .offline), Promise(fulfilled: 3)])

        XCTAssertNil(missing)
        XCTAssertEqual(kept, [1, 3])
    }

    func testRaceTwin() async throws {
        let first: Int = try await race([GalleryPromise(fulfilled: 1), GalleryPromise(on: .utility, fulfilled: 2, after: 5)])

        XCTAssertEqual(first, 1)
    }

    func testThumbnailTwins() async throws {
        let source = RecordingSource(assets: [], originals: ["a": Data([1, 2]), "b": Data([3])])
        let service = ThumbnailService(source: source, side: 4)

        let one = try await service.thumbnail(for: Asset(id: "a"))
        let page = try await service.thumbnails(for: [Asset(id: "a"), Asset(id: "missing"), Asset(id: "b")])
        let withDeadline = try await service.thumbnail(for: Asset(id: "b"), deadline: 10)

        XCTAssertEqual(one.assetID, "a")
        XCTAssertEqual(page.map { $0.assetID }, ["a", "b"])
        XCTAssertEqual(withDeadline.assetID, "b")
    }

    func testImportTwins() async throws {
        let source = RecordingSource(assets: [Asset(id: "1"), Asset(id: "2")], originals: ["1": Data(count: 4)])
        let importer = ImportService(sources: [source])

        let summary = try await importer.importAll()
        let sizes = try await importer.download([Asset(id: "1")], from: source)

        XCTAssertEqual(summary, ImportSummary(imported: 2, skipped: 0, failedSources: []))
        XCTAssertEqual(sizes, ["1": 4])
    }

    func testActorAndGlobalActorTwins() async throws {
        let store = AlbumStore()
        let created = try await store.create("Trips")
        let added = try await store.add(["x"], to: "Trips")
        let lookedUp = try await store.album(named: "Trips")
        let preview = try await PreviewRenderer(side: 10).preview(of: Asset(id: "p", width: 10, height: 10))

        XCTAssertEqual(created, Album(name: "Trips"))
        XCTAssertEqual(added.assetIDs, ["x"])
        XCTAssertEqual(lookedUp, added)
        XCTAssertEqual(preview.assetID, "p")
    }

    func testFaceTwins() async throws {
        let quick = QuickFaceDetector(model: ["a": [0.9, 0.1]])
        let tagger = FaceTagger(detectors: [quick])

        let faces = try await quick.detectFaces(in: Asset(id: "a"))
        let detected = try await tagger.detect(in: Asset(id: "a"))
        let count = try await tagger.tagAll([Asset(id: "a")])

        XCTAssertEqual(faces.count, 2)
        XCTAssertEqual(detected, faces)
        XCTAssertEqual(count, 1)
    }

    func testEditHistoryTwins() async throws {
        let history = EditHistory(assetID: "a")

        let version = try await history.apply(.rotate(degrees: 90))
        let afterUndo = try await history.undo()
        let redone = try await history.redo()
        let sidecar = try await history.exportSidecar()

        XCTAssertEqual(version, 1)
        XCTAssertEqual(afterUndo, 0)
        XCTAssertEqual(redone, 1)
        XCTAssertEqual(String(decoding: sidecar, as: UTF8.self), "rotate(degrees: 90)")
    }

    func testUploadAndShareTwins() async throws {
        let uploads = UploadManager(client: AcceptingUploadClient())
        let transport = TableTransport([
            "share/settings": Data("7d".utf8),
            "share/Trip?n=1&expiry=7d": Data("https://gal.example/t".utf8),
        ])
        let sharing = ShareService(uploads: uploads, links: CloudAccountSource(name: "Backend", transport: transport), originals: { _ in Data([1]) })

        let receipt = try await uploads.upload(Data(count: 3), for: "a")
        let all = try await uploads.uploadAll(["b": Data(count: 1)])
        let link = try await sharing.share(Album(name: "Trip", assetIDs: ["c"]), with: ["ann"])

        XCTAssertEqual(receipt.assetID, "a")
        XCTAssertEqual(all.map { $0.assetID }, ["b"])
        XCTAssertEqual(link.url, "https://gal.example/t")
    }

    func testShareWithinTwinTimesOut() async {
        let uploads = UploadManager(client: AcceptingUploadClient())
        let sharing = ShareService(uploads: uploads, links: CloudAccountSource(name: "Backend", transport: TableTransport()), originals: { _ in Data([1]) })

        do {
            _ = try await sharing.share(Album(name: "Slow", assetIDs: []), with: ["ann"], within: 0.05)
            XCTFail("expected a timeout")
        } catch {
            XCTAssertEqual(error as? GalleryError, .timedOut)
        }
    }

    func testBackgroundUploaderTwins() async throws {
        let uploader = BackgroundUploader(uploads: UploadManager(client: AcceptingUploadClient()))

        let receipt = try await uploader.enqueue(Data(count: 1), for: "bg")
        try await uploader.drain()

        XCTAssertEqual(receipt.assetID, "bg")
        XCTAssertEqual(uploader.completed, ["bg"])
    }

    func testMainActorViewModelTwin() async throws {
        let roll = CameraRollSource(assets: [Asset(id: "r")], originals: ["r": Data([1])])
        let model = await GalleryViewModel(
            importer: ImportService(sources: [roll]),
            thumbnails: ThumbnailService(source: roll),
            sharing: ShareService(
                uploads: UploadManager(client: AcceptingUploadClient()),
                links: CloudAccountSource(name: "B", transport: TableTransport()),
                originals: { _ in nil }
            )
        )

        let summary = try await model.reload()
        let count = try await model.loadThumbnails(for: [Asset(id: "r")])

        XCTAssertEqual(summary.imported, 1)
        XCTAssertEqual(count, 1)
        let shown = await model.summary
        XCTAssertEqual(shown, summary)
    }
}

/// A thread-safe counter for closures that run on other threads.
final class Counter: @unchecked Sendable {
    // Safe to share: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0

    /// Adds one and gives the value before.
    func increment() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count - 1
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}
