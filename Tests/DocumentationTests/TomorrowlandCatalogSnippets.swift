// Sources/Tomorrowland/Tomorrowland.docc: the snippets of the getting-started, cancellation and
// threading articles, compiled and run.

import Foundation
import Synchronization
import TestSupport
import Testing
import TomorrowlandAsync

// MARK: GettingStarted.md

/// A callback API to wrap.
func legacyLoadUser(id: Int, completion: @escaping @Sendable (User?, Swift.Error?) -> Void) {
    loadUser(id: id, completion: completion)
}

func user(id: Int) -> StdPromise<User> {
    StdPromise(on: .utility) { resolver in
        legacyLoadUser(id: id, completion: resolver.handleCallback())
    }
}

func greeting(forUser id: Int, log: Log) -> StdPromise<String> {
    user(id: id)
        .map(on: .utility) { user in "Hello, \(user.name)" }
        .then(on: .main) { text in log.append(text) }
        .catch(on: .main) { error in log.append("failed: \(error)") }
}

func parseCount(_ text: String) -> Promise<Int, String> {
    let (promise, resolver) = Promise<Int, String>.makeWithResolver()
    if let count = Int(text) {
        resolver.fulfill(with: count)
    } else {
        resolver.reject(with: "not a number: \(text)")
    }
    return promise
}

func profileAndAvatar(id: Int) -> StdPromise<(User, Image)> {
    user(id: id).flatMap(on: .utility) { user in
        fetchAvatar(for: user).map(on: .immediate) { image in (user, image) }
    }
}

// MARK: Cancellation.md

func download(_ url: String) -> StdPromise<Data> {
    StdPromise(on: .utility) { resolver in
        let transfer = Transfer.start(url, completion: resolver.handleCallback(isCancelError: { error in
            error as? Transfer.Failure == .cancelled
        }))
        resolver.onRequestCancel(on: .immediate) { _ in transfer.cancel() }
    }
}

final class ThumbnailCache: Sendable {
    private let loads = Mutex<[String: StdPromise<Data>]>([:])

    /// One download per URL, shared by every caller; cancelled once every caller cancelled.
    func thumbnail(_ url: String) -> StdPromise<Data> {
        loads.withLock { loads in
            if let shared = loads[url] { return shared.makeChild() }
            let shared = download(url).propagatingCancellation(on: .immediate) { [weak self] _ in
                self?.loads.withLock { $0[url] = nil }
            }
            loads[url] = shared
            return shared.makeChild()
        }
    }
}

// MARK: Threading.md

@MainActor func showImmediatelyIfCached(_ image: StdPromise<Image>, log: Log) {
    image.then(on: .nowOr(.main)) { image in
        let animated = !PromiseContext.isExecutingNow  // false when the result was already there
        log.append("show \(image.url), animated: \(animated)")
    }.catch(on: .main) { _ in }
}

func resizeSerially(_ images: [StdPromise<Image>], on queue: DispatchQueue) -> [StdPromise<Image>] {
    images.map { image in
        image.map(on: .queue(queue)) { image in Image(url: image.url + "?w=64") }
    }
}

@MainActor final class ThumbnailViewController {
    var thumbnails: [Image] = []

    func show(_ image: StdPromise<Image>) {
        _ = image.map(on: .utility) { image in makeThumbnail(image) }  // nonisolated: on .utility
            .then { thumbnail in self.thumbnails.append(thumbnail) }  // main actor
    }
}

func makeThumbnail(_ image: Image) -> Image {
    Image(url: image.url + "?w=64")
}

// MARK: Tests

@Suite("Tomorrowland.docc")
struct TomorrowlandCatalogTests {
    @Test func greetingChain() async {
        let log = Log()
        let greeting = greeting(forUser: 2, log: log)
        #expect(await eventually { greeting.result != nil })
        #expect(log.all == ["Hello, user2"])
    }

    @Test func typedErrors() {
        #expect(parseCount("12").result == .value(12))
        #expect(parseCount("twelve").result == .error("not a number: twelve"))
    }

    @Test func flatMapAdoptsTheInnerPromise() async {
        let both = profileAndAvatar(id: 4)
        #expect(await eventually { both.result != nil })
        #expect(both.result?.value?.1 == Image(url: "https://example.com/4.png"))
    }

    @Test func sharedLoadCancelsOnlyWhenEveryCallerCancelled() async {
        let cache = ThumbnailCache()
        let first = cache.thumbnail("a")
        let second = cache.thumbnail("a")
        first.requestCancel()
        #expect(await eventually { second.result != nil })
        #expect(second.result?.value == Data("a".utf8), "one caller cancelling must not cancel the other")

        let third = cache.thumbnail("b")
        let fourth = cache.thumbnail("b")
        third.requestCancel()
        fourth.requestCancel()
        #expect(await eventually { fourth.result != nil })
        #expect(fourth.result?.isCancelled == true)
    }

    @MainActor @Test func nowOrRunsSynchronouslyWhenAlreadyResolved() async {
        let log = Log()
        showImmediatelyIfCached(StdPromise(fulfilled: Image(url: "cached")), log: log)
        #expect(log.all == ["show cached, animated: false"])
        let (remote, resolver) = StdPromise<Image>.makeWithResolver()
        showImmediatelyIfCached(remote, log: log)
        resolver.fulfill(with: Image(url: "remote"))  // resolves after registration
        #expect(await eventually { log.all.count == 2 })
        #expect(log.all.last == "show remote, animated: true")
    }

    @MainActor @Test func mainActorCallbacksAndOffActorWork() async {
        let controller = ThumbnailViewController()
        controller.show(fetchImage("a"))
        let deadline = Date().addingTimeInterval(30)
        while controller.thumbnails.isEmpty && Date() < deadline {
            try? await Task.sleep(nanoseconds: 5_000_000)  // on the main actor: lets callbacks run
        }
        #expect(controller.thumbnails == [Image(url: "a?w=64")])
    }

    @Test func queueContextRunsOnThatQueue() async {
        let queue = DispatchQueue(label: "resize")
        let resized = resizeSerially([fetchImage("a"), fetchImage("b")], on: queue)
        #expect(await eventually { resized.allSatisfy { $0.result != nil } })
        #expect(resized.map { $0.result?.value?.url } == ["a?w=64", "b?w=64"])
    }
}
