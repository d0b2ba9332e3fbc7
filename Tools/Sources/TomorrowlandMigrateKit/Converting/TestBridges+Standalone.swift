// Helpers that wait for a promise on their own, recognised by what their body does (not by
// their name: `waitForValue`, `awaitValue`, `expectValue` alike): `h(_ promise: Promise<T, E>, …)
// -> T?` observes the promise only with `always`/`tap(on: .immediate)`, stores the value of a
// `.value(let v)` case in a local `var` (an error helper: the error of `.error(let e)`) and records
// a failure (`XCTFail`) in every other case, fulfils an expectation, waits for it and returns the
// local: `h(p)` is `p`'s value (error), or nil after a recorded failure.
//
//     func waitForValue<T, E>(_ promise: Promise<T, E>, …) -> T? {
//         let done = expectation(description: "resolved")
//         var value: T?
//         promise.always(on: .immediate) { result in
//             switch result {
//             case .value(let v): value = v
//             case .error(let error): XCTFail("expected a value, got error \(error)")
//             case .cancelled: XCTFail("expected a value, got cancelled")
//             }
//             done.fulfill()
//         }
//         wait(for: [done], timeout: timeout)
//         return value
//     }

import SwiftSyntax

extension TestBridges {
    /// Whether `body` waits for an expectation and every use of `name` in it observes it on `.immediate`
    /// (`always` or `tap`): nothing chains on the promise, cancels it or keeps it.
    static func observesOnlyOnImmediate(_ name: String, in body: CodeBlockSyntax) -> Bool {
        let text = body.description
        guard text.contains("wait(for:") || text.contains("waitForExpectations(") else { return false }
        let uses = NameReferences(name: name)
        uses.walk(body)
        return !uses.found.isEmpty && uses.found.allSatisfy { reference in
            guard let member = reference.parent?.as(MemberAccessExprSyntax.self), member.base?.id == reference.id,
                  ["always", "tap"].contains(member.declName.baseName.text),
                  let call = member.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == member.id,
                  let context = call.arguments.first, context.label?.text == "on" else { return false }
            return context.expression.trimmedDescription == ".immediate"
        }
    }

    /// A helper that waits on its own (above): `.value(throwing: false)` for `-> T?`, `.error` for `-> E?`; nil otherwise.
    static func standaloneKind(_ site: FunctionSite) -> Kind? {
        let signature = site.decl.signature
        let parameters = Array(signature.parameterClause.parameters)
        guard !site.isAsync, signature.effectSpecifiers?.throwsClause == nil, let first = parameters.first,
              parameters.dropFirst().allSatisfy({ $0.defaultValue != nil }),
              let promise = first.type.as(IdentifierTypeSyntax.self), promise.name.text == "Promise",
              let arguments = promise.genericArgumentClause?.arguments.map(\.argument.trimmedDescription), arguments.count == 2,
              let returned = signature.returnClause?.type.as(OptionalTypeSyntax.self)?.wrappedType.trimmedDescription,
              let body = site.decl.body, observesOnlyOnImmediate((first.secondName ?? first.firstName).text, in: body),
              let last = body.statements.last?.item.as(ReturnStmtSyntax.self), let returnedStorage = last.expression,
              isEmptyStorage(returnedStorage, in: body) else { return nil }
        // The one assignment to the storage: `local = v`, in the observer, with `v` bound by the case it stores.
        let assignments = Assignments(storage: returnedStorage.trimmedDescription)
        assignments.walk(body)
        guard assignments.found.count == 1, let (assigned, sequence) = assignments.found.first,
              isInClosure(Syntax(sequence)),
              let stored = storedCase(of: assigned, from: Syntax(sequence)) else { return nil }
        switch stored {
        case "value" where returned == arguments[0]: return .value(throwing: false)
        case "error" where returned == arguments[1]: return .error
        default: return nil
        }
    }

    /// Whether `storage` is a local `var x: T?` declared empty (no value or `nil`), or a member of a local
    /// `let` made with `nil` alone (`box.value` of `let box = Box<T?>(nil)`, a Sendable box in Swift 6 mode).
    private static func isEmptyStorage(_ storage: ExprSyntax, in body: CodeBlockSyntax) -> Bool {
        let member = storage.as(MemberAccessExprSyntax.self)
        guard let local = (member?.base ?? storage).as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
        return body.statements.contains { item in
            guard let variable = item.item.as(VariableDeclSyntax.self), variable.bindings.count == 1, let binding = variable.bindings.first,
                  binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == local else { return false }
            if member == nil {
                return variable.bindingSpecifier.text == "var"
                    && (binding.initializer == nil || binding.initializer?.value.is(NilLiteralExprSyntax.self) == true)
            }
            guard let made = binding.initializer?.value.as(FunctionCallExprSyntax.self), made.arguments.count == 1 else { return false }
            return made.arguments.first?.expression.is(NilLiteralExprSyntax.self) == true
        }
    }

