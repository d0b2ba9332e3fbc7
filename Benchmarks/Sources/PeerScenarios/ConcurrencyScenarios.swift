// Raw Swift concurrency, NIO's async bridge and plain Dispatch: the peers of the async
// scenarios (d)–(h).

import Dispatch
import NIOCore
import NIOPosix
import ScenarioKit

let concurrencyScenarios: [Scenario] = [
    // (d) awaiting something that already has its value.
    Scenario("d", "async-func", "await a trivial non-isolated async function", async: { n in
        for _ in 0..<n { tally &+= await trivialAsync(1) }
        return checkTally(n)
    }),
    Scenario("d", "NIO-get", "await an already-succeeded EventLoopFuture (.get())", async: { n in
        let future = posixLoop.makeSucceededFuture(1)
        for _ in 0..<n { tally &+= try! await future.get() }
        return checkTally(n)
    }),
    // (e) awaiting something that is resumed after the await suspended.
    Scenario("e", "cancellable-unsafe", "withTaskCancellationHandler + withUnsafeContinuation, resumed in the body", async: { n in
        for i in 0..<n {
            tally &+= await withTaskCancellationHandler {
                await withUnsafeContinuation { $0.resume(returning: i) }
            } onCancel: {}
        }
        return checked(n)
    }),
    Scenario("e", "unsafe", "withUnsafeContinuation, resumed in the body", async: { n in
        for i in 0..<n { tally &+= await withUnsafeContinuation { $0.resume(returning: i) } }
        return checked(n)
    }),
    Scenario("e", "checked", "withCheckedContinuation, resumed in the body", async: { n in
        for i in 0..<n { tally &+= await withCheckedContinuation { $0.resume(returning: i) } }
        return checked(n)
    }),
    Scenario("e-hop", "cancellable-unsafe", "same, resumed from DispatchQueue.global().async", async: { n in
        for i in 0..<n {
            tally &+= await withTaskCancellationHandler {
                await withUnsafeContinuation { continuation in
                    DispatchQueue.global().async { continuation.resume(returning: i) }
                }
            } onCancel: {}
        }
        return checked(n)
    }),
    Scenario("e-hop", "NIO-get", "await a pending EventLoopFuture succeeded by the loop (.get())", async: { n in
        for i in 0..<n {
            let promise = posixLoop.makePromise(of: Int.self)
            posixLoop.execute { promise.succeed(i) }
            tally &+= try! await promise.futureResult.get()
        }
        return checked(n)
    }),
    // (f) starting an unstructured task and awaiting its value.
    Scenario("f", "Task", "Task { await trivial() }.value", async: { n in
        for i in 0..<n { tally &+= await Task { await trivialAsync(i) }.value }
        return checked(n)
    }),
    // (f-on) the same task started synchronously in the call (SE-0472).
    Scenario("f-on", "Task.immediate", "Task.immediate { await trivial() }.value", async: { n in
        guard #available(macOS 26.0, *) else { preconditionFailure("Task.immediate needs macOS 26") }
        for i in 0..<n { tally &+= await Task.immediate { await trivialAsync(i) }.value }
        return checked(n)
    }),
    Scenario("f-on-actor", "Task.immediate", "in an actor: Task.immediate { self.base + (await trivial()) }.value", async: { n in
        tally &+= await ImmediateTaskOwner().run(n)
        return checked(n)
    }),
    // (g) calls into an actor.
    Scenario("g-task", "default-actor", "await a default actor's method from a Task", async: { n in
        let actor = DefaultCounter()
        for i in 0..<n { tally &+= await actor.echo(i) }
        return checked(n)
    }),
    Scenario("g-task", "NIO-executor", "await an actor on a NIO event loop's SerialExecutor from a Task", async: { n in
        let actor = LoopCounter(posixLoop)
        for i in 0..<n { tally &+= await actor.echo(i) }
        return checked(n)
    }),
    Scenario("g-actor", "default-actor", "from one default actor into another", async: { n in
        let sum = await DefaultCaller().call(DefaultCounter(), n)
        tally &+= sum
        return checked(n)
    }),
    Scenario("g-actor", "NIO-executor", "from one actor into another, both on the same NIO event loop", async: { n in
        let sum = await LoopCaller(posixLoop).call(LoopCounter(posixLoop), n)
        tally &+= sum
        return checked(n)
    }),
    Scenario("g-many", "default-actor", "16 Tasks calling default actor A, which calls default actor B", async: { n in
        let (relay, counter) = (DefaultRelay(), DefaultCounter())
        return await fromManyTasks(n) { i in await relay.relay(counter, i) }
    }),
    Scenario("g-many", "NIO-executor", "16 Tasks calling actor A, which calls actor B; both on the same NIO event loop", async: { n in
        let (relay, counter) = (LoopRelay(posixLoop), LoopCounter(posixLoop))
        return await fromManyTasks(n) { i in await relay.relay(counter, i) }
    }),
    // (h) many small jobs on a thread pool.
    Scenario("h", "Dispatch", "n DispatchQueue.global(qos: .utility).async jobs, then wait", sync: { n in
        let group = DispatchGroup()
        let queue = DispatchQueue.global(qos: .utility)
        for i in 0..<n { queue.async(group: group) { blackHole(i) } }
        group.wait()
        return n
    }),
    Scenario("h", "TaskGroup", "n child tasks on the default global executor", async: { n in
        await withTaskGroup(of: Void.self) { group in
            for i in 0..<n { group.addTask { blackHole(i) } }
        }
        return n
    }),
]

