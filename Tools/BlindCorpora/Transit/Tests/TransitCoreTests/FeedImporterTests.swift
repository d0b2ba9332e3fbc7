import Foundation
import Tomorrowland
import TransitCore
import XCTest

final class FeedImporterTests: XCTestCase {
    func testImportParsesOnTheImportQueue() {
        let importer = FeedImporter(downloader: LegacyFeedDownloader())
        let rows = resolved(importer.importStops(path: "stops.csv"))?.value
        XCTAssertEqual(rows, [FeedRow(id: "S1", name: "Central Station"), FeedRow(id: "S2", name: "Market Street")])
        XCTAssertEqual(importer.trace.entries, ["parse@transit.import"])
    }

    func testDownloadStartsDuringTheCall() {
        let downloader = LegacyFeedDownloader()
        let importer = FeedImporter(downloader: downloader)
        let promise = importer.download(path: "stops.csv")
        XCTAssertEqual(downloader.downloads, 1)
        XCTAssertEqual(resolved(promise)?.value?.hasPrefix("stop_id"), true)
    }

    func testMalformedFeedRejectsWithTheFormatError() {
        let downloader = LegacyFeedDownloader()
        downloader.payload = "stop_id,stop_name\nS1,Central Station\nbroken"
        let importer = FeedImporter(downloader: downloader)
        let error = resolved(importer.importStops(path: "stops.csv"))?.error
        XCTAssertEqual(error as? FeedFormatError, .badRow(line: 3))
        downloader.payload = "id;name"
        XCTAssertEqual(resolved(importer.importStops(path: "stops.csv"))?.error as? FeedFormatError, .missingHeader)
    }

    func testDownloadErrorsComeFromTheCallback() {
        let downloader = LegacyFeedDownloader()
        downloader.failure = TransitError.offline
        let importer = FeedImporter(downloader: downloader)
        XCTAssertEqual(resolved(importer.importStops(path: "stops.csv"))?.error as? TransitError, .offline)
        XCTAssertEqual(resolved(importer.importedStops(path: "stops.csv")), .error(.offline))
    }

    func testRetryTriesTheDownloadOnceMore() {
        let downloader = LegacyFeedDownloader()
        downloader.failure = TransitError.offline
        let importer = FeedImporter(downloader: downloader)
        let promise = importer.importStops(path: "stops.csv", retryDelay: 1.0)
        spin(0.1)
        downloader.failure = nil
        XCTAssertEqual(resolved(promise)?.value?.count, 2)
        XCTAssertEqual(downloader.downloads, 2)
    }

    func testRetryDoesNotRetryAFormatError() {
        let downloader = LegacyFeedDownloader()
        downloader.payload = "nope"
        let importer = FeedImporter(downloader: downloader)
        XCTAssertEqual(resolved(importer.importStops(path: "stops.csv", retryDelay: 0.01))?.error as? FeedFormatError, .missingHeader)
        XCTAssertEqual(downloader.downloads, 1)
    }

    func testImportedStopsMapsFormatErrorsToDecoding() {
        let downloader = LegacyFeedDownloader()
        downloader.payload = "nope"
        let importer = FeedImporter(downloader: downloader)
        XCTAssertEqual(resolved(importer.importedStops(path: "stops.csv")), .error(.decoding("missingHeader")))
    }

    func testBackgroundImportIgnoresCancel() {
        let downloader = LegacyFeedDownloader()
        downloader.latency = 0.1
        let importer = FeedImporter(downloader: downloader)
        let promise = importer.backgroundImport(path: "stops.csv")
        promise.requestCancel()
        XCTAssertEqual(resolved(promise)?.value, 2)
    }

    func testRouteTextIsFormattedOnTheRoutingQueue() {
        let server = FakeTransitServer()
        let planner = TripPlanner(stops: RemoteStopService(server: server), server: server)
        let text = resolved(planner.routeText(from: TransitFixtures.central, to: TransitFixtures.harbour, departingAfter: 600))?.value
        XCTAssertEqual(text, "transit.routing: 10:01–10:09 R2 (direct)")
    }
}