    private static func isInClosure(_ node: Syntax) -> Bool {
        var current = node.parent
        while let node = current {
            if node.is(ClosureExprSyntax.self) { return true }
            current = node.parent
        }
        return false
    }

    /// The case (`value`, `error`) whose bound `name` an assignment at `node` stores, when every other way
    /// through records a failure: a `switch` whose other cases call `XCTFail`, an `if case` whose `else` does,
    /// a `guard case` (before it, in the same block) whose body does.
    private static func storedCase(of name: String, from node: Syntax) -> String? {
        let binds = { (pattern: PatternSyntax) -> String? in
            let text = pattern.trimmedDescription.filter { !$0.isWhitespace }
            for kind in ["value", "error"] where text == ".\(kind)(let\(name))" || text == "let.\(kind)(\(name))" { return kind }
            return nil
        }
        let fails = { (node: Syntax) in node.description.contains("XCTFail(") }
        var current: Syntax? = node
        while let child = current, let parent = child.parent, !parent.is(ClosureExprSyntax.self) {
            if let switchCase = parent.as(SwitchCaseSyntax.self), let label = switchCase.label.as(SwitchCaseLabelSyntax.self),
               label.caseItems.count == 1, let kind = label.caseItems.first.flatMap({ binds($0.pattern) }),
               let cases = switchCase.parent?.as(SwitchCaseListSyntax.self) {
                return cases.allSatisfy { $0.id == switchCase.id || fails(Syntax($0)) } ? kind : nil
            }
            if let ifExpr = parent.as(IfExprSyntax.self), ifExpr.body.id == child.id, ifExpr.conditions.count == 1,
               let condition = ifExpr.conditions.first?.condition.as(MatchingPatternConditionSyntax.self),
               let kind = binds(condition.pattern) {
                return ifExpr.elseBody.map { fails(Syntax($0)) } == true ? kind : nil
            }
            if let block = parent.as(CodeBlockItemListSyntax.self), let item = child.as(CodeBlockItemSyntax.self) {
                for earlier in block.prefix(while: { $0.id != item.id }) {
                    guard let guardStmt = earlier.item.as(GuardStmtSyntax.self), guardStmt.conditions.count == 1,
                          let condition = guardStmt.conditions.first?.condition.as(MatchingPatternConditionSyntax.self),
                          let kind = binds(condition.pattern) else { continue }
                    return fails(Syntax(guardStmt.body)) ? kind : nil
                }
            }
            current = parent
        }
        return nil
    }
}

/// The assignments `storage = v` (`v` a plain name; `storage` as written: `value`, `box.value`) in what it
/// walks: `v`'s name and the expression.
private final class Assignments: SyntaxVisitor {
    let storage: String
    var found: [(String, SequenceExprSyntax)] = []

    init(storage: String) {
        self.storage = storage
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        if elements.count == 3, elements[1].is(AssignmentExprSyntax.self),
           elements[0].trimmedDescription == storage {
            // Any other assignment to the local counts too (its name empty): not a plain store of the case's value.
            found.append((elements[2].as(DeclReferenceExprSyntax.self)?.baseName.text ?? "", node))
        }
        return .visitChildren
    }
}

