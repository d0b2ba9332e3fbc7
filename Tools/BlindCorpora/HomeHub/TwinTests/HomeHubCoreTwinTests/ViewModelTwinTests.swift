import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore
@testable import HomeHubUI

/// The async twins of the `@MainActor` view models: they keep the main actor, so the statements
/// around each call can be checked from the test.
final class ViewModelTwinTests: XCTestCase {
    @MainActor
    private func makeHub() -> (HomeHub, SimulatedHome) {
        let home = SimulatedHome.sample()
        let hub = HomeHub(transport: LoopbackTransport(home: home), roomStore: InMemoryRoomStore(),
                          scenes: [HomeScene(id: "dim", name: "Dim", actions: [SceneAction(deviceID: "lamp-2", change: .brightness(10))])])
        return (hub, home)
    }

    @MainActor
    func testReloadTwinRunsTheStatementsBeforeAndTheCallbacksBeforeReturning() async throws {
        let (hub, home) = makeHub()
        let model = DashboardViewModel(hub: hub)
        let devices = try await model.reload()
        XCTAssertEqual(devices.count, 5)
        XCTAssertFalse(model.isLoading)
        XCTAssertEqual(model.state.value?.count, 5)
        XCTAssertEqual(model.history, ["reload", "loaded 5"])
        XCTAssertEqual(home.requests.map(\.path), ["/devices"])
        try await model.reload()  // @discardableResult is kept
        XCTAssertEqual(model.history.suffix(2), ["reload", "loaded 5"])
    }

    @MainActor
    func testReloadTwinThrowsTheHubErrorAfterTheErrorCallbacks() async {
        let (hub, home) = makeHub()
        home.isOffline = true
        let model = DashboardViewModel(hub: hub)
        await assertThrows(try await model.reload()) { error in
            XCTAssertEqual(error as? HubError, .offline)
        }
        XCTAssertEqual(model.state, .failed(.offline))
        XCTAssertEqual(model.history, ["reload", "failed offline"])
        XCTAssertFalse(model.isLoading)
    }

    @MainActor
    func testCancellingTheReloadTaskCancelsTheRequest() async {
        let transport = FakeTransport()
        transport.hold("/devices")
        let sent = transport.expectRequest("/devices", in: self)
        let model = DashboardViewModel(hub: HomeHub(transport: transport, roomStore: InMemoryRoomStore()))
        let task = Task { @MainActor in try await model.reload() }
        await fulfillment(of: [sent], timeout: Self.patience)
        XCTAssertTrue(model.isLoading)
        XCTAssertEqual(model.history, ["reload"])
        let cancelled = transport.expectCancel("/devices", in: self)
        task.cancel()
        await fulfillment(of: [cancelled], timeout: Self.patience)
        await assertThrows(try await task.value) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertFalse(model.isLoading, "the always callback ran")
        XCTAssertEqual(model.state, .loading)
    }

    @MainActor
    func testToggleTwinShowsPendingWhileTheDeviceAnswers() async throws {
        let transport = FakeTransport()
        transport.reply("/devices", Fixtures.all)
        transport.reply("/devices/lamp-1/state", DeviceState(isOn: true, brightness: 100))
        let model = DashboardViewModel(hub: HomeHub(transport: transport, roomStore: InMemoryRoomStore()))
        _ = try await model.reload()
        transport.hold("/devices/lamp-1/state")
        let sent = transport.expectRequest("/devices/lamp-1/state", in: self)
        let toggle = Task { @MainActor in try await model.toggle("lamp-1") }
        await fulfillment(of: [sent], timeout: Self.patience)
        XCTAssertEqual(model.pendingToggles, ["lamp-1"])
        XCTAssertEqual(model.history.last, "toggle lamp-1")
        transport.releaseOldest()
        let state = try await toggle.value
        XCTAssertEqual(state.isOn, true)
        XCTAssertEqual(model.pendingToggles, [])
        XCTAssertEqual(model.history.suffix(2), ["toggle lamp-1", "toggled lamp-1"])
        XCTAssertEqual(model.state.value?.first?.isActive, true)
    }

