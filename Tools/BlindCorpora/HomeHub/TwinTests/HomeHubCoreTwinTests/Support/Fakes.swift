import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore

/// Sample devices for the fakes.
enum Fixtures {
    static let lamp = Device(id: "lamp-1", name: "Floor lamp", kind: .light, roomID: "living",
                             state: DeviceState(isOn: false, brightness: 0))
    static let thermostat = Device(id: "thermo-1", name: "Hall thermostat", kind: .thermostat, roomID: "hall",
                                   state: DeviceState(targetTemperature: 20, currentTemperature: 19))
    static let lock = Device(id: "lock-1", name: "Front door", kind: .lock, roomID: "hall",
                             state: DeviceState(isLocked: true, batteryLevel: 15))
    static let sensor = Device(id: "sensor-1", name: "Humidity", kind: .sensor, roomID: "bath",
                               state: DeviceState(reading: 40, batteryLevel: 5))
    static let all = [lamp, thermostat, lock, sensor]
}

/// A link whose exchanges complete only when the test says so, and which records cancels.
final class FakeLink: HubLink, @unchecked Sendable {
    final class Exchange: LinkExchange, @unchecked Sendable {
        let payload: Data
        private let lock = NSLock()
        private var completion: (@Sendable (Result<Data, LinkFailure>) -> Void)?
        private(set) var wasCancelled = false

        init(payload: Data, completion: @escaping @Sendable (Result<Data, LinkFailure>) -> Void) {
            self.payload = payload
            self.completion = completion
        }

        func cancel() {
            lock.withLock { wasCancelled = true }
            finish(.failure(.cancelled))
        }

        func finish(_ result: Result<Data, LinkFailure>) {
            let completion = lock.withLock { () -> (@Sendable (Result<Data, LinkFailure>) -> Void)? in
                defer { self.completion = nil }
                return self.completion
            }
            completion?(result)
        }
    }

    private let lock = NSLock()
    private var _exchanges: [Exchange] = []

    var exchanges: [Exchange] {
        lock.withLock { _exchanges }
    }

    func exchange(_ payload: Data, with address: String,
                  completion: @escaping @Sendable (Result<Data, LinkFailure>) -> Void) -> LinkExchange {
        let exchange = Exchange(payload: payload, completion: completion)
        lock.withLock { _exchanges.append(exchange) }
        return exchange
    }
}

/// A scanner that reports what the test gives it, when the test says so.
final class FakeScanner: DiscoveryScanner, @unchecked Sendable {
    let name: String
    private let lock = NSLock()
    private var resolvers: [HubPromise<[DiscoveredDevice]>.Resolver] = []
    private var _cancelCount = 0

    init(name: String) {
        self.name = name
    }

    var cancelCount: Int {
        lock.withLock { _cancelCount }
    }

    var scanCount: Int {
        lock.withLock { resolvers.count }
    }

    func scan(for duration: TimeInterval) -> HubPromise<[DiscoveredDevice]> {
        let (promise, resolver) = HubPromise<[DiscoveredDevice]>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate) { resolver in
            self.lock.withLock { self._cancelCount += 1 }
            resolver.cancel()
        }
        lock.withLock { resolvers.append(resolver) }
        return promise
    }

    func finish(with devices: [DiscoveredDevice]) {
        lock.withLock { resolvers }.forEach { $0.fulfill(with: devices) }
    }

    func fail(with error: HubError) {
        lock.withLock { resolvers }.forEach { $0.reject(with: error) }
    }
}

/// Rooms in a dictionary, answered synchronously. Counts saves.
final class FakeRoomStore: RoomStore, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [RoomID: Room]
    private(set) var saves: [Room] = []

    init(_ rooms: [Room]) {
        stored = Dictionary(rooms.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
    }

    func rooms() -> HubPromise<[Room]> {
        HubPromise(fulfilled: lock.withLock { stored.values.sorted { $0.id.rawValue < $1.id.rawValue } })
    }

    func save(_ room: Room) -> HubPromise<Room> {
        lock.withLock {
            stored[room.id] = room
            saves.append(room)
        }
        return HubPromise(fulfilled: room)
    }

    func room(_ id: RoomID) -> Room? {
        lock.withLock { stored[id] }
    }
}

/// A firmware source with one release per kind and a fixed image.
final class FakeFirmwareSource: FirmwareSource, @unchecked Sendable {
    let releases: [DeviceKind: FirmwareRelease]
    var corruptImages = false

    init(_ releases: [FirmwareRelease]) {
        self.releases = Dictionary(releases.map { ($0.kind, $0) }, uniquingKeysWith: { $1 })
    }

    func latestRelease(for kind: DeviceKind) -> HubPromise<FirmwareRelease> {
        guard let release = releases[kind] else { return HubPromise(rejected: .upToDate) }
        return HubPromise(fulfilled: release)
    }

    func image(for release: FirmwareRelease) -> HubPromise<Data> {
        var image = FirmwareImage.make(size: release.size, checksum: release.checksum)
        if corruptImages, !image.isEmpty { image[image.count - 1] &+= 1 }
        return HubPromise(fulfilled: image)
    }
}

/// An auth SDK that answers on a background queue.
final class FakeAuth: AuthProvider, @unchecked Sendable {
    var password = "hunter2"

    func authenticate(email: String, password: String,
                      completion: @escaping @Sendable (CloudSession?, Swift.Error?) -> Void) {
        let expected = self.password
        DispatchQueue.global().async {
            if password == expected {
                completion(CloudSession(accountID: email, accessToken: "tok-\(email)",
                                        expiresAt: Date().addingTimeInterval(3600)), nil)
            } else {
                completion(nil, HubError.unauthorized)
            }
        }
    }
}

/// A browser that finds what it is given and stops when cancelled (or after its duration).
final class FakeBrowser: ServiceBrowser, @unchecked Sendable {
    let devices: [DiscoveredDevice]
    private let lock = NSLock()
    private(set) var cancels = 0

    init(devices: [DiscoveredDevice]) {
        self.devices = devices
    }

    final class Browse: LinkExchange, @unchecked Sendable {
        let onCancel: @Sendable () -> Void
        init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }
        func cancel() { onCancel() }
    }

    func browse(type: String, found: @escaping @Sendable (DiscoveredDevice) -> Void,
                stopped: @escaping @Sendable (LinkFailure?) -> Void) -> LinkExchange {
        let devices = self.devices
        DispatchQueue.global().async {
            devices.forEach(found)
        }
        let once = HubLock(false)
        return Browse { [weak self] in
            self?.lock.withLock { self?.cancels += 1 }
            let first = once.withLock { done -> Bool in
                defer { done = true }
                return !done
            }
            if first { stopped(nil) }
        }
    }
}

extension XCTestCase {
    /// How long any single wait may take on a loaded CI machine.
    static let patience: TimeInterval = 30

    /// Polls `condition` until it holds, sleeping in between.
    nonisolated(nonsending) func eventually(_ what: String, timeout: TimeInterval = patience, file: StaticString = #filePath, line: UInt = #line,
                    _ condition: @Sendable () -> Bool) async {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline {
                XCTFail("timed out waiting until \(what)", file: file, line: line)
                return
            }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
    }

    /// Asserts that `body` throws, and hands the error to `check`.
    nonisolated(nonsending) func assertThrows<T>(_ body: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line,
                         _ check: (Swift.Error) -> Void = { _ in }) async {
        do {
            let value = try await body()
            XCTFail("expected an error, got \(value)", file: file, line: line)
        } catch {
            check(error)
        }
    }
}
