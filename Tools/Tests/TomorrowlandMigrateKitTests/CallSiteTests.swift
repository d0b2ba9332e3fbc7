import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// Call sites in the shapes real code has: optional chains, nested types, tuples, `defer`,
/// `async let`, `guard let`, class methods, actors, task groups (issue 20, items 1, 4 and 8).
@Suite("call sites in real shapes")
struct CallSiteTests {
    static let source = (path: "Shapes.swift", text: """
        import TomorrowlandAsync

        struct Item: Sendable { var id: Int }

        enum API {
            struct Users: Sendable {
                func get(_ id: Int) -> StdPromise<Item> { Promise(fulfilled: Item(id: id)) }
            }
        }

        extension API.Users {
            func more() -> StdPromise<Int> { Promise(fulfilled: 2) }
        }

        final class Service {
            func fetch(_ id: Int) -> StdPromise<Item> { Promise(fulfilled: Item(id: id)) }
        }

        func callers(service: Service?, users: API.Users) async throws {
            let p = service?.fetch(1)
            let (a, b) = (users.get(1), users.get(2))
            guard let value = try? await users.get(3).value else { return }
            defer { _ = users.get(4) }
            async let item = users.get(5).value
            let maybe = try await service?.fetch(6).value
            _ = (p, a, b, value, try await item, maybe, users.more())
        }

        @MainActor
        final class Screen {
            var service = Service()
            func go() {
                Task { [weak self] in
                    let promise = self?.service.fetch(2)
                    _ = promise
                }
            }
        }
        """)

    @Test("optional chains are pinned to an optional promise; nested types are resolved; non-Sendable parameters skip")
    func pins() throws {
        let (notes, sources) = Support.bothCommands([Self.source])
        let text = Support.text(of: "Shapes.swift", in: sources)
        #expect(text.contains("let p = service?.fetch(1) as StdPromise<Item>?"))
        #expect(text.contains("let maybe = try await (service?.fetch(6) as StdPromise<Item>?)?.value"))
        #expect(text.contains("let promise = self?.service.fetch(2) as StdPromise<Item>?"))
        #expect(text.contains("let (a, b) = (users.get(1) as StdPromise<Item>, users.get(2) as StdPromise<Item>)"))
        #expect(text.contains("guard let value = try? await (users.get(3) as StdPromise<Item>).value else { return }"))
        #expect(text.contains("defer { _ = users.get(4) as StdPromise<Item> }"))
        #expect(text.contains("async let item = (users.get(5) as StdPromise<Item>).value"))
        #expect(text.contains("users.more() as StdPromise<Int>)"))
        #expect(notes.map(\.message).contains(
            "callers(service:users:): no promise twin: parameter `service` (`Service?`) is not known to be Sendable: "
                + "in Swift 6 mode the Task the twin starts cannot capture it"
        ))
        #expect(Support.bothCommands(sources).sources.map(\.text) == sources.map(\.text), "a second run changes nothing")
    }

    /// Class methods, `Never`, an actor, a protocol conformance in an extension, task groups.
    static let classes = (path: "Classes.swift", text: """
        import Foundation
        import TomorrowlandAsync

        struct User: Sendable, Codable { var id: Int }

        class Base {
            class func describe() -> Promise<String, NoError> { Promise(fulfilled: "Base") }
            func load() -> Promise<Int, Never> { Promise(fulfilled: 1) }
        }

        final class Sub: Base {
            override class func describe() -> Promise<String, NoError> { Promise(fulfilled: "Sub") }
        }

        protocol Loading: AnyObject {
            func start() -> StdPromise<Int>
        }

        final class Live {
            nonisolated(unsafe) static let shared = Live()
            func start() -> StdPromise<Int> { Promise(fulfilled: 3) }
            func decode<T: Decodable & Sendable>(_ type: T.Type) -> StdPromise<T> { Promise(rejected: CancellationError()) }
        }

        extension Live: Loading {}

        actor Cache {
            func value(for key: String) -> StdPromise<Int> { Promise(fulfilled: key.count) }
            nonisolated func version() -> Promise<Int, NoError> { Promise(fulfilled: 1) }
        }

        @MainActor
        func mainOnly() -> StdPromise<Int> { Promise(fulfilled: 4) }

        func asyncCallers(cache: Cache, loader: any Loading) async throws {
            let described = Sub.describe()
            let base = Base().load()
            let shared = Live.shared.start()
            let viaProtocol = loader.start()
            let cached = await cache.value(for: "k")
            let version = cache.version()
            let main = await mainOnly()
            let detached = Task.detached { Live.shared.start() }
            let total = await withTaskGroup(of: Int.self) { group in
                group.addTask { (try? await Live.shared.start().value) ?? 0 }
                return await group.reduce(0, +)
            }
            _ = (described, base, shared, viaProtocol, cached, version, main, detached, total)
        }
        """)

    @Test("twins, pins and skips around classes and actors; a `.value` read on a call is not a use of a function `value`")
    func classesAndActors() throws {
        let (notes, sources) = Support.bothCommands([Self.classes])
        let text = Support.text(of: "Classes.swift", in: sources)
        #expect(text.contains("func load() async throws -> Int {"), "Never is an Error")
        #expect(text.contains("    func value(for key: String) async throws -> Int {"), "an actor method keeps its isolation")
        #expect(text.contains("let cached = await cache.value(for: \"k\") as StdPromise<Int>"))
        #expect(text.contains("let base = Base().load() as Promise<Int, Never>"))
        #expect(text.contains("let viaProtocol = loader.start() as StdPromise<Int>"))
        #expect(notes.map(\.message).contains(
            "asyncCallers(cache:loader:): no promise twin: parameter `loader` (`any Loading`) is not known to be Sendable: "
                + "in Swift 6 mode the Task the twin starts cannot capture it"
        ))
        #expect(Support.bothCommands(sources).sources.map(\.text) == sources.map(\.text), "a second run changes nothing")
    }

    @Test("what both commands write compiles (Swift 5 and 6)", arguments: [5, 6])
    func compiles(swiftVersion: Int) throws {
        for fixture in [Self.source, Self.classes] {
            try Support.expectCompiles(Support.bothCommands([fixture]).sources, swiftVersion: swiftVersion)
        }
    }
}
