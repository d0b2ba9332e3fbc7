import Foundation

/// A room's identifier.
public struct RoomID: Hashable, Codable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }
}

/// A room and the devices placed in it.
public struct Room: Codable, Equatable, Sendable, Identifiable {
    public let id: RoomID
    public var name: String
    public var deviceIDs: [DeviceID]

    public init(id: RoomID, name: String, deviceIDs: [DeviceID] = []) {
        self.id = id
        self.name = name
        self.deviceIDs = deviceIDs
    }
}

/// Everything the dashboard shows, loaded in one go at launch.
public struct HomeSnapshot: Equatable, Sendable {
    public var devices: [Device]
    public var rooms: [Room]
    public var scenes: [HomeScene]

    public init(devices: [Device], rooms: [Room], scenes: [HomeScene]) {
        self.devices = devices
        self.rooms = rooms
        self.scenes = scenes
    }

    /// The devices of `room`, in the room's order.
    public func devices(in room: Room) -> [Device] {
        room.deviceIDs.compactMap { id in devices.first { $0.id == id } }
    }
}
