// delete-twins' rewrite of one twin (DeleteTwins): a twin add-async-twins or add-promise-twins
// wrote is deleted when nothing calls it, as the compiler's references show, and nothing the
// compiler did not see may: a protocol requirement it may witness, an inactive `#if` clause
// naming it. A public twin stays unless asked (clients outside the package may call it).

import SwiftSyntax

/// The deletion of one tool-written twin that nothing calls.
struct TwinDeletionAction: MigrationAction {
    /// Where each declaration is referenced (`path:line`), by `key`.
    let places: [String: [String]]
    /// One key for a declaration that several modules compile (`DeleteTwins.sharedDeclarations`).
    let sameDeclaration: [String: String]
    /// The protocol requirements of the scanned files, by `FunctionSite.witnessKey`.
    let requirements: Set<String>
    /// The names in inactive `#if` clauses, with where (`DeleteTwins.inactiveMentions`).
    let inactive: [String: [String]]
    /// Whether a public, open or package twin is deleted too (`--include-public`).
    let includingPublic: Bool

    /// The action for the scanned `set`, with the compiler's `facts`.
    init(_ set: SourceSet, facts: CompilerFacts, includingPublic: Bool, sameDeclaration: [String: String] = [:]) {
        self.sameDeclaration = sameDeclaration
        places = DeleteTwins.referencePlaces(in: set, facts: facts) { sameDeclaration[$0] ?? $0 }
        requirements = Set(set.files.flatMap(FunctionSite.all(in:)).filter { $0.decl.enclosingProtocol != nil }.map(\.witnessKey))
        inactive = DeleteTwins.inactiveMentions(in: set, facts: facts)
        self.includingPublic = includingPublic
    }

    /// A tool-written twin that nothing calls, witnesses nothing, is named in no inactive clause
    /// and is not public (unless asked): its declaration. Declines with the first that holds.
    func precondition(_ pair: TwinPair) -> Outcome<FunctionSite> {
        let site = pair.twinSite
        guard TwinPairs.isWrittenByTheTool(site) else { return .notApplicable }
        if let reason = called(pair) ?? witness(site) ?? namedInactive(site) ?? publicTwin(site) { return .declines(reason) }
        return .holds(site)
    }

    /// The twin to delete (`DeleteTwins.changes(deleting:)` writes the deletions).
    func edit(_ pair: TwinPair, _ site: FunctionSite) -> Outcome<FunctionSite> {
        .holds(site)
    }

    /// Kept: the compiler's references name the twin somewhere.
    func called(_ pair: TwinPair) -> SkipReason? {
        guard let callers = places[sameDeclaration[pair.twinUSR] ?? pair.twinUSR], !callers.isEmpty else { return nil }
        return SkipReason(DeleteTwins.Reason.called(at: callers))
    }

    /// Kept: a protocol requirement has the twin's name, labels and `async` (it may be its witness).
    func witness(_ site: FunctionSite) -> SkipReason? {
        requirements.contains(site.witnessKey) ? SkipReason(DeleteTwins.Reason.witness) : nil
    }

    /// Kept: an inactive `#if` clause names it.
    func namedInactive(_ site: FunctionSite) -> SkipReason? {
        inactive[site.name].map { SkipReason(DeleteTwins.Reason.inactive(at: $0)) }
    }

    /// Kept: public, open or package, unless asked.
    func publicTwin(_ site: FunctionSite) -> SkipReason? {
        guard !includingPublic, site.decl.modifiers.contains(where: { ["public", "open", "package"].contains($0.name.text) }) else { return nil }
        return SkipReason(DeleteTwins.Reason.isPublic)
    }

    /// The note of a twin kept.
    func kept(_ pair: TwinPair, _ reason: SkipReason) -> ConvertCalls.Left {
        let site = pair.twinSite
        let text = "`\(site.signature)` (\(pair.twin == .async ? "async" : "promise") twin)"
        return ConvertCalls.Left(path: site.file.path, line: site.line, text: text, reason: reason.text)
    }
}
