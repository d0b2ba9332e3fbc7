import Foundation

/// A small in-memory audit log. Thread-safe; the app mirrors it to disk.
public final class LedgerLog: @unchecked Sendable {
    public static let shared = LedgerLog()

    private let lock = NSLock()
    private var lines: [String] = []

    public init() {}

    public func record(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
        #if DEBUG
        if ProcessInfo.processInfo.environment["LEDGER_LOG_STDOUT"] != nil {
            print("[ledger] \(line)")
        }
        #endif
    }

    public var entries: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    public func clear() {
        lock.lock()
        lines.removeAll()
        lock.unlock()
    }
}
