// What the compiler objects to in a scratch copy with planned changes: references outside the
// edited text that name something else than before, references a change expects to redirect
// that do not, and the errors (and Swift 6 errors) of the copy, each tied to the change that
// answers for it where one does.

extension EditProof {
    /// What the compiler objects to in `after`, the facts of the scratch copy with `changes`.
    func issues(of changes: [PlannedChange], after: CompilerFacts) -> [Issue] {
        let search = IssueSearch(proof: self, changes: changes, after: after)
        var issues: [Issue] = []
        for (path, old) in before.files.sorted(by: { $0.key < $1.key }) {
            issues += search.referenceIssues(path: path, old: old)
        }
        let updated = Self.updatedTexts(changes, in: set)
        issues += search.swift6Issues(updated: updated)
        issues += search.errorIssues(updated: updated)
        return issues
    }
}

/// One search for issues: the changes, the scratch copy's facts, and what the files share.
struct IssueSearch {
    typealias Issue = EditProof.Issue
    /// Where an expected reference ends in the edited text → the change and what it expects.
    typealias Expected = [Int: (change: Int, expectation: PlannedChange.Expectation)]

    let proof: EditProof
    let changes: [PlannedChange]
    let after: CompilerFacts
    /// The indices of the changes of each file, by `CompilerFacts.key`.
    let byFile: [String: [Int]]
    /// The declarations of the copy, and of the code as it is where the copy has none.
    let declarationsByUSR: [String: CompilerFacts.Declaration]

    init(proof: EditProof, changes: [PlannedChange], after: CompilerFacts) {
        self.proof = proof
        self.changes = changes
        self.after = after
        byFile = Dictionary(grouping: changes.indices, by: { CompilerFacts.key(changes[$0].path) })
        declarationsByUSR = after.declarationsByUSR.merging(proof.before.declarationsByUSR) { new, _ in new }
    }

    /// One file as the search looks at it: its references before and after, and its edits.
    struct FileView {
        let path: String
        let old: CompilerFacts.File
        let new: CompilerFacts.File
        /// The indices of the changes that edit it.
        let mine: [Int]
        /// Every edit of those changes, as (change, edit index); `map` was made from them in this order.
        let flat: [(change: Int, edit: Int)]
        let map: EditMap
        let lines: LineTable
    }

    /// The declarations `usrs` name, for notes ("nothing" for none).
    func name(_ usrs: Set<String>) -> String {
        usrs.isEmpty ? "nothing" : usrs.sorted().map { usr in declarationsByUSR[usr].map { "`\($0.name)`" } ?? usr }.joined(separator: ", ")
    }

    /// The edits of the changes `mine` (of one file), each with its change, and the map they make.
    func edits(of mine: [Int]) -> (flat: [(change: Int, edit: Int)], map: EditMap) {
        let flat = mine.flatMap { index in changes[index].edits.indices.map { (change: index, edit: $0) } }
        return (flat, EditMap(flat.map { changes[$0.change].edits[$0.edit] }))
    }

    /// The change of `file` whose scope holds `offset` of the original text.
    func owner(of offset: Int, in file: FileView) -> Int? {
        file.mine.first { changes[$0].scope.contains(offset) }
    }

    /// The issues of the references of the file at `path`, whose facts before the changes are `old`.
    func referenceIssues(path: String, old: CompilerFacts.File) -> [Issue] {
        let lines = LineTable(proof.originalText(path))
        let mine = byFile[path] ?? []
        let (flat, map) = edits(of: mine)
        guard let new = after.files[path] else {
            guard after.errors.isEmpty else { return [] }
            return [Issue(change: mine.count == 1 ? mine[0] : nil, path: path, line: 1, message: "the compiler gave no AST for this file")]
        }
        let file = FileView(path: path, old: old, new: new, mine: mine, flat: flat, map: map, lines: lines)
        var (expected, issues) = expectedReferences(in: file)
        issues += changedReferences(in: file, expected: expected)
        issues += appearedReferences(in: file, expected: expected)
        issues += unmetExpectations(in: file, expected: expected)
        return issues
    }

    /// Where each expectation's reference ends in the edited text: the file's own changes',
    /// then those of changes of other files that mean a reference of this one; an issue for
    /// each of the file's own that lies in replaced text.
    func expectedReferences(in file: FileView) -> (Expected, [Issue]) {
        var expected: Expected = [:]
        var issues: [Issue] = []
        for index in file.mine {
            for expectation in changes[index].expectations {
                let position: Int?
                switch expectation.place {
                case .original(let offset): position = file.map.newOffset(offset)
                case .inserted(let edit, let offset):
                    let placed = file.flat.firstIndex { $0.change == index && $0.edit == edit }
                    position = placed.flatMap(file.map.newStart(ofEdit:)).map { $0 + offset }
                case .elsewhere: continue
                }
                guard let position else {
                    issues.append(Issue(change: index, path: file.path, line: changes[index].line, message: "an expected reference lies in replaced text"))
                    continue
                }
                expected[position] = (index, expectation)
            }
        }
        // References in this file that a change of another file means to point elsewhere.
        for (index, change) in changes.enumerated() {
            for expectation in change.expectations {
                guard case .elsewhere(let other, let offset) = expectation.place, CompilerFacts.key(other) == file.path,
                      let position = file.map.newOffset(offset) else { continue }
                expected[position] = (index, expectation)
            }
        }
        return (expected, issues)
    }

