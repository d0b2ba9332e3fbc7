import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// Functions that get no twin, and the reasons given (issue 20, items 2 and 8).
@Suite("skipped functions")
struct SkipTests {
    static let extensions = (path: "Extensions.swift", text: """
        import Tomorrowland

        extension Promise {
            /// `Error` here is the promise's generic parameter.
            func retagged() -> Promise<Value, Error> { self }
        }

        extension Promise where Error: Swift.Error {
            /// Here it is a Swift.Error: `.value` exists.
            func again() -> Promise<Value, Error> { self }
        }

        // tomorrowland-migrate: skip
        func legacy() -> StdPromise<Int> { Promise(fulfilled: 1) }

        // tomorrowland-migrate: skip
        func modern() async -> Int { 1 }
        """)

    /// A caller of the twin of the constrained extension's method.
    static let client = (path: "Client.swift", text: """
        import TomorrowlandAsync

        func uses() async throws -> Int {
            try await StdPromise<Int>(fulfilled: 2).again()
        }
        """)

    /// A test file's helpers: one blocks on an expectation, one on a semaphore, one waits only
    /// inside a closure that runs elsewhere (its own thread does not block).
    static let blocking = (path: "Tests/AppTests/Helpers.swift", text: """
        import Dispatch
        import Tomorrowland
        import XCTest

        final class HelperTests: XCTestCase {
            func call<T>(_ body: @escaping () async -> StdPromise<T>) -> StdPromise<T> {
                let returned = expectation(description: "returned")
                var promise: StdPromise<T>?
                Task {
                    promise = await body()
                    returned.fulfill()
                }
                wait(for: [returned], timeout: 10)
                return promise!
            }

            func started() -> StdPromise<Int> {
                let semaphore = DispatchSemaphore(value: 0)
                DispatchQueue.global().async { semaphore.signal() }
                semaphore.wait()
                return Promise(fulfilled: 1)
            }

            func later() -> StdPromise<Int> {
                let semaphore = DispatchSemaphore(value: 0)
                return Promise(on: .utility) { resolver in
                    semaphore.wait(timeout: .now() + 1)
                    resolver.fulfill(with: 2)
                }
            }
        }
        """)

    @Test("a function that blocks its thread while it waits gets no async twin; one that waits in a closure does")
    func blockingWaits() throws {
        let result = AddAsyncTwins.run(.inMemory([Self.blocking]))
        let text = Support.text(of: Self.blocking.path, in: Support.applying(result, to: [Self.blocking]))
        #expect(!text.contains("func call<T>(_ body: @escaping () async -> StdPromise<T>) async"))
        #expect(!text.contains("func started() async"))
        #expect(text.contains("func later() async throws -> Int {"))
        let notes = result.notes.map(\.description)
        #expect(notes.contains(
            "Tests/AppTests/Helpers.swift:6: call(_:): no async twin: blocks its thread while it waits (`wait(for:…)`, line 13): "
                + "an async twin would hold a Task's thread for the whole wait, and on an actor (a `@MainActor` test) nothing the "
                + "wait needs could run there; its callers keep the promise"
        ), "\(notes)")
        #expect(notes.contains { $0.hasPrefix("Tests/AppTests/Helpers.swift:17: started(): no async twin: blocks its thread while it waits (`semaphore.wait()`, line 20)") },
                "\(notes)")
    }

    @Test("an unconstrained `extension Promise` gets no twin; a constrained one does; the skip marker")
    func promiseExtension() throws {
        let result = AddAsyncTwins.run(.inMemory([Self.extensions]))
        let text = Support.text(of: "Extensions.swift", in: Support.applying(result, to: [Self.extensions]))
        #expect(!text.contains("func retagged() async"))
        #expect(text.contains("func again() async throws -> Value {"))
        #expect(!text.contains("func legacy() async"))
        let notes = result.notes.map(\.description)
        #expect(notes.contains(
            "Extensions.swift:5: retagged(): no async twin: in `extension Promise`, `Error` is the promise's generic parameter, "
                + "not known to conform to Swift.Error; move it to `extension Promise where Error: Swift.Error` to get a twin"
        ), "\(notes)")
        #expect(notes.contains("Extensions.swift:14: legacy(): no async twin: marked `// tomorrowland-migrate: skip`"), "\(notes)")
        // Deleting nothing by hand: a rerun changes nothing, and add-promise-twins honours the marker too.
        #expect(AddAsyncTwins.run(.inMemory([(path: "Extensions.swift", text: text)])).changes.isEmpty)
        let promiseTwins = AddPromiseTwins.run(.inMemory([(path: "Extensions.swift", text: text)]), all: true)
        #expect(!promiseTwins.changes.contains { $0.updated.contains("func modern() -> Promise") })
        #expect(promiseTwins.notes.map(\.message) == ["modern(): no promise twin: marked `// tomorrowland-migrate: skip`"])
    }

    @Test("the result of both commands on Promise extensions compiles (Swift 5 and 6)", arguments: [5, 6])
    func promiseExtensionCompiles(swiftVersion: Int) throws {
        try Support.expectCompiles(Support.bothCommands([Self.extensions]).sources + [Self.client], swiftVersion: swiftVersion)
    }
}

