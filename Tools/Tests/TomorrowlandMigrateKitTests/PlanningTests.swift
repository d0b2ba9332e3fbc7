// Twins planned per declaration (issue 37, item 1): a twin that clashes with a method that
// already exists, or that the compiler objects to for a reason its messages do not tie to a
// twin, costs that twin, never the run.

import Foundation
import Testing
@testable import TomorrowlandMigrateKit

@Suite("twins planned per declaration")
struct PlanningTests {
    /// A base class whose subclass already has an async method of the same name (a team
    /// mid-migration), a subclass whose superclass does, and functions that get twins.
    static let exporters = (path: "Exporters.swift", text: """
        import Foundation
        import Tomorrowland

        struct ExportedFile: Sendable, Equatable { var name: String }

        class Exporter: @unchecked Sendable {
            func export(_ name: String) -> StdPromise<ExportedFile> { StdPromise(fulfilled: ExportedFile(name: name)) }
            func exportAll(_ names: [String]) -> StdPromise<[ExportedFile]> {
                StdPromise(fulfilled: names.map { ExportedFile(name: $0) })
            }
        }

        final class PDFExporter: Exporter, @unchecked Sendable {
            func export(_ name: String) async throws -> ExportedFile { ExportedFile(name: name + ".pdf") }
        }

        class Loader: @unchecked Sendable {
            func load() async throws -> Int { 1 }
        }

        final class CountingLoader: Loader, @unchecked Sendable {
            func load() -> StdPromise<Int> { StdPromise(fulfilled: 2) }
            func count() -> StdPromise<Int> { StdPromise(fulfilled: 3) }
        }
        """)

    static let client = (path: "Client.swift", text: """
        import Foundation
        import TomorrowlandAsync

        func client() async throws -> Int {
            let files = try await Exporter().exportAll(["a"])
            let pdf = try await PDFExporter().export("b")
            let count = try await CountingLoader().count()
            let loaded = try await CountingLoader().load()
            return files.count + pdf.name.count + count + loaded
        }
        """)

