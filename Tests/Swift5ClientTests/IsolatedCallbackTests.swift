// Callbacks keep their caller's actor (Swift 5 mode): Tomorrowland 1.x code inside
// `@MainActor` classes and actors compiles (no new warning) and each callback with no context,
// `.main`, `.auto`, `.immediate` or `.nowOr(.main)` (spelled, or held as
// `PromiseContext.CallerIsolated`) runs isolated to its actor. `MainActor.preconditionIsolated()` / `preconditionIsolated()` trap
// if a callback ever ran elsewhere.

import Foundation
import Tomorrowland
import XCTest

struct FeedItem: Equatable {
    var title: String
}

struct FeedUser {
    var name: String
}

enum FeedError: Error {
    case offline
}

extension MyAPI {
    static func requestFeed(for user: FeedUser) -> StdPromise<[FeedItem]> {
        StdPromise(on: .utility) { resolver in
            if user.name.isEmpty {
                resolver.reject(with: FeedError.offline)
            } else {
                resolver.fulfill(with: [FeedItem(title: user.name)])
            }
        }
    }
}

/// Tomorrowland's README example, verbatim, inside a view controller.
@MainActor final class FeedViewController {
    var networkActivityIndicatorVisible = false
    var user: FeedUser
    var items: [FeedItem] = []
    var shownErrors: [String] = []
    var loads = 0

    init(user: FeedUser) { self.user = user }

    func refreshUI(with items: [FeedItem]) {
        MainActor.preconditionIsolated()
        self.items = items
    }

    func showError(_ error: Error) {
        MainActor.preconditionIsolated()
        shownErrors.append("\(error)")
    }

    func load() {
        networkActivityIndicatorVisible = true
        MyAPI.requestFeed(for: user).then { feedItems in
            self.refreshUI(with: feedItems)
        }.catch { error in
            self.showError(error)
        }.always { _ in
            self.networkActivityIndicatorVisible = false
            self.loads += 1
        }
    }

    /// A context held in a value keeps the main actor when its type says so
    /// (`PromiseContext.CallerIsolated`); a `PromiseContext` value would run the callbacks on
    /// its own context, nonisolated.
    func load(on context: PromiseContext.CallerIsolated) {
        networkActivityIndicatorVisible = true
        MyAPI.requestFeed(for: user).then(on: context) { feedItems in
            self.refreshUI(with: feedItems)
        }.catch(on: context) { error in
            self.showError(error)
        }.always(on: context) { _ in
            self.networkActivityIndicatorVisible = false
            self.loads += 1
        }
    }

    /// `with:` owners, promise bodies and cancel handlers on `.main`, `when` + `then`, a token.
    let token = PromiseInvalidationToken()
    func loadAll(users: [FeedUser]) -> StdPromise<Void> {
        let promises = users.map { user in
            StdPromise<[FeedItem]>(on: .main) { resolver in
                self.loads += 1
                resolver.onRequestCancel(on: .main) { resolver in
                    self.shownErrors.append("cancel requested")
                    resolver.cancel()
                }
                MyAPI.requestFeed(for: user).always(on: .main) { resolver.resolve(with: $0) }
            }
        }
        return when(fulfilled: promises).then(on: .main, with: self) { owner, feeds in
            owner.refreshUI(with: feeds.flatMap { $0 })
        }.map(on: .main, token: token) { _ in
            self.networkActivityIndicatorVisible = false
        }
    }
}

/// 1.x code moved into an actor: callbacks update the actor's state.
actor FeedCounter {
    var counts: [String: Int] = [:]

    func observe(_ feed: StdPromise<[FeedItem]>, on context: PromiseContext.CallerIsolated) -> StdPromise<Int> {
        feed.then(on: context) { items in
            self.preconditionIsolated()
            for item in items { self.counts[item.title, default: 0] += 1 }
        }.map(on: context) { items in
            self.preconditionIsolated()
            return items.count
        }
    }
}

