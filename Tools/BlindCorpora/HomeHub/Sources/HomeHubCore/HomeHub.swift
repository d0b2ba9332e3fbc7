import Foundation
import Tomorrowland

/// The hub's services, wired together. The app makes one at launch.
public final class HomeHub {
    public let transport: HubTransport
    public let log: EventLog
    public let registry: DeviceRegistry
    public let roomStore: RoomStore
    public let rooms: RoomService
    public let scenes: SceneEngine
    public let automations: AutomationScheduler
    public let firmware: FirmwareUpdater
    public let pairing: PairingFlow
    public let presence: PresenceTracker

    public init(transport: HubTransport, roomStore: RoomStore? = nil, firmwareSource: FirmwareSource? = nil,
                scenes: [HomeScene] = [], automations: [Automation] = []) {
        self.transport = transport
        log = EventLog()
        registry = DeviceRegistry(transport: transport, log: log)
        self.roomStore = roomStore ?? RemoteRoomStore(transport: transport)
        rooms = RoomService(store: self.roomStore, registry: registry)
        self.scenes = SceneEngine(registry: registry, scenes: scenes, log: log)
        self.automations = AutomationScheduler(engine: self.scenes, automations: automations, log: log)
        firmware = FirmwareUpdater(source: firmwareSource ?? HubFirmwareSource(transport: transport),
                                   transport: transport, log: log)
        pairing = PairingFlow(transport: transport, table: registry.table, log: log)
        presence = PresenceTracker(transport: transport)
    }

    /// A hub on the in-process simulator, with the sample home.
    public static func demo(latency: TimeInterval = 0.005) -> HomeHub {
        let movieNight = HomeScene(id: "movie", name: "Movie night", actions: [
            SceneAction(deviceID: "lamp-1", change: .brightness(20)),
            SceneAction(deviceID: "lamp-2", change: .power(false)),
        ])
        let goodNight = HomeScene(id: "night", name: "Good night", actions: [
            SceneAction(deviceID: "lamp-1", change: .power(false)),
            SceneAction(deviceID: "lamp-2", change: .power(false)),
            SceneAction(deviceID: "lock-1", change: .lock(true, pin: nil)),
        ])
        let evening = Automation(id: "evening", name: "Evening lights", trigger: .sunset(offset: -600), sceneID: "movie")
        return HomeHub(transport: LoopbackTransport(home: .sample(), latency: latency),
                       scenes: [movieNight, goodNight], automations: [evening])
    }

    /// Loads devices, rooms and scenes for the first screen.
    public func bootstrap() -> HubPromise<HomeSnapshot> {
        let scenes = self.scenes
        return when(fulfilled: registry.loadAll(), roomStore.rooms())
            .map(on: .utility) { devices, rooms in
                HomeSnapshot(devices: devices, rooms: rooms, scenes: scenes.allScenes)
            }
            .recordingFailure(in: log, source: "bootstrap")
    }

    /// Connects to the hub, trying a few times while it is still booting.
    public static func connect(to transport: HubTransport, attempts: Int = 3) -> HubPromise<HomeHub> {
        retrying(attempts: attempts, delay: 0.05) {
            transport.send(HubRequest(.get, "/ping"))
        }.map(on: .utility) { _ in
            HomeHub(transport: transport)
        }
    }

    /// Makes every device blink or beep, one request each, all at once.
    public func identifyAll() -> StdPromise<[Void]> {
        when(fulfilled: registry.table.ids.map(registry.identify(id:)))
    }

    /// Whether the hub answers right now.
    public var isReachable: Guaranteed<Bool> {
        transport.isReachable(timeout: 2)
    }

    #if DEBUG
    /// Prints the device table; for the debug menu.
    public func dumpDevices() -> Guaranteed<String> {
        registry.loadAll()
            .map(on: .utility) { devices in
                devices.map { "\($0.id): \($0.name) \($0.state)" }.joined(separator: "\n")
            }
            .recover(on: .utility) { error in "error: \(error)" }
    }
    #endif
}
