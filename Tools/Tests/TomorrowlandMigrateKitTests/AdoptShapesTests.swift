import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// `adopt` on the shapes the blind corpora and issue 37 found it missing (Fixtures/AdoptShapes):
/// stored `PromiseContext` properties that hold one kind of context, closures stored for later
/// in property initializers, actor-isolated methods passed by name, unapplied callback methods
/// in generic code, and files shared through symbolic links.
@Suite("adopt: unseen shapes")
struct AdoptShapesTests {
    let properties: (path: String, text: String)
    let stored: (path: String, text: String)
    let methods: (path: String, text: String)
    let methodsExtension: (path: String, text: String)
    let generic: (path: String, text: String)
    let mainQueueHop: (path: String, text: String)

    init() throws {
        properties = try Support.fixture("AdoptShapes/Properties.swift")
        stored = try Support.fixture("AdoptShapes/Stored.swift")
        methods = try Support.fixture("AdoptShapes/Methods.swift")
        methodsExtension = try Support.fixture("AdoptShapes/MethodsExtension.swift")
        generic = try Support.fixture("AdoptShapes/Generic.swift")
        mainQueueHop = try Support.fixture("AdoptShapes/MainQueueHop.swift")
    }

    var all: [(path: String, text: String)] { [properties, stored, methods, methodsExtension, generic, mainQueueHop] }

    /// The 1-based lines of `path`'s errors (and, in Swift 5 mode, of its warnings that Swift 6
    /// makes errors) after compiling `sources`.
    static func diagnosedLines(in path: String, _ sources: [(path: String, text: String)], swiftVersion: Int) throws -> (lines: Set<Int>, output: String) {
        let outcome = try Support.compile(sources, swiftVersion: swiftVersion)
        let name = (path as NSString).lastPathComponent
        let output = outcome.stdout + outcome.stderr
        let lines = output.split(separator: "\n").filter { line in
            line.contains(name + ":") && (line.contains(": error:") || (swiftVersion == 5 && line.contains("error in the Swift 6 language mode")))
        }.compactMap { line -> Int? in
            let parts = line.split(separator: ":")
            guard let index = parts.firstIndex(where: { $0.hasSuffix(name) }), index + 1 < parts.count else { return nil }
            return Int(parts[index + 1])
        }
        return (Set(lines), output)
    }

    @Test("before adopt: the context properties, the stored closures (Swift 6) and the generic references do not compile", arguments: [5, 6])
    func beforeFails(swiftVersion: Int) throws {
        let properties = try Self.diagnosedLines(in: self.properties.path, [self.properties], swiftVersion: swiftVersion).lines
        #expect(properties.isSuperset(of: [33, 34, 35, 36, 40, 41, 61, 71, 73, 74]), "\(properties.sorted())")
        let generic = try Self.diagnosedLines(in: self.generic.path, [self.generic], swiftVersion: swiftVersion).lines
        #expect(generic.isSuperset(of: [11, 19, 26]), "\(generic.sorted())")
        let stored = try Self.diagnosedLines(in: self.stored.path, [self.stored], swiftVersion: swiftVersion).lines
        if swiftVersion == 6 {
            #expect(stored.isSuperset(of: [27, 32, 35, 39, 45, 52, 59, 72]), "\(stored.sorted())")
        } else {
            #expect(stored == [59], "Swift 5 mode rejects only the named context: \(stored.sorted())")
        }
    }

