import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore
@testable import HomeHubUI

/// Waits for a promise from main-actor code without blocking the main queue.
@MainActor
private func settle<T, E>(_ promise: Promise<T, E>, in test: XCTestCase) async -> PromiseResult<T, E>? {
    let done = test.expectation(description: "settled")
    let box = HubLock<PromiseResult<T, E>?>(nil)
    _ = promise.always(on: .main) { result in
        box.withLock { $0 = result }
        done.fulfill()
    }
    await test.fulfillment(of: [done], timeout: XCTestCase.patience)
    return box.snapshot
}

final class DashboardViewModelTests: XCTestCase {
    @MainActor
    private func makeHub() -> (HomeHub, SimulatedHome) {
        let home = SimulatedHome.sample()
        let hub = HomeHub(transport: LoopbackTransport(home: home), roomStore: InMemoryRoomStore(),
                          scenes: [HomeScene(id: "dim", name: "Dim", actions: [SceneAction(deviceID: "lamp-2", change: .brightness(10))])])
        return (hub, home)
    }

    @MainActor
    func testReloadSetsLoadingFirstAndTilesLast() async {
        HubQueues.tagMainQueue()
        let (hub, home) = makeHub()
        let model = DashboardViewModel(hub: hub)
        let reload = model.reload()
        // Statements before the chain ran synchronously, and the request already went out.
        XCTAssertTrue(model.isLoading)
        XCTAssertEqual(model.state, .loading)
        XCTAssertEqual(model.history, ["reload"])
        XCTAssertEqual(home.requests.map(\.path), ["/devices"])

        let result = await settle(reload, in: self)
        XCTAssertEqual(result?.value?.count, 5)
        XCTAssertFalse(model.isLoading)
        XCTAssertEqual(model.state.value?.map(\.id.rawValue), ["lamp-1", "lamp-2", "thermo-1", "lock-1", "sensor-1"])
        XCTAssertEqual(model.history, ["reload", "loaded 5"])
    }

    @MainActor
    func testReloadFailureIsShown() async {
        let (hub, home) = makeHub()
        home.isOffline = true
        let model = DashboardViewModel(hub: hub)
        let result = await settle(model.reload(), in: self)
        XCTAssertEqual(result?.error, .offline)
        XCTAssertEqual(model.state, .failed(.offline))
        XCTAssertEqual(model.lastError, .offline)
        XCTAssertFalse(model.isLoading)
        XCTAssertEqual(model.history, ["reload", "failed offline"])
    }

    @MainActor
    func testASecondReloadSilencesAndCancelsTheFirst() async {
        let transport = FakeTransport()
        transport.reply("/devices", Fixtures.all)
        transport.hold("/devices")
        let model = DashboardViewModel(hub: HomeHub(transport: transport, roomStore: InMemoryRoomStore()))
        let first = model.reload()
        XCTAssertEqual(transport.paths, ["/devices"])
        transport.stopHolding()
        let cancelled = transport.expectCancel("/devices", in: self)
        let second = model.reload()
        await fulfillment(of: [cancelled], timeout: Self.patience)
        let firstResult = await settle(first, in: self)
        let secondResult = await settle(second, in: self)
        XCTAssertEqual(firstResult?.isCancelled, true)
        XCTAssertEqual(secondResult?.value?.count, 4)
        XCTAssertEqual(model.history, ["reload", "reload", "loaded 4"])
    }

    @MainActor
    func testToggleShowsPendingUntilTheDeviceAnswers() async {
        let (hub, home) = makeHub()
        let model = DashboardViewModel(hub: hub)
        _ = await settle(model.reload(), in: self)
        let toggle = model.toggle("lamp-1")
        XCTAssertEqual(model.pendingToggles, ["lamp-1"])
        XCTAssertEqual(model.history.last, "toggle lamp-1")
        let state = await settle(toggle, in: self)
        XCTAssertEqual(state?.value?.isOn, true)
        XCTAssertEqual(model.pendingToggles, [])
        XCTAssertEqual(model.history.suffix(2), ["toggle lamp-1", "toggled lamp-1"])
        XCTAssertEqual(model.state.value?.first?.isActive, true)
        XCTAssertEqual(home.device("lamp-1")?.state.isOn, true)
    }

