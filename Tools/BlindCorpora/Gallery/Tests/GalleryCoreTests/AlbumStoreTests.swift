import Foundation
import GalleryCore
import Tomorrowland
import XCTest

final class AlbumStoreTests: XCTestCase {
    /// Awaits a promise through an expectation (the actor's methods are only reachable from
    /// async tests, where `wait(for:)` is not allowed).
    private func settle<T>(_ promise: GalleryPromise<T>) async -> GalleryResult<T>? {
        let resolved = expectation(description: "resolved")
        let outcome = Captured<GalleryResult<T>>()
        promise.always(on: .immediate) { result in
            outcome.value = result
            resolved.fulfill()
        }
        await fulfillment(of: [resolved], timeout: 10)
        return outcome.value
    }

    func testCreateGivesTheAlbumAtOnce() async {
        let store = AlbumStore()

        let promise = await store.create("  Trips ")

        XCTAssertEqual(promise.result, .value(Album(name: "Trips")))
        let changes = await store.changeCount
        XCTAssertEqual(changes, 1)
    }

    func testCreatingATakenNameFails() async {
        let store = AlbumStore()
        _ = await store.create("Trips")

        let second = await settle(await store.create("Trips"))

        XCTAssertEqual(second, .error(.invalidEdit("album Trips exists")))
    }

    func testEmptyNameIsRejected() async {
        let store = AlbumStore()

        let result = await settle(await store.create("   "))

        XCTAssertEqual(result?.error, .invalidEdit("empty album name"))
    }

    func testAddKeepsOrderAndSkipsDuplicates() async {
        let store = AlbumStore()
        _ = await store.create("Pets")

        _ = await store.add(["a", "b"], to: "Pets")
        let result = await settle(await store.add(["b", "c"], to: "Pets"))

        XCTAssertEqual(result?.value?.assetIDs, ["a", "b", "c"])
    }

    func testAddToAMissingAlbumIsNotFound() async {
        let store = AlbumStore()

        let result = await settle(await store.add(["a"], to: "Nope"))

        XCTAssertEqual(result?.error, .notFound("Nope"))
    }

    func testAlbumNamedFromSynchronousCode() throws {
        let store = AlbumStore()
        let created = expectation(description: "created")
        Task {
            _ = await store.create("Work")
            created.fulfill()
        }
        wait(for: [created], timeout: 10)

        XCTAssertEqual(try value(of: store.album(named: "Work")), Album(name: "Work"))
        XCTAssertEqual(error(of: store.album(named: "Home")), .notFound("Home"))
    }

    func testCoverIsTheFirstAssetsThumbnail() async {
        let store = AlbumStore()
        let source = StubSource(name: "Roll", assets: [])
        source.originals = ["p1": Data([5, 5])]
        let thumbnails = ThumbnailService(source: source, side: 16)
        _ = await store.create("Cover")
        _ = await store.add(["p1"], to: "Cover")

        let cover = await settle(await store.cover(of: "Cover", assets: ["p1": Asset(id: "p1")], thumbnails: thumbnails))

        XCTAssertEqual(cover?.value?.assetID, "p1")
    }
}

final class PreviewRendererTests: XCTestCase {
    private func settle<T>(_ promise: GalleryPromise<T>) async -> GalleryResult<T>? {
        let resolved = expectation(description: "resolved")
        let outcome = Captured<GalleryResult<T>>()
        promise.always(on: .immediate) { result in
            outcome.value = result
            resolved.fulfill()
        }
        await fulfillment(of: [resolved], timeout: 10)
        return outcome.value
    }

    func testPreviewIsScaledToTheSide() async {
        let renderer = PreviewRenderer(side: 1000)

        let preview = await settle(await renderer.preview(of: Asset(id: "p", width: 2000, height: 1000)))

        XCTAssertEqual(preview?.value, Thumbnail(assetID: "p", side: 1000, bytes: 1_000_000))
    }

    func testARequestInFlightIsShared() async {
        let renderer = PreviewRenderer()
        let asset = Asset(id: "shared")

        let (first, second) = await Self.requestTwice(renderer, asset)

        XCTAssertEqual(first, second)
        _ = await settle(first)
    }

    /// Both requests in one turn of the actor, so the first cannot finish in between.
    @RenderActor
    private static func requestTwice(_ renderer: PreviewRenderer, _ asset: Asset) -> (GalleryPromise<Thumbnail>, GalleryPromise<Thumbnail>) {
        return (renderer.preview(of: asset), renderer.preview(of: asset))
    }

    func testABrokenAssetIsADecodeFailure() async {
        let renderer = PreviewRenderer()

        let result = await settle(await renderer.preview(of: Asset(id: "broken", width: 0, height: 0)))

        XCTAssertEqual(result?.error, .decodeFailed("broken"))
    }

    func testPreviewsOfSeveralAssetsKeepTheirOrder() async {
        let renderer = PreviewRenderer(side: 10)

        let result = await settle(await renderer.previews(of: [Asset(id: "1"), Asset(id: "2"), Asset(id: "3")]))

        XCTAssertEqual(result?.value?.map { $0.assetID }, ["1", "2", "3"])
    }
}
