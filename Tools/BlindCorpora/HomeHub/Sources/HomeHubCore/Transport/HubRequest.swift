import Foundation

/// A request to a device, the hub or the cloud. Paths look like REST paths
/// (`/devices/lamp-1/state`); bodies are JSON.
public struct HubRequest: Equatable, Hashable, Sendable, CustomStringConvertible {
    public enum Method: String, Sendable {
        case get = "GET"
        case put = "PUT"
        case post = "POST"
        case delete = "DELETE"
    }

    public var method: Method
    public var path: String
    public var body: Data?

    public init(_ method: Method, _ path: String, body: Data? = nil) {
        self.method = method
        self.path = path
        self.body = body
    }

    /// A request whose body is `value`, JSON-encoded.
    public static func json<T: Encodable>(_ method: Method, _ path: String, _ value: T) throws -> HubRequest {
        HubRequest(method, path, body: try JSONEncoder().encode(value))
    }

    /// The path's components, without the leading slash.
    public var components: [String] {
        path.split(separator: "/").map(String.init)
    }

    public var description: String { "\(method.rawValue) \(path)" }
}
