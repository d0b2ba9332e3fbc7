// `Promise(on: .immediate, executorPreference:)`: started at once, in the call, as
// `Promise(on: .immediate)`; after its first suspension the Task runs on the executor it prefers
// (a converted chain whose steps ran on one queue resumes there instead of hopping through the
// global executor), and otherwise behaves like the other Task initializers.

import Foundation
import TestSupport
import Testing
import TomorrowlandAsync

/// A serial queue that marks its own blocks, so that code can tell it runs there.
private let preferredQueue = DispatchQueue(label: "immediate-executor-preference")
private let preferredKey = DispatchSpecificKey<String>()
private let preferredQueueMarked: Void = preferredQueue.setSpecific(key: preferredKey, value: "preferred")

/// Whether the current code runs on `preferredQueue`.
private func onPreferredQueue() -> Bool {
    DispatchQueue.getSpecific(key: preferredKey) == "preferred"
}

private var preferredExecutor: any TaskExecutor {
    _ = preferredQueueMarked
    return PromiseContext.queue(preferredQueue).taskExecutor!
}

/// Where a nonisolated operation ran: on the caller's thread before its first await, and on the
/// preferred queue (or not) after it, after a `@concurrent` step on that queue and at its end.
private struct Places: Sendable, Equatable {
    var startedOnCallersThread = false
    var afterAwait = false
    var afterConcurrentStep = false
    var atEnd = false
}

/// Starts, from nonisolated code, a promise whose operation records where it runs.
private func startRecording(
    _ gate: ResolverGate, _ log: OrderLog, preference: (any TaskExecutor)?
) -> StdPromise<Places> {
    let caller = pthread_self()
    let promise = StdPromise<Places>(on: .immediate, executorPreference: preference) {
        var places = Places()
        places.startedOnCallersThread = pthread_equal(pthread_self(), caller) != 0
        log.append("operation: before the first await")
        await gate.wait()
        places.afterAwait = onPreferredQueue()
        log.append("operation: after the first await")
        places.afterConcurrentStep = await withTaskExecutorPreference(preferredExecutor) { @concurrent in onPreferredQueue() }
        places.atEnd = onPreferredQueue()
        return places
    }
    log.append("caller: the initializer returned")
    return promise
}

@Suite("Promises started at once that prefer an executor (.immediate, executorPreference:)")
struct ImmediateExecutorPreferenceTests {
    static let beforeReturn = ["operation: before the first await", "caller: the initializer returned"]
    static let all = beforeReturn + ["operation: after the first await"]

    @Test func startsInTheCallThenRunsOnThePreferredExecutor() async throws {
        let gate = ResolverGate()
        let log = OrderLog()
        let promise = startRecording(gate, log, preference: preferredExecutor)
        #expect(log.values == Self.beforeReturn, "the operation ran until its first await before the initializer returned")
        gate.open()
        let places = try await withDeadline { try await promise.value }
        #expect(places == Places(startedOnCallersThread: true, afterAwait: true, afterConcurrentStep: true, atEnd: true))
        #expect(log.values == Self.all)
    }

    @Test func withoutAPreferenceItRunsOnTheGlobalExecutorAfterItsFirstAwait() async throws {
        let gate = ResolverGate()
        let log = OrderLog()
        let promise = startRecording(gate, log, preference: nil)
        #expect(log.values == Self.beforeReturn)
        gate.open()
        let places = try await withDeadline { try await promise.value }
        // As `Promise(on: .immediate)`: the step on the queue runs there, the rest of the Task does not.
        #expect(places == Places(startedOnCallersThread: true, afterAwait: false, afterConcurrentStep: true, atEnd: false))
    }

    @Test func startedOnThePreferredQueueItselfItStillStartsInTheCall() async throws {
        let gate = ResolverGate()
        let log = OrderLog()
        let started = try await withDeadline {
            await withCheckedContinuation { (continuation: CheckedContinuation<StdPromise<Places>, Never>) in
                _ = preferredExecutor
                preferredQueue.async {
                    let promise = startRecording(gate, log, preference: preferredExecutor)
                    log.append("caller: still on the queue")
                    continuation.resume(returning: promise)
                }
            }
        }
        #expect(log.values == Self.beforeReturn + ["caller: still on the queue"])
        gate.open()
        let places = try await withDeadline { try await started.value }
        #expect(places == Places(startedOnCallersThread: true, afterAwait: true, afterConcurrentStep: true, atEnd: true))
    }

