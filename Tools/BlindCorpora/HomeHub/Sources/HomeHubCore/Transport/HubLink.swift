import Foundation

/// Why an exchange on a link failed.
public enum LinkFailure: Error, Equatable, Sendable {
    case unreachable
    case cancelled
    case status(Int)
}

/// An exchange in flight on a `HubLink`.
public protocol LinkExchange: AnyObject, Sendable {
    /// Stops the exchange; its completion then reports `.cancelled`.
    func cancel()
}

/// The link layer from before the hub used promises: one request, one completion handler.
///
/// The completion runs on a queue of the link's choosing, exactly once.
public protocol HubLink: AnyObject, Sendable {
    func exchange(_ payload: Data, with address: String,
                  completion: @escaping @Sendable (Result<Data, LinkFailure>) -> Void) -> LinkExchange
}

/// A link that answers from a closure after a delay, on the radio queue. The demo mode and the
/// previews use it.
public final class SimulatedLink: HubLink, @unchecked Sendable {
    public typealias Responder = @Sendable (_ payload: Data, _ address: String) -> Result<Data, LinkFailure>

    private let latency: TimeInterval
    private let responder: Responder

    public init(latency: TimeInterval = 0.01, responder: @escaping Responder) {
        self.latency = latency
        self.responder = responder
    }

    public func exchange(_ payload: Data, with address: String,
                         completion: @escaping @Sendable (Result<Data, LinkFailure>) -> Void) -> LinkExchange {
        let exchange = SimulatedExchange(completion: completion)
        let responder = self.responder
        HubQueues.radio.asyncAfter(deadline: .now() + latency) {
            exchange.finish(with: responder(payload, address))
        }
        return exchange
    }
}

private final class SimulatedExchange: LinkExchange, @unchecked Sendable {
    private let lock = NSLock()
    private var completion: (@Sendable (Result<Data, LinkFailure>) -> Void)?

    init(completion: @escaping @Sendable (Result<Data, LinkFailure>) -> Void) {
        self.completion = completion
    }

    func cancel() {
        finish(with: .failure(.cancelled))
    }

    func finish(with result: Result<Data, LinkFailure>) {
        lock.lock()
        let completion = self.completion
        self.completion = nil
        lock.unlock()
        completion?(result)
    }
}
