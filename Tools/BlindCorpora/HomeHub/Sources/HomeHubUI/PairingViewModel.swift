import Foundation
import Tomorrowland
import HomeHubCore

/// The "Add device" flow: scan, pick, enter the setup code.
@MainActor
public final class PairingViewModel {
    public enum Step: Equatable {
        case idle
        case scanning
        case choosing([DiscoveredDevice])
        case pairing(DiscoveredDevice)
        case paired(Device)
        case failed(HubError)
    }

    public private(set) var step: Step = .idle
    private let discovery: DiscoveryService
    private let pairing: PairingFlow
    private let scanToken = PromiseInvalidationToken()

    public init(discovery: DiscoveryService, pairing: PairingFlow) {
        self.discovery = discovery
        self.pairing = pairing
    }

    /// Scans for `duration` seconds and offers what it found.
    public func scan(for duration: TimeInterval = 5) -> HubPromise<[DiscoveredDevice]> {
        scanToken.invalidate()
        step = .scanning
        return discovery.discover(for: duration)
            .withToken(scanToken)
            .then(on: .main) { devices in
                self.step = .choosing(devices)
            }
            .catch(on: .main) { error in
                self.step = .failed(error)
            }
            .inner
    }

    /// Pairs `candidate` with the code the user typed.
    public func pair(_ candidate: DiscoveredDevice, code: String) -> DevicePromise {
        step = .pairing(candidate)
        return pairing.pair(candidate, setupCode: code)
            .then(on: .main) { device in
                self.step = .paired(device)
            }
            .catch(on: .main) { error in
                self.step = .failed(error)
            }
            .inner
    }

    /// Leaves the flow: stops the scan and the pairing, and ignores their results.
    public func cancel() {
        scanToken.invalidate()
        pairing.cancel()
        step = .idle
    }
}
