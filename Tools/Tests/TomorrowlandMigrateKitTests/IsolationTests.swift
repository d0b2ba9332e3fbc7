import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// Twins in Swift 6 mode around non-`Sendable` classes, the main actor and tests (issue 20, item 3).
@Suite("isolation of twins")
struct IsolationTests {
    static let service = (path: "Service.swift", text: """
        import Tomorrowland

        struct Profile: Sendable { var name: String }

        /// A 1.x service class: not Sendable.
        final class ProfileStore {
            private var cache: [Int: Profile] = [:]

            func profile(id: Int) -> StdPromise<Profile> {
                if let cached = cache[id] { return Promise(fulfilled: cached) }
                return Promise(fulfilled: Profile(name: "p\\(id)"))
            }

            // tomorrowland-migrate: promise-twin
            func next() async -> Int { cache.count }

            static func shared() async -> Int { 1 }
        }

        struct Counter {
            var count = 0
            mutating func bump() async -> Int {
                count += 1
                return count
            }
        }

        @MainActor
        final class ProfileViewModel {
            let store = ProfileStore()
            var title = ""

            func load() async throws {
                title = try await store.profile(id: 1).value.name
            }
        }
        """)

    static let tests = (path: "ServiceTests.swift", text: """
        import XCTest
        import Testing

        final class ServiceTests: XCTestCase {
            func testNext() async throws {
                let next = await ProfileStore().next()
                XCTAssertEqual(next, 0)
            }
        }

        @Test func shared() async {
            #expect(await ProfileStore.shared() == 1)
        }

        class BaseCase: XCTestCase {}

        final class StoreSpec: BaseCase {
            func testShared() async {
                let shared = await ProfileStore.shared()
                XCTAssertEqual(shared, 1)
            }
        }
        """)

    /// The natural caller of the async twin, written after migration: a `@MainActor` view
    /// model awaiting its non-Sendable store.
    static let mainActorClient = (path: "Client.swift", text: """
        import TomorrowlandAsync

        extension ProfileViewModel {
            func reload() async throws {
                let profile = try await store.profile(id: 2)
                title = profile.name
            }
        }
        """)

    func migrated() -> (notes: [String], sources: [(path: String, text: String)]) {
        let (notes, sources) = Support.bothCommands([Self.service, Self.tests])
        return (notes.map(\.description), sources)
    }

    @Test("no promise twin for a non-Sendable class's method, a mutating method or a test; each listed with its reason")
    func skipped() throws {
        let (notes, sources) = migrated()
        let service = Support.text(of: "Service.swift", in: sources)
        #expect(!service.contains("func next() -> Promise"))
        #expect(!service.contains("func bump() -> Promise"))
        #expect(service.contains("static func shared() -> Promise<Int, NoError> {"), "a static method captures no instance")
        #expect(Support.text(of: "ServiceTests.swift", in: sources) == Self.tests.text, "tests are not twinned")
        #expect(notes.contains(
            "Service.swift:23: next(): no promise twin: `ProfileStore` is not known to be Sendable (not declared so, not an actor, "
                + "not on a global actor): in Swift 6 mode the Task the twin starts cannot capture `self`"
        ), "\(notes)")
        #expect(notes.contains { $0.hasSuffix("bump(): no promise twin: mutating: the Task the twin starts cannot hold on to `self`; write a twin by hand") })
        #expect(notes.contains("ServiceTests.swift:5: testNext(): no promise twin: a test method: the test runner calls it, no promise-style caller can"))
        #expect(notes.contains("ServiceTests.swift:11: shared(): no promise twin: a test method: the test runner calls it, no promise-style caller can"))
        #expect(notes.contains("ServiceTests.swift:18: testShared(): no promise twin: a test method: the test runner calls it, no promise-style caller can"), "a subclass of a subclass of XCTestCase")
    }

    @Test("the async twin of a non-Sendable class's method is nonisolated(nonsending)")
    func nonsending() throws {
        let service = Support.text(of: "Service.swift", in: migrated().sources)
        #expect(service.contains("    nonisolated(nonsending) func profile(id: Int) async throws -> Profile {"))
    }

    @Test("the result and a @MainActor caller of the twin compile (Swift 5 and 6)", arguments: [5, 6])
    func compiles(swiftVersion: Int) throws {
        try Support.expectCompiles(migrated().sources + [Self.mainActorClient], swiftVersion: swiftVersion)
    }

    @Test("without nonisolated(nonsending), the @MainActor caller does not compile in Swift 6 mode")
    func nonsendingIsNeeded() throws {
        let original = migrated().sources
        // The replace below must remove something: the tool still writes the attribute.
        #expect(original.contains { $0.text.contains("nonisolated(nonsending) func profile") })
        let sources = original.map { source in
            (source.path, source.text.replacingOccurrences(of: "nonisolated(nonsending) func profile", with: "func profile"))
        }
        let outcome = try Support.compile(sources + [Self.mainActorClient], swiftVersion: 6)
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains { $0.contains("Client.swift") && $0.contains("risks causing data races") }, "\(outcome.errors)")
    }
}

/// Isolation inherited from a superclass or a protocol (issue 20, item 3).
@Suite("inherited isolation")
struct InheritedIsolationTests {
    static let source = (path: "Screens.swift", text: """
        import Tomorrowland

        @MainActor
        class BaseScreen {
            var title = ""
        }

        @MainActor
        protocol Presenting: AnyObject {}

        final class ProfileScreen: BaseScreen {
            func load() -> StdPromise<String> { Promise(fulfilled: title) }

            // tomorrowland-migrate: promise-twin
            func refresh() async -> String { title }
        }

        final class Presenter: Presenting {
            var count = 0
            func present() -> Promise<Int, NoError> { Promise(fulfilled: count) }
        }
        """)

    @Test("a subclass of a @MainActor class, a conformer of a @MainActor protocol: twins stay on the main actor")
    func shape() {
        let text = Support.text(of: "Screens.swift", in: Support.bothCommands([Self.source], all: false).sources)
        #expect(text.contains("    func load() async throws -> String {"))
        #expect(text.contains("    func present() async throws(CancellationError) -> Int {"))
        #expect(!text.contains("nonisolated(nonsending)"))
        #expect(text.contains("    func refresh() -> Promise<String, NoError> {"), "main-actor isolated: self is Sendable")
    }

    @Test("they compile (Swift 5 and 6)", arguments: [5, 6])
    func compiles(swiftVersion: Int) throws {
        try Support.expectCompiles(Support.bothCommands([Self.source], all: false).sources, swiftVersion: swiftVersion)
    }
    /// Review 28, finding 3: a global actor whose name does not end in "Actor".
    static let customGlobalActor = (path: "Worker.swift", text: """
        import Tomorrowland

        @globalActor
        actor Background {
            static let shared = Background()
        }

        @Background
        final class Worker {
            var count = 0
            func load() -> Promise<Int, NoError> { Promise(fulfilled: count) }
        }
        """)

    @Test("a class on a global actor declared @globalActor in the scanned files (not named …Actor): its twin stays on it; it compiles")
    func customGlobalActor() throws {
        let sources = Support.bothCommands([Self.customGlobalActor], all: false).sources
        let text = Support.text(of: "Worker.swift", in: sources)
        #expect(text.contains("    func load() async throws(CancellationError) -> Int {"), "\(text)")
        #expect(!text.contains("nonisolated(nonsending)"))
        try Support.expectCompiles(sources, swiftVersion: 6)
    }
}
