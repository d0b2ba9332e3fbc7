import Foundation
import Tomorrowland
import HomeHubCore

/// One room's screen: its devices and a "lights" switch.
@MainActor
public final class RoomViewModel {
    public let roomID: RoomID
    public private(set) var devices: LoadState<[Device]> = .idle
    public private(set) var lightsOn = false
    public private(set) var busy = false
    private let rooms: RoomService
    private let token = PromiseInvalidationToken()

    public init(roomID: RoomID, rooms: RoomService) {
        self.roomID = roomID
        self.rooms = rooms
    }

    /// Loads the room's devices.
    public func load() -> HubPromise<[Device]> {
        devices = .loading
        return rooms.devices(in: roomID)
            .map(on: .utility) { devices in
                devices.sorted { $0.name < $1.name }
            }
            .then(on: .main, token: token) { [weak self] devices in
                self?.devices = .loaded(devices)
                self?.lightsOn = devices.contains { $0.kind == .light && $0.state.isOn == true }
            }
            .catch(on: .main, token: token) { [weak self] error in
                self?.devices = .failed(error)
            }
    }

    /// Switches every light of the room; fulfils with how many were switched.
    public func setLights(on isOn: Bool) -> HubPromise<Int> {
        guard let room = currentRoom() else {
            return HubPromise(rejected: .roomNotFound(roomID))
        }
        busy = true
        return rooms.setLights(in: room, on: isOn)
            .then(on: .main) { _ in
                self.lightsOn = isOn
            }
            .always(on: .main) { _ in
                self.busy = false
            }
    }

    /// Renames the room, giving up after `timeout` seconds.
    public func rename(to name: String, timeout: TimeInterval = 10) -> HubPromise<Room> {
        rooms.rename(roomID, to: name).orTimeout(after: timeout)
    }

    private func currentRoom() -> Room? {
        guard let devices = devices.value else { return nil }
        return Room(id: roomID, name: roomID.rawValue, deviceIDs: devices.map(\.id))
    }
}
