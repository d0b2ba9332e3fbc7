// MIGRATION.md, section "Pitfalls": the snippets, compiled, and tests showing each claim.

import Foundation
import TestSupport
import Testing
import TomorrowlandAsync

// MARK: Thread.isMainThread on Linux

func presentOnMain(_ image: StdPromise<Image>) {
    image.then(on: .main) { image in
        // Runs on the main queue, whichever thread Dispatch drains it on: don't test
        // Thread.isMainThread here (false on Linux after dispatchMain()).
        show(image)
    }.catch(on: .main) { error in
        show(error)
    }
}

// MARK: A promise that ignores cancellation keeps its awaiter waiting

func renderReport() -> Promise<String, NoError> {
    Promise(on: .utility) { resolver in
        // No onRequestCancel: nothing can stop this once it started.
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
            resolver.fulfill(with: "report")
        }
    }
}

// MARK: A hand-written bridge that leaks its continuation

// Don't: this never resumes when the promise is cancelled (neither callback runs),
// so the awaiting task hangs, and Task cancellation is ignored altogether.
func leakyValue(of promise: StdPromise<Int>) async throws -> Int {
    try await withCheckedThrowingContinuation { continuation in
        promise
            .then(on: .immediate) { continuation.resume(returning: $0) }
            .catch(on: .immediate) { continuation.resume(throwing: $0) }
    }
}

// MARK: Holding a promise blocks cancellation propagation

final class SearchController {
    private var current: PromiseCancellable?  // not a Promise: a held Promise blocks propagation

    func search(_ text: String) -> StdPromise<[String]> {
        current?.requestCancel()
        let results = fetchFeed().map(on: .utility) { rows in rows.filter { $0.contains(text) } }
        current = results.cancellable
        return results
    }
}

// MARK: A local handle to a parent blocks cancellation from an awaiting Task

func photoURL(for user: User) async throws -> String {
    // Don't: `request` is a handle to the parent for as long as this function awaits its
    // child, so cancelling the Task cannot reach the request.
    let request = fetchPhoto(for: user)
    return try await request.map(on: .utility) { $0.url }.value
}

func cancellablePhotoURL(for user: User) async throws -> String {
    // Do: build the chain in one expression (or in a synchronous helper) and await its end.
    try await fetchPhoto(for: user).map(on: .utility) { $0.url }.value
}

// MARK: A context value is nonisolated, even `.main`

@MainActor final class InterestScreen {
    private(set) var shown: [Double] = []
    let balanceContext: PromiseContext = .queue(balanceQueue)
    let delivery: PromiseContext.Main = .main

    func applyInterest(_ rate: StdPromise<Double>, to balance: BalanceBox) {
        // A value: this closure is nonisolated and runs on balanceQueue, as in 1.x.
        _ = rate.map(on: balanceContext) { rate in
            balance.value *= 1 + rate
            return balance.value
        }.then(on: delivery) { amount in
            self.shown.append(amount)  // PromiseContext.Main: a main-actor callback, on the main actor
        }
    }
}

extension InterestScreen {
    /// Where a `.queue(balanceQueue)` closure written in this class runs.
    func queueCallbackRunsOnBalanceQueue() -> StdPromise<Bool> {
        StdPromise(fulfilled: 0).map(on: .queue(balanceQueue)) { _ in isOnBalanceQueue() }
    }

    /// Where a closure given `balanceContext` (a value) runs.
    func contextValueCallbackRunsOnBalanceQueue() -> StdPromise<Bool> {
        StdPromise(fulfilled: 0).map(on: balanceContext) { _ in isOnBalanceQueue() }
    }
}

private let balanceQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    balanceQueue.setSpecific(key: key, value: true)
    return key
}()

private func isOnBalanceQueue() -> Bool {
    DispatchQueue.getSpecific(key: balanceQueueKey) == true
}

/// A closure written in a nonisolated function runs on `balanceQueue` too.
private func nonisolatedQueueCallbackRunsOnBalanceQueue() -> StdPromise<Bool> {
    StdPromise(fulfilled: 0).map(on: .queue(balanceQueue)) { _ in isOnBalanceQueue() }
}

