import Foundation
import Testing
@testable import TomorrowlandMigrateKit

@Suite("add-promise-twins")
struct PromiseTwinsTests {
    let api: (path: String, text: String)
    let client: (path: String, text: String)

    init() throws {
        api = try Support.fixture("AsyncAPI.swift")
        client = try Support.fixture("PromiseClient.swift")
    }

    @Test("without twins the promise-style callers do not compile (the fixture needs them)")
    func callersNeedTwins() throws {
        let outcome = try Support.compile([api, client], swiftVersion: 6)
        #expect(outcome.status != 0)
    }

    @Test("marked async functions get promise twins; old and new callers compile (Swift 5 and 6)", arguments: [5, 6])
    func migratedCodeCompiles(swiftVersion: Int) throws {
        let result = AddPromiseTwins.run(.inMemory([api]), all: false)
        let sources = Support.applying(result, to: [api])
        let outcome = try Support.compile(sources + [client], swiftVersion: swiftVersion)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
    }

    @Test("the shape of the twins")
    func shape() throws {
        let result = AddPromiseTwins.run(.inMemory([api]), all: false)
        let text = try #require(result.changes.first?.updated)
        #expect(text.contains("""
                /// Loads a value; throws.
                ///
                /// Promise twin of `value(for:default:)` (added by tomorrowland-migrate): runs it in a new Task, isolated like
                /// `Task { }` written here. Cancelling the promise cancels the Task.
                func value(for key: String, default fallback: Int = 0) -> StdPromise<Int> {
                    StdPromise { try await self.value(for: key, default: fallback) }
                }
            """))
        #expect(text.contains("static func version() -> Promise<Int, NoError> {\n        Promise { await self.version() }"))
        #expect(text.contains("func unlock(_ code: Int) -> Promise<String, StoreError> {\n        Promise { () async throws(StoreError) -> String in try await self.unlock(code) }"))
        #expect(text.contains("func generic<T: Sendable>(_ value: T) -> StdPromise<[T]> where T: Equatable {"))
        #expect(text.contains("func touch() -> Promise<Void, NoError> {"))
        #expect(!text.contains("func unmarked() -> Promise"), "only marked functions without --all")
        #expect(result.changes.count == 1)
        // The report shows which async functions are marked.
        let marked = Report.make(.inMemory([api])).asyncFunctions.filter(\.markedForPromiseTwin).map(\.name)
        #expect(marked == ["value(for:default:)", "version()", "unlock(_:)", "generic(_:)", "touch()", "render(_:)", "increment(by:)"])
    }

    @Test("--all twins every async function; twice changes nothing")
    func allAndIdempotent() throws {
        let first = AddPromiseTwins.run(.inMemory([api]), all: true)
        let sources = Support.applying(first, to: [api])
        #expect(sources[0].text.contains("func unmarked() -> Promise<Int, NoError> {"))
        let second = AddPromiseTwins.run(.inMemory(sources), all: true)
        #expect(second.changes.isEmpty, "\(second.diff)")
        // Nor does add-async-twins twin the promise twins back.
        #expect(AddAsyncTwins.run(.inMemory(sources)).changes.isEmpty)
    }

    @Test("async twins are not given promise twins back")
    func bothDirections() throws {
        let asyncTwins = AddAsyncTwins.run(.inMemory([try Support.fixture("API.swift"), try Support.fixture("Callers.swift")]))
        #expect(!asyncTwins.changes.isEmpty)
        let all = Support.applying(asyncTwins, to: [try Support.fixture("API.swift"), try Support.fixture("Callers.swift")])
        // add-promise-twins leaves the async twins alone, even with --all.
        #expect(AddPromiseTwins.run(.inMemory([all[0]]), all: true).changes.isEmpty)
    }

    @Test("an @main type's static main() gets no promise twin (it would make @main ambiguous)")
    func entryPoint() {
        let source = (path: "Main.swift", text: """
            import TomorrowlandAsync

            @main
            enum Tool {
                static func main() async {}
            }
            """)
        let result = AddPromiseTwins.run(.inMemory([source]), all: true)
        #expect(result.changes.isEmpty)
        #expect(result.notes.map(\.description) == ["Main.swift:5: main(): no promise twin: a program's entry point: a same-named overload would make `@main` ambiguous"])
    }
}
