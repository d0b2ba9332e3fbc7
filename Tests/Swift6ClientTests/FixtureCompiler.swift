// Runs the Swift compiler on the fixtures in Tests/CompileFailures against the Tomorrowland
// module that this very test run was built with: TestSupport's SwiftCompiler finds and runs the
// compiler; this file adds the fixtures' folder, their diagnostics and their markers.

import Foundation
import TestSupport

/// One diagnostic parsed from compiler output.
struct Diagnostic: Equatable, Sendable, CustomStringConvertible {
    var line: Int
    var severity: String
    var message: String

    var description: String { "line \(line): \(severity): \(message)" }
}

/// Locates `swiftc` and the built `Tomorrowland.swiftmodule`, and compiles fixtures with them
/// (TestSupport's `SwiftCompiler`, shared with the Tools package's tests).
struct FixtureCompiler: Sendable {
    let swiftc: URL
    let modulesDirectory: URL
    let moduleCache: URL

    /// The fixtures folder, found from this source file (works in any clone / checkout).
    static let fixturesDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Swift6ClientTests
        .deletingLastPathComponent() // Tests
        .appendingPathComponent("CompileFailures", isDirectory: true)

    static func locate() throws -> FixtureCompiler {
        let modules = try SwiftCompiler.modulesDirectory(holding: "Tomorrowland")
        let swiftc = try SwiftCompiler.swiftc()
        let cache = FileManager.default.temporaryDirectory
            .appendingPathComponent("tomorrowland-fixtures-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        return FixtureCompiler(swiftc: swiftc, modulesDirectory: modules, moduleCache: cache)
    }

    /// Compiles `fixture` in Swift 6 mode down to SIL (type checking plus the flow-sensitive
    /// Sendable diagnostics of region-based isolation) and returns the exit status and the
    /// diagnostics reported for that file.
    /// - Parameter languageMode: the Swift language mode (`-swift-version`): 6, or 5 for the
    ///   fixtures that 1.x clients in Swift 5 mode must not be able to compile either.
    func compile(_ fixture: URL, languageMode: Int = 6) throws -> (status: Int32, diagnostics: [Diagnostic], output: String) {
        let outcome = try SwiftCompiler.compileToSIL(
            [fixture], swiftVersion: languageMode, modules: modulesDirectory, moduleCache: moduleCache, compiler: swiftc
        )
        let output = outcome.stdout + outcome.stderr
        return (outcome.status, Self.parse(output, for: fixture), output)
    }

    /// Parses `path:line:column: severity: message` lines that belong to `fixture`.
    static func parse(_ output: String, for fixture: URL) -> [Diagnostic] {
        let name = fixture.lastPathComponent
        var result: [Diagnostic] = []
        for rawLine in output.split(separator: "\n") {
            let line = String(rawLine)
            guard let nameRange = line.range(of: name + ":") else { continue }
            let rest = line[nameRange.upperBound...]
            let parts = rest.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            guard parts.count == 4, let lineNumber = Int(parts[0]), Int(parts[1]) != nil else { continue }
            let severity = parts[2].trimmingCharacters(in: .whitespaces)
            guard ["error", "warning"].contains(severity) else { continue }
            result.append(Diagnostic(line: lineNumber, severity: severity, message: parts[3].trimmingCharacters(in: .whitespaces)))
        }
        return result
    }

    /// The `// expected-error: text` markers of a fixture, by line number (1-based).
    static func expectations(in fixture: URL) throws -> [(line: Int, text: String)] {
        let source = try String(contentsOf: fixture, encoding: .utf8)
        var result: [(line: Int, text: String)] = []
        for (index, line) in source.components(separatedBy: "\n").enumerated() {
            guard let marker = line.range(of: "// expected-error:") else { continue }
            let text = line[marker.upperBound...].trimmingCharacters(in: .whitespaces)
            result.append((index + 1, text))
        }
        return result
    }
}
