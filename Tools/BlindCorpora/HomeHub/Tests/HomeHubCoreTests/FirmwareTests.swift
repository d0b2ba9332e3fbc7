import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore

final class FirmwareTests: XCTestCase {
    private var transport: FakeTransport!
    private var source: FakeFirmwareSource!
    private var log: EventLog!
    private var updater: FirmwareUpdater!
    private let release = FirmwareRelease(version: FirmwareVersion(1, 1, 0), kind: .light, size: 3000, checksum: 0x1234)

    override func setUp() {
        super.setUp()
        transport = FakeTransport()
        source = FakeFirmwareSource([release])
        log = EventLog()
        updater = FirmwareUpdater(source: source, transport: transport, log: log, chunkSize: 1024)
        transport.replyRaw("/devices/lamp-1/firmware/chunk", Data())
        transport.reply("/devices/lamp-1/firmware/commit", FirmwareVersion(1, 1, 0))
    }

    func testVersionsCompareSemantically() {
        XCTAssertLessThan(FirmwareVersion(1, 9, 0), FirmwareVersion(1, 10, 0))
        XCTAssertEqual(FirmwareVersion(string: "2.0.1"), FirmwareVersion(2, 0, 1))
        XCTAssertNil(FirmwareVersion(string: "2.0"))
    }

    func testCheckForUpdate() {
        XCTAssertEqual(result(of: updater.checkForUpdate(Fixtures.lamp))?.value, .some(release))
        var current = Fixtures.lamp
        current.firmware = FirmwareVersion(1, 1, 0)
        XCTAssertEqual(result(of: updater.checkForUpdate(current))?.value, .some(nil))
        XCTAssertEqual(result(of: updater.checkForUpdate(Fixtures.lock))?.value, .some(nil))
    }

    func testInstallSendsEveryChunkThenCommitsReportingProgressOnTheFirmwareQueue() {
        let progress = HubLock<[(Double, HubQueueTag?)]>([])
        let version = result(of: updater.install(release, on: Fixtures.lamp) { update in
            progress.withLock { $0.append((update.fraction, HubQueues.current)) }
        })
        XCTAssertEqual(version?.value, FirmwareVersion(1, 1, 0))
        XCTAssertEqual(transport.paths, Array(repeating: "/devices/lamp-1/firmware/chunk", count: 3) + ["/devices/lamp-1/firmware/commit"])
        XCTAssertEqual(progress.snapshot.map(\.0), [1024.0 / 3000, 2048.0 / 3000, 1])
        XCTAssertEqual(progress.snapshot.map(\.1), [.firmware, .firmware, .firmware])
        XCTAssertEqual(transport.requests.first?.body?.count, 1024)
    }

    func testACorruptImageIsRejectedBeforeUploading() {
        source.corruptImages = true
        XCTAssertEqual(result(of: updater.install(release, on: Fixtures.lamp))?.error, .firmwareRejected(release.version))
        XCTAssertEqual(transport.paths, [])
    }

    func testCancellingAnInstallStopsAfterTheChunkInFlight() {
        transport.hold("/devices/lamp-1/firmware/chunk")
        let firstChunk = transport.expectRequest("/devices/lamp-1/firmware/chunk", count: 1, in: self)
        let install = updater.install(release, on: Fixtures.lamp)
        wait(for: [firstChunk], timeout: Self.patience)
        let secondChunk = transport.expectRequest("/devices/lamp-1/firmware/chunk", count: 2, in: self)
        transport.releaseOldest()
        wait(for: [secondChunk], timeout: Self.patience)

        let cancelled = transport.expectCancel("/devices/lamp-1/firmware/chunk", in: self)
        install.requestCancel()
        wait(for: [cancelled], timeout: Self.patience)
        XCTAssertEqual(result(of: install)?.isCancelled, true)
        XCTAssertEqual(transport.paths.filter { $0.hasSuffix("chunk") }.count, 2)
        XCTAssertFalse(transport.paths.contains("/devices/lamp-1/firmware/commit"))
        eventually("the cancellation is logged") {
            self.result(of: self.log.entries(of: .failure))?.value?.first?.message == "firmware 1.1.0 cancelled"
        }
    }

    func testUpdateAllSkipsDevicesThatAreUpToDate() {
        let installed = result(of: updater.updateAll([Fixtures.lamp, Fixtures.lock]))?.value
        XCTAssertEqual(installed, ["lamp-1": FirmwareVersion(1, 1, 0)])
    }

    func testBundledSourceAndChecksums() {
        let bundled = BundledFirmwareSource([release])
        let image = result(of: bundled.image(for: release))?.value
        XCTAssertEqual(image.map(FirmwareImage.checksum), 0x1234)
        XCTAssertEqual(result(of: bundled.latestRelease(for: .sensor))?.error, .upToDate)
    }
}
