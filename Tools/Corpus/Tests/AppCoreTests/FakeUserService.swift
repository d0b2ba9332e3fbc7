// A test fake of the user service, written the 1.x way.

import AppCore
import Foundation
import Tomorrowland

/// Answers from a table; counts the calls.
final class FakeUserService: UserServicing {
    var users: UserTable
    private(set) var calls = 0

    init(users: [User]) {
        self.users = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0) })
    }

    func fetchUser(id: Int) -> UserPromise {
        calls += 1
        guard let user = users[id] else { return Promise(rejected: APIError.notFound) }
        return Promise(fulfilled: user)
    }

    func fetchUser(email: String) -> Promise<User, APIError> {
        calls += 1
        guard let user = users.values.first(where: { $0.email == email }) else { return Promise(rejected: .notFound) }
        return Promise(fulfilled: user)
    }

    func userIDs() -> Promise<[Int], NoError> {
        Promise(fulfilled: users.keys.sorted())
    }
}

/// Sample data.
enum Samples {
    static let ada = User(id: 1, name: "Ada", email: "ada@example.com")
    static let grace = User(id: 2, name: "Grace", email: "grace@example.com")
    static let users = [ada, grace]

    static func json<T: Encodable>(_ value: T) -> Data {
        (try? JSONEncoder().encode(value)) ?? Data()
    }

    static func client(latency: TimeInterval = 0) -> HTTPClient {
        HTTPClient(responses: [
            "/users/1": json(ada),
            "/users/2": json(grace),
            "/users": json(users),
            "/posts": json([Post(id: 1, authorID: 1, title: "Engines"), Post(id: 2, authorID: 2, title: "Compilers")]),
        ], latency: latency)
    }
}
