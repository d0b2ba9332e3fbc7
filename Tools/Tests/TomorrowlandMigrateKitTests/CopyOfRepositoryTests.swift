import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// The tool on the repository's own 1.x-style code (in memory; Tools/scripts/migrate-a-copy.sh
/// then builds and tests a migrated copy, in CI).
@Suite("the repository's Examples/IndexDirectory and Tests/Swift5ClientTests")
struct CopyOfRepositoryTests {
    @Test("add-async-twins plans twins there, and a second run changes nothing")
    func plans() throws {
        let paths = ["Examples/IndexDirectory", "Tests/Swift5ClientTests"].map { Support.repositoryRoot.appendingPathComponent($0).path }
        let set = SourceSet.load(paths: paths)
        #expect(set.problems.isEmpty)
        #expect(set.files.count >= 10)
        let result = AddAsyncTwins.run(set)
        let twins = result.changes.map { $0.updated.components(separatedBy: "(added by tomorrowland-migrate)").count - 1 }.reduce(0, +)
        #expect(twins >= 5)
        #expect(result.notes.contains { $0.message.contains("`String` is not known to conform to Error") })
        let migrated = SourceSet.inMemory(set.files.map { file in
            (file.path, result.changes.first { $0.path == file.path }?.updated ?? file.text)
        })
        #expect(AddAsyncTwins.run(migrated).changes.isEmpty)
    }
}

@Suite("MIGRATION.md")
struct MigrationGuideTests {
    /// `block` as the guide shows it inside a list item: every non-empty line indented by three.
    static func asListItem(_ block: String) -> String {
        block.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "   " + $0 }.joined(separator: "\n")
    }

    @Test("the async twin MIGRATION.md shows is what the tool writes")
    func documentedTwin() throws {
        let guide = try String(contentsOf: Support.repositoryRoot.appendingPathComponent("MIGRATION.md"), encoding: .utf8)
        let before = (path: "Badge.swift", text: """
            import Tomorrowland

            /// Loads a badge.
            func fetchBadge(id: Int) -> StdPromise<Badge> {
                Promise(on: .utility) { resolver in resolver.fulfill(with: Badge(id: id)) }
            }
            """)
        let result = AddAsyncTwins.run(.inMemory([before]))
        let written = try #require(result.changes.first?.updated)
        let start = try #require(written.range(of: "/// Loads a badge.\n///")?.lowerBound)
        let twin = String(written[start...]).trimmingCharacters(in: .newlines)
        let indented = Self.asListItem(twin)
        #expect(guide.contains(indented), "MIGRATION.md should show:\n\(indented)")
    }

    @Test("the body MIGRATION.md shows convert-body writing is what it writes")
    func documentedBody() throws {
        let guide = try String(contentsOf: Support.repositoryRoot.appendingPathComponent("MIGRATION.md"), encoding: .utf8)
        let before = [(path: "Badge.swift", text: """
            import Tomorrowland

            struct Badge: Sendable { var id: Int }
            enum BadgeError: Error { case invalidID }

            /// Loads a badge.
            func fetchBadge(id: Int) -> StdPromise<Badge> {
                Promise(on: .utility) { resolver in resolver.fulfill(with: Badge(id: id)) }
            }

            /// The badge's caption, made on a background queue.
            func badgeCaption(id: Int) -> StdPromise<String> {
                guard id > 0 else { return Promise(rejected: BadgeError.invalidID) }
                print("loading badge \\(id)")
                return fetchBadge(id: id).map(on: .utility) { badge in "Badge #\\(badge.id)" }
            }
            """)]
        let twins = Support.applying(AddAsyncTwins.run(.inMemory(before)), to: before)
        let written = Support.text(of: "Badge.swift", in: Support.applying(ConvertBody.run(.inMemory(twins)), to: twins))
        let start = try #require(written.range(of: "/// The badge's caption")?.lowerBound)
        let converted = String(written[start...]).trimmingCharacters(in: .newlines)
        let indented = Self.asListItem(converted)
        #expect(guide.contains(indented), "MIGRATION.md should show:\n\(indented)")
    }
}

/// Tools/Corpus in memory (Tools/scripts/migrate-corpus.sh then builds and tests a migrated copy, in CI).
@Suite("Tools/Corpus")
struct CorpusTests {
    static let corpus = Support.repositoryRoot.appendingPathComponent("Tools/Corpus")

    /// The corpus's `Sources/` and `Tests/` after `adopt` (which it needs to compile), and
    /// those after both twin commands, with their notes.
    static func migrated() -> (adopted: [(path: String, text: String)], notes: [MigrationNote], sources: [(path: String, text: String)]) {
        let set = SourceSet.load(paths: ["Sources", "Tests"].map { corpus.appendingPathComponent($0).path })
        #expect(set.problems.isEmpty)
        let original = set.files.map { ($0.path, $0.text) }
        let adoption = Adopt.run(set)
        #expect(adoption.notes.isEmpty, "the corpus has no 1.x race for adopt to list: \(adoption.notes)")
        #expect(!adoption.changes.isEmpty, "the corpus needs adopt")
        let adopted = Support.applying(adoption, to: original)
        let (notes, sources) = Support.bothCommands(adopted, all: false)
        return (adopted, notes, sources)
    }

    @Test("both commands twin the corpus; a second run changes nothing; progress does not move")
    func migrates() throws {
        let (adopted, notes, sources) = Self.migrated()
        #expect(adopted.map { $0.text.components(separatedBy: "\n").count - 1 }.reduce(0, +) >= 800, "the issue asks for 800 lines")
        let twins = sources.map { $0.text.components(separatedBy: "Async twin of").count - 1 }.reduce(0, +)
        #expect(twins >= 20)
        #expect(notes.contains { $0.message.hasPrefix("retagged(): no async twin: in `extension Promise`") })
        #expect(Support.bothCommands(sources, all: false).sources.map(\.text) == sources.map(\.text))
        #expect(Report.make(.inMemory(sources)).total.migratedPercent == Report.make(.inMemory(adopted)).total.migratedPercent)
        #expect(Adopt.run(.inMemory(sources)).changes.isEmpty, "adopt has nothing left to do after the twins either")
    }

    @Test("the migrated Sources/ type-check (Swift 5 and 6)", arguments: [5, 6])
    func compiles(swiftVersion: Int) throws {
        let sources = Self.migrated().sources.filter { $0.path.contains("/Sources/") }
        try Support.expectCompiles(sources, swiftVersion: swiftVersion)
    }
}
