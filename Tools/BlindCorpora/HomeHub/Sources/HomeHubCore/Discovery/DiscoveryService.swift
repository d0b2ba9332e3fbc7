import Foundation
import Tomorrowland

/// Runs every scanner at once and merges what they find.
public final class DiscoveryService {
    private let scanners: [DiscoveryScanner]

    public init(scanners: [DiscoveryScanner]) {
        self.scanners = scanners
    }

    /// Every device any scanner heard within `duration`, strongest signal first, each address once.
    ///
    /// A scanner that fails is left out; only when all fail does discovery fail, with the first
    /// scanner's error.
    public func discover(for duration: TimeInterval = 5) -> HubPromise<[DiscoveredDevice]> {
        guard !scanners.isEmpty else {
            return HubPromise(fulfilled: [])
        }
        typealias Outcome = PromiseResult<[DiscoveredDevice], HubError>
        /// A scan that never fails: its failure becomes a value.
        func settled(_ scan: HubPromise<[DiscoveredDevice]>) -> HubPromise<Outcome> {
            scan.map(on: .immediate) { Outcome.value($0) }
                .flatMapError(on: .immediate) { error in HubPromise(fulfilled: Outcome.error(error)) }
        }
        let scans = scanners.map { settled($0.scan(for: duration)) }
        return when(fulfilled: scans).flatMap(on: .utility) { results -> HubPromise<[DiscoveredDevice]> in
            let found = results.compactMap { $0.value }
            if found.isEmpty, let error = results.first?.error {
                return HubPromise(rejected: error)
            }
            var seen = Set<String>()
            let merged = found.joined()
                .sorted { $0.signal > $1.signal }
                .filter { seen.insert($0.address).inserted }
            return HubPromise(fulfilled: merged)
        }
    }

    /// The first device of `kind` any scanner hears; the other scans are then stopped.
    ///
    /// A scanner that hears none drops out; when none hears one, the promise is cancelled.
    public func firstDevice(of kind: DeviceKind, within duration: TimeInterval) -> HubPromise<DiscoveredDevice> {
        let matching = scanners.map { scanner in
            scanner.scan(for: duration).flatMap(on: .immediate) { devices -> HubPromise<DiscoveredDevice> in
                guard let device = devices.first(where: { $0.kind == kind }) else {
                    return HubPromise(with: .cancelled)
                }
                return HubPromise(fulfilled: device)
            }
        }
        return when(first: matching, cancelRemaining: true)
            .orTimeout(after: duration + 5)
    }
}
