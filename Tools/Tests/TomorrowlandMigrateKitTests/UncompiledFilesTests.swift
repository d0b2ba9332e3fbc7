// Files no target compiles (a folder whose target is commented out in Package.swift, as Fleet's
// Tests/TwinTests until the twins exist) are left as is by every command, with a note.

import Foundation
import Testing
@testable import TomorrowlandMigrateKit

@Suite("files no target compiles")
struct UncompiledFilesTests {
    /// Fixtures/Uncompiled: Depot.swift in the module `Depot`; DepotTwinTests.swift in
    /// Tests/TwinTests, which no module compiles.
    static func fixture(swiftVersion: Int) throws -> (set: SourceSet, oracle: CompilerOracle, directory: URL) {
        let directory = try Support.makeTemporaryDirectory("tomorrowland-uncompiled")
        let library = directory.appendingPathComponent("Sources/Depot/Depot.swift")
        let twinTests = directory.appendingPathComponent("Tests/TwinTests/DepotTwinTests.swift")
        for (url, name) in [(library, "Uncompiled/Depot.swift"), (twinTests, "Uncompiled/DepotTwinTests.swift")] {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Support.fixture(name).text.write(to: url, atomically: true, encoding: .utf8)
        }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-migrate-module-cache")
        let module = ModuleInvocation(
            name: "Depot", sources: [library.path],
            arguments: [
                "-module-name", "Depot", "-parse-as-library", "-swift-version", String(swiftVersion),
                "-I", try SwiftCompiler.modulesDirectory(holding: "TomorrowlandAsync").path, "-module-cache-path", cache.path,
            ]
        )
        let oracle = CompilerOracle(swiftc: try SwiftCompiler.swiftc().path, modules: [module])
        let set = SourceSet.load(paths: [directory.appendingPathComponent("Sources").path, directory.appendingPathComponent("Tests").path])
        return (set, oracle, directory)
    }

    @Test("add-async-twins with the compiler: twins and pins in the compiled module, nothing in the uncompiled folder, one note",
          arguments: [6, 5])
    func addAsyncTwinsWithTheCompiler(swiftVersion: Int) throws {
        let (set, oracle, directory) = try Self.fixture(swiftVersion: swiftVersion)
        defer { try? FileManager.default.removeItem(at: directory) }
        let twinTests = try #require(set.files.first { $0.path.hasSuffix("DepotTwinTests.swift") })
        let result = UncompiledFiles.run(set, compiled: CompiledFiles(oracle), command: "add-async-twins") { set in
            AddAsyncTwins.run(set, oracle: oracle)
        }
        #expect(result.changes.map { ($0.path as NSString).lastPathComponent } == ["Depot.swift"])
        let written = try #require(result.changes.first?.updated)
        #expect(written == (try Support.fixture("Uncompiled/Depot.expected.swift").text))
        let notes = result.notes.map(\.description)
        #expect(notes.contains {
            $0.hasSuffix("Tests/TwinTests/:1: 1 file(s) not compiled by any target of the package (a target commented out in "
                + "Package.swift, or none), so it was left as is: its calls were not pinned and its functions got no twin")
        }, "\(notes)")
        #expect(!notes.contains { $0.contains("DepotTwinTests.swift") }, "\(notes)")
        // Once its target is enabled, the twin tests compile against what was written: they call the twins.
        try Support.expectCompiles([("Depot.swift", written), ("DepotTwinTests.swift", twinTests.text)], swiftVersion: swiftVersion)

        // Without the rule (the first run on Fleet): the twin tests' calls were pinned to the
        // promise, and then they do not compile once their target is.
        let unruled = AddAsyncTwins.run(set, oracle: oracle)
        let pinned = try #require(unruled.changes.first { $0.path == twinTests.path }?.updated)
        #expect(pinned.contains("as Promise<String, DepotError>"))
        let outcome = try Support.compile([("Depot.swift", written), ("DepotTwinTests.swift", pinned)], swiftVersion: swiftVersion)
        #expect(outcome.status != 0)
    }

    @Test("one note per folder no module compiles; one per file where the folder's other files are compiled")
    func notesPerFolderOrFile() {
        let set = SourceSet.inMemory([
            ("Sources/App/Kept.swift", "func kept() {}\n"), ("Sources/App/Old.swift", "func old() {}\n"),
            ("Tests/TwinTests/A.swift", "func a() {}\n"), ("Tests/TwinTests/B.swift", "func b() {}\n"),
        ])
        let compiled = CompiledFiles(modules: [ModuleInvocation(name: "App", sources: ["Sources/App/Kept.swift"], arguments: [])])
        var seen: [String] = []
        let result = UncompiledFiles.run(set, compiled: compiled, command: "convert-calls") { set in
            seen = set.files.map(\.path)
            return MigrationResult(problems: [])
        }
        #expect(seen == ["Sources/App/Kept.swift"])
        let notes = result.notes.map(\.description)
        #expect(notes.count == 2, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("Sources/App/Old.swift:1: not compiled by any target") && $0.hasSuffix("convert-calls changed nothing there") })
        #expect(notes.contains { $0.hasPrefix("Tests/TwinTests/:1: 2 file(s) not compiled by any target") })
    }
}

