// `add-async-twins`' second action: a call whose meaning a twin would change keeps calling
// the promise-returning function, pinned with `as PromiseType`.

import SwiftSyntax

/// The pin of one call of a function that gets (or has) an async twin. Its precondition is
/// the declarations the call may mean (the compiler's callee; from syntax, the functions its
/// labels and receiver can reach) and the promise type it would be pinned to; its edit is
/// `as T`. It declines (syntax only, in async code) when no single type can be written: then
/// the twins the call may pick are rejected.
struct CallPinAction: MigrationAction {
    /// What the precondition established about a call.
    struct Facts {
        /// The twinned functions the call may mean.
        let matching: [FunctionSite]
        /// The promise type a pin would name.
        let pinType: String
        /// Whether `pinType` can be written at the call.
        let spellable: Bool
        /// How many promise types (or async functions) the call may mean.
        let typeCount: Int
    }

    /// A pin: its edits, and the note that says so (owned by the called name: a pin of a
    /// function whose twin is rejected later is not needed, nor said).
    struct Pin {
        let edits: [OwnedEdit]
        let owner: String
        let note: MigrationNote
    }

    let project: Project
    /// Twinned functions (new twins and existing ones) by name.
    let byName: [String: [FunctionSite]]
    /// Requirements with a twin: their implementations are the requirement, dynamically.
    let twinnedRequirements: [FunctionSite]
    /// The functions whose twin exists already.
    let alreadyTwinnedIDs: Set<SyntaxIdentifier>
    /// Every function by the compiler's USR (the first of each).
    let sitesByUSR: [String: FunctionSite]
    /// Every function of a twinned name, the twins themselves aside: what a call may mean.
    let sameName: [String: [FunctionSite]]
    /// The name offsets of the calls the proof asked to pin, by file.
    let forced: [String: [Int]]

    /// The action for `candidates` (functions that get a twin) and `alreadyTwinned` (ones
    /// that have one), among `everySite`. Everything is looked up by name, USR or declaration,
    /// never by a scan of every site per site or call (quadratic in a package's functions:
    /// most of the planning's time at 100,000 lines).
    init(project: Project, decisions: ProofDecisions, candidates: [FunctionSite], alreadyTwinned: [FunctionSite], everySite: [FunctionSite]) {
        self.project = project
        let byName = Dictionary(grouping: candidates + alreadyTwinned, by: \.name)
        self.byName = byName
        twinnedRequirements = (candidates + alreadyTwinned).filter(\.inProtocol)
        alreadyTwinnedIDs = Set(alreadyTwinned.map(\.decl.id))
        var sitesByUSR: [String: FunctionSite] = [:]
        for site in everySite { if let usr = project.usr(of: site), sitesByUSR[usr] == nil { sitesByUSR[usr] = site } }
        self.sitesByUSR = sitesByUSR
        // Every function of these names: a call may mean one that gets no twin (another type's
        // method with the same name, an async function), and then no single type pins it.
        // The twins themselves are not other functions.
        let twinSites = Set(everySite.filter { site in
            site.isAsync && (byName[site.name] ?? []).contains { $0.overloads(site) && $0.hasParameterTypes(of: site) }
        }.map(\.decl.id))
        sameName = Dictionary(grouping: everySite.filter { byName[$0.name] != nil && !twinSites.contains($0.decl.id) }, by: \.name)
        forced = Dictionary(grouping: decisions.forcedPins, by: \.path).mapValues { $0.map(\.nameOffset) }
    }

    /// The calls of twinned names in `file` whose result type nothing pins down (with pinned
    /// ones too when the proof asked to pin some there).
    func sites(in file: ParsedFile) -> [UnsafeCall] {
        let finder = UnsafeCallFinder(file: file, names: Set(byName.keys), includingPinned: !(forced[file.path] ?? []).isEmpty)
        finder.walk(file.tree)
        return finder.found
    }

    /// The functions the call may mean and the type a pin would name; not applicable when it
    /// means no twinned function, or only an existing twin's function under `await`.
    func precondition(_ found: UnsafeCall) -> Outcome<Facts> {
        // A call the proof found changed is pinned even where the syntax looked settled.
        let forced = self.forced[found.file.path] ?? []
        if !forced.isEmpty, UnsafeCallFinder.isPinned(found.call), !UnsafeCallFinder.readsAmbiguousMember(found.call),
           !forced.contains(Calls.nameOffset(of: found.call)) { return .notApplicable }
        let receiver = project.receiver(of: found.call, in: found.file)
        // The compiler names the one declaration the call means; the syntax, those it may.
        let callee = project.callee(nameAt: Calls.nameOffset(of: found.call), in: found.file.path)
        let matching = matching(found, receiver: receiver, callee: callee)
        guard !matching.isEmpty else { return .notApplicable }
        // A twin already in place: a call under `await` already means it (written for it,
        // or already reading it), and pinning it would change that; a call without
        // `await` no longer compiles, and the pin restores the promise it meant.
        let onlyExisting = matching.allSatisfy { alreadyTwinnedIDs.contains($0.decl.id) }
        if onlyExisting, Calls.isUnderAwait(Syntax(found.call)) { return .notApplicable }
        let possible = possible(found, receiver: receiver, callee: callee, matching: matching)
        return .holds(pinFacts(found, matching: matching, possible: possible))
    }