    @MainActor
    func testSceneAndTemperatureTwins() async throws {
        let (hub, _) = makeHub()
        let model = DashboardViewModel(hub: hub)
        try await model.reload()
        let report = try await model.activateScene(id: "dim")
        XCTAssertEqual(report.states["lamp-2"]?.brightness, 10)
        XCTAssertEqual(model.lastScene?.sceneID, "dim")
        let state = try await model.setTemperature(22.3, on: "thermo-1")
        XCTAssertEqual(state.targetTemperature, 22.5)
    }

    @MainActor
    func testFirmwareViewModelTwin() async throws {
        let transport = FakeTransport()
        transport.replyRaw("/devices/lamp-1/firmware/chunk", Data())
        transport.reply("/devices/lamp-1/firmware/commit", FirmwareVersion(2, 0, 0))
        let release = FirmwareRelease(version: FirmwareVersion(2, 0, 0), kind: .light, size: 100, checksum: 5)
        let updater = FirmwareUpdater(source: FakeFirmwareSource([release]), transport: transport)
        let model = FirmwareUpdateViewModel(updater: updater, device: Fixtures.lamp)
        let version = try await model.start()
        XCTAssertEqual(version, FirmwareVersion(2, 0, 0))
        XCTAssertEqual(model.phase, .installed(FirmwareVersion(2, 0, 0)))

        var current = Fixtures.lamp
        current.firmware = FirmwareVersion(2, 0, 0)
        let upToDate = FirmwareUpdateViewModel(updater: updater, device: current)
        await assertThrows(try await upToDate.start()) { error in
            XCTAssertEqual(error as? HubError, .upToDate)
        }
        XCTAssertEqual(upToDate.phase, .upToDate)
    }

    @MainActor
    func testPairingAndRoomViewModelTwins() async throws {
        let transport = FakeTransport()
        let candidate = DiscoveredDevice(address: "10.0.0.9", kind: .sensor, advertisedName: "Leak", signal: -30)
        let device = Device(id: "paired-9", name: "Leak", kind: .sensor)
        transport.reply("/pair", device)
        let pairing = PairingViewModel(discovery: DiscoveryService(scanners: [BLEScanner { [candidate] }]),
                                       pairing: PairingFlow(transport: transport, table: DeviceTable()))
        let found = try await pairing.scan(for: 0.01)
        XCTAssertEqual(found, [candidate])
        XCTAssertEqual(pairing.step, .choosing([candidate]))
        let paired = try await pairing.pair(candidate, code: "123-45-678")
        XCTAssertEqual(paired, device)
        XCTAssertEqual(pairing.step, .paired(device))

        let home = SimulatedHome.sample()
        let loopback = LoopbackTransport(home: home)
        let rooms = RoomService(store: RemoteRoomStore(transport: loopback), registry: DeviceRegistry(transport: loopback))
        let room = RoomViewModel(roomID: "living", rooms: rooms)
        let devices = try await room.load()
        XCTAssertEqual(devices.map(\.name), ["Floor lamp", "Reading light"])
        let switched = try await room.setLights(on: false)
        XCTAssertEqual(switched, 2)
        XCTAssertFalse(room.busy)
        let renamed = try await room.rename(to: "Lounge")
        XCTAssertEqual(renamed.name, "Lounge")
    }

    func testEventLogPresenterTwins() async throws {
        let log = EventLog()
        try await log.record(HubEvent(kind: .failure, message: "oops", timestamp: Date(timeIntervalSince1970: 0)))
        let presenter = EventLogPresenter(log: log)
        let lines = try await presenter.lines()
        XCTAssertEqual(lines, ["00:00:00 failure: oops"])
        let urgent = try await presenter.lines(limit: 1, urgent: true)
        XCTAssertEqual(urgent, lines)
        let failures = try await presenter.failures()
        XCTAssertEqual(failures, ["oops"])
    }
}
