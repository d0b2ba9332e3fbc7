import Foundation
import SwiftParser
import SwiftSyntax
import Testing
import TomorrowlandAsync
@testable import TomorrowlandMigrateKit

/// `convert-body`: chains moved into their async twins, the promise versions wrapping them
/// (issue 28, item 2).
@Suite("convert-body")
struct ConvertBodyTests {
    /// `add-async-twins`, then `convert-body`, on `source` in memory: the text after both and
    /// convert-body's notes.
    static func converted(_ source: String, path: String = "Feed.swift") -> (text: String, notes: [String]) {
        let sources = [(path: path, text: source)]
        let twins = Support.applying(AddAsyncTwins.run(.inMemory(sources)), to: sources)
        let result = ConvertBody.run(.inMemory(twins))
        return (Support.text(of: path, in: Support.applying(result, to: twins)), result.notes.map(\.message))
    }

    /// The twin's body (between its braces) and the promise function's body, for `name`.
    static func bodies(of name: String, in text: String) -> (promise: String, twin: String) {
        let parts = text.components(separatedBy: "func \(name)(")
        func body(_ part: String) -> String {
            let afterBrace = part.components(separatedBy: " {\n").dropFirst().joined(separator: " {\n")
            return afterBrace.components(separatedBy: "\n    }\n").first ?? afterBrace
        }
        return (parts.count > 1 ? body(parts[1]) : "", parts.count > 2 ? body(parts[2]) : "")
    }

    static let header = """
        import Foundation
        import Tomorrowland

        public struct Post: Sendable { public var id: Int; public var title: String }
        public enum APIError: Error { case offline, notFound }

        public final class Feed: Sendable {
            public init() {}

            public func latestPosts(limit: Int) -> Promise<[Post], APIError> {
                Promise(fulfilled: (0..<limit).map { Post(id: $0, title: "t\\($0)") })
            }

        """

    static func feed(_ methods: String) -> String { header + methods + "\n}\n" }

    @Test("`map` with `$0` on .immediate: one awaited expression; the typed promise wraps the twin")
    func mapOfAnonymousArgument() {
        let text = Self.converted(Self.feed("""
                public func titles(limit: Int) -> Promise<[String], APIError> {
                    latestPosts(limit: limit).map(on: .immediate) { $0.map(\\.title) }
                }
            """)).text
        let (promise, twin) = Self.bodies(of: "titles", in: text)
        #expect(promise == "        StdPromise(on: .immediate) { try await self.titles(limit: limit) }.mapError(on: .immediate) { $0 as! APIError }")
        #expect(twin == "        return try await latestPosts(limit: limit).map(\\.title)")
        #expect(text.contains("func titles(limit: Int) async throws -> [String] {"))
        #expect(text.contains("(added by tomorrowland-migrate): does the work; the promise version wraps it."))
    }

    @Test("a named context runs the closure on its executor; a parameter that would shadow the callee is renamed")
    func namedContext() {
        let text = Self.converted(Self.feed("""
                public func titles(limit: Int) -> StdPromise<[String]> {
                    latestPosts(limit: limit).mapError(on: .immediate) { $0 as Swift.Error }.map(on: .immediate) { posts in posts.map(\\.title) }
                }

                public func sortedTitles() -> StdPromise<[String]> {
                    titles(limit: 3).map(on: .utility) { titles in
                        titles.sorted()
                    }
                }
            """)).text
        #expect(Self.bodies(of: "titles", in: text).twin == """
                    let posts = try await latestPosts(limit: limit)
                    return posts.map(\\.title)
            """)
        #expect(Self.bodies(of: "sortedTitles", in: text).twin == """
                    let value = try await titles(limit: 3)
                    return await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                        value.sorted()
                    }
            """)
        #expect(Self.bodies(of: "sortedTitles", in: text).promise == "        StdPromise(on: .immediate) { try await self.sortedTitles() }")
    }

    @Test("`flatMap`, `catch` as do/catch, `recover` and `always` as defer")
    func errorHandlers() {
        let text = Self.converted(Self.feed("""
                public func first() -> StdPromise<String> {
                    latestPosts(limit: 1)
                        .mapError(on: .immediate) { $0 as Swift.Error }
                        .flatMap(on: .immediate) { posts in
                            posts.first.map { StdPromise(fulfilled: $0.title) } ?? StdPromise(rejected: APIError.notFound)
                        }
                        .catch(on: .immediate) { error in print("no title: \\(error)") }
                }