/// MIGRATION.md, "What changed": in an actor, a promise body that uses `self` runs in a job on
/// the actor after the method returns; one that does not is nonisolated and runs synchronously.
actor SnapshotStore {
    var value = 7

    func snapshotUsingSelf() -> (promise: StdPromise<Int>, resultAtOnce: PromiseResult<Int, Error>?) {
        let promise = StdPromise<Int>(on: .immediate) { resolver in
            self.preconditionIsolated()
            resolver.fulfill(with: self.value)
        }
        return (promise, promise.result)
    }

    func snapshotFromALocal() -> PromiseResult<Int, Error>? {
        let value = self.value
        return StdPromise<Int>(on: .immediate) { resolver in resolver.fulfill(with: value) }.result
    }
}

final class IsolatedCallbackTests: XCTestCase {
    /// The contexts that keep the caller's actor, held in values of their own type (a
    /// `PromiseContext` value runs the callback where it says: NamedContextPlacementTests).
    let contexts: [(String, PromiseContext.CallerIsolated)] = [
        ("main", .main), ("immediate", .immediate), ("nowOr(main)", .nowOr(.main)),
    ]

    func testFeedViewControllerFromReadme() {
        for (name, context) in [("auto", PromiseContext.CallerIsolated.auto)] + contexts {
            let controller = MainActor.assumeIsolated { FeedViewController(user: FeedUser(name: name)) }
            MainActor.assumeIsolated {
                if name == "auto" { controller.load() } else { controller.load(on: context) }
            }
            let idle = expectation(for: NSPredicate { _, _ in MainActor.assumeIsolated { controller.loads == 1 } }, evaluatedWith: nil)
            wait(for: [idle], timeout: 10)
            MainActor.assumeIsolated {
                XCTAssertEqual(controller.items, [FeedItem(title: name)], name)
                XCTAssertFalse(controller.networkActivityIndicatorVisible, name)
            }
        }
    }

    func testWhenWithOwnerBodiesCancelHandlersAndToken() {
        let controller = MainActor.assumeIsolated { FeedViewController(user: FeedUser(name: "x")) }
        let all = MainActor.assumeIsolated { () -> StdPromise<Void> in
            return controller.loadAll(users: [FeedUser(name: "a"), FeedUser(name: "b")])
        }
        let done = expectation(description: "done")
        all.always(on: .immediate) { _ in done.fulfill() }
        wait(for: [done], timeout: 10)
        MainActor.assumeIsolated {
            XCTAssertEqual(controller.items, [FeedItem(title: "a"), FeedItem(title: "b")])
            XCTAssertEqual(controller.loads, 2)
        }

        // A token invalidated before resolution: the map is skipped (its promise cancelled).
        let stale = MainActor.assumeIsolated { () -> StdPromise<Void> in
            controller.networkActivityIndicatorVisible = true
            let promise = controller.loadAll(users: [FeedUser(name: "c")])
            controller.token.invalidate()
            return promise
        }
        let staleDone = expectation(description: "stale")
        stale.always(on: .immediate) { result in
            XCTAssertTrue(result.isCancelled)
            staleDone.fulfill()
        }
        wait(for: [staleDone], timeout: 10)
        MainActor.assumeIsolated { XCTAssertTrue(controller.networkActivityIndicatorVisible) }
    }

    func testActorBodyUsingSelfRunsInAJobAndOneUsingALocalRunsSynchronously() {
        let store = SnapshotStore()
        let done = expectation(description: "snapshots")
        Task {
            let (promise, resultAtOnce) = await store.snapshotUsingSelf()
            XCTAssertNil(resultAtOnce)
            let local = await store.snapshotFromALocal()
            XCTAssertEqual(local?.value, 7)
            promise.always(on: .immediate) { result in
                XCTAssertEqual(result.value, 7)
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
    }

    func testActorCallbacksRunOnTheActor() {
        let counter = FeedCounter()
        for (name, context) in contexts {
            let done = expectation(description: name)
            Task {
                let observed = await counter.observe(MyAPI.requestFeed(for: FeedUser(name: name)), on: context)
                observed.always(on: .immediate) { result in
                    XCTAssertEqual(result.value, 1, name)
                    done.fulfill()
                }
            }
            wait(for: [done], timeout: 10)
        }
        let counted = expectation(description: "counts")
        Task {
            let counts = await counter.counts
            XCTAssertEqual(counts.count, self.contexts.count)
            counted.fulfill()
        }
        wait(for: [counted], timeout: 10)
    }
}
