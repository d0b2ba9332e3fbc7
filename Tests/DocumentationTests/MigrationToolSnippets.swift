// MIGRATION.md, "Large codebases: `tomorrowland-migrate`": a function and the async twin the
// tool writes for it, a chain after convert-body (Tools/ checks that it writes exactly these),
// and how callers resolve.

import Testing
import TomorrowlandAsync

struct Badge: Sendable, Equatable {
    var id: Int
}

enum BadgeError: Error {
    case invalidID
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

/// The 1.x body `convert-body` starts from (MIGRATION.md shows its three lines).
func badgeCaptionAsWritten(id: Int) -> StdPromise<String> {
    guard id > 0 else { return Promise(rejected: BadgeError.invalidID) }
    print("loading badge \(id)")
    return fetchBadge(id: id).map(on: .utility) { badge in "Badge #\(badge.id)" }
}

/// The badge's caption, made on a background queue.
func badgeCaption(id: Int) -> StdPromise<String> {
    StdPromise(on: .immediate) { try await badgeCaption(id: id) }
}

/// The badge's caption, made on a background queue.
///
/// Async twin of `badgeCaption(id:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
/// Throws the promise's error, or `CancellationError` when it is cancelled; cancelling the awaiting Task requests
/// cancellation of the promise.
nonisolated(nonsending) func badgeCaption(id: Int) async throws -> String {
    guard id > 0 else { throw BadgeError.invalidID }
    print("loading badge \(id)")
    let badge = try await fetchBadge(id: id)
    return await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
        "Badge #\(badge.id)"
    }
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

    @Test(.timeLimit(.minutes(1)))
    func aConvertedBodyAndItsWrapper() async throws {
        #expect(try await badgeCaption(id: 4) == "Badge #4")                            // the twin
        #expect(try await (badgeCaption(id: 5) as StdPromise<String>).value == "Badge #5")  // the wrapper
        #expect(try await badgeCaptionAsWritten(id: 6).value == "Badge #6")             // as 1.x wrote it
        await #expect(throws: BadgeError.self) { try await (badgeCaption(id: 0) as StdPromise<String>).value }
    }
}

/// MIGRATION.md, "Large codebases": a chain whose callbacks were registered with an invalidation
/// token, as `convert-body` writes its twin (the token's validity taken where 1.x registered the
/// callbacks, checked where each would have run).
@MainActor
final class TokenKeptStatusView {
    struct Tracker: Sendable {
        func status(_ id: Int) async throws -> Int { id * 10 }
    }

    let tracker = Tracker()
    let token = PromiseInvalidationToken()
    private(set) var shown: [String] = []

    nonisolated func decode(_ body: Int) -> String { "status \(body)" }

    func show(_ status: String) { shown.append(status) }

    func refresh(_ id: Int) async throws -> String {
        // 1.x: tracker.status(id).map(on: .utility, token: token) { decode($0) }
        //          .then(on: .main, token: token) { self.show($0) }
        let validity = token.validity()
        let body = try await tracker.status(id)
        let status = try await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
            guard validity.isValid else { throw CancellationError() }
            return decode(body)
        }
        if validity.isValid {
            show(status)
        }
        return status
    }
}

@Suite("MIGRATION.md: a converted chain keeps its token's rule")
struct TokenKeptSnippetTests {
    @Test @MainActor func validTokenShowsAndInvalidatedTokenCancels() async throws {
        let view = TokenKeptStatusView()
        #expect(try await view.refresh(2) == "status 20")
        #expect(view.shown == ["status 20"])
        // A validity taken before an invalidation turns false (the twin's steps check it).
        let validity = view.token.validity()
        view.token.invalidate()
        #expect(!validity.isValid)
        let fresh = try await view.refresh(3)
        #expect(fresh == "status 30", "a validity taken after the invalidation is valid")
        #expect(view.shown == ["status 20", "status 30"])
    }
}

/// MIGRATION.md, "Large codebases", timing: an actor's chain whose `then` and `always` 1.x ran after
/// the call returned, as `convert-body` writes its twin (the first await suspends once after it).
actor SyncJournal {
    private(set) var inFlight = 0
    private(set) var lastSummaries: [String: Int] = [:]
    private(set) var journal: [String] = []

    /// Resolves at once, as a fake bank client does in tests.
    func importAll(into account: String) async throws -> Int {
        journal.append("import \(account)")
        return account.count
    }

    /// The wrapper `convert-body` writes: it starts the twin at once.
    func sync(_ account: String) -> StdPromise<Int> {
        StdPromise(on: .immediate) { try await self.sync(account) }
    }

    func sync(_ account: String) async throws -> Int {
        inFlight += 1
        defer { inFlight -= 1 }
        let summary = try await Task.yieldingAfter { try await importAll(into: account) }
        lastSummaries[account] = summary
        return summary
    }

    /// Two syncs in a row, in one turn of the actor: both start, then both record.
    func syncBoth(_ first: String, _ second: String) -> [StdPromise<Int>] {
        let promises = [sync(first), sync(second)]
        journal.append("in flight \(inFlight), recorded \(lastSummaries.count)")
        return promises
    }
}

@Suite("MIGRATION.md: a converted chain keeps 1.x's callback order")
struct MigrationToolOrderSnippets {
    @Test(.timeLimit(.minutes(1)))
    func bothSyncsStartBeforeEitherRecords() async throws {
        let journal = SyncJournal()
        for promise in await journal.syncBoth("checking", "savings") { _ = try await promise.value }
        #expect(await journal.journal == ["import checking", "import savings", "in flight 2, recorded 0"])
        #expect(await journal.lastSummaries == ["checking": 8, "savings": 7])
        #expect(await journal.inFlight == 0)
    }
}
