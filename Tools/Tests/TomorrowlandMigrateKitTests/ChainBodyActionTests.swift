import Testing
@testable import TomorrowlandMigrateKit

/// `ChainBodyAction`, convert-body's action, driven one site at a time: its precondition's
/// decline with the reason the note gives, and a conversion.
@Suite("convert-body: ChainBodyAction")
struct ChainBodyActionTests {
    static let source = ConvertBodyTests.feed("""
            public func titles(limit: Int) -> Promise<[String], APIError> {
                latestPosts(limit: limit).map(on: .immediate) { $0.map(\\.title) }
            }
        """)

    /// The action over `sources` (syntax only), and the function sites of its files.
    static func action(_ sources: [(path: String, text: String)]) -> (action: ChainBodyAction, sites: [FunctionSite]) {
        let set = SourceSet.inMemory(sources)
        let planning = ConvertBody.Planning(set, project: Project(set), callers: nil, sharedModules: [:], unpaired: [], rule: nil)
        return (ChainBodyAction(planning: planning), planning.everySite)
    }

    @Test("A chain without an async twin: the precondition declines, with the note's reason")
    func declinesWithoutTwin() throws {
        let (action, sites) = Self.action([(path: "Feed.swift", text: Self.source)])
        let titles = try #require(sites.first { $0.name == "titles" })
        let reason = action.precondition(titles).reason
        #expect(reason?.text == "no async twin of its own (run add-async-twins first; a protocol requirement's implementation has none)")
        // Not a chain (its body makes a promise with no operator): not the action's site.
        let latest = try #require(sites.first { $0.name == "latestPosts" })
        guard case .notApplicable = action.precondition(latest) else {
            Issue.record("`latestPosts` is no chain")
            return
        }
    }

    @Test("A chain with its async twin: the precondition holds, and the edit is a conversion with its wrapper")
    func convertsWithTwin() throws {
        let sources = [(path: "Feed.swift", text: Self.source)]
        let twins = Support.applying(AddAsyncTwins.run(.inMemory(sources)), to: sources)
        let (action, sites) = Self.action(twins)
        let titles = try #require(sites.first { $0.name == "titles" && !$0.isAsync })
        let facts = try #require(action.precondition(titles).value)
        #expect(facts.twin?.isAsync == true)
        #expect(facts.sendableReason == nil && facts.captured == nil)
        guard case .wrapped(let conversion, let captured) = try #require(action.apply(to: titles).value) else {
            Issue.record("expected a conversion with a wrapper")
            return
        }
        #expect(captured == nil)
        #expect(conversion.edits.count >= 2)
        #expect(conversion.edits[0].text.contains("return try await latestPosts(limit: limit).map(\\.title)"))
        #expect(conversion.edits[1].text.contains("StdPromise(on: .immediate) { try await self.titles(limit: limit) }"))
        #expect(conversion.summary.hasPrefix("titles(limit:) at line"))
        // The twin is async: not the action's site.
        let twin = try #require(sites.first { $0.name == "titles" && $0.isAsync })
        guard case .notApplicable = action.apply(to: twin) else {
            Issue.record("the async twin is no chain")
            return
        }
    }
}
