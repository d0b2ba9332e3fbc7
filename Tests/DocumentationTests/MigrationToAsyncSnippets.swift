// MIGRATION.md, section "Adopting async/await gradually": each concept's before (promises) and
// after (Swift concurrency), compiled side by side and run, so both halves stay true.

import Dispatch
import Foundation
import TestSupport
import Testing
import TomorrowlandAsync

/// New async code in the fixtures' user service.
func loadUserAsync(id: Int) async throws -> User {
    try await Task.sleep(nanoseconds: 1_000_000)
    if id < 0 { throw ServiceError.notFound }
    return User(id: id, name: "user\(id)")
}

// MARK: Async → promise, started in the call

@MainActor final class ProfileScreen {
    var isLoading = false

    func reload(id: Int) -> StdPromise<User> {
        StdPromise<User>(on: .immediate) {
            self.isLoading = true  // already true when reload returns
            defer { self.isLoading = false }
            return try await loadUserAsync(id: id)
        }
    }
}

// MARK: Contexts → executors

let balanceQueue = DispatchQueue(label: "balance")

/// Before: state that only code on `balanceQueue` may touch, by convention.
final class BalanceBox: @unchecked Sendable {
    // @unchecked: `value` is only read and written on balanceQueue (see addInterest below).
    var value = 100.0
}

// before: the queue protects the state; every access is a callback on it
func addInterest(_ rate: StdPromise<Double>, to balance: BalanceBox) -> StdPromise<Double> {
    rate.map(on: .queue(balanceQueue)) { rate in
        balance.value *= 1 + rate  // safe only because this runs on balanceQueue
        return balance.value
    }
}

// after: an actor on the same queue; old callbacks and new async code share its isolation
let balanceExecutor = PromiseContext.queue(balanceQueue).serialExecutor!

actor Balance {
    private(set) var amount = 100.0

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        balanceExecutor.asUnownedSerialExecutor()
    }

    func addInterest(_ rate: Double) -> Double {
        amount *= 1 + rate
        return amount
    }
}

func addInterest(_ rate: StdPromise<Double>, to balance: Balance) -> StdPromise<Double> {
    rate.map(on: .queue(balanceQueue)) { rate in
        balance.assumeIsolated { $0.addInterest(rate) }  // no await: already on its executor
    }
}

@Suite("MIGRATION.md: adopting async/await")
struct MigrationToAsyncTests {
    // MARK: then / catch → value

    @Test func thenBecomesAwaitValue() async {
        let log = Log()
        // before
        fetchUser(id: 1).then(on: .main) { user in
            log.append(user.name)
        }.catch(on: .main) { error in
            log.append("error: \(error)")
        }
        #expect(await eventually { log.all.count == 1 })
        // after
        do {
            let user = try await fetchUser(id: 1).value
            log.append(user.name)
        } catch {
            log.append("error: \(error)")
        }
        #expect(log.all == ["user1", "user1"])
    }

    @Test func alwaysBecomesResolvedResult() async {
        let log = Log()
        let (parsed, resolver) = Promise<Int, String>.makeWithResolver()
        resolver.reject(with: "not a number")
        // before
        parsed.always(on: .main) { result in
            log.append("\(result)")
        }
        #expect(await eventually { log.all.count == 1 })
        // after
        switch await parsed.resolvedResult {
        case .value(let count): log.append("count: \(count)")
        case .error(let message): log.append("error: \(message)")
        case .cancelled: log.append("cancelled")
        }
        #expect(log.all == [#"error("not a number")"#, "error: not a number"])
    }

    // MARK: requestCancel → Task.cancel

    @Test func requestCancelBecomesTaskCancel() async {
        // before
        let work = slowCancellableWork()
        work.requestCancel()
        #expect(await eventually { work.result?.isCancelled == true })
        // after
        let task = Task { try await slowCancellableWork().value }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    // MARK: async → promise

    @Test func asyncFunctionHandedToPromiseCode() async {
        let log = Log()
        // before: the promise was built from callbacks
        let before = fetchUser(id: 2)
        // after: the promise runs an async function; requestCancel() cancels its Task
        let after = StdPromise<User> { try await loadUserAsync(id: 2) }
        for promise in [before, after] {
            promise.then(on: .main) { user in log.append(user.name) }
                .catch(on: .main) { error in log.append("error: \(error)") }
        }
        #expect(await eventually { log.all.count == 2 })
        #expect(log.all == ["user2", "user2"])
    }

    @MainActor @Test func immediateStartsTheOperationInTheCall() async throws {
        let screen = ProfileScreen()
        let promise = screen.reload(id: 3)
        #expect(screen.isLoading, "set before reload returned")
        #expect(try await promise.value.name == "user3")
        #expect(!screen.isLoading)
    }

    // MARK: contexts → executors

    @Test func queueContextBecomesAnActorExecutor() async throws {
        let box = BalanceBox()
        #expect(try await addInterest(StdPromise(fulfilled: 0.5), to: box).value == 150)
        let balance = Balance()
        #expect(try await addInterest(StdPromise(fulfilled: 0.5), to: balance).value == 150)
        #expect(await balance.addInterest(1) == 300)
    }

    @Test func contextBecomesATaskExecutorPreference() async throws {
        let data: [UInt8] = [1, 2, 3]
        // before
        let sum = try await StdPromise(fulfilled: data).map(on: .utility) { bytes in
            bytes.reduce(0) { $0 + Int($1) }
        }.value
        // after
        let total = await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) {
            data.reduce(0) { $0 + Int($1) }
        }
        #expect(sum == total)
    }

    // MARK: tokens → invalidations, requestCancelOnInvalidate

