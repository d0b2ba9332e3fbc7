// `convert-body`'s action: one promise-returning function whose body is a chain. Its
// precondition is the sequence of checks below, each a function that returns the reason the
// chain stays (the user reads it in a note); its edit (ConvertBody+ChainBodyEdit.swift) moves
// the chain into the async twin (or a conformer's or an override's own async method) and makes
// the promise version its wrapper, or deletes the promise version when that is the way to go.

import SwiftSyntax

/// The rewrite of one promise-returning function whose body is a chain: the chain becomes its
/// async twin's straight-line code and the promise version its wrapper (or goes).
struct ChainBodyAction: MigrationAction {
    typealias Site = FunctionSite
    typealias Conversion = ConvertBody.Conversion

    /// What the precondition established about one chain, which its edit needs.
    struct Facts {
        let promise: PromiseType
        let body: CodeBlockSyntax
        /// The async twin that still forwards to the promise function: its body is replaced.
        var twin: FunctionSite?
        /// A protocol requirement's implementation, which gets an async method of its own.
        var conformer = false
        /// For an override that gets an async override of its own: the twin of the method it overrides.
        var overridden: FunctionSite?
        /// The base this override is converted with, or the one override converted with this base
        /// (ConvertBody+Pairs.swift).
        var pairedBase: FunctionSite?
        var paired: FunctionSite?
        /// The calls of the requirement's (or overridden method's) twin its new async method takes.
        var retargeted: [(path: String, offset: Int)] = []
        /// The Swift 5 rule's note: the wrapper captures what the chain's closures captured.
        var captured: MigrationNote?
        /// Why a wrapper cannot be written, for a chain that goes without one if nothing else
        /// calls its promise version.
        var sendableReason: String?
        /// Such a chain the Swift 5 rule lets keep a wrapper when its promise version is still called.
        var wrappable = false
    }

    /// What the action makes of one chain.
    enum Edit {
        /// The twin holds the chain, the promise version wraps it (with the Swift 5 rule's note).
        case wrapped(Conversion, captured: MigrationNote?)
        /// The promise version goes if nothing else calls it, decided once every chain is planned
        /// (`ConvertBody.settleWithoutWrapper`); `wrappable`: `Facts.wrappable`.
        case withoutWrapper(ConvertBody.Candidate, wrappable: Bool)
    }

    let planning: ConvertBody.Planning
    /// The conversions planned before this site: two never claim one text, and a file gets its
    /// `import TomorrowlandAsync` once.
    var planned: [Conversion] = []

    /// The checks in order; the first that finds a reason declines. A function that is no chain
    /// (or is a promise twin, or a wrapper already) is not this action's.
    func precondition(_ site: FunctionSite) -> Outcome<Facts> {
        guard var facts = chain(of: site) else { return .notApplicable }
        findAsyncMethod(of: site, &facts)
        if let reason = reasonWithoutAsyncMethod(site, facts) { return .declines(reason) }
        facts.pairedBase = facts.overridden == nil ? nil : ConvertBody.pairedBase(
            of: site, everySite: planning.everySite, forwarding: planning.forwarding, project: planning.project, set: planning.set,
            unpaired: planning.unpaired
        )
        facts.paired = facts.twin == nil ? nil : ConvertBody.pairedOverride(
            of: site, everySite: planning.everySite, forwarding: planning.forwarding, project: planning.project, set: planning.set,
            unpaired: planning.unpaired
        )
        if let reason = reasonOverrideCallsSuper(site, facts) ?? reasonOverriddenByPromiseOnly(site, facts) { return .declines(reason) }
        switch callsTaken(by: site, facts) {
        case .failure(let reason): return .declines(reason)
        case .success(let places): facts.retargeted = places
        }
        return sendableRule(site, facts)
    }

