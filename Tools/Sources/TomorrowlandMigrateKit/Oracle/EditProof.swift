// The proof for commands that replace text (`convert-calls`, `delete-twins`, `convert-body`):
// the planned edits go into a scratch copy, the compiler type-checks it with the package's own
// arguments (its language mode included), and every reference outside the edited text must
// still name the declaration it named before (offsets mapped old → new through the edits),
// while each reference a command expects to change (a call that now names the async twin)
// must name what the command says. A change the compiler objects to is dropped with its
// reason and the rest is checked again, until nothing is left to object to. With `--test`,
// `ScratchPackage` then runs the package's tests on a copy with the changes.
// The rounds are in EditProof+Settle, what the compiler objects to in EditProof+Issues.

import Foundation

/// One change a command plans: edits of one file's original text that stand or fall together
/// (one converted call, one deleted twin, one converted function).
struct PlannedChange {
    /// The file, as the `SourceSet` names it.
    let path: String
    let edits: [TextEdit]
    /// The original text this change answers for: an error or a changed reference there is
    /// this change's, and drops it (the edits' own ranges count too).
    let scope: Range<Int>
    /// The line the change is listed under.
    let line: Int
    /// What it does, for notes (`` `try await f(x).value` → `try await f(x)` ``).
    let summary: String
    /// References that must name something new after the change.
    var expectations: [Expectation] = []
    /// Changes with the same group stand or fall together (across files): one dropped drops the others.
    var group: String?

    /// A reference the change means to point somewhere (else): where it ends, and what it
    /// must name there.
    struct Expectation {
        enum Place {
            /// The reference whose last token is at this offset of the original text.
            case original(Int)
            /// A reference ending at `offset` in the text of `edits[edit]`.
            case inserted(edit: Int, offset: Int)
            /// The reference whose last token is at this offset of another file's original text.
            case elsewhere(path: String, offset: Int)
        }

        enum Target {
            case usr(String)
            /// The first function declared at or after `offset` in the text of `edits[edit]`.
            case declaration(edit: Int, offset: Int)
        }

        let place: Place
        let target: Target
        /// What the target is, for notes ("the async twin of fetchUser(id:)").
        let meaning: String
    }
}

/// The compiler's verdict on planned changes; `settle` drops the ones it objects to.
struct EditProof {
    /// The proof for `paths` (the scanned files and any others whose references count), with
    /// the compiler's facts of the code as it is; nil with the note that says why nothing
    /// can be changed (`nothing`: "nothing converted") when the compiler cannot be run or the
    /// code does not type-check.
    static func start(_ set: SourceSet, paths: [String], oracle: CompilerOracle, nothing: String) -> (proof: EditProof?, refusal: MigrationNote?) {
        let first = set.files.first?.path ?? paths.first ?? "."
        let before: CompilerFacts
        do {
            before = try oracle.facts(for: paths)
        } catch {
            return (nil, MigrationNote(path: first, line: 1, message: "\(nothing): the compiler could not be run (\(error))"))
        }
        if let error = before.firstError {
            return (nil, MigrationNote(path: first, line: 1, message: "\(nothing): the code does not type-check as it is (\(error))"))
        }
        return (EditProof(oracle: oracle, before: before, paths: paths, set: set.recognizing(before)), nil)
    }

    /// The project of the scanned files, with the compiler's facts.
    var project: Project { Project(set, compiler: before) }

    let oracle: CompilerOracle
    /// The facts of the code as it is; every reference in them is checked.
    let before: CompilerFacts
    /// The files to type-check (with the modules that hold them).
    let paths: [String]
    /// The files the changes edit (their original text).
    let set: SourceSet

    /// Something the compiler said about the scratch copy.
    struct Issue: Equatable {
        /// The index of the change it belongs to; nil when no change's text or scope holds it.
        let change: Int?
        let path: String
        let line: Int
        let message: String
        /// Where it is in the original text, when known.
        var offset: Int? = nil
    }

    /// What is left after the proof.
    struct Outcome {
        var accepted: [PlannedChange] = []
        /// Changes dropped, each with the compiler's reason.
        var dropped: [(change: PlannedChange, reason: String)] = []
        /// "checked by the compiler …", or why nothing can be written.
        var notes: [MigrationNote] = []
        /// Whether the proof could not settle (then nothing is accepted).
        var failed = false
    }

    /// How many proofs the search for a change no issue is tied to may take, in all.
    static let searchBudget = 24

    /// Each changed file's text with `changes` applied, by `CompilerFacts.key` of its path.
    static func updatedTexts(_ changes: [PlannedChange], in set: SourceSet) -> [String: String] {
        var result: [String: String] = [:]
        for (path, group) in Dictionary(grouping: changes, by: { CompilerFacts.key($0.path) }) {
            guard let file = set.files.first(where: { CompilerFacts.key($0.path) == path }) else { continue }
            result[path] = TextEdit.apply(group.flatMap(\.edits), to: file.text)
        }
        return result
    }

    /// The files `changes` change, as a command prints or writes them.
    static func fileChanges(_ changes: [PlannedChange], in set: SourceSet) -> [FileChange] {
        let updated = updatedTexts(changes, in: set)
        return set.files.compactMap { file in
            guard let text = updated[CompilerFacts.key(file.path)], text != file.text else { return nil }
            return FileChange(path: file.path, original: file.text, updated: text)
        }
    }

    /// The original text of the file at `path` (`CompilerFacts.key`): the scanned file's, else as on disk.
    func originalText(_ path: String) -> String {
        set.files.first { CompilerFacts.key($0.path) == path }?.text ?? (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// The 1-based line of a UTF-8 offset.
    static func line(of offset: Int, in text: String) -> Int {
        LineTable(text).line(of: offset)
    }
}
