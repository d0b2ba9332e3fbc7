import Foundation
import Testing
@testable import TomorrowlandMigrateKit

/// `adopt` on 1.x-style code (Fixtures/Adopt): custom contexts, ternaries, unapplied callback
/// references, and closures that touch actor state off their actor (listed only).
@Suite("adopt")
struct AdoptTests {
    let contexts: (path: String, text: String)
    let client: (path: String, text: String)
    let listed: (path: String, text: String)

    init() throws {
        contexts = try Support.fixture("Adopt/Contexts.swift")
        client = try Support.fixture("Adopt/Client.swift")
        listed = try Support.fixture("Adopt/Listed.swift")
    }

    /// The sources after `adopt`, and its result.
    static func adopted(_ sources: [(path: String, text: String)]) -> (result: MigrationResult, sources: [(path: String, text: String)]) {
        let result = Adopt.run(.inMemory(sources))
        return (result, Support.applying(result, to: sources))
    }

    @Test("before adopt the 1.x-style client does not compile, with the errors issue 26 found (Swift 5 and 6)", arguments: [5, 6])
    func beforeFails(swiftVersion: Int) throws {
        let errors = try Support.compile([contexts, client], swiftVersion: swiftVersion).errors
        // A custom context as an implicit member: found on none of the four parameter types.
        #expect(errors.contains { $0.hasSuffix("error: reference to member 'db' cannot be resolved without a contextual type") })
        #expect(errors.contains { $0.hasSuffix("error: reference to member 'imageDecoding' cannot be resolved without a contextual type") })
        #expect(errors.contains { $0.hasSuffix("error: type 'PromiseContext.CallerIsolated' has no member 'exports'") })
        // A ternary mixing the kinds.
        #expect(errors.contains { $0.hasSuffix("error: type 'PromiseContext.Named' has no member 'immediate'") })
        #expect(errors.contains { $0.hasSuffix("error: type 'PromiseContext.Main' has no member 'userInitiated'") })
        // An unapplied callback method.
        #expect(errors.contains { $0.hasSuffix("error: ambiguous use of 'then(on:token:_:)'") })
        #expect(errors.contains { $0.hasSuffix("error: ambiguous use of 'always(on:_:)'") })
    }

    @Test("after adopt it compiles (Swift 5 and 6)", arguments: [5, 6])
    func afterCompiles(swiftVersion: Int) throws {
        try Support.expectCompiles(Self.adopted([contexts, client]).sources, swiftVersion: swiftVersion)
    }

