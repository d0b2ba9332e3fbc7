// A test convert-calls makes async may also wait, through a helper, on a promise it keeps (a local
// `let p = model.checkout()`, a property, `token.inner`): it started the work earlier to check
// something during the call (a cancel request, `p.result` read at once, the requests made). Left
// as it is, that wait would spin the run loop inside a job of the main actor, where the main
// queue is not drained (TestBridges+RunLoopWaits). So it becomes an await of that promise through
// TomorrowlandAsync, where it stands: the checks before it stay before it, in the same order, and
// the test suspends instead of spinning, so a callback on `.main` runs.
//
//     XCTAssertEqual(result(of: p)?.value, 5)     →  let pResult = await p.resolvedResult
//                                                    XCTAssertEqual(pResult.value, 5)
//     XCTAssertEqual(result(of: p), .cancelled)   →  let pResult = await p.resolvedResult
//                                                    XCTAssertEqual(pResult, .cancelled)
//     let x = result(of: p)?.error                →  let x = await p.resolvedResult.error
//     XCTAssertEqual(try value(of: p), 5)         →  let pValue = try await p.value
//                                                    XCTAssertEqual(pValue, 5)
//     XCTAssertEqual(error(of: p), .x)            →  do { _ = try await p.value; XCTFail(…) } catch let error as E { … }
//     assertCancelled(p)                          →  let pResult = await p.resolvedResult
//                                                    XCTAssertEqual(pResult.isCancelled, true, "expected cancelled, got …")
//
// `resolvedResult` is the promise's result, what the result helper returned (never nil: an await
// does not time out), so every member read of it reads the same; a value or error helper's reading
// is rewritten as for a call (TestBridges), with `p.value` for the call's twin. An assertion helper
// (`assertCancelled(_:)`: `let r = result(of: promise)` and assertions of `r`) is inlined: its
// assertions, with their messages, of the awaited result (`r?.x` read as `r.x`; the `file:`/`line:`
// it passed on become the call site's own). Anything else about the promise (a typed error the
// compiler does not spell, a reading not rewritten) keeps the wait, and the test stays synchronous.
//
// The same goes for a wait on a call's promise whose rewrite as a call of its twin was refused (a
// reading not rewritten, an optional value, a conformer's method) or that has no async counterpart:
// `let x = result(of: f())?.value` → `let x = await f().resolvedResult.value`, the call made where the
// helper's argument made it, and the proof checks that it still names the promise-returning function.

import SwiftSyntax

extension TestBridges {
    /// A helper that asserts something of a promise's result: `h(_ promise: Promise<V, E>, …)`
    /// whose body is `let r = result(of: promise, …)`, then assertions (`XCTAssert…`, `XCTFail`) that
    /// read `r` only as `r?.x`, `r!`, `String(describing: r)` or in a string's interpolation.
    struct AssertionHelper {
        /// The helper's first argument label (nil: `_`).
        let label: String?
        /// The local the result helper's result is bound to.
        let result: String
        let assertions: [FunctionCallExprSyntax]
        /// The parameters passed on only as `file: file`, `line: line` (the call site's location).
        let location: Set<String>

        /// The assertions, of `name` (the awaited result, not optional), at the call site.
        func inlined(as name: String) -> [String] {
            assertions.map { assertion in
                let arguments = assertion.arguments.filter { argument in
                    !location.contains(argument.expression.trimmedDescription)
                }.map { argument in
                    (argument.label.map { $0.text + ": " } ?? "") + TestBridges.replacing(result, with: name, in: argument.expression)
                }
                return assertion.calledExpression.trimmedDescription + "(" + arguments.joined(separator: ", ") + ")"
            }
        }
    }

