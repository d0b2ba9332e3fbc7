// `add-async-twins`: an `async` overload next to every promise-returning function.

import Foundation
import SwiftSyntax

public enum AddAsyncTwins {
    /// Plans the twins and the call-site rewrites for `set` from its syntax alone; writes nothing.
    public static func run(_ set: SourceSet) -> MigrationResult {
        plan(set, project: Project(set), decisions: ProofDecisions(), elsewhere: existingTwins(around: set)).result
    }

    /// Async twins an earlier run wrote elsewhere in the package (and what they forward to):
    /// they count when pinning call sites here; nothing is written there.
    static func existingTwins(around set: SourceSet) -> [FunctionSite] {
        Twins.existingAsyncTwins(in: PackageContext(roots: set.roots)?.otherFiles(of: set) ?? [])
    }

    /// Plans the twins and the call-site rewrites for `set`, then writes nothing.
    /// `decisions`: what the compiler's proof of earlier rounds asked for (twins it rejected,
    /// calls it wants pinned); `elsewhere`: `existingTwins(around:)`.
    static func plan(_ set: SourceSet, project: Project, decisions: ProofDecisions, elsewhere: [FunctionSite]) -> Plan {
        var result = MigrationResult(problems: set.problems)
        let sites = set.files.map(FunctionSite.all(in:))
        let everySite = sites.flatMap { $0 } + elsewhere

        // 1. Candidates: promise-returning functions that can get a twin (protocol requirements
        // get theirs in an extension of the protocol). Functions whose twin exists already
        // still have their call sites pinned.
        var candidates: [FunctionSite] = []
        var alreadyTwinned: [FunctionSite] = []
        // A requirement the proof rejected serves no conformer: they get twins of their own.
        let requirements = everySite.filter { $0.inProtocol && $0.promise != nil && !$0.isAsync && decisions.rejected[key($0)] == nil }
        // What a site's twin could meet (an existing twin, an overload, a clash) has its name: looked
        // up once per site, not by a scan of every site (quadratic in a package's functions).
        let sitesNamed = Dictionary(grouping: everySite, by: \.name)
        for site in everySite {
            // A promise type the compiler sees and the tool cannot spell: said, not passed over.
            if site.promise == nil, !site.isAsync, !site.isLocal, let compiled = site.file.unspelledPromises[site.decl.endOffset] {
                result.notes.append(MigrationNote(path: site.file.path, line: site.line, message: """
                    \(site.signature): no async twin: it returns `\(compiled)` (as the compiler spells it), whose generic \
                    parameters the tool cannot name from the declarations around it; write its twin by hand
                    """))
                continue
            }
            guard let promise = site.promise, !site.isAsync else { continue }
            if let reason = decisions.rejected[key(site)] {
                result.notes.append(MigrationNote(path: site.file.path, line: site.line, message: "\(site.signature): no async twin: \(reason)"))
                continue
            }
            let named = sitesNamed[site.name] ?? []
            switch decide(site, promise, project: project, sameName: named, requirements: requirements) {
            case .add: candidates.append(site)
            case .alreadyDone:
                // Its async twin exists (not: it is itself the promise twin of an async function).
                if Twins.forwardedName(ofPromiseTwin: site.decl) != site.name, named.contains(where: { $0.isAsync && $0.overloads(site) }) {
                    alreadyTwinned.append(site)
                }
            case .skip(let reason):
                result.notes.append(MigrationNote(path: site.file.path, line: site.line, message: "\(site.signature): no async twin: \(reason.text)"))
            }
        }

        for file in set.files { result.notes += Unhandled.notes(in: file, asyncTwins: true) }

        // 2. Call sites whose meaning a twin would change.
        var rejected = Set<CandidateKey>() // candidates that must not get a twin
        var rewrites: [String: [OwnedEdit]] = [:]
        var rewriteNotes: [(owner: String, note: MigrationNote)] = []
        let byName = Dictionary(grouping: candidates + alreadyTwinned, by: \.name)
        // Looked up by name, USR or declaration, never by a scan of every site per site or call
        // (quadratic in a package's functions: most of the planning's time at 100,000 lines).
        let twinnedRequirements = (candidates + alreadyTwinned).filter(\.inProtocol)
        let alreadyTwinnedIDs = Set(alreadyTwinned.map(\.decl.id))
        var sitesByUSR: [String: FunctionSite] = [:]
        for site in everySite { if let usr = project.usr(of: site), sitesByUSR[usr] == nil { sitesByUSR[usr] = site } }
        // Every function of these names: a call may mean one that gets no twin (another type's
        // method with the same name, an async function), and then no single type pins it.
        // The twins themselves are not other functions.
        let twinSites = Set(everySite.filter { site in
            site.isAsync && (byName[site.name] ?? []).contains { $0.overloads(site) && $0.hasParameterTypes(of: site) }
        }.map(\.decl.id))
        let sameName = Dictionary(grouping: everySite.filter { byName[$0.name] != nil && !twinSites.contains($0.decl.id) }, by: \.name)
        for file in set.files {
            let forced = decisions.forcedPins.filter { $0.path == file.path }.map(\.nameOffset)
            let finder = UnsafeCallFinder(file: file, names: Set(byName.keys), includingPinned: !forced.isEmpty)
            finder.walk(file.tree)
            for found in finder.found {
                // A call the proof found changed is pinned even where the syntax looked settled.
                if !forced.isEmpty, UnsafeCallFinder.isPinned(found.call), !UnsafeCallFinder.readsAmbiguousMember(found.call),
                   !forced.contains(Calls.nameOffset(of: found.call)) { continue }
                let labels = Calls.labels(of: found.call)
                let receiver = project.receiver(of: found.call, in: file)
                // The compiler names the one declaration the call means; the syntax, those it may.
                let callee = project.callee(nameAt: Calls.nameOffset(of: found.call), in: file.path)
                let calleeSite = callee.flatMap { sitesByUSR[$0] }
                let matching = (byName[found.name] ?? []).filter { site in
                    if project.compiledFile(file.path) != nil {
                        // The declaration it names, or the requirement that declaration implements
                        // (whose twin in the protocol's extension the conformer gets too).
                        // (An override of it: the twin reaches it dynamically, and captures its calls.)
                        return callee != nil && (project.usr(of: site) == callee
                            || site.inProtocol && calleeSite.map { project.implements($0, site) } == true
                            || calleeSite.map { project.overrides($0, site) } == true)
                    }
                    return CallMatching.labels(labels, canCall: site.decl) && project.receiver(receiver, reaches: site.container)
                }
                guard !matching.isEmpty else { continue }
                // A twin already in place: a call under `await` already means it (written for it,
                // or already reading it), and pinning it would change that; a call without
                // `await` no longer compiles, and the pin restores the promise it meant.
                let onlyExisting = matching.allSatisfy { alreadyTwinnedIDs.contains($0.decl.id) }
                if onlyExisting, Calls.isUnderAwait(Syntax(found.call)) { continue }
                // Implementations of a twinned requirement are that requirement, dynamically.
                var possible = (sameName[found.name] ?? []).filter { site in
                    CallMatching.labels(labels, canCall: site.decl) && project.receiver(receiver, reaches: site.container)
                        && !(!site.inProtocol && twinnedRequirements.contains { project.implements(site, $0) })
                }
                // The receiver's own type's declaration is the one called (an override included);
                // otherwise overrides are the method they override.
                if callee != nil {
                    possible = matching
                } else if let own = receiver.typeName, possible.contains(where: { $0.container == own }) {
                    possible = possible.filter { $0.container == own }
                } else {
                    possible.removeAll { $0.decl.modifiers.contains { $0.name.text == "override" } }
                }
                let types = Set(possible.map { $0.isAsync ? "(async)" : $0.promise?.canonical ?? "(not a promise)" })
                let pinSite = possible.first { !$0.isAsync && $0.promise != nil } ?? matching[0]
                var pinType = pinSite.promise!.spelled
                let line = file.line(of: found.call)
                var spellable = types.count == 1 && project.isSpellableAnywhere(pinType)
                    && project.identifiers(in: pinType).allSatisfy { !(pinSite.scope?.libraryGenericNames.contains($0) ?? false) }
                // The declaration's spelling names its generic parameters or associated types:
                // the compiler's type of this call (`Promise<String, StoreError>`) can be written.
                if !spellable, types.count == 1,
                   let compiled = project.compiler?.spelledPromiseType(ofCallAt: Calls.nameOffset(of: found.call), in: file.path) {
                    (pinType, spellable) = (compiled, true)
                }
                if spellable {
                    rewrites[file.path, default: []] += found.edits(coercingTo: pinType)
                    rewriteNotes.append((found.name, MigrationNote(path: file.path, line: line, message: """
                        `\(found.shortText)` gets `as \(pinType)` so that it keeps calling the promise-returning \(found.name)
                        """)))
                } else if found.context == .async, project.compiler == nil {
                    // (With the compiler, the proof decides: only a call that would really
                    // change its meaning costs the function its twin.)
                    let why = types.count == 1 ? "its promise type cannot be written there" : "it may also mean another function of that name"
                    for site in matching {
                        if alreadyTwinnedIDs.contains(site.decl.id) {
                            result.notes.append(MigrationNote(path: file.path, line: line, message: """
                                `\(found.shortText)` in async code may call the existing async twin of \(site.signature), \
                                and \(why): check it by hand
                                """))
                            continue
                        }
                        rejected.insert(key(site))
                        result.notes.append(MigrationNote(path: site.file.path, line: site.line, message: """
                            \(site.signature): no async twin: the call at \(file.path):\(line) in async code might pick the twin, \
                            and \(why)
                            """))
                    }
                }
            }
        }
        candidates.removeAll { rejected.contains(key($0)) }
        let twinned = Set((candidates + alreadyTwinned).map(\.name))
        // Rewrites for calls of rejected functions are not needed (nothing changes for them).
        result.notes += rewriteNotes.filter { twinned.contains($0.owner) }.map(\.note)

        // An `await f()` of a promise-returning function without a twin awaits nothing and
        // yields the promise: say so rather than leave it looking like a call of a twin.
        // (A call of an actor's method or from another isolation needs its `await`.)
        let untwinned = everySite.filter { site in
            site.promise != nil && !site.isAsync && !twinned.contains(site.name) && !site.isLocal
                && !(sitesNamed[site.name] ?? []).contains { $0.isAsync } && project.isolation(of: site) == .nonisolated
        }
        let untwinnedByName = Dictionary(grouping: untwinned, by: \.name)
        let untwinnedIDs = Set(untwinned.map(\.decl.id))
        let everyByName = Dictionary(grouping: everySite.filter { untwinnedByName[$0.name] != nil }, by: \.name)
        for file in set.files {
            let finder = UnsafeCallFinder(file: file, names: Set(untwinnedByName.keys), includingPinned: true)
            finder.walk(file.tree)
            for found in finder.found where UnsafeCallFinder.isDirectlyAwaited(found.call) {
                let labels = Calls.labels(of: found.call)
                let receiver = project.receiver(of: found.call, in: file)
                let reached = (everyByName[found.name] ?? []).filter { site in
                    CallMatching.labels(labels, canCall: site.decl) && project.receiver(receiver, reaches: site.container)
                }
                guard !reached.isEmpty, reached.allSatisfy({ untwinnedIDs.contains($0.decl.id) }),
                      let site = reached.first else { continue }
                result.notes.append(MigrationNote(
                    path: file.path, line: file.line(of: found.call),
                    message: "`\(found.shortText)` awaits nothing: \(site.signature) returns a promise "
                        + "and has no async twin; the result is the promise (await its `.value`)"
                ))
            }
        }

        // 3. The twins themselves.
        var importedInto: [String] = []
        var plannedEdits: [String: [OwnedEdit]] = [:]
        let candidatePaths = Dictionary(grouping: candidates, by: \.decl.id).mapValues { Set($0.map(\.file.path)) }
        for (index, file) in set.files.enumerated() {
            var edits = rewrites[file.path, default: []].filter { $0.owner.map(twinned.contains) ?? true }
            let mine = sites[index].filter { candidatePaths[$0.decl.id]?.contains(file.path) == true }
            var protocolTwins: [(protocolDecl: ProtocolDeclSyntax, text: String, key: CandidateKey)] = []
            for site in mine {
                let text = twinText(for: site, nonsending: project.isolation(of: site) == .nonisolated)
                if site.inProtocol, let protocolDecl = site.decl.enclosingProtocol {
                    protocolTwins.append((protocolDecl, text, key(site)))
                } else {
                    let inserted = "\n\n" + text
                    edits.append(OwnedEdit(
                        owner: nil, edit: .insert(inserted, at: site.decl.endPositionBeforeTrailingTrivia),
                        twins: [(0..<inserted.utf8.count, key(site))]
                    ))
                }
            }
            // A protocol's twins go in one extension of it, right after it.
            for group in Dictionary(grouping: protocolTwins, by: { $0.protocolDecl.id }).values {
                let protocolDecl = group[0].protocolDecl
                let indent = Twins.indentation(of: protocolDecl, in: file)
                var text = "\n\n\(indent)extension \(protocolDecl.name.text) {\n"
                var owned: [(Range<Int>, CandidateKey)] = []
                for (number, twin) in group.enumerated() {
                    if number > 0 { text += "\n\n" }
                    owned.append((text.utf8.count..<text.utf8.count + twin.text.utf8.count, twin.key))
                    text += twin.text
                }
                text += "\n\(indent)}"
                edits.append(OwnedEdit(owner: nil, edit: .insert(text, at: protocolDecl.endPositionBeforeTrailingTrivia), twins: owned))
            }
            if !mine.isEmpty, let importEdit = Imports.addAsyncImport(to: file) {
                edits.append(importEdit)
                importedInto.append(file.path)
            }
            guard !edits.isEmpty else { continue }
            let updated = TextEdit.apply(edits.map(\.edit), to: file.text)
            if updated != file.text {
                result.changes.append(FileChange(path: file.path, original: file.text, updated: updated))
                plannedEdits[file.path] = edits
            }
        }
        result.notes += PackageNotes.notes(for: set, importedInto: importedInto, command: "add-async-twins")
        return Plan(result: result, edits: plannedEdits, candidates: candidates)
    }

