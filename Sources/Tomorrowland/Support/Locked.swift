// Locked: a value behind a pthread-backed lock, for the few places that need one.

import Foundation

/// A value that is only read or written while holding a lock.
///
/// Used instead of `Synchronization.Mutex`: on Linux `Mutex` waits with a raw futex that the
/// thread sanitizer cannot see, so it reports false races on everything the mutex protects;
/// `NSLock` is a pthread mutex, which the sanitizer understands. Never hold it across user code.
///
/// `package` so that TomorrowlandAsync's executors use the same wrapper; `@inlinable` so that
/// their job paths stay specialized across the module boundary.
///
/// Do not use it with an empty `Value` (`Locked(())`): the thread sanitizer instruments the
/// inout access to a zero-sized value at the end of the object, in memory that may belong to
/// the next allocation, and reports races there.
///
/// Safety of `@unchecked Sendable`: `value` is only accessed inside `withLock`, under `lock`.
package final class Locked<Value>: @unchecked Sendable {
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    @inlinable
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    @inlinable @inline(__always)
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        #if TOMORROWLAND_SCHEDULE_POINTS
        schedulePointAcquiring(lock)
        defer { schedulePointReleased(lock) }
        #endif
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
