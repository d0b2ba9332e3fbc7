import Foundation
import Tomorrowland

/// Answers requests from a `SimulatedHome` in this process, after `latency` seconds.
///
/// The demo mode runs the whole app on this transport, and so do the integration tests.
public final class LoopbackTransport: HubTransport {
    public let name = "loopback"
    public let home: SimulatedHome
    private let latency: TimeInterval

    public init(home: SimulatedHome, latency: TimeInterval = 0.005) {
        self.home = home
        self.latency = latency
    }

    public func send(_ request: HubRequest) -> HubPromise<Data> {
        let home = self.home
        home.record(request)
        return HubPromise(on: .radio) { resolver in
            if resolver.hasRequestedCancel {
                resolver.cancel()
                return
            }
            resolver.resolve(with: home.handle(request))
        }.delay(on: .radio, latency)
    }
}

/// A home that lives in memory: devices, rooms, locks with PINs, firmware, and the cloud's change
/// feed. Thread-safe.
public final class SimulatedHome: @unchecked Sendable {
    private struct Storage {
        var devices: [DeviceID: Device] = [:]
        var order: [DeviceID] = []
        var rooms: [RoomID: Room] = [:]
        var lockPIN = "1234"
        var releases: [DeviceKind: FirmwareRelease] = [:]
        var changes: [ChangeRecord] = []
        var offline = false
        var requests: [HubRequest] = []
        var pairingCodes: [String: String] = [:]
        var presence: [String] = []
    }

    private let storage = HubLock(Storage())

    public init() {}

    /// A home with a few rooms and one device of each kind, for demos and tests.
    public static func sample() -> SimulatedHome {
        let home = SimulatedHome()
        home.add(Device(id: "lamp-1", name: "Floor lamp", kind: .light, roomID: "living",
                        state: DeviceState(isOn: false, brightness: 0)))
        home.add(Device(id: "lamp-2", name: "Reading light", kind: .light, roomID: "living",
                        state: DeviceState(isOn: true, brightness: 60)))
        home.add(Device(id: "thermo-1", name: "Hallway thermostat", kind: .thermostat, roomID: "hall",
                        state: DeviceState(targetTemperature: 20, currentTemperature: 19.5)))
        home.add(Device(id: "lock-1", name: "Front door", kind: .lock, roomID: "hall",
                        state: DeviceState(isLocked: true, batteryLevel: 80)))
        home.add(Device(id: "sensor-1", name: "Bathroom humidity", kind: .sensor, roomID: "bath",
                        state: DeviceState(reading: 48, batteryLevel: 65)))
        home.setRoom(Room(id: "living", name: "Living room", deviceIDs: ["lamp-1", "lamp-2"]))
        home.setRoom(Room(id: "hall", name: "Hall", deviceIDs: ["thermo-1", "lock-1"]))
        home.setRoom(Room(id: "bath", name: "Bathroom", deviceIDs: ["sensor-1"]))
        home.publish(FirmwareRelease(version: FirmwareVersion(1, 1, 0), kind: .light, size: 4096, checksum: 0xBEEF))
        home.allowPairing(address: "10.0.0.42", code: "111-22-333")
        return home
    }

    // MARK: Setup

    public func add(_ device: Device) {
        storage.withLock { storage in
            if storage.devices[device.id] == nil { storage.order.append(device.id) }
            storage.devices[device.id] = device
        }
    }

    public func setRoom(_ room: Room) {
        storage.withLock { $0.rooms[room.id] = room }
    }

    public func publish(_ release: FirmwareRelease) {
        storage.withLock { $0.releases[release.kind] = release }
    }

    public func allowPairing(address: String, code: String) {
        storage.withLock { $0.pairingCodes[address] = code }
    }

    public func setPresent(_ people: [String]) {
        storage.withLock { $0.presence = people }
    }

    public func appendChange(_ change: ChangeRecord) {
        storage.withLock { $0.changes.append(change) }
    }

    /// While `true`, every request fails with `HubError.offline`.
    public var isOffline: Bool {
        get { storage.snapshot.offline }
        set { storage.withLock { $0.offline = newValue } }
    }

    // MARK: Inspection

    public func device(_ id: DeviceID) -> Device? {
        storage.snapshot.devices[id]
    }

    /// Every request received, in order.
    public var requests: [HubRequest] {
        storage.snapshot.requests
    }

    func record(_ request: HubRequest) {
        storage.withLock { $0.requests.append(request) }
    }

    // MARK: Routing

