import Foundation

/// A device's identifier, as the hub assigns it at pairing time.
public struct DeviceID: Hashable, Codable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }
}

/// What kind of thing a device is; decides its driver.
public enum DeviceKind: String, Codable, Sendable, CaseIterable {
    case light
    case thermostat
    case lock
    case sensor
}

/// The last known state of a device. Fields a kind does not have stay `nil`.
public struct DeviceState: Codable, Equatable, Sendable {
    public var isOn: Bool?
    /// 0...100
    public var brightness: Int?
    public var targetTemperature: Double?
    public var currentTemperature: Double?
    public var isLocked: Bool?
    /// A sensor's reading, in its own unit.
    public var reading: Double?
    /// 0...100, for battery-powered devices.
    public var batteryLevel: Int?

    public init(isOn: Bool? = nil, brightness: Int? = nil, targetTemperature: Double? = nil,
                currentTemperature: Double? = nil, isLocked: Bool? = nil, reading: Double? = nil,
                batteryLevel: Int? = nil) {
        self.isOn = isOn
        self.brightness = brightness
        self.targetTemperature = targetTemperature
        self.currentTemperature = currentTemperature
        self.isLocked = isLocked
        self.reading = reading
        self.batteryLevel = batteryLevel
    }

    /// The state after `change`, as the device will report it.
    public func applying(_ change: StateChange) -> DeviceState {
        var next = self
        switch change {
        case .power(let on):
            next.isOn = on
        case .brightness(let level):
            next.brightness = level
            next.isOn = level > 0
        case .targetTemperature(let degrees):
            next.targetTemperature = degrees
        case .lock(let locked, _):
            next.isLocked = locked
        }
        return next
    }
}

/// A change the user (or an automation) asks a device to make.
public enum StateChange: Codable, Equatable, Sendable {
    case power(Bool)
    case brightness(Int)
    case targetTemperature(Double)
    /// Locks need a PIN to unlock; locking needs none.
    case lock(Bool, pin: String?)
}

/// A paired device.
public struct Device: Codable, Equatable, Sendable, Identifiable {
    public let id: DeviceID
    public var name: String
    public var kind: DeviceKind
    public var roomID: RoomID?
    public var firmware: FirmwareVersion
    public var state: DeviceState
    public var isReachable: Bool

    public init(id: DeviceID, name: String, kind: DeviceKind, roomID: RoomID? = nil,
                firmware: FirmwareVersion = FirmwareVersion(1, 0, 0), state: DeviceState = DeviceState(),
                isReachable: Bool = true) {
        self.id = id
        self.name = name
        self.kind = kind
        self.roomID = roomID
        self.firmware = firmware
        self.state = state
        self.isReachable = isReachable
    }
}
