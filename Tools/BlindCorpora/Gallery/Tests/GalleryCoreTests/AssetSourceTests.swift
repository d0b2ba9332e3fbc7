import Foundation
import GalleryCore
import Tomorrowland
import XCTest

final class AssetSourceTests: XCTestCase {
    func testCameraRollListsAssetsSortedByID() throws {
        let roll = CameraRollSource(assets: [Asset(id: "b"), Asset(id: "a"), Asset(id: "c")])

        let assets = try value(of: roll.listAssets())

        XCTAssertEqual(assets.map { $0.id }, ["a", "b", "c"])
    }

    func testCameraRollWithoutPermissionRejectsDuringTheCall() {
        let roll = CameraRollSource(assets: [Asset(id: "a")], permissionGranted: false)

        let promise = roll.listAssets()

        XCTAssertEqual(promise.result, .error(.permissionDenied))
    }

    func testCameraRollMissingOriginalIsNotFound() {
        let roll = CameraRollSource(assets: [Asset(id: "a")])

        XCTAssertEqual(error(of: roll.loadData(for: Asset(id: "a"))), .notFound("a"))
        XCTAssertEqual(roll.loadCount, 1)
    }

    func testCameraRollLoadsAddedPhoto() throws {
        let roll = CameraRollSource(assets: [])
        roll.add(Asset(id: "new"), data: Data([1, 2, 3]))

        let data = try value(of: roll.loadData(for: Asset(id: "new")))

        XCTAssertEqual(data, Data([1, 2, 3]))
    }

    func testCloudListDecodesAndMarksAssetsAsCloud() throws {
        let transport = ManualTransport()
        transport.autoReplies["assets"] = assetJSON([Asset(id: "x"), Asset(id: "y")])
        let cloud = CloudAccountSource(name: "Dropbox", transport: transport)

        let assets = try value(of: cloud.listAssets())

        XCTAssertEqual(assets.map { $0.id }, ["x", "y"])
        XCTAssertEqual(assets.map { $0.origin }, [.cloud, .cloud])
        XCTAssertEqual(cloud.requestCount, 1)
    }

    func testCloudListWithGarbageIsDecodeFailure() {
        let transport = ManualTransport()
        let cloud = CloudAccountSource(name: "Dropbox", transport: transport)

        let promise = cloud.listAssets()
        transport.reply(to: "assets", data: Data("<html>".utf8))

        XCTAssertEqual(error(of: promise), .decodeFailed("asset list"))
    }

    func testCloudTransportErrorBecomesGalleryError() {
        let transport = ManualTransport()
        let cloud = CloudAccountSource(name: "Dropbox", transport: transport)

        let promise = cloud.loadData(for: Asset(id: "x"))
        transport.reply(to: "assets/x/original", error: GalleryError.offline)

        XCTAssertEqual(error(of: promise), .offline)
    }

    func testCloudEmptyReplyIsApiMismatch() {
        let transport = ManualTransport()
        let cloud = CloudAccountSource(name: "Dropbox", transport: transport)

        let promise = cloud.loadData(for: Asset(id: "x"))
        transport.reply(to: "assets/x/original")

        guard case .transport(let message)? = error(of: promise) else {
            return XCTFail("expected a transport error")
        }
        XCTAssertTrue(message.contains("apiMismatch"), message)
    }

    func testCancelRequestReachesTheRequestInFlight() {
        let transport = ManualTransport()
        let cloud = CloudAccountSource(name: "Dropbox", transport: transport)

        let promise = cloud.loadData(for: Asset(id: "big"))
        XCTAssertEqual(transport.sentPaths, ["assets/big/original"])
        promise.requestCancel()

        XCTAssertEqual(result(of: promise)?.isCancelled, true)
        XCTAssertEqual(transport.cancelledPaths, ["assets/big/original"])
    }

    func testCloudRequestTimesOut() {
        let transport = ManualTransport()
        let cloud = CloudAccountSource(name: "Slow", transport: transport)
        cloud.requestTimeout = 0.05

        XCTAssertEqual(error(of: cloud.listAssets()), .timedOut)
    }

    func testSharedAlbumKeepsOnlyItsAssets() throws {
        let transport = ManualTransport()
        transport.autoReplies["assets"] = assetJSON([Asset(id: "x"), Asset(id: "y"), Asset(id: "z")])
        let album = SharedAlbumSource(name: "Family", transport: transport, albumIDs: ["x", "z"])
        let source: AssetSource = album

        let assets = try value(of: source.listAssets())

        XCTAssertEqual(assets.map { $0.id }, ["x", "z"])
        XCTAssertEqual(album.requestCount, 1)
    }
}
