import Foundation
import Tomorrowland

/// Where rooms are kept. The hub keeps them; the demo mode keeps them in memory.
public protocol RoomStore: AnyObject, Sendable {
    /// Every room, sorted by id.
    func rooms() -> HubPromise<[Room]>
    /// Creates or replaces a room; fulfils with the stored room.
    func save(_ room: Room) -> HubPromise<Room>
}

extension RoomStore {
    /// The room with `id`, or `HubError.roomNotFound`.
    public func room(id: RoomID) -> HubPromise<Room> {
        rooms().flatMap(on: .immediate) { rooms -> HubPromise<Room> in
            guard let room = rooms.first(where: { $0.id == id }) else {
                return HubPromise(rejected: .roomNotFound(id))
            }
            return HubPromise(fulfilled: room)
        }
    }

    /// Moves a device into `roomID`, taking it out of any other room.
    public func move(_ device: DeviceID, to roomID: RoomID) -> HubPromise<Room> {
        rooms().flatMap(on: .utility) { [self] rooms -> HubPromise<Room> in
            guard var target = rooms.first(where: { $0.id == roomID }) else {
                return HubPromise(rejected: .roomNotFound(roomID))
            }
            let others = rooms
                .filter { $0.id != roomID && $0.deviceIDs.contains(device) }
                .map { room -> HubPromise<Room> in
                    var room = room
                    room.deviceIDs.removeAll { $0 == device }
                    return self.save(room)
                }
            if !target.deviceIDs.contains(device) {
                target.deviceIDs.append(device)
            }
            let updated = target
            return when(fulfilled: others).flatMap(on: .immediate) { _ in self.save(updated) }
        }
    }
}

/// Rooms in memory, answered on the state queue.
public final class InMemoryRoomStore: RoomStore {
    private let storage: HubLock<[RoomID: Room]>

    public init(_ rooms: [Room] = []) {
        storage = HubLock(Dictionary(rooms.map { ($0.id, $0) }, uniquingKeysWith: { $1 }))
    }

    public func rooms() -> HubPromise<[Room]> {
        let storage = self.storage
        return HubPromise(on: .hubState) { resolver in
            resolver.fulfill(with: storage.snapshot.values.sorted { $0.id.rawValue < $1.id.rawValue })
        }
    }

    public func save(_ room: Room) -> HubPromise<Room> {
        storage.withLock { $0[room.id] = room }
        return HubPromise(fulfilled: room)
    }
}

/// Rooms as the hub stores them.
public final class RemoteRoomStore: RoomStore {
    private let transport: HubTransport

    public init(transport: HubTransport) {
        self.transport = transport
    }

    public func rooms() -> HubPromise<[Room]> {
        Command<[Room]>(HubRequest(.get, "/rooms")).send(via: transport)
    }

    public func save(_ room: Room) -> HubPromise<Room> {
        guard let request = try? HubRequest.json(.put, "/rooms/\(room.id)", room) else {
            return HubPromise(rejected: .other("could not encode \(room.id)"))
        }
        return Command<Room>(request).send(via: transport)
    }
}
