import Foundation
import Dispatch
import Testing
import TomorrowlandAsync

// MARK: - 2. Contexts as executors, await promise.value

let accountsQueue = makeQueue("accounts")
let accountsExecutor = PromiseContext.queue(accountsQueue).serialExecutor!

actor Accounts {
    var balances: [String: Int] = [:]
    nonisolated var unownedExecutor: UnownedSerialExecutor { accountsExecutor.asUnownedSerialExecutor() }
    func deposit(_ amount: Int, to account: String) { balances[account, default: 0] += amount }
    func balance(of account: String) -> Int { balances[account, default: 0] }
    func whereAmI() -> String { currentTag() }

    func awaitLater(_ p: StdPromise<Int>) async throws -> [String] {
        let before = currentTag()
        let v = try await p.value
        return [before, currentTag(), "\(v)"]
    }

    func preferQueue(_ q: DispatchQueue) async -> [String] {
        let inside = await withTaskExecutorPreference(PromiseContext.queue(q).taskExecutor) { @concurrent in
            currentTag()
        }
        return [inside, currentTag()]
    }
}

/// Synchronous: enters the actor without a hop, so it must already run on its executor.
func depositAssumingIsolated(_ accounts: Accounts) -> Int {
    accounts.assumeIsolated { a in
        a.deposit(2, to: "x")
        return a.balance(of: "x")
    }
}

let mainExecutor = PromiseContext.main.serialExecutor!
actor MainQueueActor {
    nonisolated var unownedExecutor: UnownedSerialExecutor { mainExecutor.asUnownedSerialExecutor() }
    func check() -> String {
        MainActor.assumeIsolated { currentTag() }
    }
}

@Suite(.serialized, .timeLimit(.minutes(1)))
struct ExecutorTests {

    @Test("taskExecutor is non-nil for every context except .immediate and .nowOr")
    func taskExecutorAvailability() {
        let q = DispatchQueue(label: "x")
        let oq = OperationQueue()
        oq.maxConcurrentOperationCount = 1
        let withExecutor: [PromiseContext] = [.main, .background, .utility, .default, .userInitiated, .userInteractive,
                                               .queue(q), .operationQueue(oq), .auto]
        for c in withExecutor { #expect(c.taskExecutor != nil, "\(c)") }
        #expect(PromiseContext.immediate.taskExecutor == nil)
        #expect(PromiseContext.nowOr(.utility).taskExecutor == nil)
        #expect(PromiseContext.nowOr(.main).taskExecutor == nil)
    }

    @Test("an actor whose executor is a context's queue runs its methods on that queue; the same queue yields the same executor")
    func actorOnPromiseQueue() async {
        let accounts = Accounts()
        await accounts.deposit(5, to: "a")
        #expect(await accounts.balance(of: "a") == 5)
        #expect(await accounts.whereAmI() == "accounts")
        let again = PromiseContext.queue(accountsQueue).serialExecutor!
        let same = ObjectIdentifier(again as AnyObject) == ObjectIdentifier(accountsExecutor as AnyObject)
        #expect(same)
    }

    @Test("a .queue(q) callback can assumeIsolated into the actor on q (exit test: a wrong executor crashes)")
    func queueCallbackAssumeIsolated() async {
        await #expect(processExitsWith: .success) {
            let accounts = Accounts()
            let done = StdPromise<Int>(fulfilled: 10).map(on: .queue(accountsQueue)) { amount in
                accounts.assumeIsolated { accounts in
                    accounts.deposit(amount, to: "savings")
                    return accounts.balance(of: "savings")
                }
            }
            let v = try await done.value
            if v != 10 { exit(2) }
        }
    }

    @Test("a Task preferring .queue(q).taskExecutor runs isolated to q's serial executor: assumeIsolated into an actor on q (exit test)")
    func taskPreferringQueueIsIsolatedToQueue() async {
        await #expect(processExitsWith: .success) {
            let accounts = Accounts()
            let v = await Task(executorPreference: PromiseContext.queue(accountsQueue).taskExecutor) {
                if currentTag() != "accounts" { exit(3) }
                return depositAssumingIsolated(accounts)
            }.value
            if v != 2 { exit(2) }
        }
    }

    @Test(".main's serial executor is equivalent to the main actor's (exit test)")
    func mainSerialExecutorIsMainActor() async {
        await #expect(processExitsWith: .success) {
            tagMainQueue()
            let tag = await MainQueueActor().check()
            if tag != "main" { exit(4) }
        }
    }

    @Test("Task(executorPreference:) and withTaskExecutorPreference run nonisolated work on the context's queue")
    func preferenceRunsOnQueue() async {
        let q = makeQueue("pref")
        let t = await Task(executorPreference: PromiseContext.queue(q).taskExecutor) { currentTag() }.value
        #expect(t == "pref")
        let w = await withTaskExecutorPreference(PromiseContext.queue(q).taskExecutor) { @concurrent in currentTag() }
        #expect(w == "pref")
        tagMainQueue()
        let m = await withTaskExecutorPreference(PromiseContext.main.taskExecutor) { @concurrent in currentTag() }
        #expect(m == "main")
    }

    @Test("withTaskExecutorPreference from the main actor: closure on the queue, caller back on main")
    @MainActor func preferenceFromMainActor() async {
        tagMainQueue()
        let q = makeQueue("pref")
        let inside = await withTaskExecutorPreference(PromiseContext.queue(q).taskExecutor) { @concurrent in currentTag() }
        #expect(inside == "pref")
        #expect(currentTag() == "main")
    }

    @Test("withTaskExecutorPreference from an actor on a queue: closure on the preferred queue, actor code on its own")
    func preferenceFromActor() async {
        let q = makeQueue("pref")
        #expect(await Accounts().preferQueue(q) == ["pref", "accounts"])
    }

    @Test("Promise(on: .queue(q)) { async } runs its nonisolated operation on q")
    func promiseOnContextRunsThere() async throws {
        let q = makeQueue("ctx")
        let p = StdPromise<[String]>(on: .queue(q)) {
            let a = currentTag()
            await Task.yield()
            return [a, currentTag()]
        }
        #expect(try await p.value == ["ctx", "ctx"])
    }
}

