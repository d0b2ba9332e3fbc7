// Explorer: a deterministic scheduler that runs a scenario's threads one at a time and
// explores, depth first, every order of their atomic steps within a preemption bound
// (CHESS-style systematic testing). The steps are the library's schedule points
// (Sources/Tomorrowland/State/SchedulePoints.swift), compiled only into TomorrowlandExplored's
// debug build.

#if TOMORROWLAND_SCHEDULE_POINTS
import Foundation
@testable import TomorrowlandExplored

/// One run of a scenario: its threads, and the invariants checked once they all finished.
struct ScenarioRun {
    /// The bodies of the scenario's threads (thread `i` runs `threads[i]`). The explorer
    /// takes them out before the run: each is released by its own thread, in the schedule.
    var threads: [@Sendable () -> Void]
    /// Checked after every thread finished (and after a deadlock or a hang): `nil` if the
    /// invariants hold, otherwise what is wrong. May drop what the run kept alive and check
    /// that it was released.
    var check: () -> String?
}

/// What `Explorer.explore` found.
struct Exploration: CustomStringConvertible {
    /// The schedules run, up to and including the first failure.
    var schedules: Int
    /// Whether every schedule within the bound was run (no failure, no cap reached).
    var complete: Bool
    /// The first failure: what was wrong, the choice string that replays it, and the trace.
    var failure: (message: String, choices: String, trace: String)?
    var seconds: Double

    var description: String {
        var text = "\(schedules) schedules in \(String(format: "%.2f", seconds)) s"
        if let failure {
            text += ", FAILED at schedule \(schedules): \(failure.message)\n"
            text += "  replay: choices \"\(failure.choices)\"\n  trace: \(failure.trace)"
        } else if !complete {
            text += " (capped: not every schedule was explored)"
        }
        return text
    }
}

/// Runs scenarios under every interleaving of their schedule points, within a preemption bound.
///
/// - Real threads (a small pool of workers), exactly one runnable at a time: a worker runs
///   only while `running` names it. At each schedule point the running worker itself picks
///   the next one to run (the decision), hands over and waits for its turn.
/// - A decision offers the running thread first (continuing costs nothing), then the other
///   enabled threads; switching away from a thread that could go on is a *preemption*, and a
///   run makes at most `bound` of them. Switching when the running thread finished or blocks
///   is free. Decisions with one option are not recorded.
/// - Depth first: `path` holds the recorded decisions of the last run and which option each
///   took. The next run replays the path up to its last decision with an untried option,
///   takes that option, and goes on with first options.
/// - Blocking is modelled, so that it can be explored and a deadlock seen: `Locked` reports
///   its lock (a thread waits until the explorer's own record says the lock is free), and a
///   scenario can wait for a condition (`Explorer.wait(for:until:)`). No enabled thread while
///   some have not finished is a deadlock; a thread waiting for a condition then is a lost
///   wakeup. Either ends the run in *free run*: every thread runs on unscheduled, waits give up.
///
/// Safety of `@unchecked Sendable`: every mutable field is only accessed under `monitor`'s lock.
final class Explorer: SchedulePointHandler, @unchecked Sendable {
    static let shared = Explorer()

    /// The default preemption bound.
    static let defaultBound = 2

    private enum Status {
        case runnable
        case waitingForLock(ObjectIdentifier)
        case waitingFor(String, () -> Bool)
        case finished
    }

    /// A recorded decision: the options offered and the one taken.
    private struct Decision {
        var options: Options
        var taken: Int
    }

    /// A decision's options in the order offered: `first` (the running thread, when it can go
    /// on), then the threads of the bit set `others` in ascending order. Bits, not an array: a
    /// decision is made at most schedule points, in a debug build, where every array operation
    /// is a call into the runtime.
    private struct Options: Equatable, CustomStringConvertible {
        var first: Int?
        var others: UInt64

        var count: Int { (first == nil ? 0 : 1) + others.nonzeroBitCount }

        /// The option at `position` (from 0).
        subscript(position: Int) -> Int {
            var position = position
            if let first {
                if position == 0 { return first }
                position -= 1
            }
            var rest = others
            for _ in 0..<position { rest &= rest - 1 }
            return rest.trailingZeroBitCount
        }

        func contains(_ thread: Int) -> Bool {
            thread == first || ((0..<64).contains(thread) && others & (1 << UInt64(thread)) != 0)
        }

