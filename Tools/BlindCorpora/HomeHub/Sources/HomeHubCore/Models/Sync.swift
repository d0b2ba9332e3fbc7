import Foundation

/// One change to the home's configuration, as the cloud stores it.
public struct ChangeRecord: Codable, Equatable, Sendable {
    public enum Entity: String, Codable, Sendable {
        case device, room, scene, automation
    }

    public let sequence: Int
    public let entity: Entity
    public let entityID: String
    public let payload: Data

    public init(sequence: Int, entity: Entity, entityID: String, payload: Data = Data()) {
        self.sequence = sequence
        self.entity = entity
        self.entityID = entityID
        self.payload = payload
    }
}

/// What the cloud answers to a push.
public struct SyncReceipt: Codable, Equatable, Sendable {
    public let acceptedThrough: Int
    public let conflicts: [String]

    public init(acceptedThrough: Int, conflicts: [String] = []) {
        self.acceptedThrough = acceptedThrough
        self.conflicts = conflicts
    }
}

/// The outcome of a full sync.
public struct SyncSummary: Equatable, Sendable {
    public let pulled: Int
    public let pushed: Int
    public let cursor: Int
    public let usedRetry: Bool

    public init(pulled: Int, pushed: Int, cursor: Int, usedRetry: Bool = false) {
        self.pulled = pulled
        self.pushed = pushed
        self.cursor = cursor
        self.usedRetry = usedRetry
    }
}

/// A signed-in cloud session.
public struct CloudSession: Codable, Equatable, Sendable {
    public let accountID: String
    public let accessToken: String
    public let expiresAt: Date

    public init(accountID: String, accessToken: String, expiresAt: Date) {
        self.accountID = accountID
        self.accessToken = accessToken
        self.expiresAt = expiresAt
    }

    public var isExpired: Bool { expiresAt < Date() }
}

/// A device seen during discovery but not yet paired.
public struct DiscoveredDevice: Codable, Hashable, Sendable {
    public let address: String
    public let kind: DeviceKind
    public let advertisedName: String
    /// dBm; higher is closer.
    public let signal: Int

    public init(address: String, kind: DeviceKind, advertisedName: String, signal: Int) {
        self.address = address
        self.kind = kind
        self.advertisedName = advertisedName
        self.signal = signal
    }
}
