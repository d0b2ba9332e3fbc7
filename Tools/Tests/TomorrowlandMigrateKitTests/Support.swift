// Compiling what the tool writes against the library this test run was built with, and
// running the tool's executable (with SwiftCompiler.swift, shared with the root package).

import Foundation
import Testing
import TomorrowlandMigrateKit

enum Support {
    /// Tests/TomorrowlandMigrateKitTests/Fixtures, found from this source file.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The repository root (Tools/..).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func fixture(_ name: String) throws -> (path: String, text: String) {
        let url = fixtures.appendingPathComponent(name)
        return (name, try String(contentsOf: url, encoding: .utf8))
    }

    /// The build products directory of this test run (holds `Modules/`, the executable).
    static func productsDirectory() throws -> URL {
        let modules = try SwiftCompiler.modulesDirectory(holding: "TomorrowlandAsync")
        return modules.lastPathComponent == "Modules" ? modules.deletingLastPathComponent() : modules
    }

    /// The `tomorrowland-migrate` executable of this build.
    static func tool() throws -> URL {
        let tool = try productsDirectory().appendingPathComponent("tomorrowland-migrate")
        try #require(FileManager.default.isExecutableFile(atPath: tool.path), "build the tool first: swift build --package-path Tools")
        return tool
    }

    /// A new empty folder; the caller removes it.
    static func makeTemporaryDirectory(_ prefix: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Writes `sources` to a fresh folder and type-checks them together (down to SIL, so
    /// Swift 6's region-based isolation diagnostics run) as one module.
    static func compile(_ sources: [(path: String, text: String)], swiftVersion: Int) throws -> SwiftCompiler.Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var files: [URL] = []
        for source in sources {
            let url = directory.appendingPathComponent((source.path as NSString).lastPathComponent)
            try source.text.write(to: url, atomically: true, encoding: .utf8)
            files.append(url)
        }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-migrate-module-cache")
        return try SwiftCompiler.compileToSIL(
            files, swiftVersion: swiftVersion, modules: SwiftCompiler.modulesDirectory(holding: "TomorrowlandAsync"), moduleCache: cache
        )
    }

    /// `sources` with the changes of `result` applied.
    static func applying(_ result: MigrationResult, to sources: [(path: String, text: String)]) -> [(path: String, text: String)] {
        sources.map { source in
            (source.path, result.changes.first { $0.path == source.path }?.updated ?? source.text)
        }
    }
}

extension SwiftCompiler.Outcome {
    /// `file:line: error: …` lines.
    var errors: [String] { (stdout + stderr).split(separator: "\n").map(String.init).filter { $0.contains(": error:") } }
}

extension Support {
    /// Type-checks `sources` in `swiftVersion` mode and records every error as an issue.
    static func expectCompiles(
        _ sources: [(path: String, text: String)], swiftVersion: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let outcome = try compile(sources, swiftVersion: swiftVersion)
        #expect(outcome.status == 0, "Swift \(swiftVersion):\n\(outcome.stdout)\(outcome.stderr)", sourceLocation: sourceLocation)
    }

    /// The file named `path` in `sources`.
    static func text(of path: String, in sources: [(path: String, text: String)]) -> String {
        sources.first { $0.path == path }?.text ?? ""
    }
}

extension Support {
    /// `add-async-twins`, then `add-promise-twins` (`--all` when `all`), on `sources` in
    /// memory: the notes of both and the sources after both.
    static func bothCommands(
        _ sources: [(path: String, text: String)], all: Bool = true
    ) -> (notes: [MigrationNote], sources: [(path: String, text: String)]) {
        let asyncTwins = AddAsyncTwins.run(.inMemory(sources))
        let first = applying(asyncTwins, to: sources)
        let promiseTwins = AddPromiseTwins.run(.inMemory(first), all: all)
        return (asyncTwins.notes + promiseTwins.notes, applying(promiseTwins, to: first))
    }
}
