// Articles: a Sendable service whose promise API chains the 1.x way — map on a named context,
// flatMap, recover, catch and always, when(fulfilled:), a cancellable wait — the shapes
// `tomorrowland-migrate convert-body` moves into async twins. ArticleTests checks each value,
// error, context and cancellation, so that a conversion that changed a meaning fails there.

import Foundation
import Tomorrowland

/// A log that callbacks append to from any queue.
public final class ArticleLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String] = []

    public init() {}

    public func append(_ entry: String) {
        lock.withLock { entries.append(entry) }
    }

    public var lines: [String] { lock.withLock { entries } }
}

/// Articles by id, in memory.
public final class ArticleService: Sendable {
    let articles: [Int: String]
    /// How long `delayedText(id:)` waits.
    public let latency: TimeInterval
    public let placements = Placements()

    public init(articles: [Int: String], latency: TimeInterval = 60) {
        self.articles = articles
        self.latency = latency
    }

    /// One article's text.
    public func text(id: Int) -> Promise<String, APIError> {
        guard let text = articles[id] else { return Promise(rejected: .notFound) }
        return Promise(fulfilled: text)
    }

    /// The text after `latency` (a cancellable timer: cancelling the promise cancels the wait).
    public func delayedText(id: Int) -> Promise<String, APIError> {
        guard let text = articles[id] else { return Promise(rejected: .notFound) }
        return Promise(on: .utility, fulfilled: text, after: latency)
    }

    /// The article's words, split on the store's queue.
    public func words(id: Int) -> Promise<[String], APIError> {
        text(id: id).map(on: .storage) { text in
            self.placements.record("words")
            return text.split(separator: " ").map(String.init)
        }
    }

    /// The delayed article's words.
    public func delayedWords(id: Int) -> Promise<[String], APIError> {
        delayedText(id: id).map(on: .immediate) { $0.split(separator: " ").map(String.init) }
    }

    /// How many words, 0 for a missing article.
    public func wordCount(id: Int) -> Promise<Int, NoError> {
        words(id: id)
            .mapError(on: .immediate) { $0 as Swift.Error }
            .map(on: .immediate) { $0.count }
            .recover(on: .immediate) { _ in 0 }
    }

    /// The first word, rejected with `.notFound` for an empty article.
    public func headline(id: Int) -> Promise<String, APIError> {
        words(id: id).flatMap(on: .immediate) { words in
            words.first.map { Promise(fulfilled: $0) } ?? Promise(rejected: .notFound)
        }
    }

    /// The text of the article that article `id` names by number ("see 2").
    public func linked(from id: Int) -> Promise<String, APIError> {
        words(id: id)
            .map(on: .immediate) { words in Int(words.last ?? "") ?? 0 }
            .flatMap(on: .immediate) { next in self.text(id: next) }
    }

    /// The text, logging a failure and the end of every load.
    public func loggedText(id: Int, log: ArticleLog) -> StdPromise<String> {
        text(id: id)
            .mapError(on: .immediate) { $0 as Swift.Error }
            .catch(on: .immediate) { error in log.append("failed \(id): \(error)") }
            .always(on: .immediate) { _ in log.append("done \(id)") }
    }

    /// Two articles' lengths, loaded together.
    public func lengths(_ first: Int, _ second: Int) -> Promise<(Int, Int), APIError> {
        when(fulfilled: text(id: first), text(id: second)).map(on: .immediate) { one, two in
            (one.count, two.count)
        }
    }

    /// Every article's text, in the order of `ids`.
    public func texts(_ ids: [Int]) -> Promise<[String], APIError> {
        when(fulfilled: ids.map { text(id: $0) })
    }
}
