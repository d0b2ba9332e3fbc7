// `Task.yieldingAfter { … }`: one real suspension after an await, on an actor, on the main actor
// and in nonisolated code, so that in a function a promise wrapper starts at once
// (`Promise(on: .immediate)`) the code after an already-resolved await runs after the call returns,
// as 1.x ran a callback on a context that is not `.immediate` (what convert-body writes where a
// wrapper starts a twin at once). Each test also shows the plain await, which does not suspend.

import Dispatch
import Foundation
import TestSupport
import Testing
import TomorrowlandAsync

enum YieldingAfterError: Error, Equatable {
    case failed
}

/// An actor whose async method awaits a promise that has already resolved, started at once by a
/// synchronous method of the actor (the shape convert-body writes: a wrapper and its twin).
actor YieldingStore {
    var journal: [String] = []

    func twin(_ promise: Promise<Int, YieldingAfterError>, yielding: Bool) async throws -> Int {
        journal.append("start")
        defer { journal.append("defer") }
        let value = yielding ? try await Task.yieldingAfter { try await promise.value } : try await promise.value
        journal.append("after the await")
        return value
    }

    func call(_ promise: Promise<Int, YieldingAfterError>, yielding: Bool) -> StdPromise<Int> {
        let wrapper = StdPromise(on: .immediate) { try await self.twin(promise, yielding: yielding) }
        journal.append("caller's next statement")
        return wrapper
    }
}

/// The same on the main actor.
@MainActor final class YieldingScreen {
    var journal: [String] = []

    func twin(_ promise: Promise<Int, YieldingAfterError>, yielding: Bool) async throws -> Int {
        journal.append("start")
        defer { journal.append("defer") }
        let value = yielding ? try await Task.yieldingAfter { try await promise.value } : try await promise.value
        journal.append("after the await")
        return value
    }

    func call(_ promise: Promise<Int, YieldingAfterError>, yielding: Bool) -> StdPromise<Int> {
        let wrapper = StdPromise(on: .immediate) { try await self.twin(promise, yielding: yielding) }
        journal.append("caller's next statement")
        return wrapper
    }
}

/// The same in nonisolated code: the code after the await waits (up to a second) for the caller's
/// next statement to signal. Run inline in the call, it would wait for its own caller: it times out.
nonisolated(nonsending) func yieldingTwin(_ promise: Promise<Int, YieldingAfterError>, yielding: Bool, next: DispatchSemaphore) async throws -> Bool {
    _ = yielding ? try await Task.yieldingAfter { try await promise.value } : try await promise.value
    return next.wait(timeout: .now() + 1) == .success
}

/// Calls the nonisolated twin through a wrapper started at once, then signals: the promise's value
/// says whether the code after the await saw the caller's next statement.
func callYieldingTwin(_ promise: Promise<Int, YieldingAfterError>, yielding: Bool) -> StdPromise<Bool> {
    let next = DispatchSemaphore(value: 0)
    let wrapper = StdPromise(on: .immediate) { try await yieldingTwin(promise, yielding: yielding, next: next) }
    next.signal()
    return wrapper
}

@Suite("Task.yieldingAfter: the code after an await runs after a call that starts it at once")
struct YieldingAfterTests {
    static let resolved = Promise<Int, YieldingAfterError>(fulfilled: 7)
    static let rejected = Promise<Int, YieldingAfterError>(rejected: .failed)
    static let inOrder = ["start", "caller's next statement", "after the await", "defer"]
    static let inTheCall = ["start", "after the await", "defer", "caller's next statement"]

    @Test func onAnActorTheCodeAfterTheAwaitRunsAfterTheCall() async throws {
        let store = YieldingStore()
        #expect(try await withDeadline { try await store.call(Self.resolved, yielding: true).value } == 7)
        #expect(await store.journal == Self.inOrder)
        // Without it: an already-resolved promise's value does not suspend.
        let plain = YieldingStore()
        _ = try await withDeadline { try await plain.call(Self.resolved, yielding: false).value }
        #expect(await plain.journal == Self.inTheCall)
    }

    @Test func onAnActorAnErrorIsThrownAfterTheCall() async throws {
        let store = YieldingStore()
        await #expect(throws: YieldingAfterError.failed) { try await withDeadline { try await store.call(Self.rejected, yielding: true).value } }
        #expect(await store.journal == ["start", "caller's next statement", "defer"])
    }

    @MainActor @Test func onTheMainActorTheCodeAfterTheAwaitRunsAfterTheCall() async throws {
        let screen = YieldingScreen()
        let promise = screen.call(Self.resolved, yielding: true)
        #expect(screen.journal == ["start", "caller's next statement"])
        #expect(try await withDeadline { try await promise.value } == 7)
        #expect(screen.journal == Self.inOrder)
        let plain = YieldingScreen()
        _ = plain.call(Self.resolved, yielding: false)
        #expect(plain.journal == Self.inTheCall)
    }

    @MainActor @Test func onTheMainActorAnErrorIsThrownAfterTheCall() async throws {
        let screen = YieldingScreen()
        let promise = screen.call(Self.rejected, yielding: true)
        #expect(screen.journal == ["start", "caller's next statement"])
        await #expect(throws: YieldingAfterError.failed) { try await withDeadline { try await promise.value } }
        #expect(screen.journal == ["start", "caller's next statement", "defer"])
    }

    @Test func inNonisolatedCodeTheCodeAfterTheAwaitRunsBesideTheCaller() async throws {
        #expect(try await withDeadline { try await callYieldingTwin(Self.resolved, yielding: true).value })
        // Without it, the code after the await ran inline in the call and waited for itself.
        #expect(try await withDeadline { try await callYieldingTwin(Self.resolved, yielding: false).value } == false)
    }

    @Test func aTypedErrorKeepsItsType() async {
        func typed() async throws(YieldingAfterError) -> Int { throw .failed }
        do {
            _ = try await Task.yieldingAfter { () async throws(YieldingAfterError) in try await typed() }
            Issue.record("expected an error")
        } catch {
            #expect(error == .failed)
        }
    }
}