        /// Equal when the same threads are offered in the same order, as arrays of them would be
        /// (whether the first one is the running thread does not count).
        static func == (left: Options, right: Options) -> Bool {
            // The same fields offer the same threads in the same order: the replay of a recorded
            // decision (every decision of every schedule but the last) compares them alone. A
            // closure over the subscript was a tenth of the exploration's time.
            if left.first == right.first && left.others == right.others { return true }
            return left.count == right.count && (0..<left.count).allSatisfy { left[$0] == right[$0] }
        }

        /// As an array would print: `[1, 0, 2]`.
        var description: String { "[" + (0..<count).map { String(self[$0]) }.joined(separator: ", ") + "]" }
    }

    private let monitor = Monitor()

    // The fields below are accessed under `monitor` alone, and at every schedule point: they
    // skip the runtime's exclusivity checks (`@exclusivity(unchecked)`), a few per cent of
    // an exploration's time in a debug build. The lock, not those checks, keeps the threads apart.

    // The current run (all under `monitor`).
    @exclusivity(unchecked) private var status: [Status] = []
    @exclusivity(unchecked) private var running: Int? = nil
    @exclusivity(unchecked) private var freeRun = false
    @exclusivity(unchecked) private var lockOwners: [ObjectIdentifier: Int] = [:]
    @exclusivity(unchecked) private var jobs: [(@Sendable () -> Void)?] = []
    @exclusivity(unchecked) private var finished = 0
    @exclusivity(unchecked) private var preemptions = 0
    @exclusivity(unchecked) private var steps = 0
    @exclusivity(unchecked) private var trace: [(thread: Int, label: TraceLabel)] = []
    @exclusivity(unchecked) private var choices: [Int] = []
    @exclusivity(unchecked) private var failure: String? = nil
    /// Work handed over instead of a timer or a dispatch (`deferred(_:)`), for a scenario
    /// thread to run (`runDeferredWork`); what is left when the run ends is dropped.
    @exclusivity(unchecked) private var deferredWork: [(work: @Sendable () -> Void, clock: VectorClock?)] = []
    /// The thread running `explore`: its `make()` arms timers too.
    @exclusivity(unchecked) private var exploringThread: pthread_t? = nil

    // The happens-before check (all under `monitor`; see "Memory orderings" in Testing.md):
    // a vector clock per thread, slot 0 for the exploring thread (which builds the scenario
    // and runs its check), slot `i + 1` for worker `i`; what each lock released last. Cells
    // keep their own record (`SharedCell`), stamped with the run it belongs to.
    @exclusivity(unchecked) private var run = 0
    @exclusivity(unchecked) private var clocks: [VectorClock] = []
    @exclusivity(unchecked) private var lockClocks: [ObjectIdentifier: VectorClock] = [:]

    // The search (all under `monitor`).
    @exclusivity(unchecked) private var bound = Explorer.defaultBound
    @exclusivity(unchecked) private var path: [Decision] = []
    @exclusivity(unchecked) private var nextDecision = 0
    @exclusivity(unchecked) private var replay: [Int]? = nil
    /// A run that takes more schedule points than this is reported as a livelock.
    private let maxSteps = 20_000

