// `delete-twins`: the tool's twins that nothing calls go (a protocol extension left empty too),
// called and public ones stay with the reason (and a protocol witness, and one named in an
// inactive `#if` clause), hand-written look-alikes are not touched; the
// result compiles in Swift 6 and 5 mode.

import Foundation
import Testing
@testable import TomorrowlandMigrateKit

@Suite("delete-twins")
struct DeleteTwinsTests {
    @Test("twins nothing calls are deleted; called and public ones are kept with the reason; it compiles", arguments: [6, 5])
    func deletes(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: Support.fixture("Delete.swift"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = DeleteTwins.run(set, oracle: oracle, includingPublic: false)
        let notes = result.notes.map(\.message)
        let text = try #require(result.changes.first?.updated, "\(notes)")
        #expect(text.contains("""
            protocol Source: Sendable {
                func items() -> StdPromise<[Int]>
            }

            struct Numbers: Source {
            """))
        #expect(text.contains("""
            func unused() -> StdPromise<Int> { StdPromise(fulfilled: 2) }

            // A comment of the user's, above the twin: it stays.

            public func exported()
            """))
        #expect(text.contains("""
            func converted() async -> Int { 4 }

            /// Written by hand
            """))
        #expect(!text.contains("Async twin of `unused()`") && !text.contains("Async twin of `items()`") && !text.contains("Promise twin"))
        #expect(text.contains("func used() async throws -> Int {") && text.contains("public func exported() async throws -> Int {"))
        #expect(text.contains("func handWritten() async throws -> Int {"))
        #expect(notes.contains { $0.hasPrefix("kept `used()` (async twin): called at ") && $0.hasSuffix("Delete.swift:60") }, "\(notes)")
        #expect(notes.contains("kept `exported()` (async twin): " + DeleteTwins.Reason.isPublic))
        // A protocol witness and a twin named in a clause the compiler did not see stay.
        #expect(text.contains("Async twin of `count()`") && text.contains("Async twin of `later()`"))
        #expect(notes.contains("kept `count()` (async twin): " + DeleteTwins.Reason.witness), "\(notes)")
        #expect(notes.contains { note in
            note.hasPrefix("kept `later()` (async twin): named in an inactive `#if` clause at ")
                && note.hasSuffix("Delete.swift:92: code not compiled here may call it")
        }, "\(notes)")
        #expect(notes.last == "delete-twins: 3 twin(s) deleted, 4 kept (1: called; 1: \(DeleteTwins.Reason.witness); "
            + "1: \(DeleteTwins.Reason.inactive); 1: \(DeleteTwins.Reason.isPublic))", "\(notes)")
        try Support.expectCompiles([("Delete.swift", text)], swiftVersion: swiftVersion)

        let everything = DeleteTwins.run(set, oracle: oracle, includingPublic: true)
        #expect(everything.changes.first?.updated.contains("public func exported() async throws -> Int {") == false)
        #expect(everything.notes.last?.message.hasPrefix("delete-twins: 4 twin(s) deleted, 3 kept") == true)
    }
}