/// Checks and resets `tally` for scenarios whose n steps each added `0 ..< n`.
func checked(_ n: Int) -> Int {
    return checkTally(expectedTally(n))
}

/// A trivial non-isolated async function that returns a value: the floor for awaiting.
@inline(never)
nonisolated func trivialAsync(_ value: Int) async -> Int { value }

/// A default actor.
actor DefaultCounter {
    func echo(_ value: Int) -> Int { value }
}

/// A default actor relaying one call into another.
actor DefaultRelay {
    func relay(_ other: DefaultCounter, _ value: Int) async -> Int { await other.echo(value) }
}

/// An actor on a NIO event loop relaying one call into another on the same loop.
actor LoopRelay {
    let loop: any EventLoop & SerialExecutor
    init(_ loop: any EventLoop) { self.loop = loop as! any EventLoop & SerialExecutor }
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    func relay(_ other: LoopCounter, _ value: Int) async -> Int { await other.echo(value) }
}

/// A default actor calling into another.
actor DefaultCaller {
    func call(_ other: DefaultCounter, _ n: Int) async -> Int {
        var sum = 0
        for i in 0..<n { sum &+= await other.echo(i) }
        return sum
    }
}

/// An actor whose executor is a NIO event loop.
actor LoopCounter {
    let loop: any EventLoop & SerialExecutor
    init(_ loop: any EventLoop) { self.loop = loop as! any EventLoop & SerialExecutor }
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    func echo(_ value: Int) -> Int { value }
}

/// An actor on a NIO event loop calling into another on the same loop.
actor LoopCaller {
    let loop: any EventLoop & SerialExecutor
    init(_ loop: any EventLoop) { self.loop = loop as! any EventLoop & SerialExecutor }
    nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }
    func call(_ other: LoopCounter, _ n: Int) async -> Int {
        var sum = 0
        for i in 0..<n { sum &+= await other.echo(i) }
        return sum
    }
}

/// The peer of (f-on-actor): an actor starting, in its own method, Tasks isolated to it.
actor ImmediateTaskOwner {
    var base = 0

    func run(_ n: Int) async -> Int {
        guard #available(macOS 26.0, *) else { preconditionFailure("Task.immediate needs macOS 26") }
        var sum = 0
        for i in 0..<n { sum &+= await Task.immediate { self.base &+ (await trivialAsync(i)) }.value }
        return sum
    }
}