    @Test func aCancelRequestCancelsTheTask() async throws {
        let gate = ResolverGate()
        let promise = StdPromise<Int>(on: .immediate, executorPreference: preferredExecutor) {
            await gate.wait()
            try Task.checkCancellation()
            return 1
        }
        promise.requestCancel()
        gate.open()
        let result = try await withDeadline { await promise.resolvedResult }
        #expect(result.isCancelled)
    }

    @Test func anErrorRejectsThePromise() async throws {
        let gate = ResolverGate()
        let promise = StdPromise<Int>(on: .immediate, executorPreference: preferredExecutor) {
            await gate.wait()
            throw TestError()
        }
        gate.open()
        let result = try await withDeadline { await promise.resolvedResult }
        #expect(result.error is TestError)
    }

    @MainActor @Test func aMainActorOperationStartsOnTheMainActorAndStaysThere() async throws {
        let gate = ResolverGate()
        let log = OrderLog()
        let promise = StdPromise<Bool>(on: .immediate, executorPreference: preferredExecutor) {
            MainActor.assertIsolated()
            log.append("operation: before the first await")
            await gate.wait()
            MainActor.assertIsolated()
            log.append("operation: after the first await")
            return onPreferredQueue()
        }
        log.append("caller: the initializer returned")
        #expect(log.values == Self.beforeReturn)
        gate.open()
        let onQueue = try await withDeadline { try await promise.value }
        #expect(!onQueue, "an operation isolated to the main actor runs there, started in the call as without a preference")
        #expect(log.values == Self.all)
    }
}

// MARK: A step on the preferred queue before anything suspended

/// Where an operation whose first await is a step on the preferred queue ran: nothing suspended
/// before that step, so only the executor preference can send it to the queue.
private struct FirstStepPlaces: Sendable, Equatable {
    var startedOnCallersThread = false
    /// `withTaskExecutorPreference(preferredExecutor) { @concurrent in … }`, the operation's first await.
    var firstStep = false
    /// The statement right after that step, before any other await.
    var afterFirstStep = false
    var afterAwait = false
    var secondStep = false
    var atEnd = false

    /// Every place on the preferred queue, started on the caller's thread.
    static let onTheQueue = FirstStepPlaces(
        startedOnCallersThread: true, firstStep: true, afterFirstStep: true, afterAwait: true, secondStep: true, atEnd: true
    )
}

/// Starts, from nonisolated synchronous code, a promise whose operation's first await is a step
/// on the preferred queue (as a converted twin whose chain's base had already resolved).
private func startWithAStepFirst(
    _ gate: ResolverGate, _ log: OrderLog, preference: (any TaskExecutor)?
) -> StdPromise<FirstStepPlaces> {
    let caller = pthread_self()
    let promise = StdPromise<FirstStepPlaces>(on: .immediate, executorPreference: preference) {
        var places = FirstStepPlaces()
        places.startedOnCallersThread = pthread_equal(pthread_self(), caller) != 0
        log.append("operation: before the first await")
        places.firstStep = await withTaskExecutorPreference(preferredExecutor) { @concurrent in onPreferredQueue() }
        places.afterFirstStep = onPreferredQueue()
        await gate.wait()
        places.afterAwait = onPreferredQueue()
        places.secondStep = await withTaskExecutorPreference(preferredExecutor) { @concurrent in onPreferredQueue() }
        places.atEnd = onPreferredQueue()
        return places
    }
    log.append("caller: the initializer returned")
    return promise
}

/// Runs `start` on a new thread (neither the main thread nor the preferred queue) and returns what it returned.
private func onANewThread<T: Sendable>(_ start: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: start()) }.start()
    }
}

/// Runs `start` in a block on `queue` and returns what it returned.
private func onQueue<T: Sendable>(_ queue: DispatchQueue, _ start: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        queue.async { continuation.resume(returning: start()) }
    }
}

/// An actor whose method calls the nonisolated function that makes the promise.
private actor FirstStepStarter {
    func start(_ gate: ResolverGate, _ log: OrderLog, preference: (any TaskExecutor)?) -> StdPromise<FirstStepPlaces> {
        startWithAStepFirst(gate, log, preference: preference)
    }
}

@Suite("A step on the preferred executor before the first suspension (.immediate, executorPreference:)")
struct ImmediateExecutorPreferenceFirstStepTests {
    static let beforeReturn = ["operation: before the first await", "caller: the initializer returned"]

