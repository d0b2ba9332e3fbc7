// The proof of replacing edits (`EditProof`): offsets mapped through replacements, a change
// whose expected reference names what it should passes, a change that breaks the build or
// changes another reference is dropped with the compiler's reason, the rest is kept.

import Foundation
import Testing
@testable import TomorrowlandMigrateKit

@Suite("the proof of replacing edits")
struct EditProofTests {
    @Test("offsets move through insertions and replacements; replaced text maps to nothing")
    func editMap() {
        // "abcdefgh": insert "XY" at 2, replace 4..<6 ("ef") with "Z".
        let map = EditMap([TextEdit(start: 4, end: 6, text: "Z"), TextEdit(start: 2, end: 2, text: "XY")])
        #expect(TextEdit.apply([TextEdit(start: 4, end: 6, text: "Z"), TextEdit(start: 2, end: 2, text: "XY")], to: "abcdefgh") == "abXYcdZgh")
        #expect(map.newOffset(1) == 1)
        #expect(map.newOffset(2) == 4) // `c`: the insertion goes before it
        #expect(map.newOffset(4) == nil)
        #expect(map.newOffset(5) == nil)
        #expect(map.newOffset(6) == 7) // `g`
        #expect(map.origin(of: 2) == .inserted(edit: 1, offset: 0))
        #expect(map.origin(of: 6) == .inserted(edit: 0, offset: 0))
        #expect(map.origin(of: 7) == .original(6))
        #expect(map.origin(of: 4) == .original(2))
    }

    static let source = (path: "Proved.swift", text: """
        import Tomorrowland
        import TomorrowlandAsync

        func count() -> StdPromise<Int> { StdPromise(fulfilled: 1) }

        func count() async throws -> Int { try await (count() as StdPromise<Int>).value }

        func other() -> Int { 2 }

        func use() async throws -> Int {
            let first = try await count().value
            let second = try await count().value
            return first + second + other()
        }
        """)

    @Test("a change that names what it expects passes; one that breaks the build or changes a reference unexpectedly is dropped")
    func settles() throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: 6, source: Self.source)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try #require(set.files.first)
        let paths = set.files.map(\.path)
        let before = try oracle.facts(for: paths)
        #expect(before.errors.isEmpty, "\(before.errors)")
        let text = file.text
        let offset = { (needle: String, nth: Int) -> Int in
            var range = text.startIndex..<text.endIndex
            var found = text.startIndex
            for _ in 0...nth {
                let hit = text.range(of: needle, range: range)!
                found = hit.lowerBound
                range = hit.upperBound..<text.endIndex
            }
            return text.utf8.distance(from: text.startIndex, to: found)
        }
        let compiled = try #require(before.file(file.path))
        let twin = try #require(compiled.declaration(at: offset("func count() async", 0))?.usr)
        let value = ".value".utf8.count
        // 1: `count().value` → `count()`, expected to call the twin.
        let firstCall = offset("count().value", 0)
        let direct = PlannedChange(
            path: file.path, edits: [TextEdit(start: firstCall + 7, end: firstCall + 7 + value, text: "")],
            scope: firstCall..<firstCall + 13, line: 11, summary: "direct",
            expectations: [.init(place: .original(firstCall), target: .usr(twin), meaning: "the async twin")]
        )
        // 2: the same edit on the second call, without saying the call moves to the twin.
        let secondCall = offset("count().value", 1)
        let unexplained = PlannedChange(
            path: file.path, edits: [TextEdit(start: secondCall + 7, end: secondCall + 7 + value, text: "")],
            scope: secondCall..<secondCall + 13, line: 12, summary: "unexplained"
        )
        // 3: a call that no longer compiles.
        let otherCall = offset("other()", 1)
        let broken = PlannedChange(
            path: file.path, edits: [TextEdit(start: otherCall, end: otherCall + 7, text: "other(1)")],
            scope: otherCall..<otherCall + 7, line: 13, summary: "broken"
        )
        let proof = EditProof(oracle: oracle, before: before, paths: paths, set: set)
        let outcome = proof.settle([direct, unexplained, broken])
        #expect(!outcome.failed, "\(outcome.notes)")
        #expect(outcome.accepted.map(\.summary) == ["direct"])
        #expect(Set(outcome.dropped.map(\.change.summary)) == ["unexplained", "broken"])
        let reasons = outcome.dropped.map(\.reason)
        #expect(reasons.contains { $0.contains("a reference would name `count`") }, "\(reasons)")
        #expect(reasons.contains { $0.contains("argument passed to call that takes no arguments") }, "\(reasons)")
        #expect(outcome.notes.first?.message.hasPrefix("checked by the compiler (round 2)") == true, "\(outcome.notes)")
        let written = EditProof.fileChanges(outcome.accepted, in: set)
        #expect(written.first?.updated.contains("let first = try await count()\n") == true)
        #expect(written.first?.updated.contains("let second = try await count().value\n") == true)

        // An expectation the compiler does not confirm: the call keeps its promise.
        let wrong = PlannedChange(
            path: file.path, edits: [], scope: firstCall..<firstCall + 13, line: 11, summary: "wrong",
            expectations: [.init(place: .original(firstCall), target: .usr(twin), meaning: "the async twin")]
        )
        let refused = proof.settle([wrong])
        #expect(refused.accepted.isEmpty)
        #expect(refused.dropped.first?.reason.contains("not the async twin") == true, "\(refused.dropped.map(\.reason))")
    }
}

