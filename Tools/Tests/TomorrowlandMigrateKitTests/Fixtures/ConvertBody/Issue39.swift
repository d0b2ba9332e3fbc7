// The shapes issue 39 left on Tools/Corpus and the copy of Examples/, for
// ConvertBodyIssue39Tests: with the compiler, in Swift 5 and 6 mode, each chain is converted and
// the result compiles.

import Foundation
import Tomorrowland
import TomorrowlandAsync

public enum FeedError: Error {
    case offline
}

/// Counts what starts and what ends, and how.
public final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []

    public init() {}

    public func record(_ event: String) {
        lock.withLock { events.append(event) }
    }
}

public final class Feed: Sendable {
    let tally = Tally()

    public init() {}

    public func titles(limit: Int) -> Promise<[String], FeedError> {
        Promise(on: .utility) { resolver in resolver.fulfill(with: (0..<limit).map { "post \($0)" }) }
    }

    public func digest(_ path: String) -> StdPromise<Int> {
        StdPromise(on: .utility) { resolver in resolver.fulfill(with: path.count) }
    }

    /// `timeout` after a step, typed: the generic `timeout`'s `PromiseTimeoutError<FeedError>`.
    public func widgetTitles(within seconds: TimeInterval) -> Promise<[String], PromiseTimeoutError<FeedError>> {
        titles(limit: 3).map(on: .immediate) { $0.map { $0.uppercased() } }.timeout(on: .immediate, delay: seconds)
    }

    /// `timeout` after a statement and a `tap` that reads the result, untyped (Examples' `checksumWithTimeout`).
    public func digestWithTimeout(_ path: String, seconds: TimeInterval) -> StdPromise<Int> {
        tally.record("started \(path)")
        return digest(path)
            .tap(on: .immediate) { [tally] result in tally.record("finished \(path), cancelled: \(result.isCancelled)") }
            .timeout(on: .utility, delay: seconds)
    }
}

@MainActor
public final class FeedScreen {
    let feed = Feed()
    let token = PromiseInvalidationToken()
    public private(set) var shown: [String] = []
    public private(set) var loading = false

    public init() {}

    func show(_ titles: [String]) {
        shown = titles
    }

    /// `then(with: self)` and a token on the next step (Swift5ClientTests' `loadAll(users:)`).
    public func load() -> Promise<Void, FeedError> {
        loading = true
        return feed.titles(limit: 2).then(on: .main, with: self) { owner, titles in
            owner.show(titles)
        }.map(on: .main, token: token) { _ in
            self.loading = false
        }
    }

    /// A context chosen at run time in main-actor code, between `.immediate` and a named context.
    public func count(quick: Bool) -> Promise<Int, FeedError> {
        let tally = feed.tally
        return feed.titles(limit: 4).map(on: quick ? PromiseContext.immediate : .utility) { titles -> Int in
            tally.record("counted")
            return titles.count
        }
    }
}

@MainActor
public final class ProfileScreen {
    let feed = Feed()
    let token = PromiseInvalidationToken()
    public private(set) var title = ""
    public private(set) var error: String?
    public private(set) var isLoading = false

    public init() {}

    /// Handlers, then `.map { _ in }.recover { _ in }` for a `Promise<Void, NoError>` (Tools/Corpus's `load(id:)`).
    @discardableResult
    public func load() -> Promise<Void, NoError> {
        isLoading = true
        return feed.titles(limit: 1)
            .then(on: .main, token: token) { [weak self] titles in self?.title = titles.first ?? "" }
            .catch(on: .main, token: token) { [weak self] error in self?.error = "\(error)" }
            .always(on: .main) { [weak self] _ in self?.isLoading = false }
            .map(on: .immediate) { _ in }
            .recover(on: .immediate) { _ in }
    }
}

/// The queue an actor runs on, which promise callbacks use too (Examples/ActorOnQueue).
public let ledgerQueue = DispatchQueue(label: "ledger")
let ledgerExecutor = PromiseContext.queue(ledgerQueue).serialExecutor!

public actor Ledger {
    private var entries: [String] = []

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        ledgerExecutor.asUnownedSerialExecutor()
    }

    public func record(_ entry: String) {
        entries.append(entry)
    }
}

public func fetchPayment(_ id: Int) -> Promise<String, NoError> {
    Promise(on: .utility) { resolver in resolver.fulfill(with: "payment #\(id)") }
}

/// A callback on the actor's queue enters the actor with `assumeIsolated` (Examples/ActorOnQueue's `recordPayment`).
public func recordPayment(_ id: Int, in ledger: Ledger) -> Promise<String, NoError> {
    fetchPayment(id).map(on: .queue(ledgerQueue)) { payment in
        ledger.assumeIsolated { entries in
            entries.record("\(payment), recorded by a promise callback")
        }
        return payment
    }
}
