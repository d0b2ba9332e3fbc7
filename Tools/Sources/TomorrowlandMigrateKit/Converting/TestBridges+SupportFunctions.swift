// A test class's own support function may wait through a helper too (Ledger's `private func
// seededStore() throws -> LedgerStore`, which inserts with `_ = try value(of: store.insert(…))`):
// a test calling it would still wait synchronously (TestBridges+RunLoopWaits) and stay synchronous.
// Such a function, private to its file, is planned as a test is: its waits rewritten the same way.
// When every call of it is a statement's call in a test convert-calls converts (or in another such
// function), outside closures, it is made `@MainActor … async` too, and awaited at its calls:
//
//     private func seededStore() throws -> LedgerStore {         @MainActor private func seededStore() async throws -> LedgerStore {
//         let store = Fixtures.store()                              let store = Fixtures.store()
//         _ = try value(of: store.insert([…]))            →         _ = try await store.insert([…]).value
//         return store                                              return store
//     }                                                         }
//     let builder = StatementBuilder(store: try seededStore())  →  … StatementBuilder(store: try await seededStore())
//
// Made `@MainActor` like its callers, it runs where it ran (the main thread, in order with the
// test's statements). Otherwise (a call elsewhere, a caller that stays synchronous, a wait of its
// own left) it and its tests stay as they were, its calls left as outside a test. The function and
// the tests calling it stand or fall together in the proof (one group per file).

import SwiftSyntax

extension TestBridges {
    /// A function of a type whose body holds `node`, that is not a test: synchronous, not static, not
    /// generic, not an override, private to its file (so every call of it is in the scanned file). Nil else.
    static func supportFunction(around node: Syntax) -> FunctionDeclSyntax? {
        var current = node.parent
        while let node = current {
            if node.is(ClosureExprSyntax.self) { return nil }
            if let function = node.as(FunctionDeclSyntax.self) {
                let modifiers = function.modifiers.map(\.name.text)
                guard function.signature.effectSpecifiers?.asyncSpecifier == nil, function.genericParameterClause == nil,
                      function.parent?.parent?.parent?.is(MemberBlockSyntax.self) == true,
                      modifiers.contains("private") || modifiers.contains("fileprivate"),
                      !modifiers.contains(where: { ["static", "class", "override"].contains($0) }) else { return nil }
                return function
            }
            current = node.parent
        }
        return nil
    }

    /// The support functions made async with their callers, and the awaits of their calls.
    struct SupportFunctions {
        /// The support functions made async.
        private(set) var converted: Set<SyntaxIdentifier> = []
        /// The calls of them to await, by the method that makes them.
        private var awaits: [SyntaxIdentifier: [FunctionCallExprSyntax]] = [:]
        /// The methods whose changes stand or fall with a support function's, and their group.
        private var groups: [SyntaxIdentifier: String] = [:]

        /// `methods`: the tests and support functions planned, with their edits made.
        init(_ methods: [SyntaxIdentifier: Method], waits: RunLoopWaits, project: Project) {
            var calls: [SyntaxIdentifier: [(caller: SyntaxIdentifier, call: FunctionCallExprSyntax)]] = [:]
            for (id, support) in methods where support.isSupport {
                guard let found = Self.calls(of: support.function, in: support.file, project: project), !found.isEmpty else { continue }
                let callers = found.map { call in (Self.caller(of: call, in: methods), call) }
                guard callers.allSatisfy({ $0.0 != nil }) else { continue }
                calls[id] = callers.map { ($0.0!, $0.1) }
            }
            var candidates = Set(calls.keys)
            let edits = { (candidates: Set<SyntaxIdentifier>) -> [SyntaxIdentifier: [FunctionCallExprSyntax]] in
                var edits: [SyntaxIdentifier: [FunctionCallExprSyntax]] = [:]
                for id in candidates {
                    for (caller, call) in calls[id] ?? [] { edits[caller, default: []].append(call) }
                }
                return edits
            }
            // Until none is dropped: a support function, its callers (tests, or support functions kept) and none waiting still.
            var changed = true
            while changed {
                changed = false
                let awaiting = edits(candidates)
                for id in candidates {
                    let callers = calls[id] ?? []
                    let fits = callers.allSatisfy { !(methods[$0.caller]?.isSupport ?? true) || candidates.contains($0.caller) }
                        && ([id] + callers.map(\.caller)).allSatisfy { member in
                            guard var method = methods[member], method.awaitCalls(awaiting[member] ?? []) else { return false }
                            return method.stillWaits(waits, project: project) == nil
                        }
                    if !fits {
                        candidates.remove(id)
                        changed = true
                    }
                }
            }
            converted = candidates
            awaits = edits(candidates)
            for id in candidates {
                guard let path = methods[id]?.file.path else { continue }
                for member in [id] + (calls[id] ?? []).map(\.caller) { groups[member] = "support functions of " + path }
            }
        }