extension EditProofTests {
    @Test("expectations on inserted text: a reference in it, and a call of a declaration it inserts")
    func insertedExpectations() throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: 6, source: Self.source)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try #require(set.files.first)
        let paths = set.files.map(\.path)
        let before = try oracle.facts(for: paths)
        let text = file.text
        let offset = { (needle: String) in text.utf8.distance(from: text.startIndex, to: text.range(of: needle)!.lowerBound) }
        let compiled = try #require(before.file(file.path))
        let other = try #require(compiled.declaration(at: offset("func other()"))?.usr)
        // Insert `func helper() -> Int { other() + 1 }` before `use()`, and call it instead of `other()`.
        let inserted = "func helper() -> Int { other() + 1 }\n\n"
        let call = text.utf8.distance(from: text.startIndex, to: text.range(of: "other()", options: .backwards)!.lowerBound)
        let change = { (target: PlannedChange.Expectation.Target) in
            PlannedChange(
                path: file.path,
                edits: [TextEdit(start: offset("func use()"), end: offset("func use()"), text: inserted), TextEdit(start: call, end: call + 5, text: "helper")],
                scope: offset("func use()")..<call + 7, line: 10, summary: "helper",
                expectations: [
                    .init(place: .inserted(edit: 0, offset: inserted.utf8.distance(from: inserted.startIndex, to: inserted.range(of: "other")!.lowerBound)),
                          target: .usr(other), meaning: "other()"),
                    .init(place: .inserted(edit: 1, offset: 0), target: target, meaning: "the helper"),
                ]
            )
        }
        let proof = EditProof(oracle: oracle, before: before, paths: paths, set: set)
        let passed = proof.settle([change(.declaration(edit: 0, offset: 0))])
        #expect(passed.accepted.count == 1, "\(passed.dropped.map(\.reason)) \(passed.notes)")
        let refused = proof.settle([change(.usr(other))])
        #expect(refused.accepted.isEmpty)
        #expect(refused.dropped.first?.reason.contains("the reference would name `helper`, not the helper") == true, "\(refused.dropped.map(\.reason))")
    }
}

/// Ledger (a Swift 5 package) after convert-body: `NSLock.lock()` moved into an async twin is
/// a warning in Swift 5 mode and an error in Swift 6 mode; the proof reads it as an error.
@Suite("Swift 6 errors in Swift 5 mode")
struct Swift6ErrorTests {
    @Test("a warning that Swift 6 mode makes an error is read as one; other warnings and errors are not")
    func reading() {
        let output = """
            /p/A.swift:3:20: warning: instance method 'lock' is unavailable from asynchronous contexts; Use async-safe scoped \
            locking instead; this is an error in the Swift 6 language mode
            /p/A.swift:4:1: warning: initialization of immutable value 'x' was never used
            /p/A.swift:5:1: error: cannot find 'y' in scope
            """
        let found = CompilerDiagnostic.swift6Errors(in: output)
        #expect(found.map(\.line) == [3])
        #expect(found.first?.message.hasPrefix("instance method 'lock' is unavailable from asynchronous contexts") == true)
    }
}

