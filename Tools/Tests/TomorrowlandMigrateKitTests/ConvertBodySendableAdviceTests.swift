import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// convert-body's advice for the chains it leaves because the wrapper's Task would capture a
/// `self` or parameter not known to be `Sendable` (ConvertBody+SendableAdvice.swift): one note per
/// type they wait on, with the fix that is true of that type as its declarations show it.
@Suite("convert-body: what to do about a non-Sendable self or parameter")
struct ConvertBodySendableAdviceTests {
    static let services = """
        import Foundation
        import Tomorrowland

        final class Server {
            var latency = 0.1
            func fetch(_ id: Int) -> Promise<Int, Error> { Promise(fulfilled: id) }
        }

        /// Its one `var` is used only under its lock; it holds a `Server`.
        final class Guarded {
            private let lock = NSLock()
            private var cache: [Int: Int] = [:]
            private let server: Server

            init(server: Server) {
                self.server = server
                cache = [:]
            }

            var cached: Int {
                lock.lock(); defer { lock.unlock() }
                return cache.count
            }

            func load(_ id: Int) -> Promise<Int, Error> {
                server.fetch(id).map(on: .utility) { $0 * 2 }
            }

            func store(_ id: Int) -> Promise<Int, Error> {
                server.fetch(id).map(on: .utility) { [weak self] value in
                    guard let self else { return value }
                    self.lock.lock()
                    self.cache[id] = value
                    self.lock.unlock()
                    return value
                }
            }
        }

        /// A lock, but `var`s used outside it.
        final class Unguarded {
            private let lock = NSLock()
            var limit = 10
            private(set) var asked: [Int] = []
            private var seen = 0

            func charge(_ id: Int) -> Promise<Int, Error> {
                Promise(fulfilled: id).map(on: .utility) { $0 + 1 }
            }

            func touch() {
                lock.lock()
                seen += 1
                lock.unlock()
            }

            func peek() -> Int {
                lock.lock()
                let early = seen
                lock.unlock()
                return early + seen
            }
        }

        /// A `var` used only on its queue, and one that another closure (run later) changes.
        final class Queued {
            private let queue = DispatchQueue(label: "queued")
            private var items: [Int] = []
            private var later = 0

            func add(_ value: Int) -> Promise<Int, Error> {
                Promise(fulfilled: value).map(on: .utility) { $0 + 1 }
            }

            func append(_ value: Int) {
                queue.sync { items.append(value) }
                queue.async { self.items.append(value) }
                run { self.later += 1 }
            }

            private func run(_ body: @escaping () -> Void) { body() }
        }

        final class Factory {
            static func makeQueue(_ label: String) -> DispatchQueue { DispatchQueue(label: label) }
        }

        /// A queue a factory made, and a promise step on it.
        final class Shelf {
            private let shelfQueue = Factory.makeQueue("shelf")
            private var levels: [String: Int] = [:]

            func level(of drug: String) -> Promise<Int, Error> {
                Promise(fulfilled: 1).map(on: .queue(shelfQueue)) { level in
                    self.levels[drug] = level
                    return level
                }
            }

            func known(_ drug: String) -> Int? {
                shelfQueue.sync { levels[drug] }
            }
        }

        /// Only `let`s.
        final class Constants {
            let base: Int
            init(base: Int) { self.base = base }
            func add(_ value: Int) -> Promise<Int, Error> {
                Promise(fulfilled: value).map(on: .utility) { $0 + 1 }
            }
        }

        /// A `var` and no lock.
        class NoLock {
            var count = 0
            func next() -> Promise<Int, Error> {
                Promise(fulfilled: 1).map(on: .utility) { $0 + 1 }
            }
        }

        /// Five `var`s its owner sets.
        final class Screen {
            var title = ""
            var subtitle = ""
            var count = 0
            var isLoading = false
            var error: String?
            func reload() -> Promise<Int, Error> {
                Promise(fulfilled: 1).map(on: .utility) { $0 + 1 }
            }
        }

        struct Counter {
            var start = 0
            func value() -> Promise<Int, Error> {
                Promise(fulfilled: 1).map(on: .utility) { $0 + 1 }
            }
        }

        func relay(_ value: Int, then done: @escaping (Int) -> Void) -> Promise<Int, Error> {
            Promise(fulfilled: value).map(on: .utility) { $0 + 1 }
        }

        func forward(_ id: Int, via server: Server) -> Promise<Int, Error> {
            server.fetch(id).map(on: .utility) { $0 + 1 }
        }
        """