    @Test("a twin that an existing async method of a subclass or superclass would clash with is skipped, with why")
    func clashes() throws {
        let (notes, sources) = Support.bothCommands([Self.exporters], all: false)
        let text = Support.text(of: "Exporters.swift", in: sources)
        let messages = notes.map(\.message)
        #expect(messages.contains {
            $0.hasPrefix("export(_:): no async twin: the subclass `PDFExporter` already has an async `export(_:)`")
        }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("load(): no async twin: the superclass `Loader` already has an async `load()`") }, "\(messages)")
        // The rest is written.
        #expect(text.contains("func exportAll(_ names: [String]) async throws -> [ExportedFile] {"), "\(text)")
        #expect(text.contains("func count() async throws -> Int {"), "\(text)")
        #expect(!text.contains("func export(_ name: String) async throws -> ExportedFile {\n        try await"), "\(text)")
    }

    @Test("the twins written beside the clashes compile (Swift 5 and 6)", arguments: [5, 6])
    func clashesCompile(swiftVersion: Int) throws {
        let sources = Support.bothCommands([Self.exporters], all: false).sources
        try Support.expectCompiles(sources + [Self.client], swiftVersion: swiftVersion)
    }

    @Test("with the compiler: the clashes are skipped before the proof, and the proof passes in round 1", arguments: [6, 5])
    func clashesWithTheCompiler(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: Self.exporters)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = AddAsyncTwins.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        #expect(notes.contains { $0.hasPrefix("checked by the compiler (round 1)") }, "\(notes)")
        #expect(notes.contains { $0.contains("the subclass `PDFExporter` already has an async `export(_:)`") }, "\(notes)")
        let text = try #require(result.changes.first?.updated)
        #expect(text.components(separatedBy: "(added by tomorrowland-migrate)").count - 1 == 2, "\(text)")
        try Support.expectCompiles([("Exporters.swift", text), Self.client], swiftVersion: swiftVersion)
    }

    @Test("an async method of the same name and labels but other parameter types is no twin: the twin is added beside it")
    func asyncOverloadIsNoTwin() throws {
        let source = (path: "Store.swift", text: """
            import Foundation
            import Tomorrowland

            final class Store: Sendable {
                func load(id: Int) -> StdPromise<String> { StdPromise(fulfilled: "\\(id)") }
                func save(id: Int) -> StdPromise<Void> { StdPromise(fulfilled: ()) }
            }

            extension Store {
                func load(id: String) async throws -> String { id }
                func save(id: Int) async throws {}
            }
            """)
        let (notes, sources) = Support.bothCommands([source], all: false)
        let text = Support.text(of: "Store.swift", in: sources)
        #expect(text.contains("func load(id: Int) async throws -> String {"), "\(text)\n\(notes)")
        // `save(id:)` has its async counterpart already.
        #expect(text.components(separatedBy: "(added by tomorrowland-migrate)").count - 1 == 1, "\(text)")
        let client = (path: "StoreClient.swift", text: """
            import TomorrowlandAsync

            func storeClient() async throws -> String {
                try await Store().save(id: 1)
                return try await Store().load(id: 1) + Store().load(id: "a")
            }
            """)
        for swiftVersion in [5, 6] {
            try Support.expectCompiles(sources + [client], swiftVersion: swiftVersion)
        }
    }

    /// The superclass is named through a typealias, so the syntax does not see the clash: the
    /// compiler's error is on the subclass's own method, and its note points into the twin.
    static let hiddenClash = (path: "Hidden.swift", text: """
        import Foundation
        import Tomorrowland

        class Exporter: @unchecked Sendable {
            func export(_ name: String) -> StdPromise<String> { StdPromise(fulfilled: name) }
            func size(_ name: String) -> StdPromise<Int> { StdPromise(fulfilled: name.count) }
        }

        typealias BaseExporter = Exporter

        final class ZipExporter: BaseExporter, @unchecked Sendable {
            func export(_ name: String) async throws -> String { name + ".zip" }
        }

        func total() -> StdPromise<Int> { StdPromise(fulfilled: 1) }
        """)

    @Test("a clash only the compiler sees costs that twin, with the compiler's message; the rest is written", arguments: [6, 5])
    func clashOnlyTheCompilerSees(swiftVersion: Int) throws {
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: Self.hiddenClash)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = AddAsyncTwins.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        #expect(!notes.contains { $0.hasPrefix("nothing written") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("checked by the compiler (round 2)") }, "\(notes)")
        #expect(notes.contains {
            $0.hasPrefix("export(_:): no async twin: the compiler rejects the twin: overriding declaration requires an 'override' keyword")
        }, "\(notes)")
        let text = try #require(result.changes.first?.updated)
        #expect(text.contains("func size(_ name: String) async throws -> Int {"), "\(text)")
        #expect(text.contains("func total() async throws -> Int {"), "\(text)")
        #expect(text.components(separatedBy: "(added by tomorrowland-migrate)").count - 1 == 2, "\(text)")
        try Support.expectCompiles([("Hidden.swift", text)], swiftVersion: swiftVersion)
    }

    @Test("add-promise-twins: a twin a subclass's method of the same name would clash with is skipped, with why")
    func promiseTwinClash() throws {
        let source = (path: "Sync.swift", text: """
            import Foundation
            import Tomorrowland

            class Syncer: @unchecked Sendable {
                func sync() async throws -> Int { 1 }
                func reset() async throws {}
            }

            final class LegacySyncer: Syncer, @unchecked Sendable {
                func sync() -> StdPromise<Int> { StdPromise(fulfilled: 2) }
            }
            """)
        let result = AddPromiseTwins.run(.inMemory([source]), all: true)
        let notes = result.notes.map(\.message)
        #expect(notes.contains { $0.hasPrefix("sync(): no promise twin: the subclass `LegacySyncer` already has a synchronous `sync()`") }, "\(notes)")
        let text = try #require(result.changes.first?.updated)
        #expect(text.contains("func reset() -> StdPromise<Void> {"), "\(text)")
        for swiftVersion in [5, 6] {
            try Support.expectCompiles([("Sync.swift", text)], swiftVersion: swiftVersion)
        }
    }

    // The search for a twin when the compiler's messages name none: proving halves.

    static let keys = (0..<9).map { AddAsyncTwins.CandidateKey(container: nil, signature: "f\($0)()", parameters: "") }

    @Test("the search finds the one twin a failure follows, in about log2(n) proofs")
    func searchFindsTheTwin() throws {
        for culprit in Self.keys {
            var budget = PlanningTests.budget
            var proofs = 0
            let found = try AddAsyncTwins.culprit(among: Self.keys, stuck: ["broken"], decisions: ProofDecisions(), budget: &budget) { trial in
                proofs += 1
                return trial.rejected[culprit] == nil ? ["broken", "other"] : ["other"]
            }
            #expect(found == culprit)
            #expect(proofs <= 5, "\(proofs) proofs for 9 twins")
        }
    }

    @Test("the search keeps what a failure needs with the twin it finds: it drops the last one needed")
    func searchWithTwoNeeded() throws {
        // The failure needs both f2 and f6 (a twin and the twin it clashes with).
        var budget = PlanningTests.budget
        let found = try AddAsyncTwins.culprit(among: Self.keys, stuck: ["broken"], decisions: ProofDecisions(), budget: &budget) { trial in
            trial.rejected[Self.keys[2]] == nil && trial.rejected[Self.keys[6]] == nil ? ["broken"] : []
        }
        #expect(found == Self.keys[6])
    }

    @Test("the search gives up, rather than guess, when the failure follows no twin or the budget runs out")
    func searchGivesUp() throws {
        var budget = PlanningTests.budget
        let always = try AddAsyncTwins.culprit(among: Self.keys, stuck: ["broken"], decisions: ProofDecisions(), budget: &budget) { _ in
            ["broken"]
        }
        #expect(always == nil)
        var none = 2
        let short = try AddAsyncTwins.culprit(among: Self.keys, stuck: ["broken"], decisions: ProofDecisions(), budget: &none) { trial in
            trial.rejected[Self.keys[8]] == nil ? ["broken"] : []
        }
        #expect(short == nil)
    }

    static let budget = AddAsyncTwins.searchBudget
}
