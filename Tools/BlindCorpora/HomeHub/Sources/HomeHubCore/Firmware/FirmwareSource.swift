import Foundation
import Tomorrowland

/// Where firmware images come from.
public protocol FirmwareSource: AnyObject, Sendable {
    /// The newest release for `kind`; `HubError.upToDate` when none is published.
    func latestRelease(for kind: DeviceKind) -> HubPromise<FirmwareRelease>
    /// The image of `release`.
    func image(for release: FirmwareRelease) -> HubPromise<Data>
}

/// Firmware published through the hub.
public final class HubFirmwareSource: FirmwareSource {
    private let transport: HubTransport

    public init(transport: HubTransport) {
        self.transport = transport
    }

    public func latestRelease(for kind: DeviceKind) -> HubPromise<FirmwareRelease> {
        Command<FirmwareRelease>(HubRequest(.get, "/firmware/\(kind.rawValue)/latest")).send(via: transport)
    }

    public func image(for release: FirmwareRelease) -> HubPromise<Data> {
        // The simulator does not store images: it makes one whose checksum matches.
        HubPromise(on: .firmware) { resolver in
            resolver.fulfill(with: FirmwareImage.make(size: release.size, checksum: release.checksum))
        }
    }
}

/// Images shipped inside the app, for installs without internet.
public final class BundledFirmwareSource: FirmwareSource {
    private let releases: [DeviceKind: FirmwareRelease]

    public init(_ releases: [FirmwareRelease]) {
        self.releases = Dictionary(releases.map { ($0.kind, $0) }, uniquingKeysWith: { $1 })
    }

    public func latestRelease(for kind: DeviceKind) -> HubPromise<FirmwareRelease> {
        guard let release = releases[kind] else {
            return HubPromise(rejected: .upToDate)
        }
        return HubPromise(fulfilled: release)
    }

    public func image(for release: FirmwareRelease) -> HubPromise<Data> {
        HubPromise(fulfilled: FirmwareImage.make(size: release.size, checksum: release.checksum))
    }
}

/// Checksums of firmware images.
public enum FirmwareImage {
    /// A simple additive checksum, as the devices' bootloaders compute it.
    public static func checksum(of data: Data) -> UInt32 {
        data.reduce(UInt32(0)) { $0 &+ UInt32($1) } & 0xFFFF
    }

    /// `size` bytes whose checksum is `checksum` (for sizes large enough to hold it).
    public static func make(size: Int, checksum: UInt32) -> Data {
        var bytes = [UInt8](repeating: 0, count: max(size, 0))
        var remaining = Int(checksum & 0xFFFF)
        var index = 0
        while remaining > 0, index < bytes.count {
            let byte = min(remaining, 255)
            bytes[index] = UInt8(byte)
            remaining -= byte
            index += 1
        }
        return Data(bytes)
    }
}
