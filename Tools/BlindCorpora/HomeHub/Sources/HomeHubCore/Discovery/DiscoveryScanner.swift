import Foundation
import Tomorrowland

/// Finds devices that are not paired yet, on one medium.
public protocol DiscoveryScanner: AnyObject, Sendable {
    var name: String { get }
    /// Listens for `duration` seconds and fulfils with what it heard. Cancelling stops listening.
    func scan(for duration: TimeInterval) -> HubPromise<[DiscoveredDevice]>
}

/// The mDNS browser's callback API.
public protocol ServiceBrowser: AnyObject, Sendable {
    /// Starts browsing; `found` runs for each device, `stopped` once, when browsing ends
    /// (`nil`: stopped by `cancel()`).
    func browse(type: String, found: @escaping @Sendable (DiscoveredDevice) -> Void,
                stopped: @escaping @Sendable (LinkFailure?) -> Void) -> LinkExchange
}

/// Finds Wi-Fi devices through mDNS.
public final class MDNSScanner: DiscoveryScanner {
    public let name = "mdns"
    private let browser: ServiceBrowser

    public init(browser: ServiceBrowser) {
        self.browser = browser
    }

    public func scan(for duration: TimeInterval) -> HubPromise<[DiscoveredDevice]> {
        let browser = self.browser
        return HubPromise(on: .radio) { resolver in
            let found = HubLock<[DiscoveredDevice]>([])
            let browse = browser.browse(type: "_homehub._tcp", found: { device in
                found.withLock { $0.append(device) }
            }, stopped: { failure in
                switch failure {
                case nil, .cancelled?:
                    if resolver.hasRequestedCancel {
                        resolver.cancel()
                    } else {
                        resolver.fulfill(with: found.snapshot)
                    }
                case .unreachable?:
                    resolver.reject(with: .offline)
                case .status(let code)?:
                    resolver.reject(with: .rejectedByDevice(code: code))
                }
            })
            HubQueues.radio.asyncAfter(deadline: .now() + duration) {
                browse.cancel()
            }
            resolver.onRequestCancel(on: .immediate) { _ in
                browse.cancel()
            }
        }
    }
}

/// Finds Bluetooth LE devices by their advertisements.
public final class BLEScanner: DiscoveryScanner {
    public let name = "ble"
    private let advertisements: @Sendable () -> [DiscoveredDevice]
    private let minimumSignal: Int

    public init(minimumSignal: Int = -90, advertisements: @escaping @Sendable () -> [DiscoveredDevice]) {
        self.minimumSignal = minimumSignal
        self.advertisements = advertisements
    }

    public func scan(for duration: TimeInterval) -> HubPromise<[DiscoveredDevice]> {
        let advertisements = self.advertisements
        let minimumSignal = self.minimumSignal
        return HubPromise<Void>(on: .radio, fulfilled: (), after: duration)
            .map(on: .radio) { _ in
                advertisements().filter { $0.signal >= minimumSignal }
            }
    }
}
