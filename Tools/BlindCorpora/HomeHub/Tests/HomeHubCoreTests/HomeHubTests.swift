import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore

final class HomeHubTests: XCTestCase {
    func testBootstrapLoadsDevicesRoomsAndScenes() {
        let hub = HomeHub.demo()
        let snapshot = result(of: hub.bootstrap())?.value
        XCTAssertEqual(snapshot?.devices.count, 5)
        XCTAssertEqual(snapshot?.rooms.map(\.id), ["bath", "hall", "living"])
        XCTAssertEqual(snapshot?.scenes.map(\.name), ["Good night", "Movie night"])
        let living = snapshot?.rooms.first { $0.id == "living" }
        XCTAssertEqual(living.flatMap { snapshot?.devices(in: $0).map(\.name) }, ["Floor lamp", "Reading light"])
    }

    func testBootstrapFailureIsLogged() {
        let home = SimulatedHome.sample()
        home.isOffline = true
        let hub = HomeHub(transport: LoopbackTransport(home: home))
        XCTAssertEqual(result(of: hub.bootstrap())?.error, .offline)
        eventually("the failure is logged") {
            self.result(of: hub.log.entries(of: .failure))?.value?.first?.message == "bootstrap: offline"
        }
    }

    func testConnectRetriesWhileTheHubBoots() {
        let transport = FakeTransport()
        transport.replyRaw("/ping", Data("pong".utf8))
        transport.failNext("/ping", with: .offline)
        transport.failNext("/ping", with: .timedOut)
        let hub = result(of: HomeHub.connect(to: transport))?.value
        XCTAssertNotNil(hub)
        XCTAssertEqual(transport.paths, ["/ping", "/ping", "/ping"])

        transport.failNext("/ping", with: .offline)
        transport.failNext("/ping", with: .offline)
        XCTAssertEqual(result(of: HomeHub.connect(to: transport, attempts: 2))?.error, .offline)
        transport.failNext("/ping", with: .unauthorized)
        XCTAssertEqual(result(of: HomeHub.connect(to: transport))?.error, .unauthorized)
    }

    func testRetryingStopsWhenCancelled() {
        let transport = FakeTransport()
        transport.hold("/slow")
        let sent = transport.expectRequest("/slow", in: self)
        let attempt = retrying(attempts: 5, delay: 0.01) { transport.send(HubRequest(.get, "/slow")) }
        wait(for: [sent], timeout: Self.patience)
        let cancelled = transport.expectCancel("/slow", in: self)
        attempt.requestCancel()
        wait(for: [cancelled], timeout: Self.patience)
        XCTAssertEqual(result(of: attempt)?.isCancelled, true)
        XCTAssertEqual(transport.paths, ["/slow"])
    }

    func testIdentifyAllAndLoadingRegistry() {
        let hub = HomeHub.demo()
        XCTAssertNotNil(result(of: hub.registry.loadAll())?.value)
        XCTAssertEqual(result(of: hub.identifyAll())?.value?.count, 5)
        let registry = result(of: DeviceRegistry.loading(from: LoopbackTransport(home: .sample())))?.value
        XCTAssertEqual(registry?.cachedDevices.count, 5)
    }

    func testReachability() {
        let home = SimulatedHome.sample()
        let hub = HomeHub(transport: LoopbackTransport(home: home))
        XCTAssertEqual(result(of: hub.isReachable)?.value, true)
        home.isOffline = true
        XCTAssertEqual(result(of: hub.isReachable)?.value, false)
    }

    func testDemoEndToEnd() {
        let hub = HomeHub.demo()
        XCTAssertNotNil(result(of: hub.registry.loadAll())?.value)
        let report = result(of: hub.scenes.activate(sceneID: "night"))?.value
        XCTAssertEqual(report?.states["lock-1"]?.isLocked, true)
        let run = result(of: hub.automations.run(id: "evening"))?.value
        XCTAssertEqual(run?.report.states["lamp-1"]?.brightness, 20)
        let firmware = result(of: hub.firmware.checkForUpdate(hub.registry.table["lamp-1"]!))?.value
        XCTAssertEqual(firmware??.version, FirmwareVersion(1, 1, 0))
        let installed = result(of: hub.firmware.install(firmware!!, on: hub.registry.table["lamp-1"]!))?.value
        XCTAssertEqual(installed, FirmwareVersion(1, 1, 0))
        let paired = result(of: hub.pairing.pairDevice(
            DiscoveredDevice(address: "10.0.0.42", kind: .light, advertisedName: "Porch", signal: -50),
            setupCode: "111-22-333"))?.value
        XCTAssertEqual(paired?.name, "Porch")
        XCTAssertNotNil(hub.registry.table[paired!.id])
        #if DEBUG
        XCTAssertEqual(result(of: hub.dumpDevices())?.value?.split(separator: "\n").count, 6)
        #endif
    }

    func testRoomServiceWithAFakeStore() {
        let store = FakeRoomStore([Room(id: "a", name: "A", deviceIDs: ["lamp-1"]), Room(id: "b", name: "B")])
        let registry = DeviceRegistry(transport: FakeTransport())
        let rooms = RoomService(store: store, registry: registry)
        XCTAssertEqual(result(of: rooms.rename("a", to: "Attic"))?.value?.name, "Attic")
        XCTAssertEqual(result(of: rooms.rename("zz", to: "x"))?.error, .roomNotFound("zz"))
        let moved = result(of: rooms.move("lamp-1", to: "b"))?.value
        XCTAssertEqual(moved?.deviceIDs, ["lamp-1"])
        XCTAssertEqual(store.room("a")?.deviceIDs, [])
        XCTAssertEqual(store.saves.map(\.id), ["a", "a", "b"])
    }

    func testRoomSummaries() {
        let registry = DeviceRegistry(transport: FakeTransport())
        var lamp = Fixtures.lamp
        lamp.state.isOn = true
        [lamp, Fixtures.thermostat].forEach(registry.table.upsert)
        let store = InMemoryRoomStore([Room(id: "living", name: "Living", deviceIDs: ["lamp-1"]),
                                       Room(id: "hall", name: "Hall", deviceIDs: ["thermo-1"])])
        let summaries = result(of: RoomService(store: store, registry: registry).summaries())?.value
        XCTAssertEqual(summaries?.map(\.room.id), ["hall", "living"])
        XCTAssertEqual(summaries?.map(\.lightsOn), [0, 1])
        XCTAssertEqual(summaries?.first?.temperature, 19)
    }
}