@Suite("MIGRATION.md: pitfalls")
struct MigrationPitfallsTests {
    @Test func mainCallbackRunsOnTheMainQueueEvenWhenNotTheMainThread() async {
        let ranOnMainQueue = Log()
        StdPromise(fulfilled: 1).then(on: .main) { _ in
            ranOnMainQueue.append(PromiseContext.auto == .main ? "main queue" : "elsewhere")
        }.catch(on: .immediate) { _ in }
        #expect(await eventually { !ranOnMainQueue.all.isEmpty })
        #expect(ranOnMainQueue.all == ["main queue"])
        presentOnMain(StdPromise(fulfilled: Image(url: "x")))
    }

    @Test func ignoredCancellationKeepsTheAwaiterWaiting() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let task = Task { try await renderReport().value }
        task.cancel()
        // Still "report", after the 1 s the work takes: the await waits for the real outcome.
        let report = try await task.value
        #expect(report == "report")
        #expect(clock.now - start >= .milliseconds(900))
    }

    @Test func stopWaitingGivesUpAtOnce() async {
        let report = renderReport()
        let impatient = Task { try await report.value(onTaskCancel: .stopWaiting) }
        impatient.cancel()
        // Throws CancellationError at once; the work itself still runs to its end.
        // The snippet's work ends after 1 s of wall time: on a loaded machine the cancelled
        // Task may only start after that, and then the resolved promise answers first (its
        // documented fast path). So here: CancellationError, or the work's own value once it
        // really ended. "At once" is asserted without a clock below.
        do {
            let value = try await impatient.value
            #expect(value == "report" && report.result == .value("report"),
                    "a value only when the work had already ended")
        } catch {
            #expect(error is CancellationError)
        }
        #expect(await eventually(seconds: 30) { report.result == .value("report") })

        // "At once" without a wall-clock bound (which flakes on a loaded machine): work that
        // only ends when the test says so, and an awaiter that gives up while it is pending.
        let (work, finish) = Promise<String, NoError>.makeWithResolver()
        let gaveUp = Task { try await work.value(onTaskCancel: .stopWaiting) }
        gaveUp.cancel()
        await #expect(throws: CancellationError.self) { try await gaveUp.value }
        #expect(work.result == nil, "the awaiter did not wait for the work")
        finish.fulfill(with: "report")
    }

    @Test func aLocalParentHandleBlocksCancellation() async throws {
        let user = User(id: 1, name: "a")
        let blocked = Task { try await photoURL(for: user) }
        let reached = Task { try await cancellablePhotoURL(for: user) }
        // Cancelled at once, not after a sleep: whether a Task is cancelled before or while it
        // awaits, its await asks for cancellation, and the only wall-clock bound left is the
        // request's 0.5 s latency (a sleep here ate into it on a loaded machine).
        blocked.cancel()
        reached.cancel()
        // The request behind `reached` was asked to cancel; the one behind `blocked` was not,
        // and the cooperative await delivered its value.
        #expect(try await blocked.value == "https://example.com/1.png")
        await #expect(throws: CancellationError.self) { try await reached.value }
    }

    @Test func leakyBridgeWorksOnlyOnTheHappyPath() async throws {
        // Fulfilled: fine. (Cancelled would hang forever; that is the point of the pitfall.)
        #expect(try await leakyValue(of: StdPromise(fulfilled: 42)) == 42)
    }

    @Test @MainActor func namedQueueCallbackWrittenInAMainActorClassRunsOnTheQueue() async throws {
        _ = balanceQueueKey
        let screen = InterestScreen()
        #expect(try await screen.queueCallbackRunsOnBalanceQueue().value == true)
        #expect(try await screen.contextValueCallbackRunsOnBalanceQueue().value == true)
        #expect(try await nonisolatedQueueCallbackRunsOnBalanceQueue().value == true)
        let balance = BalanceBox()
        screen.applyInterest(StdPromise(fulfilled: 0.5), to: balance)
        for _ in 0..<6_000 where screen.shown.isEmpty {  // at least 30 s
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        #expect(screen.shown == [150])
    }

    @Test func searchCancelsThePreviousSearch() async {
        let controller = SearchController()
        let first = controller.search("fir")
        let second = controller.search("sec")
        #expect(await eventually { first.result != nil && second.result != nil })
        #expect(second.result?.value == ["second"])
    }
}
