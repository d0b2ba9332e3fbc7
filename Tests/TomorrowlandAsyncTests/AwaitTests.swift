// Promise → async: resolvedResult / value, Task cancellation as an observer, isolation.

import Foundation
import TestSupport
import Testing
import TomorrowlandAsync

@Suite("Awaiting promises")
struct AwaitTests {
    @Test func resolvedResultOfPendingPromise() async throws {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { resolver.reject(with: "nope") }
        let result = try await withDeadline { await promise.resolvedResult }
        #expect(result == .error("nope"))
    }

    @Test func resolvedResultOfResolvedPromise() async throws {
        #expect(await Promise<Int, String>(fulfilled: 3).resolvedResult == .value(3))
        #expect(await Promise<Int, String>(with: .cancelled).resolvedResult == .cancelled)
    }

    @Test func valueFulfilledRejectedCancelled() async throws {
        let (fulfilled, f) = StdPromise<Int>.makeWithResolver()
        let (rejected, r) = Promise<Int, TestError>.makeWithResolver()
        let (cancelled, c) = StdPromise<Int>.makeWithResolver()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) {
            f.fulfill(with: 42)
            r.reject(with: TestError(code: 7))
            c.cancel()
        }
        #expect(try await withDeadline { try await fulfilled.value } == 42)
        await #expect(throws: TestError(code: 7)) { try await withDeadline { try await rejected.value } }
        await #expect(throws: CancellationError.self) { try await withDeadline { try await cancelled.value } }
    }

    @Test func noErrorValueThrowsOnlyCancellation() async throws {
        let (promise, resolver) = Promise<String, NoError>.makeWithResolver()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { resolver.fulfill(with: "ok") }
        let value = try await withDeadline { () async throws(CancellationError) -> String in
            try await promise.value
        }
        #expect(value == "ok")
        let typed: () async throws(CancellationError) -> String = { try await Promise<String, NoError>(with: .cancelled).value }
        await #expect(throws: CancellationError.self) { try await typed() }
    }

    @Test func droppedResolverResumesAwaiterWithCancellation() async throws {
        var resolver: StdPromise<Int>.Resolver?
        let promise: StdPromise<Int>
        (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let waiter = await startAwaiting { try await promise.value }  // awaiting when this returns
        #expect(resolver != nil)
        resolver = nil
        await #expect(throws: CancellationError.self) { try await withDeadline { try await waiter.value } }
    }

    @Test func synchronousResultStillWorksWhenImportingTomorrowlandAsync() {
        let promise = Promise<Int, NoError>(fulfilled: 5)
        let result: PromiseResult<Int, NoError>? = promise.result
        #expect(result == .value(5))
        let (pending, resolver) = Promise<Int, NoError>.makeWithResolver()
        #expect(pending.result == nil)
        resolver.fulfill(with: 1)
        #expect(pending.result == .value(1))
    }

    // MARK: Task cancellation → promise

    /// What the negative checks below rely on instead of a sleep: `Task.cancel()` runs the
    /// awaiting Task's cancellation handler before it returns (`withTaskCancellationHandler`),
    /// and that handler's cancel request, with the `.immediate` handlers it triggers, runs
    /// on the cancelling thread. So right after `cancel()`, a request that was going to be
    /// made has been made.
    @Test func cancelRunsTheAwaitersRequestBeforeReturning() async throws {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let requested = Counter()
        resolver.onRequestCancel(on: .immediate) { _ in requested.increment() }
        let t = await startAwaiting { try await promise.value }
        t.cancel()
        #expect(requested.value == 1)
        resolver.cancel()
        await #expect(throws: CancellationError.self) { try await withDeadline { try await t.value } }
    }

    @Test func cancellingOneOfTwoAwaitersDoesNotCancelThePromise() async throws {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let requested = Counter()
        resolver.onRequestCancel(on: .immediate) { _ in requested.increment() }
        // Both Tasks observe the promise before the first is cancelled (no sleep guessing it).
        let first = await startAwaiting { try await promise.value }
        let second = await startAwaiting { try await promise.value }
        // No wait is needed before the negative checks (see `cancelRunsTheAwaitersRequestBeforeReturning`):
        // `cancel()` returns after the awaiter's request, and the `.immediate` handler it
        // would trigger, ran. The control below is counted the moment `second.cancel()` returns.
        first.cancel()
        #expect(requested.value == 0)
        #expect(!resolver.hasRequestedCancel)
        second.cancel()
        #expect(requested.value == 1)
        // Cooperative: both still wait for the real outcome.
        resolver.fulfill(with: 9)
        #expect(try await withDeadline { try await first.value } == 9)
        #expect(try await withDeadline { try await second.value } == 9)
    }

    @Test func cancelledTaskAsksFetchToCancelWhenItHasNoOtherObserver() async throws {
        let requested = Counter()
        @Sendable func fetch() -> StdPromise<Int> {
            StdPromise<Int>(on: .immediate) { resolver in
                resolver.onRequestCancel(on: .immediate) { resolver in
                    requested.increment()
                    resolver.cancel()
                }
            }
        }
        let t = Task { try await fetch().value }
        t.cancel()
        await #expect(throws: CancellationError.self) { try await withDeadline { try await t.value } }
        #expect(requested.value == 1)
    }

    @Test func anotherObserverBlocksTheAwaitingTasksCancelRequest() async throws {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let requested = Counter()
        resolver.onRequestCancel(on: .immediate) { _ in requested.increment() }
        let child = promise.map(on: .immediate) { $0 + 1 }
        let t = await startAwaiting { try await promise.value }  // awaiting when this returns
        t.cancel()  // the awaiter's request ran before this returned: no wait (see above)
        #expect(requested.value == 0, "the map child is an observer that did not ask")
        resolver.cancel()
        await #expect(throws: CancellationError.self) { try await withDeadline { try await t.value } }
        _ = child
    }

    @Test func awaitingTaskCompletesPropagationOnceOtherObserversAsked() async throws {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let requested = Counter()
        resolver.onRequestCancel(on: .immediate) { _ in requested.increment() }
        let child = promise.map(on: .immediate) { $0 + 1 }
        // The Task observes the promise before the child asks (no sleep guessing it).
        let t = await startAwaiting { try await promise.value }
        child.requestCancel()  // an `.immediate` map: its request reaches `promise` before this returns
        #expect(requested.value == 0, "the awaiting Task is an observer that did not ask")
        t.cancel()
        #expect(requested.value == 1, "counted before cancel() returned")
        resolver.cancel()
        await #expect(throws: CancellationError.self) { try await withDeadline { try await t.value } }
    }

    @Test func awaitingTaskCancelledFirstStillWaivesHandlesForALaterChildRequest() async throws {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let requested = Counter()
        resolver.onRequestCancel(on: .immediate) { _ in requested.increment() }
        let child = promise.map(on: .immediate) { $0 + 1 }
        // The Task holds a handle to `promise` (and so does this test) for the whole time.
        let t = await startAwaiting { try await promise.value }  // awaiting when this returns
        t.cancel()  // the awaiter's request ran before this returned: no wait
        #expect(requested.value == 0, "the map child has not asked yet")
        child.requestCancel()
        #expect(requested.value == 1, "the awaiter's handle must not block the last request")
        resolver.cancel()
        await #expect(throws: CancellationError.self) { try await withDeadline { try await t.value } }
        _ = promise
    }

    @Test func handleHeldByAwaitingCodeDoesNotBlock() async throws {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let requested = Counter()
        resolver.onRequestCancel(on: .immediate) { _ in requested.increment() }
        // The Task captures `promise` (a handle) and awaits it; the test also keeps it. It is
        // awaiting when `startAwaiting` returns (no sleep guessing it).
        let t = await startAwaiting { () throws -> Int in
            let copy = promise
            return try await copy.value + (promise.result?.value ?? 0)
        }
        t.cancel()
        #expect(await eventually { requested.value == 1 })
        resolver.fulfill(with: 1)
        #expect(try await withDeadline { try await t.value } == 2)
    }

    @Test func promiseIgnoringCancellationDeliversValueToCancelledAwaiter() async throws {
        let (promise, resolver) = StdPromise<String>.makeWithResolver()
        let t = await startAwaiting { try await promise.value }  // awaiting when this returns
        t.cancel()
        // The awaiter's cancellation handler ran before `cancel()` returned, so a wrong "stop
        // waiting" would already have resumed the Task with CancellationError: no wait.
        #expect(resolver.hasRequestedCancel)
        resolver.fulfill(with: "delivered anyway")
        #expect(try await withDeadline { try await t.value } == "delivered anyway")
    }

    @Test func alreadyCancelledTaskRequestsCancelAndKeepsWaiting() async throws {
        let (promise, resolver) = Promise<Int, NoError>.makeWithResolver()
        let requested = Counter()
        resolver.onRequestCancel(on: .immediate) { resolver in
            requested.increment()
            resolver.fulfill(with: -1)
        }
        let t = Task { () async -> PromiseResult<Int, NoError> in
            withUnsafeCurrentTask { $0?.cancel() }
            return await promise.resolvedResult
        }
        #expect(try await withDeadline { await t.value } == .value(-1))
        #expect(requested.value == 1)
    }

    @Test func stopWaitingThrowsCancellationErrorAtOnce() async throws {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let t = await startAwaiting { try await promise.value(onTaskCancel: .stopWaiting) }  // awaiting when this returns
        t.cancel()
        await #expect(throws: CancellationError.self) { try await withDeadline(30) { try await t.value } }
        #expect(promise.result == nil, "the promise itself is still pending")
        #expect(resolver.hasRequestedCancel, "the stopped awaiter gave up its observer slot")
        resolver.fulfill(with: 1)
    }

    @Test func stopWaitingResolvedResultReturnsCancelledAtOnce() async throws {
        let (promise, resolver) = Promise<Int, NoError>.makeWithResolver()
        let blocker = promise.ignoringCancel()
        let t = Task { () async -> PromiseResult<Int, NoError> in
            withUnsafeCurrentTask { $0?.cancel() }
            return await promise.resolvedResult(onTaskCancel: .stopWaiting)
        }
        #expect(try await withDeadline(30) { await t.value } == .cancelled)
        #expect(!resolver.hasRequestedCancel, "ignoringCancel() blocks propagation")
        resolver.fulfill(with: 1)
        _ = blocker
    }

    @Test func stopWaitingStillReturnsTheValueWhenNotCancelled() async throws {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { resolver.fulfill(with: 5) }
        #expect(try await withDeadline { try await promise.value(onTaskCancel: .stopWaiting) } == 5)
    }

    // MARK: Isolation

    @Test func awaitingFromAnActorStaysOnIt() async throws {
        let actor = IsolationProbe()
        let (promise, resolver) = Promise<Int, NoError>.makeWithResolver()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { resolver.fulfill(with: 3) }
        #expect(try await withDeadline { await actor.awaitAndCheck(promise) } == 3)
    }

    @Test func awaitingAResolvedPromiseDoesNotSuspend() async throws {
        let actor = IsolationProbe()
        let interleaved = try await withDeadline { await actor.awaitResolvedAndCheckNoInterleaving() }
        #expect(!interleaved, "another job on the actor ran during the await: it suspended")
    }

    @Test func awaitingAPendingPromiseDoesSuspend() async throws {
        // The control for the test above: the probe can detect a suspension.
        let actor = IsolationProbe()
        let interleaved = try await withDeadline { await actor.awaitPendingAndCheckInterleaving() }
        #expect(interleaved)
    }

    @MainActor
    @Test func awaitingOnTheMainActorResumesOnIt() async throws {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { resolver.fulfill(with: 8) }
        let value = try await promise.value
        MainActor.assertIsolated()
        #expect(value == 8)
    }
}

