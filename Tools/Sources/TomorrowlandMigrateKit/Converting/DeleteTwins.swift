// `delete-twins`: the twins `add-async-twins` and `add-promise-twins` wrote that nothing calls any
// more (no reference in the scanned files or in any module of the package that imports them, as
// the compiler resolves references) are deleted, with their doc comments; a protocol extension
// left with no members goes too. Proven like `convert-calls`. Kept too, as the compiler's
// references cannot show their uses: a twin with the name, labels and `async` of a protocol
// requirement in the scanned sources (it may be the witness: deleting it would switch to a
// default implementation, silently), and one whose name appears in an `#if` clause the compiler
// did not see (no reference or declaration in it: code for another platform may call it).

import Foundation
import SwiftSyntax

public enum DeleteTwins {
    /// Why a twin stays, as the notes say it.
    enum Reason {
        static let isPublic = "public: clients outside this package may call it (--include-public deletes it)"
        static let witness = "it may witness a protocol requirement with its name and labels: "
            + "deleting it could switch calls to a default implementation"
        static let inactive = "named in an inactive `#if` clause"
        static func inactive(at places: [String]) -> String {
            "\(inactive) at \(places.prefix(3).joined(separator: ", ")): code not compiled here may call it"
        }
        static func called(at places: [String]) -> String {
            "called at \(places.prefix(3).joined(separator: ", "))" + (places.count > 3 ? " and \(places.count - 3) more place(s)" : "")
        }
    }

