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

    @Test func cancellingOneOfTwoAwaitersDoesNotCancelThePromise() async throws {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let requested = Counter()
        resolver.onRequestCancel(on: .immediate) { _ in requested.increment() }
        // Both Tasks observe the promise before the first is cancelled (no sleep guessing it).
        let first = await startAwaiting { try await promise.value }
        let second = await startAwaiting { try await promise.value }
        first.cancel()
        try await Task.sleep(for: .milliseconds(50))
        #expect(requested.value == 0)
        #expect(!resolver.hasRequestedCancel)
        second.cancel()
        #expect(await eventually { requested.value == 1 })
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
        t.cancel()
        try await Task.sleep(for: .milliseconds(50))
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
        child.requestCancel()
        try await Task.sleep(for: .milliseconds(20))
        #expect(requested.value == 0, "the awaiting Task is an observer that did not ask")
        t.cancel()
        #expect(await eventually { requested.value == 1 })
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
        t.cancel()
        try await Task.sleep(for: .milliseconds(20))
        #expect(requested.value == 0, "the map child has not asked yet")
        child.requestCancel()
        #expect(await eventually { requested.value == 1 }, "the awaiter's handle must not block the last request")
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
        #expect(await eventually { resolver.hasRequestedCancel })
        try await Task.sleep(for: .milliseconds(20))
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

    func awaitResolvedAndCheckNoInterleaving() async -> Bool {
        marked = false
        Task { self.mark() }
        // Give the competing job time to be enqueued on this actor (it runs only if we suspend).
        usleep(20_000)
        for _ in 0..<100 { _ = await Promise<Int, NoError>(fulfilled: 1).resolvedResult }
        _ = try? await StdPromise<Int>(fulfilled: 1).value
        return marked
    }

    func awaitPendingAndCheckInterleaving() async -> Bool {
        marked = false
        Task { self.mark() }
        usleep(20_000)
        let (promise, resolver) = Promise<Int, NoError>.makeWithResolver()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { resolver.fulfill(with: 1) }
        _ = await promise.resolvedResult
        return marked
    }
}
