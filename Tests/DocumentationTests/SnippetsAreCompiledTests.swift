// Keeps the documentation honest: every ```swift block in README.md, MIGRATION.md and the DocC
// catalogs must appear, verbatim up to indentation, in a source file that this package compiles
// (this test target or an example). Edit a snippet in the docs but not in code, and this fails.

import Foundation
import Testing

/// The markdown files whose ```swift blocks must be compiled, relative to the package root.
private let documentedFiles: [String] = {
    var files = ["README.md", "MIGRATION.md"]
    for catalog in ["Sources/Tomorrowland/Tomorrowland.docc", "Sources/TomorrowlandAsync/TomorrowlandAsync.docc"] {
        files += Snippets.markdownFiles(under: catalog)
    }
    return files
}()

@Suite("Documentation snippets")
struct SnippetsAreCompiledTests {
    @Test("every swift block is compiled", arguments: documentedFiles)
    func everySwiftBlockAppearsInCompiledCode(_ file: String) throws {
        let blocks = try Snippets.swiftBlocks(in: file)
        let corpus = try Snippets.compiledSources()
        #expect(!corpus.isEmpty, "found no compiled sources under Tests/DocumentationTests or Examples")
        for block in blocks {
            let found = corpus.contains { $0.text.contains(block.normalized) }
            #expect(found, """
                \(file):\(block.line): this ```swift block is not compiled anywhere. Put the same \
                lines in Tests/DocumentationTests (or an example), or use another fence language if \
                it is not Swift that compiles (a manifest, shell).
                \(block.normalized)
                """)
        }
    }

    @Test("the docs have snippets to check")
    func theDocsHaveSnippets() throws {
        // Guards the extraction itself: a broken fence parser would make the test above vacuous.
        #expect(try Snippets.swiftBlocks(in: "README.md").count >= 2)
        #expect(try Snippets.swiftBlocks(in: "MIGRATION.md").count >= 40)
        #expect(documentedFiles.count >= 10, "expected 4 articles per DocC catalog: \(documentedFiles)")
    }

    @Test("an edited snippet is detected")
    func anEditedSnippetIsDetected() throws {
        let corpus = try Snippets.compiledSources()
        let edited = Snippets.normalize("let promise = Promise<Int, Never>(fulfilled: 43)\nthis line is not in any source")
        #expect(!corpus.contains { $0.text.contains(edited) })
    }
}

/// Reads fenced blocks out of markdown and the compiled Swift sources they must appear in.
enum Snippets {
    struct Block {
        var line: Int
        var normalized: String
    }

    struct Source {
        var path: String
        var text: String
    }

    /// The package root, found from this file's own path (Tests/DocumentationTests/…).
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Trims every line and drops blank ones, so indentation and spacing do not matter; the
    /// result starts and ends with a newline so that `contains` only matches whole lines.
    static func normalize(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        return "\n" + lines.joined(separator: "\n") + "\n"
    }

    /// The ```swift blocks of a markdown file, relative to the package root.
    static func swiftBlocks(in relativePath: String) throws -> [Block] {
        let text = try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
        var blocks: [Block] = []
        var current: [Substring]?
        var start = 0
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if var lines = current {
                if line == "```" {
                    blocks.append(Block(line: start, normalized: normalize(lines.joined(separator: "\n"))))
                    current = nil
                } else {
                    lines.append(rawLine)
                    current = lines
                }
            } else if line == "```swift" {
                current = []
                start = index + 1
            }
        }
        return blocks
    }

    /// Every .md file below a directory, relative to the package root, sorted.
    static func markdownFiles(under relativeDirectory: String) -> [String] {
        files(under: relativeDirectory, withExtension: "md")
    }

    /// The normalized text of every Swift file that a documentation snippet may live in.
    static func compiledSources() throws -> [Source] {
        try (files(under: "Tests/DocumentationTests", withExtension: "swift")
            + files(under: "Examples", withExtension: "swift"))
            .map { Source(path: $0, text: normalize(try String(contentsOf: root.appendingPathComponent($0), encoding: .utf8))) }
    }

    private static func files(under relativeDirectory: String, withExtension pathExtension: String) -> [String] {
        let directory = root.appendingPathComponent(relativeDirectory)
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        return enumerator.compactMap { $0 as? String }
            .filter { $0.hasSuffix("." + pathExtension) }
            .map { relativeDirectory + "/" + $0 }
            .sorted()
    }
}
