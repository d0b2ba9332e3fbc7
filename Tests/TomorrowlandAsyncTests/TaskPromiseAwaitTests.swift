// Awaiting promises that run async operations: the first awaiting Task waits in the
// promise's box itself, later ones on nodes; all of them follow the same rules.

import Foundation
import TestSupport
import Testing
import TomorrowlandAsync

/// A gate an operation waits on, ignoring Task cancellation, until the test opens it. It
/// suspends (a cancelled Task's `Task.sleep` returns at once: polling would spin and could
/// hold every thread of the cooperative pool).
private final class Gate: @unchecked Sendable {
    // Safety: `open` and `waiters` are only touched under `lock`.
    private let lock = NSLock()
    private var open = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func release() {
        let waiting = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            open = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }

    /// Suspends until the gate opens; Task cancellation does not end it.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = lock.withLock { () -> Bool in
                if open { return true }
                waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}

@Suite("Awaiting Task-backed promises")
struct TaskPromiseAwaitTests {
    @Test func everyAwaitingTaskGetsTheValue() async throws {
        let gate = Gate()
        let promise = Promise<Int, NoError> { await gate.wait(); return 7 }
        // Each awaiter is awaiting when `startAwaiting` returns (no sleep guessing it).
        var awaiters: [Task<PromiseResult<Int, NoError>, Never>] = []
        for _ in 0..<4 { awaiters.append(await startAwaiting { await promise.resolvedResult }) }
        gate.release()
        for awaiter in awaiters {
            #expect(try await withDeadline { await awaiter.value } == .value(7))
        }
        // Awaiting again once resolved takes the fast path.
        #expect(try await withDeadline { try await promise.value } == 7)
    }

    @Test func cancellingOneOfTwoAwaitingTasksKeepsTheOperationCancellingBothCancelsIt() async throws {
        let sawCancel = Counter()
        // The operation counts its Task's cancellation in a cancellation handler, which
        // `Task.cancel()` runs before it returns once the operation is inside it (`running`).
        let running = Counter()
        let (stop, stopOperation) = AsyncStream.makeStream(of: Void.self)
        let promise = StdPromise<Int> {
            await withTaskCancellationHandler {
                running.increment()
                for await _ in stop {}
            } onCancel: {
                sawCancel.increment()
                stopOperation.finish()
            }
            throw CancellationError()
        }
        // Both Tasks observe the promise before the first is cancelled (no sleep guessing it).
        let first = await startAwaiting { await promise.resolvedResult }
        let second = await startAwaiting { await promise.resolvedResult }
        #expect(await eventually { running.value == 1 })
        // No wait before the negative check: `first.cancel()` runs the awaiter's request
        // before it returns, and a request reaching the promise cancels the operation's Task
        // at once, so a wrong cancel would already be counted. The control: `second.cancel()`.
        first.cancel()
        #expect(sawCancel.value == 0, "the other awaiting Task still observes the promise")
        #expect(promise.result == nil)
        second.cancel()
        #expect(sawCancel.value == 1)
        #expect(try await withDeadline { await first.value }.isCancelled)
        #expect(try await withDeadline { await second.value }.isCancelled)
    }

    @Test func stopWaitingReturnsAtOnceAndALaterAwaitStillGetsTheValue() async throws {
        let gate = Gate()
        let sawCancel = Counter()
        let promise = Promise<Int, NoError> {
            await gate.wait()
            if Task.isCancelled { sawCancel.increment() }
            return 3
        }
        let stopping = await startAwaiting { await promise.resolvedResult(onTaskCancel: .stopWaiting) }  // awaiting when this returns
        stopping.cancel()
        #expect(try await withDeadline(30) { await stopping.value } == .cancelled)
        #expect(promise.result == nil, "the operation ignores cancellation and is still running")
        // The stopped Task was the only observer: its request reached the operation's Task.
        let later = await startAwaiting { await promise.resolvedResult }  // awaiting when this returns
        gate.release()
        #expect(try await withDeadline { await later.value } == .value(3))
        #expect(sawCancel.value == 1)
    }

    @Test func anAlreadyCancelledTaskStopsWaitingAtOnce() async throws {
        let gate = Gate()
        let promise = Promise<Int, NoError> { await gate.wait(); return 1 }
        let stopping = Task { () async -> PromiseResult<Int, NoError> in
            withUnsafeCurrentTask { $0?.cancel() }
            return await promise.resolvedResult(onTaskCancel: .stopWaiting)
        }
        #expect(try await withDeadline(30) { await stopping.value } == .cancelled)
        gate.release()
        #expect(try await withDeadline { await promise.resolvedResult } == .value(1))
    }

    @Test func anOperationThatFinishesBeforeTheAwaitSuspendsIsStillDelivered() async throws {
        // Resolution between the fast-path check and the suspension: the await slot records
        // it and the await returns without waiting for anything else.
        for index in 0..<2_000 {
            let promise = Promise<Int, NoError> { index }
            #expect(try await withDeadline { await promise.resolvedResult } == .value(index))
        }
    }
}
