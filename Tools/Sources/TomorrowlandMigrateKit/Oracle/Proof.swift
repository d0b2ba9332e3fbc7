// Proof instead of guessing: `add-async-twins` writes its twins and pins into a scratch copy,
// asks the compiler again, and checks that every reference of the original code still names
// the declaration it named before (a pinned call: through its pin). A call that would change
// its meaning gets pinned; a twin the compiler rejects, or one that captures a call no pin
// can keep, is dropped with the compiler's reason. Only a plan that passes is written.

import Foundation
import SwiftSyntax

/// What the proof of earlier rounds asked the planner for.
struct ProofDecisions: Equatable {
    /// Twins not to write, with the reason.
    var rejected: [AddAsyncTwins.CandidateKey: String] = [:]
    /// Calls to pin although the syntax looked settled, by file and called name's offset.
    var forcedPins: Set<PinKey> = []

    struct PinKey: Hashable {
        let path: String
        let nameOffset: Int
    }
}

extension AddAsyncTwins {
    /// Plans the twins with the compiler's facts and proves the plan in a scratch copy before
    /// returning it (see `Proof`, `ProofRounds`). When the compiler cannot be asked or the
    /// code does not type-check as it is, plans from the syntax alone and says so in a note.
    public static func run(_ set: SourceSet, oracle: CompilerOracle) -> MigrationResult {
        let before: CompilerFacts
        do {
            before = try oracle.facts(for: set.files.map(\.path))
        } catch {
            return syntaxOnly(set, because: "the compiler could not be run (\(error))")
        }
        if let first = before.firstError {
            return syntaxOnly(set, because: "the code does not type-check as it is (\(first))")
        }
        var rounds = ProofRounds(set: set.recognizing(before), oracle: oracle, before: before)
        return rounds.run()
    }

    /// Rejects the candidates whose module imports Tomorrowland but not TomorrowlandAsync,
    /// directly or through the modules it imports (as the build manifest says: a module built
    /// for another target is not enough), whose twins' `.value` it declares. `candidates` plans for the
    /// decisions so far: a rejected requirement makes its conformers candidates, so it is asked
    /// again until nothing more is rejected. The note that names those targets, or nil when
    /// there are none.
    static func rejectTargetsWithoutAsyncProduct(
        oracle: CompilerOracle, set: SourceSet, decisions: inout ProofDecisions, candidates: (ProofDecisions) -> [FunctionSite]
    ) -> MigrationNote? {
        var waiting: [String: Int] = [:] // module → twins left out
        var rejectedSome = true
        while rejectedSome {
            rejectedSome = false
            for site in candidates(decisions) where decisions.rejected[key(site)] == nil {
                let path = CompilerFacts.key(site.file.path)
                // Only where the module's imports are known (a build manifest's: it imports Tomorrowland).
                guard let module = oracle.modules.first(where: { $0.sources.contains(path) }), module.name != "TomorrowlandAsync",
                      case let imports = oracle.imports(of: module), imports.contains("Tomorrowland"), !imports.contains("TomorrowlandAsync")
                else { continue }
                decisions.rejected[key(site)] = "its target, \(module.name), does not depend on the TomorrowlandAsync product, "
                    + "which the twin needs (see the note on Package.swift)"
                waiting[module.name, default: 0] += 1
                rejectedSome = true
            }
        }
        guard !waiting.isEmpty else { return nil }
        let targets = waiting.keys.sorted()
        let root = PackageContext(roots: set.roots)?.root
        return MigrationNote(
            path: root.map { $0 + "/Package.swift" } ?? "Package.swift", line: 1,
            message: "add the TomorrowlandAsync product to the dependencies of the target(s) \(targets.joined(separator: ", ")), "
                + "then run add-async-twins again: the twins of \(waiting.values.reduce(0, +)) function(s) there need it"
        )
    }

    /// How many proofs the search for twins the compiler's messages do not name may take, in all.
    static let searchBudget = 24

