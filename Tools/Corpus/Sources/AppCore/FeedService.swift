// The feed: posts and their authors, loaded together, retried, with a timeout; a Sendable
// service that the feed screen and the widgets share.

import Foundation
import Tomorrowland
import TomorrowlandAsync

/// A post together with its author.
public struct FeedEntry: Sendable, Equatable {
    public var post: Post
    public var author: User
}

/// Loads feeds. Sendable: its state is immutable, and each call starts its own work.
public final class FeedService: Sendable {
    let users: [Int: User]
    let posts: [Post]
    /// How many times a flaky load is tried.
    public let attempts: Int

    public init(users: [User], posts: [Post], attempts: Int = 3) {
        self.users = Dictionary(uniqueKeysWithValues: users.map { ($0.id, $0) })
        self.posts = posts
        self.attempts = attempts
    }

    /// One author.
    ///
    /// - Parameter id: The author's id.
    /// - Returns: A promise of the author.
    public func author(id: Int) -> Promise<User, APIError> {
        guard let user = users[id] else { return Promise(rejected: .notFound) }
        return Promise(fulfilled: user)
    }

    /// The newest posts, at most `limit`.
    public func latestPosts(limit: Int = 10) -> PostsPromise {
        Promise(fulfilled: Array(posts.sorted { $0.id > $1.id }.prefix(limit)))
    }

    /// Posts with their authors; a post whose author is unknown is left out.
    public func entries(limit: Int = 10) -> Promise<[FeedEntry], APIError> {
        let users = self.users
        return latestPosts(limit: limit).map(on: .immediate) { posts in
            posts.compactMap { post in users[post.authorID].map { FeedEntry(post: post, author: $0) } }
        }
    }

    /// Loads with retries: `load` fails `failures` times before it succeeds.
    public func flakyCount(failures: Int) -> Promise<Int, APIError> {
        let counter = AttemptCounter()
        return retry(on: .immediate, attempts: attempts) { () -> Promise<Int, APIError> in
            counter.next() <= failures ? Promise(rejected: .offline) : Promise(fulfilled: counter.value)
        }
    }

    /// The first post's title and the number of authors, loaded together.
    public func summary() -> Promise<(String, Int), APIError> {
        when(fulfilled: latestPosts(limit: 1), author(id: 1)).map(on: .immediate) { posts, _ in
            (posts.first?.title ?? "", self.users.count)
        }
    }

    /// Titles for a widget, waiting at most `seconds`.
    public func widgetTitles(within seconds: TimeInterval) -> Promise<[String], PromiseTimeoutError<APIError>> {
        latestPosts(limit: 3).map(on: .immediate) { $0.map(\.title) }.timeout(on: .immediate, delay: seconds)
    }

    /// Entries as an async sequence of one element, for SwiftUI-style consumers.
    public func entryStream() -> AsyncThrowingStream<[FeedEntry], Swift.Error> {
        AsyncThrowingStream { continuation in
            let promise = entries()
            promise.always(on: .immediate) { result in
                switch result {
                case .value(let entries): continuation.yield(entries); continuation.finish()
                case .error(let error): continuation.finish(throwing: error)
                case .cancelled: continuation.finish(throwing: CancellationError())
                }
            }
            continuation.onTermination = { _ in promise.requestCancel() }
        }
    }
}

/// Counts attempts across retries.
final class AttemptCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}
