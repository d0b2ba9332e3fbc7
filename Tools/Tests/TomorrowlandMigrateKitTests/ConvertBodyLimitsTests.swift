import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// `convert-body` on the shapes the blind corpora HomeHub and Ledger left for the tool's own
/// limits (issue 37): each is converted, compiles in Swift 5 and 6 mode, or is left with the
/// language's reason.
@Suite("convert-body: the tool's limits on HomeHub and Ledger")
struct ConvertBodyLimitsTests {
    /// Proves `text` in `swiftVersion` mode, and compiles what was written in the other mode.
    static func convertedInBothModes(_ text: String, path: String, swiftVersion: Int) throws -> (text: String, notes: [String]) {
        let (result, notes, directory) = try ConvertBodyTests.proved(text, path: path, swiftVersion: swiftVersion)
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try #require(result.changes.first?.updated, "\(notes)")
        let other = try OracleTests.fixture(swiftVersion: swiftVersion == 6 ? 5 : 6, source: (path: path, text: written))
        defer { try? FileManager.default.removeItem(at: other.directory) }
        let errors = try other.oracle.facts(for: other.set.files.map(\.path)).errors
        #expect(errors.isEmpty, "\(errors)")
        return (written, notes)
    }

    @Test("a `map` closure that declares a labelled tuple: its `let` keeps the type, so a later step's `.queue` compiles",
          arguments: [5, 6])
    func labelledTuple(swiftVersion: Int) throws {
        let (text, notes) = try Self.convertedInBothModes("""
            import Foundation
            import Tomorrowland
            import TomorrowlandAsync

            func reserve(_ n: Int) -> Promise<Int, Error> {
                Promise(fulfilled: n)
            }

            final class Printer: Sendable {
                func print(_ n: Int) -> Promise<String, Error> {
                    reserve(n)
                        .map(on: .utility) { left -> (label: String, queue: String?) in
                            ("\\(left) left", "utility")
                        }
                        .map(on: .immediate) { printed in
                            printed.label + " on " + (printed.queue ?? "?")
                        }
                }

                func inline(_ n: Int) -> Promise<String, Error> {
                    reserve(n)
                        .map(on: .immediate) { left -> (label: String, count: Int) in (label: "n", count: left) }
                        .map(on: .immediate) { pair in pair.label + String(pair.count) }
                }
            }
            """, path: "Printer.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 2 of 2 chain bodies converted, 0 left (reasons above)", "\(notes)")
        #expect(text.contains("let printed: (label: String, queue: String?) = await withTaskExecutorPreference("), "\(text)")
        #expect(text.contains("let pair: (label: String, count: Int) = (label: \"n\", count: left)"), "\(text)")
    }