    /// What one planning round produced: the result, and the edits behind each change (to map
    /// the compiler's positions in the changed files back to the original ones).
    struct Plan {
        var result: MigrationResult
        let edits: [String: [OwnedEdit]]
        let candidates: [FunctionSite]
    }

    /// A candidate as `rejected` knows it: the same signature and parameter types in the same
    /// type is the same function (overloads differ by their parameter types).
    struct CandidateKey: Hashable {
        let container: String?
        let signature: String
        let parameters: String
    }

    static func key(_ site: FunctionSite) -> CandidateKey {
        let parameters = site.decl.signature.parameterClause.parameters.map { $0.type.trimmedDescription }.joined(separator: ", ")
        return CandidateKey(container: site.container, signature: site.signature, parameters: parameters)
    }

    private static func decide(
        _ site: FunctionSite, _ promise: PromiseType, project: Project, sameName: [FunctionSite], requirements: [FunctionSite]
    ) -> TwinDecision {
        // Its twin exists (idempotent); an async method of the same name and labels but other
        // parameter types is another overload, and the twin is added beside it.
        if sameName.contains(where: { $0.isAsync && $0.overloads(site) && $0.hasParameterTypes(of: site) }) { return .alreadyDone }
        if Twins.forwardedName(ofPromiseTwin: site.decl) == site.name { return .alreadyDone } // itself a promise twin
        if !site.inProtocol, let requirement = requirements.first(where: { project.implements(site, $0) }) {
            let name = requirement.container ?? ""
            return .skip(SkipReason("implements `\(name).\(requirement.signature)`: the twin in `extension \(name)` serves it"))
        }
        if let reason = Twins.commonSkipReason(site, project: project, asyncTwin: true) { return .skip(reason) }
        if let wait = BlockingWaits.first(in: site.decl.body, of: site.file) {
            return .skip(SkipReason(
                "blocks its thread while it waits (`\(wait.call)`, line \(wait.line)): an async twin would hold a Task's thread "
                    + "for the whole wait, and on an actor (a `@MainActor` test) nothing the wait needs could run there; "
                    + "its callers keep the promise"
            ))
        }
        if let reason = clash(of: site, with: sameName, project: project) { return .skip(reason) }
        if let scope = site.scope, scope.libraryGenericNames.contains(promise.error), !scope.constrainsErrorToSwiftError,
           !constrainsError(scope, project: project) {
            return .skip(SkipReason(
                "in `extension \(scope.name)`, `\(promise.error)` is the promise's generic parameter, not known to conform to "
                    + "Swift.Error; move it to `extension \(scope.name) where Error: Swift.Error` to get a twin"
            ))
        }
        // With the compiler, the proof decides: it type-checks the twin (an associated type
        // constrained to `Error & Sendable`, a typealias, a refined protocol all pass).
        if project.compiler == nil, !promise.hasUntypedError, !promise.hasNoError, !isError(promise.error, in: site, project: project) {
            return .skip(SkipReason("`\(promise.error)` is not known to conform to Error, so `.value` is not available; await `.resolvedResult` by hand"))
        }
        return .add
    }