        /// Adds to `method` the awaits of its calls of the support functions made async.
        func await(in method: inout Method, id: SyntaxIdentifier) {
            _ = method.awaitCalls(awaits[id] ?? [])
        }

        /// The group of `id`'s change: with the support function it calls or is, nil for none.
        func group(of id: SyntaxIdentifier) -> String? {
            groups[id]
        }

        /// The calls of `function` in `file` (each reference to its name the called function of a call that
        /// is a statement's, or a value's in a statement, outside closures); nil when it is referred to otherwise.
        private static func calls(of function: FunctionDeclSyntax, in file: ParsedFile, project: Project) -> [FunctionCallExprSyntax]? {
            let references = NameReferences(name: function.name.text)
            references.walk(file.tree)
            let usr = project.usr(endingAt: function.endOffset, in: file.path)
            var calls: [FunctionCallExprSyntax] = []
            for reference in references.found {
                var called = ExprSyntax(reference)
                if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
                    guard member.base?.trimmedDescription == "self" else { continue }
                    called = ExprSyntax(member)
                }
                let offset = reference.baseName.positionAfterSkippingLeadingTrivia.utf8Offset
                if let usr, let callee = project.callee(nameAt: offset, in: file.path), callee != usr { continue }
                guard let call = called.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == called.id else { return nil }
                calls.append(call)
            }
            return calls
        }

        /// The planned method whose own statements (outside closures and nested functions) make `call`.
        private static func caller(of call: FunctionCallExprSyntax, in methods: [SyntaxIdentifier: Method]) -> SyntaxIdentifier? {
            var current = call.parent
            while let node = current {
                if node.is(ClosureExprSyntax.self) { return nil }
                if let function = node.as(FunctionDeclSyntax.self) {
                    return methods[function.id] == nil ? nil : function.id
                }
                current = node.parent
            }
            return nil
        }
    }
}

extension TestBridges.Method {
    /// Awaits each of `calls` (`try f()` → `try await f()`): an edit of its own, or, in the text of an edit
    /// that rewrites the statement around it (`try value(of: g(try f()))` → `try await g(try await f())`),
    /// where that text holds it once as the original did (the expectations in that text shifted). False
    /// when one cannot be awaited so.
    mutating func awaitCalls(_ calls: [FunctionCallExprSyntax]) -> Bool {
        let original = Array(file.text.utf8)
        for call in calls {
            let called = call.calledExpression
            let start = called.positionAfterSkippingLeadingTrivia.utf8Offset
            let end = called.endPositionBeforeTrailingTrivia.utf8Offset
            guard let index = edits.indices.first(where: { edits[$0].end > edits[$0].start && edits[$0].start <= start && start < edits[$0].end })
            else {
                edits.append(TextEdit(start: start, end: end, text: "await " + called.trimmedDescription))
                continue
            }
            let edit = edits[index]
            let callText = call.trimmedDescription
            let replaced = String(decoding: original[edit.start..<edit.end], as: UTF8.self)
            guard call.endPositionBeforeTrailingTrivia.utf8Offset <= edit.end, replaced.components(separatedBy: callText).count == 2,
                  edit.text.components(separatedBy: callText).count == 2, let found = edit.text.range(of: callText) else { return false }
            let at = edit.text.utf8.distance(from: edit.text.utf8.startIndex, to: found.lowerBound.samePosition(in: edit.text.utf8)!)
            edits[index] = TextEdit(start: edit.start, end: edit.end, text: edit.text.replacingCharacters(in: found, with: "await " + callText))
            expectations = expectations.map { expectation in
                guard case .inserted(let inEdit, let offset) = expectation.place, inEdit == index, offset >= at else { return expectation }
                return PlannedChange.Expectation(place: .inserted(edit: inEdit, offset: offset + 6), target: expectation.target, meaning: expectation.meaning)
            }
        }
        return true
    }
}
