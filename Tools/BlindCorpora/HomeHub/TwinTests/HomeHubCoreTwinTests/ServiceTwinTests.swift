import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore

/// The async twins of the rooms, scenes, automations, firmware, discovery, pairing, sync and log
/// services.
final class ServiceTwinTests: XCTestCase {
    private var transport: FakeTransport!
    private var registry: DeviceRegistry!

    private let evening = HomeScene(id: "evening", name: "Evening", actions: [
        SceneAction(deviceID: "lamp-1", change: .brightness(30)),
        SceneAction(deviceID: "thermo-1", change: .targetTemperature(21)),
    ])

    override func setUp() {
        super.setUp()
        transport = FakeTransport()
        registry = DeviceRegistry(transport: transport)
        Fixtures.all.forEach(registry.table.upsert)
        for device in Fixtures.all {
            transport.reply("/devices/\(device.id)/state", device.state)
        }
        transport.reply("/devices/lamp-1/state", DeviceState(isOn: true, brightness: 30))
        transport.reply("/devices/thermo-1/state", DeviceState(targetTemperature: 21, currentTemperature: 19))
    }

    // MARK: Rooms

    func testRoomStoreTwins() async throws {
        let store = FakeRoomStore([Room(id: "a", name: "A", deviceIDs: ["lamp-1"]), Room(id: "b", name: "B")])
        let rooms = try await store.rooms()
        XCTAssertEqual(rooms.map(\.id), ["a", "b"])
        let a = try await store.room(id: "a")
        XCTAssertEqual(a.name, "A")
        await assertThrows(try await store.room(id: "zz")) { error in
            XCTAssertEqual(error as? HubError, .roomNotFound("zz"))
        }
        let moved = try await store.move("lamp-1", to: "b")
        XCTAssertEqual(moved.deviceIDs, ["lamp-1"])
        XCTAssertEqual(store.room("a")?.deviceIDs, [])
        let saved = try await store.save(Room(id: "c", name: "C"))
        XCTAssertEqual(saved.id, "c")
    }

    func testRoomServiceTwins() async throws {
        let store = InMemoryRoomStore([Room(id: "living", name: "Living", deviceIDs: ["lamp-1", "thermo-1"])])
        let rooms = RoomService(store: store, registry: registry)
        let devices = try await rooms.devices(in: "living")
        XCTAssertEqual(devices.map(\.id), ["lamp-1", "thermo-1"])
        let renamed = try await rooms.rename("living", to: "Lounge")
        XCTAssertEqual(renamed.name, "Lounge")
        let summaries = try await rooms.summaries()
        XCTAssertEqual(summaries.first?.room.name, "Lounge")
        transport.reply("/devices/lamp-1/state", DeviceState(isOn: false))
        let switched = try await rooms.setLights(in: renamed, on: false)
        XCTAssertEqual(switched, 1)
        await assertThrows(try await rooms.devices(in: "nowhere")) { error in
            XCTAssertEqual(error as? HubError, .roomNotFound("nowhere"))
        }
    }

    // MARK: Scenes

    func testSceneTwins() async throws {
        let engine = SceneEngine(registry: registry, scenes: [evening])
        let report = try await engine.activate(sceneID: "evening")
        XCTAssertEqual(report.states["lamp-1"]?.brightness, 30)
        let again = try await engine.activate(evening)
        XCTAssertEqual(again.sceneID, "evening")
        await assertThrows(try await engine.activate(sceneID: "nope")) { error in
            XCTAssertEqual(error as? HubError, .other("no scene nope"))
        }
        transport.fail("/devices/lamp-1/state", with: .offline)
        let preview: [DeviceID: DeviceState]
        do {
            preview = try await engine.preview(evening)
        } catch {
            let typed: CancellationError = error
            return XCTFail("\(typed)")
        }
        XCTAssertEqual(preview["thermo-1"]?.targetTemperature, 21)
    }