                public func count() -> Promise<Int, NoError> {
                    latestPosts(limit: 10)
                        .mapError(on: .immediate) { $0 as Swift.Error }
                        .map(on: .immediate) { posts -> Int in
                            let count = posts.count
                            return count * 2
                        }
                        .recover(on: .immediate) { _ in 0 }
                        .always(on: .immediate) { _ in print("counted") }
                }
            """)).text
        #expect(Self.bodies(of: "first", in: text).twin == """
                    do {
                        let posts = try await latestPosts(limit: 1)
                        return try await (posts.first.map { StdPromise(fulfilled: $0.title) } ?? StdPromise(rejected: APIError.notFound)).value
                    } catch let error where !(error is CancellationError) {
                        print("no title: \\(error)")
                        throw error
                    }
            """)
        #expect(Self.bodies(of: "count", in: text).twin == """
                    defer {
                        print("counted")
                    }
                    do {
                        let posts = try await latestPosts(limit: 10)
                        let count = posts.count
                        return count * 2
                    } catch let error as CancellationError {
                        throw error
                    } catch {
                        return 0
                    }
            """)
    }

    @Test("in @MainActor code, .main and no-context callbacks run inline on the actor; `then` passes the value on")
    func mainActor() {
        let text = Self.converted(Self.header + """
            }

            @MainActor
            public final class Screen {
                public var title = ""
                let feed = Feed()

                public func load() -> StdPromise<String> {
                    feed.latestPosts(limit: 1)
                        .mapError(on: .immediate) { $0 as Swift.Error }
                        .map(on: .main) { posts in posts[0].title }
                        .then(on: .main) { text in self.title = text }
                }
            }

            public func onMain(feed: Feed) -> StdPromise<Int> {
                feed.latestPosts(limit: 2).mapError(on: .immediate) { $0 as Swift.Error }.map(on: .main) { posts in posts.count }
            }
            """).text
        // 1.x enqueued the `.main` callbacks: they run after one suspension (ConvertedCallbackOrderTests).
        #expect(Self.bodies(of: "load", in: text).twin == """
                    let posts = try await Task.yieldingAfter { try await feed.latestPosts(limit: 1) }
                    let text = posts[0].title
                    self.title = text
                    return text
            """)
        #expect(text.contains("""
            public nonisolated(nonsending) func onMain(feed: Feed) async throws -> Int {
                let posts = try await feed.latestPosts(limit: 2)
                return await withTaskExecutorPreference(PromiseContext.main.taskExecutor) { @concurrent in
                    posts.count
                }
            }
            """))
    }

    @Test("in an actor or on another global actor, `.main` ran on main, not on that actor: it runs on the main executor")
    func mainInOtherActors() {
        let text = Self.converted(Self.header + """
            }

            @globalActor public actor StoreActor { public static let shared = StoreActor() }

            public actor Store {
                let feed = Feed()

                public func count() -> Promise<Int, APIError> {
                    feed.latestPosts(limit: 1).map(on: .main) { posts in posts.count }
                }
            }

            @StoreActor public final class Loader {
                let feed = Feed()

                public func count() -> Promise<Int, APIError> {
                    feed.latestPosts(limit: 1).map(on: .main) { posts in posts.count }
                }
            }
            """).text
        let onMainExecutor = """
                    let posts = try await feed.latestPosts(limit: 1)
                    return await withTaskExecutorPreference(PromiseContext.main.taskExecutor) { @concurrent in
                        posts.count
                    }
            """
        let twins = text.components(separatedBy: "func count() async throws -> Int {\n").dropFirst().map {
            $0.components(separatedBy: "\n    }\n").first ?? $0
        }
        #expect(twins == [onMainExecutor, onMainExecutor])
    }

    @Test("a closure parameter named like a name a later step reads is renamed (its `let` would stand for that name there)")
    func parameterReadLater() {
        let text = Self.converted(Self.feed("""
                public let base = 100

                public func scaled() -> Promise<Int, APIError> {
                    latestPosts(limit: 3)
                        .map(on: .immediate) { base in base.count * 2 }
                        .map(on: .immediate) { d in d + base }
                }

                public func offset(base: Int) -> Int { base + 1 }

                public func labelled(base: Int) -> Promise<Int, APIError> {
                    latestPosts(limit: 3)
                        .map(on: .immediate) { base in offset(base: base.count) }
                        .map(on: .immediate) { d in Post(id: d + base, title: "").id }
                }
            """)).text
        #expect(Self.bodies(of: "scaled", in: text).twin == """
                    let value = try await latestPosts(limit: 3)
                    let d = value.count * 2
                    return d + base
            """)
        #expect(Self.bodies(of: "labelled", in: text).twin == """
                    let value = try await latestPosts(limit: 3)
                    let d = offset(base: value.count)
                    return Post(id: d + base, title: "").id
            """)
    }

    @Test("a value step that ignores a value already bound writes no `_ = name` line")
    func ignoredBoundValue() {
        let text = Self.converted(Self.feed("""
                public func touch() -> Promise<Void, APIError> {
                    latestPosts(limit: 1).then(on: .immediate) { posts in print(posts.count) }.map(on: .immediate) { _ in () }
                }
            """)).text
        #expect(Self.bodies(of: "touch", in: text).twin == """
                    let posts = try await latestPosts(limit: 1)
                    print(posts.count)
            """)
    }

    @Test("`tryMap` is `map` whose statements may throw; a statement over several lines keeps its shape")
    func tryMapOverSeveralLines() {
        let text = Self.converted(Self.feed("""
                public func joinedLength() -> StdPromise<Int> {
                    latestPosts(limit: 2)
                        .mapError(on: .immediate) { $0 as Swift.Error }
                        .tryMap(on: .immediate) { posts in
                            let joined = posts.map(\\.title).joined(
                                separator: ","
                            )
                            guard !joined.isEmpty else { throw APIError.notFound }
                            return joined.count
                        }
                }
            """)).text
        #expect(Self.bodies(of: "joinedLength", in: text).twin == """
                    let posts = try await latestPosts(limit: 2)
                    let joined = posts.map(\\.title).joined(
                        separator: ","
                    )
                    guard !joined.isEmpty else { throw APIError.notFound }
                    return joined.count
            """)
    }

    @Test("`when(fulfilled:)` is awaited as it is (its first-failure rule kept); a closure's two parameters become a tuple `let`")
    func when() {
        let text = Self.converted(Self.feed("""
                public func counts() -> Promise<(Int, Int), APIError> {
                    when(fulfilled: latestPosts(limit: 1), latestPosts(limit: 2)).map(on: .immediate) { one, two in
                        (one.count, two.count)
                    }
                }
            """)).text
        #expect(Self.bodies(of: "counts", in: text).twin == """
                    let (one, two) = try await when(fulfilled: latestPosts(limit: 1), latestPosts(limit: 2)).value
                    return (one.count, two.count)
            """)
    }

    @Test("a tuple parameter named like a function the chain calls is renamed, with its uses (not members or labels)")
    func tupleParameterRenamed() {
        let text = Self.converted(Self.feed("""
                public func sizes() -> Promise<Int, APIError> {
                    when(fulfilled: latestPosts(limit: 1), latestPosts(limit: 2)).map(on: .immediate) { latestPosts, two in
                        latestPosts.count + two.count + latestPosts.map { post in post.id }.reduce(0, +)
                    }
                }
            """)).text
        #expect(Self.bodies(of: "sizes", in: text).twin == """
                    let (latestPosts2, two) = try await when(fulfilled: latestPosts(limit: 1), latestPosts(limit: 2)).value
                    return latestPosts2.count + two.count + latestPosts2.map { post in post.id }.reduce(0, +)
            """, "\(text)")
    }

    @Test("a named function given as the closure (`map(on:, Feed.count)`) is called with the value")
    func namedFunction() {
        let text = Self.converted(Self.feed("""
                public static func count(_ posts: [Post]) -> Int { posts.count }

                public func counted() -> Promise<Int, APIError> {
                    latestPosts(limit: 2).map(on: .utility, Feed.count)
                }
            """)).text
        #expect(Self.bodies(of: "counted", in: text).twin == """
                    let value = try await latestPosts(limit: 2)
                    return await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                        Feed.count(value)
                    }
            """, "\(text)")
    }

    @Test("a `let` of promises read once as an argument of `when` is consumed there (its handles would block the cancel request)")
    func whenArgumentConsumed() {
        let text = Self.converted(Self.feed("""
                public func total(_ limits: [Int]) -> Promise<Int, APIError> {
                    let loads = limits.map { latestPosts(limit: $0) }
                    let unused = limits.count
                    return when(fulfilled: loads, cancelOnFailure: true).map(on: .immediate) { lists in lists.count + unused }
                }
            """)).text
        #expect(Self.bodies(of: "total", in: text).twin == """
                    let loads = limits.map { latestPosts(limit: $0) }
                    let unused = limits.count
                    let lists = try await when(fulfilled: (consume loads), cancelOnFailure: true).value
                    return lists.count + unused
            """, "\(text)")
    }

    @Test("chains whose meaning cannot be kept are left, each with its reason; a context chosen at run time and `timeout` after a step convert")
    func leftAlone() {
        let (text, notes) = Self.converted(Self.feed("""
                public func chosen(_ fast: Bool) -> Promise<Int, APIError> {
                    latestPosts(limit: 1).map(on: fast ? .immediate : .utility) { $0.count }
                }

                public func soon() -> Promise<Int, APIError> {
                    latestPosts(limit: 1).map(on: .nowOr(.utility)) { $0.count }
                }

                public func timed() -> Promise<Int, PromiseTimeoutError<APIError>> {
                    latestPosts(limit: 1).map(on: .immediate) { $0.count }.timeout(on: .immediate, delay: 1)
                }

            """))
        // `.nowOr` keeps the base's promise, whose type only the compiler gives (a call with a twin would pick the twin).
        #expect(notes.contains { $0.hasPrefix("soon(): left as a chain: a `.nowOr` context on a promise whose type is not known") }, "\(notes)")
        #expect(notes.last == "convert-body: 2 of 3 chain bodies converted, 1 left (reasons above)")
        // `timeout` after a step: the steps in a local function, the timeout kept (ConvertBodyIssue39Tests).
        #expect(Self.bodies(of: "timed", in: text).twin.contains(
            "return try await StdPromise(on: .immediate) { try await untimed() }.timeout(on: .immediate, delay: 1).value"), "\(text)")
        // A context chosen at run time, in nonisolated code: the executor is chosen where the chain was built, before
        // the first await (`nil` for `.immediate`: the `@concurrent` closure runs on the global executor).
        #expect(Self.bodies(of: "chosen", in: text).twin == """
                    let executor: (any TaskExecutor)? = fast ? nil : PromiseContext.utility.taskExecutor
                    let value = try await latestPosts(limit: 1)
                    return await withTaskExecutorPreference(executor) { @concurrent in
                        value.count
                    }
            """, "\(text)")
    }

    @Test("a function without an async twin is left: add-async-twins comes first")
    func needsTwin() {
        let source = Self.feed("""
                public func titles(limit: Int) -> Promise<[String], APIError> {
                    latestPosts(limit: limit).map(on: .immediate) { $0.map(\\.title) }
                }
            """)
        let result = ConvertBody.run(.inMemory([(path: "Feed.swift", text: source)]))
        #expect(result.changes.isEmpty)
        #expect(result.notes.map(\.message).contains { $0.contains("titles(limit:): left as a chain: no async twin of its own (run add-async-twins first") })
    }

    @Test("overloads that differ only by parameter types each get their own twin's body")
    func overloads() {
        let text = Self.converted(Self.feed("""
                public func count(_ limit: Int) -> Promise<Int, APIError> {
                    latestPosts(limit: limit).map(on: .immediate) { $0.count }
                }

                public func count(_ limit: Double) -> Promise<Int, APIError> {
                    latestPosts(limit: Int(limit)).map(on: .immediate) { $0.count + 1 }
                }
            """)).text
        #expect(text.contains("""
                public nonisolated(nonsending) func count(_ limit: Int) async throws -> Int {
                    return try await latestPosts(limit: limit).count
                }
            """))
        #expect(text.contains("""
                public nonisolated(nonsending) func count(_ limit: Double) async throws -> Int {
                    return try await latestPosts(limit: Int(limit)).count + 1
                }
            """))
    }

    @Test("a hand-written async overload is no twin: its errors are not the promise's, so the promise is awaited through `.value`")
    func handWrittenOverloadIsNoTwin() {
        let text = Self.converted(Self.feed("""
                public func lookup(id: Int) -> Promise<Int, APIError> { Promise(fulfilled: id) }

                public func lookup(id: Int) async throws -> Int { throw CancellationError() }

                public func doubled(id: Int) -> Promise<Int, APIError> {
                    lookup(id: id).map(on: .immediate) { $0 * 2 }
                }

                public func looked(id: Int) -> Promise<Int, APIError> {
                    latestPosts(limit: id).flatMap(on: .immediate) { lookup(id: $0.count) }
                }
            """)).text
        #expect(Self.bodies(of: "doubled", in: text).twin == "        return try await lookup(id: id).value * 2")
        #expect(Self.bodies(of: "looked", in: text).twin == """
                    let value = try await latestPosts(limit: id)
                    return try await lookup(id: value.count).value
            """)
    }

    @Test("the wrapper's `as! E` is written only when every await of the twin is a tool-written twin's call or a promise's `.value`")
    func awaitsOfUnknownErrors() {
        let isTwin: (FunctionCallExprSyntax) -> Bool = { Calls.calledName($0)?.0 == "twin" }
        #expect(ChainConversion.awaitOfUnknownErrors(in: ["let a = try await twin(x).count", "return try await f(a).value"], hasTwin: isTwin) == nil)
        #expect(ChainConversion.awaitOfUnknownErrors(in: ["let a = try await other(x)", "return a"], hasTwin: isTwin) == "other(x)")
        #expect(ChainConversion.awaitOfUnknownErrors(in: ["Task { try await other(x) }", "return try! parse()"], hasTwin: isTwin) == nil)
        #expect(ChainConversion.awaitOfUnknownErrors(in: ["let a = try parse()"], hasTwin: isTwin) == "parse()")
        #expect(ChainConversion.awaitOfUnknownErrors(in: [
            "return try await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in",
            "    try await other(x)",
            "}",
        ], hasTwin: isTwin) == "other(x)")
    }

    @Test("statements before the chain move into the twin, first; early returns of promises become returns and throws")
    func statementsBeforeTheChain() {
        let (text, notes) = Self.converted(Self.feed("""
                public func total(_ limits: [Int]) -> Promise<Int, APIError> {
                    let doubled = limits.map { $0 * 2 }
                    return latestPosts(limit: doubled.reduce(0, +)).map(on: .immediate) { $0.count }
                }

                public func guarded(_ limit: Int) -> Promise<Int, APIError> {
                    guard limit > 0 else { return Promise(rejected: .notFound) }
                    if limit == 1 { return Promise(fulfilled: 1) }
                    if limit == 2 {
                        return total([1])
                    }
                    print("counting \\(limit)")
                    return latestPosts(limit: limit)
                        .map(on: .immediate) { posts in posts.count }
                        .mapError(on: .immediate) { _ in APIError.offline }
                }
            """))
        #expect(notes.last == "convert-body: 2 of 2 chain bodies converted, 0 left (reasons above)")
        #expect(Self.bodies(of: "total", in: text).promise
            == "        StdPromise(on: .immediate) { try await self.total(limits) }.mapError(on: .immediate) { $0 as! APIError }")
        #expect(Self.bodies(of: "total", in: text).twin == """
                    let doubled = limits.map { $0 * 2 }
                    return try await latestPosts(limit: doubled.reduce(0, +)).count
            """)
        // The early returns stay outside the `do` of the handler: 1.x's handler never saw them.
        #expect(Self.bodies(of: "guarded", in: text).twin == """
                    guard limit > 0 else { throw APIError.notFound }
                    if limit == 1 { return 1 }
                    if limit == 2 {
                        return try await total([1])
                    }
                    print("counting \\(limit)")
                    do {
                        let posts = try await latestPosts(limit: limit)
                        return posts.count
                    } catch let error where !(error is CancellationError) {
                        throw APIError.offline
                    }
            """)
    }

    @Test("statements before the chain are left when they cannot move: a `defer`, a bare `return`, a rejection whose type is not spelled")
    func statementsThatStay() {
        let (_, notes) = Self.converted(Self.feed("""
                public func deferred() -> Promise<Int, APIError> {
                    defer { print("returned") }
                    return latestPosts(limit: 1).map(on: .immediate) { $0.count }
                }

                public func untyped(_ limit: Int) -> StdPromise<Int> {
                    guard limit > 0 else { return Promise(rejected: .notFound) }
                    return latestPosts(limit: limit).mapError(on: .immediate) { $0 as Swift.Error }.map(on: .immediate) { $0.count }
                }
            """))
        #expect(notes.contains("deferred(): left as a chain: a `defer` before the chain (it ran when the promise function returned, before the chain)"))
        #expect(notes.contains("untyped(_:): left as a chain: an early `return Promise(rejected: .notFound)` whose error type is not spelled"))
    }

    @Test("`[weak self]`: the closure's code runs on the twin's own `self`; `guard let self` goes, `self?.x` becomes `self.x`")
    func weakSelf() {
        let (text, notes) = Self.converted(Self.header + """
            }

            public final class Screen: Sendable {
                let feed = Feed()
                let log = Log()

                public func load() -> Promise<Int, APIError> {
                    feed.latestPosts(limit: 1)
                        .then(on: .immediate) { [weak self] posts in
                            guard let self else { return }
                            self.log.add("loaded \\(posts.count)")
                        }
                        .map(on: .immediate) { posts in posts.count }
                        .then(on: .immediate) { [unowned self] count in log.add("\\(count)") }
                        .then(on: .immediate) { [weak self] _ in self?.log.add("done") }
                }

                public func named() -> Promise<Int, APIError> {
                    feed.latestPosts(limit: 1).then(on: .immediate) { [weak self] posts in
                        guard let screen = self else { return }
                        screen.log.add("\\(posts.count)")
                    }.map(on: .immediate) { $0.count }
                }

                public func coalesced() -> Promise<Int, APIError> {
                    feed.latestPosts(limit: 1).map(on: .immediate) { [weak self] _ in self?.log.count ?? 0 }
                }

                public func gone() -> Promise<Int, APIError> {
                    feed.latestPosts(limit: 1).map(on: .immediate) { [weak self] posts in
                        guard let self else { return 0 }
                        return self.log.count + posts.count
                    }
                }

                public func other(_ x: Int) -> Promise<Int, APIError> {
                    feed.latestPosts(limit: 1).map(on: .immediate) { [x] _ in x }
                }

                public func renamed() -> Promise<Int, APIError> {
                    feed.latestPosts(limit: 1).map(on: .immediate) { [weak self, log = log] _ in log.count }
                }
            }

            public final class Log: Sendable {
                public func add(_ line: String) {}
                public var count: Int { 0 }
            }
            """)
        #expect(Self.bodies(of: "load", in: text).twin == """
                    let posts = try await feed.latestPosts(limit: 1)
                    self.log.add("loaded \\(posts.count)")
                    let count = posts.count
                    log.add("\\(count)")
                    self.log.add("done")
                    return count
            """)
        #expect(Self.bodies(of: "named", in: text).twin == """
                    let posts = try await feed.latestPosts(limit: 1)
                    let screen = self
                    screen.log.add("\\(posts.count)")
                    return posts.count
            """)
        #expect(Self.bodies(of: "other", in: text).twin == """
                    _ = try await feed.latestPosts(limit: 1)
                    return x
            """)
        #expect(notes.count == 4, "\(notes)") // and the tally
        #expect(notes.contains("coalesced(): left as a chain: a `[weak self]` closure that uses `self?.x ?? y` (`y` is what it gave once `self` "
            + "was gone; in the twin `self` is a strong reference until it returns (Swift has no weak `self` in a method), so `y` would never be used)"))
        #expect(notes.contains("gone(): left as a chain: a `[weak self]` closure that does something when `self` is gone "
            + "(`guard let … else { return 0 }`): in the twin `self` is a strong reference until it returns "
            + "(Swift has no weak `self` in a method), so that would never run"))
        #expect(notes.contains("renamed(): left as a chain: a capture `[log = log]` of a name that is not a parameter "
            + "(in the twin `let log = log` would read the `let` itself)"))
    }

    @Test("`flatMapError` and `tryRecover`: do/catch whose catch awaits the promise, or throws")
    func flatMapError() {
        let text = Self.converted(Self.feed("""
                public func fallback() -> Promise<[Post], APIError> {
                    latestPosts(limit: 2).flatMapError(on: .immediate) { _ in latestPosts(limit: 1) }
                }

                public func rethrown() -> Promise<[Post], APIError> {
                    latestPosts(limit: 2).flatMapError(on: .immediate) { error in
                        print("failed: \\(error)")
                        return Promise(rejected: .offline)
                    }
                }

                public func retried() -> StdPromise<Int> {
                    latestPosts(limit: 2)
                        .map(on: .immediate) { $0.count }
                        .tryRecover(on: .immediate) { error in
                            guard case APIError.offline = error else { throw error }
                            return 0
                        }
                }

                public func onQueue() -> Promise<[Post], APIError> {
                    latestPosts(limit: 2).flatMapError(on: .utility) { _ in
                        let limit = 1
                        return latestPosts(limit: limit)
                    }
                }
            """)).text
        #expect(Self.bodies(of: "fallback", in: text).twin == """
                    do {
                        return try await latestPosts(limit: 2)
                    } catch let error where !(error is CancellationError) {
                        return try await latestPosts(limit: 1)
                    }
            """)
        #expect(Self.bodies(of: "rethrown", in: text).twin == """
                    do {
                        return try await latestPosts(limit: 2)
                    } catch let error where !(error is CancellationError) {
                        print("failed: \\(error)")
                        throw APIError.offline
                    }
            """)
        #expect(Self.bodies(of: "retried", in: text).twin == """
                    do {
                        return try await latestPosts(limit: 2).count
                    } catch let error where !(error is CancellationError) {
                        guard case APIError.offline = error else { throw error }
                        return 0
                    }
            """)
        #expect(Self.bodies(of: "onQueue", in: text).twin == """
                    do {
                        return try await latestPosts(limit: 2)
                    } catch let error where !(error is CancellationError) {
                        return try await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                            let limit = 1
                            return try await latestPosts(limit: limit)
                        }
                    }
            """)
    }

    @Test("a `flatMap` on a named context with several statements: they run there, and its promise is awaited there")
    func flatMapOnContext() {
        let text = Self.converted(Self.feed("""
                public func next() -> Promise<[Post], APIError> {
                    latestPosts(limit: 1).flatMap(on: .utility) { posts in
                        let limit = posts.count + 1
                        return latestPosts(limit: limit)
                    }
                }
            """)).text
        #expect(Self.bodies(of: "next", in: text).twin == """
                    let posts = try await latestPosts(limit: 1)
                    return try await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                        let limit = posts.count + 1
                        return try await latestPosts(limit: limit)
                    }
            """)
    }

    @Test("a TokenPromise made by a final `.withToken(token)`: the twin has the chain, the wrapper the token")
    func tokenPromise() {
        let (text, notes) = Self.converted(Self.feed("""
                public func count(token: PromiseInvalidationToken) -> TokenPromise<Int, APIError> {
                    latestPosts(limit: 2).map(on: .immediate) { $0.count }.withToken(token)
                }

                public func tokened(token: PromiseInvalidationToken) -> TokenPromise<Int, APIError> {
                    latestPosts(limit: 2).withToken(token).map(on: .immediate) { $0.count }
                }
            """))
        #expect(Self.bodies(of: "count", in: text).twin == "        return try await latestPosts(limit: 2).count")
        #expect(Self.bodies(of: "count", in: text).promise == """
                    StdPromise(on: .immediate) { try await self.count(token: token) }
                        .mapError(on: .immediate) { $0 as! APIError }
                        .withToken(token)
            """)
        // `withToken` before the steps: each promise they return is cancelled by an invalidation
        // (`requestCancelOnInvalidate`), which the twin's own callers would not be.
        #expect(notes.contains { $0.hasPrefix("tokened(token:): left as a chain: callbacks registered through `withToken(token)`") }, "\(notes)")
    }

    @Test("invalidation tokens on steps: the validity is taken where the chain registered them, checked where each would run")
    func tokens() {
        let (text, notes) = Self.converted(Self.feed("""
                public func shown(_ token: PromiseInvalidationToken, log: Log) -> Promise<Int, APIError> {
                    log.add("start")
                    return latestPosts(limit: 1)
                        .map(on: .utility, token: token) { $0.count }
                        .then(on: .immediate, token: token) { count in log.add("count \\(count)") }
                        .catch(on: .immediate, token: token) { error in log.add("failed \\(error)") }
                        .always(on: .immediate, token: token) { _ in log.add("done") }
                }

                public func titled(_ token: PromiseInvalidationToken, log: Log) -> Promise<String, APIError> {
                    latestPosts(limit: 1).map(on: .immediate, token: token) { posts in posts[0].title }
                        .then(on: .utility, token: token) { title in log.add(title) }
                }
            """))
        #expect(notes.last == "convert-body: 2 of 2 chain bodies converted, 0 left (reasons above)", "\(notes)")
        #expect(Self.bodies(of: "shown", in: text).twin == """
                    log.add("start")
                    let validity = token.validity()
                    defer {
                        if validity.isValid {
                            log.add("done")
                        }
                    }
                    do {
                        let value = try await latestPosts(limit: 1)
                        let count = try await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                            guard validity.isValid else { throw CancellationError() }
                            return value.count
                        }
                        if validity.isValid {
                            log.add("count \\(count)")
                        }
                        return count
                    } catch let error where !(error is CancellationError) {
                        if validity.isValid {
                            log.add("failed \\(error)")
                        }
                        throw error
                    }
            """)
        #expect(Self.bodies(of: "titled", in: text).twin == """
                    let validity = token.validity()
                    let posts = try await latestPosts(limit: 1)
                    guard validity.isValid else { throw CancellationError() }
                    let title = posts[0].title
                    await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                        if validity.isValid {
                            log.add(title)
                        }
                    }
                    return title
            """)
    }

    @Test("in the twin, a promise function called for its promise is pinned to its type (its async twin would be picked)")
    func pinsCallsUsedAsValues() throws {
        let body = try #require(Parser.parse(source: "func f() {\n    let p = fetch(1)\n    _ = fetch(2)\n    return p.map { $0 }\n}").statements.first?
            .item.as(FunctionDeclSyntax.self)?.body)
        // `try await fetch(4).count` is the twin's call on purpose: under `await`, nothing is pinned.
        let lines = ["let p = fetch(1)", "_ = fetch(2)", "let v = try await fetch(3)", "let c = try await fetch(4).count", "return try await p.value"]
        let pinned = ConvertBody.pinned(lines, names: ["fetch"], in: body) { _ in "Promise<Int, APIError>" }
        #expect(pinned == [
            "let p = fetch(1) as Promise<Int, APIError>\n_ = fetch(2) as Promise<Int, APIError>\nlet v = try await fetch(3)\n"
                + "let c = try await fetch(4).count\nreturn try await p.value",
        ])
    }

    @Test("a second run changes nothing")
    func idempotent() {
        let text = Self.converted(Self.feed("""
                public func titles(limit: Int) -> Promise<[String], APIError> {
                    latestPosts(limit: limit).map(on: .immediate) { $0.map(\\.title) }
                }
            """)).text
        let second = ConvertBody.run(.inMemory([(path: "Feed.swift", text: text)]))
        #expect(second.changes.isEmpty)
        #expect(second.notes.map(\.message) == ["convert-body: 0 of 0 chain bodies converted, 0 left (reasons above)"], "the wrapper is not a chain")
    }

    @Test("every shape of Fixtures/ConvertBody/Shapes.swift is converted, and the result compiles (Swift 5 and 6)", arguments: [5, 6])
    func compiles(swiftVersion: Int) throws {
        let shapes = try Support.fixture("ConvertBody/Shapes.swift")
        let (converted, notes) = Self.converted(shapes.text, path: "Shapes.swift")
        #expect(notes == ["convert-body: 36 of 36 chain bodies converted, 0 left (reasons above)"], "\(notes)")
        try Support.expectCompiles([(path: "Shapes.swift", text: converted)], swiftVersion: swiftVersion)
        #expect(converted.contains("""
                public func follow() -> TokenPromise<String, APIError> {
                    StdPromise(on: .immediate) { try await self.follow() }
                        .mapError(on: .immediate) { $0 as! APIError }
                        .withToken(token)
                }
            """), "\(converted)")
        #expect(converted.contains("""
                    token.invalidate()
                    let validity = token.validity()
                    defer {
            """))
        #expect(converted.contains("""
                public nonisolated(nonsending) func checkedCount(limit: Int) async throws -> Int {
                    let posts = try await latestPosts(limit: limit)
                    return try await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                        guard !posts.isEmpty else {
                            throw APIError.notFound
                        }
                        return posts.count
                    }
                }
            """))
        // Without the compiler's types (this test is syntax only), a handler on the base stays on its promise.
        #expect(converted.contains("""
                    let titles = try await titles(limit: 2).mapError(on: .immediate) { _ in APIError.offline }.value
            """) || converted.contains("let value = try await titles(limit: 2).mapError(on: .immediate) { _ in APIError.offline }.value"))
        #expect(converted.contains("let (one, two) = try await when(fulfilled: (consume first), (consume second)).value"))
        #expect(converted.contains("return await withTaskExecutorPreference(context.taskExecutor) { @concurrent in"))
        #expect(converted.contains("""
                    do {
                        let value = try await titles(limit: 1)
                        await withTaskExecutorPreference(PromiseContext.queue(workQueue).taskExecutor) { @concurrent in
                            log.add("done")
                        }
                        return value
                    } catch let error where !(error is CancellationError) {
                        await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                            log.add("failed: \\(error)")
                        }
                        await withTaskExecutorPreference(PromiseContext.queue(workQueue).taskExecutor) { @concurrent in
                            log.add("done")
                        }
                        throw error
                    } catch {
                        await withTaskExecutorPreference(PromiseContext.queue(workQueue).taskExecutor) { @concurrent in
                            log.add("done")
                        }
                        throw error
                    }
            """))
        #expect(converted.contains("""
            public nonisolated(nonsending) func loggedCount(feed: Feed) async throws -> Int {
                do {
                    let value = try await feed.latestPosts(limit: 1)
                    return await withTaskExecutorPreference(PromiseContext.Main.screen.context.taskExecutor) { @concurrent in
                        value.count
                    }
                } catch let error where !(error is CancellationError) {
                    await withTaskExecutorPreference(PromiseContext.main.taskExecutor) { @concurrent in
                        print("failed: \\(error)")
                    }
                    throw error
                }
            }
            """))
    }

    @Test("with the compiler: each conversion is proved; one the compiler rejects is left with its reason, the rest written")
    func proved() throws {
        let source = """
            import Foundation
            import Tomorrowland

            let counterQueue = DispatchQueue(label: "counter")
            let counterExecutor = PromiseContext.queue(counterQueue).serialExecutor!

            actor Counter {
                var total = 0
                nonisolated var unownedExecutor: UnownedSerialExecutor { counterExecutor.asUnownedSerialExecutor() }
                func add(_ n: Int) -> Int {
                    total += n
                    return total
                }
            }

            func add(_ amount: StdPromise<Int>, to counter: Counter) -> StdPromise<Int> {
                amount.map(on: .queue(counterQueue)) { n in counter.assumeIsolated { $0.add(n) } }
            }

            func doubled(_ amount: StdPromise<Int>) -> StdPromise<Int> {
                amount.map(on: .utility) { $0 * 2 }
            }

            func waited(_ amount: StdPromise<Int>, on queue: OperationQueue) -> StdPromise<Int> {
                amount.map(on: .utility) { n in
                    queue.addOperations([], waitUntilFinished: true)
                    return n
                }
            }
            """
        let twins = Support.applying(AddAsyncTwins.run(.inMemory([(path: "Counter.swift", text: source)])), to: [(path: "Counter.swift", text: source)])
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: 6, source: twins[0])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConvertBody.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        #expect(notes.contains { $0.hasPrefix("waited(_:on:): left as a chain: the compiler objects:") && $0.contains("addOperations") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("checked by the compiler (round 2)") }, "\(notes)")
        #expect(notes.last == "convert-body: 2 of 3 chain bodies converted, 1 left (reasons above)")
        let text = try #require(result.changes.first?.updated)
        #expect(text.contains("StdPromise(on: .immediate) { try await doubled(amount) }"))
        #expect(text.contains("queue.addOperations([], waitUntilFinished: true)"))
        // `assumeIsolated` (unavailable in async code) on the actor's queue: the code runs isolated to the actor, `$0` is it.
        #expect(text.contains("""
                let n = try await amount.value
                return await { (counter: isolated Counter) in
                    counter.add(n)
                }(counter)
            """), "\(text)")
    }

    // MARK: - Behaviour (ConvertedBehaviour.swift is the tool's output, compiled into these tests)

    @Test("with the compiler: a call is awaited through its twin only when the compiler links it to a twin add-async-twins wrote")
    func provedTwinCalls() throws {
        let source = """
            import Foundation
            import Tomorrowland

            enum APIError: Error { case offline }

            func size() -> Promise<Int, APIError> { Promise(fulfilled: 3) }

            func lookup(id: Int) -> Promise<Int, APIError> { Promise(fulfilled: id) }

            func lookup(id: Int) async throws -> Int { throw CancellationError() }

            func doubled() -> Promise<Int, APIError> {
                size().map(on: .immediate) { $0 * 2 }
            }

            func looked(id: Int) -> Promise<Int, APIError> {
                lookup(id: id).map(on: .immediate) { $0 + 1 }
            }
            """
        let twins = Support.applying(AddAsyncTwins.run(.inMemory([(path: "Sizes.swift", text: source)])), to: [(path: "Sizes.swift", text: source)])
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: 6, source: twins[0])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConvertBody.run(set, oracle: oracle)
        let notes = result.notes.map(\.message)
        #expect(notes.last == "convert-body: 2 of 2 chain bodies converted, 0 left (reasons above)", "\(notes)")
        let text = try #require(result.changes.first?.updated)
        #expect(text.contains("    return try await size() * 2\n"))
        #expect(text.contains("    return try await lookup(id: id).value + 1\n"))
    }

    /// A non-Sendable service: Swift 6 mode rejects a wrapper's Task that captures it.
    static let nonSendableService = """
        import Foundation
        import Tomorrowland
        import TomorrowlandAsync

        final class Inbox {
            var fetched = 0

            func count() -> Promise<Int, Error> {
                fetched += 1
                return Promise(fulfilled: 3)
            }

            /// Twice the count.
            func doubled() -> Promise<Int, Error> {
                count().map(on: .immediate) { $0 * 2 }
            }

            func tripled() -> Promise<Int, Error> {
                count().map(on: .utility) { $0 * 3 }
            }
        }

        func show(_ inbox: Inbox) -> Promise<Int, Error> {
            inbox.tripled()
        }
        """

    /// add-async-twins, then convert-body with the compiler, on `text` in Swift `swiftVersion` mode
    /// (the fixture's folder is the caller's to remove).
    static func proved(_ text: String, path: String, swiftVersion: Int = 6) throws -> (result: MigrationResult, notes: [String], directory: URL) {
        let source = [(path: path, text: text)]
        let twins = Support.applying(AddAsyncTwins.run(.inMemory(source)), to: source)
        let (set, oracle, directory) = try OracleTests.fixture(swiftVersion: swiftVersion, source: twins[0])
        let result = ConvertBody.run(set, oracle: oracle)
        return (result, result.notes.map(\.message), directory)
    }

    /// `proved` on `nonSendableService`.
    static func convertedService(swiftVersion: Int) throws -> (result: MigrationResult, notes: [String], directory: URL) {
        try proved(nonSendableService, path: "Inbox.swift", swiftVersion: swiftVersion)
    }

    @Test("Swift 6 mode, a non-Sendable self: the promise version nothing calls goes, the twin holds the code; one still called is left")
    func withoutWrapper() throws {
        let (result, notes, directory) = try Self.convertedService(swiftVersion: 6)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(notes.last == "convert-body: 1 of 2 chain bodies converted, 1 left (reasons above)"
            + "; 1 waits on a type being Sendable (what to do: the notes before this one)", "\(notes)")
        #expect(notes.contains {
            $0.hasPrefix("tripled(): left as a chain: `Inbox` is not known to be Sendable")
                && $0.contains("the promise version, which could go instead, is still called at ") && $0.contains("Inbox.swift:")
        }, "\(notes)")
        let text = try #require(result.changes.first?.updated)
        // The promise version is gone; its twin holds the chain as straight-line code and says what it is now.
        #expect(!text.contains("func doubled() -> Promise<Int, Error>"))
        #expect(text.contains("""
                /// Twice the count.
                ///
                /// Converted by tomorrowland-migrate (convert-body) from its promise version, which nothing called any more.
                nonisolated(nonsending) func doubled() async throws -> Int {
                    return try await count() * 2
                }
            """), "\(text)")
        #expect(text.contains("count().map(on: .utility) { $0 * 3 }"))
        // What was written compiles in Swift 6 mode, and a second run changes nothing.
        try text.write(to: directory.appendingPathComponent("Inbox.swift"), atomically: true, encoding: .utf8)
        let again = try OracleTests.fixture(swiftVersion: 6, source: (path: "Inbox.swift", text: text))
        defer { try? FileManager.default.removeItem(at: again.directory) }
        #expect(try again.oracle.facts(for: again.set.files.map(\.path)).errors.isEmpty)
        let second = ConvertBody.run(again.set, oracle: again.oracle)
        #expect(second.changes.isEmpty)
        #expect(second.notes.last?.message == "convert-body: 0 of 1 chain bodies converted, 1 left (reasons above)"
            + "; 1 waits on a type being Sendable (what to do: the notes before this one)", "\(second.notes.map(\.message))")
    }

    @Test("Swift 5 mode, the same service: no wrapper captures the non-Sendable self either, so the result builds in Swift 6 mode too")
    func nonSendableInSwift5Mode() throws {
        let (result, notes, directory) = try Self.convertedService(swiftVersion: 5)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(notes.last == "convert-body: 1 of 2 chain bodies converted, 1 left (reasons above)"
            + "; 1 waits on a type being Sendable (what to do: the notes before this one)", "\(notes)")
        let text = try #require(result.changes.first?.updated)
        #expect(!text.contains("StdPromise(on: .immediate) { try await self."), "\(text)")
        #expect(!text.contains("func doubled() -> Promise<Int, Error>"))
        #expect(text.contains("count().map(on: .utility) { $0 * 3 }"))
        // What Swift 5 mode accepted also compiles in Swift 6 mode.
        try text.write(to: directory.appendingPathComponent("Inbox.swift"), atomically: true, encoding: .utf8)
        let six = try OracleTests.fixture(swiftVersion: 6, source: (path: "Inbox.swift", text: text))
        defer { try? FileManager.default.removeItem(at: six.directory) }
        #expect(try six.oracle.facts(for: six.set.files.map(\.path)).errors.isEmpty)
    }

    @Test("a protocol requirement's implementation gets an async method of its own with the chain; its promise version wraps it",
          arguments: [5, 6])
    func conformer(swiftVersion: Int) throws {
        let (result, notes, directory) = try Self.proved("""
            import Foundation
            import Tomorrowland
            import TomorrowlandAsync

            protocol Store: Sendable {
                func count(of name: String) -> Promise<Int, Error>
            }

            final class LiveStore: Store {
                let base: Int

                init(base: Int) {
                    self.base = base
                }

                func raw() -> Promise<Int, Error> {
                    Promise(fulfilled: base)
                }

                /// The count, on a background queue.
                func count(of name: String) -> Promise<Int, Error> {
                    raw().map(on: .utility) { $0 + name.count }
                }
            }

            func total(_ store: any Store) -> Promise<Int, Error> {
                store.count(of: "ab")
            }
            """, path: "Store.swift", swiftVersion: swiftVersion)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        let text = try #require(result.changes.first?.updated)
        #expect(text.contains("""
                /// The count, on a background queue.
                func count(of name: String) -> Promise<Int, Error> {
                    StdPromise(on: .immediate) { try await self.count(of: name) }
                }

                /// The count, on a background queue.
                ///
                /// Async twin of `count(of:)` (added by tomorrowland-migrate): does the work; the promise version wraps it.
                /// Throws the promise's error, or `CancellationError` when it is cancelled; cancelling the awaiting Task requests
                /// cancellation of the promise.
                nonisolated(nonsending) func count(of name: String) async throws -> Int {
                    let value = try await raw()
                    return await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                        value + name.count
                    }
                }
            """), "\(text)")
        // The requirement's twin in the protocol's extension stays: callers of `any Store` reach the conformer through it.
        #expect(text.contains("try await (count(of: name) as Promise<Int, Error>).value"))
    }

    @Test("with the compiler: `Alias(fulfilled:)` and `Alias(rejected: .case)` of a promise typealias become `return` and `throw`")
    func aliasedPromiseInitializers() throws {
        let (result, notes, directory) = try Self.proved("""
            import Foundation
            import Tomorrowland

            enum APIError: Error { case notFound }
            typealias FeedPromise<T> = Promise<T, APIError>

            func all() -> FeedPromise<[Int]> { Promise(fulfilled: [1, 2]) }

            func first(above n: Int) -> FeedPromise<Int> {
                all().flatMap(on: .immediate) { values -> FeedPromise<Int> in
                    guard let value = values.first(where: { $0 > n }) else { return FeedPromise(rejected: .notFound) }
                    return FeedPromise(fulfilled: value)
                }
            }
            """, path: "Values.swift")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        let text = try #require(result.changes.first?.updated)
        #expect(text.contains("""
                let values = try await all()
                guard let value = values.first(where: { $0 > n }) else { throw APIError.notFound }
                return value
            """), "\(text)")
    }

    @Test("with the compiler: a `then { _ in … }` on a `Void` promise evaluates it without a `let` of `()` (which warns)")
    func voidThen() throws {
        let (result, notes, directory) = try Self.proved("""
            import Foundation
            import Tomorrowland

            final class Log: @unchecked Sendable { var lines: [String] = [] }

            func ping() -> Promise<Void, Error> { Promise(fulfilled: ()) }

            func pinged(_ log: Log) -> Promise<Void, Error> {
                ping().then(on: .utility) { _ in log.lines.append("pinged") }
            }
            """, path: "Ping.swift")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(notes.last == "convert-body: 1 of 1 chain bodies converted, 0 left (reasons above)", "\(notes)")
        let text = try #require(result.changes.first?.updated)
        #expect(text.contains("""
                _ = try await ping()
                await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                    log.lines.append("pinged")
                }
            }
            """), "\(text)")
    }

    @Test("ConvertedBehaviour.swift is exactly what the tool writes for Fixtures/ConvertBody/Behaviour.swift")
    func behaviourFileIsTheToolsOutput() throws {
        let behaviour = try Support.fixture("ConvertBody/Behaviour.swift")
        let compiled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("ConvertedBehaviour.swift")
        // `TOMORROWLAND_WRITE_CONVERTED_BEHAVIOUR=1 swift test --filter behaviourFileIsTheToolsOutput` writes it anew.
        if ProcessInfo.processInfo.environment["TOMORROWLAND_WRITE_CONVERTED_BEHAVIOUR"] == "1" {
            try Self.converted(behaviour.text, path: "Behaviour.swift").text.write(to: compiled, atomically: true, encoding: .utf8)
        }
        #expect(Self.converted(behaviour.text, path: "Behaviour.swift").text == (try String(contentsOf: compiled, encoding: .utf8)))
    }

    @Test("the wrapper fulfils with the value, and the `map(on: .queue(q))` closure ran on q")
    func value() async throws {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
        let observed = Observed()
        #expect(try await (doubled(21, observed: observed) as Promise<Int, BehaviourError>).value == 42)
        #expect(observed.places == ["behaviourQueue"])
    }

    @Test("the wrapper rejects with the typed error, and the closure did not run")
    func error() async {
        let observed = Observed()
        let result = await (doubled(-1, observed: observed) as Promise<Int, BehaviourError>).resolvedResult
        #expect(result == .error(.failed))
        #expect(observed.places.isEmpty)
    }

    @Test("requestCancel() on the wrapper cancels the Task, whose await asks the source to cancel")
    func cancel() async throws {
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = doubled(0, observed: observed)
        // Once the source's promise exists, the twin awaits it.
        while !observed.started { await Task.yield() }
        promise.requestCancel()
        let result = await promise.resolvedResult
        #expect(result == .cancelled)
        #expect(observed.cancelled)
        #expect(observed.places.isEmpty)
    }
}

/// Issue 39: the wrapper starts the twin at once, so the statements that moved into it still run
/// during the call; `flatMapError` and `[weak self]` converted (ConvertedBehaviour.swift).
@Suite("convert-body: order, recovery, weak self")
struct ConvertedOrderTests {
    @Test("a statement before the chain runs during the call, before it returns; the closure then runs on its queue")
    func statementBeforeRunsDuringTheCall() async throws {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
        let events = Events()
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = incremented(1, events: events, observed: observed)
        events.add("returned")
        #expect(try await promise.value == 2)
        #expect(events.all.prefix(2) == ["before 1", "returned"] || events.all.prefix(2) == ["before 1", "map"], "\(events.all)")
        #expect(Set(events.all) == ["before 1", "returned", "map"])
        #expect(observed.places == ["behaviourQueue"])
    }

    @Test("an early rejection before any suspension resolves the wrapper before the call returns, with the typed error")
    func earlyRejectionIsSynchronous() {
        let events = Events()
        let promise: Promise<Int, BehaviourError> = incremented(7, events: events, observed: Observed())
        #expect(promise.result == .error(.failed))
        #expect(events.all == ["before 7"])
    }

    @Test("a cancel request on the wrapper reaches the source the moved statements started")
    func cancelAfterStatementsBefore() async {
        let events = Events()
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = incremented(0, events: events, observed: observed)
        // The source's promise exists once the call returned: the twin ran up to its first suspension.
        #expect(observed.started)
        promise.requestCancel()
        #expect(await promise.resolvedResult == .cancelled)
        #expect(observed.cancelled)
        #expect(events.all == ["before 0"])
    }

    @Test("`flatMapError`: a rejection is recovered by the closure's promise, made on its queue; a value passes")
    func flatMapErrorRecovers() async throws {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
        let observed = Observed()
        #expect(try await (recovered(-1, observed: observed) as Promise<Int, BehaviourError>).value == 0)
        #expect(observed.places == ["behaviourQueue"])
        #expect(try await (recovered(5, observed: Observed()) as Promise<Int, BehaviourError>).value == 5)
    }

    @Test("`[weak self]`: the closure runs on the twin's `self`, which the wrapper holds until it resolves")
    func weakSelf() async throws {
        let events = Events()
        var counting: Counting? = Counting(events: events)
        weak let weakCounting = counting
        let observed = Observed()
        #expect(try await (counting!.counted(3, observed: observed) as Promise<Int, BehaviourError>).value == 3)
        #expect(events.all == ["counted 3"])
        let pending: Promise<Int, BehaviourError> = counting!.counted(0, observed: observed)
        counting = nil
        #expect(weakCounting != nil, "the wrapper's Task holds `self` while the twin runs (1.x's chain let it go)")
        pending.requestCancel()
        #expect(await pending.resolvedResult == .cancelled)
        while weakCounting != nil { await Task.yield() }
    }

    @Test("tokens: a valid token runs both callbacks; an invalidation before the call does not count")
    func tokenValid() async throws {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
        let token = PromiseInvalidationToken()
        token.invalidate()
        let events = Events()
        let observed = Observed()
        let (source, resolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let promise: Promise<Int, BehaviourError> = shown(source, token: token, events: events, observed: observed)
        resolver.fulfill(with: 4)
        #expect(try await promise.value == 8)
        #expect(events.all == ["shown 4"])
        #expect(observed.places == ["behaviourQueue"])
    }

    @Test("tokens: invalidated after the call, the observer is skipped and the `map` cancels the promise; the source is not cancelled")
    func tokenInvalidated() async {
        let token = PromiseInvalidationToken()
        let events = Events()
        let observed = Observed()
        let (source, resolver) = Promise<Int, BehaviourError>.makeWithResolver()
        let cancelAsked = Events()
        resolver.onRequestCancel(on: .immediate) { _ in cancelAsked.add("cancel") }
        let promise: Promise<Int, BehaviourError> = shown(source, token: token, events: events, observed: observed)
        token.invalidate()
        resolver.fulfill(with: 4)
        #expect(await promise.resolvedResult == .cancelled)
        #expect(events.all.isEmpty)
        #expect(observed.places.isEmpty)
        #expect(cancelAsked.all.isEmpty, "as in 1.x, the token does not cancel the source")
    }
}

/// A final `tap` or `always` that reads the result: the result is taken in a do/catch, the
/// closure runs (on its queue; a `tap` on a named context is enqueued there, not awaited, as
/// 1.x's `tap` returned its receiver), then the twin returns or throws it (ConvertedBehaviour.swift).
@Suite("convert-body: a final tap or always that reads the result, onCancel")
struct ConvertedResultObserverTests {
    /// 1.x's `tap` returned its receiver: its closure ran on its context after the promise resolved, awaited by
    /// nobody. `until` waits for what the closure records (up to 10 s).
    static func until(_ condition: @Sendable () -> Bool) async -> Bool {
        for _ in 0..<1_000 where !condition() { try? await Task.sleep(nanoseconds: 10_000_000) }
        return condition()
    }

    @Test("`tap`: the value passes, and the closure sees it on its queue")
    func tapValue() async throws {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
        let events = Events()
        let observed = Observed()
        #expect(try await (tapped(3, events: events, observed: observed) as Promise<Int, BehaviourError>).value == 4)
        #expect(await Self.until { events.all == ["value 4"] })
        #expect(observed.places == ["behaviourQueue"])
    }

    @Test("`tap`: the wrapper resolves while the tap's queue is busy, as 1.x's tap returned its resolved receiver")
    func tapDoesNotHoldTheWrapper() async throws {
        let events = Events()
        let release = DispatchSemaphore(value: 0)
        behaviourQueue.async { release.wait() }
        let promise: Promise<Int, BehaviourError> = tapped(3, events: events, observed: Observed())
        let resolved = await Self.until { promise.result != nil }
        release.signal()
        #expect(resolved, "the wrapper waited for its tap's queue")
        #expect(try await promise.value == 4)
        #expect(await Self.until { events.all == ["value 4"] })
    }

    @Test("`tap`: the typed error passes, and the closure sees it")
    func tapError() async {
        let events = Events()
        let result = await (tapped(-1, events: events, observed: Observed()) as Promise<Int, BehaviourError>).resolvedResult
        #expect(result == .error(.failed))
        #expect(await Self.until { events.all == ["error failed"] })
    }

    @Test("`tap`: a cancel request on the wrapper reaches the source; the closure sees `.cancelled`")
    func tapCancelled() async {
        let events = Events()
        let observed = Observed()
        let promise: Promise<Int, BehaviourError> = tapped(0, events: events, observed: observed)
        #expect(observed.started)
        promise.requestCancel()
        #expect(await promise.resolvedResult == .cancelled)
        #expect(observed.cancelled)
        #expect(await Self.until { events.all == ["cancelled"] })
    }

    @Test("`always` reading an untyped result: value, error and cancellation each seen, then passed on")
    func alwaysReadsTheResult() async throws {
        let events = Events()
        #expect(try await (settled(2, events: events, observed: Observed()) as StdPromise<Int>).value == 2)
        let rejected = await (settled(-1, events: events, observed: Observed()) as StdPromise<Int>).resolvedResult
        #expect(rejected.error as? BehaviourError == .failed)
        let observed = Observed()
        let pending: StdPromise<Int> = settled(0, events: events, observed: observed)
        pending.requestCancel()
        #expect(await pending.resolvedResult.isCancelled)
        #expect(observed.cancelled)
        #expect(events.all == ["value 2", "error failed", "cancelled"])
    }

    @Test("`onCancel`: a value passes the handler by; a cancel request reaches the source and the handler runs on its queue")
    func onCancel() async throws {
        behaviourQueue.setSpecific(key: behaviourKey, value: "behaviourQueue")
        let events = Events()
        #expect(try await (watched(1, events: events, observed: Observed()) as Promise<Int, BehaviourError>).value == 2)
        #expect(await (watched(-1, events: events, observed: Observed()) as Promise<Int, BehaviourError>).resolvedResult == .error(.failed))
        let observed = Observed()
        let pending: Promise<Int, BehaviourError> = watched(0, events: events, observed: observed)
        pending.requestCancel()
        #expect(await pending.resolvedResult == .cancelled)
        #expect(observed.cancelled)
        #expect(observed.places == ["behaviourQueue"])
        #expect(events.all == ["shown 2", "cancelled"])
    }

    static let source = """
        import Foundation
        import Tomorrowland

        enum LoadError: Error { case offline }

        final class Log: @unchecked Sendable { var lines: [String] = [] }

        func count() -> Promise<Int, LoadError> { Promise(fulfilled: 2) }
        func ping() -> Promise<Void, LoadError> { Promise(fulfilled: ()) }

        func logged(_ log: Log) -> Promise<Int, LoadError> {
            count().map(on: .utility) { $0 * 2 }.tap(on: .utility) { result in
                if case .value(let value) = result { log.lines.append("\\(value)") }
            }
        }

        func pinged(_ log: Log) -> Promise<Void, LoadError> {
            ping().always(on: .immediate) { log.lines.append("\\($0.isCancelled)") }
        }

        func noted(_ log: Log) -> Promise<Int, LoadError> {
            count().tap { _ in log.lines.append("done") }
        }

        func stopped(_ log: Log) -> Promise<Int, LoadError> {
            count().onCancel(on: .utility) { log.lines.append("cancelled") }.map(on: .immediate) { $0 + 1 }
        }

        func early(_ log: Log) -> Promise<Int, LoadError> {
            count().tap { result in log.lines.append("\\(result)") }.map(on: .immediate) { $0 + 1 }
        }
        """

    @Test("with the compiler, Swift 5 and 6 mode: the final `tap` and `always` that read the result convert and compile", arguments: [5, 6])
    func compiles(swiftVersion: Int) throws {
        let (result, notes, directory) = try ConvertBodyTests.proved(Self.source, path: "Log.swift", swiftVersion: swiftVersion)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(notes.last == "convert-body: 4 of 5 chain bodies converted, 1 left (reasons above)", "\(notes)")
        #expect(notes.contains { $0.hasPrefix("early(_:): left as a chain: `tap` that reads the result, not at the end") }, "\(notes)")
        let text = try #require(result.changes.first?.updated)
        #expect(text.contains("""
                let result: PromiseResult<Int, LoadError>
                do {
                    let value2 = try await count()
                    let value3 = await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                        value2 * 2
                    }
                    result = .value(value3)
                } catch let error as LoadError {
                    result = .error(error)
                } catch {
                    result = .cancelled
                }
                Task(executorPreference: PromiseContext.utility.taskExecutor) { @concurrent in
                    if case .value(let value) = result { log.lines.append("\\(value)") }
                }
                switch result {
                case .value(let value): return value
                case .error(let error): throw error
                case .cancelled: throw CancellationError()
                }
            """), "\(text)")
        #expect(text.contains("""
                let result: PromiseResult<Void, LoadError>
                do {
                    try await ping()
                    result = .value(())
                } catch let error as LoadError {
                    result = .error(error)
                } catch {
                    result = .cancelled
                }
                log.lines.append("\\(result.isCancelled)")
                switch result {
                case .value: break
                case .error(let error): throw error
                case .cancelled: throw CancellationError()
                }
            """), "\(text)")
        // `tap { _ in }` is an `always { _ in }`: a `defer`. 1.x ran it after the call returned, even on a resolved
        // promise: the first await suspends once on every path (ConvertedCallbackOrderTests).
        #expect(text.contains("""
                defer {
                    log.lines.append("done")
                }
                return try await Task.yieldingAfter { try await count() }
            """), "\(text)")
        // `onCancel` in the middle: a `do` with a `catch` of the cancellation, the value in a `let` before it.
        #expect(text.contains("""
                let value: Int
                do {
                    value = try await count()
                } catch let error as CancellationError {
                    await withTaskExecutorPreference(PromiseContext.utility.taskExecutor) { @concurrent in
                        log.lines.append("cancelled")
                    }
                    throw error
                }
                return value + 1
            """), "\(text)")
        // What was written compiles in the same mode (and without a warning in the twins' bodies).
        try text.write(to: directory.appendingPathComponent("Log.swift"), atomically: true, encoding: .utf8)
        let again = try OracleTests.fixture(swiftVersion: swiftVersion, source: (path: "Log.swift", text: text))
        defer { try? FileManager.default.removeItem(at: again.directory) }
        #expect(try again.oracle.facts(for: again.set.files.map(\.path)).errors.isEmpty)
    }
}
