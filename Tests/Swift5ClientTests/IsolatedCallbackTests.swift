// Callbacks keep their caller's actor: 1.x code written inside `@MainActor` classes and
// actors compiles (no new warning in Swift 5 mode, no error in Swift 6 mode), and every
// callback with no context, `.auto`, `.immediate` (spelled, or held as
// `PromiseContext.CallerIsolated`) runs isolated to its actor; one with `.main` or
// `.nowOr(.main)` (spelled, or held as `PromiseContext.Main`) on the main actor.
// `MainActor.preconditionIsolated()` / `actor.preconditionIsolated()` trap if a callback ever
// ran elsewhere.
//
// One file, compiled in both language modes: this is the Swift 5 client target's file, and
// Tests/Swift6ClientTests/IsolatedCallbackTests.swift is a symbolic link to it.
//
// A context held in a value here is a `PromiseContext.CallerIsolated` value, whose type keeps
// the caller's actor, or a `PromiseContext.Main` value. NamedContextPlacementTests covers the other side: a named context
// (`.utility`, `.queue(q)`) or a `PromiseContext` value runs the closure on that context,
// nonisolated.

import Foundation
import Tomorrowland
import XCTest

struct FeedItem: Sendable, Equatable {
    var title: String
}

struct FeedUser: Sendable {
    var name: String
}

enum FeedError: Swift.Error, Equatable {
    case offline
}

/// The README's API (ChainingTests adds its `fetchUser` and `login`).
enum MyAPI {
    /// A promise resolved off the main actor: the feed, or `FeedError.offline` for an
    /// unnamed user.
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

/// Tomorrowland's README example, verbatim, where such code lives: a view controller.
@MainActor final class FeedViewController {
    var networkActivityIndicatorVisible = false
    var user: FeedUser
    private(set) var items: [FeedItem] = []
    private(set) var shownErrors: [String] = []
    private(set) var loads = 0
    let token = PromiseInvalidationToken()

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

    /// The same chain on a context held in a value whose type keeps the main actor
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