    /// Plans the deletions, proves them in a scratch copy and returns what passed, with a note
    /// for every twin kept and why.
    public static func run(_ set: SourceSet, oracle: CompilerOracle, includingPublic: Bool) -> MigrationResult {
        var result = MigrationResult(problems: set.problems)
        let paths = oracle.pathsWithDependents(of: set.files.map(\.path))
        let start = EditProof.start(set, paths: paths, oracle: oracle, nothing: "nothing deleted")
        guard let prover = start.proof else {
            result.notes = start.refusal.map { [$0] } ?? []
            return result
        }
        let (changes, kept) = plan(
            prover.set, project: prover.project, facts: prover.before, includingPublic: includingPublic,
            sameDeclaration: sharedDeclarations(facts: prover.before, oracle: oracle)
        )
        let proof = prover.settle(changes)
        var left = kept
        for (change, reason) in proof.dropped {
            left.append(ConvertCalls.Left(path: change.path, line: change.line, text: change.summary, reason: reason))
        }
        result.notes = left.sorted { ($0.path, $0.line) < ($1.path, $1.line) }.map { left in
            MigrationNote(path: left.path, line: left.line, message: "kept \(left.text): \(left.reason)")
        } + proof.notes
        guard !proof.failed else { return result }
        result.changes = EditProof.fileChanges(proof.accepted, in: prover.set)
        let deleted = proof.accepted.reduce(0) { $0 + $1.edits.count }
        let reasons = Dictionary(grouping: left) { left in
            left.reason.hasPrefix("called at") ? "called" : left.reason.hasPrefix(Reason.inactive) ? Reason.inactive : left.kind
        }
            .sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }.map { "\($0.value.count): \($0.key)" }
        result.notes.append(MigrationNote(
            path: set.files.first?.path ?? ".", line: 1,
            message: "delete-twins: \(deleted) twin(s) deleted, \(left.count) kept" + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: "; ")))")
        ))
        return result
    }

    /// The deletions to prove (one per twin, or one per protocol extension whose twins all go),
    /// and the twins kept: the loop over `TwinDeletionAction`, each tool-written twin once.
    static func plan(
        _ set: SourceSet, project: Project, facts: CompilerFacts, includingPublic: Bool, sameDeclaration: [String: String] = [:]
    ) -> (changes: [PlannedChange], kept: [ConvertCalls.Left]) {
        let action = TwinDeletionAction(set, facts: facts, includingPublic: includingPublic, sameDeclaration: sameDeclaration)
        var seen = Set<String>()
        let pairs = TwinPairs.find(in: set.files, project: project).filter {
            TwinPairs.isWrittenByTheTool($0.twinSite) && seen.insert($0.twinUSR).inserted
        }
        var kept: [ConvertCalls.Left] = []
        var deletions: [FunctionSite] = []
        for (pair, outcome) in action.run(over: pairs) {
            switch outcome {
            case .holds(let twin): deletions.append(twin)
            case .declines(let reason): kept.append(action.kept(pair, reason))
            case .notApplicable: break
            }
        }
        return (changes(deleting: deletions), kept)
    }

    /// The deletions of `twins`: one per twin, or one per protocol extension whose members are
    /// all among them.
    static func changes(deleting twins: [FunctionSite]) -> [PlannedChange] {
        var changes: [PlannedChange] = []
        var handled = Set<SyntaxIdentifier>()
        for site in twins where !handled.contains(site.decl.id) {
            // A protocol extension whose members are all deleted twins goes as a whole.
            if let members = site.decl.parent?.parent?.as(MemberBlockItemListSyntax.self),
               let extensionDecl = members.parent?.parent?.as(ExtensionDeclSyntax.self),
               members.allSatisfy({ member in twins.contains { $0.decl.id == member.decl.id } }) {
                let deleted = twins.filter { twin in members.contains { $0.decl.id == twin.decl.id } }
                for twin in deleted { handled.insert(twin.decl.id) }
                let names = deleted.map { "`\($0.signature)`" }.joined(separator: ", ")
                let summary = "`extension \(extensionDecl.extendedType.trimmedDescription)` (twins \(names))"
                changes.append(deletion(of: extensionDecl, in: site.file, summary: summary))
                continue
            }
            handled.insert(site.decl.id)
            changes.append(deletion(of: site.decl, in: site.file, summary: "`\(site.signature)`"))
        }
        return changes
    }

    /// Where each declaration of `facts` is referenced, as `path:line`, by USR (through `key`:
    /// one key for a declaration of a file that several modules compile, `sharedDeclarations`).
    static func referencePlaces(in set: SourceSet, facts: CompilerFacts, key: (String) -> String) -> [String: [String]] {
        var places: [String: [String]] = [:]
        for (path, file) in facts.files.sorted(by: { $0.key < $1.key }) {
            let scannedFile = set.files.first { CompilerFacts.key($0.path) == path }
            let lines = LineTable(scannedFile?.text ?? (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
            for (offset, usrs) in file.references.sorted(by: { $0.key < $1.key }) {
                for usr in usrs {
                    places[key(usr), default: []].append("\(scannedFile?.path ?? path):\(lines.line(of: offset))")
                }
            }
        }
        return places
    }

    /// One key for the USRs of a declaration in a file that several modules compile (a
    /// symbolic link): the compiler's facts of the file are one module's, and a call through
    /// another module's copy names that copy's USR. The key is the demangled name with those
    /// modules' names replaced; USRs of other modules have none.
    static func sharedDeclarations(facts: CompilerFacts, oracle: CompilerOracle) -> [String: String] {
        SharedDeclarations.keys(
            for: facts.files.values.flatMap { file in file.references.values.flatMap { $0 } + file.declarations.map(\.usr) }, oracle: oracle
        )
    }

    /// Where each name appears in an `#if` clause of the scanned files that the compiler did not
    /// see (no reference or declaration in it: another platform's or configuration's code), as
    /// `path:line`. Plain syntax: every identifier counts.
    static func inactiveMentions(in set: SourceSet, facts: CompilerFacts) -> [String: [String]] {
        var mentions: [String: [String]] = [:]
        for file in set.files {
            let seen = facts.files[CompilerFacts.key(file.path)]
            let offsets = (seen?.references.keys.map { $0 } ?? []) + (seen?.declarations.map(\.offset) ?? [])
            // Each clause once, by its `#if`, `#elseif` or `#else`.
            for clause in file.tree.tokens(viewMode: .sourceAccurate).compactMap({ $0.parent?.as(IfConfigClauseSyntax.self) }) {
                guard let elements = clause.elements else { continue }
                let range = elements.position.utf8Offset..<elements.endPosition.utf8Offset
                guard !offsets.contains(where: range.contains) else { continue }
                for token in elements.tokens(viewMode: .sourceAccurate) {
                    guard case .identifier(let name) = token.tokenKind else { continue }
                    mentions[name, default: []].append("\(file.path):\(file.line(of: token))")
                }
            }
        }
        return mentions
    }

    /// Deleting `decl` with its doc comment and the blank line before it (a plain comment above
    /// it stays).
    static func deletion(of decl: some SyntaxProtocol, in file: ParsedFile, summary: String) -> PlannedChange {
        var start = decl.position.utf8Offset
        var offset = start
        for piece in decl.leadingTrivia {
            offset += piece.sourceLength.utf8Length
            switch piece {
            case .lineComment, .blockComment: start = offset
            default: break
            }
        }
        let end = decl.endPositionBeforeTrailingTrivia.utf8Offset
        return PlannedChange(
            path: file.path, edits: [TextEdit(start: start, end: end, text: "")], scope: start..<end,
            line: file.line(of: decl), summary: summary
        )
    }
}
