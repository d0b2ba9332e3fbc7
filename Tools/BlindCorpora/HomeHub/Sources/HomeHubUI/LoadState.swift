import Foundation
import HomeHubCore

/// What a screen shows while it loads.
public enum LoadState<Value: Equatable>: Equatable {
    case idle
    case loading
    case loaded(Value)
    case failed(HubError)

    public var value: Value? {
        if case .loaded(let value) = self { return value }
        return nil
    }

    public var isLoading: Bool {
        self == .loading
    }
}

/// One device on the dashboard.
public struct DeviceTile: Equatable, Sendable {
    public let id: DeviceID
    public let title: String
    public let subtitle: String
    public let isActive: Bool

    public init(_ device: Device) {
        id = device.id
        title = device.name
        switch device.kind {
        case .light:
            isActive = device.state.isOn == true
            subtitle = isActive ? "On, \(device.state.brightness ?? 100)%" : "Off"
        case .thermostat:
            isActive = true
            subtitle = String(format: "%.1f° → %.1f°", device.state.currentTemperature ?? 0, device.state.targetTemperature ?? 0)
        case .lock:
            isActive = device.state.isLocked == false
            subtitle = device.state.isLocked == true ? "Locked" : "Unlocked"
        case .sensor:
            isActive = false
            subtitle = device.state.reading.map { String(format: "%.0f", $0) } ?? "—"
        }
    }
}
