import Foundation
import GalleryCore
import GalleryUI
import GalleryUpload
import Tomorrowland
import XCTest

/// Waits for `promise` without a test case (usable from main-actor code that must not touch
/// the `XCTestCase`).
func settledResult<T, E>(of promise: Promise<T, E>, timeout: TimeInterval = 10) -> PromiseResult<T, E>? {
    let resolved = XCTestExpectation(description: "promise resolved")
    let box = Box<PromiseResult<T, E>>()
    promise.always(on: .immediate) { result in
        box.value = result
        resolved.fulfill()
    }
    XCTAssertEqual(XCTWaiter().wait(for: [resolved], timeout: timeout), .completed)
    return box.value
}

/// The services behind one view model, with fakes at the edges.
@MainActor
final class ModelFixture {
    let client = FakeUploadClient()
    let transport = ScriptedTransport()
    let roll = CameraRollSource(assets: [Asset(id: "r1"), Asset(id: "r2")], originals: ["r1": Data([1]), "r2": Data([2, 2])])

    func makeModel(sources: [AssetSource]? = nil) -> GalleryViewModel {
        transport.answer("share/settings", with: [.success(Data("1d".utf8))])
        return GalleryViewModel(
            importer: ImportService(sources: sources ?? [roll]),
            thumbnails: ThumbnailService(source: roll, side: 8),
            sharing: ShareService(
                uploads: UploadManager(client: client),
                links: CloudAccountSource(name: "Backend", transport: transport),
                originals: { id in id == "r1" ? Data([1]) : nil }
            )
        )
    }
}

/// The view model is main-actor code; XCTest runs these tests on the main thread, and
/// `MainActor.assumeIsolated` lets them call it synchronously (XCTest on Linux cannot run
/// `@MainActor` test methods).
final class GalleryViewModelTests: XCTestCase {
    func testReloadShowsTheSummary() {
        MainActor.assumeIsolated {
            let model = ModelFixture().makeModel()

            let summary = settledResult(of: model.reload())?.value

            XCTAssertEqual(summary?.imported, 2)
            XCTAssertEqual(model.summary, summary)
            XCTAssertEqual(model.statusLine, "2 new photos")
            XCTAssertFalse(model.isLoading)
        }
    }

    func testTheSpinnerShowsFromTheCallOn() {
        MainActor.assumeIsolated {
            let model = ModelFixture().makeModel()

            let promise = model.reload()

            XCTAssertTrue(model.isLoading)
            XCTAssertNil(model.errorMessage)
            _ = settledResult(of: promise)
            XCTAssertFalse(model.isLoading)
        }
    }

    func testAFailedReloadShowsTheError() {
        MainActor.assumeIsolated {
            let model = ModelFixture().makeModel(sources: [StubFailingSource()])

            XCTAssertEqual(settledResult(of: model.reload())?.error, .decodeFailed("feed"))
            XCTAssertEqual(model.errorMessage, "could not decode: feed")
            XCTAssertNil(model.summary)
        }
    }

    func testThumbnailsOfTheVisibleCells() {
        MainActor.assumeIsolated {
            let model = ModelFixture().makeModel()

            let count = settledResult(of: model.loadThumbnails(for: [Asset(id: "r1"), Asset(id: "r2"), Asset(id: "none")]))

            XCTAssertEqual(count?.value, 2)
            XCTAssertEqual(Set(model.thumbnails.keys), ["r1", "r2"])
        }
    }

    func testShareAddsTheLink() {
        MainActor.assumeIsolated {
            let fixture = ModelFixture()
            fixture.transport.answer("share/Best?n=1&expiry=1d", with: [.success(Data("https://gal.example/best".utf8))])
            let model = fixture.makeModel()

            let link = settledResult(of: model.share(Album(name: "Best", assetIDs: ["r1"]), with: ["kim"]))?.value

            XCTAssertEqual(link?.url, "https://gal.example/best")
            XCTAssertEqual(model.sharedLinks.map { $0.url }, ["https://gal.example/best"])
            XCTAssertEqual(model.statusLine, "Shared Best")
        }
    }

    func testASecondShareCancelsTheFirst() {
        MainActor.assumeIsolated {
            let fixture = ModelFixture()
            fixture.client.behave(.hold, for: "r1")
            let firstCancelled = XCTestExpectation(description: "first upload cancelled")
            fixture.client.whenCancelled = { _ in firstCancelled.fulfill() }
            let model = fixture.makeModel()

            let first = model.share(Album(name: "One", assetIDs: ["r1"]), with: ["kim"])
            let second = model.share(Album(name: "Two", assetIDs: []), with: ["kim"])

            XCTAssertEqual(XCTWaiter().wait(for: [firstCancelled], timeout: 10), .completed)
            XCTAssertEqual(settledResult(of: first)?.isCancelled, true)
            XCTAssertEqual(model.statusLine, "Sharing cancelled")
            second.requestCancel()
        }
    }

    func testAfterTearDownResultsAreNotShown() {
        MainActor.assumeIsolated {
            let model = ModelFixture().makeModel()

            let promise = model.reload()
            model.tearDown()

            XCTAssertNotNil(settledResult(of: promise)?.value)
            XCTAssertNil(model.summary)
            XCTAssertFalse(model.isLoading)
        }
    }
}

/// A source whose listing is corrupt.
final class StubFailingSource: AssetSource {
    let name = "Feed"

    func listAssets() -> GalleryPromise<[Asset]> {
        return Promise(on: .utility) { resolver in resolver.reject(with: .decodeFailed("feed")) }
    }

    func loadData(for asset: Asset) -> GalleryPromise<Data> {
        return Promise(rejected: .notFound(asset.id))
    }
}
