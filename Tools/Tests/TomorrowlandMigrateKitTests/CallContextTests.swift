// Where a call is written (`CallContext`): a closure passed to `assumeIsolated` is synchronous, so a
// call in it needs no pin against the async twin (Relay's main-actor tests run their bodies in
// `MainActor.assumeIsolated { … }`, and add-async-twins pinned their calls as if in async code).

import SwiftSyntax
import Testing
@testable import TomorrowlandMigrateKit

@Suite("where a call is written")
struct CallContextTests {
    static func context(of name: String, in text: String) throws -> CallContext {
        let file = try #require(SourceSet.inMemory([("C.swift", text)]).files.first)
        let finder = CallFinder(viewMode: .sourceAccurate)
        finder.walk(file.tree)
        let call = try #require(finder.calls.first { Calls.calledName($0)?.0 == name })
        return CallContext.of(Syntax(call))
    }

    @Test("`MainActor.assumeIsolated { … }` and an actor's `assumeIsolated` take synchronous closures; an unknown taker may be async")
    func assumeIsolated() throws {
        let text = """
            func testLoad() {
                MainActor.assumeIsolated {
                    let rows = model.load()
                    _ = rows
                }
                tracker.assumeIsolated { tracker in _ = tracker.sync() }
                run { _ = model.other() }
                run { _ = await model.awaited() }
            }
            """
        #expect(try Self.context(of: "load", in: text) == .sync)
        #expect(try Self.context(of: "sync", in: text) == .sync)
        #expect(try Self.context(of: "other", in: text) == .maybeAsync)
        #expect(try Self.context(of: "awaited", in: text) == .async)
    }
}
