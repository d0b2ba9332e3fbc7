// Async → promise: Promise(priority:operation:) and Promise(on:priority:operation:).

import Foundation
import TestSupport
import Testing
import XCTest
import TomorrowlandAsync

enum Locals {
    @TaskLocal static var requestID = "none"
}

/// Marks a dispatch queue so tests can tell where code runs.
let queueNameKey = DispatchSpecificKey<String>()
func currentQueueName() -> String? { DispatchQueue.getSpecific(key: queueNameKey) }
func makeNamedQueue(_ name: String) -> DispatchQueue {
    let queue = DispatchQueue(label: name)
    queue.setSpecific(key: queueNameKey, value: name)
    return queue
}
let markMainQueue: Void = DispatchQueue.main.setSpecific(key: queueNameKey, value: "main")

@Suite("Promises from async operations")
struct TaskPromiseTests {
    @MainActor @Test func mainActorOperationsStartInCreationOrderLikeTask() async throws {
        // `Task { @MainActor in }` created on the main actor is enqueued on it in order; a
        // Task-backed promise with a main-actor operation should keep that order too.
        let order = OrderRecorder()
        var promises: [Promise<Void, NoError>] = []
        for index in 0..<300 {
            promises.append(Promise { @MainActor in order.append(index) })
        }
        for promise in promises { _ = try await withDeadline { await promise.resolvedResult } }
        // Known limitation: the Task body starts nonisolated and hops to the operation's actor,
        // so creation order can be lost. Starting it `@MainActor` when `operation.isolation` is
        // the main actor fixes it, but that code crashes Swift 6.3.1's SILGen (signal 11 in
        // `_runningTask`). This records the gap rather than hiding it.
        withKnownIssue("main-actor Task promises may start out of creation order", isIntermittent: true) {
            #expect(order.values == Array(0..<300))
        }
    }

    @Test func trailingClosureWithoutTypeAnnotationIsTheAsyncInitializer() async throws {
        // Without @_disfavoredOverload on init(fulfilled:), this compiled as a promise of the closure.
        let promise = StdPromise { try await Task.sleep(for: .milliseconds(1)); return 42 }
        let value: Int = try await withDeadline { try await promise.value }
        #expect(value == 42)
    }

    @Test func stdPromiseFromThrowingOperation() async throws {
        @Sendable func load() async throws -> Data { try await Task.sleep(for: .milliseconds(5)); return Data([1, 2]) }
        let promise = StdPromise<Data> { try await load() }
        #expect(try await withDeadline { try await promise.value } == Data([1, 2]))
        let failing = StdPromise<Int> { throw TestError(code: 3) }
        #expect(try await withDeadline { await failing.resolvedResult }.error as? TestError == TestError(code: 3))
    }

    @Test func typedThrowsOperation() async throws {
        let promise = Promise<Int, TestError> { () async throws(TestError) -> Int in throw TestError(code: 4) }
        #expect(try await withDeadline { await promise.resolvedResult } == .error(TestError(code: 4)))
    }

    @Test func nonThrowingOperationForNoError() async throws {
        let promise = Promise<String, NoError> { "done" }
        #expect(try await withDeadline { await promise.resolvedResult } == .value("done"))
    }

    @Test func requestCancelCancelsTheTask() async throws {
        let started = Counter()
        let promise = StdPromise<Int> {
            started.increment()
            try await Task.sleep(for: .seconds(60))
            return 1
        }
        #expect(await eventually { started.value == 1 })
        promise.requestCancel()
        #expect(try await withDeadline { await promise.resolvedResult }.isCancelled)
    }