    /// The twin among `candidates` whose plan fails with one of the `stuck` notes (as
    /// `MigrationNote.description`), found by proving halves: with `fixed` and the first half
    /// of the rest, does it still fail? Then the twin is in that half; else it is in the other
    /// half (with the first one kept). One proof per halving; nil when `budget` runs out or the
    /// failure does not follow any one twin.
    static func culprit(
        among candidates: [CandidateKey], stuck: Set<String>, decisions: ProofDecisions, budget: inout Int,
        attempt: (ProofDecisions) throws -> [String]
    ) throws -> CandidateKey? {
        func fails(keeping kept: [CandidateKey]) throws -> Bool {
            budget -= 1
            var trial = decisions
            for key in candidates where !kept.contains(key) {
                trial.rejected[key] = trial.rejected[key] ?? "(left out while searching)"
            }
            return try attempt(trial).contains(where: stuck.contains)
        }
        var fixed: [CandidateKey] = []
        var rest = candidates
        while rest.count > 1 {
            guard budget > 0 else { return nil }
            let half = Array(rest.prefix(rest.count / 2))
            if try fails(keeping: fixed + half) {
                rest = half
            } else {
                fixed += half
                rest.removeFirst(half.count)
            }
        }
        guard let last = rest.first, budget > 0 else { return nil }
        // The one left must be the cause: without it (and with all it was tried with), no failure.
        return try fails(keeping: fixed) ? nil : last
    }

    /// The syntax-only plan, with a note that says why the compiler was not used.
    public static func syntaxOnly(_ set: SourceSet, because reason: String) -> MigrationResult {
        var result = run(set)
        result.notes.insert(MigrationNote(
            path: set.files.first?.path ?? ".", line: 1,
            message: "call targets read from syntax only: \(reason); fix the build for exact call targets and a proof"
        ), at: 0)
        return result
    }
}

/// Compares the compiler's facts before and after a plan.
struct Proof {
    let set: SourceSet
    let before: CompilerFacts
    let after: CompilerFacts
    let plan: AddAsyncTwins.Plan

    /// Something the compiler said about the scratch copy.
    enum Issue {
        /// The reference at `offset` (original text) names `now` instead of `was`.
        case changed(path: String, offset: Int, line: Int, was: Set<String>, now: Set<String>)
        /// An error inside the text of a twin.
        case rejectedTwin(AddAsyncTwins.CandidateKey, message: String, path: String, line: Int)
        /// An error in the text a pin added, for calls of `name`.
        case brokenPin(name: String, path: String, line: Int, message: String)
        /// An error in the original code, at `offset`.
        case broken(path: String, offset: Int, line: Int, message: String)
        /// An error in text inserted for the file as a whole (`import TomorrowlandAsync`).
        case brokenFile(path: String, line: Int, message: String)

        var note: MigrationNote {
            switch self {
            case .changed(let path, _, let line, let was, let now):
                return MigrationNote(path: path, line: line, message: "a reference would name \(now.sorted()) instead of \(was.sorted())")
            case .rejectedTwin(let key, let message, let path, let line):
                return MigrationNote(path: path, line: line, message: "the twin of \(key.signature) does not compile: \(message)")
            case .brokenPin(let name, let path, let line, let message):
                return MigrationNote(path: path, line: line, message: "the pin of a call of \(name) does not compile: \(message)")
            case .broken(let path, _, let line, let message):
                return MigrationNote(path: path, line: line, message: "with the twins this no longer compiles: \(message)")
            case .brokenFile(let path, let line, let message):
                return MigrationNote(path: path, line: line, message: "what the twins need in this file does not compile: \(message)")
            }
        }
    }

    /// The planned insertions of a file, and where they move its text.
    private func inserts(for path: String) -> (map: EditMap, edits: [OwnedEdit]) {
        let key = CompilerFacts.key(path)
        let edits = plan.edits.first { CompilerFacts.key($0.key) == key }?.value ?? []
        return (EditMap(edits.map(\.edit)), edits)
    }

    /// The inserted text holding the new offset `new`: its edit, where it starts in the new
    /// text and the original offset it was inserted at; nil for original text.
    private static func insert(at new: Int, _ inserts: (map: EditMap, edits: [OwnedEdit])) -> (edit: OwnedEdit, newStart: Int, start: Int)? {
        guard case .inserted(let index, let inside) = inserts.map.origin(of: new) else { return nil }
        let edit = inserts.edits[index]
        return (edit, new - inside, edit.edit.start)
    }