    /// The facts of a promise-returning function whose body is a chain (not a promise twin of an
    /// async function, nor a wrapper convert-body wrote), or nil.
    func chain(of site: FunctionSite) -> Facts? {
        guard !site.isAsync, !site.isLocal, !site.inProtocol, let promise = site.promise, let body = site.decl.body,
              ChainConversion.isChain(body) else { return nil }
        if Twins.forwardedName(ofPromiseTwin: site.decl) == site.name || ConvertBody.isWrapper(body) { return nil }
        return Facts(promise: promise, body: body)
    }

    /// Where the chain goes: its async twin in the same file (overloads of one name and labels
    /// differ by their parameter types, `to: Balance`, `to: BalanceBox`); for a protocol
    /// requirement's implementation, an async method of its own (the requirement's twin in the
    /// protocol's extension serves callers of the protocol, the conformer's method callers of
    /// the conformer); for an override, an async override of its own.
    func findAsyncMethod(of site: FunctionSite, _ facts: inout Facts) {
        let parameterTypes = AddAsyncTwins.key(site).parameters
        facts.twin = planning.forwarding.first {
            $0.overloads(site) && $0.file.path == site.file.path && AddAsyncTwins.key($0).parameters == parameterTypes
        }
        facts.conformer = facts.twin == nil && planning.requirements.contains(site.witnessKey) && site.container != nil
            && !Self.isOverride(site) && !planning.requirementTwins(of: site).isEmpty && !planning.hasAsyncOverload(site)
        facts.overridden = facts.twin == nil && !facts.conformer ? ConvertBody.overriddenTwin(
            of: site, everySite: planning.everySite, forwarding: planning.forwarding, project: planning.project, set: planning.set
        ) : nil
    }

