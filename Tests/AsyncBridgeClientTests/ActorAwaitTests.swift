import Foundation
import Dispatch
import Testing
import TomorrowlandAsync

actor Reentry {
    var marked = false
    func mark() { marked = true }

    /// Enqueues another job on this actor, then awaits: it can only run if the await suspends.
    func awaitResolved() async throws -> Bool {
        Task { await self.mark() }
        _ = try await StdPromise<Int>(fulfilled: 1).value
        _ = await Promise<Int, NoError>(fulfilled: 2).resolvedResult
        return marked
    }

    /// The same with a promise resolved later: the await suspends, so the job runs.
    func awaitLater() async throws -> Bool {
        marked = false
        let (p, r) = StdPromise<Int>.makeWithResolver()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { r.fulfill(with: 1) }
        Task { await self.mark() }
        _ = try await p.value
        return marked
    }
}

@Suite(.serialized, .timeLimit(.minutes(1)))
struct ActorAwaitTests {

    @Test("actor: awaiting an already-resolved promise does not suspend (another job enqueued on the actor has not run); a pending one does")
    func actorResolvedDoesNotSuspend() async throws {
        let a = Reentry()
        #expect(try await a.awaitResolved() == false)
        #expect(try await a.awaitLater() == true)
    }

    @Test("a serial .operationQueue: serialExecutor non-nil; an actor on it and a Task preferring it run on its queue")
    func serialOperationQueue() async throws {
        let oq = OperationQueue()
        oq.maxConcurrentOperationCount = 1
        oq.underlyingQueue = makeQueue("oq")
        let ctx = PromiseContext.operationQueue(oq)
        #expect(ctx.serialExecutor != nil)
        let t = await Task(executorPreference: ctx.taskExecutor) { currentTag() }.value
        #expect(t == "oq")
        let v = try await StdPromise<String>(on: ctx) { currentTag() }.value
        #expect(v == "oq")
    }
}
