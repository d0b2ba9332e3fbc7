import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore

final class DeviceRegistryTests: XCTestCase {
    private var transport: FakeTransport!
    private var registry: DeviceRegistry!

    override func setUp() {
        super.setUp()
        HubQueues.tagMainQueue()
        transport = FakeTransport()
        transport.reply("/devices", Fixtures.all)
        for device in Fixtures.all {
            transport.reply("/devices/\(device.id)", device)
            transport.reply("/devices/\(device.id)/state", device.state)
        }
        registry = DeviceRegistry(transport: transport, refreshTimeout: 10)
    }

    func testLoadAllFillsTheTableInOrder() {
        let result = self.result(of: registry.loadAll())
        XCTAssertEqual(result?.value?.map(\.id), Fixtures.all.map(\.id))
        XCTAssertEqual(registry.cachedDevices.map(\.id), Fixtures.all.map(\.id))
    }

    func testDeviceComesFromTheTableWithoutARequest() {
        registry.table.upsert(Fixtures.lamp)
        let result = self.result(of: registry.device(id: "lamp-1"))
        XCTAssertEqual(result?.value, Fixtures.lamp)
        XCTAssertEqual(transport.paths, [])
    }

    func testUnknownDeviceIsAskedFromTheHub() {
        let result = self.result(of: registry.device(id: "thermo-1"))
        XCTAssertEqual(result?.value?.name, "Hall thermostat")
        XCTAssertEqual(transport.paths, ["/devices/thermo-1"])
        XCTAssertNotNil(registry.table["thermo-1"])
    }

    func testMissingDeviceRejectsWithItsID() {
        transport.fail("/devices/ghost", with: .deviceNotFound("ghost"))
        let result = self.result(of: registry.device(id: "ghost"))
        XCTAssertEqual(result?.error, .deviceNotFound("ghost"))
    }

    func testDeviceResolvesOnTheStateQueue() {
        registry.table.upsert(Fixtures.lamp)
        let ran = expectation(description: "callback")
        let tag = HubLock<HubQueueTag?>(nil)
        // Keep the state queue busy until the chain is registered, so no step can resolve early
        // and run synchronously (`.nowOr`) on this thread.
        let gate = DispatchSemaphore(value: 0)
        HubQueues.state.async { gate.wait() }
        _ = registry.device(id: "lamp-1").then(on: .immediate) { _ in
            tag.withLock { $0 = HubQueues.current }
            ran.fulfill()
        }
        gate.signal()
        wait(for: [ran], timeout: Self.patience)
        XCTAssertEqual(tag.snapshot, .state)
    }

    func testCallbacksOnTheCustomContextsRunOnTheirQueues() {
        registry.table.upsert(Fixtures.lamp)
        let ran = expectation(description: "callbacks")
        ran.expectedFulfillmentCount = 3
        let tags = HubLock<[String: HubQueueTag?]>([:])
        let device = registry.device(id: "lamp-1")
        _ = device.then(on: .hubState) { _ in
            tags.withLock { $0["hubState"] = HubQueues.current }
            ran.fulfill()
        }
        _ = device.then(on: .radio) { _ in
            tags.withLock { $0["radio"] = HubQueues.current }
            ran.fulfill()
        }
        _ = device.then(on: .ui) { _ in
            tags.withLock { $0["ui"] = HubQueues.current }
            ran.fulfill()
        }
        wait(for: [ran], timeout: Self.patience)
        XCTAssertEqual(tags.snapshot["hubState"], .state)
        XCTAssertEqual(tags.snapshot["radio"], .radio)
        XCTAssertEqual(tags.snapshot["ui"], .main)
    }

    func testRefreshReadsTheStateAgainAndUpdatesTheTable() {
        var stale = Fixtures.lamp
        stale.state = DeviceState(isOn: true, brightness: 99)
        stale.isReachable = false
        registry.table.upsert(stale)
        let result = self.result(of: registry.refresh(id: "lamp-1"))
        XCTAssertEqual(result?.value?.state, Fixtures.lamp.state)
        XCTAssertEqual(registry.table["lamp-1"]?.state, Fixtures.lamp.state)
        XCTAssertEqual(registry.table["lamp-1"]?.isReachable, true)
    }

    func testCancellingARefreshReachesTheRequest() {
        registry.table.upsert(Fixtures.lamp)
        transport.hold("/devices/lamp-1/state")
        let sent = transport.expectRequest("/devices/lamp-1/state", in: self)
        let refresh = registry.refresh(id: "lamp-1")
        wait(for: [sent], timeout: Self.patience)

        let cancelled = transport.expectCancel("/devices/lamp-1/state", in: self)
        refresh.requestCancel()
        wait(for: [cancelled], timeout: Self.patience)
        XCTAssertEqual(result(of: refresh)?.isCancelled, true)
    }