    /// The assertion helper `site` is (above), or nil. `resultHelpers`: the result helpers' names.
    static func assertionHelper(_ site: FunctionSite, resultHelpers: Set<String>) -> AssertionHelper? {
        let signature = site.decl.signature
        let parameters = Array(signature.parameterClause.parameters)
        guard !site.isAsync, signature.effectSpecifiers?.throwsClause == nil, signature.returnClause == nil,
              let first = parameters.first, first.type.trimmedDescription.hasPrefix("Promise<"),
              parameters.dropFirst().allSatisfy({ $0.defaultValue != nil }),
              let statements = site.decl.body?.statements.map(\.item), statements.count >= 2,
              let binding = statements[0].as(VariableDeclSyntax.self)?.bindings.first,
              statements[0].as(VariableDeclSyntax.self)?.bindings.count == 1,
              let result = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let call = binding.initializer?.value.as(FunctionCallExprSyntax.self), let (helper, base) = Calls.calledName(call),
              base == nil || base?.trimmedDescription == "self", resultHelpers.contains(helper) else { return nil }
        let promise = (first.secondName ?? first.firstName).text
        let names = parameters.dropFirst().map { ($0.secondName ?? $0.firstName).text }
        // The result helper's call: the promise, then only the location passed on.
        let passed = call.arguments.dropFirst()
        guard call.arguments.first?.expression.trimmedDescription == promise,
              passed.allSatisfy({ isLocation($0, of: names) }) else { return nil }
        let assertions = statements.dropFirst().compactMap { $0.as(FunctionCallExprSyntax.self) }
        guard assertions.count == statements.count - 1 else { return nil }
        let generics = Set(site.decl.genericParameterClause?.parameters.map(\.name.text) ?? [])
        for assertion in assertions {
            guard assertion.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text.hasPrefix("XCT") == true,
                  assertion.trailingClosure == nil, assertion.additionalTrailingClosures.isEmpty,
                  !assertion.description.contains("{") else { return nil }
            // No parameter but the location passed on (which goes), no generic parameter.
            for token in assertion.tokens(viewMode: .sourceAccurate) {
                guard case .identifier = token.tokenKind else { continue }
                if generics.contains(token.text) || token.text == promise { return nil }
                guard names.contains(token.text), token.parent?.is(DeclReferenceExprSyntax.self) == true else { continue }
                guard let argument = token.parent?.parent?.as(LabeledExprSyntax.self), isLocation(argument, of: names) else { return nil }
            }
            guard readsOnlyAsResult(result, in: Syntax(assertion)) else { return nil }
        }
        let location = Set(assertions.flatMap { $0.arguments.filter { isLocation($0, of: names) }.map(\.expression.trimmedDescription) })
        return AssertionHelper(label: site.labels.first ?? nil, result: result, assertions: assertions, location: location)
    }

    /// `file: file` or `line: line` of a parameter in `names`.
    private static func isLocation(_ argument: LabeledExprSyntax, of names: [String]) -> Bool {
        guard let label = argument.label?.text, ["file", "line"].contains(label),
              let reference = argument.expression.as(DeclReferenceExprSyntax.self) else { return false }
        return names.contains(reference.baseName.text)
    }