    /// Why the twin of a class's method would clash with an async method that a subclass or
    /// a superclass already has, with the same name and labels: the twin would override it,
    /// or be overridden by it, without `override` ("overriding declaration requires an
    /// 'override' keyword"), and an extension's member cannot be overridden at all.
    /// (`async`: the twin is async, and clashes with async methods; otherwise with the others.)
    static func clash(of site: FunctionSite, with everySite: [FunctionSite], project: Project, async: Bool = true) -> SkipReason? {
        guard let container = site.container.map(Project.unqualified), project.facts(of: container)?.isClass == true else { return nil }
        for other in everySite where other.isAsync == async && !other.isLocal && other.name == site.name && other.labels == site.labels {
            guard let owner = other.container.map(Project.unqualified), owner != container,
                  project.facts(of: owner)?.isClass == true else { continue }
            let kind: String
            if project.ancestors(of: owner).contains(container) {
                kind = "subclass"
            } else if project.ancestors(of: container).contains(owner) {
                kind = "superclass"
            } else {
                continue
            }
            // Why no twin can be written at all (an async twin: the twin's meaning would change).
            let rule = !async ? "" : " (Swift makes a subclass's method of the same name and types an override of the superclass's, "
                + "and a `final` one forbids it): async callers of `\(kind == "subclass" ? container : owner)` would run "
                + (kind == "subclass" ? "the subclass's async method, not the promise's code" : "the twin, not its async method")
                + ", and a twin of another name is not one callers find"
            return SkipReason(
                "the \(kind) `\(owner)` already has \(async ? "an async" : "a synchronous") `\(site.signature)` "
                    + "(\(other.file.path):\(other.line)), "
                    + "which the twin would \(kind == "subclass" ? "turn into an override" : "override") without `override`\(rule); "
                    + "write this twin by hand if it should be one"
            )
        }
        return nil
    }

