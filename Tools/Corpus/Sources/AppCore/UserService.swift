// The user service: a protocol with promise requirements, the live conformer, and helpers.

import Foundation
import Tomorrowland
import TomorrowlandAsync

/// Loads users. The app talks to it through `any UserServicing`; tests use a fake.
public protocol UserServicing: AnyObject {
    /// Loads one user by id.
    func fetchUser(id: Int) -> UserPromise
    /// Loads one user by email.
    func fetchUser(email: String) -> Promise<User, APIError>
    /// Every user id.
    func userIDs() -> Promise<[Int], NoError>
}

/// The live service, on top of `HTTPClient`. Not Sendable: 1.x services rarely were.
public final class LiveUserService: UserServicing {
    let client: HTTPClient
    private var cache: UserTable = [:]

    public init(client: HTTPClient) {
        self.client = client
    }

    public func fetchUser(id: Int) -> UserPromise {
        if let cached = cache[id] { return Promise(fulfilled: cached) }
        return client.fetch(User.self, at: "/users/\(id)")
            .mapError(on: .immediate) { $0 as Swift.Error }
    }

    public func fetchUser(email: String) -> Promise<User, APIError> {
        client.fetch([User].self, at: "/users").flatMap(on: .immediate) { users in
            users.first { $0.email == email }.map { Promise(fulfilled: $0) } ?? Promise(rejected: .notFound)
        }
    }

    public func userIDs() -> Promise<[Int], NoError> {
        Promise(fulfilled: [1, 2, 3])
    }

    /// Remembers `user` so that `fetchUser(id:)` answers without a request.
    public func remember(_ user: User) {
        cache[user.id] = user
    }

    // tomorrowland-migrate: promise-twin
    /// The next id to hand out; rewritten as async already.
    public func nextID() async -> Int {
        cache.count + 1
    }
}

/// Helpers every promise in the app can use.
extension Promise {
    /// The same promise, with the error type spelled out (a 1.x habit).
    func retagged() -> Promise<Value, Error> { self }
}

extension Promise where Error == Swift.Error {
    /// Logs the result and passes it on.
    public func logged(_ label: String) -> Promise<Value, Error> {
        tap(on: .immediate) { result in
            #if DEBUG
            print("\(label): \(result)")
            #endif
        }
    }
}

/// Loads several users at once, failing if any fails.
public func fetchUsers(ids: [Int], from service: any UserServicing) -> StdPromise<[User]> {
    when(fulfilled: ids.map { service.fetchUser(id: $0) })
}

/// The user for a greeting, with a generic way to name them.
public func greeting<Namer>(for id: Int, service: any UserServicing, namer: Namer) -> StdPromise<String>
where Namer: Sendable, Namer: CustomStringConvertible {
    service.fetchUser(id: id).map(on: .immediate) { "Hello \(namer) \($0.name)" }
}

/// Names of the given users, in order.
public func names(of ids: some Collection<Int> & Sendable, service: any UserServicing) -> StdPromise<[String]> {
    fetchUsers(ids: Array(ids), from: service).map(on: .immediate) { $0.map(\.name) }
}

/// The current user, via the typealias.
public func currentUser(service: any UserServicing) -> UserPromise {
    service.fetchUser(id: 1).logged("current")
}

/// An awaited bridge written before the migration: stays a bridge.
public func currentUserName(service: any UserServicing) async throws -> String {
    try await service.fetchUser(id: 1).value.name
}

/// Looks a user up and returns the promise itself, for callers that chain on it.
public func lookUp(id: Int, in service: any UserServicing) async -> UserPromise {
    let promise = service.fetchUser(id: id)
    _ = service.userIDs()
    return promise
}