    @Test("custom contexts get twins: named ones on Named, .main ones on Main, .auto/.immediate ones on CallerIsolated")
    func twins() throws {
        let text = Support.text(of: contexts.path, in: Self.adopted([contexts, client]).sources)
        #expect(text.contains("""
                }()
                #if os(Linux)
                static let platform = PromiseContext.utility
                #else
                static let platform = PromiseContext.main
                #endif
                /// Not a context: left alone.
                static let name = "contexts"
            }

            // Twins of the contexts above, so that they work as context arguments (`.then(on: .x)`): each
            // runs its closure nonisolated on the queue it names, as in 1.x (added by tomorrowland-migrate adopt).
            extension PromiseContext.Named {
                /// `PromiseContext.db` as a context argument.
                static var db: Self { Self(PromiseContext.db) }
                /// `PromiseContext.imageDecoding` as a context argument.
                public static var imageDecoding: Self { Self(PromiseContext.imageDecoding) }
                /// `PromiseContext.exports` as a context argument.
                static var exports: Self { Self(PromiseContext.exports) }
                /// `PromiseContext.analytics` as a context argument.
                static var analytics: Self { Self(PromiseContext.analytics) }
                /// `PromiseContext.dbIfReady` as a context argument.
                static var dbIfReady: Self { Self(PromiseContext.dbIfReady) }
                /// `PromiseContext.current` as a context argument.
                static var current: Self { Self(PromiseContext.current) }
                /// `PromiseContext.warm` as a context argument.
                static var warm: Self { Self(PromiseContext.warm) }
                /// `PromiseContext.cold` as a context argument.
                static var cold: Self { Self(PromiseContext.cold) }
                /// `PromiseContext.serial` as a context argument.
                static func serial(_ label: String, qos: DispatchQoS = .default) -> Self {
                    Self(PromiseContext.serial(label, qos: qos))
                }
                /// `PromiseContext.chosen` as a context argument.
                static var chosen: Self { Self(PromiseContext.chosen) }
                #if os(Linux)
                /// `PromiseContext.platform` as a context argument.
                static var platform: Self { Self(PromiseContext.platform) }
                #endif
            }

            // Twins of the contexts above that are the main queue, so that they work as context arguments
            // (`.then(on: .x)`): a closure given one runs on the main actor, as in 1.x (added by tomorrowland-migrate adopt).
            extension PromiseContext.Main {
                /// `PromiseContext.ui` as a context argument.
                static var ui: Self { .main }
                /// `PromiseContext.uiIfReady` as a context argument.
                static var uiIfReady: Self { .nowOr(.main) }
                #if os(Linux)
                #else
                /// `PromiseContext.platform` as a context argument.
                static var platform: Self { .main }
                #endif
            }

            // Twins of the contexts above that name no queue, so that they work as context arguments
            // (`.then(on: .x)`): a closure given one keeps the caller's actor (added by tomorrowland-migrate adopt).
            extension PromiseContext.CallerIsolated {
                /// `PromiseContext.sync` as a context argument.
                static var sync: Self { .immediate }
            }
            """))
        // Through a typealias, with its availability.
        #expect(text.contains("""
            extension PromiseContext.Named {
                /// `PromiseContext.logging` as a context argument.
                @available(macOS 10.15, *)
                static var logging: Self { Self(PromiseContext.logging) }
            }
            """))
        #expect(!text.contains("PromiseContext.name`"), "a static member that is not a context gets no twin")
        #expect(!text.contains("PromiseContext.network`"), "a member of another type is a value already")
    }

    @Test("ternaries mixing the two kinds become PromiseContext values; uniform ones stay")
    func ternaries() throws {
        let text = Support.text(of: client.path, in: Self.adopted([contexts, client]).sources)
        for expected in [
            "PromiseOperation(on: fast ? PromiseContext.immediate : .exports)",
            "DelayedPromise(on: id % 2 == 0 ? PromiseContext.utility : .immediate)",
            "map(on: isFast ? PromiseContext.immediate : .utility)",
            "map(on: isFast ? .db : .utility)", // both named once .db has its twin
            "map(on: isFast ? PromiseContext.db : .main)",
            "map(on: isFast ? .main : transformContext)", // a value already
            "map(on: (isFast ? PromiseContext.main : .background))",
            "map(on: isFast ? PromiseContext.main : isFast ? .immediate : .queue(decodingQueue))",
            "map(on: isFast ? PromiseContext.nowOr(.main) : .userInitiated)",
            "map(on: .nowOr(isFast ? PromiseContext.main : .utility))",
            "withToken(token).then(on: isFast ? PromiseContext.main : .db)",
            "resolver.onRequestCancel(on: isFast ? PromiseContext.immediate : .db)",
            "made.delay(on: isFast ? PromiseContext.main : .db, 0.1).timeout(on: .nowOr(.db), delay: 1)",
            "then(on: fast ? PromiseContext.main : .utility)",
            "tryMap(on: fast ? PromiseContext.immediate : .db)",
            "Promise(on: fast ? PromiseContext.immediate : .utility)",
        ] {
            #expect(text.contains(expected), "\(expected)")
        }
    }

    @Test("in actor code, a value spelled `PromiseContext.main` (or a custom context holding it) whose closure uses self becomes `.main`")
    func spelledOutMain() throws {
        let text = Support.text(of: client.path, in: Self.adopted([contexts, client]).sources)
        #expect(text.contains("map(on: PromiseContext.db) { $0.name }.then(on: .ui) { [weak self] in self?.title = $0 }"))
        #expect(text.contains("then(on: .main) { item in self.show(item) }"))
        #expect(text.contains("then(on: .nowOr(.main)) { item in self.show(item) }"))
        #expect(text.contains("then(on: .uiIfReady) { item in self.show(item) }"))
        #expect(text.contains("then(on: PromiseContext.main) { _ in }"), "a closure that does not use self is left alone")
    }

    @Test("unapplied callback references get the type of their PromiseContext overload")
    func unappliedReferences() throws {
        let text = Support.text(of: client.path, in: Self.adopted([contexts, client]).sources)
        #expect(text.contains("""
            let then = promise.then(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (Item) -> Void) \
            -> Promise<Item, LoadError>
            """))
        #expect(text.contains(
            "let catcher = promise.catch as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (LoadError) -> Void) -> Promise<Item, LoadError>"
        ))
        #expect(text.contains(
            "let always = tokenPromise.always(on:_:) as (PromiseContext, @escaping @Sendable (PromiseResult<Int, NoError>) -> Void) -> TokenPromise<Int, NoError>"
        ))
        #expect(text.contains(
            "let recover = pending.recover as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable (Swift.Error) -> Item) -> Promise<Item, NoError>"
        ))
        #expect(text.contains("let onCancel = self.pending.onCancel(on:token:_:) as (PromiseContext, PromiseInvalidationToken?, @escaping @Sendable () -> Void)"))
    }

    @Test("a second run changes nothing")
    func idempotent() throws {
        let (first, sources) = Self.adopted([contexts, client, listed])
        #expect(first.changes.count == 3)
        let second = Adopt.run(.inMemory(sources))
        #expect(second.changes.isEmpty, "\(second.diff)")
        #expect(second.notes.map(\.line) == first.notes.map(\.line), "the listed sites are listed again, nothing else")
    }

    @Test("closures that touch actor state off the actor are listed with file:line, not changed")
    func listedSites() throws {
        let (result, _) = Self.adopted([contexts, listed])
        let notes = result.notes.filter { $0.path == listed.path }
        // Line 23's `Contexts.main` holds only `.main`: it becomes `PromiseContext.Main` instead.
        #expect(notes.map(\.line) == [16, 19, 22, 24, 25, 36])
        #expect(notes.allSatisfy { $0.message.contains("move that access to a following `.then { }`") })
        #expect(notes[3].message.hasPrefix("`show`, given `on: .utility`, is a method of `ProfileScreen`, which is isolated to an actor"))
        #expect(notes[4].message.hasPrefix("`Self.describe`, given `on: .utility`, is a method of `ProfileScreen`"), "a static method of a @MainActor type")
        #expect(notes.first?.description.hasPrefix("Adopt/Listed.swift:16: a closure given `on: .utility` uses `self` of `ProfileScreen`") == true)
        #expect(notes[1].message.contains("if it is `.main` in main-actor code, declare the value `PromiseContext.Main`"), "`context` is a value")
        #expect(notes[1].message.contains("`context` keeps its type: it is given `.utility`, which may name a queue"))
        let retyped = try #require(result.changes.first { $0.path == contexts.path })
        #expect(retyped.updated.contains("    static let main: PromiseContext.Main = .main\n"))
        let change = try #require(result.changes.first { $0.path == listed.path })
        #expect(change.updated == listed.text.replacingOccurrences(of: "fast ? .immediate", with: "fast ? PromiseContext.immediate"),
                "only the ternary is changed")
        #expect(!result.notes.contains { $0.path == client.path }, "the client touches no actor state off its actor")
    }

    @Test("the listed closures are what the compiler rejects after adopt, and nothing else (Swift 5 and 6)", arguments: [5, 6])
    func listedAreTheErrors(swiftVersion: Int) throws {
        let (result, sources) = Self.adopted([contexts, listed])
        let outcome = try Support.compile(sources, swiftVersion: swiftVersion)
        let errors = outcome.errors
        // Swift 5 mode only warns about a main-actor method passed as a nonisolated callback.
        let warnings = (outcome.stdout + outcome.stderr).split(separator: "\n").filter { $0.contains("Listed.swift") && $0.contains(": warning:") && !$0.contains("is unused") }
        let errorLines = Set((errors + (swiftVersion == 5 ? warnings.map(String.init) : [])).compactMap { error -> Int? in
            let parts = error.split(separator: ":")
            guard parts.count > 2, parts[0].hasSuffix("Listed.swift") else { return -1 }
            return Int(parts[1])
        })
        // Each listed closure has its error on a line of its body (the line after its `{` at most).
        #expect(!errorLines.contains(-1), "errors outside Listed.swift: \(errors)")
        for note in result.notes where note.path == listed.path {
            #expect(errorLines.contains(note.line) || errorLines.contains(note.line + 1), "line \(note.line) compiles: \(errors)")
        }
        #expect(errorLines.count >= 6)
        #expect(!errorLines.contains(23), "`Contexts.main`, now `PromiseContext.Main`, gives a main-actor closure: \(errors)")
    }

    @Test("the command line: a diff without --write, the files with it, nothing on a second run")
    func commandLine() throws {
        let tool = try Support.tool()
        let directory = try Support.makeTemporaryDirectory("adopt")
        defer { try? FileManager.default.removeItem(at: directory) }
        for source in [contexts, client, listed] {
            try source.text.write(to: directory.appendingPathComponent((source.path as NSString).lastPathComponent), atomically: true, encoding: .utf8)
        }
        let contextsFile = directory.appendingPathComponent("Contexts.swift")

        let diff = try SwiftCompiler.run(tool, ["adopt", directory.path])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("+    static var db: Self { Self(PromiseContext.db) }"))
        #expect(diff.stdout.contains("+        PromiseOperation(on: fast ? PromiseContext.immediate : .exports)"))
        #expect(diff.stderr.contains("Listed.swift:16: a closure given `on: .utility` uses `self`"))
        #expect(try String(contentsOf: contextsFile, encoding: .utf8) == contexts.text, "no --write: file unchanged")
        let write = try SwiftCompiler.run(tool, ["adopt", "--write", directory.path])
        #expect(write.status == 0)
        #expect(write.stdout.contains("3 file(s) changed"))
        #expect(try String(contentsOf: contextsFile, encoding: .utf8).contains("extension PromiseContext.Named {"))
        let again = try SwiftCompiler.run(tool, ["adopt", directory.path])
        #expect(again.status == 0)
        #expect(again.stdout.isEmpty, "nothing left to change after --write")
        let help = try SwiftCompiler.run(tool, ["adopt", "--help"])
        #expect(help.stdout.contains("PromiseContext.CallerIsolated") && help.stdout.contains("--write"))
    }
}
