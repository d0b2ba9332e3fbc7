// Every shape convert-body converts, for ConvertBodyTests: after add-async-twins and
// convert-body each chain below is converted, and the result compiles in Swift 5 and 6 mode.

import Foundation
import Tomorrowland

public struct Post: Sendable {
    public var id: Int
    public var title: String
}

public enum APIError: Error {
    case offline, notFound
}

public let workQueue = DispatchQueue(label: "shapes.work")

public final class Feed: Sendable {
    public init() {}

    public func latestPosts(limit: Int) -> Promise<[Post], APIError> {
        Promise(fulfilled: (0..<limit).map { Post(id: $0, title: "t\($0)") })
    }

    /// `map` with `$0`.
    public func titles(limit: Int) -> Promise<[String], APIError> {
        latestPosts(limit: limit).map(on: .immediate) { $0.map(\.title) }
    }

    /// `map` on a QoS queue and on a dispatch queue; a parameter named like the callee.
    public func sortedTitles() -> Promise<[String], APIError> {
        titles(limit: 3)
            .map(on: .utility) { titles in titles.sorted() }
            .map(on: .queue(workQueue)) { titles in
                let reversed = Array(titles.reversed())
                return reversed
            }
    }

    /// `flatMap` into a function with a twin, and into a promise expression.
    public func secondTitle() -> Promise<String, APIError> {
        titles(limit: 2)
            .flatMap(on: .immediate) { titles in self.titles(limit: titles.count) }
            .flatMap(on: .immediate) { titles in titles.last.map { Promise(fulfilled: $0) } ?? Promise(rejected: .notFound) }
    }

    /// `catch` at the end, after erasing the error type.
    public func first() -> StdPromise<String> {
        latestPosts(limit: 1)
            .mapError(on: .immediate) { $0 as Swift.Error }
            .map(on: .immediate) { posts in posts[0].title }
            .catch(on: .immediate) { error in print("no title: \(error)") }
    }

    /// `recover` (a promise that cannot fail) and `always`.
    public func count() -> Promise<Int, NoError> {
        latestPosts(limit: 10)
            .mapError(on: .immediate) { $0 as Swift.Error }
            .map(on: .immediate) { posts -> Int in
                let count = posts.count
                return count * 2
            }
            .recover(on: .immediate) { _ in 0 }
            .always(on: .immediate) { _ in print("counted") }
    }

    /// `mapError` into another typed error.
    public func retitled() -> Promise<[String], APIError> {
        titles(limit: 1).mapError(on: .immediate) { _ in APIError.offline }
    }

    /// `tryMap`, with a statement over several lines.
    public func joinedLength() -> StdPromise<Int> {
        titles(limit: 2)
            .mapError(on: .immediate) { $0 as Swift.Error }
            .tryMap(on: .immediate) { titles in
                let joined = titles.joined(
                    separator: ","
                )
                guard !joined.isEmpty else { throw APIError.notFound }
                return joined.count
            }
    }

    /// `when(fulfilled:)` with a tuple closure, and of an array.
    public func counts() -> Promise<(Int, Int), APIError> {
        when(fulfilled: latestPosts(limit: 1), latestPosts(limit: 2)).map(on: .immediate) { one, two in
            (one.count, two.count)
        }
    }

    public func everyTitle(_ limits: [Int]) -> Promise<[[String]], APIError> {
        when(fulfilled: limits.map { titles(limit: $0) })
    }

    /// Statements before the chain, with early returns of promises.
    public func guardedCount(_ limit: Int) -> Promise<Int, APIError> {
        guard limit > 0 else { return Promise(rejected: .notFound) }
        if limit == 1 { return Promise(fulfilled: 1) }
        let doubled = limit * 2
        return latestPosts(limit: doubled).map(on: .immediate) { posts in posts.count }
    }

    /// `flatMapError` into another promise.
    public func fallbackTitles() -> Promise<[String], APIError> {
        titles(limit: 3).flatMapError(on: .immediate) { _ in self.titles(limit: 1) }
    }

    /// `tryRecover`, whose closure may throw.
    public func recoveredCount() -> StdPromise<Int> {
        latestPosts(limit: 2).map(on: .immediate) { $0.count }.tryRecover(on: .immediate) { error in
            guard case APIError.offline = error else { throw error }
            return 0
        }
    }

    /// A `flatMap` with several statements on a named context.
    public func nextTitles() -> Promise<[String], APIError> {
        titles(limit: 1).flatMap(on: .utility) { titles in
            let limit = titles.count + 1
            return self.titles(limit: limit)
        }
    }

