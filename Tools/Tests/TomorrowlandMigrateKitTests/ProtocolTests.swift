import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// Protocol requirements and typealiases of promise types (issue 20, item 5).
@Suite("protocols and typealiases")
struct ProtocolTests {
    static let api = (path: "Users.swift", text: """
        import Tomorrowland

        struct User: Sendable, Equatable { var id: Int }

        typealias UserPromise = StdPromise<User>

        protocol UserService {
            /// Loads one user.
            func fetchUser(id: Int) -> UserPromise
            func fetchAll() -> StdPromise<[User]>
        }

        extension UserService {
            func fetchAll() -> StdPromise<[User]> { Promise(fulfilled: []) }
        }

        /// Not Sendable, as 1.x services were.
        final class LiveUserService: UserService {
            var calls = 0
            func fetchUser(id: Int) -> UserPromise { Promise(fulfilled: User(id: id)) }
        }

        /// A test fake.
        struct FakeUserService: UserService {
            func fetchUser(id: Int) -> StdPromise<User> { Promise(fulfilled: User(id: -1)) }
            func fetchAll() -> StdPromise<[User]> { Promise(fulfilled: [User(id: -1)]) }
        }

        func currentUser() -> UserPromise { Promise(fulfilled: User(id: 0)) }

        func firstUser(_ service: any UserService) async throws -> User {
            let promise = service.fetchUser(id: 1)
            return try await promise.value
        }
        """)

    /// Written after migration: calls through `any UserService`, on a concrete class from
    /// the main actor, and of a function returning the typealias.
    static let client = (path: "Client.swift", text: """
        import TomorrowlandAsync

        func modern(_ service: any UserService) async throws -> [User] {
            let user: User = try await service.fetchUser(id: 2)
            let me: User = try await currentUser()
            return try await service.fetchAll() + [user, me]
        }

        @MainActor
        func fromMainActor(_ service: LiveUserService) async throws -> User {
            try await service.fetchUser(id: 3)
        }
        """)

    func migrated() -> (MigrationResult, [(path: String, text: String)]) {
        let result = AddAsyncTwins.run(.inMemory([Self.api]))
        return (result, Support.applying(result, to: [Self.api]))
    }

    @Test("a requirement's twin is in an extension of the protocol; conformers get none; typealiases are promises")
    func shape() throws {
        let (result, sources) = migrated()
        let text = Support.text(of: "Users.swift", in: sources)
        #expect(text.contains("""
            extension UserService {
                /// Loads one user.
                ///
                /// Async twin of `fetchUser(id:)` (added by tomorrowland-migrate): awaits the promise it returns.
            """), "\(text)")
        #expect(text.contains("""
                nonisolated(nonsending) func fetchUser(id: Int) async throws -> User {
                    try await (fetchUser(id: id) as UserPromise).value
                }
            """))
        #expect(text.contains("nonisolated(nonsending) func fetchAll() async throws -> [User] {"))
        #expect(text.components(separatedBy: "func fetchUser(id: Int) async").count == 2, "one twin, not one per conformer")
        #expect(text.contains("nonisolated(nonsending) func currentUser() async throws -> User {"))
        #expect(text.contains("let promise = service.fetchUser(id: 1) as UserPromise"))
        let notes = result.notes.map(\.message)
        #expect(notes.contains("fetchUser(id:): no async twin: implements `UserService.fetchUser(id:)`: the twin in `extension UserService` serves it"))
        #expect(notes.filter { $0.contains("implements `UserService.") }.count == 4, "\(notes)")
        let report = Report.make(.inMemory([Self.api]))
        #expect(report.promiseDeclarations.contains { $0.name == "currentUser()" && $0.returns == "UserPromise" })
        #expect(AddAsyncTwins.run(.inMemory(sources)).changes.isEmpty, "a second run changes nothing")
    }

    @Test("the twins and their callers compile (Swift 5 and 6)", arguments: [5, 6])
    func compiles(swiftVersion: Int) throws {
        try Support.expectCompiles(migrated().1 + [Self.client], swiftVersion: swiftVersion)
    }
}
