// Tomorrowland's side of the async scenarios (d)–(h): awaiting promises, promises running
// async code, and Swift concurrency on PromiseContext executors.

import Dispatch
import ScenarioKit
import TomorrowlandAsync

/// The Tomorrowland scenarios that need the async bridge.
let tomorrowlandAsyncScenarios: [Scenario] = [
    Scenario("d", "Tomorrowland", "try await value of an already-fulfilled promise", async: { n in
        let promise = StdPromise<Int>(fulfilled: 1)
        for _ in 0..<n { tally &+= try! await promise.value }
        return checkTally(n)
    }),
    Scenario("e-hop", "Tomorrowland", "try await value of a pending promise fulfilled from DispatchQueue.global().async", async: { n in
        for i in 0..<n {
            let (promise, resolver) = StdPromise<Int>.makeWithResolver()
            DispatchQueue.global().async { resolver.fulfill(with: i) }
            tally &+= try! await promise.value
        }
        return checkTally(expectedTally(n))
    }),
    Scenario("f", "Tomorrowland", "try await StdPromise { await trivial() }.value", async: { n in
        for i in 0..<n { tally &+= try! await StdPromise<Int> { await trivialAsync(i) }.value }
        return checkTally(expectedTally(n))
    }),
    Scenario("g-task", "Tomorrowland", "await an actor on PromiseContext.queue(q).serialExecutor from a Task", async: { n in
        let actor = QueueCounter(benchmarkQueueExecutor)
        for i in 0..<n { tally &+= await actor.echo(i) }
        return checkTally(expectedTally(n))
    }),
    Scenario("g-actor", "Tomorrowland", "from one actor into another, both on PromiseContext.queue(q).serialExecutor", async: { n in
        tally &+= await QueueCaller(benchmarkQueueExecutor).call(QueueCounter(benchmarkQueueExecutor), n)
        return checkTally(expectedTally(n))
    }),
    Scenario("h", "Tomorrowland", "n child tasks preferring PromiseContext.utility.taskExecutor", async: { n in
        let executor = PromiseContext.utility.taskExecutor!
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<n { group.addTask(executorPreference: executor) { blackHole(i) } }
        }
        return n
    }),
]

/// A trivial non-isolated async function that returns a value (as in the peers' (d) and (f)).
@inline(never)
nonisolated func trivialAsync(_ value: Int) async -> Int { value }

/// The serial queue behind the (g) actors, and its executor (the queue lives forever).
let benchmarkQueue = DispatchQueue(label: "Benchmarks.g")
let benchmarkQueueExecutor = PromiseContext.queue(benchmarkQueue).serialExecutor!

/// An actor whose executor is a dispatch queue's, through PromiseContext.
actor QueueCounter {
    let executor: any SerialExecutor
    init(_ executor: any SerialExecutor) { self.executor = executor }
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    func echo(_ value: Int) -> Int { value }
}

/// An actor on the same queue calling into another.
actor QueueCaller {
    let executor: any SerialExecutor
    init(_ executor: any SerialExecutor) { self.executor = executor }
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    func call(_ other: QueueCounter, _ n: Int) async -> Int {
        var sum = 0
        for i in 0..<n { sum &+= await other.echo(i) }
        return sum
    }
}