    @Test("a stored context property that holds only `.main` becomes PromiseContext.Main, only `.auto`/`.immediate` CallerIsolated")
    func retypedProperties() throws {
        let (result, sources) = AdoptTests.adopted([properties])
        let text = Support.text(of: properties.path, in: sources)
        for expected in [
            "let uiDelivery: PromiseContext.Main = .nowOr(.main)\n", // top-level
            "    private let delivery: PromiseContext.Main = .main\n",
            "    private var refresh: PromiseContext.Main = .main\n", // `PromiseContext.main`, typed by adopt
            "    static let fallback: PromiseContext.Main = .screen\n", // a custom context, twinned on Main
            "    let context: PromiseContext.CallerIsolated = .immediate\n", // in an actor
            "        refresh = .nowOr(.main)\n",
            // Where a `PromiseContext` is wanted, the value the property holds.
            "        _ = name.delay(on: delivery.context, 0.01)\n",
            "        shown.append(describe(refresh.context))\n",
            // Context arguments of callback APIs take each kind: unchanged.
            "        name.then(on: delivery) { self.title = $0 }\n",
            "        name.then(on: self.refresh) { [weak self] in self?.shown.append($0) }\n",
        ] {
            #expect(text.contains(expected), "\(expected)")
        }
        for kept in [
            "    private var mixed: PromiseContext = .main\n", "    private let injected: PromiseContext\n",
            "    public let delivery: PromiseContext = .main\n",
        ] {
            #expect(text.contains(kept), "\(kept)")
        }
        let notes = result.notes
        #expect(notes.map(\.line) == [40, 41, 61, 73, 74])
        #expect(notes[0].message.contains("`mixed` keeps its type: it holds `.auto` or `.immediate` and `.main`: no one kind of context holds both"))
        #expect(notes[1].message.contains("`injected` keeps its type: it is given `injected` at AdoptShapes/Properties.swift:29, which may name a queue"))
        #expect(notes[2].message.contains("`delivery` keeps its type: it is public API"), "public API is listed, not retyped")
        #expect(notes[3].message.contains("`uiDelivery` holds only the main queue and is now `PromiseContext.Main`: the closure is isolated to the main actor"),
                "in an actor, a main-actor closure still touches the actor's state from the main queue")
        #expect(!notes[4].message.contains("keeps its type"), "an app's context in `extension PromiseContext` is twinned, never retyped")
        #expect(text.contains("    static let screen = PromiseContext.main\n"))
        #expect(notes.allSatisfy { $0.message.contains("Left as it is") })
    }

    @Test("the same type name in two modules declares two properties, each retyped (or listed) by its own module's values")
    func sameNameInTwoModules() throws {
        // What the scale package showed: ten modules with a `DashboardViewModel` each, and
        // adopt over all of them left every `delivery` untyped ("declared more than once").
        func dashboard(_ extra: String) -> String {
            """
            import Tomorrowland

            @MainActor
            final class DashboardViewModel {
                var title = ""
                private var delivery: PromiseContext = .main

                func show(_ name: StdPromise<String>) {
                    name.then(on: delivery) { self.title = $0 }
                }
            \(extra)}

            """
        }
        let first = (path: "App/Sources/Home/Dashboard.swift", text: dashboard(""))
        let second = (path: "App/Sources/Ledger/Views/Dashboard.swift", text: dashboard(""))
        // This module's `delivery` is also given a queue: it keeps its type, whatever the others hold.
        let third = (path: "App/Sources/Orders/Dashboard.swift", text: dashboard("    func slow() { delivery = .utility }\n"))
        let (result, sources) = AdoptTests.adopted([first, second, third])
        for source in [first, second] {
            #expect(Support.text(of: source.path, in: sources).contains("    private var delivery: PromiseContext.Main = .main\n"), "\(source.path)")
            #expect(!result.notes.contains { $0.path == source.path }, "\(source.path)")
            let errors = try Self.diagnosedLines(in: source.path, [(source.path, Support.text(of: source.path, in: sources))], swiftVersion: 6)
            #expect(errors.lines.isEmpty, "\(errors.output)")
        }
        #expect(Support.text(of: third.path, in: sources) == third.text)
        #expect(result.notes.map(\.path) == [third.path])
        #expect(result.notes.first?.message.contains("`delivery` keeps its type: it is given `.utility` at App/Sources/Orders/Dashboard.swift:11") == true,
                "\(result.notes.map(\.message))")
        #expect(!result.notes.contains { $0.message.contains("declared more than once") })
        // Twice in one module (`#if` branches, or two files): one property declared twice, not retyped.
        let twice = AdoptTests.adopted([first, (path: "App/Sources/Home/Copy.swift", text: dashboard(""))]).result
        #expect(twice.changes.isEmpty)
        #expect(twice.notes.count == 2 && twice.notes.allSatisfy { $0.message.contains("`delivery` keeps its type: it is declared more than once") })
    }

    @Test("closures stored for later: keep-the-caller's-actor closures of a main-actor type get @MainActor; the others are listed")
    func storedClosures() throws {
        let (result, sources) = AdoptTests.adopted([stored])
        let text = Support.text(of: stored.path, in: sources)
        for expected in [
            "lazy var cached = StdDelayedPromise<Int>(on: .auto) { @MainActor [weak self] resolver in",
            "lazy var refreshed = loadCount().then { @MainActor [weak self] value in self?.count = value }",
            "lazy var counted = loadCount().then(on: .immediate) { @MainActor in self.count = $0 }",
            "let warmup = StdDelayedPromise<Int>(on: .immediate) { @MainActor resolver in",
            "static let shared = StdDelayedPromise<Int>(on: .auto) { @MainActor resolver in",
            "        StdDelayedPromise<Int>(on: .auto) { @MainActor [weak self] resolver in",
            // Unchanged: `.main` is a main-actor closure already; `plain` uses nothing of the type.
            "lazy var months = StdDelayedPromise<[Int]>(on: .main) { [weak self] resolver in",
            "lazy var plain = StdDelayedPromise<Int>(on: .auto) { resolver in resolver.fulfill(with: 4) }",
            "lazy var background = StdDelayedPromise<Int>(on: .utility) { [weak self] resolver in",
            "lazy var loaded = StdDelayedPromise<Int>(on: .auto) { resolver in",
        ] {
            #expect(text.contains(expected), "\(expected)")
        }
        #expect(text.split(separator: "\n").filter { $0.contains("{ @MainActor") && !$0.contains("///") }.count == 6)
        #expect(result.notes.map(\.line) == [58, 71])
        #expect(result.notes[0].message.hasPrefix("a closure given `on: .utility` uses `self` of `MonthsModel`"))
        #expect(result.notes[1].message.hasPrefix("a closure given `on: .auto` in the initializer of `loaded` uses `self` of `Ledger`, which is an actor"))
    }

    @Test("on a custom global actor, both listed closures get advice that fits that actor (not `.main`)")
    func customGlobalActorAdvice() throws {
        let station = try Support.fixture("AdoptShapes/GlobalActorStation.swift")
        let (result, _) = AdoptTests.adopted([station])
        let notes = result.notes.filter { $0.path == station.path }
        #expect(notes.map(\.line) == [19, 23])
        #expect(notes[0].message.hasPrefix("a closure given `on: .utility` uses `self` of `Robot`, which is isolated to an actor"))
        #expect(notes[1].message.hasPrefix("a closure given `on: .main` uses `self` of `Robot`, which is isolated to an actor"))
        #expect(notes.allSatisfy { $0.message.hasSuffix("move that access to a following `.then { }` (no context: runs on the actor)") })
        #expect(!notes.contains { $0.message.contains("pass `.main`") }, "the main actor is not `Robot`'s actor")
    }

    @Test("in a @MainActor class a listed closure's advice includes `.main`")
    func mainActorAdvice() throws {
        let listed = try Support.fixture("Adopt/Listed.swift")
        let contexts = try Support.fixture("Adopt/Contexts.swift")
        let (result, _) = AdoptTests.adopted([contexts, listed])
        let note = try #require(result.notes.first { $0.path == listed.path && $0.line == 16 })
        #expect(note.message.hasSuffix("(no context: runs on the actor), or pass `.main`"))
    }

    @Test("every actor-isolated method passed by name with a named context or a context value is listed")
    func methodReferences() throws {
        let (result, _) = AdoptTests.adopted([methods, methodsExtension])
        #expect(result.changes.isEmpty)
        let notes = result.notes
        #expect(notes.map(\.line) == [20, 21, 32, 33, 43, 44, 51])
        #expect(notes[0].message.hasPrefix("`Formatters.title`, given `on: .utility`, is a `@MainActor` method of `Formatters`; "))
        #expect(notes[1].message.hasPrefix("`render`, given `on: context`, is a `@MainActor` function; "))
        #expect(notes[1].message.contains("`context` keeps its type: it is given `.utility`, which may name a queue"))
        #expect(notes[2].message.hasPrefix("`Self.describe`, given `on: .userInitiated`, is a method of `Badge`, which is isolated to an actor"),
                "a static method of a @MainActor class declared in an extension in another file, passed from a nonisolated method")
        #expect(notes[3].message.hasPrefix("`Badge.describe`, given `on: .userInitiated`, is a method of `Badge`"))
        #expect(notes[4].message.hasPrefix("`record`, given `on: .utility`, is a method of `Store`"))
        #expect(notes[4].message.contains("the compiler accepts it, so the race remains"))
        #expect(notes[5].message.hasPrefix("`self.record`, given `on: .main`, is a method of `Store`"))
        #expect(notes[6].message.hasPrefix("`badge.label`, given `on: .utility`, is a method of `Badge`"), "through a parameter's type")
        #expect(notes.allSatisfy { $0.message.contains("mark the method `nonisolated` if it touches no actor state") })
    }

    @Test("a named-context closure that touches main-actor state only in `DispatchQueue.main.async { }` is not listed")
    func returnsToTheMainQueue() throws {
        let (result, _) = AdoptTests.adopted([self.mainQueueHop])
        #expect(result.changes.isEmpty)
        #expect(result.notes.map(\.line) == [16], "only the closure that reads `self.phase` on the queue")
    }

    @Test("unapplied references: the loop's element type with the generic arguments in scope, else placeholders")
    func genericReferences() throws {
        let (result, sources) = AdoptTests.adopted([generic])
        let text = Support.text(of: generic.path, in: sources)
        #expect(text.contains("""
            let register = promise.catch(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (HubError) -> Void) \
            -> Promise<T, HubError>
            """))
        #expect(text.contains("let then = self.then(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (_) -> Void) -> _"))
        #expect(text.contains("let always = first.always(on:_:) as (PromiseContext, @escaping @Sendable (_) -> Void) -> _"))
        #expect(result.notes.isEmpty)
        // Not typed, no labels: listed, with a type that names nothing from the scope.
        let unknown = (path: "Unknown.swift", text: """
            import Tomorrowland
            func each<T>(_ promises: [Promise<T, Error>]) {
                promises.forEach { promise in
                    let recover = promise.recover
                    _ = recover
                }
            }
            """)
        let note = try #require(Adopt.run(.inMemory([unknown])).notes.first)
        #expect(note.message.contains(
            "add `as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (_) -> _) -> _` by hand (on a `TokenPromise`: "
                + "`as (PromiseContext, @escaping @Sendable (_) -> _) -> _`)"
        ))
        #expect(!note.message.contains("Value"), "no name that is not in scope")
    }

    @Test("after adopt, the only errors are at the listed lines, and each listed closure of a main-actor method is one (Swift 5 and 6)",
          arguments: [5, 6])
    func afterAdopt(swiftVersion: Int) throws {
        let (result, sources) = AdoptTests.adopted(all)
        let outcome = try Support.compile(sources, swiftVersion: swiftVersion)
        let output = outcome.stdout + outcome.stderr
        for source in all {
            let name = (source.path as NSString).lastPathComponent
            let errors = output.split(separator: "\n").filter { $0.contains(name + ":") && $0.contains(": error:") }
            let listed = Set(result.notes.filter { $0.path == source.path }.flatMap { [$0.line, $0.line + 1] })
            for error in errors {
                let line = error.split(separator: ":").dropFirst().first.flatMap { Int($0) } ?? -1
                #expect(listed.contains(line), "Swift \(swiftVersion): an error adopt did not list: \(error)")
            }
        }
        let properties = try Self.diagnosedLines(in: self.properties.path, sources, swiftVersion: swiftVersion).lines
        #expect(properties == [40, 41, 61, 73, 74], "the retyped properties compile: \(properties.sorted())")
        let methods = try Self.diagnosedLines(in: self.methods.path, sources, swiftVersion: swiftVersion).lines
        #expect(methods == [20, 21, 32, 33, 51], "main-actor methods: errors in Swift 6 (warnings in 5); an actor's compile: \(methods.sorted())")
        let stored = try Self.diagnosedLines(in: self.stored.path, sources, swiftVersion: swiftVersion).lines
        #expect(stored == (swiftVersion == 6 ? [59, 72] : [59]), "\(stored.sorted())")
        #expect(try Self.diagnosedLines(in: self.generic.path, sources, swiftVersion: swiftVersion).lines.isEmpty)
        #expect(try Self.diagnosedLines(in: self.mainQueueHop.path, sources, swiftVersion: swiftVersion).lines == [17])
    }

    @Test("a second run changes nothing and lists the same lines")
    func idempotent() throws {
        let (first, sources) = AdoptTests.adopted(all)
        let second = Adopt.run(.inMemory(sources))
        #expect(second.changes.isEmpty, "\(second.diff)")
        #expect(second.notes.map(\.line) == first.notes.map(\.line))
    }

    @Test("a file two targets share through a symbolic link is edited once, and the link stays a link")
    func symbolicLinks() throws {
        let tool = try Support.tool()
        let directory = try Support.makeTemporaryDirectory("adopt-links")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = FileManager.default
        for folder in ["Sources/App", "Sources/Widget"] {
            try files.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let shared = directory.appendingPathComponent("Sources/App/Shared.swift")
        try generic.text.write(to: shared, atomically: true, encoding: .utf8)
        let link = directory.appendingPathComponent("Sources/Widget/Shared.swift")
        try files.createSymbolicLink(atPath: link.path, withDestinationPath: "../App/Shared.swift")

        let set = SourceSet.load(paths: [directory.appendingPathComponent("Sources").path])
        #expect(set.files.map(\.path) == [shared.path], "one file, under its own path")

        let write = try SwiftCompiler.run(tool, ["adopt", "--write", "Sources/"], in: directory)
        #expect(write.status == 0, "\(write.stderr)")
        #expect(write.stdout.contains("1 file(s) changed"))
        #expect(try files.destinationOfSymbolicLink(atPath: link.path) == "../App/Shared.swift", "still a link")
        let text = try String(contentsOf: shared, encoding: .utf8)
        #expect(text.components(separatedBy: "as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (HubError)").count == 2,
                "edited once")

        // Only the link scanned: the change goes to the file it points to.
        try generic.text.write(to: shared, atomically: true, encoding: .utf8)
        let throughLink = try SwiftCompiler.run(tool, ["adopt", "--write", "Sources/Widget/"], in: directory)
        #expect(throughLink.status == 0, "\(throughLink.stderr)")
        #expect(try files.destinationOfSymbolicLink(atPath: link.path) == "../App/Shared.swift", "still a link")
        #expect(try String(contentsOf: shared, encoding: .utf8) == text)
        let again = try SwiftCompiler.run(tool, ["adopt", "Sources/"], in: directory)
        #expect(again.stdout.isEmpty, "nothing left to change")
    }
}
