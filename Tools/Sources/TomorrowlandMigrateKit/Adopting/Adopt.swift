// `adopt`: the edits a codebase written for Tomorrowland 1.x needs to compile against this
// package, each keeping its 1.x meaning, and a list of what only its author can decide.

import SwiftSyntax

public enum Adopt {
    /// Plans every edit for `set`; writes nothing.
    ///
    /// - A custom context in an `extension PromiseContext` gets its twin on
    ///   `PromiseContext.Named` (on `PromiseContext.Main` when its value is `.main` or
    ///   `.nowOr(.main)`, on `PromiseContext.CallerIsolated` when it is `.auto`, `.immediate`
    ///   or `.nowOr` of one), so that `.db` compiles as a context argument and runs where it says.
    /// - A ternary of implicit members that mixes kinds (`flag ? .immediate : .utility`)
    ///   becomes a `PromiseContext` value (`flag ? PromiseContext.immediate : .utility`).
    /// - An unapplied callback method with no type from its context
    ///   (`let f = promise.then(on:token:_:)`) gets the type of its `PromiseContext` overload.
    /// - In actor-isolated code, `PromiseContext.main` (or a custom context holding `.main` or
    ///   `.auto`) given to a closure that uses `self` becomes `.main`.
    /// - A stored `PromiseContext` property (instance, static or top-level, not public) given
    ///   to such a closure, whose every value in the set is `.main`-like (`.auto`/`.immediate`-
    ///   like), becomes `PromiseContext.Main` (`PromiseContext.CallerIsolated`); where a
    ///   `PromiseContext` is wanted, its `.context` is passed.
    /// - In a stored property's initializer (a `lazy var`'s too) of a main-actor type, a closure
    ///   that keeps the caller's actor and uses its state is marked `@MainActor` (Swift 6 mode
    ///   does not give it the type's actor there).
    /// - Listed, not changed: a closure run off its actor (named context or context value) in
    ///   actor-isolated code that uses its state, and an actor-isolated method (or function)
    ///   passed by name with such a context.
    public static func run(_ set: SourceSet) -> MigrationResult {
        let contexts = CustomContexts(set)
        let isolation = IsolationIndex(set)
        let properties = ContextProperties.Index(set, contexts: contexts)
        var result = MigrationResult(problems: set.problems)
        var edits: [String: [TextEdit]] = [:]
        var notes: [MigrationNote] = []
        var propertyUses: [ContextProperties.Key: [ContextProperties.Use]] = [:]
        for file in set.files {
            let extensions = CustomContexts.extensions(in: Syntax(file.tree))
            for extensionDecl in extensions where contexts.aliases.contains(extensionDecl.extendedType.trimmedDescription) {
                let indent = UnsafeCall.line(around: extensionDecl.extensionKeyword.positionAfterSkippingLeadingTrivia, in: file).indent
                guard let twins = ContextTwins.text(after: extensionDecl, contexts: contexts, indent: indent) else { continue }
                edits[file.path, default: []].append(.insert("\n\n" + twins, at: extensionDecl.endPositionBeforeTrailingTrivia))
            }
            let arguments = ContextArguments(file: file, contexts: contexts, isolation: isolation, properties: properties)
            arguments.walk(file.tree)
            let references = UnappliedReferences.fix(in: file)
            edits[file.path, default: []] += arguments.edits + references.edits
            notes += arguments.notes + references.notes
            propertyUses.merge(arguments.propertyUses) { $0 + $1 }
        }
        let retyped = ContextProperties.resolve(propertyUses, index: properties, set: set, contexts: contexts)
        edits.merge(retyped.edits) { $0 + $1 }
        notes += retyped.notes
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
