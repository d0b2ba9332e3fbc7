// Terminal output shared by the stages: the progress line and the list of reads in flight.

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress line on stderr, rewritten in place with a carriage return. Silent when stderr
/// is not a terminal, so piped output stays clean.
final class ProgressLine: Sendable {
    private let enabled = isatty(STDERR_FILENO) != 0
    private let lastWidth = Locked(0)

    func update(done: Int, total: Int, bytes: Int, current: String) {
        guard enabled else { return }
        let percent = total == 0 ? 100 : done * 100 / total
        var line = "indexing \(done)/\(total) files (\(percent)%), \(bytes.formatted()) bytes  \(current)"
        if line.count > 100 { line = String(line.prefix(99)) + "…" }
        write(line)
    }

    /// Erases the line.
    func clear() {
        guard enabled else { return }
        write("")
    }

    private func write(_ line: String) {
        lastWidth.withLock { width in
            let padding = String(repeating: " ", count: max(0, width - line.count))
            FileHandle.standardError.write(Data(("\r" + line + padding + "\r" + line).utf8))
            width = line.count
        }
    }
}

/// The reads whose promises are still pending, those that ended cancelled, and how many
/// completed.
final class InFlightReads: Sendable {
    private let state = Locked<(pending: Set<String>, cancelled: [String], completed: Int)>(([], [], 0))

    func started(_ path: String) {
        state.withLock { _ = $0.pending.insert(path) }
    }

    func finished(_ path: String, cancelled: Bool) {
        state.withLock { state in
            state.pending.remove(path)
            if cancelled { state.cancelled.append(path) } else { state.completed += 1 }
        }
    }

    /// Reads that ended cancelled, in the order they did.
    var cancelled: [String] {
        state.withLock { $0.cancelled }
    }

    /// Reads that fulfilled or rejected.
    var completed: Int {
        state.withLock { $0.completed }
    }
}

/// A value behind an `NSLock`. Not `Mutex`: ThreadSanitizer on Linux does not see its futex
/// hand-off and reports races that are not there.
final class Locked<State>: @unchecked Sendable {
    // @unchecked: `state` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var state: State

    init(_ state: State) {
        self.state = state
    }

    func withLock<R>(_ body: (inout State) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }
}
