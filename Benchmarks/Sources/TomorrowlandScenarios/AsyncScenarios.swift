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
    Scenario("f-on", "Tomorrowland", "try await StdPromise(on: .immediate) { await trivial() }.value (started in the call: Task.immediate)", async: { n in
        for i in 0..<n { tally &+= try! await StdPromise<Int>(on: .immediate) { await trivialAsync(i) }.value }
        return checkTally(expectedTally(n))
    }),
    Scenario("f-on-actor", "Tomorrowland", "in an actor: try await StdPromise(on: .immediate) { self.base + (await trivial()) }.value", async: { n in
        tally &+= await ImmediatePromiseOwner().run(n)
        return checkTally(expectedTally(n))
    }),
    Scenario("f-nowOr", "Tomorrowland", "try await StdPromise(on: .nowOr(.utility)) { await trivial() }.value (nonisolated, no task executor: (f-on) before Task.immediate)", async: { n in
        for i in 0..<n { tally &+= try! await StdPromise<Int>(on: .nowOr(.utility)) { await trivialAsync(i) }.value }
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
    Scenario("g-many", "Tomorrowland", "16 Tasks calling actor A, which calls actor B; both on PromiseContext.queue(q).serialExecutor", async: { n in
        let (relay, counter) = (QueueRelay(benchmarkQueueExecutor), QueueCounter(benchmarkQueueExecutor))
        return await fromManyTasks(n) { i in await relay.relay(counter, i) }
    }),
    Scenario("g-many-kept", "Tomorrowland", "g-many on a queue that only the actors' executor keeps (no queue, context or other reference)", async: { n in
        await callsOnAQueueOnlyItsExecutorKeeps(n)
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

/// An actor on the same queue relaying one call into another.
actor QueueRelay {
    let executor: any SerialExecutor
    init(_ executor: any SerialExecutor) { self.executor = executor }
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    func relay(_ other: QueueCounter, _ value: Int) async -> Int { await other.echo(value) }
}

/// (g-many-kept): a fresh queue whose only owner, once this function's first lines are
/// done, is the serial executor the two actors hold. Nothing else keeps the queue, its
/// context or the executor; the actors go away when the calls are done.
@inline(never)
func callsOnAQueueOnlyItsExecutorKeeps(_ n: Int) async -> Int {
    let (relay, counter) = actorsKeepingOnlyTheExecutor()
    return await fromManyTasks(n) { i in await relay.relay(counter, i) }
}

@inline(never)
func actorsKeepingOnlyTheExecutor() -> (QueueRelay, QueueCounter) {
    let executor = PromiseContext.queue(DispatchQueue(label: "Benchmarks.g-many-kept")).serialExecutor!
    return (QueueRelay(executor), QueueCounter(executor))
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

/// (f-on-actor): an actor creating, in its own method, `.immediate` Task promises whose
/// operations use `self` (isolated to it, started on it in the call).
actor ImmediatePromiseOwner {
    var base = 0

    func run(_ n: Int) async -> Int {
        var sum = 0
        for i in 0..<n { sum &+= try! await StdPromise<Int>(on: .immediate) { self.base &+ (await trivialAsync(i)) }.value }
        return sum
    }
}
