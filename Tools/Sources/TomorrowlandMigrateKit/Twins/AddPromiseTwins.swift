// `add-promise-twins`: a promise-returning overload next to an async function, so that old
// callers keep compiling after its body was rewritten as async.

import SwiftSyntax

public enum AddPromiseTwins {
    /// Plans promise twins for the async functions marked `// tomorrowland-migrate: promise-twin`
    /// (every async function with `all`); writes nothing.
    public static func run(_ set: SourceSet, all: Bool) -> MigrationResult {
        var result = MigrationResult(problems: set.problems)
        let sites = set.files.map(FunctionSite.all(in:))
        let twins = PromiseTwinAction(project: Project(set), everySite: sites.flatMap { $0 }, all: all)
        var importedInto: [String] = []
        for (index, file) in set.files.enumerated() {
            result.notes += Unhandled.notes(in: file, asyncTwins: false, all: all)
            var edits: [TextEdit] = []
            for (site, outcome) in twins.run(over: sites[index]) {
                switch outcome {
                case .holds(let edit): edits.append(edit)
                case .declines(let reason): result.notes.append(twins.note(site, reason))
                case .notApplicable: break
                }
            }
            if !edits.isEmpty, let importEdit = Imports.addAsyncImport(to: file) {
                edits.append(importEdit.edit)
                importedInto.append(file.path)
            }
            guard !edits.isEmpty else { continue }
            result.changes.append(FileChange(path: file.path, original: file.text, updated: TextEdit.apply(edits, to: file.text)))
        }
        result.notes += PackageNotes.notes(for: set, importedInto: importedInto, command: nil)
        return result
    }

    /// The promise type and the initializer expression of the twin of `decl`.
    static func promiseType(of decl: FunctionDeclSyntax) -> (type: String, initializer: String, awaitCall: String) {
        let value = decl.signature.returnClause?.type.trimmedDescription ?? "Void"
        guard let throwsClause = decl.signature.effectSpecifiers?.throwsClause else {
            return ("Promise<\(value), NoError>", "Promise", "await")
        }
        if let error = throwsClause.type?.trimmedDescription, !PromiseType.untypedErrorNames.contains(error) {
            // Closures do not infer typed throws: spell the closure's type.
            return ("Promise<\(value), \(error)>", "Promise", "() async throws(\(error)) -> \(value) in try await")
        }
        return ("StdPromise<\(value)>", "StdPromise", "try await")
    }

    /// The promise twin of `site`: a new Task that awaits it.
    static func twinText(for site: FunctionSite, project: Project) -> String {
        let (type, initializer, awaitCall) = promiseType(of: site.decl)
        // Old callers reached an actor's promise API synchronously, from outside: the twin of
        // an actor method is `nonisolated` (its Task hops onto the actor).
        let isolated = site.container.map(project.actors.contains) == true
            && !site.decl.modifiers.contains { $0.name.text == "nonisolated" || $0.name.text == "static" }
        let nonisolated = isolated ? "nonisolated" : nil
        let note = [
            "Promise twin of `\(site.signature)` (added by tomorrowland-migrate): runs it in a new Task, "
                + "isolated like `Task { }` written here. Cancelling the promise cancels the Task.",
        ]
        return Twins.twin(
            of: site, note: note, effectsAndResult: "-> \(type)", selfQualified: true, extraModifier: nonisolated,
            body: { call, width in
                let line = "\(initializer) { \(awaitCall) \(call) }"
                guard line.count > width else { return line }
                let inner = "    \(awaitCall) \(call)"
                return "\(initializer) {\n" + (inner.count <= width ? inner : "    \(awaitCall) " + Twins.wrappedCall(call, indent: "    ")) + "\n}"
            }
        )
    }
}