actor IsolationProbe {
    private var marked = false

    func awaitAndCheck(_ promise: Promise<Int, NoError>) async -> Int {
        let value = (try? await promise.value) ?? -1
        self.assertIsolated()
        #expect(#isolation === self)
        return value
    }

    private func mark() { marked = true }

    /// Awaits already-resolved promises with a job of this actor's own queued behind the
    /// method; returns whether that job ran during those awaits (it can only if one of them
    /// suspended). No wait for the job: `Task { self.mark() }` inherits the actor and is
    /// enqueued on it before `Task.init` returns, and it cannot run while this method holds
    /// the actor. The loop at the end is the control that it was queued: one suspension runs it.
    func awaitResolvedAndCheckNoInterleaving() async -> Bool {
        marked = false
        Task { self.mark() }
        for _ in 0..<100 { _ = await Promise<Int, NoError>(fulfilled: 1).resolvedResult }
        _ = try? await StdPromise<Int>(fulfilled: 1).value
        let interleaved = marked
        while !marked && !Task.isCancelled { await Task.yield() }  // a deadline's cancel ends it
        return interleaved
    }

    /// The control for the method above: awaiting a pending promise suspends, and the job
    /// queued on this actor runs meanwhile. The job itself resolves the promise, so the await
    /// can only end once the actor ran it while this method was suspended (no timing involved).
    func awaitPendingAndCheckInterleaving() async -> Bool {
        marked = false
        let (promise, resolver) = Promise<Int, NoError>.makeWithResolver()
        Task {
            self.mark()
            resolver.fulfill(with: 1)
        }
        _ = await promise.resolvedResult
        return marked
    }
}