/// Skip reasons that are true, and nothing written broken (issue 20, item 8).
@Suite("true skip reasons")
struct TrueSkipReasonTests {
    static let source = (path: "Unhandled.swift", text: """
        import Tomorrowland

        enum LoadError: Error { case missing }

        protocol AppError: Error {}
        enum SyncError: AppError { case conflict }

        protocol Repository {
            associatedtype Failure: Error
            func load(id: Int) -> Promise<Int, Failure>
        }

        struct Timeouts: Sendable {
            func slow() -> Promise<Int, PromiseTimeoutError<LoadError>> { Promise(fulfilled: 1) }
            func misuse() -> Promise<Int, PromiseCallbackError> { Promise(fulfilled: 2) }
            func legacy() -> Promise<Int, String> { Promise(rejected: "no") }
            func sync() -> Promise<Int, SyncError> { Promise(fulfilled: 3) }
        }

        struct Catalog: Sendable {
            subscript(index: Int) -> StdPromise<Int> { Promise(fulfilled: index) }
            var first: StdPromise<Int> { Promise(fulfilled: 0) }
            var asyncCount: Int { get async { 0 } }
        }

        struct Counter {
            var count = 0
            mutating func bump() async -> Int {
                count += 1
                return count
            }
        }

        func awaitsNothing(_ timeouts: Timeouts) async -> Promise<Int, String> {
            await timeouts.legacy()
        }
        """)

    /// Written after migration: the twins the library's error types and the associated type allow.
    static let client = (path: "Client.swift", text: """
        import TomorrowlandAsync

        func useTwins<R: Repository>(_ timeouts: Timeouts, _ repository: R) async throws -> Int {
            let slow: Int = try await timeouts.slow()
            let misuse: Int = try await timeouts.misuse()
            let loaded: Int = try await repository.load(id: 1)
            return slow + misuse + loaded
        }
        """)

    func migrated() -> (notes: [String], sources: [(path: String, text: String)]) {
        let (notes, sources) = Support.bothCommands([Self.source])
        return (notes.map(\.message), sources)
    }

    @Test("library error types and associated types constrained to Error are errors; unhandled constructs are listed")
    func reasons() throws {
        let (notes, sources) = migrated()
        let text = Support.text(of: "Unhandled.swift", in: sources)
        #expect(text.contains("func slow() async throws -> Int {"))
        #expect(text.contains("func misuse() async throws -> Int {"))
        #expect(text.contains("func sync() async throws -> Int {"), "an Error through a protocol that refines Error")
        #expect(text.contains("extension Repository {"))
        #expect(text.contains("func load(id: Int) async throws -> Int {"))
        #expect(notes.contains { $0.hasPrefix("legacy(): no async twin: `String` is not known to conform to Error") })
        #expect(notes.contains("subscript(index: Int): no async twin: a subscript cannot be overloaded by an async one; await its `.value` at the call sites instead"), "\(notes)")
        #expect(notes.contains("first: no async twin: a computed property cannot be overloaded by an async one; await its `.value` at the call sites instead"))
        #expect(notes.contains("asyncCount: no promise twin: a computed property cannot be overloaded by a promise-returning one; add a method returning `StdPromise { try await … }` by hand"))
        #expect(notes.contains("bump(): no promise twin: mutating: the Task the twin starts cannot hold on to `self`; write a twin by hand"))
        #expect(notes.contains("`timeouts.legacy()` awaits nothing: legacy() returns a promise and has no async twin; the result is the promise (await its `.value`)"), "\(notes)")
    }

    @Test("what both commands write compiles (Swift 5 and 6)", arguments: [5, 6])
    func compiles(swiftVersion: Int) throws {
        try Support.expectCompiles(migrated().sources + [Self.client], swiftVersion: swiftVersion)
    }
}