    // The worker pool: `workers` threads, numbered; a worker left deadlocked on a real lock
    // by a failed run is *lost* (parked for good) and replaced.
    @exclusivity(unchecked) private var workers = 0
    @exclusivity(unchecked) private var lost: Set<Int> = []
    private static let workerKey: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0)
        return key
    }()

    /// The calling thread's worker number, `nil` on any other thread.
    static var currentWorker: Int? {
        guard let pointer = pthread_getspecific(workerKey) else { return nil }
        return Int(bitPattern: pointer) - 1
    }

    private override init() {}

    // MARK: Exploring

    /// Runs `make()`'s scenario under every schedule within `bound` preemptions (or, with
    /// `replay`, the one schedule that choice string names, with its bound: a string that
    /// runs out or has choices left over fails), until the first failure or `maxSchedules`.
    /// `name` heads the line a crash prints (see `CrashReport`).
    func explore(bound: Int = Explorer.defaultBound, maxSchedules: Int = 1_000_000, replay: String? = nil,
                 name: String = "a scenario", _ make: () -> ScenarioRun) -> Exploration {
        let start = Date()
        CrashReport.installOnce()
        // The thread-specific key is created once per process, by a compare-exchange (a
        // schedule point): create it now, so that no scenario's first run takes that step and
        // every run offers the same decisions.
        _ = ThreadState.current
        SchedulePoints.install(self)
        defer {
            SchedulePoints.install(nil)
            CrashReport.end()
            monitor.lock()
            exploringThread = nil
            monitor.unlock()
        }
        // A choice string is "b<bound>:<choices>" (as printed), or just the choices (with `bound`).
        var bound = bound, replayChoices = replay.map { Substring($0) }
        if let string = replayChoices, string.hasPrefix("b"), let colon = string.firstIndex(of: ":"),
           let replayBound = Int(string[string.index(after: string.startIndex)..<colon]) {
            bound = replayBound
            replayChoices = string[string.index(after: colon)...]
        }
        monitor.lock()
        self.bound = bound
        exploringThread = pthread_self()
        path = []
        self.replay = replayChoices.map { $0.split(separator: ",").map { Int($0) ?? -1 } }
        monitor.unlock()
        var schedules = 0
        while true {
            schedules += 1
            CrashReport.begin("Interleavings: \(name): CRASHED in schedule \(schedules); replay: choices \"b\(bound):")
            var message: String?
            let check: () -> String?
            startClocks()
            do {
                var run = make()
                check = run.check
                // `runOnce` takes the threads' closures out of `run`: the jobs then hold the
                // only reference, and each worker releases its own as part of the schedule.
                message = runOnce(&run.threads)
            }
            let checked = check()
            message = message.map { $0 + (checked.map { "; then: " + $0 } ?? "") } ?? checked
            monitor.lock()
            let more = self.replay == nil && advance()
            // Spelled out only for a failure: most schedules pass.
            let spelled = message.map { _ in
                ("b\(bound):" + choices.map(String.init).joined(separator: ","),
                 Self.spell(trace[...]))
            }
            monitor.unlock()
            if let message, let (choiceString, traceString) = spelled {
                return Exploration(schedules: schedules, complete: false,
                                   failure: (message, choiceString, traceString), seconds: Date().timeIntervalSince(start))
            }
            if !more || schedules >= maxSchedules {
                return Exploration(schedules: schedules, complete: !more, failure: nil,
                                   seconds: Date().timeIntervalSince(start))
            }
        }
    }

    /// Moves `path` to the next schedule: drops the exhausted decisions at its end and takes
    /// the next option of the last one left. `false` when every schedule was run.
    private func advance() -> Bool {
        while let last = path.last, last.taken + 1 >= last.options.count { path.removeLast() }
        guard !path.isEmpty else { return false }
        path[path.count - 1].taken += 1
        return true
    }

    /// Runs one schedule of `threads`; a failure found by the scheduler itself (deadlock,
    /// lost wakeup, livelock, hang, a scenario that is not deterministic), or `nil`.
    private func runOnce(_ threads: inout [@Sendable () -> Void]) -> String? {
        let count = threads.count
        precondition(count < VectorClock.capacity, "Explorer: at most \(VectorClock.capacity - 1) threads (the happens-before check's clocks)")
        monitor.lock()
        for index in 0..<max(workers, count) where index >= workers || lost.contains(index) {
            startWorker(index)
        }
        workers = max(workers, count)
        lost = []
        status = Array(repeating: .runnable, count: count)
        jobs = threads + Array(repeating: nil, count: workers - count)
        // The jobs hold the only references now: what a thread's closure captured is
        // released by that thread when its closure is, within the schedule.
        threads = []
        freeRun = false
        lockOwners = [:]
        // Each worker starts with what the exploring thread did (its `make()`), as a spawn.
        while clocks.count < count + 1 { clocks.append(VectorClock()) }
        for worker in 0..<count {
            clocks[worker + 1] = clocks[0]
            clocks[worker + 1].tick(worker + 1)
        }
        clocks[0].tick(0)
        finished = 0
        preemptions = 0
        steps = 0
        trace = []
        choices = []
        failure = nil
        // (`deferredWork` keeps what `make()` deferred: a timer armed before the threads start.)
        nextDecision = 0
        running = decide(current: nil)
        if let running { monitor.wake(worker: running) } else { monitor.wakeAll() }
        var deadline = Date().addingTimeInterval(20)
        while finished < count {
            if !monitor.waitForRunEnd(until: deadline) && finished < count {
                if freeRun {
                    // The threads are stuck outside the explorer's control: nothing can continue.
                    fatalError("Explorer: threads still stuck 20 s after a free run began; trace: "
                               + Self.spell(trace.suffix(50)))
                }
                abandon("hang: a thread blocked outside the explorer's control for 20 s")
                deadline = Date().addingTimeInterval(20)
            }
        }
        jobs = []
        // The check runs after every thread ended, as after a join.
        for worker in 0..<count { clocks[0].join(clocks[worker + 1]) }
        if let replay, failure == nil, nextDecision < replay.count {
            failure = "replay: the schedule ended after \(nextDecision) of the \(replay.count) choices"
        }
        let result = failure
        let leftovers = deferredWork
        deferredWork = []
        monitor.unlock()
        // Dropped outside the monitor: what they hold (a timer's work, a resolver) may run
        // library code, which asks the handler (`takesDeferredWork`) again.
        withExtendedLifetime(leftovers) {}
        return result
    }

    private func startWorker(_ index: Int) {
        let thread = Thread { [self] in
            pthread_setspecific(Self.workerKey, UnsafeRawPointer(bitPattern: index + 1))
            while true {
                monitor.lock()
                while jobs.count <= index || jobs[index] == nil || (running != index && !freeRun) {
                    monitor.wait(worker: index)
                }
                var job = jobs[index]
                jobs[index] = nil
                monitor.unlock()
                job?()
                // Released here, while the thread still runs: what it captured (promise
                // handles, resolvers) is dropped as part of the scenario, and explored too.
                job = nil
                threadFinished(index)
            }
        }
        thread.name = "Explorer worker \(index)"
        thread.start()
    }

    /// A trace as failures print it: `t0 claim, t1 publish, t0 end`.
    private static func spell(_ trace: ArraySlice<(thread: Int, label: TraceLabel)>) -> String {
        trace.map { "t\($0.thread) \($0.label)" }.joined(separator: ", ")
    }

    // MARK: Deciding (all under `monitor`)

    private func isEnabled(_ thread: Int) -> Bool {
        switch status[thread] {
        case .runnable: return true
        case .waitingForLock(let lock): return lockOwners[lock] == nil
        case .waitingFor(_, let condition): return condition()
        case .finished: return false
        }
    }

    /// Picks the thread to run next after a schedule point of `current` (`nil`: the start);
    /// `nil` if none is enabled.
    private func decide(current: Int?) -> Int? {
        // Most steps: the running thread goes on and the bound allows no preemption, so there is
        // one option and nothing to record (the general path below returns the same). Taken
        // first because this runs at every schedule point (a debug build: building the options
        // below costs more than the rest of a step).
        if let current, preemptions >= bound, isEnabled(current) { return current }
        var enabled: UInt64 = 0
        for thread in 0..<status.count where isEnabled(thread) { enabled |= 1 << UInt64(thread) }
        guard enabled != 0 else { return nil }
        // The running thread first when it can go on (then `options.first` is set).
        var options = Options(first: nil, others: enabled)
        if let current, enabled & (1 << UInt64(current)) != 0 {
            options = Options(first: current, others: preemptions < bound ? enabled & ~(1 << UInt64(current)) : 0)
        }
        var choice = options[0]
        if options.count > 1 {
            if let replay {
                guard nextDecision < replay.count else {
                    abandon("replay: the choices ran out at decision \(nextDecision), which offers \(options)")
                    return nil
                }
                guard options.contains(replay[nextDecision]) else {
                    abandon("replay: decision \(nextDecision) offers \(options), not \(replay[nextDecision])")
                    return nil
                }
                choice = replay[nextDecision]
            } else if nextDecision < path.count {
                guard path[nextDecision].options == options else {
                    abandon("the scenario is not deterministic: decision \(nextDecision) offered \(path[nextDecision].options), now \(options)")
                    return nil
                }
                choice = options[path[nextDecision].taken]
            } else {
                path.append(Decision(options: options, taken: 0))
            }
            nextDecision += 1
            CrashReport.append(choice, first: choices.isEmpty)
            choices.append(choice)
        }
        if options.first != nil && choice != current { preemptions += 1 }
        return choice
    }

    /// The running thread `me` reached a schedule point with `newStatus`: decides who runs
    /// next, and returns once it is `me`'s turn again (or the run went into free run).
    private func yield(_ me: Int, _ newStatus: Status) {
        status[me] = newStatus
        guard let next = decide(current: me) else {
            if !freeRun { deadlock() }
            return
        }
        running = next
        if next != me {
            monitor.wake(worker: next)
            while running != me && !freeRun { monitor.wait(worker: me) }
        }
    }

    private func deadlock() {
        let waits = status.indices.compactMap { thread -> String? in
            switch status[thread] {
            case .waitingForLock: return "t\(thread) waits for a lock"
            case .waitingFor(let what, _): return "t\(thread) waits for \(what) (lost wakeup)"
            case .runnable, .finished: return nil
            }
        }
        abandon("deadlock: no thread can run; " + waits.joined(separator: ", "))
    }

    /// Ends the controlled run: records the failure (the first one), and lets every thread
    /// run on unscheduled.
    private func abandon(_ message: String) {
        if failure == nil { failure = message }
        freeRun = true
        monitor.wakeAll()
    }

    private func threadFinished(_ me: Int) {
        monitor.lock()
        defer { monitor.unlock() }
        status[me] = .finished
        finished += 1
        if freeRun {
            monitor.wakeAll()
            return
        }
        trace.append((me, "end"))
        if let next = decide(current: me) {
            running = next
            monitor.wake(worker: next)
        } else if finished < status.count {
            deadlock()
        }
        if finished == status.count { monitor.wakeRunEnd() }
    }

    // MARK: The schedule points (SchedulePointHandler)

    override func reached(_ label: StaticString) {
        step(.point(label))
    }

    override func reached(_ cell: SharedCell, _ operation: StaticString) {
        step(.cell(cell.name, operation))
    }

    private func step(_ label: TraceLabel) {
        guard let me = Self.currentWorker else { return }
        monitor.lock()
        defer { monitor.unlock() }
        guard !freeRun else { return }
        guard running == me else {
            abandon("explorer: t\(me) reached \(label) while t\(running.map(String.init) ?? "-") was running")
            return
        }
        trace.append((me, label))
        steps += 1
        if steps > maxSteps {
            abandon("livelock: more than \(maxSteps) schedule points in one run")
            return
        }
        yield(me, .runnable)
    }

    override func acquiring(_ lock: ObjectIdentifier) {
        guard let me = Self.currentWorker else { return }
        monitor.lock()
        defer { monitor.unlock() }
        guard !freeRun else { return }
        trace.append((me, "lock"))
        yield(me, .waitingForLock(lock))
        // In free run (the run failed), wait for the owner to release the lock, unless the
        // owner itself waits for a lock (a deadlock) or was parked: then taking the real lock
        // would block for good, so park here for good instead (the worker is replaced) and
        // count as finished.
        while freeRun, let owner = lockOwners[lock] {
            if case .waitingForLock = status[owner] {} else if !lost.contains(owner) {
                monitor.wait(worker: me)
                continue
            }
            lost.insert(me)
            status[me] = .finished
            finished += 1
            monitor.wakeAll()
            while true { monitor.wait(worker: me) }
        }
        status[me] = .runnable
        if !freeRun {
            lockOwners[lock] = me
            if let released = lockClocks[lock] { clocks[me + 1].join(released) }
        }
    }

    override func released(_ lock: ObjectIdentifier) {
        guard Self.currentWorker != nil else { return }
        monitor.lock()
        defer { monitor.unlock() }
        lockOwners[lock] = nil
        if freeRun {
            monitor.wakeAll()
        } else if let me = Self.currentWorker {
            lockClocks[lock] = clocks[me + 1]
            clocks[me + 1].tick(me + 1)
        }
    }

    override func failed(_ message: StaticString) -> Bool {
        guard let me = Self.currentWorker else { return false }
        monitor.lock()
        defer { monitor.unlock() }
        trace.append((me, .text("failed: \(message)")))
        abandon(message.description)
        return true
    }

    override func takesDeferredWork() -> Bool {
        if Self.currentWorker != nil { return true }
        monitor.lock()
        defer { monitor.unlock() }
        return exploringThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    override func deferred(_ work: @escaping @Sendable () -> Void) {
        monitor.lock()
        defer { monitor.unlock() }
        // Handing work over is a release (as `DispatchQueue.async` is): whoever runs it acquires.
        var clock: VectorClock? = nil
        if let slot = clockSlot() {
            clock = clocks[slot]
            clocks[slot].tick(slot)
        }
        deferredWork.append((work, clock))
    }

    // MARK: The happens-before check (SchedulePointHandler)

    /// A fresh run of the check: clocks for the exploring thread only (the workers get theirs
    /// when the run starts); every cell's record is stale from now on.
    private func startClocks() {
        monitor.lock()
        defer { monitor.unlock() }
        run += 1
        clocks = [VectorClock()]
        clocks[0].tick(0)
        lockClocks = [:]
    }

    /// Under `monitor`: the calling thread's clock slot, or `nil` if the check does not follow
    /// it (a thread the explorer does not run, or a run that failed and runs free).
    private func clockSlot() -> Int? {
        guard !freeRun else { return nil }
        if let worker = Self.currentWorker { return worker < clocks.count - 1 ? worker + 1 : nil }
        if let exploringThread, pthread_equal(exploringThread, pthread_self()) != 0 { return 0 }
        return nil
    }

    /// Under `monitor`: forgets a record of an earlier run (a cell that outlives runs, as a
    /// static one does).
    private func refresh(_ cell: SharedCell) {
        guard cell.run != run else { return }
        cell.run = run
        cell.releaseClock = VectorClock()
        cell.writer = -1
        cell.writeEpoch = 0
        cell.reads = VectorClock()
    }

    override func synchronized(_ cell: SharedCell, _ access: AtomicAccess) {
        monitor.lock()
        defer { monitor.unlock() }
        guard let slot = clockSlot() else { return }
        refresh(cell)
        if access.acquires { clocks[slot].join(cell.releaseClock) }
        if access.releases {
            // A store heads a new release sequence; a read-modify-write continues the one it
            // read from (C11's release sequences, as of C++20).
            if access.isPlainStore {
                cell.releaseClock = clocks[slot]
            } else {
                cell.releaseClock.join(clocks[slot])
            }
            clocks[slot].tick(slot)
        } else if access.isPlainStore {
            cell.releaseClock = VectorClock()  // a relaxed store ends the release sequence
        }
    }

    override func accessed(_ cell: SharedCell, writing: Bool) {
        monitor.lock()
        defer { monitor.unlock() }
        guard let slot = clockSlot() else { return }
        refresh(cell)
        let clock = clocks[slot]
        var race: String? = nil
        if cell.writer >= 0, cell.writer != slot, clock[cell.writer] < cell.writeEpoch {
            race = "\(Self.name(slot)) \(writing ? "writes" : "reads") \(cell.name), last written by \(Self.name(cell.writer))"
        } else if writing, let reader = cell.reads.firstSlot(laterThan: clock, excluding: slot) {
            race = "\(Self.name(slot)) writes \(cell.name), read by \(Self.name(reader))"
        }
        if let race {
            let message = "memory ordering: \(race), with no acquire/release (or lock) between the two accesses: a data race"
            if let me = Self.currentWorker { trace.append((me, .text("race on \(cell.name)"))) }
            abandon(message)
            return
        }
        if writing {
            cell.writer = slot
            cell.writeEpoch = clock[slot]
            cell.reads = VectorClock()
        } else {
            cell.reads[slot] = clock[slot]
        }
    }

    /// A clock slot as failures name it.
    private static func name(_ slot: Int) -> String {
        slot == 0 ? "the scenario's setup" : "t\(slot - 1)"
    }

    // MARK: For scenarios

    /// On a scenario thread: waits until work was deferred (a timer armed, `when`'s assembly
    /// dispatched) or `giveUp` holds (evaluated as a wait's condition), then runs the first
    /// such work. `false` if it gave up (or the run was abandoned).
    @discardableResult
    static func runDeferredWork(before: () -> Void = {}, orGiveUpWhen giveUp: @escaping () -> Bool) -> Bool {
        let explorer = shared
        // The condition runs under the monitor (at each decision): it reads the field directly.
        wait(for: "deferred work") { !explorer.deferredWork.isEmpty || giveUp() }
        explorer.monitor.lock()
        let deferred = explorer.deferredWork.isEmpty ? nil : explorer.deferredWork.removeFirst()
        if let clock = deferred?.clock, let slot = explorer.clockSlot() { explorer.clocks[slot].join(clock) }
        explorer.monitor.unlock()
        let work = deferred?.work
        guard let work else { return false }
        before()
        work()
        return true
    }

    /// On a scenario thread: blocks until `condition` holds (a schedule point; `condition` is
    /// evaluated at decisions, any number of times, so it must not reach a schedule point
    /// itself and must have no side effect). `false` if
    /// the run was abandoned first (a deadlock: nothing could make it hold, a lost wakeup).
    @discardableResult
    static func wait(for what: String, until condition: @escaping () -> Bool) -> Bool {
        shared.waitOnScenarioThread(what, condition)
    }

    private func waitOnScenarioThread(_ what: String, _ condition: @escaping () -> Bool) -> Bool {
        guard let me = Self.currentWorker else { preconditionFailure("Explorer.wait outside a scenario thread") }
        monitor.lock()
        defer { monitor.unlock() }
        if freeRun { return condition() }
        trace.append((me, .text("wait for \(what)")))
        yield(me, .waitingFor(what, condition))
        status[me] = .runnable
        return !freeRun || condition()
    }
}