    /// Answers one request.
    public func handle(_ request: HubRequest) -> PromiseResult<Data, HubError> {
        storage.withLock { storage -> PromiseResult<Data, HubError> in
            if storage.offline { return .error(.offline) }
            let parts = request.components
            do {
                switch (request.method, parts.first, parts.count) {
                case (.get, "ping", _):
                    return .value(Data("pong".utf8))
                case (.get, "devices", 1):
                    return .value(try JSONEncoder().encode(storage.order.compactMap { storage.devices[$0] }))
                case (.get, "devices", 2):
                    guard let device = storage.devices[DeviceID(parts[1])] else { return .error(.deviceNotFound(DeviceID(parts[1]))) }
                    return .value(try JSONEncoder().encode(device))
                case (.delete, "devices", 2):
                    let id = DeviceID(parts[1])
                    guard storage.devices.removeValue(forKey: id) != nil else { return .error(.deviceNotFound(id)) }
                    storage.order.removeAll { $0 == id }
                    return .value(Data())
                case (.get, "devices", 3) where parts[2] == "state":
                    guard let device = storage.devices[DeviceID(parts[1])] else { return .error(.deviceNotFound(DeviceID(parts[1]))) }
                    return .value(try JSONEncoder().encode(device.state))
                case (.put, "devices", 3) where parts[2] == "state":
                    let id = DeviceID(parts[1])
                    guard var device = storage.devices[id] else { return .error(.deviceNotFound(id)) }
                    let change = try JSONDecoder().decode(StateChange.self, from: request.body ?? Data())
                    if case .lock(false, let pin) = change, pin != storage.lockPIN { return .error(.unauthorized) }
                    device.state = device.state.applying(change)
                    storage.devices[id] = device
                    return .value(try JSONEncoder().encode(device.state))
                case (.post, "devices", 3) where parts[2] == "identify":
                    return storage.devices[DeviceID(parts[1])] == nil ? .error(.deviceNotFound(DeviceID(parts[1]))) : .value(Data())
                case (.post, "locks", 3) where parts[2] == "verify":
                    let pin = String(decoding: request.body ?? Data(), as: UTF8.self)
                    return .value(try JSONEncoder().encode(PinVerdict(accepted: pin == storage.lockPIN, attemptsLeft: 3)))
                case (.get, "rooms", 1):
                    return .value(try JSONEncoder().encode(storage.rooms.values.sorted { $0.id.rawValue < $1.id.rawValue }))
                case (.put, "rooms", 2):
                    let room = try JSONDecoder().decode(Room.self, from: request.body ?? Data())
                    storage.rooms[room.id] = room
                    return .value(try JSONEncoder().encode(room))
                case (.get, "firmware", 3) where parts[2] == "latest":
                    guard let kind = DeviceKind(rawValue: parts[1]), let release = storage.releases[kind] else {
                        return .error(.upToDate)
                    }
                    return .value(try JSONEncoder().encode(release))
                case (.post, "devices", 4) where parts[2] == "firmware" && parts[3] == "chunk":
                    return .value(Data())
                case (.post, "devices", 4) where parts[2] == "firmware" && parts[3] == "commit":
                    let id = DeviceID(parts[1])
                    guard var device = storage.devices[id] else { return .error(.deviceNotFound(id)) }
                    let version = try JSONDecoder().decode(FirmwareVersion.self, from: request.body ?? Data())
                    device.firmware = version
                    storage.devices[id] = device
                    return .value(try JSONEncoder().encode(version))
                case (.post, "pair", _):
                    let attempt = try JSONDecoder().decode(PairingAttempt.self, from: request.body ?? Data())
                    guard storage.pairingCodes[attempt.address] == attempt.setupCode else {
                        return .error(.pairingFailed(reason: "setup code does not match"))
                    }
                    let id = DeviceID("paired-\(storage.order.count + 1)")
                    let device = Device(id: id, name: attempt.name, kind: attempt.kind)
                    storage.devices[id] = device
                    storage.order.append(id)
                    return .value(try JSONEncoder().encode(device))
                case (.get, "presence", _):
                    return .value(try JSONEncoder().encode(storage.presence))
                case (.get, "sync", _):
                    let since = Int(parts.last ?? "") ?? 0
                    return .value(try JSONEncoder().encode(storage.changes.filter { $0.sequence > since }))
                case (.post, "sync", _):
                    let pushed = try JSONDecoder().decode([ChangeRecord].self, from: request.body ?? Data())
                    storage.changes.append(contentsOf: pushed)
                    return .value(try JSONEncoder().encode(SyncReceipt(acceptedThrough: pushed.map(\.sequence).max() ?? 0)))
                default:
                    return .error(.rejectedByDevice(code: 404))
                }
            } catch {
                return .error(.decoding(String(describing: error)))
            }
        }
    }
}

/// The body of a pairing request.
public struct PairingAttempt: Codable, Equatable, Sendable {
    public let address: String
    public let setupCode: String
    public let name: String
    public let kind: DeviceKind

    public init(address: String, setupCode: String, name: String, kind: DeviceKind) {
        self.address = address
        self.setupCode = setupCode
        self.name = name
        self.kind = kind
    }
}
