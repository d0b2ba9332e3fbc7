// The proof for commands that replace text (`convert-calls`, `delete-twins`, `convert-body`):
// the planned edits go into a scratch copy, the compiler type-checks it with the package's own
// arguments (its language mode included), and every reference outside the edited text must
// still name the declaration it named before (offsets mapped old → new through the edits),
// while each reference a command expects to change (a call that now names the async twin)
// must name what the command says. A change the compiler objects to is dropped with its
// reason and the rest is checked again, until nothing is left to object to. With `--test`,
// `ScratchPackage` then runs the package's tests on a copy with the changes.

import Foundation

/// Where the edits of one file move its text: offsets of the original text to offsets of the
/// edited text and back. Edits must not overlap; edits at the same offset land in the order
/// given (as `TextEdit.apply` writes them).
struct EditMap {
    /// An edit with where its text lands in the edited text.
    struct Placed {
        let start: Int
        let end: Int
        let newStart: Int
        let length: Int
        /// Its index in the edits the map was made from.
        let index: Int
    }

    let placed: [Placed]

    init(_ edits: [TextEdit]) {
        var shift = 0
        placed = edits.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map { index, edit in
            let length = edit.text.utf8.count
            defer { shift += length - (edit.end - edit.start) }
            return Placed(start: edit.start, end: edit.end, newStart: edit.start + shift, length: length, index: index)
        }
    }

    /// Where the original offset `old` is in the edited text; nil when an edit replaced it.
    /// (Text inserted at `old` goes before it.)
    func newOffset(_ old: Int) -> Int? {
        var shift = 0
        for edit in placed {
            if old < edit.start { break }
            if old < edit.end { return nil }
            shift += edit.length - (edit.end - edit.start)
        }
        return old + shift
    }

    /// What an offset of the edited text was: an offset of the original text, or a place in
    /// the text of the edit with index `edit`.
    enum Origin: Equatable {
        case original(Int)
        case inserted(edit: Int, offset: Int)
    }

    func origin(of new: Int) -> Origin {
        var shift = 0
        for edit in placed {
            if new < edit.newStart { break }
            if new < edit.newStart + edit.length { return .inserted(edit: edit.index, offset: new - edit.newStart) }
            shift += edit.length - (edit.end - edit.start)
        }
        return .original(new - shift)
    }

