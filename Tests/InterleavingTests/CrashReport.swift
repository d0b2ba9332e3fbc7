// CrashReport: a crash inside a schedule (a trap, a use-after-free) still names the schedule.
// The explorer keeps the current schedule's choice string in a preallocated buffer; a signal
// handler writes it to standard error and passes the signal on to the handler it replaced.

#if TOMORROWLAND_SCHEDULE_POINTS
import Foundation

/// The replay line of the schedule being run, written by a fatal signal's handler.
///
/// Only the explorer's monitor holder writes the buffer (one schedule at a time); the handler
/// only reads it, with `write(2)` (async-signal-safe). A crash mid-append prints a string cut
/// short by one choice at most.
enum CrashReport {
    private static let capacity = 1 << 20
    private nonisolated(unsafe) static let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    private nonisolated(unsafe) static var length = 0
    private nonisolated(unsafe) static var headerLength = 0
    /// The handlers replaced, by signal number, passed the signal on after the report.
    private nonisolated(unsafe) static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    private static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]
    private static let installed: Void = {
        // The handler may run on a thread whose stack overflowed: give it its own stack.
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
        stack.ss_size = 1 << 16
        sigaltstack(&stack, nil)
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in CrashReport.report(signal) }
            action.sa_flags = Int32(SA_ONSTACK)
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, previous + Int(signal))
        }
    }()

    /// Installs the signal handlers (once per process).
    static func installOnce() { _ = installed }

    /// A schedule begins: `header` starts its replay line.
    static func begin(_ header: String) {
        let bytes = Array(header.utf8.prefix(capacity / 2))
        bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: $0.count) }
        headerLength = bytes.count
        length = bytes.count
    }

    /// The schedule took `choice` at a recorded decision.
    static func append(_ choice: Int, first: Bool) {
        // Digit by digit into locals, no String and one access to each static: this runs at
        // every recorded decision, in a debug build.
        var end = length
        guard end != 0, end + 24 < capacity, choice >= 0 else { return }
        let bytes = buffer
        if !first {
            bytes[end] = UInt8(ascii: ",")
            end += 1
        }
        var divisor = 1
        while choice / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            bytes[end] = UInt8(ascii: "0") + UInt8(choice / divisor % 10)
            end += 1
            divisor /= 10
        }
        length = end
    }

    /// No schedule is running: a crash prints nothing.
    static func end() { length = 0 }

    private static func report(_ signal: Int32) {
        let count = length
        if count != 0 {
            _ = write(2, "\n", 1)
            _ = write(2, buffer, count)
            let tail: StaticString = "\" (the choices up to the crash)\n"
            _ = write(2, tail.utf8Start, tail.utf8CodeUnitCount)
        }
        // Pass the signal on: the replaced handler (the runtime's backtracer) or the default.
        sigaction(signal, previous + Int(signal), nil)
        // A fault (ud2, a bad access) re-executes the faulting instruction, which now reaches
        // that handler; a raised signal or a breakpoint trap would not come again.
        if signal == SIGABRT || signal == SIGTRAP { raise(signal) }
    }
}
#endif
