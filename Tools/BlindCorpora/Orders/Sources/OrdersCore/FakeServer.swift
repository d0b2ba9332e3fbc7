import Foundation
import Tomorrowland

/// An in-memory stand-in for the ordering backend. Requests are logged when they are made
/// ("GET menu/1", "POST orders burger*1"), answered from the stubs after `latency`, and held
/// back while their path is held. A path without a stub answers `.notFound(path)`.
public final class FakeServer {
    private let desk = CallDesk<String, NetworkError>(label: "orders.fake-server")
    private let stubs = Guarded<[String: [Result<String, NetworkError>]]>([:])

    public init() {}

    public var latency: TimeInterval {
        get { return desk.latency }
        set { desk.latency = newValue }
    }

    public func stub(_ path: String, body: String) { stubs.modify { $0[path] = [.success(body)] } }
    public func stub(_ path: String, error: NetworkError) { stubs.modify { $0[path] = [.failure(error)] } }
    /// Successive requests get successive bodies; the last one repeats.
    public func stub(_ path: String, bodies: [String]) { stubs.modify { $0[path] = bodies.map { .success($0) } } }

    /// Requests to `path` stay in flight until `release(_:)`.
    public func hold(_ path: String) { desk.hold(path) }
    public func release(_ path: String) { desk.release(path) }

    public var received: [String] { return desk.calls }
    public var cancelled: [String] { return desk.cancelled }
    public var inFlightCount: Int { return desk.inFlightCount }

    public func get(_ path: String) -> Promise<String, NetworkError> {
        return desk.start("GET \(path)", key: path, answer: { self.answer(path, $0) })
    }

    public func post(_ path: String, body: String) -> Promise<String, NetworkError> {
        return desk.start("POST \(path) \(body)", key: path, answer: { self.answer(path, $0) })
    }

    private func answer(_ path: String, _ resolver: Promise<String, NetworkError>.Resolver) {
        let result = stubs.modify { stubs -> Result<String, NetworkError> in
            guard var results = stubs[path], !results.isEmpty else {
                return .failure(.notFound(path))
            }
            let first = results.removeFirst()
            if !results.isEmpty {
                stubs[path] = results
            }
            return first
        }
        switch result {
        case .success(let body): resolver.fulfill(with: body)
        case .failure(let error): resolver.reject(with: error)
        }
    }
}
