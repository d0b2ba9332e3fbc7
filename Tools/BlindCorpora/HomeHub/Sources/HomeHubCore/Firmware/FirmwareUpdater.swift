import Foundation
import Tomorrowland

/// Installs firmware on devices, chunk by chunk, with progress.
///
/// Cancelling the promise `install` returns stops the upload after the chunk in flight; the
/// device keeps its old firmware.
public final class FirmwareUpdater: Sendable {
    private let source: FirmwareSource
    private let transport: HubTransport
    private let log: EventLog?
    /// Bytes per chunk.
    public let chunkSize: Int

    public init(source: FirmwareSource, transport: HubTransport, log: EventLog? = nil, chunkSize: Int = 1024) {
        self.source = source
        self.transport = transport
        self.log = log
        self.chunkSize = chunkSize
    }

    /// The release to install on `device`, or `nil` when it is up to date.
    public func checkForUpdate(_ device: Device) -> HubPromise<FirmwareRelease?> {
        source.latestRelease(for: device.kind)
            .map(on: .utility) { release -> FirmwareRelease? in
                release.version > device.firmware ? release : nil
            }
            .flatMapError(on: .immediate) { error -> HubPromise<FirmwareRelease?> in
                error == .upToDate ? HubPromise(fulfilled: nil) : HubPromise(rejected: error)
            }
    }

    /// Downloads, verifies and uploads `release` to `device`, then asks the device to switch.
    ///
    /// - Parameter progress: called on the firmware queue after each chunk.
    public func install(_ release: FirmwareRelease, on device: Device,
                        progress: @escaping @Sendable (FirmwareProgress) -> Void = { _ in }) -> HubPromise<FirmwareVersion> {
        let transport = self.transport
        let chunkSize = self.chunkSize
        let log = self.log
        let id = device.id
        return source.image(for: release)
            .flatMap(on: .firmware) { image -> CompletionPromise in
                guard FirmwareImage.checksum(of: image) == release.checksum & 0xFFFF else {
                    return CompletionPromise(rejected: .firmwareRejected(release.version))
                }
                return FirmwareUpdater.upload(image, to: id, chunkSize: chunkSize, via: transport, progress: progress)
            }
            .flatMap(on: .firmware) { _ -> HubPromise<FirmwareVersion> in
                guard let body = try? JSONEncoder().encode(release.version) else {
                    return HubPromise(rejected: .firmwareRejected(release.version))
                }
                return Command<FirmwareVersion>(HubRequest(.post, "/devices/\(id)/firmware/commit", body: body))
                    .send(via: transport)
            }
            .onCancel(on: .utility) {
                log?.append(HubEvent(kind: .failure, deviceID: id, message: "firmware \(release.version) cancelled"))
            }
            .then(on: .utility) { version in
                log?.append(HubEvent(kind: .firmwareInstalled, deviceID: id, message: "now on \(version)"))
            }
    }

    /// Checks and installs updates for several devices, one after the other; fulfils with the
    /// version each updated device now runs (devices already up to date are left out).
    public func updateAll(_ devices: [Device]) -> HubPromise<[DeviceID: FirmwareVersion]> {
        var chain = HubPromise<[DeviceID: FirmwareVersion]>(fulfilled: [:])
        for device in devices {
            chain = chain.flatMap(on: .firmware) { [weak self] installed -> HubPromise<[DeviceID: FirmwareVersion]> in
                guard let self = self else { return HubPromise(rejected: .other("updater went away")) }
                return self.checkForUpdate(device).flatMap(on: .firmware) { release -> HubPromise<[DeviceID: FirmwareVersion]> in
                    guard let release = release else { return HubPromise(fulfilled: installed) }
                    return self.install(release, on: device).map(on: .immediate) { version in
                        installed.merging([device.id: version]) { $1 }
                    }
                }
            }
        }
        return chain
    }

    /// Sends `image` in chunks, one request at a time. Each chunk is a link of a `flatMap` chain,
    /// so a cancel request reaches the chunk in flight and the rest never start.
    private static func upload(_ image: Data, to id: DeviceID, chunkSize: Int, via transport: HubTransport,
                               progress: @escaping @Sendable (FirmwareProgress) -> Void) -> CompletionPromise {
        let total = image.count
        var chain = CompletionPromise(fulfilled: ())
        for offset in stride(from: 0, to: total, by: max(chunkSize, 1)) {
            let end = min(offset + chunkSize, total)
            chain = chain.flatMap(on: .firmware) { _ -> CompletionPromise in
                let chunk = image.subdata(in: offset..<end)
                return transport.perform(HubRequest(.post, "/devices/\(id)/firmware/chunk", body: chunk))
                    .then(on: .firmware) {
                        progress(FirmwareProgress(bytesSent: end, totalBytes: total))
                    }
            }
        }
        return chain
    }
}