    @MainActor
    func testActivatingASceneUpdatesItsTiles() async {
        let (hub, _) = makeHub()
        let model = DashboardViewModel(hub: hub)
        _ = await settle(model.reload(), in: self)
        let report = await settle(model.activateScene(id: "dim"), in: self)
        XCTAssertEqual(report?.value?.states["lamp-2"]?.brightness, 10)
        XCTAssertEqual(model.lastScene?.sceneID, "dim")
        XCTAssertEqual(model.state.value?.first { $0.id == "lamp-2" }?.subtitle, "On, 10%")
        let missing = await settle(model.activateScene(id: "nope"), in: self)
        XCTAssertEqual(missing?.error, .other("no scene nope"))
        XCTAssertEqual(model.lastError, .other("no scene nope"))
    }

    @MainActor
    func testSetTemperatureRoundsThroughTheDriver() async {
        let (hub, _) = makeHub()
        let model = DashboardViewModel(hub: hub)
        _ = await settle(model.reload(), in: self)
        let state = await settle(model.setTemperature(22.3, on: "thermo-1"), in: self)
        XCTAssertEqual(state?.value?.targetTemperature, 22.5)
    }

    @MainActor
    func testCancelLoadingLeavesTheStateAlone() async {
        let transport = FakeTransport()
        transport.hold("/devices")
        let model = DashboardViewModel(hub: HomeHub(transport: transport, roomStore: InMemoryRoomStore()))
        let reload = model.reload()
        let cancelled = transport.expectCancel("/devices", in: self)
        model.cancelLoading()
        XCTAssertFalse(model.isLoading)
        await fulfillment(of: [cancelled], timeout: Self.patience)
        let result = await settle(reload, in: self)
        XCTAssertEqual(result?.isCancelled, true)
        XCTAssertEqual(model.state, .loading)
        XCTAssertEqual(model.history, ["reload", "cancelled"])
    }
}

final class FirmwareUpdateViewModelTests: XCTestCase {
    private let release = FirmwareRelease(version: FirmwareVersion(2, 0, 0), kind: .light, size: 2048, checksum: 77)

    private func makeUpdater(_ transport: FakeTransport) -> FirmwareUpdater {
        transport.replyRaw("/devices/lamp-1/firmware/chunk", Data())
        transport.reply("/devices/lamp-1/firmware/commit", FirmwareVersion(2, 0, 0))
        return FirmwareUpdater(source: FakeFirmwareSource([release]), transport: transport, chunkSize: 1024)
    }

    @MainActor
    func testInstallMovesThroughThePhases() async {
        let transport = FakeTransport()
        let model = FirmwareUpdateViewModel(updater: makeUpdater(transport), device: Fixtures.lamp)
        let install = model.start()
        XCTAssertEqual(model.phase, .checking)
        let result = await settle(install, in: self)
        XCTAssertEqual(result?.value, FirmwareVersion(2, 0, 0))
        XCTAssertEqual(model.phase, .installed(FirmwareVersion(2, 0, 0)))
        XCTAssertEqual(model.progress, 1)
    }

    @MainActor
    func testUpToDateDevice() async {
        let transport = FakeTransport()
        var current = Fixtures.lamp
        current.firmware = FirmwareVersion(2, 0, 0)
        let model = FirmwareUpdateViewModel(updater: makeUpdater(transport), device: current)
        let result = await settle(model.start(), in: self)
        XCTAssertEqual(result?.error, .upToDate)
        XCTAssertEqual(model.phase, .upToDate)
        XCTAssertEqual(transport.paths, [])
    }

    @MainActor
    func testCancelReachesTheUpload() async {
        let transport = FakeTransport()
        let updater = makeUpdater(transport)
        transport.hold("/devices/lamp-1/firmware/chunk")
        let sent = transport.expectRequest("/devices/lamp-1/firmware/chunk", in: self)
        let model = FirmwareUpdateViewModel(updater: updater, device: Fixtures.lamp)
        let install = model.start()
        await fulfillment(of: [sent], timeout: Self.patience)
        let cancelled = transport.expectCancel("/devices/lamp-1/firmware/chunk", in: self)
        model.cancel()
        await fulfillment(of: [cancelled], timeout: Self.patience)
        let result = await settle(install, in: self)
        XCTAssertEqual(result?.isCancelled, true)
        XCTAssertEqual(model.phase, .cancelled)
    }
}

