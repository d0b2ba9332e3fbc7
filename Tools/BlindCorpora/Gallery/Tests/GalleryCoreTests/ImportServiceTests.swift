import Foundation
import GalleryCore
import Tomorrowland
import XCTest

final class ImportServiceTests: XCTestCase {
    func testImportCountsNewAndAlreadyImportedAssets() throws {
        let roll = StubSource(name: "Roll", assets: [Asset(id: "1"), Asset(id: "2")])
        let cloud = StubSource(name: "Cloud", assets: [Asset(id: "2"), Asset(id: "3")])
        let importer = ImportService(sources: [roll, cloud])

        let first = try value(of: importer.importAll())
        roll.assets.append(Asset(id: "4"))
        let second = try value(of: importer.importAll())

        XCTAssertEqual(first, ImportSummary(imported: 3, skipped: 1, failedSources: []))
        XCTAssertEqual(second, ImportSummary(imported: 1, skipped: 4, failedSources: []))
        XCTAssertEqual(importer.importedIDs, ["1", "2", "3", "4"])
        XCTAssertEqual(importer.runs, 2)
    }

    func testASourceWithoutPermissionIsReportedAndTheOthersImport() throws {
        let roll = StubSource(name: "Roll", assets: [], listError: .permissionDenied)
        let cloud = StubSource(name: "Cloud", assets: [Asset(id: "c")])
        let importer = ImportService(sources: [roll, cloud])

        let summary = try value(of: importer.importAll())

        XCTAssertEqual(summary, ImportSummary(imported: 1, skipped: 0, failedSources: ["Roll"]))
        XCTAssertEqual(importer.lastSummary, summary)
    }

    func testAnotherListingErrorFailsTheImport() {
        let broken = StubSource(name: "Broken", assets: [], listError: .decodeFailed("listing"))
        let importer = ImportService(sources: [StubSource(name: "Roll", assets: [Asset(id: "1")]), broken])

        XCTAssertEqual(error(of: importer.importAll()), .decodeFailed("listing"))
        XCTAssertFalse(importer.isImporting)
    }

    func testSummaryIsMadeOnTheMainQueue() {
        _ = mainQueueKey
        let importer = ImportService(sources: [StubSource(name: "Roll", assets: [Asset(id: "1")])])
        let queue = Captured<String>()

        let promise = importer.importAll().then(on: .immediate) { _ in
            queue.value = DispatchQueue.getSpecific(key: mainQueueKey)
        }

        XCTAssertNotNil(result(of: promise)?.value)
        XCTAssertEqual(queue.value, "main")
    }

    func testImportingFlagIsSetDuringTheCallAndClearedAfter() {
        let importer = ImportService(sources: [StubSource(name: "Roll", assets: [Asset(id: "1")])])
        let done = expectation(description: "import finished")

        importer.importAll().always(on: .main) { _ in
            done.fulfill()
        }
        XCTAssertTrue(importer.isImporting)
        wait(for: [done], timeout: 10)

        XCTAssertFalse(importer.isImporting)
    }

    func testDownloadGivesTheSizeOfEachOriginal() throws {
        let source = StubSource(name: "Roll", assets: [])
        source.originals = ["a": Data(count: 10), "b": Data(count: 20), "c": Data(count: 30)]
        let importer = ImportService(sources: [source], maxConcurrentDownloads: 1)

        let sizes = try value(of: importer.download([Asset(id: "a"), Asset(id: "b"), Asset(id: "c")], from: source))

        XCTAssertEqual(sizes, ["a": 10, "b": 20, "c": 30])
        XCTAssertEqual(source.loads.all, ["a", "b", "c"])
    }

    func testDownloadFailsWhenAnOriginalIsMissing() {
        let source = StubSource(name: "Roll", assets: [])
        source.originals = ["a": Data(count: 10)]
        let importer = ImportService(sources: [source])

        XCTAssertEqual(error(of: importer.download([Asset(id: "a"), Asset(id: "gone")], from: source)), .notFound("gone"))
    }

    func testCancelledDownloadsNeverLoad() {
        let transport = ManualTransport()
        let cloud = CloudAccountSource(name: "Cloud", transport: transport)
        let importer = ImportService(sources: [cloud], maxConcurrentDownloads: 1)

        let promise = importer.download([Asset(id: "x"), Asset(id: "y")], from: cloud)
        importer.cancelDownloads()

        XCTAssertEqual(result(of: promise)?.isCancelled, true)
        XCTAssertTrue(transport.sentPaths.count <= 1)
    }
}
