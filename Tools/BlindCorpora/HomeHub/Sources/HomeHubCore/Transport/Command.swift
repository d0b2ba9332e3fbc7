import Foundation
import Tomorrowland

/// A typed request: what to send, and what the reply decodes to.
///
/// ```swift
/// Command<DeviceState>.readState(of: "lamp-1").send(via: transport).then { state in … }
/// ```
public struct Command<Response: Decodable> {
    public let request: HubRequest
    /// Seconds before the command fails with `HubError.timedOut`; `nil` waits for the transport.
    public let timeout: TimeInterval?

    public init(_ request: HubRequest, timeout: TimeInterval? = nil) {
        self.request = request
        self.timeout = timeout
    }

    /// Sends the command and decodes its reply.
    public func send(via transport: HubTransport) -> HubPromise<Response> {
        let reply = transport.fetch(Response.self, request)
        guard let timeout = timeout else {
            return reply
        }
        return reply.orTimeout(after: timeout)
    }

    /// Sends the command on each transport in turn until one answers.
    public func send(viaFirstOf transports: [HubTransport]) -> HubPromise<Response> {
        guard let first = transports.first else {
            return HubPromise(rejected: .offline)
        }
        let rest = Array(transports.dropFirst())
        let request = self.request
        let timeout = self.timeout
        return send(via: first).flatMapError(on: .immediate) { error -> HubPromise<Response> in
            guard error.isTransient, !rest.isEmpty else { return HubPromise(rejected: error) }
            return Command(request, timeout: timeout).send(viaFirstOf: rest)
        }
    }
}

extension Command where Response == DeviceState {
    /// Reads a device's current state.
    public static func readState(of id: DeviceID) -> Command {
        Command(HubRequest(.get, "/devices/\(id)/state"), timeout: 5)
    }

    /// Asks a device to make `change`; the reply is the state it reached.
    public static func apply(_ change: StateChange, to id: DeviceID) -> Command {
        let body = try? JSONEncoder().encode(change)
        return Command(HubRequest(.put, "/devices/\(id)/state", body: body), timeout: 5)
    }
}

extension Command where Response == [Device] {
    /// Lists every paired device.
    public static var listDevices: Command {
        Command(HubRequest(.get, "/devices"))
    }
}

/// A lock's answer to a PIN.
public struct PinVerdict: Codable, Equatable, Sendable {
    public let accepted: Bool
    public let attemptsLeft: Int

    public init(accepted: Bool, attemptsLeft: Int) {
        self.accepted = accepted
        self.attemptsLeft = attemptsLeft
    }
}
