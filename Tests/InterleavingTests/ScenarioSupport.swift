// What scenarios record and check: an event log in schedule order, objects whose release is
// counted, and the continuation an awaiting Task hands over.

#if TOMORROWLAND_SCHEDULE_POINTS
import Foundation
import Synchronization
@testable import TomorrowlandExplored

/// Events in the order they happened (only one scenario thread runs at a time, so the
/// order is the schedule's). Safety of `@unchecked Sendable`: `events` is only touched under `lock`.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []

    func record(_ event: String) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }

    func count(_ event: String) -> Int { all.filter { $0 == event }.count }

    /// The position of the first `event`, `nil` if it never happened.
    func index(_ event: String) -> Int? { all.firstIndex(of: event) }

    /// Whether `first` happened, and before `second` (or `second` never happened).
    func happened(_ first: String, before second: String) -> Bool {
        guard let a = index(first) else { return false }
        guard let b = index(second) else { return true }
        return a < b
    }
}

/// Something a callback captures: counts how often it was released, to check that every
/// node (closure) is released exactly once.
final class Tracked: Sendable {
    private let counter: ReleaseCounter

    init(_ counter: ReleaseCounter) {
        self.counter = counter
        counter.made.add(1, ordering: .relaxed)
    }

    func use() {}

    deinit { counter.released.add(1, ordering: .relaxed) }
}

/// Counts the `Tracked` objects of one run.
final class ReleaseCounter: Sendable {
    let made = Atomic(0)
    let released = Atomic(0)

    /// `nil` if every object made was released exactly once (call once the run dropped them).
    var problem: String? {
        let made = made.load(ordering: .relaxed), released = released.load(ordering: .relaxed)
        return made == released ? nil : "\(made) captured objects made, \(released) released"
    }
}

/// Whether a scenario thread's claim succeeded, for another thread to wait on (an atomic: a
/// wait's condition must not reach a schedule point, as `Locked` would).
final class ClaimOutcome: Sendable {
    private let state = Atomic(0)  // 0: not yet, 1: claimed, 2: not claimed

    func set(_ claimed: Bool) { state.store(claimed ? 1 : 2, ordering: .sequentiallyConsistent) }
    var decided: Bool { state.load(ordering: .sequentiallyConsistent) != 0 }
    var claimed: Bool { state.load(ordering: .sequentiallyConsistent) == 1 }
}

/// Checks the properties every promise of a run must have once the run is over.
func checkResolvedCore(_ name: String, _ core: PromiseCore) -> String? {
    let state = PromiseState(raw: core.state.load(ordering: .acquiring))
    if !state.isResolved { return "\(name) never resolved" }
    if core.upstream.load(ordering: .acquiring) != nil {
        return "\(name) resolved but still holds its upstream link"
    }
    return nil
}

/// The first non-nil problem.
func firstProblem(_ problems: String?...) -> String? {
    problems.lazy.compactMap { $0 }.first
}

/// The continuation of a real Task suspended as `suspend(on:)` suspends it, and how it was
/// resumed. The Task itself runs outside the explorer: only the library's calls with its
/// continuation (`storeContinuationAndWait`, `requestCancelForAwaitingTask`) are explored.
///
/// Safety of `@unchecked Sendable`: the fields are only touched under `condition`.
final class AwaitingTask: @unchecked Sendable {
    private let condition = NSCondition()
    private var continuation: AwaitContinuation?
    private var stopped: Bool?

    /// Starts the Task and returns once it handed over its continuation.
    init() {
        Task.detached { [self] in
            let stopped = await withAwaitContinuation { handOver($0) }
            resumed(stopped)
        }
        condition.lock()
        let deadline = Date().addingTimeInterval(60)
        while continuation == nil {
            guard condition.wait(until: deadline) else { preconditionFailure("the awaiting Task never started") }
        }
        condition.unlock()
    }

    private func handOver(_ continuation: AwaitContinuation) {
        condition.lock()
        self.continuation = continuation
        condition.broadcast()
        condition.unlock()
    }

    private func resumed(_ stopped: Bool) {
        condition.lock()
        self.stopped = stopped
        condition.broadcast()
        condition.unlock()
    }

    /// The continuation (taken once, by the scenario thread that arms the wait).
    func take() -> AwaitContinuation {
        condition.lock()
        defer { condition.unlock() }
        return continuation.take()!
    }

    /// How the Task was resumed (`true`: stopped waiting), waiting up to `seconds` for it;
    /// `nil` if it never was (a lost wakeup).
    func outcome(within seconds: TimeInterval = 5) -> Bool? {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while stopped == nil, condition.wait(until: deadline) {}
        return stopped
    }
}
#endif
