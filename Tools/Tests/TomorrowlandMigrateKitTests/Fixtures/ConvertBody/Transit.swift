// The shapes of the blind corpus Transit whose first conversion the compiler rejected or that it
// left, for ConvertBodyTransitTests: with the compiler, in Swift 5 and 6 mode, each chain is
// converted and the result compiles.

import Foundation
import Tomorrowland

public enum TransitError: Error {
    case notFound(String), offline
}

public final class Server: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [String] = []
    public var departures: [String: [Int]] = [:]

    public init() {}

    /// Generic, with a trailing closure.
    public func request<T: Sendable>(_ path: String, _ respond: @escaping @Sendable () -> Result<T, TransitError>) -> Promise<T, TransitError> {
        lock.lock(); log.append(path); lock.unlock()
        return Promise(on: .utility) { resolver in
            switch respond() {
            case .success(let value): resolver.fulfill(with: value)
            case .failure(let error): resolver.reject(with: error)
            }
        }
    }
}

public final class Departures: @unchecked Sendable {
    let server: Server
    private let lock = NSLock()
    private var served = 0
    private var byID: [String: Int] = [:]
    private var seen: Set<String> = []
    /// A `PromiseContext.Main` that is not a constant.
    var announce: PromiseContext.Main = .main
    var deliversAtOnce = false

    public init(server: Server) {
        self.server = server
    }

    /// Statements over several lines before the chain, each calling a generic promise function
    /// with a trailing closure for its promise: pinned to it in the twin (unpinned, the compiler
    /// failed to produce a diagnostic).
    public func fastest(stopID: String) -> Promise<[Int], TransitError> {
        let server = self.server
        let primary = server.request("primary/\(stopID)") { () -> Result<[Int], TransitError> in
            server.departures[stopID].map { .success($0) } ?? .failure(.notFound(stopID))
        }
        let mirror = server.request("mirror/\(stopID)") { () -> Result<[Int], TransitError> in
            server.departures[stopID].map { .success($0) } ?? .failure(.notFound(stopID))
        }
        return when(first: [primary, mirror], cancelRemaining: true)
    }

    /// `lock()` … `unlock()` before the chain and in its closure: `withLock { … }` in the twin.
    public func first(stopID: String) -> Promise<Int, TransitError> {
        if let cached = cached(stopID) {
            lock.lock(); served += 1; lock.unlock()
            return Promise(fulfilled: cached)
        }
        return fastest(stopID: stopID)
            .map(on: .immediate) { $0.first ?? 0 }
            .then(on: .immediate) { [weak self] first in
                guard let self = self else { return }
                self.lock.lock()
                self.byID[stopID] = first
                self.served += 1
                self.lock.unlock()
                self.lock.lock()
                self.seen.insert(stopID)
                self.lock.unlock()
            }
    }

    /// A `PromiseContext.Main` property off the main actor: its closure runs on the main executor.
    public func count(stopID: String) -> Promise<Int, TransitError> {
        fastest(stopID: stopID).map(on: announce) { $0.count }
    }

    /// `ignoringCancel` on the chain's base: that promise, awaited as it is.
    public func background(stopID: String) -> Promise<Int, TransitError> {
        fastest(stopID: stopID)
            .ignoringCancel()
            .map(on: .utility) { $0.count }
    }

    /// `propagatingCancellation` on the chain's base: a Task cancellation handler around its await.
    public func tracked(stopID: String) -> Promise<Int, TransitError> {
        server.request("tracked/\(stopID)") { () -> Result<[Int], TransitError> in .success([1]) }
            .propagatingCancellation(on: .immediate) { [weak self] _ in
                guard let self = self else { return }
                self.lock.lock()
                self.served += 1
                self.lock.unlock()
            }
            .map(on: .immediate) { $0.count }
    }

    /// A context chosen at run time.
    public func chosen(stopID: String) -> Promise<Int, TransitError> {
        fastest(stopID: stopID).map(on: deliversAtOnce ? PromiseContext.immediate : .utility) { $0.count }
    }

    /// `timeout` on the chain's base: it stays on that promise, which the twin awaits.
    public func timed(stopID: String, seconds: TimeInterval) -> Promise<[Int], TransitError> {
        fastest(stopID: stopID)
            .timeout(on: .utility, delay: seconds)
            .mapError(on: .immediate) { error -> TransitError in
                switch error {
                case .timedOut: return .offline
                case .rejected(let underlying): return underlying
                }
            }
    }

    /// `timeout` alone on the chain's base: that promise, awaited.
    public func bounded(stopID: String) -> Promise<[Int], PromiseTimeoutError<TransitError>> {
        fastest(stopID: stopID).timeout(on: .utility, delay: 5)
    }

    /// A `let` alone between `lock()` and `unlock()`: `let x = lock.withLock { … }`.
    public func plusServed(stopID: String) -> Promise<Int, TransitError> {
        lock.lock()
        let count = served
        lock.unlock()
        return fastest(stopID: stopID).map(on: .immediate) { $0.count + count }
    }

    /// A promise made on the chain's base, its value type given by the function's return type:
    /// spelled in the twin, where nothing gives it.
    public func saved() -> Promise<Void, TransitError> {
        Promise(on: .utility) { resolver in
            DispatchQueue.global().async { resolver.fulfill(with: ()) }
        }.then(on: .immediate) {
            self.lock.lock(); self.served += 1; self.lock.unlock()
        }
    }

    /// A `tap` that reads the result, before the chain's one error handler.
    public func firstOrNil(stopID: String) -> Promise<Int?, NoError> {
        fastest(stopID: stopID)
            .map(on: .immediate) { $0.first }
            .tap(on: .immediate) { result in
                if case .error = result { self.lock.lock(); self.served += 1; self.lock.unlock() }
            }
            .recover(on: .immediate) { _ in nil }
    }

    private func cached(_ id: String) -> Int? {
        lock.lock(); defer { lock.unlock() }
        return byID[id]
    }
}

@MainActor
public final class Board {
    let departures: Departures
    /// Where results are delivered: a `let` holding `.main`.
    let delivery: PromiseContext.Main = .main
    var screen: PromiseContext.Main
    private let update: PromiseContext.CallerIsolated = .immediate
    public private(set) var rows: [Int] = []
    public private(set) var updates = 0
    public private(set) var status = ""

    public init(departures: Departures, screen: PromiseContext.Main = .main) {
        self.departures = departures
        self.screen = screen
    }

    /// Contexts held in properties typed `PromiseContext.Main` and `PromiseContext.CallerIsolated`:
    /// on the main actor, their closures run inline.
    public func refresh() -> Promise<[Int], TransitError> {
        departures.fastest(stopID: "S1")
            .then(on: delivery) { rows in self.rows = rows }
            .then(on: screen) { _ in self.updates += 1 }
            .then(on: update) { _ in self.updates += 1 }
    }

    /// `.nowOr(.main)` on the main actor: inline, as `.main` is there (the twin goes on at once when
    /// what it awaits has resolved, as `.nowOr` ran the closure at once).
    public func show() -> Promise<[Int], TransitError> {
        departures.fastest(stopID: "S3").then(on: .nowOr(.main)) { rows in self.rows = rows }
    }

    /// `catch` and `onCancel` at the end: they see disjoint errors, a `catch` clause each.
    public func load() -> Promise<[Int], TransitError> {
        departures.fastest(stopID: "S2")
            .then { rows in self.rows = rows }
            .catch { error in self.status = "failed \(error)" }
            .onCancel { self.status = "idle" }
    }
}