@Suite(.serialized, .timeLimit(.minutes(1)))
struct AwaitTests {

    @Test("awaiting an already-resolved promise does not suspend (@MainActor: an enqueued main-actor job has not run)")
    @MainActor func resolvedDoesNotSuspend() async throws {
        let ran = Flag()
        let p = StdPromise<Int>(fulfilled: 1)
        let r = Promise<Int, String>(rejected: "no")
        Task { @MainActor in ran.set() }
        let v = try await p.value
        let rr = await r.resolvedResult
        #expect(!ran.isSet)
        #expect(v == 1)
        #expect(rr == .error("no"))
    }

    @Test("@MainActor: awaiting a promise resolved later resumes on the main queue")
    @MainActor func laterFromMainActor() async throws {
        tagMainQueue()
        let (p, r) = StdPromise<Int>.makeWithResolver()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) { r.fulfill(with: 8) }
        let v = try await p.value
        #expect(v == 8)
        #expect(currentTag() == "main")
    }

    @Test("actor: awaiting a promise resolved later (on another queue) resumes on the actor's queue")
    func laterFromActor() async throws {
        let (p, r) = StdPromise<Int>.makeWithResolver()
        let other = makeQueue("other")
        other.asyncAfter(deadline: .now() + .milliseconds(30)) { r.fulfill(with: 4) }
        #expect(try await Accounts().awaitLater(p) == ["accounts", "accounts", "4"])
    }

    @Test("value throws the error of a rejected promise, CancellationError for a cancelled one; resolvedResult for any error type")
    func outcomes() async {
        let (p, r) = StdPromise<Int>.makeWithResolver()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { r.reject(with: TestError(code: 7)) }
        await #expect(throws: TestError(code: 7)) { try await p.value }
        let (c, cr) = StdPromise<Int>.makeWithResolver()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { cr.cancel() }
        await #expect(throws: CancellationError.self) { try await c.value }
        #expect(await c.resolvedResult.isCancelled)
        let (s, sr) = Promise<Int, String>.makeWithResolver()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) { sr.reject(with: "bad") }
        #expect(await s.resolvedResult == .error("bad"))
    }

    @Test("a promise whose resolver is dropped is cancelled: the await resumes with CancellationError")
    func droppedResolver() async {
        let p: StdPromise<Int> = {
            let (p, r) = StdPromise<Int>.makeWithResolver()
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) { _ = r }
            return p
        }()
        await #expect(throws: CancellationError.self) { try await p.value }
    }

    @Test("two Tasks await one promise: cancelling one does not ask the work to stop, cancelling both does")
    func sharedObservers() async throws {
        let asked = Flag()
        let (p, r) = StdPromise<Int>.makeWithResolver()
        r.onRequestCancel(on: .immediate) { r in asked.set(); r.cancel() }
        let a = Task { try await p.value }
        let b = Task { try await p.value }
        try await Task.sleep(for: .milliseconds(100))
        a.cancel()
        try await Task.sleep(for: .milliseconds(200))
        #expect(!asked.isSet)
        #expect(p.result == nil)
        b.cancel()
        #expect(await eventually { asked.isSet })
        await #expect(throws: CancellationError.self) { try await a.value }
        await #expect(throws: CancellationError.self) { try await b.value }
    }

    @Test("work that ignores cancel requests: the cancelled Task still receives the value")
    func ignoredCancelDeliversValue() async throws {
        let (p, r) = StdPromise<Int>.makeWithResolver()
        let t = Task { try await p.value }
        try await Task.sleep(for: .milliseconds(50))
        t.cancel()
        try await Task.sleep(for: .milliseconds(50))
        r.fulfill(with: 99)
        #expect(try await t.value == 99)
    }

    @Test("value(onTaskCancel: .stopWaiting) throws at once; the work is still asked to stop")
    func stopWaiting() async throws {
        let asked = Flag()
        let (p, r) = StdPromise<Int>.makeWithResolver()
        r.onRequestCancel(on: .immediate) { _ in asked.set() }  // asked, but does not resolve
        let t = Task { try await p.value(onTaskCancel: .stopWaiting) }
        let t2 = Task { await p.resolvedResult(onTaskCancel: .stopWaiting) }
        try await Task.sleep(for: .milliseconds(50))
        t.cancel()
        t2.cancel()
        await #expect(throws: CancellationError.self) { try await t.value }
        #expect(await t2.value.isCancelled)
        #expect(p.result == nil)
        #expect(await eventually { asked.isSet })
        withExtendedLifetime(r) {}
    }
}
