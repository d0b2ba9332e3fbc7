import Foundation
import Tomorrowland

/// The cloud relay's HTTP client, in the shape of `URLSession`'s completion-handler API.
public protocol CloudHTTPClient: AnyObject, Sendable {
    /// Starts a request; `completion` gets the status code and body, or an error.
    func start(_ request: HubRequest, headers: [String: String],
               completion: @escaping @Sendable (Int?, Data?, Swift.Error?) -> Void) -> LinkExchange
}

/// Reaches the hub through the cloud relay when the phone is away from home.
public final class CloudTransport: HubTransport {
    public let name = "cloud"
    private let client: CloudHTTPClient
    private let credentials: HubLock<CloudSession?>

    public init(client: CloudHTTPClient, session: CloudSession? = nil) {
        self.client = client
        self.credentials = HubLock(session)
    }

    /// Replaces the session used for the `Authorization` header.
    public func use(_ session: CloudSession?) {
        credentials.withLock { $0 = session }
    }

    public func send(_ request: HubRequest) -> HubPromise<Data> {
        guard let session = credentials.snapshot, !session.isExpired else {
            return HubPromise(rejected: .unauthorized)
        }
        let client = self.client
        return HubPromise(on: .utility) { resolver in
            let headers = ["Authorization": "Bearer \(session.accessToken)", "X-Account": session.accountID]
            let exchange = client.start(request, headers: headers) { status, body, error in
                if let error = error {
                    if case LinkFailure.cancelled = error {
                        resolver.cancel()
                    } else {
                        resolver.reject(with: .offline)
                    }
                    return
                }
                switch status ?? 0 {
                case 200..<300: resolver.fulfill(with: body ?? Data())
                case 401, 403: resolver.reject(with: .unauthorized)
                case 504: resolver.reject(with: .timedOut)
                case let code: resolver.reject(with: .rejectedByDevice(code: code))
                }
            }
            resolver.onRequestCancel(on: .immediate) { _ in exchange.cancel() }
        }
    }
}

/// Prefers the local network and falls back to the cloud when the hub is not on the LAN.
public final class FailoverTransport: HubTransport {
    public var name: String { "\(primary.name)+\(secondary.name)" }
    private let primary: HubTransport
    private let secondary: HubTransport

    public init(primary: HubTransport, secondary: HubTransport) {
        self.primary = primary
        self.secondary = secondary
    }

    public func send(_ request: HubRequest) -> HubPromise<Data> {
        let secondary = self.secondary
        return primary.send(request).flatMapError(on: .immediate) { error -> HubPromise<Data> in
            guard error == .offline else { return HubPromise(rejected: error) }
            return secondary.send(request)
        }
    }
}
