// The small fake API that documentation snippets call: a user service with callback-style and
// promise-returning entry points, the way a Tomorrowland 1.x codebase looks.

import Foundation
import Synchronization
import TestSupport
import TomorrowlandAsync

struct User: Sendable, Equatable {
    var id: Int
    var name: String
}

struct Image: Sendable, Equatable {
    var url: String
}

enum ServiceError: Swift.Error, Equatable {
    case notFound
    case offline
}

/// A domain error type that snippets map other errors into.
struct AppError: Swift.Error, Equatable {
    var message: String
    init(_ error: Swift.Error) { message = String(describing: error) }
}

/// Callback style: the completion handler runs on a background queue, after `latency`.
func loadUser(id: Int, latency: TimeInterval = 0.01, completion: @escaping @Sendable (User?, Swift.Error?) -> Void) {
    DispatchQueue.global().asyncAfter(deadline: .now() + latency) {
        if id < 0 { completion(nil, ServiceError.notFound) } else { completion(User(id: id, name: "user\(id)"), nil) }
    }
}

/// Promise style, built on the callback style.
func fetchUser(id: Int) -> StdPromise<User> {
    StdPromise(on: .immediate) { resolver in
        loadUser(id: id, completion: resolver.handleCallback())
    }
}

/// Takes `latency` to load, and cancels if asked to before then.
func fetchAvatar(for user: User, latency: TimeInterval = 0.3) -> StdPromise<Image> {
    StdPromise(on: .immediate) { resolver in
        resolver.onRequestCancel(on: .immediate) { resolver in resolver.cancel() }
        DispatchQueue.global().asyncAfter(deadline: .now() + latency) {
            resolver.fulfill(with: Image(url: "https://example.com/\(user.id).png"))
        }
    }
}

func fetchImage(_ url: String) -> StdPromise<Image> {
    StdPromise(on: .utility) { resolver in resolver.fulfill(with: Image(url: url)) }
}

func fetchFeed() -> StdPromise<[String]> {
    StdPromise(on: .utility) { resolver in resolver.fulfill(with: ["first", "second"]) }
}

/// A promise that never finishes on its own, but honours cancel requests.
func slowCancellableWork() -> Promise<Int, NoError> {
    Promise(on: .immediate) { resolver in
        resolver.onRequestCancel(on: .immediate) { resolver in resolver.cancel() }
    }
}

/// Records what a snippet did, from any thread.
final class Log: @unchecked Sendable {
    // @unchecked: `lines` is only touched while `lock` is held. (Not `Mutex`: ThreadSanitizer
    // on Linux does not see its futex hand-off and reports races that are not there.)
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.withLock { lines.append(line) }
    }

    var all: [String] {
        lock.withLock { lines }
    }
}

func show<T>(_ value: T) {
    _ = value
}

/// A cancellable callback-style transfer (like a `URLSessionTask`).
final class Transfer: Sendable {
    enum Failure: Swift.Error { case cancelled }

    private let cancelled = Atomic<Bool>(false)

    /// Completes after `latency` with the URL's bytes, or with `Failure.cancelled`.
    static func start(_ url: String, latency: TimeInterval = 0.5, completion: @escaping @Sendable (Data?, Swift.Error?) -> Void) -> Transfer {
        let transfer = Transfer()
        DispatchQueue.global().asyncAfter(deadline: .now() + latency) {
            if transfer.cancelled.load(ordering: .relaxed) {
                completion(nil, Failure.cancelled)
            } else {
                completion(Data(url.utf8), nil)
            }
        }
        return transfer
    }

    func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }
}

/// Like `fetchAvatar`, but takes half a second.
func fetchPhoto(for user: User) -> StdPromise<Image> {
    fetchAvatar(for: user, latency: 0.5)
}
