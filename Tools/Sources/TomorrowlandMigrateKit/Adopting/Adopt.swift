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
    /// - Listed, not changed: a closure run off its actor (named context or context value) in
    ///   actor-isolated code that uses `self`, and a method of such a type passed by name.
    public static func run(_ set: SourceSet) -> MigrationResult {
        let contexts = CustomContexts(set)
        let isolatedTypes = Isolation.isolatedTypes(in: set)
        var result = MigrationResult(problems: set.problems)
        for file in set.files {
            var edits: [TextEdit] = []
            let extensions = CustomContexts.extensions(in: Syntax(file.tree))
            for extensionDecl in extensions where contexts.aliases.contains(extensionDecl.extendedType.trimmedDescription) {
                let indent = UnsafeCall.line(around: extensionDecl.extensionKeyword.positionAfterSkippingLeadingTrivia, in: file).indent
                guard let twins = ContextTwins.text(after: extensionDecl, contexts: contexts, indent: indent) else { continue }
                edits.append(.insert("\n\n" + twins, at: extensionDecl.endPositionBeforeTrailingTrivia))
            }
            let arguments = ContextArguments(file: file, contexts: contexts, isolatedTypes: isolatedTypes)
            arguments.walk(file.tree)
            let references = UnappliedReferences.fix(in: file)
            edits += arguments.edits + references.edits
            result.notes += (arguments.notes + references.notes).sorted { $0.line < $1.line }
            guard !edits.isEmpty else { continue }
            result.changes.append(FileChange(path: file.path, original: file.text, updated: TextEdit.apply(edits, to: file.text)))
        }
        return result
    }
}
