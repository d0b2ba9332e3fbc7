// MIGRATION.md, section "From Tomorrowland 1.x": each snippet is compiled here, and the tests
// check that what the text says about it is true.

import Foundation
import TestSupport
import Testing
import TomorrowlandAsync

// MARK: requestCancelOnDeinit(_:) → a token property

final class AvatarLoader {
    private let token = PromiseInvalidationToken()  // invalidates (and cancels) on deinit

    func load(for user: User) -> StdPromise<Image> {
        fetchAvatar(for: user).requestCancelOnInvalidate(token)
    }
}

// MARK: Sendable callbacks

@MainActor
final class FeedScreen {
    private(set) var rows: [String] = []

    func reload() {
        fetchFeed().then(on: .main) { [weak self] rows in
            self?.rows = rows
        }.catch(on: .main) { error in
            print("could not load the feed: \(error)")
        }
    }
}

// MARK: What no longer compiles, and the fix

let ledgerQueue: DispatchQueue = {
    let queue = DispatchQueue(label: "ledger")
    queue.setSpecific(key: ledgerQueueKey, value: true)
    return queue
}()
let ledgerQueueKey = DispatchSpecificKey<Bool>()

extension PromiseContext {
    static let ledger = PromiseContext.queue(ledgerQueue)
    static let screen = PromiseContext.main
}

extension PromiseContext.Named {
    static var ledger: Self { Self(PromiseContext.ledger) }  // `.ledger`: on ledgerQueue
}

extension PromiseContext.Main {
    static var screen: Self { .main }  // `.screen`: on the main actor, like `.main`
}

func parse(_ data: StdPromise<Data>, isFast: Bool) -> StdPromise<Int> {
    data.map(on: isFast ? PromiseContext.immediate : .utility) { $0.count }
}

func printLater(_ promise: StdPromise<Int>) -> StdPromise<Int> {
    let then = promise.then(on:token:_:)
        as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (Int) -> Void) -> StdPromise<Int>
    return then(.utility, nil) { print($0) }
}

/// `.ledger` and `.screen` written in main-actor code, as the section's twins make them.
@MainActor final class LedgerScreen {
    var shown: [Int] = []

    func show(_ amount: StdPromise<Int>) -> StdPromise<Bool> {
        amount.map(on: .ledger) { _ in DispatchQueue.getSpecific(key: ledgerQueueKey) == true }
            .map(on: .screen) { onLedger in
                MainActor.preconditionIsolated()
                self.shown.append(onLedger ? 1 : 0)
                return onLedger
            }
    }
}

// MARK: Tests

@Suite("MIGRATION.md: from Tomorrowland 1.x")
struct MigrationFromOnePointXTests {
    @Test func unresolvablePromisesCancelAtOnce() {
        let (promise, _) = StdPromise<Int>.makeWithResolver()
        // 1.x: pending for as long as `promise` is held. Now: cancelled at once,
        // because nothing can resolve it any more.
        #expect(promise.result?.isCancelled == true)
    }

    @Test func tokenPromiseMapErrorHonoursTheToken() {
        let token = PromiseInvalidationToken()
        let (request, resolver) = StdPromise<User>.makeWithResolver()
        let mapped = request.withToken(token).mapError(on: .immediate) { error in
            AppError(error)
        }
        token.invalidate()
        resolver.reject(with: ServiceError.offline)
        // 1.x ran this mapError callback despite the invalidated token; now it is
        // skipped and `mapped` is cancelled, like every other transforming callback.
        #expect(mapped.inner.result?.isCancelled == true)
    }

    @Test func tokenPropertyReplacesRequestCancelOnDeinit() async {
        var loader: AvatarLoader? = AvatarLoader()
        let image = loader!.load(for: User(id: 1, name: "a"))
        loader = nil  // its token invalidates on deinit and requests cancellation of the load
        #expect(await eventually { image.result != nil })
        #expect(image.result?.isCancelled == true)
    }

    @Test @MainActor func customContextTwinsRunWhereTheySay() async throws {
        let screen = LedgerScreen()
        #expect(try await screen.show(StdPromise(fulfilled: 5)).value == true)
        #expect(screen.shown == [1])
        #expect(try await parse(StdPromise(fulfilled: Data([1, 2])), isFast: true).value == 2)
        #expect(try await parse(StdPromise(fulfilled: Data([1, 2, 3])), isFast: false).value == 3)
        #expect(try await printLater(StdPromise(fulfilled: 7)).value == 7)
    }

    @Test @MainActor func mainCallbacksCanAssumeMainActorIsolation() async {
        let screen = FeedScreen()
        screen.reload()
        for _ in 0..<6_000 where screen.rows.isEmpty {  // at least 30 s
            try? await Task.sleep(nanoseconds: 5_000_000)  // lets the main queue run the callback
        }
        #expect(screen.rows == ["first", "second"])
    }
}