    /// Whether every reference to `name` in `node` is `name?`, `name!`, `String(describing: name)` or a
    /// string interpolation's `\(name)`: each reads the same of the awaited, not optional, result.
    private static func readsOnlyAsResult(_ name: String, in node: Syntax) -> Bool {
        let references = NameReferences(name: name)
        references.walk(node)
        return references.found.allSatisfy { reference in
            guard let parent = reference.parent else { return false }
            if parent.is(OptionalChainingExprSyntax.self) || parent.is(ForceUnwrapExprSyntax.self) { return true }
            guard let argument = parent.as(LabeledExprSyntax.self), argument.expression.id == reference.id else { return false }
            if argument.parent?.parent?.is(ExpressionSegmentSyntax.self) == true { return true }
            let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self)
            return call?.calledExpression.trimmedDescription == "String" && argument.label?.text == "describing"
        }
    }

    /// `expression`'s text with each `name?`, `name!` and `name` read as `replacement`.
    static func replacing(_ name: String, with replacement: String, in expression: ExprSyntax) -> String {
        let references = NameReferences(name: name)
        references.walk(expression)
        let start = expression.positionAfterSkippingLeadingTrivia.utf8Offset
        let edits = references.found.map { reference -> TextEdit in
            let parent = reference.parent
            let whole = parent?.is(OptionalChainingExprSyntax.self) == true || parent?.is(ForceUnwrapExprSyntax.self) == true
                ? parent! : Syntax(reference)
            return TextEdit(
                start: whole.positionAfterSkippingLeadingTrivia.utf8Offset - start, end: whole.endPositionBeforeTrailingTrivia.utf8Offset - start,
                text: replacement
            )
        }
        return TextEdit.apply(edits, to: expression.trimmedDescription)
    }

    /// The promise a test keeps, as a helper's argument: a name (a local, a property) or a member of
    /// one (`self.p`, `token.inner`), read where the helper read it. Its words, for a name (`tokenInner`).
    static func keptPromise(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil {
            guard case .identifier(let name) = reference.baseName.tokenKind else { return nil }
            return name
        }
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.argumentNames == nil, let base = member.base else { return nil }
        let name = member.declName.baseName.text
        if base.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) { return name }
        guard let stem = keptPromise(base) else { return nil }
        return stem + name.prefix(1).uppercased() + name.dropFirst()
    }

    /// How a result helper's call on a kept promise is read in `statement`: `h(of: p)?` (or `h(of: p)`
    /// as an assertion's first argument) becomes `await p.resolvedResult`, or a `let` of it hoisted.
    static func keptResultShape(of helperCall: FunctionCallExprSyntax, in statement: CodeBlockItemSyntax) -> Shape? {
        let chained = helperCall.parent?.as(OptionalChainingExprSyntax.self)
        let read = chained.map { ExprSyntax($0) } ?? ExprSyntax(helperCall)
        let top = postfixChainTop(of: read)
        if firstArgument(top, of: assertions, in: statement) != nil {
            let range = read.positionAfterSkippingLeadingTrivia.utf8Offset..<read.endPositionBeforeTrailingTrivia.utf8Offset
            return .hoist(replaced: range, form: "")
        }
        // `let x = h(of: p)?.value`: read in place (the same optional, but for a member that was not one).
        guard chained != nil, top.id != read.id, letName(bound: top, in: statement) != nil else { return nil }
        return .bind(value: read, form: "")
    }

    /// The top of the postfix chain `expression` starts (`x?.slot.id`, `x?.map(\.id)`, with `includingSubscripts` `x?[0]`).
    static func postfixChainTop(of expression: ExprSyntax, includingSubscripts: Bool = false) -> ExprSyntax {
        var top = expression
        while let parent = top.parent {
            if let next = parent.as(MemberAccessExprSyntax.self), next.base?.id == top.id {
                top = ExprSyntax(next)
            } else if let next = parent.as(OptionalChainingExprSyntax.self) {
                top = ExprSyntax(next)
            } else if let next = parent.as(FunctionCallExprSyntax.self), next.calledExpression.id == top.id {
                top = ExprSyntax(next)
            } else if includingSubscripts, let next = parent.as(SubscriptCallExprSyntax.self), next.calledExpression.id == top.id {
                top = ExprSyntax(next)
            } else {
                break
            }
        }
        return top
    }

    /// The promise type of a helper's argument: the compiler's type of a call (`f(…)`), or of the call
    /// a local of `function` was declared with at its top level before `statement` (`let p = f(…)`, or
    /// `f(…) as P`); nil for anything else (a property).
    static func promiseType(
        of argument: ExprSyntax, before statement: CodeBlockItemSyntax, in function: FunctionDeclSyntax, file: ParsedFile, project: Project
    ) -> PromiseType? {
        var found = argument.as(FunctionCallExprSyntax.self)
        if let name = argument.as(DeclReferenceExprSyntax.self)?.baseName.text, let statements = testStatements(of: function)?.statements {
            for item in statements {
                guard item.position < statement.position else { break }
                guard let variable = item.item.as(VariableDeclSyntax.self) else { continue }
                for binding in variable.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                    var value = binding.initializer?.value
                    if let coerced = value?.as(AsExprSyntax.self) { value = coerced.expression }
                    found = value?.as(FunctionCallExprSyntax.self)
                }
            }
        }
        guard let call = found else { return nil }
        let offset = Calls.nameOffset(of: call)
        return project.compiler?.spelledPromiseType(ofCallAt: offset, in: file.path).flatMap { spelled in
            project.compiledFile(file.path)?.call(calleeAt: offset).flatMap { PromiseType(compiled: spelled, mangled: $0.type, written: spelled) }
        }
    }

    /// What identifies a helper's call left (`ConvertCalls.Left`: its file, line and text), so that one
    /// rewritten after all is not listed.
    static func leftKey(path: String, line: Int, text: String) -> String {
        "\(path):\(line):\(text)"
    }
}

extension TestBridges.Planner {
    /// Rewrites, in `method`, each wait through a helper on a promise the test keeps (above), at the
    /// top level of the test; also on a call's promise whose rewrite as a call of its twin was refused
    /// (its reading, a conformer's method) or that has no async counterpart: awaited where the helper
    /// waited, the call made there too, and still naming the function it named. The loop over
    /// `KeptPromiseAction`; the keys (`TestBridges.leftKey`) of the helpers' calls it rewrote.
    func awaitKeptPromises(in method: inout TestBridges.Method, project: Project) -> [String] {
        let action = KeptPromiseAction(
            kinds: kinds, firstLabels: firstLabels, assertionHelpers: assertionHelpers, helperUSRs: helperUSRs, project: project
        )
        var rewritten: [String] = []
        for call in TestBridges.RunLoopWaits.calls(in: method.function.body) {
            guard let done = action.apply(to: KeptPromiseAction.Site(call: call, method: method)).value else { continue }
            method = done.method
            rewritten += done.keys
        }
        return rewritten
    }
}

