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

    /// Plans the twins and the call-site rewrites for `set`, then writes nothing: the twins'
    /// preconditions, the pins of calls a twin would change (which may reject twins), the
    /// note on awaited calls of functions without a twin, then the files with their twins.
    /// `decisions`: what the compiler's proof of earlier rounds asked for (twins it rejected,
    /// calls it wants pinned); `elsewhere`: `existingTwins(around:)`.
    static func plan(_ set: SourceSet, project: Project, decisions: ProofDecisions, elsewhere: [FunctionSite]) -> Plan {
        var result = MigrationResult(problems: set.problems)
        let sites = set.files.map(FunctionSite.all(in:))
        let everySite = sites.flatMap { $0 } + elsewhere
        let twins = AsyncTwinAction(project: project, decisions: decisions, everySite: everySite)
        var (candidates, alreadyTwinned) = twinPreconditions(everySite, twins, notes: &result.notes)
        for file in set.files { result.notes += Unhandled.notes(in: file, asyncTwins: true) }
        let pins = CallPinAction(
            project: project, decisions: decisions, candidates: candidates, alreadyTwinned: alreadyTwinned, everySite: everySite
        )
        let pinned = pinCalls(in: set.files, pins, notes: &result.notes)
        candidates.removeAll { pinned.rejected.contains(key($0)) }
        let twinned = Set((candidates + alreadyTwinned).map(\.name))
        // Pins of calls of rejected functions are not needed (nothing changes for them).
        result.notes += pinned.notes.filter { twinned.contains($0.owner) }.map(\.note)
        result.notes += AwaitedUntwinnedCalls(project: project, everySite: everySite, twinned: twinned, sitesNamed: twins.sitesNamed)
            .notes(in: set.files)
        var importedInto: [String] = []
        var plannedEdits: [String: [OwnedEdit]] = [:]
        let candidatePaths = Dictionary(grouping: candidates, by: \.decl.id).mapValues { Set($0.map(\.file.path)) }
        for (index, file) in set.files.enumerated() {
            let mine = sites[index].filter { candidatePaths[$0.decl.id]?.contains(file.path) == true }
            let pinEdits = pinned.edits[file.path, default: []].filter { $0.owner.map(twinned.contains) ?? true }
            let edits = fileEdits(file, pins: pinEdits, twins: mine.compactMap { twins.edit($0, .newTwin).value }, importedInto: &importedInto)
            let updated = TextEdit.apply(edits.map(\.edit), to: file.text)
            guard !edits.isEmpty, updated != file.text else { continue }
            result.changes.append(FileChange(path: file.path, original: file.text, updated: updated))
            plannedEdits[file.path] = edits
        }
        result.notes += PackageNotes.notes(for: set, importedInto: importedInto, command: "add-async-twins")
        return Plan(result: result, edits: plannedEdits, candidates: candidates)
    }

    /// The functions that get a twin, and those whose twin exists (their calls are still
    /// pinned); a note for each that declines, in order.
    private static func twinPreconditions(
        _ everySite: [FunctionSite], _ twins: AsyncTwinAction, notes: inout [MigrationNote]
    ) -> (candidates: [FunctionSite], alreadyTwinned: [FunctionSite]) {
        var candidates: [FunctionSite] = []
        var alreadyTwinned: [FunctionSite] = []
        for site in everySite {
            switch twins.precondition(site) {
            case .holds(.newTwin): candidates.append(site)
            case .holds(.existingTwin): alreadyTwinned.append(site)
            case .declines(let reason): notes.append(twins.note(site, reason))
            case .notApplicable: break
            }
        }
        return (candidates, alreadyTwinned)
    }

    /// What the pins of a plan came to: their edits by file, their notes (said only when the
    /// function keeps its twin), and the twins that calls no pin can keep cost.
    struct PinnedCalls {
        var edits: [String: [OwnedEdit]] = [:]
        var notes: [(owner: String, note: MigrationNote)] = []
        var rejected = Set<CandidateKey>()
    }

    /// Runs `pins` over the calls of every file. A call it declines rejects the twins it may
    /// pick, with a note each (said at once, in order).
    private static func pinCalls(in files: [ParsedFile], _ pins: CallPinAction, notes: inout [MigrationNote]) -> PinnedCalls {
        var pinned = PinnedCalls()
        for file in files {
            for found in pins.sites(in: file) {
                guard let facts = pins.precondition(found).value else { continue }
                switch pins.edit(found, facts) {
                case .holds(let pin):
                    pinned.edits[file.path, default: []] += pin.edits
                    pinned.notes.append((pin.owner, pin.note))
                case .declines(let reason):
                    notes += rejectTwins(facts.matching, calledBy: found, because: reason, pins: pins, rejected: &pinned.rejected)
                case .notApplicable: break
                }
            }
        }
        return pinned
    }

    /// The twins a declined call may pick are rejected; one that exists already cannot be,
    /// and the call is left to be checked by hand. The notes that say so.
    private static func rejectTwins(
        _ matching: [FunctionSite], calledBy found: UnsafeCall, because why: SkipReason, pins: CallPinAction,
        rejected: inout Set<CandidateKey>
    ) -> [MigrationNote] {
        let (path, line) = (found.file.path, found.file.line(of: found.call))
        return matching.map { site in
            if pins.alreadyTwinnedIDs.contains(site.decl.id) {
                return MigrationNote(path: path, line: line, message: """
                    `\(found.shortText)` in async code may call the existing async twin of \(site.signature), \
                    and \(why.text): check it by hand
                    """)
            }
            rejected.insert(key(site))
            return MigrationNote(path: site.file.path, line: site.line, message: """
                \(site.signature): no async twin: the call at \(path):\(line) in async code might pick the twin, \
                and \(why.text)
                """)
        }
    }

    /// The edits of one file: its pins, its twins (after their functions; a protocol's in one
    /// extension of it), and `import TomorrowlandAsync` when it gets a twin.
    private static func fileEdits(
        _ file: ParsedFile, pins: [OwnedEdit], twins: [AsyncTwinAction.TwinEdit], importedInto: inout [String]
    ) -> [OwnedEdit] {
        var edits = pins
        for twin in twins where twin.protocolDecl == nil {
            let inserted = "\n\n" + twin.text
            edits.append(OwnedEdit(
                owner: nil, edit: .insert(inserted, at: twin.site.decl.endPositionBeforeTrailingTrivia),
                twins: [(0..<inserted.utf8.count, twin.key)]
            ))
        }
        let protocolTwins = twins.filter { $0.protocolDecl != nil }
        for group in Dictionary(grouping: protocolTwins, by: { $0.protocolDecl!.id }).values {
            edits.append(protocolExtension(group, in: file))
        }
        if !twins.isEmpty, let importEdit = Imports.addAsyncImport(to: file) {
            edits.append(importEdit)
            importedInto.append(file.path)
        }
        return edits
    }

    /// One extension of a protocol, right after it, that holds the twins of its requirements.
    private static func protocolExtension(_ group: [AsyncTwinAction.TwinEdit], in file: ParsedFile) -> OwnedEdit {
        let protocolDecl = group[0].protocolDecl!
        let indent = Twins.indentation(of: protocolDecl, in: file)
        var text = "\n\n\(indent)extension \(protocolDecl.name.text) {\n"
        var owned: [(Range<Int>, CandidateKey)] = []
        for (number, twin) in group.enumerated() {
            if number > 0 { text += "\n\n" }
            owned.append((text.utf8.count..<text.utf8.count + twin.text.utf8.count, twin.key))
            text += twin.text
        }
        text += "\n\(indent)}"
        return OwnedEdit(owner: nil, edit: .insert(text, at: protocolDecl.endPositionBeforeTrailingTrivia), twins: owned)
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

    /// The key of a candidate: its type, signature and parameter types.
    static func key(_ site: FunctionSite) -> CandidateKey {
        let parameters = site.decl.signature.parameterClause.parameters.map { $0.type.trimmedDescription }.joined(separator: ", ")
        return CandidateKey(container: site.container, signature: site.signature, parameters: parameters)
    }
}
