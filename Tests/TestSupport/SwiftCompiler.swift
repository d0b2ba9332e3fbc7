// Runs the Swift compiler from a test, against the modules of the build that the test runs in:
// finds `swiftc` and the build's Modules folder, runs a process (both pipes drained), and
// compiles files down to SIL.
//
// Compiled into two packages: here, into the TestSupport target (Swift6ClientTests compiles the
// fixtures of Tests/CompileFailures with it), and into the Tools package's
// TomorrowlandMigrateKitTests (which compile what tomorrowland-migrate writes) through the
// symbolic link Tools/Tests/TomorrowlandMigrateKitTests/SwiftCompiler.swift. A link rather than
// a dependency: Tools can depend only on this package's products, and a TestSupport product
// would offer test helpers to every client of the library. Hence Foundation only, nothing of
// Tomorrowland, and `public` so that the root package's test targets see it.

import Foundation

/// Finds `swiftc` and the build's modules, runs processes, and compiles files to SIL.
public enum SwiftCompiler {
    public enum SetupError: Swift.Error, CustomStringConvertible {
        case moduleNotFound(module: String, searched: [String])
        case compilerNotFound(searched: [String])

        public var description: String {
            switch self {
            case .moduleNotFound(let module, let searched):
                return "\(module).swiftmodule not found next to the test bundle; searched:\n  "
                    + searched.joined(separator: "\n  ")
                    + "\nSet TOMORROWLAND_MODULES_DIR to the build's Modules directory to override."
            case .compilerNotFound(let searched):
                return "swiftc not found; searched: \(searched.joined(separator: ", ")). Set SWIFT_EXEC."
            }
        }
    }

    /// How a process ended and what it printed.
    public struct Outcome: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// `SWIFT_EXEC`, else the first `swiftc` on `PATH`, in /opt/swift/usr/bin or in /usr/bin.
    public static func swiftc() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        var candidates: [String] = []
        if let exec = environment["SWIFT_EXEC"], !exec.isEmpty { candidates.append(exec) }
        candidates += (environment["PATH"] ?? "").split(separator: ":").map { $0 + "/swiftc" }
        candidates += ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw SetupError.compilerNotFound(searched: candidates)
        }
        return URL(fileURLWithPath: found)
    }

    /// The folder holding `module`.swiftmodule: `TOMORROWLAND_MODULES_DIR` when set, else the
    /// `Modules` folder of the build products holding this test executable
    /// (`<scratch>/<triple>/debug/Modules`). Nothing is hard-coded: every candidate is derived
    /// from the running test executable.
    public static func modulesDirectory(holding module: String) throws -> URL {
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
                    let path = candidate.appendingPathComponent(module + ".swiftmodule").path
                    searched.append(path)
                    if fileManager.fileExists(atPath: path) { return candidate }
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw SetupError.moduleNotFound(module: module, searched: searched)
    }

    /// Runs `executable` to its end, in `directory` if given.
    public static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // A compiler or tool that hangs ends the test with a failure (a signal status) instead of
        // blocking CI: terminated after ten minutes, far beyond any fixture's compile time.
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 600) {
            if process.isRunning, process.processIdentifier == pid { process.terminate() }
        }
        // Drain both pipes before waiting so a chatty process cannot fill one and block.
        nonisolated(unsafe) var errData = Data()
        let errDrained = DispatchSemaphore(value: 0)
        Thread {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            errDrained.signal()
        }.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errDrained.wait()
        return Outcome(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self)
        )
    }

    /// Type-checks `files` together as one module named `Fixture`, down to SIL so that Swift 6's
    /// flow-sensitive Sendable diagnostics (region-based isolation) run; diagnostics come in
    /// `file:line:column: severity: message` form on stderr.
    /// - Parameters:
    ///   - swiftVersion: the language mode (`-swift-version`), 6 or 5.
    ///   - modules: the folder with the modules the files import (`-I`).
    ///   - moduleCache: where the compiler keeps its clang module cache.
    ///   - compiler: the `swiftc` to run; by default ``swiftc()`` finds one.
    public static func compileToSIL(
        _ files: [URL], swiftVersion: Int, modules: URL, moduleCache: URL, compiler: URL? = nil
    ) throws -> Outcome {
        try run(compiler ?? swiftc(), [
            "-emit-sil", "-wmo", "-o", "/dev/null", "-parse-as-library", "-module-name", "Fixture",
            "-swift-version", String(swiftVersion), "-I", modules.path,
            "-module-cache-path", moduleCache.path, "-diagnostic-style", "llvm",
        ] + files.map(\.path))
    }
}
