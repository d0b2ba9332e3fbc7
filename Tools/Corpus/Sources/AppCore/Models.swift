// Models, errors and the promise typealiases the app uses everywhere.

import Foundation
import Tomorrowland

/// A user of the service.
public struct User: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var email: String

    public init(id: Int, name: String, email: String) {
        self.id = id
        self.name = name
        self.email = email
    }
}

/// A key/value setting. Its `value` member is what makes `fetchSetting(_:).value` ambiguous.
public struct Setting: Codable, Sendable, Equatable {
    public var key: String
    public var value: Int

    public init(key: String, value: Int) {
        self.key = key
        self.value = value
    }
}

/// A post in a user's feed.
public struct Post: Codable, Sendable, Equatable {
    public var id: Int
    public var authorID: Int
    public var title: String

    public init(id: Int, authorID: Int, title: String) {
        self.id = id
        self.authorID = authorID
        self.title = title
    }
}

/// Errors of the HTTP layer.
public enum APIError: Error, Equatable, Sendable {
    case notFound
    case offline
    case badStatus(Int)
    case decoding(String)
}

extension APIError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .notFound: return "not found"
        case .offline: return "offline"
        case .badStatus(let code): return "status \(code)"
        case .decoding(let message): return "decoding: \(message)"
        }
    }
}

/// Errors of the local store.
public enum StoreError: Error, Sendable {
    case locked
    case missing(key: String)
}

/// The promise of a user, as the API returns it.
public typealias UserPromise = StdPromise<User>

/// A typed promise of posts.
public typealias PostsPromise = Promise<[Post], APIError>

/// Users by id, for the in-memory fakes and caches.
public typealias UserTable = [Int: User]
