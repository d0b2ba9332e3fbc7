import Foundation
import Tomorrowland

/// Knows every paired device and talks to them through their drivers.
///
/// Its promises' callbacks run on `callbackContext` (the state queue unless told otherwise),
/// where the table is updated.
public final class DeviceRegistry: Sendable {
    public let table: DeviceTable
    public let callbackContext: PromiseContext
    private let transport: HubTransport
    private let drivers: DriverFactory
    private let log: EventLog?
    private let lastFullRefresh = HubLock<Date?>(nil)
    /// How long a refresh of one device may take.
    public let refreshTimeout: TimeInterval

    public init(transport: HubTransport, table: DeviceTable = DeviceTable(), log: EventLog? = nil,
                callbackContext: PromiseContext = .hubState, refreshTimeout: TimeInterval = 10) {
        self.transport = transport
        self.refreshTimeout = refreshTimeout
        self.table = table
        self.drivers = DriverFactory(transport: transport)
        self.log = log
        self.callbackContext = callbackContext
    }

    /// A registry whose table is already filled from the hub.
    public static func loading(from transport: HubTransport, log: EventLog? = nil) -> HubPromise<DeviceRegistry> {
        let registry = DeviceRegistry(transport: transport, log: log)
        return registry.loadAll().map(on: .immediate) { _ in registry }
    }

    /// When `refreshAll()` last succeeded.
    public var lastRefreshed: Date? {
        lastFullRefresh.snapshot
    }

    /// The devices known right now, without asking the hub.
    public var cachedDevices: [Device] {
        table.all
    }

    /// The device with `id`: from the table when known, otherwise asked from the hub.
    public func device(id: DeviceID) -> DevicePromise {
        let table = self.table
        let transport = self.transport
        return Promise(on: .hubState) { resolver in
            if let device = table[id] {
                resolver.fulfill(with: device)
                return
            }
            resolver.resolve(with: transport.fetch(Device.self, HubRequest(.get, "/devices/\(id)")))
        }.then(on: .nowOr(.hubState)) { device in
            table.upsert(device)
        }
    }

    /// Loads the list of devices from the hub and replaces the table with it.
    public func loadAll() -> HubPromise<[Device]> {
        let table = self.table
        return Command<[Device]>.listDevices.send(via: transport)
            .then(on: callbackContext) { devices in
                table.replaceAll(with: devices)
            }
    }

    /// Reads one device's state again.
    public func refresh(id: DeviceID) -> DevicePromise {
        let drivers = self.drivers
        let table = self.table
        let timeout = refreshTimeout
        return device(id: id)
            .flatMap(on: .utility) { device in
                drivers.driver(for: device).refreshed().orTimeout(after: timeout)
            }
            .then(on: callbackContext) { device in
                table.upsert(device)
            }
    }

    /// Refreshes every known device, or loads the list when none is known yet.
    ///
    /// Fails with the first device that fails; the other refreshes are then asked to cancel.
    public func refreshAll() -> HubPromise<[Device]> {
        let ids = table.ids
        guard !ids.isEmpty else {
            return loadAll()
        }
        return when(fulfilled: ids.map { refresh(id: $0) }, cancelOnFailure: true)
            .then(on: callbackContext) { [weak self] _ in
                self?.lastFullRefresh.withLock { $0 = Date() }
            }
    }

    /// Asks a device to make `change`; the table is updated with the state it reached.
    @discardableResult
    public func apply(_ change: StateChange, to id: DeviceID) -> HubPromise<DeviceState> {
        let drivers = self.drivers
        let table = self.table
        let log = self.log
        return device(id: id)
            .flatMap(on: .radio) { device in
                drivers.driver(for: device).apply(change)
            }
            .then(on: .hubState) { state in
                table.update(id) { $0.state = state }
                log?.append(HubEvent(kind: .stateChanged, deviceID: id, message: "\(change)"))
            }
    }

    /// Turns a light (or anything with power) on when it is off, and off when it is on.
    public func toggle(id: DeviceID) -> HubPromise<DeviceState> {
        let table = self.table
        let drivers = self.drivers
        return device(id: id)
            .flatMap(on: .radio) { device -> HubPromise<DeviceState> in
                let isOn = table[id]?.state.isOn ?? device.state.isOn ?? false
                return drivers.driver(for: device).apply(.power(!isOn))
            }
            .then(on: callbackContext) { state in
                table.update(id) { $0.state = state }
            }
    }

    /// Sets several devices at once; fulfils with their new states in the same order.
    public func apply(_ changes: [(DeviceID, StateChange)]) -> HubPromise<[DeviceState]> {
        when(fulfilled: changes.map { apply($0.1, to: $0.0) })
    }

    /// Unpairs a device.
    public func remove(id: DeviceID) -> CompletionPromise {
        let table = self.table
        return transport.perform(HubRequest(.delete, "/devices/\(id)"))
            .then(on: .hubState) {
                table.remove(id)
            }
    }

    /// Blinks or beeps the device so the user can find it.
    public func identify(id: DeviceID) -> StdPromise<Void> {
        let drivers = self.drivers
        return device(id: id).std.flatMap(on: .utility) { device in
            drivers.driver(for: device).identify()
        }
    }

    /// The devices whose battery is below `threshold` percent, lowest first.
    public func lowBatteryDevices(below threshold: Int = 20) -> Guaranteed<[Device]> {
        refreshAll()
            .map(on: .utility) { devices in
                devices
                    .filter { ($0.state.batteryLevel ?? 100) < threshold }
                    .sorted { ($0.state.batteryLevel ?? 0) < ($1.state.batteryLevel ?? 0) }
            }
            .recover(on: .utility) { _ in [] }
    }
}