extension TestBridges {
    /// The edits that let the reads of `name` after `statement` in `function` read it as not optional, now
    /// that it holds an awaited value (or a caught error) where it held a helper's optional: `name?.x` →
    /// `name.x`, `name!` → `name`. Each read must be an argument of an assertion (in `name?.x…` or as
    /// itself, promoted to an optional where the assertion compares one): there a value compares as its
    /// `.some` did, and without a value the test has already failed (the throw ends it; the helper had
    /// recorded a failure). Any other read (`if let`, `??`, `== nil`, a member of the optional, a call's
    /// argument) is the reason the call stays.
    static func nonOptionalReads(
        of name: String, after statement: CodeBlockItemSyntax, in function: FunctionDeclSyntax
    ) -> Result<[TextEdit], Reason> {
        guard let body = function.body else { return .failure(.otherUse) }
        let after = statement.endPosition
        let use = { (node: Syntax) in Reason.optionalRead(name: name, use: ConvertCalls.shortText(of: node)) }
        // A later `let name`, `if let name`, `guard let name`, closure parameter: it would read another value.
        let patterns = body.tokens(viewMode: .sourceAccurate).filter { token in
            token.position >= after && token.text == name
                && (token.parent?.is(IdentifierPatternSyntax.self) == true || token.parent?.is(ClosureShorthandParameterSyntax.self) == true)
        }
        if let shadow = patterns.first {
            let item = shadow.parent?.ancestorStatement
            return .failure(use(item.map(Syntax.init) ?? Syntax(shadow)))
        }
        let references = NameReferences(name: name)
        references.walk(body)
        var edits: [TextEdit] = []
        for reference in references.found where reference.position >= after {
            if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id { continue }
            var top = ExprSyntax(reference)
            if let chained = reference.parent?.as(OptionalChainingExprSyntax.self) {
                edits.append(TextEdit(
                    start: chained.questionMark.positionAfterSkippingLeadingTrivia.utf8Offset,
                    end: chained.questionMark.endPositionBeforeTrailingTrivia.utf8Offset, text: ""
                ))
                top = ExprSyntax(chained)
            } else if let unwrapped = reference.parent?.as(ForceUnwrapExprSyntax.self) {
                edits.append(TextEdit(
                    start: unwrapped.exclamationMark.positionAfterSkippingLeadingTrivia.utf8Offset,
                    end: unwrapped.exclamationMark.endPositionBeforeTrailingTrivia.utf8Offset, text: ""
                ))
                top = ExprSyntax(unwrapped)
            } else if let member = reference.parent?.as(MemberAccessExprSyntax.self), member.base?.id == reference.id {
                // `name.map { … }`: a member of the optional (`Optional.map`), another one once it is not optional.
                return .failure(use(Syntax(member)))
            }
            // Up the postfix chain (`name?.slot.id`, `name?.map(\.id)`, `name?[0]`) to the argument it is.
            top = postfixChainTop(of: top, includingSubscripts: true)
            guard let argument = top.parent?.as(LabeledExprSyntax.self), argument.expression.id == top.id,
                  let assertion = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
                  assertions.contains(assertion.calledExpression.trimmedDescription) else {
                return .failure(use(top.parent?.as(LabeledExprSyntax.self)?.parent?.parent ?? Syntax(top)))
            }
        }
        return .success(edits)
    }

    /// `let x = waitForError(f())` and the statements after it up to the last that reads `x`, as
    /// `do { _ = try await f(); XCTFail(…) } catch let x as E { those statements }`: the range it
    /// replaces and its text (`call` written at `callText`), or why the call stays.
    static func catchBlock(
        name: String, statement: CodeBlockItemSyntax, call: String, error: String, indent: String,
        in function: FunctionDeclSyntax, file: ParsedFile
    ) -> Result<(range: Range<Int>, text: String, callOffset: Int), Reason> {
        guard let items = statement.parent?.as(CodeBlockItemListSyntax.self), items.parent?.id == testStatements(of: function)?.holder,
              let index = items.firstIndex(where: { $0.id == statement.id }) else { return .failure(.otherUse) }
        let reads: [TextEdit]
        switch nonOptionalReads(of: name, after: statement, in: function) {
        case .failure(let reason): return .failure(reason)
        case .success(let edits): reads = edits
        }
        let following = Array(items[items.index(after: index)...])
        let references = NameReferences(name: name)
        function.body.map { references.walk($0) }
        let lastRead = following.lastIndex { item in
            references.found.contains { $0.position >= item.position && $0.endPosition <= item.endPosition }
        }
        let moved = lastRead.map { Array(following[...$0]) } ?? []
        if let declaration = moved.first(where: { $0.item.is(DeclSyntax.self) }) {
            return .failure(.declarationMoved(ConvertCalls.shortText(of: declaration)))
        }
        let start = statement.positionAfterSkippingLeadingTrivia.utf8Offset
        var end = statement.endPositionBeforeTrailingTrivia.utf8Offset
        var lines = ["do {", indent + "    _ = try await " + call, indent + "    XCTFail(\"expected an error\")"]
        let callOffset = lines[0].utf8.count + 1 + (indent + "    _ = try await ").utf8.count
        if let first = moved.first, let last = moved.last {
            let from = first.positionAfterSkippingLeadingTrivia.utf8Offset
            end = last.endPositionBeforeTrailingTrivia.utf8Offset
            let bytes = Array(file.text.utf8)[from..<end]
            let text = TextEdit.apply(reads.map { TextEdit(start: $0.start - from, end: $0.end - from, text: $0.text) },
                                      to: String(decoding: bytes, as: UTF8.self))
            lines.append(indent + "} catch let \(name) as \(error) {")
            lines += text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { offset, line in
                offset == 0 ? indent + "    " + line : (line.isEmpty ? "" : "    " + line)
            }
            lines.append(indent + "}")
        } else {
            lines.append(indent + "} catch is \(error) {}")
        }
        return .success((start..<end, lines.joined(separator: "\n"), callOffset))
    }
}

private extension Syntax {
    /// The statement (a code block item) this node is part of.
    var ancestorStatement: CodeBlockItemSyntax? {
        var current: Syntax? = self
        while let node = current {
            if let item = node.as(CodeBlockItemSyntax.self) { return item }
            current = node.parent
        }
        return nil
    }
}
