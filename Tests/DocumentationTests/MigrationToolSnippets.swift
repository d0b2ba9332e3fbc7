// MIGRATION.md, "Large codebases: `tomorrowland-migrate`": a function and the async twin the
// tool writes for it (Tools/ checks that it writes exactly this), and how callers resolve.

import Testing
import TomorrowlandAsync

struct Badge: Sendable, Equatable {
    var id: Int
}

/// Loads a badge.
func fetchBadge(id: Int) -> StdPromise<Badge> {
    Promise(on: .utility) { resolver in resolver.fulfill(with: Badge(id: id)) }
}

/// Loads a badge.
///
/// Async twin of `fetchBadge(id:)` (added by tomorrowland-migrate): awaits the promise it returns.
/// Throws the promise's error, or `CancellationError` when it is cancelled; cancelling the awaiting Task requests
/// cancellation of the promise.
nonisolated(nonsending) func fetchBadge(id: Int) async throws -> Badge {
    try await (fetchBadge(id: id) as StdPromise<Badge>).value
}

/// Synchronous code keeps getting the promise once the twin exists.
func badgePromiseFromSynchronousCode() -> StdPromise<Badge> {
    let promise = fetchBadge(id: 1)
    return promise
}

@Suite("MIGRATION.md: tomorrowland-migrate")
struct MigrationToolSnippets {
    @Test(.timeLimit(.minutes(1)))
    func syncCallersGetThePromiseAsyncCallersTheValue() async throws {
        let promise = badgePromiseFromSynchronousCode()
        let pinned = fetchBadge(id: 2) as StdPromise<Badge>   // async code, pinned: the promise
        let badge = try await fetchBadge(id: 3)              // async code: the twin
        #expect(badge == Badge(id: 3))
        #expect(try await promise.value == Badge(id: 1))
        #expect(try await pinned.value == Badge(id: 2))
    }
}
