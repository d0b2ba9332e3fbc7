// Settling a proof: rounds of type-checking the changes in a scratch copy, each dropping the
// changes the compiler objects to, until the rest passes (or nothing can be written).

import Foundation

extension EditProof {
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
                outcome.accepted = pending
                outcome.notes.append(acceptedNote(pending, round: round))
                return outcome
            }
            let drop: [Int: String]
            switch drops(for: issues, among: pending, searches: &searches) {
            case .drop(let found):
                drop = Self.withMates(found, among: pending)
            case .unsettled(let notes):
                outcome.failed = true
                outcome.notes = notes
                return outcome
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

    /// The note for changes that passed in `round`: how many references the compiler checked.
    func acceptedNote(_ pending: [PlannedChange], round: Int) -> MigrationNote {
        let checked = before.files.values.reduce(0) { $0 + $1.references.count }
        let expected = pending.reduce(0) { $0 + $1.expectations.count }
        return MigrationNote(
            path: paths.first ?? ".", line: 1,
            message: "checked by the compiler (round \(round)): with the \(pending.count) change(s), all \(checked) references in "
                + "\(before.files.count) file(s) name the same declaration as before"
                + (expected == 0 ? "" : ", and the \(expected) the changes redirect name what they should")
        )
    }

    /// What a round's issues cost: the changes to drop, by index, each with its reason; or the
    /// notes that say why nothing can be written.
    enum Drops {
        case drop([Int: String])
        case unsettled([MigrationNote])
    }

    /// The changes `issues` cost. An issue a change answers for costs that change. Issues no
    /// change answers for are often what a dropped change broke around it (an operator of the
    /// same expression): they are looked at again in the next round. Alone, each costs the
    /// nearest change of its file; in a file no change edits, the changes that delete what it
    /// names, or the one found by halves; else nothing is written.
    func drops(for issues: [Issue], among pending: [PlannedChange], searches: inout Int) -> Drops {
        var drop: [Int: String] = [:]
        for issue in issues {
            guard let change = issue.change else { continue }
            drop[change] = drop[change] ?? "\(issue.path):\(issue.line): \(issue.message)"
        }
        guard drop.isEmpty else { return .drop(drop) }
        var untied: [Issue] = []
        for issue in issues {
            guard let nearest = Self.nearest(to: issue, among: pending) else {
                untied.append(issue)
                continue
            }
            drop[nearest] = drop[nearest] ?? "\(issue.path):\(issue.line): \(issue.message) (the nearest change)"
        }
        guard drop.isEmpty, let issue = untied.first else { return .drop(drop) }
        let place = "\(issue.path):\(issue.line): \(issue.message)"
        let named = Self.deleting(namesIn: untied, among: pending, in: set)
        if !named.isEmpty {
            for index in named { drop[index] = "\(place) (it names what the change deletes)" }
        } else if let found = culprit(of: untied, among: pending, budget: &searches) {
            drop[found] = "\(place) (found by proving the changes in halves)"
        } else {
            return .unsettled(untied.map {
                MigrationNote(path: $0.path, line: $0.line, message: "nothing written: with the changes, \($0.message)")
            })
        }
        return .drop(drop)
    }

    /// The change of the issue's file whose scope is nearest to it (0 inside); nil when no
    /// change edits that file.
    static func nearest(to issue: Issue, among pending: [PlannedChange]) -> Int? {
        let inFile = pending.indices.filter { CompilerFacts.key(pending[$0].path) == CompilerFacts.key(issue.path) }
        let offset = issue.offset ?? 0
        let distance = { (index: Int) in
            let scope = pending[index].scope
            return scope.contains(offset) ? 0 : min(abs(scope.lowerBound - offset), abs(scope.upperBound - offset))
        }
        return inFile.min(by: { distance($0) < distance($1) })
    }

    /// `drop` with the changes that stand or fall with a dropped one (the same group), each
    /// with the reason of the one it goes with.
    static func withMates(_ drop: [Int: String], among pending: [PlannedChange]) -> [Int: String] {
        var drop = drop
        for (index, reason) in drop.sorted(by: { $0.key < $1.key }) {
            for mate in pending.indices where drop[mate] == nil && pending[mate].group != nil && pending[mate].group == pending[index].group {
                drop[mate] = "it stands or falls with the change at \(pending[index].path):\(pending[index].line), "
                    + "which the compiler objects to (\(reason))"
            }
        }
        return drop
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
}