/// A step of the trace: a schedule point's label, kept as given (most steps; spelled out only
/// for a failure), or text.
private enum TraceLabel: ExpressibleByStringLiteral, CustomStringConvertible {
    case point(StaticString)
    /// A shared cell's operation: `state` and `cas` spell `state.cas`.
    case cell(StaticString, StaticString)
    case text(String)

    init(stringLiteral value: StaticString) { self = .point(value) }

    var description: String {
        switch self {
        case .point(let label): return label.description
        case .cell(let cell, let operation): return "\(cell).\(operation)"
        case .text(let text): return text
        }
    }
}

/// The explorer's one lock and its conditions: one per worker, one for the exploring thread. A
/// hand-over wakes only the worker it names: a single condition's broadcast woke every waiting
/// thread at each hand-over, and all but one went back to sleep (most of a step's time went to
/// the kernel's thread switches).
///
/// A worker's condition is broadcast, not signalled: a worker parked for good by a failed run
/// (`Explorer.acquiring`) keeps waiting on the condition of its number, which its replacement
/// uses too.
///
/// Safety of `@unchecked Sendable`: `conditions` is only accessed under `mutex`; the mutex and
/// the conditions are allocated once and never freed (the explorer lives as long as the process).
private final class Monitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let runEnd = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var conditions: [UnsafeMutablePointer<pthread_cond_t>] = []

    init() {
        precondition(pthread_mutex_init(mutex, nil) == 0 && pthread_cond_init(runEnd, nil) == 0)
    }

    func lock() { precondition(pthread_mutex_lock(mutex) == 0) }
    func unlock() { precondition(pthread_mutex_unlock(mutex) == 0) }

    /// Under the lock: worker `index`'s condition, made on first use.
    private func condition(_ index: Int) -> UnsafeMutablePointer<pthread_cond_t> {
        while conditions.count <= index {
            let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
            precondition(pthread_cond_init(condition, nil) == 0)
            conditions.append(condition)
        }
        return conditions[index]
    }

    /// Under the lock: waits until worker `index` is woken (or spuriously; callers loop).
    func wait(worker index: Int) { precondition(pthread_cond_wait(condition(index), mutex) == 0) }

    /// Under the lock: wakes worker `index`.
    func wake(worker index: Int) { pthread_cond_broadcast(condition(index)) }

    /// Under the lock: waits until the run's end is signalled or `deadline`; `false` at the deadline.
    func waitForRunEnd(until deadline: Date) -> Bool {
        let seconds = deadline.timeIntervalSince1970
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        let result = pthread_cond_timedwait(runEnd, mutex, &time)
        precondition(result == 0 || result == ETIMEDOUT, "Explorer: pthread_cond_timedwait failed (\(result))")
        return result == 0
    }

    /// Under the lock: wakes the exploring thread.
    func wakeRunEnd() { pthread_cond_broadcast(runEnd) }

    /// Under the lock: wakes every worker and the exploring thread.
    func wakeAll() {
        for condition in conditions { pthread_cond_broadcast(condition) }
        pthread_cond_broadcast(runEnd)
    }
}
#endif