@Suite("--test: the package's tests on a copy with the changes")
struct ScratchPackageTests {
    @Test("a change the package's tests catch is refused; one they pass is not; the package itself is untouched")
    func runsTheTests() throws {
        let root = try Support.makeTemporaryDirectory("tomorrowland-scratch-package")
        defer { try? FileManager.default.removeItem(at: root) }
        let files = [
            "Package.swift": """
                // swift-tools-version: 6.0
                import PackageDescription
                let package = Package(name: "Tiny", targets: [.target(name: "Tiny"), .testTarget(name: "TinyTests", dependencies: ["Tiny"])])
                """,
            "Sources/Tiny/Tiny.swift": "public func answer() -> Int { 42 }\n",
            "Tests/TinyTests/TinyTests.swift": """
                import Tiny
                import XCTest

                final class TinyTests: XCTestCase {
                    func testAnswer() { XCTAssertEqual(answer(), 42) }
                }
                """,
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        let source = root.appendingPathComponent("Sources/Tiny/Tiny.swift").path
        let original = files["Sources/Tiny/Tiny.swift"]!
        let wrong = FileChange(path: source, original: original, updated: "public func answer() -> Int { 41 }\n")
        guard case .failure(let reason) = ScratchPackage.test([wrong], roots: [root.appendingPathComponent("Sources").path]) else {
            Issue.record("a change that fails the tests passed")
            return
        }
        #expect(reason.description.hasPrefix("the package's tests fail on the copy with the changes"), "\(reason)")
        let same = FileChange(path: source, original: original, updated: "public func answer() -> Int { 40 + 2 }\n")
        let passed = ScratchPackage.test([same], roots: [root.appendingPathComponent("Sources").path])
        #expect((try? passed.get())?.hasPrefix("Executed 1 test, with 0 failures") == true, "\(passed)")
        #expect(try String(contentsOfFile: source, encoding: .utf8) == original)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: root.deletingLastPathComponent().path)
        #expect(!siblings.contains(".\(root.lastPathComponent)-tomorrowland-migrate-test"), "the copy is removed")
    }
}

extension EditProofTests {
    static let regions = (path: "Regions.swift", text: """
        import Tomorrowland

        final class Counter { var value = 0 }

        func work() async -> Int {
            let counter = Counter()
            counter.value += 1
            return counter.value
        }
        """)

    /// Issue 37, item 3: a change that type-checks but that the build rejects after type checking
    /// (here region isolation: a non-Sendable value sent into a Task and used after) is dropped
    /// with the compiler's message in Swift 6 mode, and kept in Swift 5 mode, where the same
    /// diagnostic is a warning: the package's own language mode decides, as in its build.
    @Test("the proof is as strict as the build: region isolation errors drop a change, in the package's mode", arguments: [6, 5])
    func regionIsolation(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: Self.regions)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try #require(set.files.first)
        let paths = set.files.map(\.path)
        let before = try oracle.facts(for: paths)
        #expect(before.errors.isEmpty, "\(before.errors)")
        let text = file.text
        let at = text.utf8.distance(from: text.startIndex, to: text.range(of: "counter.value += 1")!.lowerBound)
        let racy = PlannedChange(
            path: file.path, edits: [TextEdit(start: at, end: at, text: "Task { counter.value += 1 }\n    ")],
            scope: at..<at + 18, line: 7, summary: "racy"
        )
        let outcome = EditProof(oracle: oracle, before: before, paths: paths, set: set).settle([racy])
        #expect(!outcome.failed, "\(outcome.notes)")
        if swiftVersion == 6 {
            #expect(outcome.accepted.isEmpty)
            let reason = outcome.dropped.first?.reason ?? ""
            #expect(reason.contains("risks causing data races"), "\(reason)")
        } else {
            #expect(outcome.accepted.map(\.summary) == ["racy"], "\(outcome.dropped.map(\.reason))")
        }
    }
}