    @Test @MainActor func tokensCancelTasksToo() async {
        let log = Log()
        let token = PromiseInvalidationToken()
        // before
        fetchFeed().then(on: .main, token: token) { rows in
            log.append("rows: \(rows.count)")
        }.requestCancelOnInvalidate(token)
        // after
        let refresh = Task {
            try await Task.sleep(for: .seconds(10))
            log.append("refreshed")
        }
        refresh.requestCancelOnInvalidate(token)
        token.invalidate()  // silences the callback and cancels both the promise and the Task
        await #expect(throws: CancellationError.self) { try await refresh.value }
        #expect(!log.all.contains("refreshed"))
    }

    @Test @MainActor func invalidationsAsAnAsyncSequence() async {
        let log = Log()
        let token = PromiseInvalidationToken()
        let watcher = Task {
            for await _ in token.invalidations {
                log.append("invalidated: clear the screen")
            }
        }
        // The watcher's iterator is registered before the invalidation (one made later would
        // not see it): waited for, not slept for.
        #expect(await eventually(seconds: 30) { token._invalidationObserverCount == 1 })
        token.invalidate()
        #expect(await eventually { log.all.count == 1 })
        watcher.cancel()
        await watcher.value
    }

    // MARK: when → async let and task groups

    @Test func whenBecomesAsyncLet() async throws {
        // before
        let both = when(fulfilled: fetchUser(id: 1), fetchUser(id: 2))
        let (first, second) = try await both.value
        #expect([first.name, second.name] == ["user1", "user2"])
        // after
        async let one = fetchUser(id: 1).value
        async let two = loadUserAsync(id: 2)
        let users = try await [one, two]
        #expect(users.map(\.name) == ["user1", "user2"])
    }

    @Test func whenOverArrayBecomesTaskGroup() async throws {
        let ids = [3, 1, 2]
        // before
        let all = try await when(fulfilled: ids.map { fetchUser(id: $0) }).value
        // after
        let viaGroup = try await withThrowingTaskGroup(of: User.self) { group in
            for id in ids {
                group.addTask { try await fetchUser(id: id).value }
            }
            var users: [User] = []
            for try await user in group { users.append(user) }  // compiles in @MainActor code too
            return users
        }
        #expect(all.map(\.id) == [3, 1, 2])
        #expect(Set(viaGroup.map(\.id)) == [1, 2, 3])
    }

    @Test @MainActor func taskGroupSnippetCompilesAndRunsInMainActorCode() async throws {
        // The snippet above, from main-actor code (a view controller): `group.reduce(into:)`
        // does not compile there in Swift 6 mode ("sending 'group' risks causing data races").
        let ids = [2, 3]
        let viaGroup = try await withThrowingTaskGroup(of: User.self) { group in
            for id in ids {
                group.addTask { try await fetchUser(id: id).value }
            }
            var users: [User] = []
            for try await user in group { users.append(user) }  // compiles in @MainActor code too
            return users
        }
        #expect(Set(viaGroup.map(\.id)) == [2, 3])
    }

    @Test func whenFirstBecomesTheFirstChildTask() async throws {
        // before
        let fastest = try await when(first: [fetchUser(id: 1), fetchUser(id: 2)], cancelRemaining: true).value
        // after
        let winner = try await withThrowingTaskGroup(of: User.self) { group in
            group.addTask { try await fetchUser(id: 1).value }
            group.addTask { try await loadUserAsync(id: 2) }
            defer { group.cancelAll() }  // cancels the loser, and through it, its promise
            return try await group.next()!
        }
        #expect([1, 2].contains(fastest.id) && [1, 2].contains(winner.id))
    }

    // MARK: timeout / delay → clocks

    @Test func delayBecomesSleep() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        // before
        let later = Promise<String, NoError>(on: .utility, fulfilled: "ready", after: 0.05)
        // after
        try await Task.sleep(for: .milliseconds(50))
        #expect(try await later.value == "ready")
        #expect(clock.now - start >= .milliseconds(50))
    }

    @Test func timeoutKeepsWorkingWhenAwaited() async throws {
        // before
        slowCancellableWork().timeout(on: .utility, delay: 0.05).catch(on: .utility) { error in
            print("gave up: \(error)")
        }
        // after: keep the operator, await its result
        do {
            _ = try await slowCancellableWork().timeout(on: .utility, delay: 0.05).value
        } catch PromiseTimeoutError<NoError>.timedOut {
            print("gave up after 50 ms")
        }
    }

    // MARK: DelayedPromise

    @Test func delayedPromiseBecomesAnAsyncFunction() async throws {
        // before: the work starts on the first access to `promise`
        let profile = StdDelayedPromise<User>(on: .utility) { resolver in
            loadUser(id: 5, completion: resolver.handleCallback())
        }
        let viaPromise = try await profile.promise.value
        // after: an async function does not start until it is called
        let loadProfile = { try await loadUserAsync(id: 5) }
        let viaAsync = try await loadProfile()
        #expect(viaPromise == viaAsync)
    }

    // MARK: PromiseOperation

    @Test func promiseOperationBecomesAnAwaitedOperation() async throws {
        // before: dependencies and width come from the OperationQueue
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let login = StdPromiseOperation<User>(on: .utility) { resolver in
            loadUser(id: 6, completion: resolver.handleCallback())
        }
        let feed = StdPromiseOperation<[String]>(on: .utility) { resolver in
            resolver.fulfill(with: ["a", "b"])
        }
        feed.addDependency(login)
        queue.addOperation(login)
        queue.addOperation(feed)
        // after: await the operations' promises; the queue still orders them
        let user = try await login.promise.value
        let rows = try await feed.promise.value
        #expect(user.id == 6 && rows == ["a", "b"])
    }
}
