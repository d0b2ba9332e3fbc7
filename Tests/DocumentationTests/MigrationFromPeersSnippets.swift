// MIGRATION.md, section "From khanlou's Promise and from FranticApparatus": the Tomorrowland side
// of each mapping, compiled, with tests for the behaviour the text describes.

import Foundation
import TestSupport
import Testing
import TomorrowlandAsync

// MARK: khanlou's Promise

struct FeedItem: Sendable, Equatable {
    var title: String
}

enum FeedError: Swift.Error {
    case badStatus(Int)
}

/// `Promise<T>(work: { fulfill, reject in … })` wrapping a completion handler.
func fetchStatusAndBody() -> StdPromise<(status: Int, body: String)> {
    StdPromise(on: .utility) { resolver in
        loadUser(id: 7) { user, error in
            if let user {
                resolver.fulfill(with: (status: 200, body: user.name))
            } else {
                resolver.reject(with: error ?? ServiceError.notFound)
            }
        }
    }
}

/// `ensure`, `then` returning a value, `then` returning a promise, `catch`, `always`.
func loadFirstItem(log: Log) -> StdPromise<FeedItem> {
    fetchStatusAndBody()
        .tryMap(on: .utility) { response -> String in
            guard response.status == 200 else { throw FeedError.badStatus(response.status) }  // ensure
            return response.body
        }
        .flatMap(on: .utility) { body in
            fetchFeed().map(on: .immediate) { titles in FeedItem(title: "\(body): \(titles[0])") }
        }
        .catch(on: .main) { error in
            log.append("failed: \(error)")
        }
        .always(on: .main) { _ in
            log.append("done")
        }
}

// MARK: FranticApparatus

/// `Promise { fulfill, reject, isCancelled in … }` doing long work in steps.
func checksum(of chunks: [[UInt8]]) -> Promise<UInt64, NoError> {
    Promise(on: .utility) { resolver in
        var sum: UInt64 = 0
        for chunk in chunks {
            if resolver.hasRequestedCancel {  // FranticApparatus: isCancelled()
                resolver.cancel()
                return
            }
            for byte in chunk { sum = sum &* 31 &+ UInt64(byte) }
        }
        resolver.fulfill(with: sum)
    }
}

/// `PromiseMaker.makeUsing(context: self) { … }`: a weakly held context, given strongly to each
/// callback, and callbacks skipped once it is gone.
@MainActor
final class ProfileController {
    private(set) var title = ""

    func showProfile(id: Int) -> StdPromise<User> {
        fetchUser(id: id).then(on: .main, with: self) { controller, user in
            controller.title = user.name
        }
    }
}

/// The same with a token: also cancels the load when the owner goes away.
@MainActor
final class TokenProfileController {
    private let token = PromiseInvalidationToken()  // invalidates when the controller goes away
    private(set) var title = ""

    func showProfile(id: Int) -> StdPromise<User> {
        fetchUser(id: id)
            .then(on: .main, token: token) { [weak self] user in
                self?.title = user.name
            }
            .requestCancelOnInvalidate(token)
    }
}

/// `Promises.retry(count:delay:generate:)`.
func fetchUserRetrying(id: Int) -> StdPromise<User> {
    retry(on: .utility, attempts: 3, delay: 0.01, while: { $0 as? ServiceError == .offline }) {
        fetchUser(id: id)
    }
}

// MARK: Tests

@Suite("MIGRATION.md: from the peer libraries")
struct MigrationFromPeersTests {
    @Test func khanlouChainResolves() async {
        let log = Log()
        let item = loadFirstItem(log: log)
        #expect(await eventually { log.all.contains("done") })
        #expect(item.result?.value == FeedItem(title: "user7: first"))
    }

    @Test func cooperativeCancellationStopsBetweenChunks() async {
        #expect(await checksum(of: [[1, 2], [3]]).resolvedResult == .value(((1 &* 31 &+ 2) &* 31) &+ 3))
        // 100,000 chunks take far longer than the request right after creation.
        let work = checksum(of: Array(repeating: [1, 2, 3], count: 100_000))
        work.requestCancel()
        #expect(await work.resolvedResult == .cancelled)
    }

    @Test @MainActor func weakContextCallbackRunsWhileTheOwnerLives() async {
        let controller = ProfileController()
        let profile = controller.showProfile(id: 3)
        for _ in 0..<6_000 where controller.title.isEmpty {  // at least 30 s
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        #expect(controller.title == "user3")
        #expect(profile.result?.value == User(id: 3, name: "user3"))
    }

    @Test @MainActor func callbacksAreSkippedOnceTheOwnerIsGone() async {
        var controller: ProfileController? = ProfileController()
        let profile = controller!.showProfile(id: 3)
        controller = nil
        #expect(await eventually { profile.result != nil })
        #expect(profile.result?.value == User(id: 3, name: "user3"), "an observer passes the result on")

        var tokenController: TokenProfileController? = TokenProfileController()
        let tokenProfile = tokenController!.showProfile(id: 4)
        tokenController = nil
        #expect(await eventually { tokenProfile.result != nil })
        // Skipped, and the load cancelled by the token, unless it finished first.
        #expect(tokenProfile.result?.isCancelled == true || tokenProfile.result?.value == User(id: 4, name: "user4"))
    }

    @Test func retryGivesUpWithTheLastError() async {
        let missing = fetchUserRetrying(id: -1)
        #expect(await eventually { missing.result != nil })
        #expect(missing.result?.error as? ServiceError == .notFound)
    }
}
