import Testing
@testable import TomorrowlandMigrateKit

/// The twin commands' actions, each alone: its precondition and its edit on a fixture.
@Suite("twin actions")
struct TwinActionsTests {
    /// The functions of `text` (one file, `T.swift`), by name.
    static func sites(_ text: String) -> (all: [FunctionSite], named: [String: FunctionSite], set: SourceSet) {
        let set = SourceSet.inMemory([(path: "T.swift", text: text)])
        let all = set.files.flatMap(FunctionSite.all(in:))
        return (all, Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }), set)
    }

    @Test("AsyncTwinAction: a twin for a promise-returning function; declines a blocking one, with its reason")
    func asyncTwin() throws {
        let (all, named, set) = Self.sites("""
            import Tomorrowland

            func load() -> StdPromise<Int> { Promise(fulfilled: 1) }
            func wait() -> StdPromise<Int> {
                DispatchSemaphore(value: 0).wait()
                return Promise(fulfilled: 2)
            }
            """)
        let action = AsyncTwinAction(project: Project(set), decisions: ProofDecisions(), everySite: all)
        let load = try #require(named["load"])
        let edit = try #require(action.apply(to: load).value)
        #expect(edit.protocolDecl == nil && edit.key == AddAsyncTwins.key(load))
        #expect(edit.text.contains("func load() async throws -> Int {"))
        #expect(edit.text.contains("try await (load() as StdPromise<Int>).value"))
        let wait = try #require(named["wait"])
        let reason = try #require(action.precondition(wait).reason)
        #expect(reason.text.hasPrefix("blocks its thread while it waits (`DispatchSemaphore(value: 0).wait()`, line 5)"))
        var rejected = ProofDecisions()
        rejected.rejected[AddAsyncTwins.key(load)] = "the compiler rejects the twin"
        let declined = AsyncTwinAction(project: Project(set), decisions: rejected, everySite: all).precondition(load)
        #expect(declined.reason == SkipReason("the compiler rejects the twin"))
    }

    @Test("CallPinAction: `as T` for a call a twin would change; declines when no single type can be written")
    func callPin() throws {
        let (all, named, set) = Self.sites("""
            import Tomorrowland

            struct Remote { func count() -> StdPromise<Int> { Promise(fulfilled: 1) } }
            struct Local { func count() -> Int { 2 } }
            func fetch() -> StdPromise<Int> { Promise(fulfilled: 1) }

            func makeLocal() -> Local { Local() }

            func use() async {
                let n = makeLocal().count()
                let f = fetch()
                _ = (n, f)
            }
            """)
        let remote = try #require(all.first { $0.container == "Remote" })
        let candidates = [remote, try #require(named["fetch"])]
        let action = CallPinAction(
            project: Project(set), decisions: ProofDecisions(), candidates: candidates, alreadyTwinned: [], everySite: all
        )
        let calls = action.sites(in: set.files[0])
        #expect(calls.map(\.name) == ["count", "fetch"])
        let facts = try #require(action.precondition(calls[0]).value)
        #expect(facts.matching.map(\.container) == ["Remote"] && facts.typeCount == 2 && !facts.spellable)
        #expect(action.edit(calls[0], facts).reason == SkipReason("it may also mean another function of that name"))
        let pin = try #require(action.apply(to: calls[1]).value)
        #expect(pin.owner == "fetch" && pin.edits.count >= 1)
        #expect(pin.note.description == "T.swift:11: `fetch()` gets `as StdPromise<Int>` so that it keeps calling the promise-returning fetch")
    }

    @Test("PromiseTwinAction: a twin for a marked async function; declines a mutating one, with its reason")
    func promiseTwin() throws {
        let (all, named, set) = Self.sites("""
            import Tomorrowland

            actor Store {
                func load() async -> Int { 1 }
            }
            struct Counter {
                var count = 0
                mutating func bump() async -> Int { count += 1; return count }
            }
            func plain() -> Int { 1 }
            """)
        let action = PromiseTwinAction(project: Project(set), everySite: all, all: true)
        let load = try #require(named["load"])
        let edit = try #require(action.apply(to: load).value)
        #expect(edit.start == load.decl.endPositionBeforeTrailingTrivia.utf8Offset && edit.end == edit.start)
        #expect(edit.text.contains("nonisolated func load() -> Promise<Int, NoError> {"))
        let bump = try #require(named["bump"])
        let reason = try #require(action.precondition(bump).reason)
        #expect(reason.text == "mutating: the Task the twin starts cannot hold on to `self`; write a twin by hand")
        let plain = try #require(named["plain"])
        if case .notApplicable = action.apply(to: plain) {} else { Issue.record("a synchronous function got a twin") }
    }
}
