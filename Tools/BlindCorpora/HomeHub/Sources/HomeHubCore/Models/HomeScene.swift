import Foundation

/// One step of a scene: a change for one device.
public struct SceneAction: Codable, Equatable, Sendable {
    public let deviceID: DeviceID
    public let change: StateChange

    public init(deviceID: DeviceID, change: StateChange) {
        self.deviceID = deviceID
        self.change = change
    }
}

/// A named set of changes applied together ("Movie night", "Good morning").
public struct HomeScene: Codable, Equatable, Sendable, Identifiable {
    public let id: String
    public var name: String
    public var actions: [SceneAction]

    public init(id: String, name: String, actions: [SceneAction]) {
        self.id = id
        self.name = name
        self.actions = actions
    }
}

/// What activating a scene did.
public struct SceneActivationReport: Equatable, Sendable {
    public let sceneID: String
    public let states: [DeviceID: DeviceState]
    public let duration: TimeInterval

    public init(sceneID: String, states: [DeviceID: DeviceState], duration: TimeInterval) {
        self.sceneID = sceneID
        self.states = states
        self.duration = duration
    }
}