    /// The same chain on `.main` held in a `PromiseContext.Main` value: on the main actor.
    func load(on context: PromiseContext.Main) {
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
    private(set) var counts: [String: Int] = [:]
    private(set) var callbacks = 0

    /// Callbacks on a context held in a `PromiseContext.CallerIsolated` value.
    func observe(_ feed: StdPromise<[FeedItem]>, on context: PromiseContext.CallerIsolated) -> StdPromise<Int> {
        feed.then(on: context) { items in
            self.preconditionIsolated()
            for item in items { self.counts[item.title, default: 0] += 1 }
            self.callbacks += 1
        }.map(on: context) { items in
            self.preconditionIsolated()
            self.callbacks += 1
            return items.count
        }.recover(on: context) { _ in
            self.preconditionIsolated()
            return -1
        }.upcast
    }

    /// A promise body and a cancel handler written in the actor.
    func work(on context: PromiseContext.CallerIsolated) -> StdPromise<Int> {
        StdPromise<Int>(on: context) { resolver in
            self.preconditionIsolated()
            self.callbacks += 1
            resolver.onRequestCancel(on: context) { resolver in
                self.preconditionIsolated()
                self.counts["cancel", default: 0] += 1
                resolver.cancel()
            }
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

/// Main-actor state shared with callbacks.
@MainActor final class MainRecorder {
    private(set) var events: [String] = []
    func record(_ event: String) {
        MainActor.preconditionIsolated()
        events.append(event)
    }
}

/// Every context that keeps the caller's actor, held in a value of its own type (a
/// `PromiseContext` value runs the callback where it says: NamedContextPlacementTests).
let everyContext: [(String, PromiseContext.CallerIsolated)] = [
    ("immediate", .immediate), ("nowOr(immediate)", .nowOr(.immediate)),
]

/// Every context that runs its callback on the main actor, held in a value of its own type.
let mainContexts: [(String, PromiseContext.Main)] = [("main", .main), ("nowOr(main)", .nowOr(.main))]

/// Waits (with a deadline) until `promise` resolves, and returns its result.
func settled<Value, Error>(_ promise: Promise<Value, Error>, timeout: TimeInterval = 10) async -> PromiseResult<Value, Error>? {
    let done = XCTestExpectation(description: "settled")
    promise.always(on: .immediate) { _ in done.fulfill() }
    _ = await XCTWaiter().fulfillment(of: [done], timeout: timeout)
    return promise.result
}

final class IsolatedCallbackTests: XCTestCase {
    /// The README's example in a view controller compiles unchanged and runs on the main
    /// actor, with `.auto` (evaluated on the main queue: `.main`) and with every context.
    func testFeedViewControllerFromReadme() {
        let contexts = [("auto", PromiseContext.CallerIsolated.auto)].map { ($0, $1, PromiseContext.Main?.none) }
            + everyContext.map { ($0, $1, PromiseContext.Main?.none) } + mainContexts.map { ($0, PromiseContext.CallerIsolated.auto, $1) }
        for (name, callerContext, mainContext) in contexts {
            let controller = MainActor.assumeIsolated { FeedViewController(user: FeedUser(name: name)) }
            let context = mainContext?.context ?? callerContext.context
            MainActor.assumeIsolated {
                if let mainContext { controller.load(on: mainContext) } else if name == "auto" { controller.load() } else {
                    controller.load(on: callerContext)
                }
                if case .immediate = context {} else if case .nowOr = context {} else {
                    // Not run synchronously: the callbacks are delivered later on the main actor.
                    XCTAssertTrue(controller.networkActivityIndicatorVisible, name)
                }
            }
            let idle = expectation(for: NSPredicate { _, _ in MainActor.assumeIsolated { controller.loads == 1 } }, evaluatedWith: nil)
            wait(for: [idle], timeout: 10)
            MainActor.assumeIsolated {
                XCTAssertEqual(controller.items, [FeedItem(title: name)], name)
                XCTAssertFalse(controller.networkActivityIndicatorVisible, name)
                XCTAssertEqual(controller.shownErrors, [], name)
            }
        }
        let failing = MainActor.assumeIsolated { FeedViewController(user: FeedUser(name: "")) }
        MainActor.assumeIsolated { failing.load(on: .main) }
        let idle = expectation(for: NSPredicate { _, _ in MainActor.assumeIsolated { failing.loads == 1 } }, evaluatedWith: nil)
        wait(for: [idle], timeout: 10)
        MainActor.assumeIsolated { XCTAssertEqual(failing.shownErrors, ["offline"]) }
    }

    /// `with:` owners, promise bodies and cancel handlers on `.main`, `when` + `then`; a token
    /// invalidated before resolution skips the callback it guards.
    func testViewControllerWhenWithOwnerBodiesCancelHandlersAndToken() {
        let controller = MainActor.assumeIsolated { FeedViewController(user: FeedUser(name: "x")) }
        let all = MainActor.assumeIsolated {
            controller.loadAll(users: [FeedUser(name: "a"), FeedUser(name: "b")])
        }
        let done = expectation(description: "all loaded")
        all.always(on: .immediate) { _ in done.fulfill() }
        wait(for: [done], timeout: 10)
        MainActor.assumeIsolated {
            XCTAssertEqual(controller.items, [FeedItem(title: "a"), FeedItem(title: "b")])
            XCTAssertEqual(controller.loads, 2)
            XCTAssertEqual(controller.shownErrors, [])
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
        MainActor.assumeIsolated {
            XCTAssertEqual(controller.items, [FeedItem(title: "c")], "the owner's then ran")
            XCTAssertTrue(controller.networkActivityIndicatorVisible, "the map guarded by the token did not")
        }

        // A cancel request reaches the main-actor cancel handler on the main actor.
        let pending = MainActor.assumeIsolated { () -> StdPromise<Int> in
            StdPromise<Int>(on: .immediate) { resolver in
                resolver.onRequestCancel(on: .main) { resolver in
                    MainActor.preconditionIsolated()
                    controller.networkActivityIndicatorVisible = false
                    resolver.cancel()
                }
            }
        }
        let cancelled = expectation(description: "cancelled")
        pending.always(on: .immediate) { result in
            XCTAssertTrue(result.isCancelled)
            cancelled.fulfill()
        }
        DispatchQueue.global().async { pending.requestCancel() }
        wait(for: [cancelled], timeout: 10)
        MainActor.assumeIsolated { XCTAssertFalse(controller.networkActivityIndicatorVisible) }
    }

    /// A main-actor callback runs on the main actor for every context, resolved
    /// off the main queue (pending at registration) and already resolved at registration.
    func testMainActorCallbacksRunIsolatedOnEveryContext() {
        let recorder = MainActor.assumeIsolated { MainRecorder() }
        for (name, context) in everyContext {
            let (promise, resolver) = Promise<Int, Never>.makeWithResolver()
            let ran = expectation(description: name)
            ran.expectedFulfillmentCount = 3
            MainActor.assumeIsolated {
                promise.then(on: context) { _ in
                    recorder.record("then \(name)")
                    ran.fulfill()
                }.map(on: context) { value in
                    recorder.record("map \(name)")
                    return value
                }.always(on: context) { _ in
                    recorder.record("always \(name)")
                    ran.fulfill()
                }
                Promise<Int, Never>(fulfilled: 1).tap(on: context) { _ in
                    recorder.record("resolved \(name)")
                    ran.fulfill()
                }
            }
            DispatchQueue.global().async { resolver.fulfill(with: 1) }
            wait(for: [ran], timeout: 10)
        }
        for (name, context) in mainContexts {
            let (promise, resolver) = Promise<Int, Never>.makeWithResolver()
            let ran = expectation(description: name)
            ran.expectedFulfillmentCount = 3
            MainActor.assumeIsolated {
                promise.then(on: context) { _ in
                    recorder.record("then \(name)")
                    ran.fulfill()
                }.map(on: context) { value in
                    recorder.record("map \(name)")
                    return value
                }.always(on: context) { _ in
                    recorder.record("always \(name)")
                    ran.fulfill()
                }
                Promise<Int, Never>(fulfilled: 1).tap(on: context) { _ in
                    recorder.record("resolved \(name)")
                    ran.fulfill()
                }
            }
            DispatchQueue.global().async { resolver.fulfill(with: 1) }
            wait(for: [ran], timeout: 10)
        }
        let events = MainActor.assumeIsolated { recorder.events }
        for name in everyContext.map(\.0) + mainContexts.map(\.0) {
            let chain = events.filter { $0.hasSuffix(" \(name)") && !$0.hasPrefix("resolved") }
            XCTAssertEqual(chain, ["then \(name)", "map \(name)", "always \(name)"], "in order on the main actor")
            XCTAssertTrue(events.contains("resolved \(name)"))
        }
    }

    /// On the main queue, `.immediate` and `.nowOr` run a main-actor
    /// callback synchronously when the promise is already resolved, as they always did.
    func testMainActorCallbackRunsSynchronouslyOnMainForImmediateAndNowOr() {
        MainActor.assumeIsolated {
            let recorder = MainRecorder()
            Promise<Int, Never>(fulfilled: 1).tap(on: .immediate) { _ in recorder.record("immediate") }
            Promise<Int, Never>(fulfilled: 1).tap(on: .nowOr(.main)) { _ in
                recorder.record(PromiseContext.isExecutingNow ? "now" : "later")
            }
            _ = Promise<Int, Never>(on: .immediate) { resolver in
                recorder.record("body")
                resolver.fulfill(with: 1)
            }
            XCTAssertEqual(recorder.events, ["immediate", "now", "body"])
        }
    }

    /// An invalidated token skips a main-actor callback; the token is checked on the actor,
    /// when the callback would run.
    func testTokenInvalidatedBeforeResolution() {
        let recorder = MainActor.assumeIsolated { MainRecorder() }
        let token = PromiseInvalidationToken()
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let chain = MainActor.assumeIsolated {
            promise.then(on: .main, token: token) { _ in recorder.record("then") }
                .map(on: .main, token: token) { _ in recorder.record("map") }
        }
        token.invalidate()
        DispatchQueue.global().async { resolver.fulfill(with: 1) }
        let done = expectation(description: "done")
        chain.always(on: .immediate) { result in
            XCTAssertEqual(result.isCancelled, true)
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        MainActor.assumeIsolated { XCTAssertEqual(recorder.events, []) }
    }

    /// An actor's callbacks update its state on the actor, for every context.
    func testActorCallbacksRunIsolatedOnEveryContext() async {
        let counter = FeedCounter()
        for (name, context) in everyContext {
            let observed = await counter.observe(MyAPI.requestFeed(for: FeedUser(name: name)), on: context)
            let result = await settled(observed)
            XCTAssertEqual(result?.value, 1, name)
            let failed = await counter.observe(MyAPI.requestFeed(for: FeedUser(name: "")), on: context)
            let failure = await settled(failed)
            XCTAssertEqual(failure?.value, -1, name)
        }
        let counts = await counter.counts
        let callbacks = await counter.callbacks
        XCTAssertEqual(counts.count, everyContext.count)
        XCTAssertEqual(Set(counts.values), [1])
        XCTAssertEqual(callbacks, 2 * everyContext.count)
    }

    /// Promise bodies and cancel handlers written in an actor run on the actor.
    func testActorPromiseBodiesAndCancelHandlers() async {
        let counter = FeedCounter()
        for (name, context) in everyContext {
            let work = await counter.work(on: context)
            DispatchQueue.global().async { work.requestCancel() }
            let result = await settled(work)
            XCTAssertEqual(result?.isCancelled, true, name)
        }
        let cancels = await counter.counts["cancel"]
        let bodies = await counter.callbacks
        XCTAssertEqual(cancels, everyContext.count)
        XCTAssertEqual(bodies, everyContext.count)
    }

    /// A promise body in an actor that uses `self` runs in a job on the actor, after the
    /// method returned; one that uses a local is nonisolated and runs synchronously.
    func testActorBodyUsingSelfRunsInAJobAndOneUsingALocalRunsSynchronously() async {
        let store = SnapshotStore()
        let (promise, resultAtOnce) = await store.snapshotUsingSelf()
        XCTAssertNil(resultAtOnce)
        let local = await store.snapshotFromALocal()
        XCTAssertEqual(local?.value, 7)
        let result = await settled(promise)
        XCTAssertEqual(result?.value, 7)
    }

    /// Callbacks registered for one actor run in registration order.
    func testActorCallbacksKeepRegistrationOrder() async {
        actor Log {
            var entries: [Int] = []
            func observe(_ promise: Promise<Int, Never>) -> Promise<Int, Never> {
                var last = promise
                for index in 0..<20 {
                    last = promise.then { _ in self.entries.append(index) }
                }
                return last
            }
        }
        let log = Log()
        let (promise, resolver) = Promise<Int, Never>.makeWithResolver()
        let last = await log.observe(promise)
        resolver.fulfill(with: 1)
        _ = await settled(last)
        let entries = await log.entries
        XCTAssertEqual(entries, Array(0..<20))
    }
}
