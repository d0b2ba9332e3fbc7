import Foundation

/// An entry of the hub's event log.
public struct HubEvent: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable {
        case stateChanged
        case sceneActivated
        case automationRan
        case firmwareInstalled
        case devicePaired
        case syncCompleted
        case failure
    }

    public let timestamp: Date
    public let kind: Kind
    public let deviceID: DeviceID?
    public let message: String

    public init(kind: Kind, deviceID: DeviceID? = nil, message: String, timestamp: Date = Date()) {
        self.timestamp = timestamp
        self.kind = kind
        self.deviceID = deviceID
        self.message = message
    }
}
