import Foundation

/// A semantic firmware version, `major.minor.patch`.
public struct FirmwareVersion: Codable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public let major: Int
    public let minor: Int
    public let patch: Int

    public init(_ major: Int, _ minor: Int, _ patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses "1.2.3"; `nil` for anything else.
    public init?(string: String) {
        let parts = string.split(separator: ".").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        self.init(parts[0], parts[1], parts[2])
    }

    public static func < (lhs: FirmwareVersion, rhs: FirmwareVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    public var description: String { "\(major).\(minor).\(patch)" }
}

/// A firmware image published for one kind of device.
public struct FirmwareRelease: Codable, Equatable, Sendable {
    public let version: FirmwareVersion
    public let kind: DeviceKind
    public let size: Int
    public let checksum: UInt32
    public let notes: String

    public init(version: FirmwareVersion, kind: DeviceKind, size: Int, checksum: UInt32, notes: String = "") {
        self.version = version
        self.kind = kind
        self.size = size
        self.checksum = checksum
        self.notes = notes
    }
}

/// Progress of an install, reported on the firmware queue.
public struct FirmwareProgress: Equatable, Sendable {
    public let bytesSent: Int
    public let totalBytes: Int

    public init(bytesSent: Int, totalBytes: Int) {
        self.bytesSent = bytesSent
        self.totalBytes = totalBytes
    }

    public var fraction: Double {
        totalBytes == 0 ? 1 : Double(bytesSent) / Double(totalBytes)
    }
}
