import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore

final class DiscoveryTests: XCTestCase {
    private let bulb = DiscoveredDevice(address: "10.0.0.7", kind: .light, advertisedName: "Bulb", signal: -40)
    private let farBulb = DiscoveredDevice(address: "10.0.0.7", kind: .light, advertisedName: "Bulb", signal: -80)
    private let sensor = DiscoveredDevice(address: "ble:22", kind: .sensor, advertisedName: "Leak", signal: -60)

    func testDiscoverMergesScannersStrongestFirstOncePerAddress() {
        let wifi = FakeScanner(name: "wifi")
        let ble = FakeScanner(name: "ble")
        let discovery = DiscoveryService(scanners: [wifi, ble])
        let found = discovery.discover(for: 1)
        wifi.finish(with: [farBulb])
        ble.finish(with: [sensor, bulb])
        XCTAssertEqual(result(of: found)?.value, [bulb, sensor])
    }

    func testAFailingScannerIsLeftOutUnlessAllFail() {
        let wifi = FakeScanner(name: "wifi")
        let ble = FakeScanner(name: "ble")
        let discovery = DiscoveryService(scanners: [wifi, ble])
        let some = discovery.discover(for: 1)
        wifi.fail(with: .offline)
        ble.finish(with: [sensor])
        XCTAssertEqual(result(of: some)?.value, [sensor])

        let none = discovery.discover(for: 1)
        wifi.fail(with: .offline)
        ble.fail(with: .unauthorized)
        XCTAssertEqual(result(of: none)?.error, .offline)
        XCTAssertEqual(result(of: DiscoveryService(scanners: []).discover())?.value, [])
    }

    func testFirstDeviceWinsAndStopsTheOtherScans() {
        let wifi = FakeScanner(name: "wifi")
        let ble = FakeScanner(name: "ble")
        let discovery = DiscoveryService(scanners: [wifi, ble])
        let first = discovery.firstDevice(of: .sensor, within: 10)
        XCTAssertEqual(wifi.scanCount, 1)
        ble.finish(with: [sensor])
        XCTAssertEqual(result(of: first)?.value, sensor)
        eventually("the other scan is asked to stop") { wifi.cancelCount == 1 }
        XCTAssertEqual(ble.cancelCount, 0)
    }

    func testFirstDeviceIgnoresScannersThatHeardNoMatch() {
        let wifi = FakeScanner(name: "wifi")
        let ble = FakeScanner(name: "ble")
        let discovery = DiscoveryService(scanners: [wifi, ble])
        let first = discovery.firstDevice(of: .sensor, within: 10)
        wifi.finish(with: [bulb])
        XCTAssertNil(first.result)
        ble.finish(with: [sensor])
        XCTAssertEqual(result(of: first)?.value, sensor)
    }

    func testCancellingDiscoveryReachesEveryScanner() {
        let wifi = FakeScanner(name: "wifi")
        let ble = FakeScanner(name: "ble")
        let discovery = DiscoveryService(scanners: [wifi, ble])
        let found = discovery.discover(for: 10)
        found.requestCancel()
        XCTAssertEqual(result(of: found)?.isCancelled, true)
        XCTAssertEqual(wifi.cancelCount, 1)
        XCTAssertEqual(ble.cancelCount, 1)
    }

    func testMDNSScannerCollectsUntilItsDurationEnds() {
        let browser = FakeBrowser(devices: [bulb, sensor])
        let scanner = MDNSScanner(browser: browser)
        let found = result(of: scanner.scan(for: 0.2))?.value
        XCTAssertEqual(Set(found ?? []), [bulb, sensor])
    }

    func testCancellingAnMDNSScanStopsTheBrowser() {
        let browser = FakeBrowser(devices: [])
        let scanner = MDNSScanner(browser: browser)
        let scan = scanner.scan(for: 60)
        scan.requestCancel()
        XCTAssertEqual(result(of: scan)?.isCancelled, true)
        XCTAssertGreaterThanOrEqual(browser.cancels, 1)
    }

    func testBLEScannerFiltersWeakSignals() {
        let nearby = [sensor, farBulb]
        let scanner = BLEScanner(minimumSignal: -70) { nearby }
        XCTAssertEqual(result(of: scanner.scan(for: 0.01))?.value, [sensor])
    }
}

final class PairingTests: XCTestCase {
    private var transport: FakeTransport!
    private var table: DeviceTable!
    private var flow: PairingFlow!
    private let candidate = DiscoveredDevice(address: "10.0.0.42", kind: .light, advertisedName: "New bulb", signal: -50)
    private let paired = Device(id: "paired-1", name: "New bulb", kind: .light)

    override func setUp() {
        super.setUp()
        transport = FakeTransport()
        table = DeviceTable()
        flow = PairingFlow(transport: transport, table: table)
        transport.reply("/pair", paired)
    }

    func testSetupCodeFormat() {
        XCTAssertTrue(PairingFlow.isValidSetupCode("123-45-678"))
        XCTAssertFalse(PairingFlow.isValidSetupCode("12345678"))
        XCTAssertFalse(PairingFlow.isValidSetupCode("abc-de-fgh"))
    }

    func testPairingAddsTheDevice() {
        let device = result(of: flow.pair(candidate, setupCode: "111-22-333").inner)?.value
        XCTAssertEqual(device, paired)
        XCTAssertEqual(table["paired-1"], paired)
        let body = transport.requests.first?.body.flatMap { try? JSONDecoder().decode(PairingAttempt.self, from: $0) }
        XCTAssertEqual(body, PairingAttempt(address: "10.0.0.42", setupCode: "111-22-333", name: "New bulb", kind: .light))
        XCTAssertEqual(flow.attempts, 1)
    }

    func testAMalformedCodeIsRejectedWithoutARequest() {
        XCTAssertEqual(result(of: flow.pairDevice(candidate, setupCode: "nope"))?.error,
                       .pairingFailed(reason: "malformed setup code"))
        XCTAssertEqual(transport.paths, [])
    }

    func testCancelSilencesTheCallbacksAndCancelsTheRequest() {
        transport.hold("/pair")
        let sent = transport.expectRequest("/pair", in: self)
        let silenced = HubLock(true)
        let pairing = flow.pair(candidate, setupCode: "111-22-333")
            .then(on: .utility) { _ in silenced.withLock { $0 = false } }
        wait(for: [sent], timeout: Self.patience)
        let cancelled = transport.expectCancel("/pair", in: self)
        flow.cancel()
        wait(for: [cancelled], timeout: Self.patience)
        XCTAssertEqual(result(of: pairing.inner)?.isCancelled, true)
        XCTAssertTrue(silenced.snapshot)
        XCTAssertNil(table["paired-1"])
    }

    func testANewPairingReplacesTheOld() {
        transport.hold("/pair")
        let sent = transport.expectRequest("/pair", in: self)
        let first = flow.pair(candidate, setupCode: "111-22-333")
        wait(for: [sent], timeout: Self.patience)
        transport.stopHolding()
        let second = flow.pair(candidate, setupCode: "111-22-333")
        XCTAssertEqual(result(of: first.inner)?.isCancelled, true)
        XCTAssertEqual(result(of: second.inner)?.value, paired)
        XCTAssertEqual(flow.attempts, 2)
        flow.reset()
        XCTAssertEqual(flow.attempts, 0)
    }
}