    @Test func cancelRequestPropagatedFromAChildCancelsTheTask() async throws {
        let sawCancel = Counter()
        let child: Promise<Int, NoError> = Promise<Int, NoError> {
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(1)) }
            sawCancel.increment()
            return 99
        }.map(on: .immediate) { $0 + 1 }
        child.requestCancel()
        #expect(try await withDeadline { await child.resolvedResult } == .value(100), "the operation's value still fulfils")
        #expect(sawCancel.value == 1)
    }

    @Test func awaitingTaskCancellationCancelsTheOperation() async throws {
        let waiter = await startAwaiting { try await StdPromise<Int> { try await Task.sleep(for: .seconds(60)); return 1 }.value }  // awaiting when this returns
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await withDeadline { try await waiter.value } }
    }

    @Test func cancellationErrorCancelsRatherThanRejects() async throws {
        let promise = StdPromise<Int> { throw CancellationError() }
        #expect(try await withDeadline { await promise.resolvedResult }.isCancelled)
    }

    @Test func inheritsTaskLocalsAndPriority() async throws {
        let promise = Locals.$requestID.withValue("req-7") {
            StdPromise<String> { Locals.requestID }
        }
        #expect(try await withDeadline { try await promise.value } == "req-7")
        let explicit = Promise<TaskPriority, NoError>(priority: .low) { Task.currentPriority }
        #expect(try await withDeadline { try await explicit.value } == .low)
        let inherited = try await withDeadline {
            await Task(priority: .high) { await Promise<TaskPriority, NoError> { Task.currentPriority }.resolvedResult }.value
        }
        #expect(inherited == .value(.high))
    }

    @MainActor
    @Test func operationFormedOnTheMainActorRunsOnIt() async throws {
        _ = markMainQueue
        let promise = Promise<String?, NoError> { currentQueueName() }
        #expect(try await withDeadline { try await promise.value } == "main")
    }

    @Test func runsOnTheContextsExecutor() async throws {
        let queue = makeNamedQueue("task-context")
        let promise = StdPromise<String?>(on: .queue(queue)) {
            try await Task.sleep(for: .milliseconds(1))
            return currentQueueName()
        }
        #expect(try await withDeadline { try await promise.value } == "task-context")
        let immediate = Promise<Int, NoError>(on: .immediate) { 3 }
        #expect(try await withDeadline { try await immediate.value } == 3)
    }

    @MainActor
    @Test func contextOperationFormedOnTheMainActorStillRunsOnTheContext() async throws {
        let queue = makeNamedQueue("from-main")
        let promise = Promise<String?, NoError>(on: .queue(queue)) { currentQueueName() }
        #expect(try await withDeadline { try await promise.value } == "from-main")
    }
}

/// Records integers in the order they arrive (main actor only).
@MainActor
final class OrderRecorder {
    private(set) var values: [Int] = []
    func append(_ value: Int) { values.append(value) }
}

/// XCTest rather than Swift Testing on purpose: XCTest cases run one at a time, before the
/// Swift Testing suites start, so the 20,000 Tasks below never compete for the two CPUs with
/// tests that measure time (measured: under the thread sanitizer they delayed a 0.9 s check
/// in the MIGRATION.md pitfalls suite by 0.7 s).
final class DeepCancellationTests: XCTestCase {
    /// Rule 19, cancel requests do not nest: the request reaches each Task through the
    /// previous level's cancellation handler, which runs inside `Task.cancel()`; that nested
    /// request must be queued and drained by the outermost one, not recurse 20,000 levels.
    func testRule19_cancellingTheLastOf20000ChainedAsyncPromisesDoesNotRecurse() async throws {
        // Under the thread sanitizer, 2,000 levels: enough to race the queued requests, and
        // 20,000 sanitized Tasks slow the rest of that run down so much that the timed checks
        // of the Swift Testing suites that follow miss their bounds. The plain run checks the
        // stack at 20,000.
        let levels = runsUnderThreadSanitizer ? 2_000 : 20_000
        let started = Counter()
        let root = StdPromise<Int> { try await Task.sleep(for: .seconds(600)); return 0 }
        var last = root
        for _ in 0..<levels {
            let previous = last
            last = StdPromise {
                started.increment()
                return try await previous.value + 1
            }
        }
        let allStarted = await eventually(seconds: 60) { started.value == levels }
        XCTAssertTrue(allStarted)
        // Not an ordering the checks depend on (they hold whether a level is suspended in
        // `previous.value` or not there yet): it only makes the nested case, every level
        // suspended, the likely one. No public state says "suspended".
        try await Task.sleep(for: .milliseconds(500))
        let requested = Counter()
        let leaf = last
        let thread = Thread {
            leaf.requestCancel()
            requested.increment()
        }
        thread.stackSize = 8 << 20 // the default main-thread stack
        thread.start()
        let returned = await eventually(seconds: 60) { requested.value == 1 }
        XCTAssertTrue(returned)
        let result = try await withDeadline(60) { await leaf.resolvedResult }
        XCTAssertTrue(result.isCancelled)
        XCTAssertEqual(root.result?.isCancelled, true, "the request reached the root Task")
    }
}
