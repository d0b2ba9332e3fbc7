// A 1.x-style API, as clients wrote it before async/await. `add-async-twins` runs on this
// file and Callers.swift; the tests then compile the result (plus Client.swift) against the
// library in Swift 5 and in Swift 6 mode.

import Foundation
import Tomorrowland

enum FetchError: Error { case missing, offline }

struct User: Sendable, Equatable {
    var id: Int
    var name: String
}

final class UserAPI: Sendable {
    /// Loads a user.
    ///
    /// - Parameters:
    ///   - id: Which user.
    ///   - retries: How often to retry.
    /// - Returns: A promise of the user.
    func fetchUser(id: Int, retries: Int = 0) -> Promise<User, FetchError> {
        id < 0 ? Promise(rejected: .missing) : Promise(fulfilled: User(id: id, name: "user\(id)"))
    }

    /// The number of users; never fails.
    func userCount() -> Promise<Int, NoError> {
        Promise(fulfilled: 42)
    }

    /// A shared session token.
    static func token(named name: String) -> StdPromise<String> {
        Promise(fulfilled: "token-\(name)")
    }

    /// Generic, with constraints in the clause and in `where`.
    func firstElement<C: Collection & Sendable, E: Error>(of items: C, or error: E) -> Promise<C.Element, E> where C.Element: Sendable {
        items.first.map { Promise(fulfilled: $0) } ?? Promise(rejected: error)
    }

    /// Overloaded names: a twin for each.
    func load(_ id: Int) -> StdPromise<Int> { Promise(fulfilled: id) }
    func load(_ name: String) -> StdPromise<Int> { Promise(fulfilled: name.count) }

    /// Throws before it returns a promise.
    func validated(_ id: Int) throws -> Promise<Int, FetchError> {
        guard id >= 0 else { throw FetchError.missing }
        return Promise(fulfilled: id)
    }

    /// A closure as a parameter.
    func progressReporting(_ onProgress: @escaping @Sendable (Double) -> Void) -> StdPromise<Int> {
        onProgress(1)
        return Promise(fulfilled: 1)
    }

    /// The 1.x habit of a `String` error: `.value` does not exist for it, so no twin.
    func legacyLookup(_ key: String) -> Promise<Int, String> {
        Promise(rejected: "no \(key)")
    }

    /// `inout`: the twin passes it on (`&counter`), exclusive access for the whole await.
    func bump(_ counter: inout Int) -> Promise<Int, NoError> {
        counter += 1
        return Promise(fulfilled: counter)
    }

    /// Token promises are awaited through their inner promise.
    func tokenized(_ token: PromiseInvalidationToken) -> TokenPromise<Int, NoError> {
        Promise<Int, NoError>(fulfilled: 7).withToken(token)
    }
}

/// A protocol requirement: its twin goes in an extension of the protocol.
protocol UserStore {
    func user(id: Int) -> StdPromise<User>
}

/// A class family: the override gets no twin of its own (the base twin dispatches to it).
class Feed {
    func items() -> StdPromise<[String]> { Promise(fulfilled: ["base"]) }
}

final class SpecialFeed: Feed {
    override func items() -> StdPromise<[String]> { Promise(fulfilled: ["special"]) }
}

/// A view model on the main actor: its twins stay on the main actor.
@MainActor
final class ProfileViewModel {
    var title = ""

    func refresh() -> Promise<String, NoError> {
        Promise(fulfilled: "Profile")
    }

    public static func shared() -> StdPromise<Int> { Promise(fulfilled: 0) }
}

actor ImageCache {
    private var images: [String: Int] = [:]

    func image(for key: String) -> StdPromise<Int> {
        if let image = images[key] { return Promise(fulfilled: image) }
        images[key] = key.count
        return Promise(fulfilled: key.count)
    }
}

/// A top-level function with availability and a default argument.
@available(macOS 10.15, iOS 13, *)
func loadConfiguration(named name: String = "default") -> Promise<[String: String], Error> {
    Promise(fulfilled: ["name": name])
}
