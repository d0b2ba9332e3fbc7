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