    /// Whether a constrained `extension Promise` makes its `Error` an error the twin can await:
    /// with the compiler, any constraint on `Error` (the proof checks it); from syntax alone,
    /// `Error == E` or `Error: P` for an `E` or `P` known to be an Error.
    private static func constrainsError(_ scope: TypeScope, project: Project) -> Bool {
        let constraints = scope.whereClause?.requirements.compactMap { requirement -> String? in
            if let same = requirement.requirement.as(SameTypeRequirementSyntax.self), same.leftType.trimmedDescription == "Error" {
                return same.rightType.trimmedDescription
            }
            if let conformance = requirement.requirement.as(ConformanceRequirementSyntax.self),
               conformance.leftType.trimmedDescription == "Error" {
                return conformance.rightType.trimmedDescription
            }
            return nil
        } ?? []
        if project.compiler != nil { return !constraints.isEmpty }
        return constraints.contains { constraint in
            constraint.split(separator: "&").map { $0.trimmingCharacters(in: .whitespaces) }.contains { project.isKnownError($0) }
        }
    }

    /// Whether `error` is an `Error`: known ones, or a generic parameter constrained to it.
    private static func isError(_ error: String, in site: FunctionSite, project: Project) -> Bool {
        if project.isKnownError(error) { return true }
        let constraints = (site.decl.genericParameterClause?.parameters.compactMap { parameter in
            parameter.name.text == error ? parameter.inheritedType?.trimmedDescription : nil
        } ?? []) + (site.decl.genericWhereClause?.requirements.compactMap { requirement -> String? in
            guard let conformance = requirement.requirement.as(ConformanceRequirementSyntax.self),
                  conformance.leftType.trimmedDescription == error else { return nil }
            return conformance.rightType.trimmedDescription
        } ?? [])
        return constraints.contains { constraint in
            constraint.split(separator: "&").map { $0.trimmingCharacters(in: .whitespaces) }.contains { project.isKnownError($0) }
        }
    }