    /// A `flatMap` on a named context whose closure returns early (a rejection, a value).
    public func checkedCount(limit: Int) -> Promise<Int, APIError> {
        latestPosts(limit: limit).flatMap(on: .utility) { posts -> Promise<Int, APIError> in
            guard !posts.isEmpty else {
                return Promise(rejected: .notFound)
            }
            return Promise(fulfilled: posts.count)
        }
    }

    /// A `mapError` on the chain's base, before its value steps.
    public func renamedTitles() -> StdPromise<[String]> {
        titles(limit: 2).mapError(on: .immediate) { _ in APIError.offline }.map(on: .utility) { titles in titles.reversed() }
    }

    /// A promise kept in a `let` before the chain, which only the chain reads (it is consumed there).
    public func pairCount() -> Promise<Int, APIError> {
        let first: Promise<[Post], APIError> = latestPosts(limit: 1)
        let second: Promise<[Post], APIError> = latestPosts(limit: 2)
        return when(fulfilled: first, second).map(on: .immediate) { one, two in one.count + two.count }
    }

    /// A context held in a value.
    public func countOn(_ context: PromiseContext) -> Promise<Int, APIError> {
        latestPosts(limit: 1).map(on: context) { $0.count }
    }

    /// `always` on a named context (a `defer` cannot hop), after a `catch`.
    public func loggedTitles(log: ShapeLog) -> StdPromise<[String]> {
        titles(limit: 1)
            .mapError(on: .immediate) { $0 as Swift.Error }
            .catch(on: .utility) { error in log.add("failed: \(error)") }
            .always(on: .queue(workQueue)) { _ in log.add("done") }
    }

    /// A `TokenPromise` made by a final `withToken`.
    public func tokenCount(token: PromiseInvalidationToken) -> TokenPromise<Int, APIError> {
        latestPosts(limit: 2).map(on: .immediate) { $0.count }.withToken(token)
    }
}

/// A log the chains write to from any queue.
public final class ShapeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    public init() {}

    public func add(_ line: String) {
        lock.withLock { lines.append(line) }
    }
}

extension PromiseContext.Main {
    /// A context of the app's that is the main queue, as `.main` is.
    public static var screen: Self { .main }
}

/// A context on `PromiseContext.Main` and an error handler on `.main`, in nonisolated code: on
/// the main queue's executor.
public func loggedCount(feed: Feed) -> StdPromise<Int> {
    feed.latestPosts(limit: 1)
        .mapError(on: .immediate) { $0 as Swift.Error }
        .map(on: .screen) { $0.count }
        .catch(on: .main) { print("failed: \($0)") }
}

/// `.main` in nonisolated code: on the main queue's executor.
public func mainCount(feed: Feed) -> Promise<Int, APIError> {
    feed.latestPosts(limit: 2).map(on: .main) { posts in posts.count }
}

/// Main-actor code: `.main`, `.auto` and no context run inline on the actor; `then` passes the value on.
@MainActor
public final class Screen {
    public var title = ""
    public var loading = false
    let feed = Feed()

    public init() {}

    public func load() -> StdPromise<String> {
        feed.latestPosts(limit: 1)
            .mapError(on: .immediate) { $0 as Swift.Error }
            .map(on: .main) { posts in posts[0].title }
            .then(on: .auto) { text in self.title = text }
            .catch(on: .main) { error in self.title = "failed: \(error)" }
            .always(on: .main) { _ in self.loading = false }
    }

    /// A statement before the chain, and `[weak self]` closures.
    public func reload() -> StdPromise<String> {
        loading = true
        return feed.latestPosts(limit: 1)
            .mapError(on: .immediate) { $0 as Swift.Error }
            .map(on: .main) { posts in posts[0].title }
            .then(on: .main) { [weak self] title in
                guard let self else { return }
                self.title = title
            }
            .always(on: .main) { [weak self] _ in self?.loading = false }
    }
}

/// Invalidation tokens on steps (an observer, a transforming step on a named context, an error
/// handler, `always`), and a `TokenPromise` made by a final `withToken`.
@MainActor
public final class Tracker {
    public var shown: [String] = []
    let feed = Feed()
    let token = PromiseInvalidationToken()

    public init() {}

    public func track() -> Promise<Int, APIError> {
        token.invalidate()
        return feed.latestPosts(limit: 2)
            .map(on: .utility, token: token) { $0.count }
            .then(on: .main, token: token) { count in self.shown.append("\(count)") }
            .catch(on: .main, token: token) { error in self.shown.append("\(error)") }
            .always(on: .main, token: token) { _ in self.shown.append("done") }
    }