    @Test("statements and a `let` between `lock()` and `unlock()` before the chain: `let x = lock.withLock { …; return v }`",
          arguments: [5, 6])
    func lockedLet(swiftVersion: Int) throws {
        let (text, notes) = try Self.convertedInBothModes("""
            import Foundation
            import Tomorrowland
            import TomorrowlandAsync

            func fetch(_ id: String) -> Promise<Int, Error> {
                Promise(fulfilled: id.count)
            }

            final class Cache: @unchecked Sendable {
                private let lock = NSLock()
                private var lookups = 0
                private var cache: [String: Int] = [:]

                func value(id: String) -> Promise<Int, Error> {
                    lock.lock()
                    lookups += 1
                    let cached = cache[id]
                    lock.unlock()
                    if let cached {
                        return Promise(fulfilled: cached)
                    }
                    return fetch(id).map(on: .utility) { $0 * 2 }
                }
            }
            """, path: "Cache.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        #expect(text.contains("""
                    let cached = lock.withLock {
                        lookups += 1
                        return cache[id]
                    }
            """), "\(text)")
    }

    @Test("`PromiseContext.isExecutingNow` in the first `.nowOr` step's closure is its flag; elsewhere the chain stays, with why")
    func executingNow() throws {
        let (text, notes) = ConvertBodyTests.converted("""
            import Tomorrowland

            func find(_ id: String) -> Promise<String, Error> {
                Promise(fulfilled: id)
            }

            @MainActor
            final class Model {
                var status = ""
                var instantly = false

                func show(_ found: Promise<String, Error>) -> Promise<String, Error> {
                    found.then(on: .nowOr(.main)) { name in
                        self.status = name
                        self.instantly = PromiseContext.isExecutingNow
                    }
                }

                func later(_ id: String) -> Promise<String, Error> {
                    find(id).map(on: .immediate) { $0 }.then(on: .nowOr(.main)) { name in
                        self.status = name
                        self.instantly = PromiseContext.isExecutingNow
                    }
                }

                func plain(_ id: String) -> Promise<String, Error> {
                    find(id).then(on: .nowOr(.main)) { name in
                        self.status = name
                    }
                }
            }
            """, path: "Model.swift")
        #expect(text.contains("""
                    let promise = found
                    // 1.x's `.nowOr`: its closure ran at once (`PromiseContext.isExecutingNow`) if the promise had already resolved here.
                    let resolvedAtOnce = promise.result != nil
                    let name = try await (consume promise).value
                    self.status = name
                    self.instantly = resolvedAtOnce
            """), "\(text)")
        #expect(notes.contains(
            "later(_:): left as a chain: its `then` callback reads `PromiseContext.isExecutingNow` (true while a `.nowOr` callback runs "
                + "during registration); the twin runs that code outside any callback, where it is always false"
        ), "\(notes)")
        #expect(text.contains("self.instantly = PromiseContext.isExecutingNow"))
        #expect(notes.last == "convert-body: 2 of 3 chain bodies converted, 1 left (reasons above)", "\(notes)")
    }

    @Test("conformers: a call of the requirement's twin on a final conformer's own type (generic, nested or not) moves to its new method",
          arguments: [5, 6])
    func conformers(swiftVersion: Int) throws {
        let (text, notes) = try Self.convertedInBothModes("""
            import Foundation
            import Tomorrowland
            import TomorrowlandAsync

            protocol Store: Sendable {
                func count(of name: String) -> Promise<Int, Error>
            }

            func raw(_ base: Int) -> Promise<Int, Error> {
                Promise(fulfilled: base)
            }

            final class LiveStore: Store {
                func count(of name: String) -> Promise<Int, Error> {
                    raw(1).map(on: .utility) { $0 + name.count }
                }
            }

            final class CachedStore: Store {
                func count(of name: String) -> Promise<Int, Error> {
                    raw(2).map(on: .utility) { $0 + name.count }
                }
            }

            struct Box<T: Sendable>: Store {
                let value: T

                func count(of name: String) -> Promise<Int, Error> {
                    raw(3).map(on: .utility) { $0 + name.count }
                }
            }

            class OpenStore: Store, @unchecked Sendable {
                func count(of name: String) -> Promise<Int, Error> {
                    raw(5).map(on: .utility) { $0 + name.count }
                }
            }

            enum Disk {
                final class Store: Fixture.Store {
                    func count(of name: String) -> Promise<Int, Error> {
                        raw(4).map(on: .utility) { $0 + name.count }
                    }
                }
            }

            func total(_ store: any Store) async throws -> Int {
                try await store.count(of: "ab")
            }

            func cached(_ store: CachedStore) async throws -> Int {
                try await store.count(of: "ab")
            }

            func boxed() async throws -> Int {
                try await Box(value: 1).count(of: "ab")
            }

            func opened(_ store: OpenStore) async throws -> Int {
                try await store.count(of: "ab")
            }
            """, path: "Stores.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 4 of 5 chain bodies converted, 1 left (reasons above)", "\(notes)")
        // The old check read the type's last word: `any Store` then counted for `LiveStore` and `Disk.Store`.
        #expect(text.contains("""
            final class LiveStore: Store {
                func count(of name: String) -> Promise<Int, Error> {
                    StdPromise(on: .immediate) { try await self.count(of: name) }
                }

                /// Async twin of `count(of:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
                /// Throws the promise's error, or `CancellationError` when it is cancelled; cancelling the awaiting Task requests
                /// cancellation of the promise.
                nonisolated(nonsending) func count(of name: String) async throws -> Int {
                    let value = try await raw(1)
                    return await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                        value + name.count
                    }
                }
            }
            """), "\(text)")
        #expect(text.contains("""
                final class Store: Fixture.Store {
                    func count(of name: String) -> Promise<Int, Error> {
                        StdPromise(on: .immediate) { try await self.count(of: name) }
                    }
            """), "\(text)")
        // `CachedStore` is final and `Box` a struct: their calls `cached` and `boxed` now name their own
        // async methods (the proof expects that), which do what the promise versions' wrappers awaited.
        #expect(text.contains("let value = try await raw(2)"), "\(text)")
        #expect(text.contains("let value = try await raw(3)"), "\(text)")
        // A class that is not final: a subclass's override of the promise version would no longer be reached.
        #expect(text.contains("raw(5).map(on: .utility) { $0 + name.count }"))
        let reason = "count(of:): left as a chain: no async twin of its own; one would take the calls of the requirement's twin on "
        #expect(notes.contains { $0.hasPrefix(reason + "`OpenStore`") && $0.contains("Stores.swift:") && $0.contains("not final") }, "\(notes)")
    }
}

extension ConvertBodyLimitsTests {
    @Test("a generic function's handler keeps its typed error: the compiler's `Promise<A, NetError>` spelled with the function's `T`",
          arguments: [5, 6])
    func genericHandler(swiftVersion: Int) throws {
        let (text, notes) = try Self.convertedInBothModes("""
            import Foundation
            import Tomorrowland
            import TomorrowlandAsync

            enum NetError: Error {
                case transient, fatal

                var isTransient: Bool { self == .transient }
            }

            func retrying<T>(attempts: Int, _ make: @escaping @Sendable () -> Promise<T, NetError>) -> Promise<T, NetError> {
                make().flatMapError(on: .immediate) { error -> Promise<T, NetError> in
                    guard error.isTransient, attempts > 1 else {
                        return Promise(rejected: error)
                    }
                    return retrying(attempts: attempts - 1, make)
                }
            }
            """, path: "Retry.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        // Only the promise's error reaches the handler, as in 1.x: a cancellation goes on.
        #expect(text.contains("""
                do {
                    return try await make().value
                } catch let error as NetError {
                    guard error.isTransient, attempts > 1 else {
                        throw error
                    }
                    return try await retrying(attempts: attempts - 1, make).value
                }
            """), "\(text)")
    }

    @Test("the demangler's placeholders, by depth and index")
    func placeholders() {
        #expect(ConvertBody.naming(placeholders: "Promise<A, HubError>", levels: [["T"]]) == "Promise<T, HubError>")
        #expect(ConvertBody.naming(placeholders: "Promise<[A: B1], Outer.A>", levels: [["Key"], ["Value", "V"]]) == "Promise<[Key: V], Outer.A>")
        #expect(ConvertBody.naming(placeholders: "Promise<B, E>", levels: [["T"]]) == nil)
    }
}

extension ConvertBodyLimitsTests {
    @Test("a promise made with a resolver and delayed on the chain's base: its initializer spelled with its type (HomeHub's LoopbackTransport)",
          arguments: [5, 6])
    func delayedResolverPromise(swiftVersion: Int) throws {
        let src = """
            import Foundation
            import Tomorrowland

            enum HubError: Error { case offline }
            typealias HubPromise<T> = Promise<T, HubError>

            protocol Transport: AnyObject, Sendable {
                func send(_ request: String) -> HubPromise<Data>
            }

            final class Home: @unchecked Sendable {
                func record(_ request: String) {}
                func handle(_ request: String) -> Result<Data, HubError> { .success(Data(request.utf8)) }
            }

            final class Loopback: Transport {
                let home = Home()
                private let latency: TimeInterval = 0.01

                func send(_ request: String) -> HubPromise<Data> {
                    let home = self.home
                    home.record(request)
                    return HubPromise(on: .utility) { resolver in
                        if resolver.hasRequestedCancel {
                            resolver.cancel()
                            return
                        }
                        resolver.resolve(with: home.handle(request))
                    }.delay(on: .utility, latency)
                }
            }
            """
        let (text, notes) = try Self.convertedInBothModes(src, path: "Loopback.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        #expect(text.contains("""
                    home.record(request)
                    return try await (HubPromise(on: .utility) { resolver in
                        if resolver.hasRequestedCancel {
            """), "\(text)")
        #expect(text.contains("    } as Promise<Data, HubError>).delay(on: .utility, latency).value"), "\(text)")
    }
}

extension ConvertBodyLimitsTests {
    @Test("an override gets an async override of its own; its `super` call awaits the base's promise code, never the base's twin",
          arguments: [5, 6])
    func override(swiftVersion: Int) throws {
        let (text, notes) = try Self.convertedInBothModes("""
            import Foundation
            import Tomorrowland

            enum QuoteError: Error { case invalid }

            class Service: @unchecked Sendable {
                func quote(_ x: Int) -> Promise<Int, QuoteError> {
                    x > 0 ? Promise(fulfilled: x) : Promise(rejected: .invalid)
                }
            }

            final class Premium: Service, @unchecked Sendable {
                private(set) var count = 0

                override func quote(_ x: Int) -> Promise<Int, QuoteError> {
                    count += 1
                    return super.quote(x).map(on: .immediate) { $0 * 2 }
                }
            }

            func quoted(_ service: Service) async throws -> Int {
                try await service.quote(1)
            }
            """, path: "Quotes.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        #expect(text.contains("""
                override func quote(_ x: Int) -> Promise<Int, QuoteError> {
                    StdPromise(on: .immediate) { try await self.quote(x) }.mapError(on: .immediate) { $0 as! QuoteError }
                }
            """), "\(text)")
        #expect(text.contains("override nonisolated(nonsending) func quote(_ x: Int) async throws -> Int {"), "\(text)")
        #expect(text.contains("try await super.quote(x).value"), "\(text)")
    }
}

extension ConvertBodyLimitsTests {
    @Test("a tuple parameter named like a value an earlier step bound is renamed (Ledger's `page`)", arguments: [5, 6])
    func tupleNamedLikeAnEarlierValue(swiftVersion: Int) throws {
        let (text, notes) = try Self.convertedInBothModes("""
            import Foundation
            import Tomorrowland

            struct Page: Sendable { let items: [Int] }

            func fetch() -> Promise<Page, Error> { Promise(fulfilled: Page(items: [1, 2])) }
            func insert(_ items: [Int]) -> Promise<Int, Error> { Promise(fulfilled: items.count) }

            func imported() -> Promise<Int, Error> {
                fetch()
                    .flatMap(on: .utility) { page in
                        insert(page.items).map(on: .immediate) { inserted in (page, inserted) }
                    }
                    .map(on: .utility) { page, inserted in page.items.count + inserted }
            }
            """, path: "Pages.swift", swiftVersion: swiftVersion)
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        #expect(text.contains("let (page2, inserted) = "), "\(text)")
        #expect(text.contains("page2.items.count + inserted"), "\(text)")
    }
}

extension ConvertBodyLimitsTests {
    @Test("a base method whose override has only its promise version keeps its chain: async callers would pass the override by")
    func baseOfAPromiseOverride() throws {
        let (result, notes, directory) = try ConvertBodyTests.proved("""
            import Foundation
            import Tomorrowland

            class Service: @unchecked Sendable {
                func quote(_ x: Int) -> Promise<Int, Error> {
                    Promise(fulfilled: x).map(on: .utility) { $0 + 1 }
                }
            }

            final class Premium: Service, @unchecked Sendable {
                override func quote(_ x: Int) -> Promise<Int, Error> {
                    Promise(fulfilled: x * 2)
                }
            }
            """, path: "Quotes.swift", swiftVersion: 6)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.changes.isEmpty)
        #expect(notes.contains { $0.hasPrefix("quote(_:): left as a chain: overridden by `Premium` with a promise method only") }, "\(notes)")
    }
}
