// VirtualClock: the explorer's build only. A test can install a virtual clock that receives
// every timer `ContextTimer` arms (behind `delay`, `init(on:with:after:)`, `timeout` and
// `retry`'s delays) instead of a dispatch source, and fires them when it advances its own time:
// the rules model (Tests/RulesModelTests) runs timers that way, in the order of their deadlines,
// with no real waiting and the same result on every run.
//
// `TOMORROWLAND_SCHEDULE_POINTS` is defined only for `TomorrowlandExplored`, the test-only copy
// of this library, in debug builds (Package.swift): in the `Tomorrowland` target, the one apps
// build, this file is empty and the call sites in ContextTimer.swift are compiled out. In the
// copy, with no clock installed, arming a timer reads one relaxed atomic more.

#if TOMORROWLAND_SCHEDULE_POINTS
import Foundation
import Synchronization

/// Receives the timers armed while it is installed. Subclassed by a test; the base class
/// fires nothing.
///
/// Safety of `@unchecked Sendable`: no stored state here; a subclass synchronizes its own.
package class VirtualClock: @unchecked Sendable {
    package init() {}

    /// A timer was armed to fire `delay` seconds from the clock's now (a delay > 0, NaN or
    /// `+infinity`: a zero or negative delay never reaches the clock). Call `fire` once when
    /// the clock passes the deadline; never for NaN or `+infinity` (as `DispatchTime.now() +
    /// delay` is then `.distantFuture`). `fire` does what the dispatch source's handler would
    /// do: it hands the timer's work to the queue the source would have run it on (a cancelled
    /// timer's `fire` does nothing).
    package func timerArmed(after delay: TimeInterval, fire: @escaping @Sendable () -> Void) {}

    /// The installed clock, unretained: `install` requires one that lives for the rest of the
    /// process.
    private static let installed = Atomic<Unmanaged<VirtualClock>?>(nil)

    /// Installs `clock` (kept alive by the caller for the rest of the process), or removes it.
    package static func install(_ clock: VirtualClock?) {
        installed.store(clock.map { .passUnretained($0) }, ordering: .sequentiallyConsistent)
    }

    /// The installed clock, if any. Relaxed, as the schedule points' handler (SchedulePoints.swift).
    static var current: VirtualClock? {
        installed.load(ordering: .relaxed)?.takeUnretainedValue()
    }
}
#endif
