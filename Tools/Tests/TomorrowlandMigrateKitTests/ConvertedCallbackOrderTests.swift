import Dispatch
import Foundation
import Testing
@testable import TomorrowlandMigrateKit
import Tomorrowland
import TomorrowlandAsync

/// Issue 39, found on Ledger: 1.x ran a callback on a context that is not `.immediate` after the
/// call returned, even when its promise had resolved. The wrapper starts the twin at once, and an
/// await of a resolved promise does not suspend: without `Task.yieldingAfter` the code after it ran
/// during the call (ConvertedBehaviour.swift: `Journal`, `Screen`, `waitingForTheCaller`).
@Suite("convert-body: callbacks run after the call, as 1.x enqueued them", .timeLimit(.minutes(2)))
struct ConvertedCallbackOrderTests {
    @Test("on an actor: two calls in one turn both start before either chain's `then` and `always` run")
    func actorChain() async throws {
        let journal = Journal()
        let promises = await journal.recordTwice(1, 2, observed: Observed())
        for promise in promises { _ = try await promise.value }
        let entries = await journal.entries
        #expect(Array(entries.prefix(4)) == ["start 1", "start 2", "both started", "in flight 2"], "\(entries)")
        #expect(Set(entries.dropFirst(4)) == ["done 1", "done 2"], "\(entries)")
        #expect(await journal.inFlight == 0)
    }

    @Test("on an actor, an already-rejected source: the `always` runs after the call too")
    func actorChainRejected() async throws {
        let journal = Journal()
        let promises = await journal.recordTwice(-1, -2, observed: Observed())
        for promise in promises { _ = await promise.resolvedResult }
        #expect(await journal.entries == ["start -1", "start -2", "both started", "in flight 2"])
        #expect(await journal.inFlight == 0)
    }

    @MainActor @Test("on the main actor: a `.main` callback runs after the call returns")
    func mainActorChain() async throws {
        let screen = Screen()
        let promise: Promise<Int, BehaviourError> = screen.show(3, observed: Observed())
        #expect(screen.entries == ["start 3"])
        #expect(try await promise.value == 3)
        #expect(screen.entries == ["start 3", "shown 3"])
    }

    @Test("in nonisolated code: the callback runs beside the caller, not inline in its call")
    func nonisolatedChain() async throws {
        let next = DispatchSemaphore(value: 0)
        let promise: Promise<Bool, BehaviourError> = waitingForTheCaller(1, next: next, observed: Observed())
        next.signal()
        #expect(try await promise.value, "the `map` ran in the call and waited for its own caller")
    }

    @Test("the twin's first await is `Task.yieldingAfter` where a callback ran later; not on `.immediate`, nor with a named context alone")
    func whereItIsWritten() {
        let (text, notes) = ConvertBodyTests.converted(ConvertBodyTests.feed("""
                public func shown(limit: Int) -> Promise<Int, APIError> {
                    latestPosts(limit: limit).then { posts in print(posts.count) }.map(on: .immediate) { $0.count }
                }

                public func counted(limit: Int) -> Promise<Int, APIError> {
                    latestPosts(limit: limit).map(on: .immediate) { $0.count }
                }

                public func mixed(limit: Int) -> Promise<Int, APIError> {
                    latestPosts(limit: limit).map(on: .immediate) { $0.count }.map { $0 + 1 }
                }

                public func handled(limit: Int) -> Promise<Int, APIError> {
                    latestPosts(limit: limit).map(on: .immediate) { $0.count }.catch { _ in print("failed") }
                }

                public func longest(limit: Int) -> Promise<[Post], APIError> {
                    latestPosts(limit: limit + limit * 2 + limit * 3 + limit * 4 + limit * 5 + limit * 6 + limit * 7)
                        .then { print($0.count) }
                }

                public func onUtility(limit: Int) -> Promise<Int, APIError> {
                    latestPosts(limit: limit).map(on: .utility) { $0.count }
                }
            """))
        #expect(text.contains("let posts = try await Task.yieldingAfter { try await latestPosts(limit: limit) }\n"), "\(notes)")
        // A long await goes on a line of its own: the tool's lines stay within 120 columns.
        #expect(ConvertBodyTests.bodies(of: "longest", in: text).twin.contains(
            "try await Task.yieldingAfter {\n            try await latestPosts(limit: limit + limit * 2 + limit * 3 + limit * 4 + limit * 5 + limit * 6 "
                + "+ limit * 7)\n        }\n"
        ), "\(text)")
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 120 }, "\(text)")
        #expect(ConvertBodyTests.bodies(of: "counted", in: text).twin.contains("Task.yieldingAfter") == false)
        #expect(ConvertBodyTests.bodies(of: "onUtility", in: text).twin.contains("Task.yieldingAfter") == false)
        // The `.immediate` step runs during the call, as 1.x ran it; the step after it, after one suspension.
        #expect(ConvertBodyTests.bodies(of: "mixed", in: text).twin == """
                    let value = try await latestPosts(limit: limit).count
                    await Task.yield()
                    return value + 1
            """, "\(text)")
        // On the error path no value step runs: a handler that 1.x ran later would run during the call.
        #expect(notes.contains { $0.contains("handled(limit:)") && $0.contains("1.x ran that step during the call") }, "\(notes)")
    }
}
