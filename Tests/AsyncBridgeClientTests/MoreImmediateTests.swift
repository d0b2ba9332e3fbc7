import Foundation
import Dispatch
import Testing
import TomorrowlandAsync

// MARK: - 1b. More on Promise(on: .immediate)

let gatedQueue = makeQueue("gated")
let gatedExecutor = PromiseContext.queue(gatedQueue).serialExecutor!

/// A global actor whose executor is a promise queue the test can hold up.
@globalActor actor GatedActor {
    static let shared = GatedActor()
    nonisolated var unownedExecutor: UnownedSerialExecutor { gatedExecutor.asUnownedSerialExecutor() }
}

/// Called from a main-queue block: a nonisolated synchronous function, so the operation is nonisolated.
nonisolated func startNonisolated(_ log: Log, _ gate: Gate) -> StdPromise<Int> {
    let p = StdPromise<Int>(on: .immediate) {
        log.add("start:\(currentTag())")
        await gate.wait()
        return 9
    }
    log.add("init returned")
    return p
}

let relayQueue = makeQueue("relay")
let relayExecutor = PromiseContext.queue(relayQueue).serialExecutor!

actor Relay {
    nonisolated var unownedExecutor: UnownedSerialExecutor { relayExecutor.asUnownedSerialExecutor() }
    func startPreferring(_ q: DispatchQueue, _ gate: Gate, _ log: Log) -> StdPromise<Int> {
        let p = StdPromise<Int>(on: .immediate, executorPreference: PromiseContext.queue(q).taskExecutor) {
            log.add("start:\(currentTag())")
            await gate.wait()
            log.add("resumed:\(currentTag())")
            return 2
        }
        log.add("init returned")
        return p
    }
}

@Suite(.serialized, .timeLimit(.minutes(1)))
struct MoreImmediateTests {

    @Test("main queue block calling a nonisolated helper: the operation starts during the call, on the main queue")
    func mainQueueNonisolatedHelper() async throws {
        tagMainQueue()
        let log = Log()
        let gate = Gate()
        let p: StdPromise<Int> = await withCheckedContinuation { c in
            DispatchQueue.main.async { c.resume(returning: startNonisolated(log, gate)) }
        }
        #expect(log.entries == ["start:main", "init returned"])
        gate.open()
        #expect(try await p.value == 9)
    }

    @Test("main queue block, operation using main-actor state: has begun when init returns")
    func mainQueueBlockMainActorState() async throws {
        tagMainQueue()
        let gate = Gate()
        let result: (StdPromise<Int>, Bool, [String]) = await withCheckedContinuation { c in
            DispatchQueue.main.async {
                let screen = Screen()
                let p = StdPromise<Int>(on: .immediate) {
                    screen.isLoading = true
                    screen.tags.append(currentTag())
                    await gate.wait()
                    return 1
                }
                c.resume(returning: (p, screen.isLoading, screen.tags))
            }
        }
        // Known limit (the Swift runtime's, on Linux; Threading.md): see mainQueueBlockKnownLimit.
        withKnownIssue(mainQueueBlockKnownLimit, isIntermittent: true) {
            #expect(result.1)
            #expect(result.2 == ["main"])
        }
        gate.open()
        #expect(try await result.0.value == 1)
    }

    @Test("two calls one after the other start their work in call order, both during the call")
    func callOrder() async throws {
        let log = Log()
        let gate = Gate()
        let ps: [StdPromise<Int>] = await onPlainThread {
            let a = StdPromise<Int>(on: .immediate) { log.add("a"); await gate.wait(); return 1 }
            let b = StdPromise<Int>(on: .immediate) { log.add("b"); await gate.wait(); return 2 }
            log.add("returned")
            return [a, b]
        }
        #expect(log.entries == ["a", "b", "returned"])
        gate.open()
        #expect(try await ps[0].value + ps[1].value == 3)
    }

    @Test("awaiting already-resolved promises (with .immediate callbacks) inside the operation: the wrapper resolves before the call returns")
    func resolvedChainResolvesInCall() async throws {
        let r: Int? = await onPlainThread {
            StdPromise<Int>(on: .immediate) {
                let a = try await StdPromise<Int>(fulfilled: 1).map(on: .immediate) { $0 + 1 }.value
                let b = try await StdPromise<Int>(fulfilled: 10).value
                return a + b
            }.result?.value
        }
        #expect(r == 12)
    }

    @Test("@MainActor: awaiting resolved promises inside the operation: resolved before the call returns")
    @MainActor func resolvedChainResolvesInCallMainActor() async throws {
        let screen = Screen()
        let p = StdPromise<Int>(on: .immediate) {
            let v = try await StdPromise<Int>(fulfilled: 4).value
            screen.tags.append("got \(v)")
            return v
        }
        #expect(screen.tags == ["got 4"])
        #expect(p.result?.value == 4)
    }

