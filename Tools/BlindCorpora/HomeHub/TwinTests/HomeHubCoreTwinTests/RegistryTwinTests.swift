import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore

/// The async twins of `DeviceRegistry`, `DeviceDriver`, `Command` and `HubTransport`.
final class RegistryTwinTests: XCTestCase {
    private var transport: FakeTransport!
    private var registry: DeviceRegistry!

    override func setUp() {
        super.setUp()
        transport = FakeTransport()
        transport.reply("/devices", Fixtures.all)
        for device in Fixtures.all {
            transport.reply("/devices/\(device.id)", device)
            transport.reply("/devices/\(device.id)/state", device.state)
        }
        registry = DeviceRegistry(transport: transport, refreshTimeout: 10)
    }

    func testDeviceComesFromTheTableOrTheHub() async throws {
        registry.table.upsert(Fixtures.lamp)
        let lamp = try await registry.device(id: "lamp-1")
        XCTAssertEqual(lamp, Fixtures.lamp)
        XCTAssertEqual(transport.paths, [])
        let thermostat = try await registry.device(id: "thermo-1")
        XCTAssertEqual(thermostat.name, "Hall thermostat")
        XCTAssertEqual(transport.paths, ["/devices/thermo-1"])
    }

    func testAMissingDeviceThrowsTheHubError() async {
        transport.fail("/devices/ghost", with: .deviceNotFound("ghost"))
        await assertThrows(try await registry.device(id: "ghost")) { error in
            XCTAssertEqual(error as? HubError, .deviceNotFound("ghost"))
        }
    }

    func testLoadAllAndRefreshAll() async throws {
        let loaded = try await registry.loadAll()
        XCTAssertEqual(loaded.map(\.id), Fixtures.all.map(\.id))
        let refreshed = try await registry.refreshAll()
        XCTAssertEqual(refreshed.count, 4)
        XCTAssertNotNil(registry.lastRefreshed, "the chain's last callback ran before the await returned")
    }

    func testRefreshUpdatesTheTableBeforeReturning() async throws {
        var stale = Fixtures.lamp
        stale.state = DeviceState(isOn: true, brightness: 99)
        registry.table.upsert(stale)
        let device = try await registry.refresh(id: "lamp-1")
        XCTAssertEqual(device.state, Fixtures.lamp.state)
        XCTAssertEqual(registry.table["lamp-1"]?.state, Fixtures.lamp.state)
    }

    func testRefreshAllThrowsTheFirstFailureAndCancelsTheOthers() async {
        registry.table.upsert(Fixtures.lamp)
        registry.table.upsert(Fixtures.thermostat)
        transport.hold("/devices/lamp-1/state")
        transport.fail("/devices/thermo-1/state", with: .offline)
        let cancelled = transport.expectCancel("/devices/lamp-1/state", in: self)
        await assertThrows(try await registry.refreshAll()) { error in
            XCTAssertEqual(error as? HubError, .offline)
        }
        await fulfillment(of: [cancelled], timeout: Self.patience)
    }

