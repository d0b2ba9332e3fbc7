import Foundation
import Dispatch
import Testing
import TomorrowlandAsync

// MARK: - 3. The rest of TomorrowlandAsync

@Suite(.serialized, .timeLimit(.minutes(1)))
struct MiscTests {

    @Test("StdPromise<Value> { try await … }: errors reject, CancellationError cancels, requestCancel() cancels the Task")
    func asyncOperationPromise() async throws {
        let ok = StdPromise<Int> { try await Task.sleep(for: .milliseconds(5)); return 1 }
        #expect(try await ok.value == 1)
        let bad = StdPromise<Int> { throw TestError(code: 1) }
        let badResult = await bad.resolvedResult
        #expect((badResult.error as? TestError) == TestError(code: 1))
        let cancelled = StdPromise<Int> { throw CancellationError() }
        #expect(await cancelled.resolvedResult.isCancelled)
        let sawCancel = Flag()
        let long = StdPromise<Int> {
            await withTaskCancellationHandler {
                try? await Task.sleep(for: .seconds(60))
            } onCancel: { sawCancel.set() }
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(30))
        long.requestCancel()
        #expect(await long.resolvedResult.isCancelled)
        #expect(sawCancel.isSet)
    }

    @Test("StdPromise { } inherits task-local values, like Task {}")
    func taskLocalsPlain() async throws {
        let v = try await Locals.$requestID.withValue("outer") {
            try await StdPromise<String> { Locals.requestID }.value
        }
        #expect(v == "outer")
    }

    @Test("token.invalidations yields once per invalidate() and finishes when the token's last copy is released")
    func invalidationsSequence() async throws {
        var token: PromiseInvalidationToken? = PromiseInvalidationToken(invalidateOnDeinit: false)
        let seq = token!.invalidations
        let count = Task { () -> Int in
            var n = 0
            for await _ in seq { n += 1 }
            return n
        }
        try await Task.sleep(for: .milliseconds(100))
        token!.invalidate()
        try await Task.sleep(for: .milliseconds(50))
        token!.invalidate()
        try await Task.sleep(for: .milliseconds(50))
        token = nil
        let n = await count.value
        #expect(n == 2)
    }

    @Test("iterating token.invalidations ends promptly when the iterating Task is cancelled")
    func invalidationsEndOnCancel() async throws {
        let token = PromiseInvalidationToken()
        let ended = Flag()
        let t = Task {
            for await _ in token.invalidations {}
            ended.set()
        }
        try await Task.sleep(for: .milliseconds(50))
        t.cancel()
        #expect(await eventually(10) { ended.isSet })
        withExtendedLifetime(token) {}
    }

    @Test("task.requestCancelOnInvalidate(token) cancels the Task when the token invalidates")
    func taskCancelOnInvalidate() async throws {
        let token = PromiseInvalidationToken()
        let t = Task { () -> Bool in
            try? await Task.sleep(for: .seconds(60))
            return Task.isCancelled
        }
        t.requestCancelOnInvalidate(token)
        try await Task.sleep(for: .milliseconds(30))
        token.invalidate()
        #expect(await t.value == true)
    }

    @Test("token.validity() is valid until invalidate()")
    func validity() {
        let token = PromiseInvalidationToken()
        let v = token.validity()
        #expect(v.isValid)
        token.invalidate()
        #expect(!v.isValid)
        #expect(token.validity().isValid)
    }

    @Test("Task.yieldingAfter suspends once after a resolved await: a main-actor job enqueued before runs before the code after it")
    @MainActor func yieldingAfterSuspends() async throws {
        let ran = Flag()
        Task { @MainActor in ran.set() }
        let v = try await Task.yieldingAfter { try await StdPromise<Int>(fulfilled: 3).value }
        #expect(v == 3)
        #expect(ran.isSet)
        let ran2 = Flag()
        Task { @MainActor in ran2.set() }
        await #expect(throws: TestError(code: 5)) {
            try await Task.yieldingAfter { try await StdPromise<Int>(rejected: TestError(code: 5)).value }
        }
        #expect(ran2.isSet)
    }

    @Test("Task.yieldingAfter with .immediate: code after a resolved await runs after the call returns")
    @MainActor func yieldingAfterWithImmediate() async throws {
        let log = Log()
        let p = StdPromise<Int>(on: .immediate) {
            log.add("start")
            let v = try await Task.yieldingAfter { try await StdPromise<Int>(fulfilled: 1).value }
            log.add("after")
            return v
        }
        log.add("returned")
        #expect(try await p.value == 1)
        #expect(log.entries == ["start", "returned", "after"])
    }
}
