// `add-async-twins`' main action: an `async` twin next to a promise-returning function (a
// protocol requirement's twin goes in an extension of the protocol).

import Foundation
import SwiftSyntax

/// The async twin of one promise-returning function. Its precondition is what the syntax, the
/// compiler's facts and the proof's earlier rounds say about the function; its edit is the
/// twin's text, placed after the function or in its protocol's extension.
struct AsyncTwinAction: MigrationAction {
    /// What the precondition found: a twin to write, or one that exists already (whose
    /// function's calls are still pinned).
    enum Facts: Equatable {
        case newTwin
        case existingTwin
    }

    /// One twin to write: its text, and where it goes.
    struct TwinEdit {
        let site: FunctionSite
        let key: AddAsyncTwins.CandidateKey
        let text: String
        /// The protocol whose extension holds the twin of a requirement; nil: after the function.
        let protocolDecl: ProtocolDeclSyntax?
    }

    let project: Project
    let decisions: ProofDecisions
    /// Every function by name: what a site's twin could meet (an existing twin, an overload,
    /// a clash), looked up once per site rather than by a scan of every site.
    let sitesNamed: [String: [FunctionSite]]
    /// The promise-returning requirements the proof did not reject: their twins serve conformers.
    let requirements: [FunctionSite]

    /// The action for a plan over `everySite` (the set's functions and the twins elsewhere).
    init(project: Project, decisions: ProofDecisions, everySite: [FunctionSite]) {
        self.project = project
        self.decisions = decisions
        sitesNamed = Dictionary(grouping: everySite, by: \.name)
        // A requirement the proof rejected serves no conformer: they get twins of their own.
        requirements = everySite.filter {
            $0.inProtocol && $0.promise != nil && !$0.isAsync && decisions.rejected[AddAsyncTwins.key($0)] == nil
        }
    }

    /// A twin to write, an existing twin, or why none: the promise type the tool cannot spell,
    /// the proof's rejection, then `decide`'s checks.
    func precondition(_ site: FunctionSite) -> Outcome<Facts> {
        if let reason = unspelledPromise(site) { return .declines(reason) }
        guard let promise = site.promise, !site.isAsync else { return .notApplicable }
        if let reason = decisions.rejected[AddAsyncTwins.key(site)] { return .declines(SkipReason(reason)) }
        let named = sitesNamed[site.name] ?? []
        switch decide(site, promise, sameName: named) {
        case .add: return .holds(.newTwin)
        case .alreadyDone:
            // Its async twin exists (not: it is itself the promise twin of an async function).
            let twinned = Twins.forwardedName(ofPromiseTwin: site.decl) != site.name
                && named.contains { $0.isAsync && $0.overloads(site) }
            return twinned ? .holds(.existingTwin) : .notApplicable
        case .skip(let reason): return .declines(reason)
        }
    }

    /// The twin's text and place; nothing for a twin that exists.
    func edit(_ site: FunctionSite, _ facts: Facts) -> Outcome<TwinEdit> {
        guard facts == .newTwin else { return .notApplicable }
        let text = AddAsyncTwins.twinText(for: site, nonsending: project.isolation(of: site) == .nonisolated)
        let protocolDecl = site.inProtocol ? site.decl.enclosingProtocol : nil
        return .holds(TwinEdit(site: site, key: AddAsyncTwins.key(site), text: text, protocolDecl: protocolDecl))
    }

    /// The note that says why `site` gets no twin.
    func note(_ site: FunctionSite, _ reason: SkipReason) -> MigrationNote {
        MigrationNote(path: site.file.path, line: site.line, message: "\(site.signature): no async twin: \(reason.text)")
    }

    /// A promise type the compiler sees and the tool cannot spell: said, not passed over.
    private func unspelledPromise(_ site: FunctionSite) -> SkipReason? {
        guard site.promise == nil, !site.isAsync, !site.isLocal, let compiled = site.file.unspelledPromises[site.decl.endOffset] else {
            return nil
        }
        return SkipReason(
            "it returns `\(compiled)` (as the compiler spells it), whose generic parameters the tool cannot name "
                + "from the declarations around it; write its twin by hand"
        )
    }

    /// Whether `site` gets a twin: it has one or is one, or the first reason it cannot.
    private func decide(_ site: FunctionSite, _ promise: PromiseType, sameName: [FunctionSite]) -> TwinDecision {
        // Its twin exists (idempotent); an async method of the same name and labels but other
        // parameter types is another overload, and the twin is added beside it.
        if sameName.contains(where: { $0.isAsync && $0.overloads(site) && $0.hasParameterTypes(of: site) }) { return .alreadyDone }
        if Twins.forwardedName(ofPromiseTwin: site.decl) == site.name { return .alreadyDone } // itself a promise twin
        let reason = servingRequirement(site)
            ?? Twins.commonSkipReason(site, project: project, asyncTwin: true)
            ?? blockingWait(site)
            ?? AddAsyncTwins.clash(of: site, with: sameName, project: project)
            ?? libraryErrorParameter(site, promise)
            ?? unknownError(site, promise)
        return reason.map(TwinDecision.skip) ?? .add
    }

    /// A conformer's method whose requirement gets a twin: that twin serves it.
    private func servingRequirement(_ site: FunctionSite) -> SkipReason? {
        guard !site.inProtocol, let requirement = requirements.first(where: { project.implements(site, $0) }) else { return nil }
        let name = requirement.container ?? ""
        return SkipReason("implements `\(name).\(requirement.signature)`: the twin in `extension \(name)` serves it")
    }

    /// A body that blocks its thread while it waits: a twin would hold a Task's thread.
    private func blockingWait(_ site: FunctionSite) -> SkipReason? {
        guard let wait = BlockingWaits.first(in: site.decl.body, of: site.file) else { return nil }
        return SkipReason(
            "blocks its thread while it waits (`\(wait.call)`, line \(wait.line)): an async twin would hold a Task's thread "
                + "for the whole wait, and on an actor (a `@MainActor` test) nothing the wait needs could run there; "
                + "its callers keep the promise"
        )
    }

    /// In `extension Promise`, an `Error` that is the library's generic parameter, not known to be an Error.
    private func libraryErrorParameter(_ site: FunctionSite, _ promise: PromiseType) -> SkipReason? {
        guard let scope = site.scope, scope.libraryGenericNames.contains(promise.error), !scope.constrainsErrorToSwiftError,
              !Self.constrainsError(scope, project: project) else { return nil }
        return SkipReason(
            "in `extension \(scope.name)`, `\(promise.error)` is the promise's generic parameter, not known to conform to "
                + "Swift.Error; move it to `extension \(scope.name) where Error: Swift.Error` to get a twin"
        )
    }

    /// From syntax alone, an error type not known to be an Error: `.value` is not available.
    /// With the compiler, the proof decides: it type-checks the twin (an associated type
    /// constrained to `Error & Sendable`, a typealias, a refined protocol all pass).
    private func unknownError(_ site: FunctionSite, _ promise: PromiseType) -> SkipReason? {
        guard project.compiler == nil, !promise.hasUntypedError, !promise.hasNoError,
              !Self.isError(promise.error, in: site, project: project) else { return nil }
        return SkipReason("`\(promise.error)` is not known to conform to Error, so `.value` is not available; await `.resolvedResult` by hand")
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
}
