import Foundation
import Tomorrowland

/// Pairs a discovered device with the hub.
///
/// One pairing at a time: starting another, or calling `cancel()`, silences the callbacks of the
/// previous attempt and asks its requests to stop.
public final class PairingFlow {
    private let transport: HubTransport
    private let table: DeviceTable
    private let log: EventLog?
    private var token = PromiseInvalidationToken()
    public private(set) var attempts = 0

    public init(transport: HubTransport, table: DeviceTable, log: EventLog? = nil) {
        self.transport = transport
        self.table = table
        self.log = log
    }

    /// Setup codes look like `123-45-678`.
    public static func isValidSetupCode(_ code: String) -> Bool {
        let groups = code.split(separator: "-")
        return groups.map(\.count) == [3, 2, 3] && groups.allSatisfy { $0.allSatisfy(\.isNumber) }
    }

    /// Pairs `candidate` with `setupCode` and adds it to the device table as `name`.
    ///
    /// The returned chain carries this flow's token: `cancel()` skips its remaining callbacks and
    /// cancels the request.
    public func pair(_ candidate: DiscoveredDevice, setupCode: String, name: String? = nil) -> TokenPromise<Device, HubError> {
        attempts += 1
        token.invalidate()
        let transport = self.transport
        let table = self.table
        let log = self.log
        let attempt = PairingAttempt(address: candidate.address, setupCode: setupCode,
                                     name: name ?? candidate.advertisedName, kind: candidate.kind)
        return HubPromise<PairingAttempt>(on: .immediate) { resolver in
            if PairingFlow.isValidSetupCode(setupCode) {
                resolver.fulfill(with: attempt)
            } else {
                resolver.reject(with: .pairingFailed(reason: "malformed setup code"))
            }
        }
        .withToken(token)
        .flatMap(on: .radio) { attempt -> HubPromise<Device> in
            guard let request = try? HubRequest.json(.post, "/pair", attempt) else {
                return HubPromise(rejected: .pairingFailed(reason: "could not encode"))
            }
            return Command<Device>(request, timeout: 30).send(via: transport)
        }
        .then(on: .hubState) { device in
            table.upsert(device)
            log?.append(HubEvent(kind: .devicePaired, deviceID: device.id, message: device.name))
        }
    }

    /// Pairs and fulfils with the device; for callers that do not need the token.
    public func pairDevice(_ candidate: DiscoveredDevice, setupCode: String) -> DevicePromise {
        pair(candidate, setupCode: setupCode).inner
    }

    /// Abandons the current pairing.
    public func cancel() {
        token.invalidate()
    }

    /// Starts over with a new token, so callbacks registered on the old one stay silenced.
    public func reset() {
        token.invalidate()
        token = PromiseInvalidationToken()
        attempts = 0
    }
}
