// Every API that takes a context and a closure comes from one table: Generator/Sources/CallbackAPI/
// (Table.swift, rendered by Render.swift), compiled into this target through the symbolic links
// in Generator/. These tests fail when a generated file no longer matches the table (run the
// generator) and when such an API is written by hand outside Sources/Tomorrowland/Generated/.

import Foundation
import Testing

@Suite("The callback API generated from one table")
struct GeneratedCallbackAPITests {
    @Test("every file generated from the table is up to date")
    func generatedFilesAreUpToDate() {
        let stale = CallbackAPIGenerator.files().filter { file in
            (try? String(contentsOf: Snippets.root.appendingPathComponent(file.path), encoding: .utf8)) != file.contents
        }
        #expect(stale.isEmpty, """
            stale: \(stale.map(\.path).joined(separator: ", ")); regenerate them from \(CallbackAPIGenerator.tablePath) \
            with `\(CallbackAPIGenerator.command)`
            """)
    }

    @Test("every API of the table (a row, its with: form, its TokenPromise forwarder) is declared four times")
    func theTableCoversEveryAPI() throws {
        let lines = CallbackAPIGenerator.files().filter { $0.path.hasPrefix("Sources/") }.flatMap { $0.contents.components(separatedBy: "\n") }
        let apis = callbackAPITable.count + callbackAPITable.filter { $0.weakOwner != nil }.count
            + callbackAPITable.filter { $0.tokenForwarder != nil }.count
        #expect(apis >= 55, "the 55 APIs of Tomorrowland 1.4 that take a context and a closure")
        for kind in ["PromiseContext.CallerIsolated", "PromiseContext.Main", "any PromiseContextConvertible", "PromiseContext.Named"] {
            #expect(lines.filter { $0.contains("on context: \(kind)") }.count == apis, "overloads taking \(kind)")
        }
    }

    /// Files allowed to declare overloads by kind of context by hand, and why.
    ///
    /// `Promise(on:priority:operation:)` (TomorrowlandAsync) takes an async operation to run in
    /// a Task, not a callback: its overloads differ in more than the closure's isolation (the
    /// caller-isolated one takes the caller's `#isolation` and starts `.immediate` with
    /// `Task.immediate`; the other three are one nonisolated body), it lives in a module
    /// Generator/ does not write, and its two families (throwing, `NoError`) are not rows of
    /// the callback table. `theAsyncInitializerHasEveryKind` checks that it has all four kinds.
    static let handWrittenKinds: Set<String> = ["Promise+Task.swift"]

    @Test("no callback API is written by hand outside Sources/Tomorrowland/Generated/")
    func noHandWrittenOverloads() throws {
        let sources = Snippets.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var handWritten: [String] = []
        for case let url as URL in files where url.pathExtension == "swift" && !url.path.contains("/Generated/")
            && !Self.handWrittenKinds.contains(url.lastPathComponent) {
            let text = try String(contentsOf: url, encoding: .utf8)
            if text.contains("context: PromiseContext.CallerIsolated") || text.contains("context: PromiseContext.Main") {
                handWritten.append(url.lastPathComponent)
            }
        }
        #expect(handWritten.isEmpty, "add these APIs to \(CallbackAPIGenerator.tablePath) instead: \(handWritten)")
    }

    @Test("the async initializer Promise(on:priority:operation:) is declared for every kind of context")
    func theAsyncInitializerHasEveryKind() throws {
        let url = Snippets.root.appendingPathComponent("Sources/TomorrowlandAsync/Promise+Task.swift")
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        // Throwing (`Error: Swift.Error`) and `NoError`; the caller-isolated kind also has a
        // non-throwing overload for `Error: Swift.Error`, and a throwing one that takes an
        // executor preference (`Promise(on: .immediate, executorPreference:)`).
        let expected = ["PromiseContext.CallerIsolated": 4, "PromiseContext.Main": 2, "any PromiseContextConvertible": 2,
                        "PromiseContext.Named": 2]
        for (kind, count) in expected {
            #expect(lines.filter { $0.contains("on context: \(kind),") }.count == count, "overloads taking \(kind)")
        }
    }
}
