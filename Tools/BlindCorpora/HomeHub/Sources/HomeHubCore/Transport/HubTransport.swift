import Foundation
import Tomorrowland

/// Something that carries a `HubRequest` and brings back the reply's bytes: the local network,
/// the cloud relay, or the in-process simulator used by the demo mode.
///
/// Implementations must support cancellation: a cancel request on the returned promise stops the
/// exchange and cancels the promise.
public protocol HubTransport: AnyObject, Sendable {
    /// A short name for logs ("lan", "cloud").
    var name: String { get }

    /// Sends `request` and fulfils with the reply's body.
    func send(_ request: HubRequest) -> HubPromise<Data>
}

extension HubTransport {
    /// Sends `request` and decodes the reply as `T`.
    ///
    /// Decoding runs on the utility queue; a reply that does not decode rejects with
    /// `HubError.decoding`.
    public func fetch<T: Decodable>(_ type: T.Type, _ request: HubRequest) -> HubPromise<T> {
        send(request).flatMap(on: .utility) { data -> HubPromise<T> in
            do {
                return HubPromise(fulfilled: try JSONDecoder().decode(T.self, from: data))
            } catch {
                return HubPromise(rejected: .decoding("\(request): \(error)"))
            }
        }
    }

    /// Sends `request` and ignores the reply's body.
    @discardableResult
    public func perform(_ request: HubRequest) -> CompletionPromise {
        send(request).map(on: .immediate) { _ in () }
    }

    /// Whether the other end answers a ping within `timeout` seconds. Never fails.
    public func isReachable(timeout: TimeInterval = 2) -> Guaranteed<Bool> {
        send(HubRequest(.get, "/ping"))
            .orTimeout(after: timeout)
            .map(on: .immediate) { _ in true }
            .recover(on: .immediate) { _ in false }
    }
}
