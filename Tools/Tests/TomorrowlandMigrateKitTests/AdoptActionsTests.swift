import Testing
@testable import TomorrowlandMigrateKit

/// `adopt`'s actions driven one site at a time: what each precondition holds, and what it
/// declines with.
@Suite("adopt: actions")
struct AdoptActionsTests {
    /// One in-memory file, with the indexes `adopt` builds for its set.
    struct Fixture {
        let set: SourceSet
        let contexts: CustomContexts
        let isolation: IsolationIndex
        let properties: ContextProperties.Index

        init(_ text: String) {
            set = .inMemory([(path: "File.swift", text: text)])
            contexts = CustomContexts(set)
            isolation = IsolationIndex(set)
            properties = ContextProperties.Index(set, contexts: contexts)
        }

        var file: ParsedFile { self.set.files[0] }

        /// The file's calls of `then`, as context-argument sites.
        var thens: [ContextArgumentSite] { ContextArguments.sites(in: file, isolation: isolation).filter { $0.name == "then" } }
    }

    @Test("a ternary mixing kinds holds with its first leaf; one of a single kind does not apply")
    func typedTernary() throws {
        let fixture = Fixture("""
            func f(p: Promise<Int, Never>, flag: Bool) {
                p.then(on: flag ? .immediate : .utility) { _ in }
                p.then(on: flag ? .utility : .background) { _ in }
            }
            """)
        let action = TypedTernaryAction(contexts: fixture.contexts)
        let sites = fixture.thens
        try #require(sites.count == 2)
        #expect(action.precondition(sites[0]).value?.trimmedDescription == ".immediate")
        let edit = try #require(action.apply(to: sites[0]).value)
        #expect(edit.text == "PromiseContext")
        if case .notApplicable = action.precondition(sites[1]) {} else { Issue.record("a ternary of one kind is not this action's") }
    }

    @Test("a closure in a main-actor type's stored property gets @MainActor; in an actor's it is declined with the note's text")
    func storedClosures() throws {
        let fixture = Fixture("""
            @MainActor final class Screen {
                var title = ""
                lazy var load = Promise<Int, Never>(value: 1).then { _ in self.title = "x" }
            }
            actor Store {
                var count = 0
                lazy var load = Promise<Int, Never>(value: 1).then { _ in self.count += 1 }
            }
            """)
        let sites = fixture.thens
        try #require(sites.count == 2)
        let action = MainActorClosureAction()
        let stored = sites.map { site in
            StoredClosureSite(site: site, closure: ContextArguments.closures(of: site.call)[0], context: "no context")
        }
        #expect(action.precondition(stored[0]).value == "@MainActor")
        let reason = try #require(action.precondition(stored[1]).reason)
        #expect(reason.text.hasPrefix("a closure given `no context` in the initializer of `load` uses `self` of `Store`, which is an actor"))
    }

    @Test("a property also given a queue declines, saying where; one given only `.main` holds `.mainActor` and is retyped")
    func contextProperties() throws {
        let fixture = Fixture("""
            @MainActor final class Screen {
                var mixed: PromiseContext = .main
                var delivery: PromiseContext = .main
                var title = ""
                func change() { mixed = .utility }
            }
            """)
        let use = ContextProperties.Use(path: "File.swift", line: 1, what: "a closure", mainActorWorks: true)
        let keys = ["mixed", "delivery"].map { ContextProperties.Key(module: fixture.file.module, type: "Screen", name: $0, isStatic: false) }
        let uses = Dictionary(uniqueKeysWithValues: keys.map { ($0, [use]) })
        let action = ContextPropertyAction(index: fixture.properties, set: fixture.set, contexts: fixture.contexts, uses: uses)
        let mixed = try #require(action.precondition((keys[0], [use])).reason)
        #expect(mixed.text == "it is given `.utility` at File.swift:5, which may name a queue")
        let delivery = try #require(action.precondition((keys[1], [use])).value)
        #expect(delivery.kind == .mainActor)
        let retyping = try #require(action.edit((keys[1], [use]), delivery).value)
        #expect(retyping.edits.map(\.edit.text) == ["PromiseContext.Main"])
        #expect(retyping.notes.isEmpty)
    }
}
