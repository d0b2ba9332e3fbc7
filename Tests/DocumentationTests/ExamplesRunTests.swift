// Runs every example program the way a newcomer would, and checks that it exits 0 on its
// default input, and with a clear message and a non-zero status on bad input.
//
// The example binaries are built next to this test bundle by `swift test` (which builds every
// product of the package); a missing binary fails the test rather than skipping it.

import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Examples run")
struct ExamplesRunTests {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The directory holding this test bundle and the example executables.
    static let productsDirectory: URL = {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.pathComponents.count > 1 && !FileManager.default.fileExists(atPath: url.deletingLastPathComponent().appendingPathComponent("IndexDirectory").path) {
            url = url.deletingLastPathComponent()
        }
        return url.deletingLastPathComponent()
    }()

    /// Runs `name` with `arguments` from the package root; fails the test after `timeout`.
    ///
    /// With `interruptWhen`, sends SIGINT once the program printed that text on stderr: the
    /// program says when it is ready, so no delay has to guess it. Waiting polls with
    /// `Task.sleep` under a deadline, never blocking a thread of the (2-thread) cooperative
    /// pool; the pipes are read on threads of their own.
    static func run(_ name: String, _ arguments: [String] = [], timeout: Double = 30, interruptWhen marker: String? = nil) async throws -> Outcome {
        let executable = productsDirectory.appendingPathComponent(name)
        try #require(FileManager.default.isExecutableFile(atPath: executable.path), "\(name) was not built next to the tests (\(executable.path))")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = Snippets.root
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = PipeReader(out)
        let stderr = PipeReader(err)
        let deadline = ContinuousClock.now + .seconds(timeout)
        let left = { max(0, (deadline - ContinuousClock.now) / .seconds(1)) }

        if let marker {
            if await eventually(seconds: left(), { stderr.text.contains(marker) || !process.isRunning }), process.isRunning {
                kill(process.processIdentifier, SIGINT)
            } else {
                Issue.record("\(name) \(arguments) did not print \"\(marker)\" while running, so it was not interrupted")
            }
        }
        if await !eventually(seconds: left(), { !process.isRunning }) {
            Issue.record("\(name) \(arguments) did not finish within \(timeout) s")
            process.terminate()
            if await !eventually(seconds: 5, { !process.isRunning }) {
                kill(process.processIdentifier, SIGKILL)
            }
            try #require(await eventually(seconds: 5, { !process.isRunning }), "\(name) could not be stopped")
        }
        // The process is gone, so the pipes end: their readers finish at once.
        try #require(await eventually(seconds: 10, { stdout.ended && stderr.ended }), "\(name)'s output did not end")
        return Outcome(status: process.terminationStatus, stdout: stdout.text, stderr: stderr.text)
    }

    /// Reads a pipe to its end on a thread of its own, so that a program that prints a lot
    /// never blocks on a full pipe, and what it printed so far can be looked at while it runs.
    final class PipeReader: @unchecked Sendable {
        // @unchecked: `data` and `atEnd` are only touched while `lock` is held.
        private let lock = NSLock()
        private var data = Data()
        private var atEnd = false

        init(_ pipe: Pipe) {
            let handle = pipe.fileHandleForReading
            Thread { [self] in
                while true {
                    let chunk = handle.availableData
                    lock.withLock { if chunk.isEmpty { atEnd = true } else { data.append(chunk) } }
                    if chunk.isEmpty { return }
                }
            }.start()
        }

        /// What was read so far, as UTF-8.
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

        /// Whether the pipe ended (every writer closed it).
        var ended: Bool { lock.withLock { atEnd } }
    }

