import Foundation

/// The hub's in-memory table of devices, in pairing order. Thread-safe.
public final class DeviceTable: @unchecked Sendable {
    private let lock = NSLock()
    private var byID: [DeviceID: Device] = [:]
    private var order: [DeviceID] = []

    public init(_ devices: [Device] = []) {
        devices.forEach(upsert)
    }

    public var all: [Device] {
        lock.lock()
        defer { lock.unlock() }
        return order.compactMap { byID[$0] }
    }

    public var ids: [DeviceID] {
        lock.lock()
        defer { lock.unlock() }
        return order
    }

    public subscript(id: DeviceID) -> Device? {
        lock.lock()
        defer { lock.unlock() }
        return byID[id]
    }

    public func upsert(_ device: Device) {
        lock.lock()
        defer { lock.unlock() }
        if byID[device.id] == nil {
            order.append(device.id)
        }
        byID[device.id] = device
    }

    public func update(_ id: DeviceID, _ body: (inout Device) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        guard var device = byID[id] else { return }
        body(&device)
        byID[id] = device
    }

    public func remove(_ id: DeviceID) {
        lock.lock()
        defer { lock.unlock() }
        byID[id] = nil
        order.removeAll { $0 == id }
    }

    public func replaceAll(with devices: [Device]) {
        lock.lock()
        defer { lock.unlock() }
        byID = Dictionary(devices.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        order = devices.map(\.id)
    }
}
