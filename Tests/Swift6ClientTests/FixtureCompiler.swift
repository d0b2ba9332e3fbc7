// Runs the Swift compiler on the fixtures in Tests/CompileFailures against the Tomorrowland
// module that this very test run was built with.

import Foundation

/// One diagnostic parsed from compiler output.
struct Diagnostic: Equatable, Sendable, CustomStringConvertible {
    var line: Int
    var severity: String
    var message: String

    var description: String { "line \(line): \(severity): \(message)" }
}

/// Locates `swiftc` and the built `Tomorrowland.swiftmodule`, and compiles fixtures with them.
struct FixtureCompiler: Sendable {
    enum SetupError: Swift.Error, CustomStringConvertible {
        case moduleNotFound(searched: [String])
        case compilerNotFound(searched: [String])

        var description: String {
            switch self {
            case .moduleNotFound(let searched):
                return "Tomorrowland.swiftmodule not found next to the test bundle; searched:\n  "
                    + searched.joined(separator: "\n  ")
                    + "\nSet TOMORROWLAND_MODULES_DIR to the build's Modules directory to override."
            case .compilerNotFound(let searched):
                return "swiftc not found; searched: \(searched.joined(separator: ", ")). Set SWIFT_EXEC."
            }
        }
    }

    let swiftc: URL
    let modulesDirectory: URL
    let moduleCache: URL

    /// The fixtures folder, found from this source file (works in any clone / checkout).
    static let fixturesDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Swift6ClientTests
        .deletingLastPathComponent() // Tests
        .appendingPathComponent("CompileFailures", isDirectory: true)

    static func locate() throws -> FixtureCompiler {
        let modules = try locateModulesDirectory()
        let swiftc = try locateCompiler()
        let cache = FileManager.default.temporaryDirectory
            .appendingPathComponent("tomorrowland-fixtures-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        return FixtureCompiler(swiftc: swiftc, modulesDirectory: modules, moduleCache: cache)
    }

    /// The build products directory holding this test bundle: `<scratch>/<triple>/debug`,
    /// whose `Modules` folder has `Tomorrowland.swiftmodule`. Nothing is hard-coded: every
    /// candidate is derived from the running test executable.
    static func locateModulesDirectory() throws -> URL {
        let fileManager = FileManager.default
        var starts: [URL] = []
        if let override = ProcessInfo.processInfo.environment["TOMORROWLAND_MODULES_DIR"], !override.isEmpty {
            starts.append(URL(fileURLWithPath: override))
        }
        starts.append(Bundle.main.bundleURL)
        if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
        if let argument0 = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: argument0).deletingLastPathComponent())
        }
        var searched: [String] = []
        for start in starts {
            var directory = start.standardizedFileURL.resolvingSymlinksInPath()
            // Up to four levels: macOS nests the executable in X.xctest/Contents/MacOS.
            for _ in 0..<5 {
                for candidate in [directory.appendingPathComponent("Modules"), directory] {
                    let module = candidate.appendingPathComponent("Tomorrowland.swiftmodule")
                    searched.append(module.path)
                    if fileManager.fileExists(atPath: module.path) { return candidate }
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw SetupError.moduleNotFound(searched: searched)
    }

    static func locateCompiler() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let exec = environment["SWIFT_EXEC"], !exec.isEmpty { candidates.append(exec) }
        for directory in (environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(String(directory) + "/swiftc")
        }
        candidates += ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            return URL(fileURLWithPath: candidate)
        }
        throw SetupError.compilerNotFound(searched: candidates)
    }

    /// Compiles `fixture` in Swift 6 mode down to SIL (type checking plus the flow-sensitive
    /// Sendable diagnostics of region-based isolation) and returns the exit status and the
    /// diagnostics reported for that file.
    /// - Parameter languageMode: the Swift language mode (`-swift-version`): 6, or 5 for the
    ///   fixtures that 1.x clients in Swift 5 mode must not be able to compile either.
    func compile(_ fixture: URL, languageMode: Int = 6) throws -> (status: Int32, diagnostics: [Diagnostic], output: String) {
        let process = Process()
        process.executableURL = swiftc
        process.arguments = [
            "-emit-sil", "-o", "/dev/null",
            "-parse-as-library", "-module-name", "Fixture",
            "-swift-version", String(languageMode),
            "-I", modulesDirectory.path,
            "-module-cache-path", moduleCache.path,
            "-diagnostic-style", "llvm",
            fixture.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // Read before waiting so a chatty compiler cannot fill the pipe and deadlock.
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        return (process.terminationStatus, Self.parse(output, for: fixture), output)
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