    @Test func indexDirectoryIndexesThisPackagesSources() async throws {
        let outcome = try await Self.run("IndexDirectory")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("Indexed "))
        #expect(outcome.stdout.contains(" files, "))
        #expect(outcome.stdout.contains("tree checksum: "))
    }

    @Test func indexDirectoryIsDeterministic() async throws {
        let first = try await Self.run("IndexDirectory", ["Sources/Tomorrowland/State"])
        let second = try await Self.run("IndexDirectory", ["Sources/Tomorrowland/State"])
        #expect(first.status == 0 && second.status == 0)
        #expect(first.stdout == second.stdout)
    }

    @Test(arguments: [
        (["/no/such/directory"], Int32(66), "no such directory: /no/such/directory"),
        (["Package.swift"], Int32(66), "not a directory: Package.swift"),
        (["Sources", "Tests"], Int32(64), "too many arguments"),
        (["--timeout", "soon"], Int32(64), "--timeout needs a number"),
        (["--frobnicate"], Int32(64), "unknown option --frobnicate"),
    ])
    func indexDirectoryRejectsBadArguments(arguments: [String], status: Int32, message: String) async throws {
        let outcome = try await Self.run("IndexDirectory", arguments)
        #expect(outcome.status == status)
        #expect(outcome.stderr.contains(message), "stderr was: \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }

    @Test func indexDirectoryReportsAnUnreadableFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("IndexDirectory-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("fine\n".utf8).write(to: directory.appendingPathComponent("fine.txt"))
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("broken").path,
                                                   withDestinationPath: "/no/such/target")
        let outcome = try await Self.run("IndexDirectory", [directory.path])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("cannot read broken: No such file or directory"), "stderr was: \(outcome.stderr)")
    }

    @Test func indexDirectoryTimesOut() async throws {
        // A named pipe that nobody writes to: opening it never returns, so the read can only
        // time out, however fast or slow the machine is.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("IndexDirectory-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try #require(mkfifo(directory.appendingPathComponent("stalled").path, 0o600) == 0)
        let outcome = try await Self.run("IndexDirectory", ["--timeout", "0.05", directory.path])
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("timed out after 0.05 s reading stalled"), "stderr was: \(outcome.stderr)")
    }

    @Test func indexDirectoryCancelsEveryReadOnCtrlC() async throws {
        // SIGINT goes out once the program says Ctrl-C is caught; --slow reads for seconds
        // after that, so reads are in flight.
        let outcome = try await Self.run("IndexDirectory", ["--slow"], interruptWhen: "press Ctrl-C to cancel")
        #expect(outcome.status == 130, "stdout: \(outcome.stdout)\nstderr: \(outcome.stderr)")
        #expect(outcome.stderr.contains("interrupted after reading "))
        #expect(outcome.stderr.contains("cancelled "))
        #expect(outcome.stderr.contains(".swift"), "the cancelled reads are listed")
    }

    /// What each small example must print: the behaviour it demonstrates, not just "it ran".
    static let smallExamples: [(name: String, expected: [String], unexpected: [String])] = [
        ("AwaitWithCancellation", [
            "[poster] asked to cancel: stopping",
            "second: banner rendered",
            "first (cancelled, but the value came anyway): banner rendered",
            "[thumbnail] asked to cancel: stopping",
            "third: CancellationError",
            "fourth: CancellationError",
            "task: migration finished anyway",
            "waited at least 0.2 s: true",
            "gave up before the work finished: true",
        ], ["[banner] asked to cancel"]),
        ("AsyncToPromise", [
            "widget: Lisbon 16 °C",
            #"widget: error unknownCity("Atlantis")"#,
            "widget: cancelled",
            "widget: Kyoto 15 °C",
        ], ["Oslo"]),
        ("ActorOnQueue", [
            "ledger: opened by async code",
            "ledger: payment #7, recorded by a promise callback",
            "ledger: recorded from a task preferring .utility",
        ], []),
        ("InvalidationViewModel", [
            "invalidated: cleared the rows",
            "showing 2 rows for cat",
            "suggestions for cat",
            #"rows: ["cat one", "cat two"]"#,
        ], ["rows for ca\n", "suggestions for ca\n"]),
    ]

    @Test(arguments: smallExamples.indices)
    func smallExampleShowsWhatItClaims(_ index: Int) async throws {
        let example = Self.smallExamples[index]
        let outcome = try await Self.run(example.name, timeout: 20)
        #expect(outcome.status == 0, "\(example.name) stdout: \(outcome.stdout)\nstderr: \(outcome.stderr)")
        for line in example.expected {
            #expect(outcome.stdout.contains(line), "\(example.name) did not print \(line):\n\(outcome.stdout)")
        }
        for text in example.unexpected {
            #expect(!outcome.stdout.contains(text), "\(example.name) printed \(text):\n\(outcome.stdout)")
        }
    }
}