    /// add-async-twins, then convert-body from the syntax alone, on `services`.
    static func notes() -> [MigrationNote] {
        ConvertBody.run(.inMemory(twinned)).notes
    }

    /// `services` with its async twins.
    static var twinned: [(path: String, text: String)] {
        let source = [(path: "Services.swift", text: services)]
        return Support.applying(AddAsyncTwins.run(.inMemory(source)), to: source)
    }

    /// The line of the first line of the twinned `services` that contains `text`.
    static func line(of text: String) -> Int {
        (twinned[0].text.components(separatedBy: "\n").firstIndex { $0.contains(text) } ?? -1) + 1
    }

    /// The advice note about `type`.
    static func advice(about type: String, in notes: [MigrationNote]) -> MigrationNote? {
        notes.first { $0.message.contains(" on `\(type)` being Sendable (") }
    }

    @Test("the chains are grouped by the type they wait on, at its declaration, most chains first; the tally counts them")
    func grouped() throws {
        let notes = Self.notes()
        let messages = notes.map(\.message)
        let guarded = try #require(Self.advice(about: "Guarded", in: notes), "\(messages)")
        #expect(guarded.line == Self.line(of: "final class Guarded {"), "\(guarded)")
        #expect(guarded.message.hasPrefix("2 chains left wait on `Guarded` being Sendable (`load(_:)` Services.swift:"
            + "\(Self.line(of: "func load(_ id: Int) -> Promise")), `store(_:)` :\(Self.line(of: "func store(_ id: Int) -> Promise"))): "
        ), "\(guarded.message)")
        #expect(guarded.message.hasSuffix("; then run convert-body again"), "\(guarded.message)")
        // `Server` waits for the parameter of `forward(_:via:)`, as `Guarded` holds one.
        let server = try #require(Self.advice(about: "Server", in: notes), "\(messages)")
        #expect(server.message.hasPrefix("1 chain left waits on `Server` being Sendable (`forward(_:via:)` Services.swift:"), "\(server.message)")
        let adviceIndices = notes.indices.filter { notes[$0].message.contains(" being Sendable (") || notes[$0].message.contains("not marked `@escaping @Sendable`") }
        #expect(adviceIndices.first.map { notes[$0].message.hasPrefix("2 chains") } == true, "\(messages)")
        // After every chain left, before the tally.
        #expect(adviceIndices.allSatisfy { index in !notes[(index + 1)...].contains { $0.message.contains(": left as a chain: ") } }, "\(messages)")
        #expect(messages.last == "convert-body: 0 of 11 chain bodies converted, 11 left (reasons above); "
            + "11 wait on a type being Sendable (what to do: the notes before this one)", "\(messages)")
    }

    @Test("`var`s only used under the type's lock: `@unchecked Sendable` with the comment, and what it holds that is not Sendable")
    func guardedByItsLock() throws {
        let message = try #require(Self.advice(about: "Guarded", in: Self.notes())).message
        #expect(message.contains("its `var` (`cache`) is used only under `lock`: declare it `@unchecked Sendable`, "
            + "with a comment that `lock` guards every use, or isolate it (an actor, or `@MainActor`)"), "\(message)")
        #expect(message.contains("it holds `server` (`Server`), not known to be Sendable: that type must be thread-safe too"), "\(message)")
        // `store(_:)`'s closure holds `self` weakly; `load(_:)`'s does not capture it.
        #expect(message.hasSuffix("; `store(_:)` holds `self` only weakly: once it is Sendable, its wrapper keeps it alive until the work is done, "
            + "where the chain let it go; then run convert-body again"), "\(message)")
    }

    @Test("`var`s used outside the lock, or from outside the type: the lock is needed first, and they are named")
    func unguarded() throws {
        let message = try #require(Self.advice(about: "Unguarded", in: Self.notes())).message
        #expect(message.contains("its `var`s `limit`, `asked` (not private: used from outside), "
            + "`seen` (Services.swift:\(Self.line(of: "return early + seen"))) are used outside `lock` (as far as the tool sees): "
            + "guard them (every use under `lock`, or in a `Mutex`) before declaring it `@unchecked Sendable` with a comment saying so"), "\(message)")
        #expect(!message.contains("declare it `@unchecked Sendable`, with a comment"), "\(message)")
    }

    @Test("a queue's closures guard like a lock; a use in another closure does not")
    func queue() throws {
        let message = try #require(Self.advice(about: "Queued", in: Self.notes())).message
        let line = Self.line(of: "run { self.later += 1 }")
        #expect(message.contains("its `var` `later` (Services.swift:\(line)) is used outside `queue` (as far as the tool sees): "
            + "guard it (every use under `queue`, or in a `Mutex`)"), "\(message)")
        #expect(!message.contains("`items`"), "\(message)")
        // A queue whatever its declared type, used by `sync` and by a promise step on it.
        let shelf = try #require(Self.advice(about: "Shelf", in: Self.notes())).message
        #expect(shelf.contains("its `var` (`levels`) is used only under `shelfQueue`: declare it `@unchecked Sendable`"), "\(shelf)")
        // What `Factory.makeQueue` returns is not written: not taken for a `Factory` it holds.
        #expect(!shelf.contains("it holds"), "\(shelf)")
    }

    @Test("only `let`s: checked `Sendable`; a `var` and no lock: a `Mutex` or isolation; a value type: `Sendable`")
    func otherShapes() throws {
        let notes = Self.notes()
        let constants = try #require(Self.advice(about: "Constants", in: notes)).message
        #expect(constants.contains("its stored properties are all `let`: declare it `Sendable` (the compiler then checks its `let`s)"), "\(constants)")
        let noLock = try #require(Self.advice(about: "NoLock", in: notes)).message
        #expect(noLock.contains("its `var` `count` (not private: used from outside) has no lock: hold it in a `Mutex`"), "\(noLock)")
        #expect(!noLock.contains("@unchecked"), "\(noLock)")
        // Many: the first four named.
        let screen = try #require(Self.advice(about: "Screen", in: notes)).message
        #expect(screen.contains("its `var`s `title`, `subtitle`, `count`, `isLoading` and 1 more (not private: used from outside) have no lock"),
                "\(screen)")
        let counter = try #require(Self.advice(about: "Counter", in: notes)).message
        #expect(counter.contains("a value type: declare it `Sendable`"), "\(counter)")
        let closure = try #require(notes.first { $0.message.contains("on closure parameters not marked `@escaping @Sendable`") }).message
        #expect(closure.hasPrefix("1 chain left waits on closure parameters not marked `@escaping @Sendable` (`relay(_:then:)` (`done`) Services.swift:"),
                "\(closure)")
    }

    /// add-async-twins, then convert-body from the syntax alone, on `source` alone.
    static func notes(of source: String) -> [MigrationNote] {
        let files = [(path: "More.swift", text: source)]
        return ConvertBody.run(.inMemory(Support.applying(AddAsyncTwins.run(.inMemory(files)), to: files))).notes
    }

    @Test("a closure parameter must be `@escaping` and `@Sendable`: a Task cannot capture a non-escaping one")
    func nonEscapingClosures() throws {
        let notes = Self.notes(of: """
            import Tomorrowland

            func count(for id: Int, load: @Sendable () -> Int) -> Promise<Int, Error> {
                Promise(fulfilled: load()).map(on: .utility) { $0 + id }
            }

            func total(for id: Int, load: (@Sendable () -> Int)?) -> Promise<Int, Error> {
                Promise(fulfilled: id).map(on: .utility) { $0 + 1 }
            }

            func sum(for id: Int, load: () -> Int) -> Promise<Int, Error> {
                Promise(fulfilled: load()).map(on: .utility) { $0 + id }
            }
            """)
        let messages = notes.map(\.message)
        // The planner: `@Sendable` without `@escaping` is not capturable, and the reason says why.
        #expect(messages.contains { $0.hasPrefix("count(for:load:): left as a chain: parameter `load` is not `@escaping`: ") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("sum(for:load:): left as a chain: parameter `load` is not known to be Sendable: ") }, "\(messages)")
        // An optional closure escapes already.
        #expect(!messages.contains { $0.hasPrefix("total(for:load:): left as a chain: parameter") }, "\(messages)")
        let advice = try #require(notes.first { $0.message.contains("on closure parameters not marked `@escaping @Sendable`") }).message
        #expect(advice.hasPrefix("2 chains left wait on closure parameters not marked `@escaping @Sendable` (`count(for:load:)` (`load`) More.swift:"),
                "\(advice)")
        #expect(advice.contains("): mark them `@escaping @Sendable` (the wrapper's Task cannot capture a non-escaping closure"), "\(advice)")
        #expect(Project.isCapturableClosure("@escaping @Sendable () -> Int"))
        #expect(Project.isCapturableClosure("(@Sendable () -> Int)?"))
        #expect(!Project.isCapturableClosure("@Sendable () -> Int"))
        #expect(!Project.isCapturableClosure("(() -> Int)?"))
    }

    @Test("a chain also left for another reason (an override whose base has no twin) is not promised")
    func otherReason() {
        let override = MigrationNote(
            path: "Exporter.swift", line: 40, message: "export(_:): left as a chain: " + ConvertBody.overrideWithoutTwinPrefix
                + "`CSVExporter` is not known to be Sendable: the wrapper's Task cannot capture `self` in Swift 6 mode"
        )
        let only = MigrationNote(
            path: "Exporter.swift", line: 50, message: "render(_:): left as a chain: "
                + "`CSVExporter` is not known to be Sendable: the wrapper's Task cannot capture `self` in Swift 6 mode"
        )
        #expect(!ConvertBody.waitsOnlyOnSendable(override))
        #expect(ConvertBody.waitsOnlyOnSendable(only))
    }

    @Test("a subclass restates its base's `@unchecked Sendable`; the base's advice names every subclass")
    func subclasses() throws {
        let notes = Self.notes(of: """
            import Tomorrowland

            class Driver {
                let name: String
                init(name: String) { self.name = name }
                func status() -> Promise<Int, Error> {
                    Promise(fulfilled: 1).map(on: .utility) { $0 + 1 }
                }
            }

            final class LockDriver: Driver {
                let code: Int
                init(code: Int) {
                    self.code = code
                    super.init(name: "lock")
                }
                func unlock() -> Promise<Int, Error> {
                    Promise(fulfilled: code).map(on: .utility) { $0 + 1 }
                }
            }

            class FanDriver: Driver {}

            final class CeilingFan: FanDriver {}
            """)
        let messages = notes.map(\.message)
        let lock = try #require(Self.advice(about: "LockDriver", in: notes), "\(messages)").message
        #expect(lock.contains("its stored properties are all `let`: a `Sendable` class cannot inherit from another class: "
            + "once its superclass `Driver` is `@unchecked Sendable`, declare it `@unchecked Sendable` too (restated, or a warning; "
            + "the compiler then checks nothing"), "\(lock)")
        #expect(!lock.contains("`final` and `Sendable`"), "\(lock)")
        #expect(!lock.contains("; its superclass `Driver` must be"), "\(lock)")
        let driver = try #require(Self.advice(about: "Driver", in: notes), "\(messages)").message
        #expect(driver.contains("declare it `@unchecked Sendable`"), "\(driver)")
        #expect(driver.contains("; its subclasses `CeilingFan`, `FanDriver`, `LockDriver` must each restate `@unchecked Sendable` "
            + "(a warning otherwise"), "\(driver)")
    }

    @Test("with the compiler: the advice for the chain left, none for the one converted without a wrapper")
    func withTheCompiler() throws {
        let (_, notes, directory) = try ConvertBodyTests.convertedService(swiftVersion: 6)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(notes.contains { $0.hasPrefix("1 chain left waits on `Inbox` being Sendable (`tripled()` Inbox.swift:") }, "\(notes)")
        #expect(notes.last == "convert-body: 1 of 2 chain bodies converted, 1 left (reasons above); "
            + "1 waits on a type being Sendable (what to do: the notes before this one)", "\(notes)")
    }
}