    /// References outside the edited text, not expected to change, that name something else.
    func changedReferences(in file: FileView, expected: Expected) -> [Issue] {
        var issues: [Issue] = []
        for (offset, was) in file.old.references.sorted(by: { $0.key < $1.key }) {
            guard let moved = file.map.newOffset(offset), expected[moved] == nil else { continue }
            let now = file.new.references[moved] ?? []
            if now != was {
                let (nowNames, wasNames) = (name(now), name(was))
                let differ = nowNames == wasNames ? " (\(now.sorted()) instead of \(was.sorted()))" : ""
                issues.append(Issue(
                    change: owner(of: offset, in: file), path: file.path, line: file.lines.line(of: offset),
                    message: "a reference would name \(nowNames) instead of \(wasNames)\(differ)", offset: offset
                ))
            }
        }
        return issues
    }

    /// References in the original text where there was none before (and none expected).
    func appearedReferences(in file: FileView, expected: Expected) -> [Issue] {
        var issues: [Issue] = []
        for (offset, now) in file.new.references.sorted(by: { $0.key < $1.key }) where expected[offset] == nil {
            guard case .original(let original) = file.map.origin(of: offset), file.old.references[original] == nil else { continue }
            issues.append(Issue(
                change: owner(of: original, in: file), path: file.path, line: file.lines.line(of: original),
                message: "a reference to \(name(now)) appears where there was none", offset: original
            ))
        }
        return issues
    }

    /// Expected references that do not name what their change says.
    func unmetExpectations(in file: FileView, expected: Expected) -> [Issue] {
        var issues: [Issue] = []
        for (offset, entry) in expected.sorted(by: { $0.key < $1.key }) {
            let (index, expectation) = (entry.change, entry.expectation)
            let now = file.new.references[offset] ?? []
            if let target = target(of: expectation, change: index),
               now.contains(target) || SharedDeclarations.names(target, in: now, oracle: proof.oracle) { continue }
            issues.append(Issue(
                change: index, path: file.path, line: changes[index].line,
                message: "the reference would name \(name(now)), not \(expectation.meaning)"
            ))
        }
        return issues
    }

    /// The USR an expectation of the change `index` means: given, or the first function the
    /// compiler declared from its offset on in the edit's text, in the change's own file (a
    /// reference elsewhere may name it; the edit's range may start at a modifier or at `func`).
    func target(of expectation: PlannedChange.Expectation, change index: Int) -> String? {
        switch expectation.target {
        case .usr(let usr):
            return usr
        case .declaration(let edit, let inside):
            let own = CompilerFacts.key(changes[index].path)
            let (ownFlat, ownMap) = edits(of: byFile[own] ?? [])
            let placed = ownFlat.firstIndex { $0.change == index && $0.edit == edit }
            guard let start = placed.flatMap(ownMap.newStart(ofEdit:)) else { return nil }
            let end = start + changes[index].edits[edit].text.utf8.count
            return after.file(own)?.declarations.filter { $0.kind == "func_decl" && $0.offset >= start + inside && $0.offset < end }
                .min { $0.offset < $1.offset }?.usr
        }
    }

    /// A Swift 6 error of the changes' own text counts (the package builds in Swift 5 mode as
    /// well as 6 then); in text they leave as it was, it is the code's own warning.
    func swift6Issues(updated: [String: String]) -> [Issue] {
        var issues: [Issue] = []
        for warning in after.swift6Errors {
            let path = CompilerFacts.key(warning.path)
            let (flat, map) = edits(of: byFile[path] ?? [])
            let position = Proof.offset(line: warning.line, column: warning.column, in: updated[path] ?? proof.originalText(path))
            if case .inserted(let edit, _) = map.origin(of: position) {
                let change = flat[edit].change
                issues.append(Issue(change: change, path: path, line: changes[change].line, message: warning.message))
            }
        }
        return issues
    }

    /// The copy's errors: one in a change's text is that change's; one in the original text is
    /// the change's whose scope or edit holds it, if any.
    func errorIssues(updated: [String: String]) -> [Issue] {
        var issues: [Issue] = []
        for error in after.errors {
            let path = CompilerFacts.key(error.path)
            let mine = byFile[path] ?? []
            let (flat, map) = edits(of: mine)
            let text = proof.originalText(path)
            let position = Proof.offset(line: error.line, column: error.column, in: updated[path] ?? text)
            switch map.origin(of: position) {
            case .inserted(let edit, _):
                let change = flat[edit].change
                issues.append(Issue(change: change, path: path, line: changes[change].line, message: error.message))
            case .original(let offset):
                let change = mine.first { changes[$0].scope.contains(offset) || changes[$0].edits.contains { $0.start <= offset && offset <= $0.end } }
                issues.append(Issue(change: change, path: path, line: EditProof.line(of: offset, in: text), message: error.message, offset: offset))
            }
        }
        return issues
    }
}