    /// The twin's text, indented like `site`. A `nonsending` twin is declared
    /// `nonisolated(nonsending)`: it runs on its caller's actor, so a `@MainActor` caller can
    /// await it on a non-Sendable receiver or with non-Sendable arguments in Swift 6 mode
    /// (nothing is sent to another isolation domain).
    static func twinText(for site: FunctionSite, nonsending: Bool) -> String {
        let promise = site.promise!
        let originalThrows = site.decl.signature.effectSpecifiers?.throwsClause != nil
        let effects = promise.hasNoError && !originalThrows ? "async throws(CancellationError)" : "async throws"
        let awaited = promise.kind == .tokenPromise ? ".inner.value" : ".value"
        let result = ["Void", "()", "Swift.Void"].contains(promise.value) ? "" : " -> \(promise.value)"
        // A requirement's twin, in an extension, is as visible as the protocol.
        let access = site.inProtocol
            ? site.decl.enclosingProtocol?.modifiers.first { ["public", "package"].contains($0.name.text) }?.name.text
            : nil
        let modifiers = [access, nonsending ? "nonisolated(nonsending)" : nil].compactMap { $0 }
        return Twins.twin(
            of: site, adapt: adaptReturns, note: note(for: site, promise: promise), effectsAndResult: effects + result,
            extraModifier: modifiers.isEmpty ? nil : modifiers.joined(separator: " "),
            droppingAttributes: result.isEmpty ? ["discardableResult"] : [],
            body: { call, width in
                let line = "try await (\(call) as \(promise.spelled))\(awaited)"
                guard line.count > width else { return line }
                let inner = "    \(call) as \(promise.spelled)"
                let wrapped = inner.count <= width ? inner : "    " + Twins.wrappedCall(call, indent: "    ") + " as \(promise.spelled)"
                return "try await (\n\(wrapped)\n)\(awaited)"
            }
        )
    }

