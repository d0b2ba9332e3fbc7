// Compiling what the tool writes against the library this test run was built with, and
// running the tool's executable.

import Foundation
import Testing
import TomorrowlandMigrateKit

enum Support {
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

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
        var starts: [URL] = [Bundle.main.bundleURL]
        if let argument0 = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: argument0).deletingLastPathComponent()) }
        for start in starts {
            var directory = start.standardizedFileURL.resolvingSymlinksInPath()
            for _ in 0..<5 {
                if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Modules/TomorrowlandAsync.swiftmodule").path) {
                    return directory
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw SetupError(description: "TomorrowlandAsync.swiftmodule not found above \(starts.map(\.path))")
    }

    static func swiftc() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let exec = environment["SWIFT_EXEC"], !exec.isEmpty { candidates.append(exec) }
        candidates += (environment["PATH"] ?? "").split(separator: ":").map { $0 + "/swiftc" }
        candidates += ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw SetupError(description: "swiftc not found in \(candidates)")
        }
        return found
    }

    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
        /// `file:line: error: …` lines.
        var errors: [String] { (stdout + stderr).split(separator: "\n").map(String.init).filter { $0.contains(": error:") } }
    }

    static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Drain both pipes before waiting so a chatty process cannot fill one and block.
        nonisolated(unsafe) var errData = Data()
        let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { usleep(1_000) }
        return Outcome(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Writes `sources` to a fresh folder and type-checks them together (down to SIL, so
    /// Swift 6's region-based isolation diagnostics run) as one module.
    static func compile(_ sources: [(path: String, text: String)], swiftVersion: Int) throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-migrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for source in sources {
            let url = directory.appendingPathComponent((source.path as NSString).lastPathComponent)
            try source.text.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        let products = try productsDirectory()
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-migrate-module-cache")
        return try run(try swiftc(), [
            "-emit-sil", "-wmo", "-o", "/dev/null", "-parse-as-library", "-module-name", "Fixture",
            "-swift-version", String(swiftVersion), "-I", products.appendingPathComponent("Modules").path,
            "-module-cache-path", cache.path, "-diagnostic-style", "llvm",
        ] + paths)
    }

    /// `sources` with the changes of `result` applied.
    static func applying(_ result: MigrationResult, to sources: [(path: String, text: String)]) -> [(path: String, text: String)] {
        sources.map { source in
            (source.path, result.changes.first { $0.path == source.path }?.updated ?? source.text)
        }
    }
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
