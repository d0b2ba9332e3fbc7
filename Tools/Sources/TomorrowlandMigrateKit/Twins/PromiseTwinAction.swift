// `add-promise-twins`' action: a promise-returning twin next to an async function.

import SwiftSyntax

/// The promise twin of one async function (marked `// tomorrowland-migrate: promise-twin`,
/// or any with `all`). Its precondition is what the syntax and the project's facts say about
/// the function (Sendable `self` and parameters, not a test or an entry point); its edit
/// inserts the twin after the function.
struct PromiseTwinAction: MigrationAction {
    let project: Project
    /// Every function of the set: an existing twin, a clash.
    let everySite: [FunctionSite]
    /// Every async function, not only the marked ones.
    let all: Bool

    /// Whether `site` gets a twin; not applicable when it is not a chosen async function, or
    /// has a twin or is one.
    func precondition(_ site: FunctionSite) -> Outcome<Void> {
        guard site.isAsync, !site.inProtocol, all || site.decl.leadingTrivia.hasMarker else { return .notApplicable }
        switch decide(site) {
        case .add: return .holds(())
        case .alreadyDone: return .notApplicable
        case .skip(let reason): return .declines(reason)
        }
    }

    /// The twin's text, inserted after the function.
    func edit(_ site: FunctionSite, _ facts: Void) -> Outcome<TextEdit> {
        .holds(.insert("\n\n" + AddPromiseTwins.twinText(for: site, project: project), at: site.decl.endPositionBeforeTrailingTrivia))
    }

    /// The note that says why `site` gets no twin.
    func note(_ site: FunctionSite, _ reason: SkipReason) -> MigrationNote {
        MigrationNote(path: site.file.path, line: site.line, message: "\(site.signature): no promise twin: \(reason.text)")
    }

    /// Whether `site` gets a twin: it has one or is one, or the first reason it cannot.
    private func decide(_ site: FunctionSite) -> TwinDecision {
        if everySite.contains(where: { !$0.isAsync && $0.promise != nil && $0.overloads(site) && $0.hasParameterTypes(of: site) }) {
            return .alreadyDone // idempotent
        }
        if Twins.forwardedName(ofAsyncTwin: site.decl) == site.name { return .alreadyDone } // itself an async twin
        let reason = entryPoint(site)
            ?? Twins.commonSkipReason(site, project: project)
            ?? AddAsyncTwins.clash(of: site, with: everySite, project: project, async: false)
            ?? testMethod(site)
            ?? mutating(site)
            ?? nonSendableSelf(site)
            ?? nonSendableParameter(site)
        return reason.map(TwinDecision.skip) ?? .add
    }

    /// A program's entry point: a same-named overload would make `@main` ambiguous.
    private func entryPoint(_ site: FunctionSite) -> SkipReason? {
        guard site.name == "main", site.labels.isEmpty, site.decl.modifiers.contains(where: { $0.name.text == "static" }) else { return nil }
        return SkipReason("a program's entry point: a same-named overload would make `@main` ambiguous")
    }

    /// A test method: only the test runner calls it.
    private func testMethod(_ site: FunctionSite) -> SkipReason? {
        guard Self.isTestMethod(site, project: project) else { return nil }
        return SkipReason("a test method: the test runner calls it, no promise-style caller can")
    }

    /// A mutating method: the twin's Task cannot hold on to `self`.
    private func mutating(_ site: FunctionSite) -> SkipReason? {
        guard site.decl.modifiers.contains(where: { $0.name.text == "mutating" }) else { return nil }
        return SkipReason("mutating: the Task the twin starts cannot hold on to `self`; write a twin by hand")
    }

    /// A `self` not known to be Sendable: the twin's Task cannot capture it in Swift 6 mode.
    private func nonSendableSelf(_ site: FunctionSite) -> SkipReason? {
        guard !project.selfIsSendable(in: site) else { return nil }
        return SkipReason(
            "`\(site.container ?? "")` is not known to be Sendable (not declared so, not an actor, not on a global actor): "
                + "in Swift 6 mode the Task the twin starts cannot capture `self`"
        )
    }

    /// A parameter the twin's Task cannot capture in Swift 6 mode.
    private func nonSendableParameter(_ site: FunctionSite) -> SkipReason? {
        guard let parameter = project.nonSendableParameter(of: site) else { return nil }
        return SkipReason(
            "parameter `\(parameter.parameterName ?? "_")` (`\(parameter.type.trimmedDescription)`) \(Project.captureProblem(of: parameter)): "
                + "in Swift 6 mode the Task the twin starts cannot capture it"
        )
    }

    /// An XCTest `test…()` method of an `XCTestCase` subclass, or a swift-testing `@Test` function.
    static func isTestMethod(_ site: FunctionSite, project: Project) -> Bool {
        if site.decl.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "Test" }) { return true }
        guard site.name.hasPrefix("test"), site.labels.isEmpty, let container = site.container else { return false }
        return project.ancestors(of: container).contains("XCTestCase") || container.hasSuffix("Tests")
    }
}
