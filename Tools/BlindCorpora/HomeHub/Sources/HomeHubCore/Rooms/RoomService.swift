import Foundation
import Tomorrowland

/// A room with what the room list shows about it.
public struct RoomSummary: Equatable, Sendable {
    public let room: Room
    public let lightsOn: Int
    public let temperature: Double?

    public init(room: Room, lightsOn: Int, temperature: Double?) {
        self.room = room
        self.lightsOn = lightsOn
        self.temperature = temperature
    }
}

/// Rooms and what is in them.
public final class RoomService {
    private let store: RoomStore
    private let registry: DeviceRegistry
    private var renameCount = 0

    public init(store: RoomStore, registry: DeviceRegistry) {
        self.store = store
        self.registry = registry
    }

    /// Every room.
    public func rooms() -> HubPromise<[Room]> {
        store.rooms()
    }

    /// The devices in a room, freshly read, in the room's order.
    public func devices(in roomID: RoomID) -> HubPromise<[Device]> {
        when(fulfilled: store.room(id: roomID), registry.refreshAll())
            .map(on: .utility) { room, devices in
                room.deviceIDs.compactMap { id in devices.first { $0.id == id } }
            }
    }

    /// One line per room for the room list.
    public func summaries() -> HubPromise<[RoomSummary]> {
        let table = registry.table
        return store.rooms().map(on: .hubState) { rooms in
            rooms.map { room in
                let devices = room.deviceIDs.compactMap { table[$0] }
                let lightsOn = devices.filter { $0.kind == .light && $0.state.isOn == true }.count
                let temperature = devices.first { $0.kind == .thermostat }?.state.currentTemperature
                return RoomSummary(room: room, lightsOn: lightsOn, temperature: temperature)
            }
        }
    }

    /// Turns every light in `room` on or off; fulfils with how many lights were switched.
    public func setLights(in room: Room, on isOn: Bool) -> HubPromise<Int> {
        let lights = room.deviceIDs.filter { registry.table[$0]?.kind == .light }
        guard !lights.isEmpty else {
            return HubPromise(fulfilled: 0)
        }
        return when(fulfilled: lights.map { registry.apply(.power(isOn), to: $0) }, cancelOnFailure: true)
            .map(on: .immediate) { $0.count }
    }

    /// Renames a room.
    public func rename(_ roomID: RoomID, to name: String) -> HubPromise<Room> {
        renameCount += 1
        let store = self.store
        return store.room(id: roomID).flatMap(on: .utility) { room -> HubPromise<Room> in
            var renamed = room
            renamed.name = name
            return store.save(renamed)
        }
    }

    /// Moves a device to another room.
    public func move(_ device: DeviceID, to roomID: RoomID) -> HubPromise<Room> {
        store.move(device, to: roomID)
    }
}