    /// Where the text of the edit with index `edit` starts in the edited text.
    func newStart(ofEdit edit: Int) -> Int? {
        placed.first { $0.index == edit }?.newStart
    }
}

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
        if let error = before.errors.first {
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

    /// Type-checks the changes, drops the ones the compiler objects to, and repeats (at most
    /// `rounds` times) until the rest passes. Never all or nothing: an issue in a file no
    /// change edits costs the changes that delete a declaration of a name it names (`'x'`,
    /// `` `x` ``), or else the one change found by proving the changes in halves.
    func settle(_ changes: [PlannedChange], rounds: Int = 8) -> Outcome {
        var outcome = Outcome()
        var pending = changes
        let first = paths.first ?? "."
        var searches = Self.searchBudget
        for round in 1...rounds {
            guard !pending.isEmpty else { return outcome }
            let after: CompilerFacts
            do {
                after = try oracle.facts(for: paths, replacing: Self.updatedTexts(pending, in: set), unchanged: before)
            } catch {
                outcome.failed = true
                outcome.notes.append(MigrationNote(
                    path: first, line: 1, message: "nothing written: the compiler could not be run on the scratch copy (\(error))"
                ))
                return outcome
            }
            let issues = issues(of: pending, after: after)
            if issues.isEmpty {
                let checked = before.files.values.reduce(0) { $0 + $1.references.count }
                let expected = pending.reduce(0) { $0 + $1.expectations.count }
                outcome.accepted = pending
                outcome.notes.append(MigrationNote(
                    path: first, line: 1,
                    message: "checked by the compiler (round \(round)): with the \(pending.count) change(s), all \(checked) references in "
                        + "\(before.files.count) file(s) name the same declaration as before"
                        + (expected == 0 ? "" : ", and the \(expected) the changes redirect name what they should")
                ))
                return outcome
            }
            var drop: [Int: String] = [:]
            for issue in issues {
                guard let change = issue.change else { continue }
                drop[change] = drop[change] ?? "\(issue.path):\(issue.line): \(issue.message)"
            }
            // Issues no change answers for are often what a dropped change broke around it (an
            // operator of the same expression): they are looked at again in the next round.
            // Alone, each costs the nearest change of its file; in a file no change edits, the
            // changes that delete what it names, or the one found by halves; else nothing is written.
            if drop.isEmpty {
                var untied: [Issue] = []
                for issue in issues {
                    let inFile = pending.indices.filter { CompilerFacts.key(pending[$0].path) == CompilerFacts.key(issue.path) }
                    let offset = issue.offset ?? 0
                    let distance = { (index: Int) in
                        let scope = pending[index].scope
                        return scope.contains(offset) ? 0 : min(abs(scope.lowerBound - offset), abs(scope.upperBound - offset))
                    }
                    guard let nearest = inFile.min(by: { distance($0) < distance($1) }) else {
                        untied.append(issue)
                        continue
                    }
                    drop[nearest] = drop[nearest] ?? "\(issue.path):\(issue.line): \(issue.message) (the nearest change)"
                }
                if drop.isEmpty, let issue = untied.first {
                    let place = "\(issue.path):\(issue.line): \(issue.message)"
                    let named = Self.deleting(namesIn: untied, among: pending, in: set)
                    if !named.isEmpty {
                        for index in named { drop[index] = "\(place) (it names what the change deletes)" }
                    } else if let found = culprit(of: untied, among: pending, budget: &searches) {
                        drop[found] = "\(place) (found by proving the changes in halves)"
                    } else {
                        outcome.failed = true
                        outcome.notes = untied.map {
                            MigrationNote(path: $0.path, line: $0.line, message: "nothing written: with the changes, \($0.message)")
                        }
                        return outcome
                    }
                }
            }
            for (index, reason) in drop.sorted(by: { $0.key < $1.key }) {
                for mate in pending.indices where drop[mate] == nil && pending[mate].group != nil && pending[mate].group == pending[index].group {
                    drop[mate] = "it stands or falls with the change at \(pending[index].path):\(pending[index].line), "
                        + "which the compiler objects to (\(reason))"
                }
            }
            for (index, reason) in drop.sorted(by: { $0.key < $1.key }) {
                outcome.dropped.append((pending[index], "the compiler objects: \(reason)"))
            }
            pending = pending.indices.filter { drop[$0] == nil }.map { pending[$0] }
        }
        outcome.failed = true
        outcome.notes.append(MigrationNote(path: first, line: 1, message: "nothing written: the proof did not settle in \(rounds) rounds"))
        return outcome
    }

    /// The changes among `changes` whose deleted text declares a name that one of `issues`
    /// names in quotes (`cannot find 'helper' in scope`, "a reference would name nothing
    /// instead of `helper()`"), by index.
    static func deleting(namesIn issues: [Issue], among changes: [PlannedChange], in set: SourceSet) -> [Int] {
        var names = Set<String>()
        for issue in issues {
            for quote in ["'", "`"] {
                let parts = issue.message.components(separatedBy: quote)
                for part in stride(from: 1, to: parts.count, by: 2) {
                    let name = parts[part].prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                    if !name.isEmpty { names.insert(String(name)) }
                }
            }
        }
        guard !names.isEmpty else { return [] }
        let keywords = ["func", "var", "let", "case", "class", "struct", "enum", "protocol", "typealias", "actor"]
        return changes.indices.filter { index in
            guard let text = set.files.first(where: { CompilerFacts.key($0.path) == CompilerFacts.key(changes[index].path) })?.text
            else { return false }
            let utf8 = Array(text.utf8)
            return changes[index].edits.contains { edit in
                guard edit.start < edit.end, edit.end <= utf8.count else { return false }
                let deleted = String(decoding: utf8[edit.start..<edit.end], as: UTF8.self)
                let words = deleted.split { !($0.isLetter || $0.isNumber || $0 == "_") }
                return zip(words, words.dropFirst()).contains { keywords.contains(String($0.0)) && names.contains(String($0.1)) }
            }
        }
    }

    /// The one change among `changes` that `issues` (in files no change edits) follow, found by
    /// proving halves: with the changes kept so far and the first half of the rest, is one of
    /// them still there? Then the change is in that half; else in the other. One proof per
    /// halving; nil when `budget` runs out, the compiler cannot be run, or the issues do not
    /// follow any one change.
    func culprit(of issues: [Issue], among changes: [PlannedChange], budget: inout Int) -> Int? {
        let stuck = Set(issues.map { "\(CompilerFacts.key($0.path)):\($0.line): \($0.message)" })
        func fails(keeping kept: [Int]) -> Bool? {
            budget -= 1
            let trial = kept.map { changes[$0] }
            guard !trial.isEmpty else { return false }
            guard let after = try? oracle.facts(for: paths, replacing: Self.updatedTexts(trial, in: set), unchanged: before) else { return nil }
            return self.issues(of: trial, after: after).contains { stuck.contains("\(CompilerFacts.key($0.path)):\($0.line): \($0.message)") }
        }
        var fixed: [Int] = []
        var rest = Array(changes.indices)
        while rest.count > 1 {
            guard budget > 0 else { return nil }
            let half = Array(rest.prefix(rest.count / 2))
            guard let failing = fails(keeping: fixed + half) else { return nil }
            if failing {
                rest = half
            } else {
                fixed += half
                rest.removeFirst(half.count)
            }
        }
        guard let last = rest.first, budget > 0 else { return nil }
        // The one left must be the cause: without it (and with all it was tried with), no issue.
        return fails(keeping: fixed) == false ? last : nil
    }

    /// What the compiler objects to in `after`, the facts of the scratch copy with `changes`.
    func issues(of changes: [PlannedChange], after: CompilerFacts) -> [Issue] {
        var issues: [Issue] = []
        let byFile = Dictionary(grouping: changes.indices, by: { CompilerFacts.key(changes[$0].path) })
        let declarationsByUSR = after.declarationsByUSR.merging(before.declarationsByUSR) { new, _ in new }
        let name = { (usrs: Set<String>) in
            usrs.isEmpty ? "nothing" : usrs.sorted().map { usr in declarationsByUSR[usr].map { "`\($0.name)`" } ?? usr }.joined(separator: ", ")
        }
        for (path, old) in before.files.sorted(by: { $0.key < $1.key }) {
            let text = originalText(path)
            let lines = LineTable(text)
            let mine = byFile[path] ?? []
            let flat = mine.flatMap { index in changes[index].edits.indices.map { (change: index, edit: $0) } }
            let map = EditMap(flat.map { changes[$0.change].edits[$0.edit] })
            let owner = { (offset: Int) in mine.first { changes[$0].scope.contains(offset) } }
            guard let new = after.files[path] else {
                if after.errors.isEmpty {
                    issues.append(Issue(change: mine.count == 1 ? mine[0] : nil, path: path, line: 1, message: "the compiler gave no AST for this file"))
                }
                continue
            }
            // Where each expectation's reference ends in the edited text.
            var expected: [Int: (change: Int, expectation: PlannedChange.Expectation)] = [:]
            for index in mine {
                for expectation in changes[index].expectations {
                    let position: Int?
                    switch expectation.place {
                    case .original(let offset): position = map.newOffset(offset)
                    case .inserted(let edit, let offset):
                        let placed = flat.firstIndex { $0.change == index && $0.edit == edit }
                        position = placed.flatMap(map.newStart(ofEdit:)).map { $0 + offset }
                    case .elsewhere: continue
                    }
                    guard let position else {
                        issues.append(Issue(change: index, path: path, line: changes[index].line, message: "an expected reference lies in replaced text"))
                        continue
                    }
                    expected[position] = (index, expectation)
                }
            }
            // References in this file that a change of another file means to point elsewhere.
            for (index, change) in changes.enumerated() {
                for expectation in change.expectations {
                    guard case .elsewhere(let other, let offset) = expectation.place, CompilerFacts.key(other) == path,
                          let position = map.newOffset(offset) else { continue }
                    expected[position] = (index, expectation)
                }
            }
            for (offset, was) in old.references.sorted(by: { $0.key < $1.key }) {
                guard let moved = map.newOffset(offset), expected[moved] == nil else { continue }
                let now = new.references[moved] ?? []
                if now != was {
                    let (nowNames, wasNames) = (name(now), name(was))
                    let differ = nowNames == wasNames ? " (\(now.sorted()) instead of \(was.sorted()))" : ""
                    issues.append(Issue(
                        change: owner(offset), path: path, line: lines.line(of: offset),
                        message: "a reference would name \(nowNames) instead of \(wasNames)\(differ)", offset: offset
                    ))
                }
            }
            for (offset, now) in new.references.sorted(by: { $0.key < $1.key }) where expected[offset] == nil {
                guard case .original(let original) = map.origin(of: offset), old.references[original] == nil else { continue }
                issues.append(Issue(
                    change: owner(original), path: path, line: lines.line(of: original),
                    message: "a reference to \(name(now)) appears where there was none", offset: original
                ))
            }
            for (offset, entry) in expected.sorted(by: { $0.key < $1.key }) {
                let (index, expectation) = (entry.change, entry.expectation)
                let now = new.references[offset] ?? []
                let target: String?
                switch expectation.target {
                case .usr(let usr): target = usr
                case .declaration(let edit, let inside):
                    // In the change's own file (a reference elsewhere may name it).
                    let own = CompilerFacts.key(changes[index].path)
                    let ownFlat = (byFile[own] ?? []).flatMap { change in changes[change].edits.indices.map { (change: change, edit: $0) } }
                    let ownMap = EditMap(ownFlat.map { changes[$0.change].edits[$0.edit] })
                    let placed = ownFlat.firstIndex { $0.change == index && $0.edit == edit }
                    let start = placed.flatMap(ownMap.newStart(ofEdit:))
                    let end = start.map { $0 + changes[index].edits[edit].text.utf8.count }
                    // The first function the compiler declared from there on in the edit's text (its range may
                    // start at a modifier or at `func`).
                    target = start.flatMap { start in
                        after.file(own)?.declarations.filter { $0.kind == "func_decl" && $0.offset >= start + inside && $0.offset < end! }
                            .min { $0.offset < $1.offset }?.usr
                    }
                }
                if let target, now.contains(target) || SharedDeclarations.names(target, in: now, oracle: oracle) { continue }
                issues.append(Issue(
                    change: index, path: path, line: changes[index].line,
                    message: "the reference would name \(name(now)), not \(expectation.meaning)"
                ))
            }
        }
        let updated = Self.updatedTexts(changes, in: set)
        // A Swift 6 error of the changes' own text counts (the package builds in Swift 5 mode
        // as well as 6 then); in text they leave as it was, it is the code's own warning.
        for warning in after.swift6Errors {
            let path = CompilerFacts.key(warning.path)
            let mine = byFile[path] ?? []
            let flat = mine.flatMap { index in changes[index].edits.indices.map { (change: index, edit: $0) } }
            let position = Proof.offset(line: warning.line, column: warning.column, in: updated[path] ?? originalText(path))
            if case .inserted(let edit, _) = EditMap(flat.map { changes[$0.change].edits[$0.edit] }).origin(of: position) {
                let change = flat[edit].change
                issues.append(Issue(change: change, path: path, line: changes[change].line, message: warning.message))
            }
        }
        for error in after.errors {
            let path = CompilerFacts.key(error.path)
            let mine = byFile[path] ?? []
            let flat = mine.flatMap { index in changes[index].edits.indices.map { (change: index, edit: $0) } }
            let map = EditMap(flat.map { changes[$0.change].edits[$0.edit] })
            let text = originalText(path)
            let position = Proof.offset(line: error.line, column: error.column, in: updated[path] ?? text)
            switch map.origin(of: position) {
            case .inserted(let edit, _):
                let change = flat[edit].change
                issues.append(Issue(change: change, path: path, line: changes[change].line, message: error.message))
            case .original(let offset):
                let change = mine.first { changes[$0].scope.contains(offset) || changes[$0].edits.contains { $0.start <= offset && offset <= $0.end } }
                issues.append(Issue(change: change, path: path, line: Self.line(of: offset, in: text), message: error.message, offset: offset))
            }
        }
        return issues
    }

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

    private func originalText(_ path: String) -> String {
        set.files.first { CompilerFacts.key($0.path) == path }?.text ?? (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// The 1-based line of a UTF-8 offset.
    static func line(of offset: Int, in text: String) -> Int {
        LineTable(text).line(of: offset)
    }
}

/// The UTF-8 offsets where a text's lines start: the line of an offset by binary search, for
/// callers that ask for many offsets of one text (every reference of a file).
struct LineTable {
    private let starts: [Int]

    init(_ text: String) {
        var starts = [0]
        for (offset, byte) in text.utf8.enumerated() where byte == UInt8(ascii: "\n") { starts.append(offset + 1) }
        self.starts = starts
    }

    /// The 1-based line of a UTF-8 offset (the last line for one past the end).
    func line(of offset: Int) -> Int {
        var (low, high) = (0, starts.count) // the answer is the number of starts <= offset
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        return max(low, 1)
    }
}

/// `--test`: the package's own tests, run on a copy of the package with the changes.
public enum ScratchPackage {
    /// Copies the package around `roots` (without hidden entries such as `.build` and `.git`)
    /// next to it, so that dependencies given by relative paths still resolve; writes
    /// `changes` into the copy; runs `swift build --build-tests` and `swift test` there (their
    /// build folder kept in the package's `.build/tomorrowland-migrate-test`, warm for the next
    /// run); removes the copy. The failure says what failed, with the end of the output.
    public static func test(_ changes: [FileChange], roots: [String]) -> Result<String, OracleUnavailable> {
        guard let package = PackageContext(roots: roots) else {
            return .failure(OracleUnavailable(description: "no Package.swift above \(roots.first ?? "the paths")"))
        }
        let root = CompilerFacts.key(package.root)
        let parent = (root as NSString).deletingLastPathComponent
        let copy = (parent as NSString).appendingPathComponent(".\((root as NSString).lastPathComponent)-tomorrowland-migrate-test")
        let files = FileManager.default
        try? files.removeItem(atPath: copy)
        defer { try? files.removeItem(atPath: copy) }
        do {
            try files.createDirectory(atPath: copy, withIntermediateDirectories: true)
            for entry in try files.contentsOfDirectory(atPath: root) where !entry.hasPrefix(".") {
                try files.copyItem(atPath: root + "/" + entry, toPath: copy + "/" + entry)
            }
            for change in changes {
                let path = CompilerFacts.key(change.path)
                guard path.hasPrefix(root + "/") else { continue }
                try change.updated.write(toFile: copy + path.dropFirst(root.count), atomically: true, encoding: .utf8)
            }
        } catch {
            return .failure(OracleUnavailable(description: "cannot make the copy at \(copy): \(error)"))
        }
        let scratch = ["--package-path", copy, "--scratch-path", root + "/.build/tomorrowland-migrate-test"]
        let build = Process.capture("/usr/bin/env", ["swift", "build", "--build-tests"] + scratch)
        guard build.status == 0 else {
            let first = CompilerDiagnostic.errors(in: build.output).first.map(\.description) ?? tail(build.output)
            return .failure(OracleUnavailable(description: "the copy with the changes does not build: \(first)"))
        }
        let test = Process.capture("/usr/bin/env", ["swift", "test", "--skip-build"] + scratch)
        guard test.status == 0 else {
            return .failure(OracleUnavailable(description: "the package's tests fail on the copy with the changes:\n\(tail(test.output))"))
        }
        // XCTest's last total, and swift-testing's when it ran any test.
        let lines = test.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let totals = [
            lines.last { $0.hasPrefix("Executed ") },
            lines.last { $0.contains("Test run with ") && !$0.contains("with 0 tests") },
        ].compactMap { $0 }
        return .success(totals.isEmpty ? "tests passed" : totals.joined(separator: "; "))
    }

    private static func tail(_ output: String) -> String {
        output.split(separator: "\n").suffix(12).joined(separator: "\n")
    }
}