    func testARefreshThatTakesTooLongTimesOutAndLetsGoOfTheRequest() {
        registry = DeviceRegistry(transport: transport, refreshTimeout: 0.2)
        registry.table.upsert(Fixtures.lamp)
        transport.hold("/devices/lamp-1/state")
        let cancelled = transport.expectCancel("/devices/lamp-1/state", in: self)
        let result = self.result(of: registry.refresh(id: "lamp-1"))
        XCTAssertEqual(result?.error, .timedOut)
        wait(for: [cancelled], timeout: Self.patience)
    }

    func testRefreshAllFailsWithTheFirstFailureAndCancelsTheOthers() {
        registry.table.upsert(Fixtures.lamp)
        registry.table.upsert(Fixtures.thermostat)
        transport.hold("/devices/lamp-1/state")
        transport.fail("/devices/thermo-1/state", with: .offline)
        let cancelled = transport.expectCancel("/devices/lamp-1/state", in: self)
        let result = self.result(of: registry.refreshAll())
        XCTAssertEqual(result?.error, .offline)
        wait(for: [cancelled], timeout: Self.patience)
        XCTAssertNil(registry.lastRefreshed)
    }

    func testRefreshAllWithAnEmptyTableLoadsTheList() {
        let result = self.result(of: registry.refreshAll())
        XCTAssertEqual(result?.value?.count, 4)
        XCTAssertEqual(transport.paths, ["/devices"])
    }

    func testApplyUpdatesTheTableAndLogs() {
        let log = EventLog()
        registry = DeviceRegistry(transport: transport, log: log)
        registry.table.upsert(Fixtures.lamp)
        transport.reply("/devices/lamp-1/state", DeviceState(isOn: true, brightness: 40))
        let result = self.result(of: registry.apply(.brightness(40), to: "lamp-1"))
        XCTAssertEqual(result?.value?.brightness, 40)
        XCTAssertEqual(registry.table["lamp-1"]?.state.brightness, 40)
        let events = self.result(of: log.entries(of: .stateChanged))?.value
        XCTAssertEqual(events?.first?.deviceID, "lamp-1")
        XCTAssertEqual(transport.requests.last?.method, .put)
    }

    func testToggleTurnsAnOffLightOn() {
        registry.table.upsert(Fixtures.lamp)
        transport.reply("/devices/lamp-1/state", DeviceState(isOn: true, brightness: 100))
        let result = self.result(of: registry.toggle(id: "lamp-1"))
        XCTAssertEqual(result?.value?.isOn, true)
        let body = transport.requests.last?.body.flatMap { try? JSONDecoder().decode(StateChange.self, from: $0) }
        XCTAssertEqual(body, .power(true))
        XCTAssertEqual(registry.table["lamp-1"]?.state.isOn, true)
    }

    func testApplyingSeveralChangesKeepsTheirOrder() {
        registry.table.upsert(Fixtures.lamp)
        registry.table.upsert(Fixtures.thermostat)
        transport.reply("/devices/thermo-1/state", DeviceState(targetTemperature: 21))
        let result = self.result(of: registry.apply([("thermo-1", .targetTemperature(21)), ("lamp-1", .power(false))]))
        XCTAssertEqual(result?.value?.map(\.targetTemperature), [21, nil])
    }

    func testRemoveDropsTheDevice() {
        registry.table.upsert(Fixtures.lamp)
        transport.replyRaw("/devices/lamp-1", Data())
        let result = self.result(of: registry.remove(id: "lamp-1"))
        XCTAssertNotNil(result?.value)
        XCTAssertNil(registry.table["lamp-1"])
    }

    func testIdentifyOnAThermostatSendsNothing() {
        registry.table.upsert(Fixtures.thermostat)
        let result = self.result(of: registry.identify(id: "thermo-1"))
        XCTAssertNotNil(result?.value)
        XCTAssertEqual(transport.paths, [])
    }

    func testLowBatteryDevicesAreSortedAndNeverFail() {
        for device in Fixtures.all { registry.table.upsert(device) }
        let result = self.result(of: registry.lowBatteryDevices(below: 20))
        XCTAssertEqual(result?.value?.map(\.id), ["sensor-1", "lock-1"])

        transport.fail("/devices/lamp-1/state", with: .unauthorized)
        XCTAssertEqual(self.result(of: registry.lowBatteryDevices())?.value, [])
    }
}