/// The rewrite of one wait through a helper (a result, value or error helper, or an assertion
/// helper inlined) on a promise a test keeps, or on a call's promise not rewritten as a call of its
/// twin, as an await of that promise through TomorrowlandAsync where the helper waited.
struct KeptPromiseAction: MigrationAction {
    /// A call in the body of `method`, a test (or support function) being made async, as its
    /// rewrites so far leave it.
    struct Site {
        let call: FunctionCallExprSyntax
        let method: TestBridges.Method
    }

    /// What the precondition established.
    struct Facts {
        let helper: String
        /// The promise's words, for a name (`tokenInner`).
        let stem: String
        let statement: CodeBlockItemSyntax
        /// The helper's argument, and the promise as written (`p`, `self.p`, `f(x)`).
        let argument: ExprSyntax
        let promise: String
        /// The promise's call and its callee, as the compiler resolves it, when the promise is a call.
        let promiseCall: FunctionCallExprSyntax?
        let callee: String?
    }

    /// The method with the rewrite written, and the keys (`TestBridges.leftKey`) of the helper's call.
    struct Edit {
        let method: TestBridges.Method
        let keys: [String]
    }

    /// The helpers, by name, and their first labels (`TestBridges.Planner`).
    let kinds: [String: TestBridges.Kind]
    let firstLabels: [String: String?]
    let assertionHelpers: [String: TestBridges.AssertionHelper]
    let helperUSRs: Set<String>
    let project: Project

    /// A helper's call (one argument, as the helper spells it; the helper itself, as the compiler
    /// resolves it) on a kept promise or a call the compiler resolves, as a statement of the test's
    /// own that no other rewrite took. Nothing to say otherwise: the method's other checks list it.
    func precondition(_ site: Site) -> Outcome<Facts> {
        let (call, file) = (site.call, site.method.file)
        guard let (helper, base) = Calls.calledName(call), base == nil || base?.trimmedDescription == "self",
              call.arguments.count == 1, call.trailingClosure == nil, let argument = call.arguments.first,
              kinds[helper] != nil || assertionHelpers[helper] != nil,
              argument.label?.text == (kinds[helper] != nil ? firstLabels[helper] ?? nil : assertionHelpers[helper]?.label) else { return .notApplicable }
        if let usr = project.callee(nameAt: Calls.nameOffset(of: call), in: file.path), !helperUSRs.contains(usr) { return .notApplicable }
        // The promise: a name the test keeps, or a call whose callee the compiler names (and must still name).
        let promiseCall = argument.expression.as(FunctionCallExprSyntax.self)
        let callee = promiseCall.flatMap { project.callee(nameAt: Calls.nameOffset(of: $0), in: file.path) }
        guard let stem = TestBridges.keptPromise(argument.expression) ?? (callee == nil ? nil : promiseCall.flatMap { Calls.calledName($0)?.0 }),
              let statement = TestBridges.topLevelStatement(of: Syntax(call), in: site.method.function),
              !isTaken(statement, in: site.method) else { return .notApplicable }
        return .holds(Facts(
            helper: helper, stem: stem, statement: statement, argument: argument.expression, promise: argument.expression.trimmedDescription,
            promiseCall: promiseCall, callee: callee
        ))
    }

    /// Whether `statement` is in or across one another rewrite of `method` already took (an error helper's do/catch).
    func isTaken(_ statement: CodeBlockItemSyntax, in method: TestBridges.Method) -> Bool {
        let range = statement.positionAfterSkippingLeadingTrivia.utf8Offset..<statement.endPositionBeforeTrailingTrivia.utf8Offset
        let taken = method.edits.dropFirst(method.signatureEdits).map { $0.start..<max($0.end, $0.start + 1) } + method.blocks
        return taken.contains(where: { $0.overlaps(range) })
    }

