import Foundation
import Tomorrowland
import HomeHubCore

/// The firmware update sheet for one device.
@MainActor
public final class FirmwareUpdateViewModel {
    public enum Phase: Equatable {
        case idle
        case checking
        case upToDate
        case installing
        case installed(FirmwareVersion)
        case cancelled
        case failed(HubError)
    }

    public private(set) var phase: Phase = .idle
    public private(set) var progress: Double = 0
    public private(set) var progressUpdates = 0
    private let updater: FirmwareUpdater
    private let device: Device
    private var current: PromiseCancellable?

    public init(updater: FirmwareUpdater, device: Device) {
        self.updater = updater
        self.device = device
    }

    /// Checks for an update and installs it. Rejects with `HubError.upToDate` when there is none.
    public func start() -> HubPromise<FirmwareVersion> {
        current?.requestCancel()
        phase = .checking
        progress = 0
        let updater = self.updater
        let device = self.device
        let install = updater.checkForUpdate(device)
            .flatMap(on: .utility) { release -> HubPromise<FirmwareVersion> in
                guard let release = release else {
                    return HubPromise(rejected: .upToDate)
                }
                DispatchQueue.main.async {
                    self.phase = .installing
                }
                return updater.install(release, on: device) { progress in
                    DispatchQueue.main.async {
                        self.progress = progress.fraction
                        self.progressUpdates += 1
                    }
                }
            }
            .then(on: .main) { version in
                self.phase = .installed(version)
                self.progress = 1
            }
            .catch(on: .main) { error in
                self.phase = error == .upToDate ? .upToDate : .failed(error)
            }
            .onCancel(on: .main) {
                self.phase = .cancelled
            }
        current = install.cancellable
        return install
    }

    /// Stops the install after the chunk in flight.
    public func cancel() {
        current?.requestCancel()
    }
}