    func testCancellingASceneTaskCancelsEveryChange() async {
        let engine = SceneEngine(registry: registry, scenes: [evening])
        transport.hold("/devices/")
        let sent = transport.expectRequest("/devices/", count: 2, in: self)
        let scene = evening
        let task = Task { try await engine.activate(scene) }
        await fulfillment(of: [sent], timeout: Self.patience)
        let lamp = transport.expectCancel("/devices/lamp-1", in: self)
        let thermostat = transport.expectCancel("/devices/thermo-1", in: self)
        task.cancel()
        await fulfillment(of: [lamp, thermostat], timeout: Self.patience)
        await assertThrows(try await task.value) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    // MARK: Automations

    private func makeScheduler() -> AutomationScheduler {
        let engine = SceneEngine(registry: registry, scenes: [evening])
        return AutomationScheduler(engine: engine, automations: [
            Automation(id: "a1", name: "Evening", trigger: .time(hour: 20, minute: 0), sceneID: "evening"),
            Automation(id: "a2", name: "Broken", trigger: .time(hour: 20, minute: 0), sceneID: "gone"),
        ])
    }

    func testAutomationTwins() async throws {
        let scheduler = makeScheduler()
        let run = try await scheduler.run(id: "a1")
        XCTAssertEqual(run.automationID, "a1")
        XCTAssertEqual(scheduler.runCount, 1)
        await assertThrows(try await scheduler.run(id: "a2")) { error in
            XCTAssertEqual(error as? AutomationError, .sceneMissing("gone"))
        }
        let queued = try await scheduler.enqueue(scheduler.automations["a1"]!)
        XCTAssertEqual(queued.automationID, "a1")
        let later = try await scheduler.schedule(scheduler.automations["a1"]!, after: 0.05)
        XCTAssertEqual(later.report.sceneID, "evening")
        let timed = try await scheduler.runTimeTriggered(hour: 20, minute: 0)
        XCTAssertEqual(timed.map(\.automationID), ["a1"])
        let direct = try await scheduler.run(Automation(id: "x", name: "X", trigger: .sunset(offset: 0), sceneID: "evening"))
        XCTAssertEqual(direct.automationID, "x")
    }

    @MainActor
    func testCancelAllEndsAnAwaitedScheduledRunWithCancellation() async {
        let scheduler = makeScheduler()
        let automation = scheduler.automations["a1"]!
        // The scheduler is not Sendable: the task shares the test's main actor.
        let run = Task { try await scheduler.schedule(automation, after: 1) }
        await Task.yield()  // the task runs first, up to its await: the run is scheduled
        scheduler.cancelAll()
        await assertThrows(try await run.value) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(transport.paths, [])
    }

    // MARK: Firmware

    func testFirmwareTwins() async throws {
        let release = FirmwareRelease(version: FirmwareVersion(1, 1, 0), kind: .light, size: 2048, checksum: 99)
        let source = FakeFirmwareSource([release])
        let updater = FirmwareUpdater(source: source, transport: transport, chunkSize: 1024)
        transport.replyRaw("/devices/lamp-1/firmware/chunk", Data())
        transport.reply("/devices/lamp-1/firmware/commit", FirmwareVersion(1, 1, 0))

        let latest = try await source.latestRelease(for: .light)
        XCTAssertEqual(latest, release)
        await assertThrows(try await source.latestRelease(for: .lock)) { error in
            XCTAssertEqual(error as? HubError, .upToDate)
        }
        let available = try await updater.checkForUpdate(Fixtures.lamp)
        XCTAssertEqual(available, release)
        let none = try await updater.checkForUpdate(Fixtures.lock)
        XCTAssertNil(none)

        let queues = HubLock<[HubQueueTag?]>([])
        let version = try await updater.install(release, on: Fixtures.lamp) { _ in
            queues.withLock { $0.append(HubQueues.current) }
        }
        XCTAssertEqual(version, FirmwareVersion(1, 1, 0))
        XCTAssertEqual(queues.snapshot, [.firmware, .firmware])
        let withDefaultProgress = try await updater.install(release, on: Fixtures.lamp)
        XCTAssertEqual(withDefaultProgress, FirmwareVersion(1, 1, 0))
        let all = try await updater.updateAll([Fixtures.lamp, Fixtures.lock])
        XCTAssertEqual(all, ["lamp-1": FirmwareVersion(1, 1, 0)])
    }

    func testCancellingAnInstallTaskStopsTheUpload() async {
        let release = FirmwareRelease(version: FirmwareVersion(1, 1, 0), kind: .light, size: 3000, checksum: 99)
        let updater = FirmwareUpdater(source: FakeFirmwareSource([release]), transport: transport, chunkSize: 1024)
        transport.hold("/devices/lamp-1/firmware/chunk")
        let sent = transport.expectRequest("/devices/lamp-1/firmware/chunk", in: self)
        let task = Task { try await updater.install(release, on: Fixtures.lamp) }
        await fulfillment(of: [sent], timeout: Self.patience)
        let cancelled = transport.expectCancel("/devices/lamp-1/firmware/chunk", in: self)
        task.cancel()
        await fulfillment(of: [cancelled], timeout: Self.patience)
        await assertThrows(try await task.value) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(transport.paths, ["/devices/lamp-1/firmware/chunk"])
    }

    // MARK: Discovery and pairing

    func testDiscoveryTwins() async throws {
        let bulb = DiscoveredDevice(address: "10.0.0.7", kind: .light, advertisedName: "Bulb", signal: -40)
        let leak = DiscoveredDevice(address: "ble:1", kind: .sensor, advertisedName: "Leak", signal: -60)
        let ble = BLEScanner { [bulb, leak] }
        let heard = try await ble.scan(for: 0.01)
        XCTAssertEqual(heard, [bulb, leak])
        let discovery = DiscoveryService(scanners: [ble, BLEScanner(minimumSignal: -50) { [leak] }])
        let found = try await discovery.discover(for: 0.01)
        XCTAssertEqual(found, [bulb, leak])
        let defaultDuration = try await DiscoveryService(scanners: []).discover()
        XCTAssertEqual(defaultDuration, [])
    }

    func testFirstDeviceCancelsTheLosingScan() async throws {
        let wifi = FakeScanner(name: "wifi")
        let ble = FakeScanner(name: "ble")
        let leak = DiscoveredDevice(address: "ble:1", kind: .sensor, advertisedName: "Leak", signal: -60)
        let task = Task { try await DiscoveryService(scanners: [wifi, ble]).firstDevice(of: .sensor, within: 10) }
        await eventually("both scans started") { wifi.scanCount == 1 && ble.scanCount == 1 }
        ble.finish(with: [leak])
        let first = try await task.value
        XCTAssertEqual(first, leak)
        await eventually("the losing scan is asked to stop") { wifi.cancelCount == 1 }
    }

    func testCancellingADiscoveryTaskStopsEveryScanner() async {
        let wifi = FakeScanner(name: "wifi")
        let ble = FakeScanner(name: "ble")
        let task = Task { try await DiscoveryService(scanners: [wifi, ble]).discover(for: 10) }
        await eventually("both scans started") { wifi.scanCount == 1 && ble.scanCount == 1 }
        task.cancel()
        await assertThrows(try await task.value) { error in
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(wifi.cancelCount, 1)
        XCTAssertEqual(ble.cancelCount, 1)
    }

    func testPairDeviceTwin() async throws {
        let candidate = DiscoveredDevice(address: "10.0.0.42", kind: .light, advertisedName: "Porch", signal: -50)
        let paired = Device(id: "paired-1", name: "Porch", kind: .light)
        transport.reply("/pair", paired)
        let flow = PairingFlow(transport: transport, table: registry.table)
        let device = try await flow.pairDevice(candidate, setupCode: "111-22-333")
        XCTAssertEqual(device, paired)
        XCTAssertEqual(registry.table["paired-1"], paired)
        await assertThrows(try await flow.pairDevice(candidate, setupCode: "x")) { error in
            XCTAssertEqual(error as? HubError, .pairingFailed(reason: "malformed setup code"))
        }
    }

    // MARK: Sync

    func testCloudSyncTwins() async throws {
        transport.reply("/sync/since/0", [ChangeRecord(sequence: 1, entity: .device, entityID: "lamp-1")])
        transport.reply("/sync/since/1", [ChangeRecord]())
        transport.reply("/sync/changes", SyncReceipt(acceptedThrough: 2))
        let client = CloudSyncClient(transport: transport, auth: FakeAuth())

        let session = try await client.signIn(email: "a@b.c", password: "hunter2")
        XCTAssertEqual(session.accountID, "a@b.c")
        await assertThrows(try await client.signIn(email: "a@b.c", password: "no")) { error in
            XCTAssertEqual(error as? HubError, .unauthorized)
        }
        _ = try await client.signInAndRemember(email: "a@b.c", password: "hunter2")
        XCTAssertEqual(client.session?.accountID, "a@b.c", "the remembering callback ran before the await returned")

        let pulled = try await client.pull()
        XCTAssertEqual(pulled.count, 1)
        XCTAssertEqual(client.cursor, 1)
        client.enqueue(ChangeRecord(sequence: 2, entity: .room, entityID: "hall"))
        let receipt = try await client.push()
        XCTAssertEqual(receipt.acceptedThrough, 2)
        XCTAssertEqual(client.pendingChanges, [])

        client.enqueue(ChangeRecord(sequence: 2, entity: .room, entityID: "hall"))
        let summary = try await client.sync()
        XCTAssertEqual(summary, SyncSummary(pulled: 0, pushed: 1, cursor: 2))
    }

    func testPeriodicSyncTwinEndsWhenTheTokenInvalidates() async throws {
        transport.reply("/sync/since/0", [ChangeRecord]())
        let client = CloudSyncClient(transport: transport, auth: FakeAuth())
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        let pulls = transport.expectRequest("/sync/since/", count: 2, in: self)
        async let count = client.syncPeriodically(every: 0.02, token: token)
        await fulfillment(of: [pulls], timeout: Self.patience)
        token.invalidate()
        let syncs = try await count
        XCTAssertGreaterThanOrEqual(syncs, 1)
    }

    // MARK: Event log, presence, hub

    func testEventLogTwins() async throws {
        let log = EventLog(capacity: 2)
        let first = try await log.record(HubEvent(kind: .stateChanged, message: "1"))
        XCTAssertEqual(first, 1)
        try await log.record(HubEvent(kind: .failure, message: "2"))  // @discardableResult is kept
        try await log.record(HubEvent(kind: .failure, message: "3"))
        let failures = try await log.entries(of: .failure)
        XCTAssertEqual(failures.map(\.message), ["3", "2"])
        let newest = try await log.entries(limit: 1)
        XCTAssertEqual(newest.map(\.message), ["3"])
        let exported = try await log.export()
        XCTAssertFalse(exported.isEmpty)
        let cleared = try await log.clear()
        XCTAssertEqual(cleared, 2)
    }

    func testPresenceTrackerTwinKeepsTheActorsState() async throws {
        let home = SimulatedHome.sample()
        home.setPresent(["ana"])
        let tracker = PresenceTracker(transport: LoopbackTransport(home: home))
        let people = try await tracker.refresh()
        XCTAssertEqual(people, ["ana"])
        let isHome = await tracker.isHome("ana")
        XCTAssertTrue(isHome, "the actor's own callback ran before the await returned")
        let anybody = try await tracker.anybodyHome()
        XCTAssertTrue(anybody)
    }

    func testConnectTwin() async throws {
        transport.replyRaw("/ping", Data("pong".utf8))
        transport.failNext("/ping", with: .timedOut)
        let hub = try await HomeHub.connect(to: transport)
        XCTAssertEqual(hub.transport.name, "fake")
        transport.failNext("/ping", with: .offline)
        await assertThrows(try await HomeHub.connect(to: transport, attempts: 1)) { error in
            XCTAssertEqual(error as? HubError, .offline)
        }
    }

    #if DEBUG
    func testDebugDumpTwin() async throws {
        let dump = try await HomeHub.demo().dumpDevices()
        XCTAssertEqual(dump.split(separator: "\n").count, 5)
    }
    #endif

    func testBootstrapTwin() async throws {
        let snapshot = try await HomeHub.demo().bootstrap()
        XCTAssertEqual(snapshot.devices.count, 5)
        XCTAssertEqual(snapshot.rooms.count, 3)
        let home = SimulatedHome.sample()
        home.isOffline = true
        await assertThrows(try await HomeHub(transport: LoopbackTransport(home: home)).bootstrap()) { error in
            XCTAssertEqual(error as? HubError, .offline)
        }
    }
}
