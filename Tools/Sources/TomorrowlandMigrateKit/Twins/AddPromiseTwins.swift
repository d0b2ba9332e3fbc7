// `add-promise-twins`: a promise-returning overload next to an async function, so that old
// callers keep compiling after its body was rewritten as async.

import SwiftSyntax

public enum AddPromiseTwins {
    /// Plans promise twins for the async functions marked `// tomorrowland-migrate: promise-twin`
    /// (every async function with `all`); writes nothing.
    public static func run(_ set: SourceSet, all: Bool) -> MigrationResult {
        let project = Project(set)
        var result = MigrationResult(problems: set.problems)
        let sites = set.files.map(FunctionSite.all(in:))
        let everySite = sites.flatMap { $0 }
        var importedInto: [String] = []
        for (index, file) in set.files.enumerated() {
            result.notes += Unhandled.notes(in: file, asyncTwins: false, all: all)
            var edits: [TextEdit] = []
            for site in sites[index] where site.isAsync && !site.inProtocol && (all || site.decl.leadingTrivia.hasMarker) {
                switch decide(site, project: project, everySite: everySite) {
                case .add: break
                case .alreadyDone: continue
                case .skip(let reason):
                    result.notes.append(MigrationNote(path: file.path, line: site.line, message: "\(site.signature): no promise twin: \(reason.text)"))
                    continue
                }
                edits.append(.insert("\n\n" + twinText(for: site, project: project), at: site.decl.endPositionBeforeTrailingTrivia))
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

    private static func decide(_ site: FunctionSite, project: Project, everySite: [FunctionSite]) -> TwinDecision {
        if everySite.contains(where: { !$0.isAsync && $0.promise != nil && $0.overloads(site) && $0.hasParameterTypes(of: site) }) {
            return .alreadyDone // idempotent
        }
        if Twins.forwardedName(ofAsyncTwin: site.decl) == site.name { return .alreadyDone } // itself an async twin
        if site.name == "main", site.labels.isEmpty, site.decl.modifiers.contains(where: { $0.name.text == "static" }) {
            return .skip(SkipReason("a program's entry point: a same-named overload would make `@main` ambiguous"))
        }
        if let reason = Twins.commonSkipReason(site, project: project) { return .skip(reason) }
        if let reason = AddAsyncTwins.clash(of: site, with: everySite, project: project, async: false) { return .skip(reason) }
        if isTestMethod(site, project: project) {
            return .skip(SkipReason("a test method: the test runner calls it, no promise-style caller can"))
        }
        if site.decl.modifiers.contains(where: { $0.name.text == "mutating" }) {
            return .skip(SkipReason("mutating: the Task the twin starts cannot hold on to `self`; write a twin by hand"))
        }
        if !project.selfIsSendable(in: site) {
            return .skip(SkipReason(
                "`\(site.container ?? "")` is not known to be Sendable (not declared so, not an actor, not on a global actor): "
                    + "in Swift 6 mode the Task the twin starts cannot capture `self`"
            ))
        }
        if let parameter = project.nonSendableParameter(of: site) {
            return .skip(SkipReason(
                "parameter `\(parameter.parameterName ?? "_")` (`\(parameter.type.trimmedDescription)`) \(Project.captureProblem(of: parameter)): "
                    + "in Swift 6 mode the Task the twin starts cannot capture it"
            ))
        }
        return .add
    }

    /// An XCTest `test…()` method of an `XCTestCase` subclass, or a swift-testing `@Test` function.
    private static func isTestMethod(_ site: FunctionSite, project: Project) -> Bool {
        if site.decl.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Test" }) { return true }
        guard site.name.hasPrefix("test"), site.labels.isEmpty, let container = site.container else { return false }
        return project.ancestors(of: container).contains("XCTestCase") || container.hasSuffix("Tests")
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