    private static func note(for site: FunctionSite, promise: PromiseType) -> [String] {
        let throwing =
            if promise.hasNoError {
                "Throws only `CancellationError`, when that promise is cancelled;"
            } else if promise.hasUntypedError {
                "Throws the promise's error, or `CancellationError` when it is cancelled;"
            } else {
                "Throws the promise's `\(promise.error)`, or `CancellationError` when it is cancelled;"
            }
        var note = [
            "Async twin of `\(site.signature)` (added by tomorrowland-migrate): awaits the promise it returns.",
            "\(throwing) cancelling the awaiting Task requests cancellation of the promise.",
        ]
        let tokens = site.decl.signature.parameterClause.parameters.filter {
            $0.type.trimmedDescription.hasSuffix("PromiseInvalidationToken")
        }
        if promise.kind == .tokenPromise, let token = tokens.first?.parameterName {
            note.append(
                "`\(token)` is still passed on: awaiting registers no callback it could invalidate, "
                    + "but the original may use it for its work."
            )
        }
        return note
    }

    /// `- Returns: A promise that resolves with the user.` → `- Returns: The user.`
    private static func adaptReturns(_ line: String) -> String {
        guard let marker = line.range(of: "- Returns:") else { return line }
        var rest = line[marker.upperBound...].trimmingCharacters(in: .whitespaces)
        let prefixes = [
            "a promise that resolves with ", "a promise that is fulfilled with ", "a promise that fulfills with ",
            "a promise resolving to ", "a promise of ", "a promise for ", "a promise with ",
            "the promise of ", "a `promise` of ",
        ]
        for prefix in prefixes where rest.lowercased().hasPrefix(prefix) {
            rest = String(rest.dropFirst(prefix.count))
            rest = rest.prefix(1).uppercased() + rest.dropFirst()
            break
        }
        return String(line[..<marker.upperBound]) + " " + rest
    }
}