    func testCancellingTheTaskCancelsTheRefreshRequest() async {
        registry.table.upsert(Fixtures.lamp)
        transport.hold("/devices/lamp-1/state")
        let sent = transport.expectRequest("/devices/lamp-1/state", in: self)
        let registry = self.registry!
        let task = Task { try await registry.refresh(id: "lamp-1") }
        await fulfillment(of: [sent], timeout: Self.patience)
        let cancelled = transport.expectCancel("/devices/lamp-1/state", in: self)
        task.cancel()
        await fulfillment(of: [cancelled], timeout: Self.patience)
        await assertThrows(try await task.value) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    func testApplyToggleAndBatch() async throws {
        registry.table.upsert(Fixtures.lamp)
        registry.table.upsert(Fixtures.thermostat)
        transport.reply("/devices/lamp-1/state", DeviceState(isOn: true, brightness: 40))
        let state = try await registry.apply(.brightness(40), to: "lamp-1")
        XCTAssertEqual(state.brightness, 40)
        XCTAssertEqual(registry.table["lamp-1"]?.state.brightness, 40)
        try await registry.apply(.power(true), to: "lamp-1")  // @discardableResult is kept

        transport.reply("/devices/lamp-1/state", DeviceState(isOn: false))
        registry.table.update("lamp-1") { $0.state.isOn = true }
        let toggled = try await registry.toggle(id: "lamp-1")
        XCTAssertEqual(toggled.isOn, false)
        XCTAssertEqual(transport.requests.last?.body.flatMap { try? JSONDecoder().decode(StateChange.self, from: $0) }, .power(false))

        transport.reply("/devices/thermo-1/state", DeviceState(targetTemperature: 21))
        let states = try await registry.apply([("thermo-1", .targetTemperature(21)), ("lamp-1", .power(false))])
        XCTAssertEqual(states.map(\.targetTemperature), [21, nil])
    }

    func testRemoveReturnsNothing() async throws {
        registry.table.upsert(Fixtures.lamp)
        transport.replyRaw("/devices/lamp-1", Data())
        try await registry.remove(id: "lamp-1")
        XCTAssertNil(registry.table["lamp-1"])
        XCTAssertEqual(transport.paths, ["/devices/lamp-1"])
    }

    func testTheStaticTwinLoadsARegistry() async throws {
        let loaded = try await DeviceRegistry.loading(from: transport)
        XCTAssertEqual(loaded.cachedDevices.map(\.id), Fixtures.all.map(\.id))
        transport.fail("/devices", with: .unauthorized)
        await assertThrows(try await DeviceRegistry.loading(from: transport, log: EventLog())) { error in
            XCTAssertEqual(error as? HubError, .unauthorized)
        }
    }

    func testTheGenericRetryingTwin() async throws {
        transport.replyRaw("/ping", Data("pong".utf8))
        transport.failNext("/ping", with: .offline)
        let hub: HubTransport = transport
        let pong: Data = try await retrying(attempts: 3, delay: 0.01) { hub.send(HubRequest(.get, "/ping")) }
        XCTAssertEqual(pong, Data("pong".utf8))
        XCTAssertEqual(transport.paths, ["/ping", "/ping"])
    }

    func testCancellingATaskStopsTheRetries() async {
        transport.hold("/slow")
        let sent = transport.expectRequest("/slow", in: self)
        let hub: HubTransport = transport
        let task = Task { () -> Data in
            try await retrying(attempts: 5, delay: 0.01) { hub.send(HubRequest(.get, "/slow")) }
        }
        await fulfillment(of: [sent], timeout: Self.patience)
        let cancelled = transport.expectCancel("/slow", in: self)
        task.cancel()
        await fulfillment(of: [cancelled], timeout: Self.patience)
        await assertThrows(try await task.value) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(transport.paths, ["/slow"])
    }

    func testLowBatteryDevicesThrowsOnlyCancellation() async {
        Fixtures.all.forEach(registry.table.upsert)
        do {
            let devices = try await registry.lowBatteryDevices(below: 20)
            XCTAssertEqual(devices.map(\.id), ["sensor-1", "lock-1"])
            let defaultThreshold = try await registry.lowBatteryDevices()
            XCTAssertEqual(defaultThreshold.count, 2)
        } catch {
            let cancelled: CancellationError = error  // the twin of a NoError promise throws(CancellationError)
            XCTFail("unexpected \(cancelled)")
        }
    }

    func testTheBaseClassTwinReachesTheOverride() async {
        transport.reply("/locks/lock-1/verify", PinVerdict(accepted: false, attemptsLeft: 2))
        let driver: DeviceDriver = DriverFactory(transport: transport).driver(for: Fixtures.lock)
        await assertThrows(try await driver.apply(.lock(false, pin: "0000"))) { error in
            XCTAssertEqual(error as? HubError, .unauthorized)
        }
        XCTAssertEqual(transport.paths, ["/locks/lock-1/verify"])

        let sensor = DriverFactory(transport: transport).driver(for: Fixtures.sensor)
        transport.fail("/devices/sensor-1/state", with: .offline)
        let cached = try? await sensor.readState()
        XCTAssertEqual(cached, Fixtures.sensor.state)
        let refreshed = try? await sensor.refreshed()
        XCTAssertEqual(refreshed?.isReachable, true)
    }

    func testCommandTwins() async throws {
        let state = try await Command<DeviceState>.readState(of: "lamp-1").send(via: transport)
        XCTAssertEqual(state, Fixtures.lamp.state)

        let down = FakeTransport()
        down.fail("/devices/lamp-1/state", with: .offline)
        let viaSecond = try await Command<DeviceState>.readState(of: "lamp-1").send(viaFirstOf: [down, transport])
        XCTAssertEqual(viaSecond, Fixtures.lamp.state)

        transport.hold("/slow")
        await assertThrows(try await Command<[Room]>(HubRequest(.get, "/slow"), timeout: 0.1).send(via: transport)) { error in
            XCTAssertEqual(error as? HubError, .timedOut)
        }
    }

    func testTransportProtocolTwins() async throws {
        let hub: HubTransport = transport
        transport.replyRaw("/ping", Data("pong".utf8))
        let pong = try await hub.send(HubRequest(.get, "/ping"))
        XCTAssertEqual(pong, Data("pong".utf8))

        transport.reply("/rooms", [Room(id: "a", name: "A")])
        let rooms = try await hub.fetch([Room].self, HubRequest(.get, "/rooms"))
        XCTAssertEqual(rooms.map(\.name), ["A"])
        transport.replyRaw("/broken", Data("{".utf8))
        await assertThrows(try await hub.fetch([Room].self, HubRequest(.get, "/broken"))) { error in
            guard case .decoding? = error as? HubError else { return XCTFail("\(error)") }
        }

        transport.replyRaw("/devices/x/identify", Data())
        try await hub.perform(HubRequest(.post, "/devices/x/identify"))
        let reachable = try await hub.isReachable()
        XCTAssertTrue(reachable)
        transport.fail("/ping", with: .offline)
        let unreachable = try await hub.isReachable(timeout: 5)
        XCTAssertFalse(unreachable)
    }

    func testCancellingATaskAwaitingTheLANTransportCancelsTheExchange() async {
        let link = FakeLink()
        let lan = LANTransport(link: link)
        let task = Task { try await lan.send(HubRequest(.get, "/ping")) }
        await eventually("the exchange started") { link.exchanges.count == 1 }
        task.cancel()
        await assertThrows(try await task.value) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertTrue(link.exchanges[0].wasCancelled)
    }
}
