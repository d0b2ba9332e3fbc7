import Foundation
import Tomorrowland

/// Talks to the hub over the local network, through a callback-based `HubLink`.
public final class LANTransport: HubTransport {
    public let name = "lan"
    private let link: HubLink
    private let address: String

    public init(link: HubLink, address: String = "hub.local:8443") {
        self.link = link
        self.address = address
    }

    public func send(_ request: HubRequest) -> HubPromise<Data> {
        let link = self.link
        let address = self.address
        return Promise(on: .immediate) { resolver in
            let payload = Data("\(request.method.rawValue) \(request.path)\n".utf8) + (request.body ?? Data())
            let exchange = link.exchange(payload, with: address) { result in
                switch result {
                case .success(let data):
                    resolver.fulfill(with: data)
                case .failure(.cancelled):
                    resolver.cancel()
                case .failure(.unreachable):
                    resolver.reject(with: .offline)
                case .failure(.status(401)):
                    resolver.reject(with: .unauthorized)
                case .failure(.status(404)):
                    resolver.reject(with: .deviceNotFound(DeviceID(request.components.dropFirst().first ?? "")))
                case .failure(.status(let code)):
                    resolver.reject(with: .rejectedByDevice(code: code))
                }
            }
            resolver.onRequestCancel(on: .immediate) { _ in
                exchange.cancel()
            }
        }
    }
}
