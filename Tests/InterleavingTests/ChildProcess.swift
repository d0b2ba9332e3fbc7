// ChildProcess: each scenario is explored in a child process (this test binary, running that
// one test), so that a crash ends only its own scenario, named with its schedule
// (CrashReport), and the scenarios after it still run.

#if TOMORROWLAND_SCHEDULE_POINTS
import Foundation

enum ChildProcess {
    /// Set in a child's environment: explore in this process.
    static let inChildKey = "INTERLEAVINGS_IN_PROCESS"

    /// Whether this process is a child that explores in-process (or must: no way to start
    /// this binary again, as on macOS, where XCTest bundles are loaded by `xctest`).
    static var exploresInProcess: Bool {
        ProcessInfo.processInfo.environment[inChildKey] != nil || executable == nil
    }

    private static let executable: URL? = {
        let path = "/proc/self/exe"
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return URL(fileURLWithPath: path).resolvingSymlinksInPath()
    }()

    /// How a child ended, and what it printed (standard output and error together).
    struct Outcome {
        var status: Int32
        var crashed: Bool
        var output: String

        /// The lines worth repeating in the parent: the explorer's, the failures', the crash's.
        var report: String {
            output.split(separator: "\n", omittingEmptySubsequences: true)
                .filter { line in
                    ["Interleavings:", "  replay:", "  trace:", "Fatal error", "CRASHED"].contains { line.contains($0) }
                }
                .joined(separator: "\n")
        }
    }

    /// Runs the XCTest `test` ("Target.Class/testMethod") in a child process of this binary,
    /// with `environment` added; a child running longer than `timeout` is terminated.
    static func run(test: String, environment: [String: String] = [:], timeout: TimeInterval = 600) -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = [test]
        var childEnvironment = ProcessInfo.processInfo.environment
        childEnvironment[inChildKey] = "1"
        // No Swift backtracer in the child: a crash would start `swift-backtrace`, which
        // inherits the pipe below and, under the thread sanitizer, was seen to hang reading
        // the dead child's memory, holding the pipe open and this read with it. The crash
        // line (`CrashReport`) and the runtime's own fatal-error message still print.
        childEnvironment["SWIFT_BACKTRACE"] = "enable=no"
        // The thread sanitizer sleeps a second at exit (`atexit_sleep_ms`), for threads still
        // running to race with exit's destructors. A child's other threads are idle at exit
        // (the explorer's workers wait on their conditions), so that second bought nothing and
        // was most of a scenario's time under the sanitizer (39 s of a 41 s run). Races are
        // still reported when they happen, and the exit status is unchanged.
        let sanitizerOptions = childEnvironment["TSAN_OPTIONS"] ?? ""
        if !sanitizerOptions.contains("atexit_sleep_ms") {
            childEnvironment["TSAN_OPTIONS"] = (sanitizerOptions.isEmpty ? "" : sanitizerOptions + ":") + "atexit_sleep_ms=0"
        }
        childEnvironment.merge(environment) { $1 }
        process.environment = childEnvironment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do {
            try process.run()
        } catch {
            return Outcome(status: -1, crashed: false, output: "could not start \(executable?.path ?? "-"): \(error)")
        }
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return Outcome(status: process.terminationStatus, crashed: process.terminationReason == .uncaughtSignal,
                       output: String(decoding: data, as: UTF8.self))
    }
}
#endif
