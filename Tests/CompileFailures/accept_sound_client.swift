// Positive control: the sound counterparts of the reject_* fixtures. Must compile with no
// error and no warning in Swift 6 mode, which proves the harness (module found, flags right)
// and that sound code is not rejected.
import Dispatch
import Foundation
import Synchronization
import Tomorrowland

// Sendable value types travel freely.
struct ImageSize: Sendable, Equatable {
    var width: Int
    var height: Int
}

// State shared with callbacks lives in an actor or behind a Mutex.
actor ImageCache {
    var sizes: [String: ImageSize] = [:]
    func store(_ size: ImageSize, for key: String) { sizes[key] = size }
}

final class Counter: Sendable {
    private let total = Mutex(0)
    func add(_ value: Int) { total.withLock { $0 += value } }
    var value: Int { total.withLock { $0 } }
}

func remember(_ size: Promise<ImageSize, String>, in cache: ImageCache) {
    _ = size.then(on: .utility) { value in
        Task { await cache.store(value, for: "latest") }
    }
}

func count(_ promises: [Promise<Int, String>], into counter: Counter) {
    for promise in promises {
        _ = promise.then { counter.add($0) }
    }
}

// A Sendable promise can be sent into a Task and still be used by the caller.
func open(_ size: Promise<ImageSize, String>) {
    Task { _ = size.result }
    size.requestCancel()
}

// A resolver of a Sendable promise may escape to another queue.
func render() -> StdPromise<ImageSize> {
    let (promise, resolver) = StdPromise<ImageSize>.makeWithResolver()
    DispatchQueue.global().async {
        resolver.fulfill(with: ImageSize(width: 1, height: 1))
    }
    return promise
}

// Main-actor state is updated from `.main` callbacks.
@MainActor
final class ProfileViewModel {
    var title = ""

    func load(_ name: Promise<String, String>, token: PromiseInvalidationToken) {
        name.then(on: .main, token: token) { [weak self] name in
            self?.title = name
        }.catch { error in
            self.title = "error: \(error)"
        }
    }
}

// Callbacks written in an actor method are isolated to the actor and run on it, with no
// context, `.immediate` or a context held as `PromiseContext.CallerIsolated`; a named context
// (`.utility`) or a `PromiseContext` value runs a pure closure where it says. (`.main` runs its
// closure on the main actor: touching the actor's state from it is rejected,
// reject_actor_state_in_main_closure.swift.)
actor Tally {
    var value = 0
    let delivery: PromiseContext.CallerIsolated = .immediate
    let context: PromiseContext = .utility

    func observe(_ promise: Promise<Int, String>) {
        _ = promise.then { delta in
            self.value += delta
        }
        _ = promise.then(on: delivery) { delta in
            self.value += delta
        }
        _ = promise.map(on: .utility) { delta in delta * 2 }
        _ = promise.map(on: context) { delta in delta * 2 }
    }
}

// Cancellation plumbing is Sendable: tokens, cancellables, resolvers of Sendable promises.
func fetch() -> StdPromise<Data> {
    return Promise(on: .immediate) { resolver in
        let cancelled = Mutex(false)
        resolver.onRequestCancel(on: .immediate) { resolver in
            cancelled.withLock { $0 = true }
            resolver.cancel()
        }
    }
}

func cancelLater(_ promise: StdPromise<Data>, token: PromiseInvalidationToken) {
    let cancellable = promise.cancellable
    promise.requestCancelOnInvalidate(token)
    Task.detached {
        cancellable.requestCancel()
        token.invalidate()
    }
}

func inspect(_ result: PromiseResult<ImageSize, String>, _ wrapped: TokenPromise<ImageSize, String>, on ready: Promise<Int, String>) {
    _ = ready.then(on: .utility) { _ in
        _ = result.value
        _ = wrapped.inner
    }
}

// A callback written in a `lazy var` initializer of a `@MainActor` class uses the class's state
// once the closure says `@MainActor` (reject_mainactor_state_in_lazy_var_closure.swift), or when
// it is given `.main`, whose closure is always `@MainActor`.
@MainActor
final class AvatarViewModel {
    var userID = 7

    lazy var avatar = DelayedPromise<Int, String>(on: .immediate) { @MainActor [weak self] resolver in
        resolver.fulfill(with: self?.userID ?? 0)
    }

    lazy var avatarOnMain = DelayedPromise<Int, String>(on: .main) { [weak self] resolver in
        resolver.fulfill(with: self?.userID ?? 0)
    }
}

// `.main` in an actor or a class on another global actor: a main-actor closure that uses no state
// of that actor, then a following callback with no context back on the actor
// (reject_actor_state_in_main_closure.swift).
actor Poster {
    var posted = 0

    func post(_ promise: Promise<Int, String>) {
        _ = promise.then(on: .main) { value in
            print("on the main queue: \(value)")
        }.then { _ in
            self.posted += 1
        }
    }
}