    /// Why the chain has nowhere to go (no twin, not a conformer, not an override that gets an
    /// async override), or nil when it has.
    func reasonWithoutAsyncMethod(_ site: FunctionSite, _ facts: Facts) -> SkipReason? {
        guard facts.twin?.decl.body == nil, !facts.conformer, facts.overridden == nil else { return nil }
        if let reason = ConvertBody.reasonWithoutTwin(of: site, facts.promise, everySite: planning.everySite, project: planning.project) {
            return SkipReason(reason)
        }
        if Self.isOverride(site) {
            // The twin of the overridden method awaits the promise method, dispatched dynamically: an async
            // override's `super` call would reach that twin, and through it this override again.
            let callsSuper = facts.body.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.super) }
            return SkipReason("an override that cannot get an async override of its own: the base has no twin that awaits its promise "
                + "method, or the base's promise code is a chain or a wrapper (an async override would be reached from it by "
                + "dynamic dispatch" + (callsSuper ? ", and its `super` call would come back here" : "")
                + "), or another override lies between them or below")
        }
        if planning.hasAsyncOverload(site) { return SkipReason("its async twin no longer forwards to it (written by hand?)") }
        return SkipReason("no async twin of its own (run add-async-twins first; a protocol requirement's implementation has none)")
    }

    /// A base (not converted with its one override) that an override calls through `super`,
    /// while no override is left behind with a promise method only: the reason, or nil.
    func reasonOverrideCallsSuper(_ site: FunctionSite, _ facts: Facts) -> SkipReason? {
        guard facts.twin != nil, facts.paired == nil,
              ConvertBody.overrideLeftBehind(of: site, everySite: planning.everySite, project: planning.project) == nil,
              let other = ConvertBody.overrideCallingSuper(of: site, everySite: planning.everySite, project: planning.project) else { return nil }
        return SkipReason(ConvertBody.superCallReason(site, override: other))
    }

    /// A base (not converted with its one override) overridden by a method with a promise
    /// version only: the reason, or nil.
    func reasonOverriddenByPromiseOnly(_ site: FunctionSite, _ facts: Facts) -> SkipReason? {
        guard facts.twin != nil, facts.paired == nil,
              let other = ConvertBody.overrideLeftBehind(of: site, everySite: planning.everySite, project: planning.project) else { return nil }
        return SkipReason("overridden by `\(other.container ?? "")` with a promise method only: async callers of that type would run this code, "
            + "not the override's (the twin, which awaited the promise method, reached the override by dynamic dispatch)")
    }

    /// For a conformer or an override (with the compiler's references): the calls of the
    /// requirement's twin (or the overridden method's) on its own type that its new async method
    /// takes, or why it cannot take them. None otherwise.
    func callsTaken(by site: FunctionSite, _ facts: Facts) -> Result<[(path: String, offset: Int)], SkipReason> {
        guard facts.conformer || facts.overridden != nil, let callers = planning.callers else { return .success([]) }
        switch ConvertBody.callsOfRequirementTwin(
            on: site, twins: facts.overridden.map { [$0] } ?? planning.requirementTwins(of: site),
            project: planning.project, callers: callers, set: planning.set, sharedModules: planning.sharedModules
        ) {
        case .failure(let reason):
            let taken = facts.overridden == nil ? "the requirement's twin" : "the twin of the method it overrides"
            return .failure(SkipReason("no async twin of its own; one would take the calls of \(taken) on `\(site.container ?? "")` (\(reason.text))"))
        case .success(let places):
            return .success(places)
        }
    }

    /// The Sendable rule (`ConvertBody.reasonToLeave`): a wrapper that would capture what Swift 6
    /// mode rejects is not written. A conformer's promise version stays (it answers the
    /// protocol's callers): its wrapper is written only under the Swift 5 rule (a wrapper that
    /// captures what the chain's closures captured). Another chain goes without a wrapper when
    /// it may (`mayGoWithoutWrapper`), or keeps one under the Swift 5 rule.
    func sendableRule(_ site: FunctionSite, _ facts: Facts) -> Outcome<Facts> {
        var facts = facts
        let project = planning.project
        if facts.conformer, let reason = ConvertBody.reasonToLeave(site, facts.promise, project: project) {
            facts.captured = capturedByTheChain(site, facts)
            if facts.captured == nil {
                return .declines(SkipReason(reason + " (a protocol requirement's implementation: its promise version stays)"))
            }
        }
        guard facts.captured == nil, let reason = ConvertBody.reasonToLeave(site, facts.promise, project: project) else { return .holds(facts) }
        let mayGo = mayGoWithoutWrapper(site, facts.promise)
        let capturedAlready = capturedByTheChain(site, facts)
        if let capturedAlready, !mayGo || planning.rule?.wrapping.contains(project.usr(of: site) ?? "") == true {
            facts.captured = capturedAlready
            return .holds(facts)
        }
        guard mayGo else { return .declines(SkipReason(reason)) }
        facts.sendableReason = reason
        facts.wrappable = capturedAlready != nil
        return .holds(facts)
    }

    /// Whether the promise version may go instead of becoming a wrapper: only a capture Swift 6
    /// mode rejects stops the wrapper (without one there is no Task to capture it), and it is
    /// not one a subclass overrides or a protocol requirement may name (neither is a reference).
    func mayGoWithoutWrapper(_ site: FunctionSite, _ promise: PromiseType) -> Bool {
        let overridden = planning.everySite.contains { other in
            other.overloads(site) == false && other.name == site.name && other.labels == site.labels && Self.isOverride(other)
        }
        return planning.callers != nil && ConvertBody.reasonToLeave(site, promise, project: planning.project, sendableChecked: false) == nil
            && !overridden && !planning.requirements.contains(site.witnessKey)
            && !site.decl.modifiers.contains(where: { ["override", "dynamic"].contains($0.name.text) })
            && (site.decl.attributes.isEmpty || !site.decl.attributes.trimmedDescription.contains("@objc"))
    }

    /// The Swift 5 rule's note for `site`'s wrapper, or nil (ConvertBody+SwiftFive.swift).
    func capturedByTheChain(_ site: FunctionSite, _ facts: Facts) -> MigrationNote? {
        ConvertBody.capturedByTheChain(site, facts.promise, body: facts.body, project: planning.project, rule: planning.rule)
    }

    /// Whether `site` is declared `override`.
    static func isOverride(_ site: FunctionSite) -> Bool {
        site.decl.modifiers.contains { $0.name.text == "override" }
    }
}
