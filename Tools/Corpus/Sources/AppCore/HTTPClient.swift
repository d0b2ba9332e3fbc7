// The HTTP layer: a non-Sendable client class and an open repository family with overrides.

import Foundation
import Tomorrowland

/// Serves canned responses by path: the app's HTTP layer without a network.
public final class HTTPClient {
    /// Responses by path.
    public var responses: [String: Data]
    /// Paths requested so far, in order.
    public private(set) var requested: [String] = []
    /// Whether each request waits a little before it resolves (so tests can cancel it).
    public var latency: TimeInterval

    public init(responses: [String: Data] = [:], latency: TimeInterval = 0) {
        self.responses = responses
        self.latency = latency
    }

    /// Requests `path`.
    ///
    /// - Parameter path: The path to request.
    /// - Returns: A promise that resolves with the response body.
    public func get(_ path: String) -> Promise<Data, APIError> {
        requested.append(path)
        guard let data = responses[path] else { return Promise(rejected: .notFound) }
        guard latency > 0 else { return Promise(fulfilled: data) }
        // A cancellable timer: cancelling the promise cancels the request.
        return Promise(on: .utility, fulfilled: data, after: latency)
    }

    /// Decodes `data` as `type`.
    public static func decode<T: Decodable & Sendable>(_ type: T.Type, from data: Data) -> Promise<T, APIError> {
        do {
            return Promise(fulfilled: try JSONDecoder().decode(T.self, from: data))
        } catch {
            return Promise(rejected: .decoding(String(describing: error)))
        }
    }

    /// Requests and decodes in one go.
    public func fetch<T>(_ type: T.Type, at path: String) -> Promise<T, APIError> where T: Decodable & Sendable {
        get(path).flatMap(on: .immediate) { data in HTTPClient.decode(T.self, from: data) }
    }

    /// A fire-and-forget ping; callers often ignore the result.
    @discardableResult
    public func ping() -> Promise<Void, NoError> {
        requested.append("/ping")
        return Promise(fulfilled: ())
    }

    #if DEBUG
    /// Debug builds only: how many requests were made.
    public func requestCount() -> Promise<Int, NoError> {
        Promise(fulfilled: requested.count)
    }
    #endif
}

/// A repository of decodable values: subclasses override where the values come from.
open class Repository<Item: Decodable & Sendable> {
    public let client: HTTPClient
    public let path: String

    public init(client: HTTPClient, path: String) {
        self.client = client
        self.path = path
    }

    /// All items.
    open func all() -> Promise<[Item], APIError> {
        client.fetch([Item].self, at: path)
    }

    /// How many items there are.
    open class func describe() -> Promise<String, NoError> {
        Promise(fulfilled: "Repository")
    }
}

/// Posts, newest first.
public final class PostRepository: Repository<Post> {
    override public func all() -> Promise<[Post], APIError> {
        super.all().map(on: .immediate) { $0.sorted { $0.id > $1.id } }
    }

    override public class func describe() -> Promise<String, NoError> {
        Promise(fulfilled: "PostRepository")
    }

    /// Posts by one author.
    public func posts(by authorID: Int) -> PostsPromise {
        all().map(on: .immediate) { posts in posts.filter { $0.authorID == authorID } }
    }
}
