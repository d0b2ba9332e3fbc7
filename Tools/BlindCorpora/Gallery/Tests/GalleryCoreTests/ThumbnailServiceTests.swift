import Foundation
import GalleryCore
import Tomorrowland
import XCTest

final class ThumbnailServiceTests: XCTestCase {
    private func makeSource() -> StubSource {
        let source = StubSource(name: "stub", assets: [Asset(id: "a"), Asset(id: "b"), Asset(id: "empty")])
        source.originals = ["a": Data(repeating: 7, count: 300), "b": Data([1, 2, 3]), "empty": Data()]
        return source
    }

    func testRendersAndCachesAThumbnail() throws {
        let service = ThumbnailService(source: makeSource(), side: 128)

        let thumbnail = try value(of: service.thumbnail(for: Asset(id: "b")))

        XCTAssertEqual(thumbnail, Thumbnail(assetID: "b", side: 128, bytes: 128 * 128 + 6 % 7))
        XCTAssertEqual(service.cachedThumbnail(for: "b"), thumbnail)
        XCTAssertEqual(service.renderedCount, 1)
    }

    func testSecondRequestIsServedFromTheCacheDuringTheCall() throws {
        let source = makeSource()
        let service = ThumbnailService(source: source, bookkeeping: .immediate)
        _ = try value(of: service.thumbnail(for: Asset(id: "a")))

        let again = service.thumbnail(for: Asset(id: "a"))

        XCTAssertEqual(again.result?.value?.assetID, "a")
        XCTAssertEqual(source.loads.all, ["a"])
        XCTAssertEqual(service.renderedCount, 1)
    }

    func testBookkeepingOnImmediateRunsOnTheRenderQueue() {
        let service = ThumbnailService(source: makeSource(), bookkeeping: .immediate)
        let queueLabel = Captured<String>()
        let tapped = expectation(description: "tap ran")

        // Called on the render queue, so the render cannot finish before the tap is registered.
        let promise = GalleryQueues.render.sync {
            service.thumbnail(for: Asset(id: "b"))
                .tap(on: .immediate) { _ in
                    queueLabel.value = GalleryQueues.current
                    tapped.fulfill()
                }
        }

        XCTAssertNotNil(result(of: promise)?.value)
        wait(for: [tapped], timeout: 10)
        XCTAssertEqual(queueLabel.value, "render")
        XCTAssertEqual(service.cachedThumbnail(for: "b")?.assetID, "b")
    }

    func testEmptyOriginalIsADecodeFailure() {
        let service = ThumbnailService(source: makeSource())

        XCTAssertEqual(error(of: service.thumbnail(for: Asset(id: "empty"))), .decodeFailed("empty"))
    }

    func testServiceReleasedMidRequestCancelsTheThumbnail() {
        let transport = ManualTransport()
        let cloud = CloudAccountSource(name: "Cloud", transport: transport)
        var service: ThumbnailService? = ThumbnailService(source: cloud)
        weak var weakService = service

        let promise = service!.thumbnail(for: Asset(id: "far"))
        service = nil
        XCTAssertNil(weakService)
        transport.reply(to: "assets/far/original", data: Data([9, 9]))

        XCTAssertEqual(result(of: promise)?.isCancelled, true)
    }

    func testDeadlineFallsBackToThePlaceholder() throws {
        let transport = ManualTransport()
        let service = ThumbnailService(source: CloudAccountSource(name: "Slow", transport: transport), side: 64)

        let thumbnail = try value(of: service.thumbnail(for: Asset(id: "slow"), deadline: 0.05))

        XCTAssertEqual(thumbnail, Thumbnail(assetID: "placeholder", side: 64, bytes: 64 * 64))
    }

    func testCancelRenderReachesTheDownload() {
        let transport = ManualTransport()
        let service = ThumbnailService(source: CloudAccountSource(name: "Cloud", transport: transport))

        let promise = service.thumbnail(for: Asset(id: "scrolled"))
        service.cancelRender(of: "scrolled")

        XCTAssertEqual(result(of: promise)?.isCancelled, true)
        XCTAssertEqual(transport.cancelledPaths, ["assets/scrolled/original"])
    }

    func testThumbnailsLeaveOutFailures() throws {
        let service = ThumbnailService(source: makeSource())

        let page = result(of: service.thumbnails(for: [Asset(id: "a"), Asset(id: "missing"), Asset(id: "b")]))

        XCTAssertEqual(page?.value?.map { $0.assetID }, ["a", "b"])
    }

    func testPlaceholderIsMadeOnceAndShared() throws {
        let service = ThumbnailService(source: makeSource(), side: 32)

        let first = service.placeholder.promise
        let second = service.placeholder.promise

        XCTAssertEqual(first, second)
        XCTAssertEqual(try value(of: second).bytes, 32 * 32)
    }
}
