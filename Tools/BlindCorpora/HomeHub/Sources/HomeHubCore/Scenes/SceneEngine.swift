import Foundation
import Tomorrowland

/// Activates scenes: many device changes at once, all or nothing (as far as radios allow).
public final class SceneEngine: Sendable {
    private let registry: DeviceRegistry
    private let scenes: HubLock<[String: HomeScene]>
    private let log: EventLog?
    /// How long a whole activation may take.
    public let activationTimeout: TimeInterval

    public init(registry: DeviceRegistry, scenes: [HomeScene] = [], log: EventLog? = nil,
                activationTimeout: TimeInterval = 10) {
        self.registry = registry
        self.scenes = HubLock(Dictionary(scenes.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
        self.log = log
        self.activationTimeout = activationTimeout
    }

    /// Every scene, sorted by name.
    public var allScenes: [HomeScene] {
        scenes.snapshot.values.sorted { $0.name < $1.name }
    }

    public func scene(id: String) -> HomeScene? {
        scenes.snapshot[id]
    }

    public func save(_ scene: HomeScene) {
        scenes.withLock { $0[scene.id] = scene }
    }

    /// Applies every action of `scene`. When one device fails, the other changes still in flight
    /// are asked to cancel and the activation fails with that device's error.
    public func activate(_ scene: HomeScene) -> HubPromise<SceneActivationReport> {
        let started = Date()
        let ids = scene.actions.map(\.deviceID)
        let sceneID = scene.id
        let log = self.log
        let changes = scene.actions.map { registry.apply($0.change, to: $0.deviceID) }
        return when(fulfilled: changes, cancelOnFailure: true)
            .orTimeout(after: activationTimeout)
            .map(on: .utility) { states in
                SceneActivationReport(sceneID: sceneID,
                                      states: Dictionary(zip(ids, states), uniquingKeysWith: { $1 }),
                                      duration: Date().timeIntervalSince(started))
            }
            .tap(on: .utility) { result in
                if case .value(let report) = result {
                    log?.append(HubEvent(kind: .sceneActivated, message: "\(report.sceneID) in \(report.duration)s"))
                }
            }
    }

    /// Activates the scene with `id`.
    public func activate(sceneID id: String) -> HubPromise<SceneActivationReport> {
        guard let scene = scene(id: id) else {
            return HubPromise(rejected: .other("no scene \(id)"))
        }
        return activate(scene)
    }

    /// The states `scene` would set, computed from fresh state when the hub answers and from the
    /// cache when it does not. Never fails.
    public func preview(_ scene: HomeScene) -> Guaranteed<[DeviceID: DeviceState]> {
        let table = registry.table
        return registry.refreshAll().mapResult(on: .utility) { result -> PromiseResult<[DeviceID: DeviceState], NoError> in
            let devices: [Device]
            switch result {
            case .value(let fresh): devices = fresh
            case .error: devices = table.all
            case .cancelled: return .cancelled
            }
            var preview: [DeviceID: DeviceState] = [:]
            for action in scene.actions {
                guard let device = devices.first(where: { $0.id == action.deviceID }) else { continue }
                preview[action.deviceID] = (preview[action.deviceID] ?? device.state).applying(action.change)
            }
            return .value(preview)
        }
    }
}
