// Racer: runs two closures at the same moment on two threads, many times in a row.
//
// `DispatchQueue.concurrentPerform(iterations: 2)` is no good for this: measured on this
// machine, the two iterations never overlapped in 10,000 calls (the caller ran both). A
// dedicated helper thread and a two-phase spin barrier start both sides together.

import Foundation
import Synchronization

/// Safety of `@unchecked Sendable`: `work` is written by the driver before the releasing
/// store of `round` and read by the helper after the acquiring load that sees that round;
/// the helper is done with it before the releasing store of `finished` the driver waits for.
final class Racer: @unchecked Sendable {
    private let round = Atomic<Int>(0)
    private let ready = Atomic<Int>(0)
    private let go = Atomic<Int>(0)
    private let started = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)
    private let clock = Atomic<Int>(0)
    private let overlapping = Atomic<Int>(0)
    private var work: (@Sendable () -> Void)?
    private var helperSpan = (start: 0, end: 0)
    private let stopped = Atomic<Bool>(false)
    private let exited = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [self] in helperLoop() }
        thread.start()
    }

    /// How many rounds had both sides running at the same time.
    var overlaps: Int { overlapping.load(ordering: .relaxed) }

    /// Spins until `condition` holds. A side that never gets there (a hang in the code
    /// under test) crashes the test process after 60 s instead of blocking CI forever.
    ///
    /// It spins without yielding for its first 50 µs (the other side, running on the other
    /// core, normally arrives in well under one), then yields every 64 spins. A `sched_yield`
    /// hands the core to any other runnable process for a slice of milliseconds, even one at
    /// the lowest priority: yielding from the first spins made a 150,000-round race run ten
    /// times longer beside CI's other lane (3.9 s alone, 37 s there). After 50 µs the other
    /// side is slow (the thread sanitizer) or shares this core, and spinning on would only burn it.
    private static func spin(until condition: () -> Bool) {
        var spins = 0
        let start = DispatchTime.now().uptimeNanoseconds
        let deadline = start + 60_000_000_000
        while !condition() {
            spins += 1
            if spins % 64 == 0 {
                let now = DispatchTime.now().uptimeNanoseconds
                if now - start > 50_000 { sched_yield() }
                if now > deadline {
                    fatalError("Racer: the other side did not get there within 60 s (a hang in the code under test)")
                }
            }
        }
    }

    private static func jitter(_ steps: Int) {
        var sink = 0
        for step in 0..<(steps * 2) { sink &+= step }
        withExtendedLifetime(sink) {}
    }

    private func helperLoop() {
        var last = 0
        while true {
            Self.spin { round.load(ordering: .acquiring) > last || stopped.load(ordering: .acquiring) }
            if stopped.load(ordering: .acquiring) { break }
            last += 1
            ready.store(last, ordering: .releasing)
            Self.spin { go.load(ordering: .acquiring) == last }
            started.store(last, ordering: .releasing)
            Self.jitter(last % 7)
            let start = clock.wrappingAdd(1, ordering: .relaxed).newValue
            work!()
            work = nil
            helperSpan = (start, clock.wrappingAdd(1, ordering: .relaxed).newValue)
            finished.store(last, ordering: .releasing)
        }
        exited.signal()
    }

    /// Runs `a` on the calling thread and `b` on the helper thread, started together, and
    /// returns when both are done.
    func race(_ a: () -> Void, _ b: @escaping @Sendable () -> Void) {
        work = b
        let n = round.wrappingAdd(1, ordering: .releasing).newValue
        Self.spin { ready.load(ordering: .acquiring) == n }
        go.store(n, ordering: .releasing)
        // Both threads are on a CPU now; a varying delay on each side varies who goes first.
        Self.spin { started.load(ordering: .acquiring) == n }
        Self.jitter(n % 5)
        let start = clock.wrappingAdd(1, ordering: .relaxed).newValue
        a()
        let end = clock.wrappingAdd(1, ordering: .relaxed).newValue
        Self.spin { finished.load(ordering: .acquiring) == n }
        if helperSpan.start < end && start < helperSpan.end {
            overlapping.wrappingAdd(1, ordering: .relaxed)
        }
    }

    /// Ends the helper thread.
    func stop() {
        stopped.store(true, ordering: .releasing)
        exited.wait()
    }
}
