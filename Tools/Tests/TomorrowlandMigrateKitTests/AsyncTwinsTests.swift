import Foundation
import Testing
import SwiftSyntax
@testable import TomorrowlandMigrateKit

@Suite("add-async-twins")
struct AsyncTwinsTests {
    let api: (path: String, text: String)
    let callers: (path: String, text: String)
    let client: (path: String, text: String)

    init() throws {
        api = try Support.fixture("API.swift")
        callers = try Support.fixture("Callers.swift")
        client = try Support.fixture("Client.swift")
    }

    func migrated() -> (MigrationResult, [(path: String, text: String)]) {
        let result = AddAsyncTwins.run(.inMemory([api, callers]))
        return (result, Support.applying(result, to: [api, callers]))
    }

    @Test("the fixtures compile as written, before the tool runs (Swift 5 and 6)", arguments: [5, 6])
    func fixturesCompileBefore(swiftVersion: Int) throws {
        let outcome = try Support.compile([api, callers], swiftVersion: swiftVersion)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
    }

    @Test("twins, rewritten callers and a client of the twins compile (Swift 5 and 6)", arguments: [5, 6])
    func migratedCodeCompiles(swiftVersion: Int) throws {
        let (_, sources) = migrated()
        let outcome = try Support.compile(sources + [client], swiftVersion: swiftVersion)
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.errors.isEmpty)
    }

    @Test("without the call-site rewrites, callers in async code stop compiling (what item 4 prevents)")
    func callSiteRewritesAreNeeded() throws {
        // Twins from API.swift alone: Callers.swift is not scanned, so it is not rewritten.
        let twinsOnly = Support.applying(AddAsyncTwins.run(.inMemory([api])), to: [api])
        let outcome = try Support.compile(twinsOnly + [callers], swiftVersion: 6)
        #expect(outcome.status != 0)
        let failingLines = Set(outcome.errors.filter { $0.contains("Callers.swift") }.compactMap { line in
            line.split(separator: ":").dropFirst().first.flatMap { Int($0) }
        })
        // The unpinned calls in async functions (37 follows from 36: `refresh` became a
        // String), and none of the pinned ones. (The call in the `Task { }` closure at line 29
        // happens to keep resolving to the promise; the tool pins it anyway.)
        #expect(failingLines == [16, 17, 18, 22, 36, 37], "\(outcome.errors)")
    }

    @Test("call sites in async code are pinned with an explicit promise type")
    func callSitesArePinned() throws {
        let (result, sources) = migrated()
        let rewritten = try #require(sources.first { $0.path == "Callers.swift" }?.text)
        #expect(rewritten.contains("let user = api.fetchUser(id: 1) as Promise<User, FetchError>"))
        #expect(rewritten.contains("let count = api.userCount() as Promise<Int, NoError>"))
        #expect(rewritten.contains("_ = api.load(\"abc\") as StdPromise<Int>"))
        #expect(rewritten.contains("let config = loadConfiguration() as Promise<[String: String], Error>"))
        #expect(rewritten.contains("let promise = api.load(6) as StdPromise<Int>"))
        #expect(rewritten.contains("let refresh = model.refresh() as Promise<String, NoError>"))
        // Pinned or synchronous call sites are left alone.
        #expect(rewritten.contains("let user = api.fetchUser(id: 1)\n"))
        #expect(rewritten.contains("let pinned: StdPromise<Int> = api.load(2) "))
        // `.value` / `.result` on the call: the twin's value type could have such a member.
        #expect(rewritten.contains("return try await (api.load(5) as StdPromise<Int>).value "))
        #expect(rewritten.contains("let token = try (UserAPI.token(named: \"a\") as StdPromise<String>).result "))
        #expect(rewritten.contains("existing = api.load(8) "))
        #expect(rewritten.contains("let coerced = api.load(9) as StdPromise<Int> "))
        // No pin in a synchronous closure (no twin can be chosen there).
        #expect(rewritten.contains("let promises = [1, 2].map { api.load($0) } "))
        #expect(rewritten.contains("let task = Task { api.load(11) as StdPromise<Int> } "))
        #expect(rewritten.contains("-> StdPromise<Int> { api.load(10) } "))
        // Array elements are pinned too: harmless, since the tool cannot tell whether `when`
        // would accept the twin's value.
        #expect(rewritten.contains("when(fulfilled: [api.load(3) as StdPromise<Int>, api.load(4) as StdPromise<Int>])"))
        #expect(result.notes.filter { $0.path == "Callers.swift" }.count == 11)
    }

    @Test("what gets a twin, what does not, and why")
    func skippedWithReasons() throws {
        let (result, sources) = migrated()
        let text = try #require(sources.first { $0.path == "API.swift" }?.text)
        let twins = text.components(separatedBy: "(added by tomorrowland-migrate)").count - 1
        // fetchUser, userCount, token, firstElement, load ×2, validated, progressReporting,
        // tokenized, Feed.items, refresh, shared, image, loadConfiguration, UserStore.user, bump.
        #expect(twins == 16)
        let notes = result.notes.map(\.message)
        #expect(notes.contains { $0.hasPrefix("legacyLookup(_:): no async twin: `String` is not known to conform to Error") })
        // An inout parameter is passed on: the call holds exclusive access for the whole await.
        #expect(!notes.contains { $0.hasPrefix("bump(_:): no async twin") })
        #expect(text.contains("try await (bump(&counter) as Promise<Int, NoError>).value"))
        #expect(notes.contains { $0.hasPrefix("items(): no async twin: an override") })
        // A protocol requirement's twin is in an extension of the protocol.
        #expect(text.contains("""
            extension UserStore {
                /// Async twin of `user(id:)` (added by tomorrowland-migrate): awaits the promise it returns.
            """))
        // Shape of one twin: generics, where clause, typed NoError, doc comment adapted.
        #expect(text.contains("""
                /// - Returns: The user.
                ///
                /// Async twin of `fetchUser(id:retries:)` (added by tomorrowland-migrate): awaits the promise it returns.
                /// Throws the promise's `FetchError`, or `CancellationError` when it is cancelled; cancelling the awaiting Task
                /// requests cancellation of the promise.
                nonisolated(nonsending) func fetchUser(id: Int, retries: Int = 0) async throws -> User {
                    try await (fetchUser(id: id, retries: retries) as Promise<User, FetchError>).value
                }
            """))
        #expect(text.contains("func userCount() async throws(CancellationError) -> Int {"))
        #expect(text.contains("static func token(named name: String) async throws -> String {"))
        // Too long for one line: one parameter per line.
        #expect(text.contains("""
                nonisolated(nonsending) func firstElement<C: Collection & Sendable, E: Error>(
                    of items: C,
                    or error: E
                ) async throws -> C.Element where C.Element: Sendable {
            """))
        #expect(text.contains("func validated(_ id: Int) async throws -> Int {"))
        #expect(text.contains("try await (tokenized(token) as TokenPromise<Int, NoError>).inner.value"))
        #expect(text.contains("public static func shared() async throws -> Int {"))
        // Attributes stay on their own line.
        #expect(text.contains("@available(macOS 10.15, iOS 13, *)\nnonisolated(nonsending) func loadConfiguration(named name: String = \"default\") async throws -> [String: String] {"))
        // On the main actor or an actor, the twin keeps the isolation.
        #expect(text.contains("    func refresh() async throws(CancellationError) -> String {"))
        #expect(text.contains("    func image(for key: String) async throws -> Int {"))
        // No line over 120 columns that the tool wrote (the fixture has some of its own).
        let long = text.split(separator: "\n").filter { $0.count > 120 && !api.text.contains($0) }
        #expect(long.isEmpty, "\(long)")
        #expect(text.contains("import TomorrowlandAsync"))
    }

    @Test("running it twice changes nothing")
    func idempotent() {
        let (_, sources) = migrated()
        let second = AddAsyncTwins.run(.inMemory(sources))
        #expect(second.changes.isEmpty, "\(second.diff)")
    }

    @Test("without --write the change is a unified diff")
    func diff() {
        let result = AddAsyncTwins.run(.inMemory([(path: "A.swift", text: """
            import Tomorrowland

            func load() -> StdPromise<Int> { Promise(fulfilled: 1) }

            """)]))
        #expect(result.diff == """
            --- a/A.swift
            +++ b/A.swift
            @@ -1,4 +1,12 @@
             import Tomorrowland
            +import TomorrowlandAsync
             
             func load() -> StdPromise<Int> { Promise(fulfilled: 1) }
            +
            +/// Async twin of `load()` (added by tomorrowland-migrate): awaits the promise it returns.
            +/// Throws the promise's error, or `CancellationError` when it is cancelled; cancelling the awaiting Task requests
            +/// cancellation of the promise.
            +nonisolated(nonsending) func load() async throws -> Int {
            +    try await (load() as StdPromise<Int>).value
            +}
             

            """)
    }

    @Test("a call in async code whose promise type cannot be written there: no twin, the call is listed")
    func unspellableCallSite() {
        let source = (path: "G.swift", text: """
            import Tomorrowland

            struct Box<Element: Sendable> {
                var element: Element
                func get() -> StdPromise<Element> { Promise(fulfilled: element) }
            }

            func use(_ box: Box<Int>) async {
                let promise = box.get()
                _ = promise
            }
            """)
        let result = AddAsyncTwins.run(.inMemory([source]))
        #expect(result.changes.isEmpty)
        #expect(result.notes.map(\.description) == [
            "G.swift:5: get(): no async twin: the call at G.swift:9 in async code might pick the twin, and its promise type cannot be written there",
        ])
    }

    @Test("functions used as values get no twin (the reference would become ambiguous)")
    func functionValues() {
        let source = (path: "V.swift", text: """
            import Tomorrowland

            func fetch(_ id: Int) -> StdPromise<Int> { Promise(fulfilled: id) }
            let fetchers = [1, 2].map(fetch)
            """)
        let result = AddAsyncTwins.run(.inMemory([source]))
        // A key path names a property, never the function.
        let keyPath = AddAsyncTwins.run(.inMemory([
            (path: "F.swift", text: "import Tomorrowland\n\nfunc fetch(_ id: Int) -> StdPromise<Int> { Promise(fulfilled: id) }\n"),
            (path: "E.swift", text: "struct Entry { var fetch: Int }\n"),
            (path: "K.swift", text: "let counts = [Entry(fetch: 1)].map(\\.fetch)\n"),
        ]))
        #expect(keyPath.changes.map(\.path) == ["F.swift"], "\(keyPath.notes)")
        #expect(result.changes.isEmpty)
        #expect(result.notes.map(\.message) == [
            "fetch(_:): no async twin: `fetch` is used as a value at V.swift:4; a same-named overload would make that ambiguous",
        ])
    }

    @Test("a call that may mean another type's same-named method is not pinned to the promise type")
    func sameNameOtherType() throws {
        let source = (path: "N.swift", text: """
            import TomorrowlandAsync

            struct Remote { func count() -> StdPromise<Int> { Promise(fulfilled: 1) } }
            struct Local { func count() -> Int { 2 } }

            func makeLocal() -> Local { Local() }

            func use() async {
                let n = makeLocal().count()
                _ = n
            }
            """)
        let result = AddAsyncTwins.run(.inMemory([source]))
        #expect(result.changes.isEmpty, "\(result.diff)")
        #expect(result.notes.map(\.description) == [
            "N.swift:3: count(): no async twin: the call at N.swift:9 in async code might pick the twin, and it may also mean another function of that name",
        ])
    }

    @Test("a receiver whose type the syntax tells: only that type's method counts (Swift 5 and 6)", arguments: [5, 6])
    func sameNameTypedReceiver(swiftVersion: Int) throws {
        let source = (path: "N.swift", text: """
            import TomorrowlandAsync

            struct Remote { func count() -> StdPromise<Int> { Promise(fulfilled: 1) } }
            struct Local { func count() -> Int { 2 } }

            func use(_ local: Local, remote: Remote) async throws {
                let n = local.count()
                let promise = remote.count()
                let viaTwin: Int = try await remote.count()
                _ = (n, promise, viaTwin)
            }
            """)
        let result = AddAsyncTwins.run(.inMemory([source]))
        let text = Support.text(of: "N.swift", in: Support.applying(result, to: [source]))
        #expect(text.contains("let n = local.count()\n"))
        #expect(text.contains("let promise = remote.count() as StdPromise<Int>\n"))
        #expect(text.contains("func count() async throws -> Int {"))
        try Support.expectCompiles([(path: "N.swift", text: text)], swiftVersion: swiftVersion)
    }

    @Test("call labels against declarations: defaults, unlabelled arguments, trailing closures")
    func labelMatching() throws {
        func decl(_ text: String) throws -> FunctionDeclSyntax {
            let file = SourceSet.inMemory([(path: "D.swift", text: text)]).files[0]
            return try #require(FunctionSite.all(in: file).first?.decl)
        }
        let report = try decl("func report(for index: Int, rootName: String) -> StdPromise<Int> { fatalError() }")
        #expect(CallMatching.labels(["for", "rootName"], canCall: report))
        #expect(!CallMatching.labels([nil, nil], canCall: report))
        let load = try decl("func load(_ id: Int, retries: Int = 0, then done: @escaping () -> Void = {}) -> StdPromise<Int> { fatalError() }")
        #expect(CallMatching.labels([nil], canCall: load))
        #expect(CallMatching.labels([nil, "retries"], canCall: load))
        #expect(CallMatching.labels([nil, Calls.trailingClosure], canCall: load))
        #expect(!CallMatching.labels([Calls.trailingClosure], canCall: load))
        #expect(!CallMatching.labels(["id"], canCall: load))
    }
}