@Suite("files no target compiles, on the command line")
struct UncompiledFilesCommandLineTests {
    /// A package (no dependency: the commands below read syntax and SwiftPM's manifest only)
    /// whose TwinTests target is commented out; Depot.swift and Tests/TwinTests as in Fixtures/Uncompiled,
    /// and a ternary `adopt` rewrites in each.
    static func package() throws -> URL {
        let root = try Support.makeTemporaryDirectory("tomorrowland-uncompiled-package")
        let ternary = { (name: String) in
            """
            import Tomorrowland

            func \(name)(_ promise: Promise<Int, DepotError>, fast: Bool) -> Promise<Int, DepotError> {
                promise.map(on: fast ? .immediate : .utility) { $0 + 1 }
            }

            """
        }
        let files = [
            "Package.swift": """
                // swift-tools-version: 6.0
                import PackageDescription
                let package = Package(name: "Depot", targets: [
                    .target(name: "Depot"),
                    .testTarget(name: "DepotTests", dependencies: ["Depot"]),
                    // Enabled once the twins exist.
                    // .testTarget(name: "TwinTests", dependencies: ["Depot"], path: "Tests/TwinTests"),
                ])
                """,
            "Sources/Depot/Depot.swift": try Support.fixture("Uncompiled/Depot.swift").text,
            "Sources/Depot/Contexts.swift": ternary("warm"),
            "Tests/DepotTests/DepotTests.swift": "@testable import Depot\n\nfunc testDepot() {}\n",
            "Tests/TwinTests/DepotTwinTests.swift": try Support.fixture("Uncompiled/DepotTwinTests.swift").text,
            "Tests/TwinTests/TwinContexts.swift": ternary("warmTwin"),
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test("adopt and add-async-twins --syntax-only read the package's targets from SwiftPM and leave Tests/TwinTests as it is")
    func syntaxOnlyCommands() throws {
        let tool = try Support.tool()
        let root = try Self.package()
        defer { try? FileManager.default.removeItem(at: root) }
        let text = { (path: String) in try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) }
        let twinTests = try text("Tests/TwinTests/DepotTwinTests.swift")
        let twinContexts = try text("Tests/TwinTests/TwinContexts.swift")

        let adopt = try SwiftCompiler.run(tool, ["adopt", "Sources/", "Tests/", "--write"], in: root)
        #expect(adopt.status == 0, "\(adopt.stderr)")
        #expect(adopt.stdout.contains("1 file(s) changed"), "\(adopt.stdout)")
        #expect(try text("Sources/Depot/Contexts.swift").contains("fast ? PromiseContext.immediate : .utility"))
        #expect(try text("Tests/TwinTests/TwinContexts.swift") == twinContexts)
        #expect(adopt.stderr.contains("Tests/TwinTests/:1: 2 file(s) not compiled by any target of the package"), "\(adopt.stderr)")
        #expect(adopt.stderr.contains("so it was left as is: adopt changed nothing there"))

        let twins = try SwiftCompiler.run(tool, ["add-async-twins", "Sources/", "Tests/", "--syntax-only", "--write"], in: root)
        #expect(twins.status == 0, "\(twins.stderr)")
        #expect(try text("Sources/Depot/Depot.swift").contains("public nonisolated(nonsending) func vehicle(id: Int) async throws -> String"))
        #expect(try text("Tests/TwinTests/DepotTwinTests.swift") == twinTests)
        #expect(twins.stderr.contains("Tests/TwinTests/:1: 2 file(s) not compiled by any target of the package"), "\(twins.stderr)")
        #expect(twins.stderr.contains("its calls were not pinned and its functions got no twin"))
        #expect(!twins.stderr.contains("were not scanned"), "a folder left as is was scanned: \(twins.stderr)")
        #expect(!twins.stderr.contains("DepotTwinTests.swift"), "\(twins.stderr)")

        // The target enabled: the folder is compiled, and its await of the twin already means it.
        let manifest = root.appendingPathComponent("Package.swift")
        try (try String(contentsOf: manifest, encoding: .utf8)).replacingOccurrences(of: "// .testTarget", with: ".testTarget")
            .write(to: manifest, atomically: true, encoding: .utf8)
        let again = try SwiftCompiler.run(tool, ["add-async-twins", "Sources/", "Tests/", "--syntax-only"], in: root)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("not compiled by any target"), "\(again.stderr)")
        #expect(!again.stdout.contains("DepotTwinTests.swift"), "\(again.stdout)")
        // adopt now edits it, like any compiled file.
        let adoptAgain = try SwiftCompiler.run(tool, ["adopt", "Sources/", "Tests/"], in: root)
        #expect(adoptAgain.stdout.contains("TwinContexts.swift"), "\(adoptAgain.stdout)")
    }
}