final class PairingAndRoomViewModelTests: XCTestCase {
    @MainActor
    func testScanThenPair() async {
        let transport = FakeTransport()
        let candidate = DiscoveredDevice(address: "10.0.0.9", kind: .sensor, advertisedName: "Leak", signal: -30)
        let device = Device(id: "paired-9", name: "Leak", kind: .sensor)
        transport.reply("/pair", device)
        let scanner = BLEScanner { [candidate] }
        let model = PairingViewModel(discovery: DiscoveryService(scanners: [scanner]),
                                     pairing: PairingFlow(transport: transport, table: DeviceTable()))
        let scan = model.scan(for: 0.01)
        XCTAssertEqual(model.step, .scanning)
        _ = await settle(scan, in: self)
        XCTAssertEqual(model.step, .choosing([candidate]))

        let pairing = model.pair(candidate, code: "123-45-678")
        XCTAssertEqual(model.step, .pairing(candidate))
        let paired = await settle(pairing, in: self)
        XCTAssertEqual(paired?.value, device)
        XCTAssertEqual(model.step, .paired(device))
    }

    @MainActor
    func testCancelIgnoresALateScan() async {
        let scanner = FakeScanner(name: "slow")
        let model = PairingViewModel(discovery: DiscoveryService(scanners: [scanner]),
                                     pairing: PairingFlow(transport: FakeTransport(), table: DeviceTable()))
        let scan = model.scan()
        model.cancel()
        XCTAssertEqual(model.step, .idle)
        let result = await settle(scan, in: self)
        XCTAssertEqual(result?.isCancelled, true)
        XCTAssertEqual(scanner.cancelCount, 1)
        XCTAssertEqual(model.step, .idle)
    }

    @MainActor
    func testRoomLoadsSortedAndSwitchesLights() async {
        let home = SimulatedHome.sample()
        let transport = LoopbackTransport(home: home)
        let registry = DeviceRegistry(transport: transport)
        let rooms = RoomService(store: RemoteRoomStore(transport: transport), registry: registry)
        let model = RoomViewModel(roomID: "living", rooms: rooms)
        let loaded = await settle(model.load(), in: self)
        XCTAssertEqual(loaded?.value?.map(\.name), ["Floor lamp", "Reading light"])
        XCTAssertEqual(model.devices.value?.map(\.name), ["Floor lamp", "Reading light"])
        XCTAssertTrue(model.lightsOn)

        let switching = model.setLights(on: false)
        XCTAssertTrue(model.busy)
        let count = await settle(switching, in: self)
        XCTAssertEqual(count?.value, 2)
        XCTAssertFalse(model.busy)
        XCTAssertFalse(model.lightsOn)
        XCTAssertEqual(home.device("lamp-2")?.state.isOn, false)

        let renamed = await settle(model.rename(to: "Lounge"), in: self)
        XCTAssertEqual(renamed?.value?.name, "Lounge")
    }
}

final class EventLogPresenterTests: XCTestCase {
    func testLinesAreFormattedNewestFirst() {
        let log = EventLog()
        let date = Date(timeIntervalSince1970: 3_600 + 61)
        log.append(HubEvent(kind: .stateChanged, deviceID: "lamp-1", message: "on", timestamp: date))
        log.append(HubEvent(kind: .failure, message: "oops", timestamp: date))
        let presenter = EventLogPresenter(log: log)
        XCTAssertEqual(result(of: presenter.lines())?.value, ["01:01:01 failure: oops", "01:01:01 stateChanged [lamp-1]: on"])
        XCTAssertEqual(result(of: presenter.lines(limit: 1, urgent: true))?.value, ["01:01:01 failure: oops"])
        XCTAssertEqual(result(of: presenter.failures())?.value, ["oops"])
    }
}
