// The minimal serial executor over a DispatchQueue a user would write by hand: the
// "plain Dispatch" peer of (g).

import Dispatch
import ScenarioKit

/// Runs each job with `queue.async`, isolated to this executor only (no task executor).
final class PlainQueueExecutor: SerialExecutor, @unchecked Sendable {  // immutable
    let queue: DispatchQueue
    init(_ queue: DispatchQueue) { self.queue = queue }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
}

let plainQueueExecutor = PlainQueueExecutor(DispatchQueue(label: "Benchmarks.g.plain"))

/// An actor on the plain queue executor.
actor PlainQueueCounter {
    nonisolated var unownedExecutor: UnownedSerialExecutor { plainQueueExecutor.asUnownedSerialExecutor() }
    func echo(_ value: Int) -> Int { value }
}

/// An actor on the plain queue executor calling into another.
actor PlainQueueCaller {
    nonisolated var unownedExecutor: UnownedSerialExecutor { plainQueueExecutor.asUnownedSerialExecutor() }
    func call(_ other: PlainQueueCounter, _ n: Int) async -> Int {
        var sum = 0
        for i in 0..<n { sum &+= await other.echo(i) }
        return sum
    }
}

let dispatchExecutorScenarios: [Scenario] = [
    Scenario("g-task", "Dispatch-executor", "await an actor on a hand-written DispatchQueue SerialExecutor from a Task", async: { n in
        let actor = PlainQueueCounter()
        for i in 0..<n { tally &+= await actor.echo(i) }
        return checkTally(expectedTally(n))
    }),
    Scenario("g-actor", "Dispatch-executor", "from one actor into another, both on that executor", async: { n in
        tally &+= await PlainQueueCaller().call(PlainQueueCounter(), n)
        return checkTally(expectedTally(n))
    }),
]