    func issues() -> [Issue] {
        var issues: [Issue] = []
        for (path, old) in before.files.sorted(by: { $0.key < $1.key }) {
            // No AST for a file (the compiler stopped early): its errors are the issues.
            guard let new = after.files[path] else {
                if after.errors.isEmpty {
                    issues.append(.broken(path: path, offset: 0, line: 1, message: "the compiler gave no AST for this file"))
                }
                continue
            }
            let inserts = inserts(for: path)
            for (offset, was) in old.references.sorted(by: { $0.key < $1.key }) {
                let now = inserts.map.newOffset(offset).flatMap { new.references[$0] } ?? []
                if now != was { issues.append(.changed(path: path, offset: offset, line: lineOf(offset, path: path), was: was, now: now)) }
            }
            for (offset, now) in new.references.sorted(by: { $0.key < $1.key }) {
                guard case .original(let original) = inserts.map.origin(of: offset), old.references[original] == nil else { continue }
                issues.append(.changed(path: path, offset: original, line: lineOf(original, path: path), was: [], now: now))
            }
        }
        for error in after.errors {
            let path = CompilerFacts.key(error.path)
            let text = plan.result.changes.first { CompilerFacts.key($0.path) == path }?.updated
                ?? (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            let position = Self.offset(line: error.line, column: error.column, in: text)
            let inserts = inserts(for: path)
            if let insert = Self.insert(at: position, inserts) {
                let inside = position - insert.newStart
                if let twin = insert.edit.twins.first(where: { $0.range.contains(inside) }) {
                    let line = lineOf(insert.start, path: path)
                    issues.append(.rejectedTwin(twin.key, message: error.message, path: path, line: line))
                } else if insert.edit.owner == nil {
                    issues.append(.brokenFile(path: path, line: lineOf(insert.start, path: path), message: error.message))
                } else {
                    issues.append(.brokenPin(
                        name: insert.edit.owner ?? "", path: path, line: lineOf(insert.start, path: path), message: error.message
                    ))
                }
            } else if case .original(let original) = inserts.map.origin(of: position) {
                let line = lineOf(original, path: path)
                // A note of the error in a twin names the twin that causes it (the method of a
                // subclass that the twin would make an override: "overridden declaration is here").
                if let twin = error.notes.lazy.compactMap(twin(noted:)).first {
                    issues.append(.rejectedTwin(twin.key, message: "\(error.message) (\(path):\(line))", path: twin.path, line: twin.line))
                } else {
                    issues.append(.broken(path: path, offset: original, line: line, message: error.message))
                }
            }
        }
        return issues
    }

    /// The twin that the position of `note` lies in, with the file and line it is inserted at.
    private func twin(noted note: CompilerDiagnostic) -> (key: AddAsyncTwins.CandidateKey, path: String, line: Int)? {
        let path = CompilerFacts.key(note.path)
        guard let text = plan.result.changes.first(where: { CompilerFacts.key($0.path) == path })?.updated else { return nil }
        let position = Self.offset(line: note.line, column: note.column, in: text)
        let inserts = inserts(for: path)
        guard let insert = Self.insert(at: position, inserts),
              let twin = insert.edit.twins.first(where: { $0.range.contains(position - insert.newStart) }) else { return nil }
        return (twin.key, path, lineOf(insert.start, path: path))
    }

    /// What settling one round's issues reads: the pins of earlier rounds, the candidates by
    /// USR (with the methods that stand for them), the declarations before the plan.
    private struct Settling {
        let earlierPins: Set<ProofDecisions.PinKey>
        let candidateUSRs: [String: FunctionSite]
        let declarationsByUSR: [String: CompilerFacts.Declaration]
    }

    /// Turns issues into decisions for the next round; the notes of issues it cannot settle.
    func decide(_ issues: [Issue], project: Project, decisions: inout ProofDecisions) -> [MigrationNote] {
        // `declarationsByUSR` is a computed table: built once, not per lookup.
        let settling = Settling(
            earlierPins: decisions.forcedPins, candidateUSRs: candidateUSRs(project), declarationsByUSR: before.declarationsByUSR
        )
        var unresolved: [MigrationNote] = []
        for issue in issues {
            switch issue {
            case .rejectedTwin(let key, let message, _, _):
                // `.value` exists only for promises whose error is an Error.
                let hint = message.contains("'value'") ? " (`.value` needs an error type that conforms to Error; "
                    + "await `.resolvedResult` by hand)" : ""
                decisions.rejected[key] = decisions.rejected[key] ?? "the compiler rejects the twin: \(message)\(hint)"
            case .brokenPin(let name, let path, let line, let message):
                for site in plan.candidates where site.name == name {
                    decisions.rejected[AddAsyncTwins.key(site)] = "the pin of the call at \(path):\(line) does not compile: \(message)"
                }
            case .changed(let path, let offset, let line, let was, let now):
                let change = Change(path: path, offset: offset, line: line, was: was, now: now, note: issue.note)
                if let note = settleChanged(change, settling, decisions: &decisions) { unresolved.append(note) }
            case .broken(let path, let offset, let line, let message):
                if !settleBroken(path: path, offset: offset, line: line, message: message, settling, decisions: &decisions) {
                    unresolved.append(issue.note)
                }
            case .brokenFile(let path, let line, let message):
                if !settleBrokenFile(path: path, line: line, message: message, decisions: &decisions) { unresolved.append(issue.note) }
            }
        }
        return unresolved
    }

    /// The candidates by USR. A conformer's method is pinned for the twin of the requirement
    /// it implements, an override for the twin of the method it overrides: they stand for it.
    private func candidateUSRs(_ project: Project) -> [String: FunctionSite] {
        var candidateUSRs = Dictionary(plan.candidates.compactMap { site in project.usr(of: site).map { ($0, site) } }, uniquingKeysWith: { a, _ in a })
        for site in set.files.flatMap(FunctionSite.all(in:)) {
            guard let usr = project.usr(of: site), candidateUSRs[usr] == nil,
                  let base = plan.candidates.first(where: { $0.inProtocol && project.implements(site, $0) || project.overrides(site, $0) })
            else { continue }
            candidateUSRs[usr] = base
        }
        return candidateUSRs
    }

    /// A reference that names other declarations with the plan (`Issue.changed`).
    private struct Change {
        let path: String
        let offset: Int
        let line: Int
        let was: Set<String>
        let now: Set<String>
        let note: MigrationNote
    }

    /// A call of a function that gets a twin is pinned to the promise it returns; otherwise
    /// the twin that captured the reference is rejected (found by its declaration in the
    /// scratch copy, or else by the names involved). The note when no twin explains it.
    private func settleChanged(_ change: Change, _ settling: Settling, decisions: inout ProofDecisions) -> MigrationNote? {
        let (path, line) = (change.path, change.line)
        let callee = before.file(path)?.call(calleeAt: change.offset)?.callee ?? change.was.sorted().first
        if let callee, settling.candidateUSRs[callee] != nil, pin(at: change.offset, in: path, earlier: settling.earlierPins, decisions: &decisions) {
            return nil
        }
        let captured = twins(declaring: change.now.subtracting(change.was))
        var unresolved: MigrationNote?
        if captured.isEmpty {
            let names = Set((change.was.union(change.now)).compactMap { settling.declarationsByUSR[$0]?.name })
            let suspects = plan.candidates.filter { names.contains($0.name) }
            if suspects.isEmpty {
                unresolved = MigrationNote(path: path, line: line, message: "a reference would change its meaning: \(change.note.message)")
            }
            for site in suspects {
                decisions.rejected[AddAsyncTwins.key(site)] = "the reference at \(path):\(line) would change its meaning, and no pin keeps it"
            }
        }
        for key in captured {
            decisions.rejected[key] = decisions.rejected[key] ?? "the call at \(path):\(line) would name the twin, and no pin can keep it"
        }
        return unresolved
    }

    /// An error in the original code: the innermost call of a candidate around it is pinned
    /// (or, when it cannot be, that twin is rejected); else an error at a name that a twin
    /// also has (the declaration of a subclass's method the twin would override, a function
    /// used as a value) rejects those twins. Whether it settled the error.
    private func settleBroken(
        path: String, offset: Int, line: Int, message: String, _ settling: Settling, decisions: inout ProofDecisions
    ) -> Bool {
        for callee in enclosingCallees(at: offset, in: path) {
            guard let site = settling.candidateUSRs[callee.usr] else { continue }
            if !pin(at: callee.nameOffset, in: path, earlier: settling.earlierPins, decisions: &decisions) {
                decisions.rejected[AddAsyncTwins.key(site)] = "the call at \(path):\(line) does not compile with the twin: \(message)"
            }
            return true
        }
        var settled = false
        if let (name, labels) = Self.name(at: offset, in: set.files.first { CompilerFacts.key($0.path) == path }) {
            for site in plan.candidates where site.name == name && (labels == nil || site.labels == labels) {
                settled = true
                decisions.rejected[AddAsyncTwins.key(site)] = decisions.rejected[AddAsyncTwins.key(site)]
                    ?? "the compiler rejects the twin: with it, \(path):\(line): \(message)"
            }
        }
        return settled
    }

    /// An error in what every twin of the file needs (`import TomorrowlandAsync`): none of
    /// them can be written there. Whether the file has any.
    private func settleBrokenFile(path: String, line: Int, message: String, decisions: inout ProofDecisions) -> Bool {
        var settled = false
        let reason = message.contains("no such module 'TomorrowlandAsync'")
            ? "its target cannot import TomorrowlandAsync (\(message)): add the TomorrowlandAsync product to the target's "
                + "dependencies in Package.swift, then run add-async-twins again"
            : "the compiler rejects what its twin needs in the file: \(path):\(line): \(message)"
        for site in plan.candidates where CompilerFacts.key(site.file.path) == path {
            settled = true
            decisions.rejected[AddAsyncTwins.key(site)] = decisions.rejected[AddAsyncTwins.key(site)] ?? reason
        }
        return settled
    }

    /// The name at `offset` of `file`: a function's name (with its labels when `offset` is
    /// the name of its declaration), a referenced name, or nil.
    static func name(at offset: Int, in file: ParsedFile?) -> (name: String, labels: [String?]?)? {
        guard let file, let token = file.tree.token(at: AbsolutePosition(utf8Offset: offset)),
              case .identifier(let text) = token.tokenKind else { return nil }
        let name = text.replacingOccurrences(of: "`", with: "")
        if let decl = token.parent?.as(FunctionDeclSyntax.self), decl.name.id == token.id {
            return (name, decl.signature.parameterClause.parameters.map(\.argumentLabel))
        }
        return (name, nil)
    }

    /// Asks for a pin of the call whose name is at `offset`, when the file is scanned, the
    /// call can take one and an earlier round did not pin it already (one round can ask twice:
    /// a changed reference and an error at the same call).
    private func pin(at offset: Int, in path: String, earlier: Set<ProofDecisions.PinKey>, decisions: inout ProofDecisions) -> Bool {
        guard let file = set.files.first(where: { CompilerFacts.key($0.path) == path }) else { return false }
        let key = ProofDecisions.PinKey(path: file.path, nameOffset: offset)
        if decisions.forcedPins.contains(key) { return !earlier.contains(key) }
        guard let call = Self.call(named: offset, in: file), !Self.isCoerced(call) else { return false }
        decisions.forcedPins.insert(key)
        return true
    }

    /// `f() as P` or `(f() as P)`: pinned already.
    static func isCoerced(_ call: FunctionCallExprSyntax) -> Bool {
        if Calls.coercedParentheses(around: call) != nil { return true }
        guard let elements = call.parent?.parent?.as(SequenceExprSyntax.self)?.elements.map({ $0 }),
              let index = elements.firstIndex(where: { $0.id == call.id }), index + 1 < elements.count else { return false }
        return elements[index + 1].is(UnresolvedAsExprSyntax.self)
    }

    /// The call whose called name is at `offset`.
    static func call(named offset: Int, in file: ParsedFile) -> FunctionCallExprSyntax? {
        guard let token = file.tree.token(at: AbsolutePosition(utf8Offset: offset)) else { return nil }
        var current = token.parent
        while let node = current {
            if let call = node.as(FunctionCallExprSyntax.self), Calls.nameOffset(of: call) == offset { return call }
            current = node.parent
        }
        return nil
    }

    /// The callees of the calls around `offset` (innermost first), as the compiler resolved them before.
    private func enclosingCallees(at offset: Int, in path: String) -> [(usr: String, nameOffset: Int)] {
        guard let file = before.file(path) else { return [] }
        return file.calls.filter { $0.offset <= offset && offset <= $0.lastTokenOffset + 1 }
            .sorted { ($0.lastTokenOffset - $0.offset) < ($1.lastTokenOffset - $1.offset) }
            .compactMap { call in call.callee.flatMap { usr in call.calleeOffset.map { (usr, $0) } } }
    }

    /// The twins (by their owner) that declare one of `usrs` in the scratch copy of any file.
    private func twins(declaring usrs: Set<String>) -> [AddAsyncTwins.CandidateKey] {
        var result: [AddAsyncTwins.CandidateKey] = []
        for (file, facts) in after.files {
            let inserts = inserts(for: file)
            for declaration in facts.declarations where usrs.contains(declaration.usr) {
                guard let insert = Self.insert(at: declaration.offset, inserts) else { continue }
                let inside = declaration.offset - insert.newStart
                if let twin = insert.edit.twins.first(where: { $0.range.contains(inside) }), !result.contains(twin.key) {
                    result.append(twin.key)
                }
            }
        }
        return result
    }

    private func lineOf(_ offset: Int, path: String) -> Int {
        let text = set.files.first { CompilerFacts.key($0.path) == path }?.text ?? (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return Array(text.utf8.prefix(offset)).filter { $0 == UInt8(ascii: "\n") }.count + 1
    }

    /// The UTF-8 offset of a 1-based line and column.
    static func offset(line: Int, column: Int, in text: String) -> Int {
        var current = 1
        var index = 0
        let bytes = Array(text.utf8)
        while current < line, index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") { current += 1 }
            index += 1
        }
        return index + column - 1
    }
}