extension EditProofTests {
    /// A module of two files: `Lib.swift`, whose declarations the changes delete, and
    /// `Use.swift`, which no change edits.
    static func twoFiles(lib: String, use: String) throws -> (set: SourceSet, oracle: CompilerOracle, directory: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-settle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try lib.write(to: directory.appendingPathComponent("Lib.swift"), atomically: true, encoding: .utf8)
        try use.write(to: directory.appendingPathComponent("Use.swift"), atomically: true, encoding: .utf8)
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-migrate-module-cache")
        let module = ModuleInvocation(
            name: "Fixture", sources: ["Lib.swift", "Use.swift"].map { directory.appendingPathComponent($0).path },
            arguments: [
                "-module-name", "Fixture", "-parse-as-library", "-swift-version", "6",
                "-I", try SwiftCompiler.modulesDirectory(holding: "TomorrowlandAsync").path, "-module-cache-path", cache.path,
            ]
        )
        let oracle = CompilerOracle(swiftc: try SwiftCompiler.swiftc().path, modules: [module])
        return (SourceSet.load(paths: [directory.appendingPathComponent("Lib.swift").path]), oracle, directory)
    }

    /// One change per declaration of `Lib.swift` that starts with one of `starts` (to its
    /// line's end), named by the start.
    static func deletions(of starts: [String], in file: ParsedFile) -> [PlannedChange] {
        starts.map { start in
            let text = file.text
            let range = text.range(of: start)!
            let end = text[range.lowerBound...].firstIndex(of: "\n").map { text.index(after: $0) } ?? text.endIndex
            let (from, to) = (text.utf8.distance(from: text.startIndex, to: range.lowerBound), text.utf8.distance(from: text.startIndex, to: end))
            return PlannedChange(
                path: file.path, edits: [TextEdit(start: from, end: to, text: "")], scope: from..<to,
                line: file.line(of: file.tree), summary: start
            )
        }
    }

    /// The proof of deleting the declarations of `lib` that start with `starts`, with `use`
    /// (which no change edits) in the same module.
    static func settled(lib: String, use: String, deleting starts: [String]) throws -> EditProof.Outcome {
        let (set, oracle, directory) = try twoFiles(lib: lib, use: use)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try #require(set.files.first)
        let before = try oracle.facts(for: oracle.modules[0].sources)
        #expect(before.errors.isEmpty, "\(before.errors)")
        let proof = EditProof(oracle: oracle, before: before, paths: oracle.modules[0].sources, set: set)
        return proof.settle(deletions(of: starts, in: file))
    }

    /// Issue 37, item 7: on the scale package, delete-twins wrote nothing when an error in a
    /// file it did not edit could not be tied to one deletion.
    @Test("an issue in a file no change edits costs the change that deletes what it names, not the others")
    func untiedIssueByName() throws {
        let outcome = try Self.settled(
            lib: "func first() -> Int { 1 }\nfunc helper() -> Int { 2 }\nfunc second() -> Int { 3 }\nfunc third() -> Int { 4 }\n",
            use: "func use() -> Int { helper() }\n", deleting: ["func first", "func helper", "func second", "func third"]
        )
        #expect(!outcome.failed, "\(outcome.notes)")
        #expect(outcome.accepted.map(\.summary) == ["func first", "func second", "func third"])
        #expect(outcome.dropped.map(\.change.summary) == ["func helper"])
        let reason = outcome.dropped.first?.reason ?? ""
        #expect(reason.contains("Use.swift:1:") && reason.contains("(it names what the change deletes)"), "\(reason)")
    }

    @Test("an issue in a file no change edits that names nothing deleted costs the one change found by proving halves")
    func untiedIssueByHalves() throws {
        let outcome = try Self.settled(
            lib: """
                struct Thing {}
                func first() -> Int { 1 }
                func second() -> Int { 2 }
                extension Thing: CustomStringConvertible { var description: String { "thing" } }
                func third() -> Int { 3 }
                func fourth() -> Int { 4 }

                """,
            use: "func shown() -> any CustomStringConvertible { Thing() }\n",
            deleting: ["func first", "func second", "func third", "extension Thing", "func fourth"]
        )
        #expect(!outcome.failed, "\(outcome.notes)")
        #expect(outcome.accepted.map(\.summary) == ["func first", "func second", "func third", "func fourth"])
        #expect(outcome.dropped.map(\.change.summary) == ["extension Thing"])
        let reason = outcome.dropped.first?.reason ?? ""
        #expect(reason.contains("Use.swift:1:") && reason.contains("(found by proving the changes in halves)"), "\(reason)")
    }
}