    /// The await written (an assertion helper's assertions inlined, or the helper's reading rewritten),
    /// expecting a promise's call to name what it named. Not applicable to a reading not rewritten.
    func edit(_ site: Site, _ facts: Facts) -> Outcome<Edit> {
        var method = site.method
        let written: (edit: Int, offset: Int)?
        if let assertion = assertionHelpers[facts.helper] {
            written = inline(assertion, site.call, facts, in: &method)
        } else {
            written = write(site.call, facts, in: &method)
        }
        guard let written else { return .notApplicable }
        if let promiseCall = facts.promiseCall, let callee = facts.callee {
            let nameInCall = Calls.nameOffset(of: promiseCall) - promiseCall.positionAfterSkippingLeadingTrivia.utf8Offset
            method.expectations.append(PlannedChange.Expectation(
                place: .inserted(edit: written.edit, offset: written.offset + nameInCall), target: .usr(callee),
                meaning: "the promise-returning function the helper's argument called"
            ))
        }
        let (file, text) = (method.file, "`\(ConvertCalls.shortText(of: site.call))`")
        let lines = [file.line(of: site.call), file.line(of: facts.argument)]
        return .holds(Edit(method: method, keys: lines.map { TestBridges.leftKey(path: file.path, line: $0, text: text) }))
    }

    /// An assertion helper's call, the statement itself, as `let pResult = await p.resolvedResult` and its
    /// assertions of it: the edit holding the await and where it starts (nil: nothing written).
    private func inline(
        _ assertion: TestBridges.AssertionHelper, _ call: FunctionCallExprSyntax, _ facts: Facts, in method: inout TestBridges.Method
    ) -> (edit: Int, offset: Int)? {
        guard facts.statement.item.as(FunctionCallExprSyntax.self)?.id == call.id else { return nil }
        let name = TestBridges.valueName(stem: facts.stem + "Result", in: method.function, taken: method.names)
        method.names.insert(name)
        let indent = Twins.indentation(of: facts.statement, in: method.file)
        let declaration = "let \(name) = await "
        let lines = [declaration + facts.promise + ".resolvedResult"] + assertion.inlined(as: name)
        let range = facts.statement.positionAfterSkippingLeadingTrivia.utf8Offset..<facts.statement.endPositionBeforeTrailingTrivia.utf8Offset
        method.edits.append(TextEdit(start: range.lowerBound, end: range.upperBound, text: lines.joined(separator: "\n" + indent)))
        method.checked.append(ConvertCalls.shortText(of: call))
        return (method.edits.count - 1, declaration.utf8.count)
    }

    /// A result, value or error helper's call rewritten as its reading says (`keptShape`).
    private func write(_ call: FunctionCallExprSyntax, _ facts: Facts, in method: inout TestBridges.Method) -> (edit: Int, offset: Int)? {
        guard let kind = kinds[facts.helper],
              let (shape, awaited, error, reads) = keptShape(of: call, kind: kind, promise: facts.promise, statement: facts.statement, method: method)
        else { return nil }
        let (function, suffix) = (method.function, kind == .result ? "Result" : "Value")
        let written = method.write(shape, awaited: awaited, statement: facts.statement, error: error) {
            TestBridges.valueName(stem: facts.stem + suffix, in: function, taken: $0)
        }
        guard written != nil else { return nil }
        method.edits += reads
        method.calls.append(ConvertCalls.shortText(of: call))
        return written
    }

    /// The shape of a value, error or result helper's call on the kept `promise`, what it awaits, the
    /// error it catches (an error helper's) and the edits of later reads; nil when it is not rewritten.
    private func keptShape(
        of call: FunctionCallExprSyntax, kind: TestBridges.Kind, promise: String, statement: CodeBlockItemSyntax, method: TestBridges.Method
    ) -> (TestBridges.Shape, String, String?, [TextEdit])? {
        if kind == .result {
            return TestBridges.keptResultShape(of: call, in: statement).map { ($0, promise + ".resolvedResult", nil, []) }
        }
        guard case .success(let shape) = TestBridges.shape(of: call, kind: kind, in: statement) else { return nil }
        let type = call.arguments.first.flatMap { argument in
            TestBridges.promiseType(of: argument.expression, before: statement, in: method.function, file: method.file, project: project)
        }
        switch shape {
        case .bind, .hoist:
            return (shape, promise + ".value", nil, [])
        case .bindOptional(let value, let bound):
            // The reads of `bound` read it as not optional: so must the promise's value be.
            guard let type, !type.value.hasSuffix("?"), !type.value.hasPrefix("Optional<"),
                  case .success(let reads) = TestBridges.nonOptionalReads(of: bound, after: statement, in: method.function) else { return nil }
            return (.bind(value: value, form: "try"), promise + ".value", nil, reads)
        case .expectError:
            guard let type, !type.hasUntypedError, !type.hasNoError else { return nil }
            return (shape, promise + ".value", type.error, [])
        case .catchError, .replace:
            return nil
        }
    }
}
