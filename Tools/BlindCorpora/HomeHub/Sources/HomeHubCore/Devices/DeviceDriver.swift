import Foundation
import Tomorrowland

/// Speaks one kind of device's dialect. Subclasses override what their kind does differently.
///
/// Drivers are cheap: the registry makes one per call.
open class DeviceDriver {
    public let device: Device
    public let transport: HubTransport

    public required init(device: Device, transport: HubTransport) {
        self.device = device
        self.transport = transport
    }

    /// Reads the device's current state.
    open func readState() -> HubPromise<DeviceState> {
        Command<DeviceState>.readState(of: device.id).send(via: transport)
    }

    /// Asks the device to make `change` and fulfils with the state it reached.
    open func apply(_ change: StateChange) -> HubPromise<DeviceState> {
        Command<DeviceState>.apply(change, to: device.id).send(via: transport)
    }

    /// Makes the device show itself (blink, beep) so the user can find it.
    open func identify() -> StdPromise<Void> {
        transport.perform(HubRequest(.post, "/devices/\(device.id)/identify")).std
    }

    /// The device with a freshly read state.
    public final func refreshed() -> DevicePromise {
        let device = self.device
        return readState().map(on: .immediate) { state in
            var updated = device
            updated.state = state
            updated.isReachable = true
            return updated
        }
    }
}

/// Lights: brightness is clamped to 0...100, and 0 means off.
public final class LightDriver: DeviceDriver {
    public override func apply(_ change: StateChange) -> HubPromise<DeviceState> {
        switch change {
        case .brightness(let level) where level < 0 || level > 100:
            return super.apply(.brightness(min(max(level, 0), 100)))
        case .targetTemperature, .lock:
            return HubPromise(rejected: .unsupported("\(change) on a light"))
        default:
            return super.apply(change)
        }
    }
}

/// Thermostats accept targets between 7 °C and 30 °C, in half degrees.
public final class ThermostatDriver: DeviceDriver {
    public static let range: ClosedRange<Double> = 7...30

    public override func apply(_ change: StateChange) -> HubPromise<DeviceState> {
        guard case .targetTemperature(let degrees) = change else {
            return HubPromise(rejected: .unsupported("\(change) on a thermostat"))
        }
        guard Self.range.contains(degrees) else {
            return HubPromise(rejected: .unsupported("target \(degrees) °C"))
        }
        let rounded = (degrees * 2).rounded() / 2
        return super.apply(.targetTemperature(rounded))
    }

    /// Thermostats have no LED: identifying one is a no-op that succeeds.
    public override func identify() -> StdPromise<Void> {
        StdPromise(fulfilled: ())
    }
}

/// Locks check the PIN with the lock itself before unlocking.
public class LockDriver: DeviceDriver {
    public override func apply(_ change: StateChange) -> HubPromise<DeviceState> {
        guard case .lock(let locked, let pin) = change else {
            return HubPromise(rejected: .unsupported("\(change) on a lock"))
        }
        if locked {
            return super.apply(change)
        }
        guard let pin = pin, !pin.isEmpty else {
            return HubPromise(rejected: .unauthorized)
        }
        let transport = self.transport
        let id = device.id
        let verify = Command<PinVerdict>(HubRequest(.post, "/locks/\(id)/verify", body: Data(pin.utf8)))
        return verify.send(via: transport).flatMap(on: .radio) { verdict -> HubPromise<DeviceState> in
            guard verdict.accepted else {
                return HubPromise(rejected: .unauthorized)
            }
            return Command<DeviceState>.apply(change, to: id).send(via: transport)
        }
    }

    public override func identify() -> StdPromise<Void> {
        // Locks beep; a beep needs the lock awake, which takes a moment.
        super.identify().delay(on: .utility, 0.01)
    }
}

/// Sensors report a cached reading when they are asleep (battery saving).
public final class SensorDriver: DeviceDriver {
    public override func readState() -> HubPromise<DeviceState> {
        let cached = device.state
        return super.readState().replacingTransientFailure(with: cached)
    }

    public override func apply(_ change: StateChange) -> HubPromise<DeviceState> {
        HubPromise(rejected: .unsupported("sensors are read-only"))
    }
}

/// Makes the driver for a device.
public struct DriverFactory: Sendable {
    public let transport: HubTransport

    public init(transport: HubTransport) {
        self.transport = transport
    }

    public func driver(for device: Device) -> DeviceDriver {
        let type: DeviceDriver.Type
        switch device.kind {
        case .light: type = LightDriver.self
        case .thermostat: type = ThermostatDriver.self
        case .lock: type = LockDriver.self
        case .sensor: type = SensorDriver.self
        }
        return type.init(device: device, transport: transport)
    }
}
