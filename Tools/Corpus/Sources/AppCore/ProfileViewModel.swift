// The profile screen's view model: main-actor code that drives promises and awaits.

import Foundation
import Tomorrowland
import TomorrowlandAsync

/// What the profile screen shows.
@MainActor
public final class ProfileViewModel {
    public let service: any UserServicing
    public let store: SettingsStore
    public private(set) var title = ""
    public private(set) var error: String?
    public private(set) var isLoading = false
    private let token = PromiseInvalidationToken()

    /// A promise made on first use; a closure in a lazy initializer is not main-actor isolated.
    public lazy var firstLoad: UserPromise = { @MainActor in self.service.fetchUser(id: 1) }()

    public init(service: any UserServicing, store: SettingsStore) {
        self.service = service
        self.store = store
    }

    /// Loads the user and shows their name: the 1.x way, with callbacks on the main context.
    @discardableResult
    public func load(id: Int) -> Promise<Void, NoError> {
        isLoading = true
        return service.fetchUser(id: id)
            .then(on: .main, token: token) { [weak self] user in self?.title = user.name }
            .catch(on: .main, token: token) { [weak self] error in self?.error = "\(error)" }
            .always(on: .main) { [weak self] _ in self?.isLoading = false }
            .map(on: .immediate) { _ in }
            .recover(on: .immediate) { _ in }
    }

    /// Reloads by email; typed error.
    public func reload(email: String) -> Promise<String, APIError> {
        service.fetchUser(email: email).map(on: .main) { user in
            self.title = user.name
            return user.name
        }
    }

    /// Async code written before the migration: awaits promises through `.value`.
    public func refresh() async throws {
        let user = try await service.fetchUser(id: 2).value
        title = user.name
        let theme = try await store.fetchSetting("theme").value
        title += " (theme \(theme.value))"
    }

    /// The ids to show, in a Task.
    public func loadIDs() -> Task<[Int], Never> {
        Task {
            let promise = service.userIDs()
            return (try? await promise.value) ?? []
        }
    }

    /// Cancels what is in flight.
    public func cancel() {
        token.cancelWithoutInvalidating()
    }

    /// Counts the users the 1.x way and keeps the promise, with a nested closure.
    public func countUsers() -> Promise<Int, NoError> {
        service.userIDs().map(on: .main) { ids in ids.map { $0 * 2 }.count }
    }
}

/// A feed of posts, generic over where posts come from.
public protocol PostSource {
    associatedtype Failure: Error
    /// The newest posts.
    func latest(limit: Int) -> Promise<[Post], Failure>
}

extension PostRepository: PostSource {
    public func latest(limit: Int) -> Promise<[Post], APIError> {
        all().map(on: .immediate) { Array($0.prefix(limit)) }
    }
}

/// Shows the latest posts of any source.
public struct FeedPresenter<Source: PostSource>: Sendable where Source: Sendable {
    public let source: Source

    public init(source: Source) {
        self.source = source
    }

    /// Titles of the newest posts.
    public func titles(limit: Int = 3) -> Promise<[String], Source.Failure> {
        source.latest(limit: limit).map(on: .immediate) { $0.map(\.title) }
    }

    /// A static helper with a long signature that a twin has to wrap to stay under 120 columns.
    public static func summarize(posts: [Post], includingAuthorsWithoutAnyPublishedPostsInTheLastThirtyDays include: Bool) -> StdPromise<String> {
        Promise(fulfilled: "\(posts.count) posts\(include ? " +inactive" : "")")
    }
}

/// Token promises: the invalidation token is passed on by the twin.
public final class Poller: Sendable {
    public init() {}

    /// Polls once; callbacks registered through the token promise stop when it is invalidated.
    public func poll(token: PromiseInvalidationToken) -> TokenPromise<Int, NoError> {
        Promise<Int, NoError>(fulfilled: 1).withToken(token)
    }
}