    @Test("executorPreference from an actor method (operation not using self): starts in the call on the actor's queue, resumes on the preferred queue")
    func executorPreferenceFromActor() async throws {
        let preferred = makeQueue("relay-pref")
        let log = Log()
        let gate = Gate()
        let p = await Relay().startPreferring(preferred, gate, log)
        #expect(log.entries == ["start:relay", "init returned"])
        gate.open()
        #expect(try await p.value == 2)
        #expect(log.entries == ["start:relay", "init returned", "resumed:relay-pref"])
    }

    @Test("an operation isolated to another actor: a requestCancel() before it starts reaches it as Task cancellation")
    func cancelBeforeOperationStarts() async throws {
        let hold = DispatchSemaphore(value: 0)
        let held = DispatchSemaphore(value: 0)
        gatedQueue.async { held.signal(); hold.wait() }
        held.wait()
        let p: StdPromise<[String]> = await onPlainThread {
            let p = StdPromise<[String]>(on: .immediate) { @GatedActor in
                let first = "cancelled at start: \(Task.isCancelled)"
                return [first, currentTag()]
            }
            p.requestCancel()
            hold.signal()
            return p
        }
        let r = await p.resolvedResult
        // the Task was cancelled before its first statement: it must see it (the promise may take
        // the returned value or be cancelled, but the operation must have seen the cancellation)
        if let v = r.value {
            #expect(v == ["cancelled at start: true", "gated"])
        } else {
            #expect(r.isCancelled)
        }
    }

    @Test("@MainActor with .auto: the operation keeps the caller's actor but does not start in the call")
    @MainActor func autoDoesNotStartInCall() async throws {
        tagMainQueue()
        let screen = Screen()
        let p = StdPromise<Int>(on: .auto) {
            screen.tags.append(currentTag())
            return 1
        }
        #expect(screen.tags.isEmpty)
        #expect(try await p.value == 1)
        #expect(screen.tags == ["main"])
    }

    @Test("Promise(on: .main) { async }: the operation runs on the main queue (plain-thread caller)")
    func onMainRunsOnMain() async throws {
        tagMainQueue()
        let p: StdPromise<String> = await onPlainThread {
            StdPromise<String>(on: .main) {
                let a = currentTag()
                await Task.yield()
                return a + "," + currentTag()
            }
        }
        #expect(try await p.value == "main,main")
    }

    @Test("executorPreference form: task-locals, given priority and typed errors as without it")
    func executorPreferenceLocalsPriorityErrors() async throws {
        let q = makeQueue("pref2")
        let got = try await Locals.$requestID.withValue("r-7") {
            try await StdPromise<[String]>(on: .immediate, executorPreference: PromiseContext.queue(q).taskExecutor, priority: .low) {
                await Task.yield()
                return [Locals.requestID, "\(Task.basePriority == .low)", currentTag()]
            }.value
        }
        #expect(Array(got.prefix(2)) == ["r-7", "true"])
        // Known limit: see yieldFirstKnownLimit.
        withKnownIssue(yieldFirstKnownLimit, isIntermittent: true) {
            #expect(got.last == "pref2")
        }
        let typed = Promise<Int, LengthError>(on: .immediate, executorPreference: PromiseContext.queue(q).taskExecutor) { () async throws(LengthError) -> Int in
            await Task.yield()
            throw .tooLong
        }
        #expect(await typed.resolvedResult == .error(.tooLong))
    }

    @Test("executorPreference: when the first suspension is Task.yield(), the operation resumes on the preferred queue")
    func executorPreferenceAfterYield() async throws {
        let q = makeQueue("pref3")
        let caller = makeQueue("caller")
        let p: StdPromise<[String]> = await onPlainThread {
            caller.sync {
                StdPromise<[String]>(on: .immediate, executorPreference: PromiseContext.queue(q).taskExecutor) {
                    let a = currentTag()
                    await Task.yield()
                    return [a, currentTag()]
                }
            }
        }
        let got = try await p.value
        #expect(got.first == "caller")
        // Known limit: see yieldFirstKnownLimit.
        withKnownIssue(yieldFirstKnownLimit, isIntermittent: true) {
            #expect(got.last == "pref3")
        }
    }

    @Test("cancelled Task: awaiting an already-resolved promise still returns its value; awaiting a pending one asks it to cancel")
    func cancelledTaskAwaits() async throws {
        let asked = Flag()
        let (pending, r) = StdPromise<Int>.makeWithResolver()
        r.onRequestCancel(on: .immediate) { r in asked.set(); r.cancel() }
        let t = Task { () -> [String] in
            withUnsafeCurrentTask { $0?.cancel() }
            let v = try await StdPromise<Int>(fulfilled: 5).value
            do {
                _ = try await pending.value
                return ["\(v)", "pending returned"]
            } catch {
                return ["\(v)", "\(type(of: error))"]
            }
        }
        #expect(try await t.value == ["5", "CancellationError"])
        #expect(asked.isSet)
    }
}