    public func follow() -> TokenPromise<String, APIError> {
        feed.latestPosts(limit: 1)
            .map(on: .immediate, token: token) { posts in posts[0].title }
            .then(on: .main, token: token) { title in self.shown.append(title) }
            .withToken(token)
    }
}

/// `.nowOr(c)` off the caller's actor and `mapResult` (issue 39).
public final class NowOrShapes: Sendable {
    public init() {}

    public func latestPosts(limit: Int) -> Promise<[Post], APIError> {
        Promise(fulfilled: (0..<limit).map { Post(id: $0, title: "t\($0)") })
    }

    /// `.nowOr(.utility)` on a promise parameter: at once when it has resolved, else on `.utility`.
    public func count(of posts: Promise<[Post], APIError>) -> Promise<Int, APIError> {
        posts.map(on: .nowOr(.utility)) { posts -> Int in
            let count = posts.count
            return count
        }
    }

    /// `.nowOr` after a step on `.utility`: that step's promise was pending when it was registered.
    public func countPlusOne(limit: Int) -> Promise<Int, APIError> {
        latestPosts(limit: limit).map(on: .utility) { $0.count }.map(on: .nowOr(.queue(workQueue))) { $0 + 1 }
    }

    /// `mapResult` on the chain's base.
    public func countOrZero(limit: Int) -> Promise<Int, NoError> {
        latestPosts(limit: limit).mapResult(on: .utility) { result -> PromiseResult<Int, NoError> in
            switch result {
            case .value(let posts): return .value(posts.count)
            case .error: return .value(0)
            case .cancelled: return .cancelled
            }
        }
    }

    /// `.nowOr(.main)` off the main actor: at once on a resolved base on the main queue, else on the main actor.
    public func mainTitles(_ posts: Promise<[Post], APIError>) -> Promise<[String], APIError> {
        posts.map(on: .nowOr(.main)) { posts in posts.map(\.title) }
    }

    /// A `flatMap` of statements and a `recover` on `.nowOr(.main)` off the main actor.
    public func mainFirstTitle(of posts: Promise<[Post], APIError>) -> Promise<String, APIError> {
        posts.flatMap(on: .nowOr(.main)) { posts -> Promise<String, APIError> in
            guard let first = posts.first else { return Promise(rejected: .notFound) }
            return Promise(fulfilled: first.title)
        }
    }

    public func mainPostsOrNone(_ posts: Promise<[Post], APIError>) -> Promise<[Post], NoError> {
        posts.recover(on: .nowOr(.main)) { _ in [] }
    }

    /// `recover` on `.nowOr(.utility)`: at once on a resolved base, else on `.utility`.
    public func postsOrNone(_ posts: Promise<[Post], APIError>) -> Promise<[Post], NoError> {
        posts.recover(on: .nowOr(.utility)) { _ in [] }
    }

    /// A `flatMap` of several statements on `.nowOr(.utility)`: its promise, awaited on either path.
    public func firstTitle(of posts: Promise<[Post], APIError>) -> Promise<String, APIError> {
        posts.flatMap(on: .nowOr(.utility)) { posts -> Promise<String, APIError> in
            guard let first = posts.first else { return Promise(rejected: .notFound) }
            return Promise(fulfilled: first.title)
        }
    }

    /// `mapResult` after a step, inline: the step's result in a `do`/`catch`.
    public func titleCountOrZero(limit: Int) -> Promise<Int, NoError> {
        latestPosts(limit: limit)
            .map(on: .utility) { posts -> Int in posts.count }
            .mapResult(on: .immediate) { (result: PromiseResult<Int, APIError>) -> PromiseResult<Int, NoError> in
                .value(result.value ?? 0)
            }
    }

    /// `flatMapResult` after a step, inline: its `return`s are the twin's.
    public func titlesOrFirst(limit: Int) -> Promise<[String], APIError> {
        latestPosts(limit: limit)
            .map(on: .utility) { posts -> [String] in posts.map(\.title).sorted() }
            .flatMapResult(on: .immediate) { (result: PromiseResult<[String], APIError>) -> Promise<[String], APIError> in
                if case .value(let sorted) = result, !sorted.isEmpty { return Promise(fulfilled: sorted) }
                return self.latestPosts(limit: 1).map(on: .immediate) { $0.map(\.title) }
            }
    }
}

/// `.nowOr(.utility)` in main-actor code: inline on the main actor when resolved, else on `.utility`.
@MainActor public final class NowOrScreen {
    public init() {}

    public func doubled(_ value: Promise<Int, APIError>) -> Promise<Int, APIError> {
        value.then(on: .nowOr(.utility)) { print($0) }.map(on: .immediate) { $0 * 2 }
    }
}
