import Foundation
import Tomorrowland

/// Everything that can go wrong talking to the hub, a device or the cloud.
///
/// Service methods return `HubPromise<T>` so callers can `switch` over the failure instead of
/// digging through `Swift.Error`.
public enum HubError: Error, Equatable, Sendable {
    /// No device with this id is known to the hub.
    case deviceNotFound(DeviceID)
    /// No room with this id.
    case roomNotFound(RoomID)
    /// The hub (or the cloud) could not be reached.
    case offline
    /// The device or the cloud did not answer in time.
    case timedOut
    /// The session expired or the PIN was wrong.
    case unauthorized
    /// The device answered with an error status.
    case rejectedByDevice(code: Int)
    /// The requested state is outside what the device supports.
    case unsupported(String)
    /// Pairing was refused or the setup code did not match.
    case pairingFailed(reason: String)
    /// The image failed verification or the device refused it.
    case firmwareRejected(FirmwareVersion)
    /// The device already runs the newest firmware.
    case upToDate
    /// A reply could not be decoded.
    case decoding(String)
    /// Anything else, with a description for the event log.
    case other(String)

    /// Wraps an arbitrary error (from a `StdPromise`) into a `HubError`.
    public init(_ error: Swift.Error) {
        if let hubError = error as? HubError {
            self = hubError
        } else if error is DecodingError {
            self = .decoding(String(describing: error))
        } else {
            self = .other(String(describing: error))
        }
    }

    /// Whether trying again later may help.
    public var isTransient: Bool {
        switch self {
        case .offline, .timedOut: return true
        default: return false
        }
    }
}

/// A promise that fails with a `HubError`. Most of the hub's API returns one of these.
public typealias HubPromise<T> = Promise<T, HubError>

/// A promise for one device.
public typealias DevicePromise = HubPromise<Device>

/// A promise for work that only completes.
public typealias CompletionPromise = Promise<Void, HubError>

/// A promise that cannot fail (it can still be cancelled).
public typealias Guaranteed<T> = Promise<T, NoError>
