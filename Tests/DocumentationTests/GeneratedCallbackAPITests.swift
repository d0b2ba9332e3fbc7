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

    @Test("the table declares the 55 callback APIs, three overloads each")
    func theTableCoversEveryAPI() throws {
        let generated = CallbackAPIGenerator.files().filter { $0.path.hasPrefix("Sources/") }.map(\.contents).joined()
        let overloads = generated.components(separatedBy: "\n").filter { $0.contains("on context: PromiseContext.CallerIsolated") }.count
        let rows = callbackAPITable.count + callbackAPITable.filter { $0.weakOwner != nil }.count
            + callbackAPITable.filter { $0.tokenForwarder != nil }.count
        #expect(rows == 55)
        #expect(overloads == rows)
        #expect(generated.components(separatedBy: "\n").filter { $0.contains("on context: any PromiseContextConvertible") }.count == rows)
        #expect(generated.components(separatedBy: "\n").filter { $0.contains("on context: PromiseContext.Named") }.count == rows)
    }

    @Test("no callback API is written by hand outside Sources/Tomorrowland/Generated/")
    func noHandWrittenOverloads() throws {
        let sources = Snippets.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var handWritten: [String] = []
        for case let url as URL in files where url.pathExtension == "swift" && !url.path.contains("/Generated/") {
            let text = try String(contentsOf: url, encoding: .utf8)
            if text.contains("context: PromiseContext.CallerIsolated") { handWritten.append(url.lastPathComponent) }
        }
        #expect(handWritten.isEmpty, "add these APIs to \(CallbackAPIGenerator.tablePath) instead: \(handWritten)")
    }
}
