// `adopt`: the edits a codebase written for Tomorrowland 1.x needs to compile against this
// package, each keeping its 1.x meaning, and a list of what only its author can decide.

import SwiftSyntax

public enum Adopt {
    /// Plans every edit for `set`; writes nothing. Each edit is an action, run over its sites
    /// in file order (the retyping of properties once every file is read):
    ///
    /// - `ContextTwinAction`: a custom context in an `extension PromiseContext` gets its twin
    ///   on `PromiseContext.Named` (on `PromiseContext.Main` when its value is `.main` or
    ///   `.nowOr(.main)`, on `PromiseContext.CallerIsolated` when it is `.auto`, `.immediate`
    ///   or `.nowOr` of one), so that `.db` compiles as a context argument and runs where it says.
    /// - `TypedTernaryAction`: a ternary of implicit members that mixes kinds
    ///   (`flag ? .immediate : .utility`) becomes a `PromiseContext` value
    ///   (`flag ? PromiseContext.immediate : .utility`).
    /// - `UnappliedReferenceAction`: an unapplied callback method with no type from its context
    ///   (`let f = promise.then(on:token:_:)`) gets the type of its `PromiseContext` overload.
    /// - `MainContextAction`: in actor-isolated code, `PromiseContext.main` (or a custom context
    ///   holding `.main` or `.auto`) given to a closure that uses `self` becomes `.main`.
    /// - `ContextPropertyAction`: a stored `PromiseContext` property (instance, static or
    ///   top-level, not public) given to such a closure, whose every value in the set is
    ///   `.main`-like (`.auto`/`.immediate`-like), becomes `PromiseContext.Main`
    ///   (`PromiseContext.CallerIsolated`); where a `PromiseContext` is wanted, its `.context`
    ///   is passed.
    /// - `MainActorClosureAction`: in a stored property's initializer (a `lazy var`'s too) of a
    ///   main-actor type, a closure that keeps the caller's actor and uses its state is marked
    ///   `@MainActor` (Swift 6 mode does not give it the type's actor there).
    /// - `RaceListingAction` (a check that only declines: listed, not changed): a closure run
    ///   off its actor (named context or context value) in actor-isolated code that uses its
    ///   state, and an actor-isolated method (or function) passed by name with such a context.
    public static func run(_ set: SourceSet) -> MigrationResult {
        let contexts = CustomContexts(set)
        let isolation = IsolationIndex(set)
        let properties = ContextProperties.Index(set, contexts: contexts)
        let arguments = ContextArgumentActions(contexts: contexts, properties: properties)
        var output = AdoptOutput()
        for file in set.files {
            var fileOutput = AdoptOutput()
            for extensionDecl in CustomContexts.extensions(in: Syntax(file.tree)) {
                if let edit = ContextTwinAction(file: file, contexts: contexts).apply(to: extensionDecl).value { fileOutput.add(edit, in: file) }
            }
            for site in ContextArguments.sites(in: file, isolation: isolation) { arguments.apply(to: site, into: &fileOutput) }
            fileOutput.add(UnappliedReferenceAction(file: file).run(over: UnappliedReferences.sites(in: file)), in: file)
            output.merge(fileOutput)
        }
        let retyping = ContextPropertyAction(index: properties, set: set, contexts: contexts, uses: output.propertyUses)
        output.add(retyping.run(over: output.propertyUses.map { (key: $0.key, uses: $0.value) }))
        return output.result(for: set)
    }
}

/// What `adopt`'s actions came to: the edits of each file and the notes, in the order they
/// were made.
struct AdoptOutput {
    var edits: [String: [TextEdit]] = [:]
    var notes: [MigrationNote] = []
    /// The closures (and methods) given a stored `PromiseContext` property in code where a
    /// value's closure cannot do what they do: whether the property can be retyped is decided
    /// once every file was read (`ContextPropertyAction`).
    var propertyUses: [ContextProperties.Key: [ContextProperties.Use]] = [:]

    /// `other`'s edits after these, its notes after these, its property uses after these
    /// (one file's after the files before it).
    mutating func merge(_ other: AdoptOutput) {
        edits.merge(other.edits) { $0 + $1 }
        notes += other.notes
        propertyUses.merge(other.propertyUses) { $0 + $1 }
    }

    /// An edit of `file`.
    mutating func add(_ edit: TextEdit, in file: ParsedFile) {
        edits[file.path, default: []].append(edit)
    }

    /// The unapplied references' outcomes: the type added, or the note saying to add it.
    mutating func add(_ outcomes: [(site: PatternBindingSyntax, outcome: Outcome<TextEdit>)], in file: ParsedFile) {
        var notes: [MigrationNote] = []
        for (site, outcome) in outcomes {
            if let edit = outcome.value { add(edit, in: file) }
            if let reason = outcome.reason, let value = site.initializer?.value {
                notes.append(MigrationNote(path: file.path, line: file.line(of: value), message: reason.text))
            }
        }
        self.notes += notes
    }

    /// The properties' outcomes: a retyping's edits and notes, or a note for each use of a
    /// property that keeps its type.
    mutating func add(_ outcomes: [(site: ContextPropertyAction.Site, outcome: Outcome<ContextPropertyAction.Retyping>)]) {
        for (site, outcome) in outcomes {
            if let retyping = outcome.value {
                for edit in retyping.edits { edits[edit.path, default: []].append(edit.edit) }
                notes += retyping.notes
            }
            if let reason = outcome.reason { notes += ContextPropertyAction.notes(site, keepingBecause: reason) }
        }
    }

    /// The result: the notes in file order, then line, then the order they were made; a
    /// change for each file with edits.
    func result(for set: SourceSet) -> MigrationResult {
        var result = MigrationResult(problems: set.problems)
        let order = Dictionary(set.files.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
        result.notes = notes.enumerated().sorted {
            (order[$0.element.path] ?? 0, $0.element.line, $0.offset) < (order[$1.element.path] ?? 0, $1.element.line, $1.offset)
        }.map(\.element)
        for file in set.files {
            guard let fileEdits = edits[file.path], !fileEdits.isEmpty else { continue }
            result.changes.append(FileChange(path: file.path, original: file.text, updated: TextEdit.apply(fileEdits, to: file.text)))
        }
        return result
    }
}