    /// Opens the gate and checks where the operation ran, started as `started` says.
    private func expectPlaces(
        _ promise: StdPromise<FirstStepPlaces>, _ gate: ResolverGate, _ log: OrderLog, _ expected: FirstStepPlaces,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        #expect(log.values == Self.beforeReturn, "the statement before the first await ran in the call", sourceLocation: sourceLocation)
        gate.open()
        let places = try await withDeadline { try await promise.value }
        #expect(places == expected, sourceLocation: sourceLocation)
    }

    @Test func fromANewThreadTheFirstStepRunsOnThePreferredQueue() async throws {
        let gate = ResolverGate()
        let log = OrderLog()
        let promise = await onANewThread { startWithAStepFirst(gate, log, preference: preferredExecutor) }
        try await expectPlaces(promise, gate, log, .onTheQueue)
    }

    @Test func fromAnotherQueueTheFirstStepRunsOnThePreferredQueue() async throws {
        let gate = ResolverGate()
        let log = OrderLog()
        let other = DispatchQueue(label: "immediate-executor-preference-caller")
        let promise = await onQueue(other) { startWithAStepFirst(gate, log, preference: preferredExecutor) }
        try await expectPlaces(promise, gate, log, .onTheQueue)
    }

    @Test func fromTheMainQueueTheFirstStepRunsOnThePreferredQueue() async throws {
        let gate = ResolverGate()
        let log = OrderLog()
        let promise = await onQueue(.main) { startWithAStepFirst(gate, log, preference: preferredExecutor) }
        try await expectPlaces(promise, gate, log, .onTheQueue)
    }

    @MainActor @Test func fromAMainActorFunctionTheFirstStepRunsOnThePreferredQueue() async throws {
        let gate = ResolverGate()
        let log = OrderLog()
        let promise = startWithAStepFirst(gate, log, preference: preferredExecutor)
        try await expectPlaces(promise, gate, log, .onTheQueue)
    }

    @Test func fromAnActorMethodTheFirstStepRunsOnThePreferredQueue() async throws {
        let gate = ResolverGate()
        let log = OrderLog()
        let promise = await FirstStepStarter().start(gate, log, preference: preferredExecutor)
        try await expectPlaces(promise, gate, log, .onTheQueue)
    }

    @Test func fromThePreferredQueueItselfTheFirstStepRunsThereAfterTheCaller() async throws {
        let gate = ResolverGate()
        let log = OrderLog()
        _ = preferredExecutor
        let promise = await onQueue(preferredQueue) { startWithAStepFirst(gate, log, preference: preferredExecutor) }
        try await expectPlaces(promise, gate, log, .onTheQueue)
    }

    @Test func withoutAPreferenceOnlyTheStepsRunOnTheQueue() async throws {
        let gate = ResolverGate()
        let log = OrderLog()
        let promise = await onANewThread { startWithAStepFirst(gate, log, preference: nil) }
        try await expectPlaces(promise, gate, log, FirstStepPlaces(startedOnCallersThread: true, firstStep: true, secondStep: true))
    }

    @Test func aCancelRequestMadeAsTheInitializerReturnsReachesTheFirstStep() async throws {
        let gate = ResolverGate()
        let log = OrderLog()
        let promise = await onANewThread {
            let promise = StdPromise<Int>(on: .immediate, executorPreference: preferredExecutor) {
                log.append("operation: before the first await")
                let (onQueue, cancelled) = await withTaskExecutorPreference(preferredExecutor) { @concurrent in
                    await gate.wait()
                    return (onPreferredQueue(), Task.isCancelled)
                }
                #expect(onQueue, "the first step ran on the preferred queue")
                if cancelled { throw CancellationError() }
                return 1
            }
            log.append("caller: the initializer returned")
            promise.requestCancel()
            return promise
        }
        #expect(log.values == Self.beforeReturn)
        gate.open()
        let result = try await withDeadline { await promise.resolvedResult }
        #expect(result.isCancelled)
    }

    @Test func aCancelRequestMadeAfterALaterSuspensionReachesTheOperation() async throws {
        let gate = ResolverGate()
        let reached = ResolverGate()
        let promise = await onANewThread {
            StdPromise<Bool>(on: .immediate, executorPreference: preferredExecutor) {
                let firstStep = await withTaskExecutorPreference(preferredExecutor) { @concurrent in onPreferredQueue() }
                reached.open()
                await gate.wait()
                try Task.checkCancellation()
                return firstStep
            }
        }
        try await withDeadline { await reached.wait() }
        promise.requestCancel()
        gate.open()
        let result = try await withDeadline { await promise.resolvedResult }
        #expect(result.isCancelled)
    }
}