/// A parameter as a call sees it.
struct ParameterShape: Sendable {
    /// The argument label, nil for `_`.
    let label: String?
    let hasDefault: Bool
    /// Of function type: a trailing closure can fill it.
    let isFunction: Bool

    init(_ parameter: FunctionParameterSyntax) {
        label = parameter.argumentLabel
        hasDefault = parameter.defaultValue != nil
        isFunction = parameter.type.isFunctionType
    }
}

/// Matching the labels of a call against a declaration with default arguments.
enum CallMatching {
    /// Whether a call written with `labels` (from `Calls.labels(of:)`) can call `decl`.
    static func labels(_ labels: [String?], canCall decl: FunctionDeclSyntax) -> Bool {
        self.labels(labels, canCall: decl.signature.parameterClause.parameters.map(ParameterShape.init))
    }

    /// Whether a call written with `labels` can call a function with `parameters`: parameters
    /// with defaults may be left out; a trailing closure fills the next parameter of function type.
    static func labels(_ labels: [String?], canCall parameters: [ParameterShape]) -> Bool {
        var index = 0
        for label in labels {
            if label == Calls.trailingClosure {
                while index < parameters.count, !parameters[index].isFunction, parameters[index].hasDefault {
                    index += 1
                }
                guard index < parameters.count, parameters[index].isFunction else { return false }
            } else {
                while index < parameters.count, parameters[index].label != label, parameters[index].hasDefault {
                    index += 1
                }
                guard index < parameters.count, parameters[index].label == label else { return false }
            }
            index += 1
        }
        return parameters[index...].allSatisfy(\.hasDefault)
    }
}

extension TypeSyntax {
    /// `(A) -> B`, possibly `@escaping`, `@Sendable` or optional.
    var isFunctionType: Bool { trimmedDescription.contains("->") }
}

/// Adding `import TomorrowlandAsync` next to `import Tomorrowland`.
enum Imports {
    static func addAsyncImport(to file: ParsedFile) -> OwnedEdit? {
        var tomorrowland: ImportDeclSyntax?
        for item in file.tree.statements {
            guard let declaration = item.item.as(ImportDeclSyntax.self) else { continue }
            let module = declaration.path.trimmedDescription
            if module == "TomorrowlandAsync" { return nil }
            if module == "Tomorrowland" { tomorrowland = declaration }
        }
        guard let tomorrowland else { return nil }
        return OwnedEdit(owner: nil, edit: .insert("\nimport TomorrowlandAsync", at: tomorrowland.endPositionBeforeTrailingTrivia))
    }
}

/// An edit made for the calls of one function name (nil: for the file as a whole).
struct OwnedEdit {
    let owner: String?
    let edit: TextEdit
    /// The twins the inserted text holds: where each is in `edit.text` (UTF-8 offsets).
    var twins: [(range: Range<Int>, key: AddAsyncTwins.CandidateKey)] = []
}
