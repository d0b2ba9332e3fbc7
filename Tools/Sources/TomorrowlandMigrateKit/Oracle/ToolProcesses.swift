// Running the compiler and SwiftPM, and timing what the tool runs.

import Foundation

extension Process {
    /// Runs `executable` with `arguments`; its exit status and its standard output and error together.
    static func capture(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let started = Date()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "cannot run \(executable): \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        ToolTrace.record(executable: executable, arguments: arguments, since: started)
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// Where the time goes: with `TOMORROWLAND_MIGRATE_TRACE=<file>` in the environment, every
/// process the tool runs appends one line to that file (tab-separated: the tool's process id,
/// seconds since the tool started, the run's wall seconds, what it ran). Nothing otherwise.
public enum ToolTrace {
    private static let file = ProcessInfo.processInfo.environment["TOMORROWLAND_MIGRATE_TRACE"]
    private static let start = Date()

    /// Appends a line for a process that ran from `since` until now.
    static func record(executable: String, arguments: [String], since: Date) {
        guard let file else { return }
        let now = Date()
        record(String(format: "%.2f\t%.2f\t", since.timeIntervalSince(start), now.timeIntervalSince(since)) + summary(executable, arguments), in: file)
    }

    /// Appends a line for a phase of the tool's own work (`phase` names it).
    public static func phase(_ phase: String, since: Date) {
        guard let file else { return }
        record(String(format: "%.2f\t%.2f\t", since.timeIntervalSince(start), Date().timeIntervalSince(since)) + "tool " + phase, in: file)
    }

    private static func summary(_ executable: String, _ arguments: [String]) -> String {
        let name = (executable as NSString).lastPathComponent
        let mode = arguments.first { ["-dump-ast", "-emit-sil", "-emit-module", "build", "test", "--compact"].contains($0) } ?? ""
        let module = zip(arguments, arguments.dropFirst()).first { $0.0 == "-module-name" || $0.0 == "--target" }?.1 ?? ""
        let sources = arguments.filter { $0.hasSuffix(".swift") && !$0.hasPrefix("-") }.count
        return "\(name == "env" ? arguments.first ?? name : name) \(mode) \(module) \(sources) files"
    }

    private static let lock = NSLock()

    private static func record(_ line: String, in path: String) {
        lock.lock()
        defer { lock.unlock() }
        let text = "\(getpid())\t" + line + "\n"
        guard let handle = FileHandle(forWritingAtPath: path) else {
            try? text.write(toFile: path, atomically: false, encoding: .utf8)
            return
        }
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        try? handle.close()
    }
}