    /// `as T` when `T` can be written; declines in async code, syntax only, with why not.
    /// (With the compiler, the proof decides: only a call that would really change its
    /// meaning costs the function its twin.)
    func edit(_ found: UnsafeCall, _ facts: Facts) -> Outcome<Pin> {
        if facts.spellable {
            let note = MigrationNote(path: found.file.path, line: found.file.line(of: found.call), message: """
                `\(found.shortText)` gets `as \(facts.pinType)` so that it keeps calling the promise-returning \(found.name)
                """)
            return .holds(Pin(edits: found.edits(coercingTo: facts.pinType), owner: found.name, note: note))
        }
        guard found.context == .async, project.compiler == nil else { return .notApplicable }
        return .declines(SkipReason(facts.typeCount == 1 ? "its promise type cannot be written there" : "it may also mean another function of that name"))
    }

    /// The twinned functions the call may mean: with the compiler, the declaration it names,
    /// the requirement that declaration implements (whose twin in the protocol's extension
    /// the conformer gets too) or the method it overrides (the twin reaches it dynamically,
    /// and captures its calls); from syntax, those its labels and receiver can reach.
    private func matching(_ found: UnsafeCall, receiver: Receiver, callee: String?) -> [FunctionSite] {
        let labels = Calls.labels(of: found.call)
        let calleeSite = callee.flatMap { sitesByUSR[$0] }
        let compiled = project.compiledFile(found.file.path) != nil
        return (byName[found.name] ?? []).filter { site in
            if compiled {
                return callee != nil && (project.usr(of: site) == callee
                    || site.inProtocol && calleeSite.map { project.implements($0, site) } == true
                    || calleeSite.map { project.overrides($0, site) } == true)
            }
            return CallMatching.labels(labels, canCall: site.decl) && project.receiver(receiver, reaches: site.container)
        }
    }

    /// Every function the call may mean, twinned or not. Implementations of a twinned
    /// requirement are that requirement, dynamically; the receiver's own type's declaration
    /// is the one called (an override included); otherwise overrides are the method they override.
    private func possible(_ found: UnsafeCall, receiver: Receiver, callee: String?, matching: [FunctionSite]) -> [FunctionSite] {
        if callee != nil { return matching }
        let labels = Calls.labels(of: found.call)
        var possible = (sameName[found.name] ?? []).filter { site in
            CallMatching.labels(labels, canCall: site.decl) && project.receiver(receiver, reaches: site.container)
                && !(!site.inProtocol && twinnedRequirements.contains { project.implements(site, $0) })
        }
        if let own = receiver.typeName, possible.contains(where: { $0.container == own }) {
            possible = possible.filter { $0.container == own }
        } else {
            possible.removeAll { $0.decl.modifiers.contains { $0.name.text == "override" } }
        }
        return possible
    }

    /// The promise type of the pin and whether it can be written: one type among the
    /// possible ones, spellable here (the declaration's spelling, or the compiler's type of
    /// this call when the declaration names its generic parameters or associated types).
    private func pinFacts(_ found: UnsafeCall, matching: [FunctionSite], possible: [FunctionSite]) -> Facts {
        let types = Set(possible.map { $0.isAsync ? "(async)" : $0.promise?.canonical ?? "(not a promise)" })
        let pinSite = possible.first { !$0.isAsync && $0.promise != nil } ?? matching[0]
        var pinType = pinSite.promise!.spelled
        var spellable = types.count == 1 && project.isSpellableAnywhere(pinType)
            && project.identifiers(in: pinType).allSatisfy { !(pinSite.scope?.libraryGenericNames.contains($0) ?? false) }
        if !spellable, types.count == 1,
           let compiled = project.compiler?.spelledPromiseType(ofCallAt: Calls.nameOffset(of: found.call), in: found.file.path) {
            (pinType, spellable) = (compiled, true)
        }
        return Facts(matching: matching, pinType: pinType, spellable: spellable, typeCount: types.count)
    }
}
