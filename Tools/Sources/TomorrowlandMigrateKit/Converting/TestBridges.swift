// `convert-calls` in synchronous XCTest methods: a test that waits for a promise through a
// helper of its own test support becomes an `async throws` test that awaits the async twin.
// A result helper `result(of: p)` only observes the promise on `.immediate`, fulfils an
// expectation, waits for it and returns the result; a value helper `value(of: p)` returns the
// result's value and records a failure (`XCTFail`) otherwise; an error helper `error(of: p)`
// returns its error and records a failure otherwise.
//
//     let summary = result(of: client.sync())?.value        let summary = try? await client.sync()
//     let report = try value(of: tracker.report())       →  let report = try await tracker.report()
//     XCTAssertEqual(result(of: hub.count())?.value, 5)  →  let count = try? await hub.count()
//                                                           XCTAssertEqual(count, 5)
//     XCTAssertEqual(error(of: client.sync()), .x)       →  do {
//                                                               _ = try await client.sync()
//                                                               XCTFail("expected an error")
//                                                           } catch let error as SyncError {
//                                                               XCTAssertEqual(error, .x)
//                                                           }
//
// Every assertion keeps its verdict. `result(of: p)?.value` is `p`'s value, or nil when it
// rejected or was cancelled: so is `try? await f()`. A value helper failed the test without a
// value; `try await f()` at the top level of the test throws out of it then, which fails it too.
// The error check: a value fails the test (`XCTFail`, as the helper did, or as `nil == .x` did),
// a cancellation is thrown out of the test and fails it, an error of the promise's type is
// compared as before (for a result helper's `?.error`, only with an expected error that cannot
// be nil: a literal or an enum case). The awaited call runs where the helper ran it.

import SwiftSyntax

enum TestBridges {
    /// A helper `h(of promise: Promise<T, E>, …) -> PromiseResult<T, E>?` that observes the
    /// promise only through `always(on: .immediate)` or `tap(on: .immediate)` and waits for an
    /// expectation (`wait(for:…)` or `waitForExpectations`): `h(of: p)` is `p`'s result.
    static func isResultHelper(_ site: FunctionSite) -> Bool {
        let signature = site.decl.signature
        let parameters = Array(signature.parameterClause.parameters)
        guard !site.isAsync, signature.effectSpecifiers?.throwsClause == nil, let first = parameters.first,
              first.type.trimmedDescription.hasPrefix("Promise<"), parameters.dropFirst().allSatisfy({ $0.defaultValue != nil }),
              let returned = signature.returnClause?.type.trimmedDescription,
              returned.hasPrefix("PromiseResult<"), returned.hasSuffix(">?"), let body = site.decl.body else { return false }
        return observesOnlyOnImmediate((first.secondName ?? first.firstName).text, in: body)
    }

    /// A synchronous `test…()` method of a type (what XCTest runs), and the statements of its
    /// body at the top level (in `#if` clauses too; in its `assumeIsolated` wrapper, TestBridges+AssumeIsolated).
    static func testMethod(around node: Syntax) -> FunctionDeclSyntax? {
        var current = node.parent
        while let node = current {
            if let closure = node.as(ClosureExprSyntax.self), !isAssumeIsolatedWrapper(closure) { return nil }
            if let function = node.as(FunctionDeclSyntax.self) {
                guard function.name.text.hasPrefix("test"), function.signature.parameterClause.parameters.isEmpty,
                      function.signature.effectSpecifiers?.asyncSpecifier == nil, function.signature.returnClause == nil,
                      function.genericParameterClause == nil, function.parent?.parent?.parent?.is(MemberBlockSyntax.self) == true,
                      !function.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) else { return nil }
                return function
            }
            current = node.parent
        }
        return nil
    }

    /// The statement `node` is part of, when it sits directly in `function`'s body (or in an
    /// `#if` clause there, or in its `assumeIsolated` wrapper): a statement that always runs when the test gets that far.
    static func topLevelStatement(of node: Syntax, in function: FunctionDeclSyntax) -> CodeBlockItemSyntax? {
        var current: Syntax? = node
        while let node = current, !node.is(CodeBlockItemSyntax.self) {
            if node.is(ClosureExprSyntax.self) { return nil }
            current = node.parent
        }
        guard let item = current?.as(CodeBlockItemSyntax.self) else { return nil }
        var list = item.parent
        while let clauseList = list?.parent, clauseList.is(IfConfigClauseSyntax.self) {
            list = clauseList.parent?.parent?.parent?.parent
        }
        return list?.parent?.id == testStatements(of: function)?.holder ? item : nil
    }

    /// An expected value that is never nil: a literal (not `nil`), an array or dictionary
    /// literal, or an enum case (`.x`, `.x(…)`, not `.none`).
    static func isNeverNil(_ expression: ExprSyntax) -> Bool {
        if expression.is(StringLiteralExprSyntax.self) || expression.is(IntegerLiteralExprSyntax.self)
            || expression.is(FloatLiteralExprSyntax.self) || expression.is(BooleanLiteralExprSyntax.self)
            || expression.is(ArrayExprSyntax.self) || expression.is(DictionaryExprSyntax.self) {
            return true
        }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return prefix.expression.is(IntegerLiteralExprSyntax.self) || prefix.expression.is(FloatLiteralExprSyntax.self)
        }
        let member = expression.as(MemberAccessExprSyntax.self)
            ?? expression.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self)
        guard let member, member.base == nil else { return false }
        return !["none", "init"].contains(member.declName.baseName.text)
    }

    /// What a helper gives: the promise's result, its value (throwing, or nil, without one) or its error.
    enum Kind: Equatable {
        case result
        case value(throwing: Bool)
        case error
    }

    /// The helpers of `sites`: result helpers, the value and error helpers built on them, and those that wait on their own.
    static func helpers(in sites: [FunctionSite]) -> [String: Kind] {
        var kinds: [String: Kind] = [:]
        for site in sites where isResultHelper(site) { kinds[site.name] = .result }
        let results = Set(kinds.keys)
        for site in sites where kinds[site.name] == nil {
            if let kind = derivedKind(site, resultHelpers: results) ?? standaloneKind(site) { kinds[site.name] = kind }
        }
        return kinds
    }

    /// `h(of promise: Promise<T, E>, …)` whose body is `let r = result(of: promise, …)`, `guard case
    /// .value(let v)? = r else { …XCTFail(…)… }` (or `guard let v = r?.value else { … }`), `return v` (or
    /// `.error`): a value helper (`throws -> T`, or `-> T?`) or an error helper (`-> E?`). Nil for anything else.
    static func derivedKind(_ site: FunctionSite, resultHelpers: Set<String>) -> Kind? {
        let signature = site.decl.signature
        let parameters = Array(signature.parameterClause.parameters)
        guard !site.isAsync, let first = parameters.first, first.type.trimmedDescription.hasPrefix("Promise<"),
              parameters.dropFirst().allSatisfy({ $0.defaultValue != nil }), let returned = signature.returnClause?.type.trimmedDescription,
              let statements = site.decl.body?.statements.map(\.item), statements.count == 3,
              let binding = statements[0].as(VariableDeclSyntax.self)?.bindings.first,
              let result = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let call = binding.initializer?.value.as(FunctionCallExprSyntax.self), let (helper, _) = Calls.calledName(call),
              resultHelpers.contains(helper), call.arguments.first?.expression.trimmedDescription == (first.secondName ?? first.firstName).text,
              let guardStatement = statements[1].as(GuardStmtSyntax.self),
              let (member, bound) = guardedRead(guardStatement, of: result),
              guardStatement.body.statements.contains(where: { $0.trimmedDescription.hasPrefix("XCTFail(") }),
              statements[2].as(ReturnStmtSyntax.self)?.expression?.trimmedDescription == bound else { return nil }
        let throwing = signature.effectSpecifiers?.throwsClause != nil
        if member == "value" {
            if throwing, !returned.hasSuffix("?") { return .value(throwing: true) }
            if !throwing, returned.hasSuffix("?") { return .value(throwing: false) }
        }
        if member == "error", !throwing, returned.hasSuffix("?") { return .error }
        return nil
    }

    /// What a helper's result is read as, and how it is rewritten.
    enum Shape {
        /// `let x = result(of: f())?.value`, `let x = try value(of: f())`: `value` becomes `<form> await f()`.
        case bind(value: ExprSyntax, form: String)
        /// The helper's reading is the first argument of an assertion: a `let` of `<form> await f()`
        /// goes before the statement, and its name replaces `replaced` (the helper's call to its `?.value`).
        case hoist(replaced: Range<Int>, form: String, removingTry: Range<Int>? = nil)
        /// `XCTAssertEqual(result(of: f())?.error, .x)`, `XCTAssertEqual(error(of: f()), .x)`.
        case expectError(FunctionCallExprSyntax)
        /// `let x = waitForValue(f())` (a value helper's optional): `value` becomes `try await f()`, and the
        /// later reads of `x` read it as not optional (`nonOptionalReads`).
        case bindOptional(value: ExprSyntax, name: String)
        /// `let x = waitForError(f())`: a do/catch whose `catch let x as E` holds the statements up to the last read of `x`.
        case catchError(name: String)
        /// `catchError` resolved (`TestBridges.catchBlock`): the text that replaces `range`, the call's name at `callOffset` in it.
        case replace(range: Range<Int>, text: String, callOffset: Int)
    }

    /// The assertions whose first argument a value may come from: each records a failure when
    /// its argument throws, as it does when it fails.
    static let assertions: Set<String> = [
        "XCTAssertEqual", "XCTAssertNotEqual", "XCTAssertTrue", "XCTAssertFalse", "XCTAssertNil", "XCTAssertNotNil",
        "XCTAssertGreaterThan", "XCTAssertGreaterThanOrEqual", "XCTAssertLessThan", "XCTAssertLessThanOrEqual", "XCTAssert",
    ]

    /// How `helperCall` (a call of a helper of `kind`) is read in `statement`, or why it is not converted.
    static func shape(of helperCall: FunctionCallExprSyntax, kind: Kind, in statement: CodeBlockItemSyntax) -> Result<Shape, Reason> {
        var outer = ExprSyntax(helperCall)
        if case .value(throwing: true) = kind, let tried = outer.parent?.as(TryExprSyntax.self) { outer = ExprSyntax(tried) }
        // What the reading starts with: `h(of: f())?.value` for a result helper, `try value(of: f())` or `value(of: f())?`.
        switch kind {
        case .result:
            guard let chained = helperCall.parent?.as(OptionalChainingExprSyntax.self),
                  let member = chained.parent?.as(MemberAccessExprSyntax.self), member.base?.id == chained.id else {
                return .failure(.otherUse)
            }
            if member.declName.baseName.text == "error" { return resultErrorShape(member, in: statement) }
            guard member.declName.baseName.text == "value" else { return .failure(.otherUse) }
            return readShape(ExprSyntax(member), outer: outer, of: helperCall, kind: kind, in: statement)
        case .error:
            if let name = letName(bound: outer, in: statement) { return .success(.catchError(name: name)) }
            guard let assertion = firstArgument(outer, of: ["XCTAssertEqual"], in: statement) else { return .failure(.otherUse) }
            return .success(.expectError(assertion))
        case .value(let throwing):
            let chained = throwing ? nil : helperCall.parent?.as(OptionalChainingExprSyntax.self)
            return readShape(chained.map { ExprSyntax($0) } ?? outer, outer: outer, of: helperCall, kind: kind, in: statement)
        }
    }

    /// `XCTAssertEqual(h(of: f())?.error, .x)` with an expected error that cannot be nil: an error check.
    private static func resultErrorShape(_ member: MemberAccessExprSyntax, in statement: CodeBlockItemSyntax) -> Result<Shape, Reason> {
        guard let assertion = firstArgument(ExprSyntax(member), of: ["XCTAssertEqual"], in: statement) else { return .failure(.otherUse) }
        let arguments = Array(assertion.arguments)
        guard arguments.count >= 2, isNeverNil(arguments[1].expression) else { return .failure(.errorMayBeNil) }
        return .success(.expectError(assertion))
    }

    /// How the value `read` (a result helper's `?.value`, a value helper's call with its `try` or `?`;
    /// `outer`: the helper's call with its `try`) is read: bound by a `let` or `_ =`, or an assertion's argument.
    private static func readShape(
        _ read: ExprSyntax, outer: ExprSyntax, of helperCall: FunctionCallExprSyntax, kind: Kind, in statement: CodeBlockItemSyntax
    ) -> Result<Shape, Reason> {
        let form = kind == .result ? "try?" : "try"
        if kind == .value(throwing: false), read.id == outer.id, let name = letName(bound: read, in: statement) {
            return .success(.bindOptional(value: read, name: name))
        }
        // `_ = try value(of: f())`, `_ = waitForValue(f())`: `_ = try await f()`.
        if kind != .result, read.id == outer.id, let sequence = read.parent?.as(ExprListSyntax.self)?.parent?.as(SequenceExprSyntax.self),
           statement.item.as(SequenceExprSyntax.self)?.id == sequence.id, sequence.elements.count == 3,
           sequence.elements.first?.is(DiscardAssignmentExprSyntax.self) == true, sequence.elements.last?.id == read.id {
            return .success(.bind(value: read, form: form))
        }
        if let binding = read.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self), read.id == outer.id || kind == .result,
           binding.typeAnnotation == nil, kind != .value(throwing: false),
           let variable = binding.parent?.parent?.as(VariableDeclSyntax.self), variable.bindings.count == 1,
           variable.bindingSpecifier.text == "let", statement.item.as(VariableDeclSyntax.self)?.id == variable.id {
            return .success(.bind(value: read, form: form))
        }
        return hoistShape(read, outer: outer, of: helperCall, form: form, in: statement)
    }

    /// `read` up its postfix chain (`?.value?.map(\.id)`) as the first argument of an assertion: hoisted
    /// into a `let` before the statement (a `try` of the helper's call going with it).
    private static func hoistShape(
        _ read: ExprSyntax, outer: ExprSyntax, of helperCall: FunctionCallExprSyntax, form: String, in statement: CodeBlockItemSyntax
    ) -> Result<Shape, Reason> {
        var top = read
        var removingTry: Range<Int>?
        while let parent = top.parent {
            if let next = parent.as(TryExprSyntax.self), removingTry == nil, outer.id == helperCall.id {
                // `try value(of: f()).count`: the `try` goes with the helper's call.
                removingTry = next.tryKeyword.positionAfterSkippingLeadingTrivia.utf8Offset..<next.expression.positionAfterSkippingLeadingTrivia.utf8Offset
                top = ExprSyntax(next)
            } else if let next = parent.as(MemberAccessExprSyntax.self), next.base?.id == top.id {
                top = ExprSyntax(next)
            } else if let next = parent.as(OptionalChainingExprSyntax.self) {
                top = ExprSyntax(next)
            } else if let next = parent.as(FunctionCallExprSyntax.self), next.calledExpression.id == top.id {
                top = ExprSyntax(next)
            } else {
                break
            }
        }
        guard firstArgument(top, of: assertions, in: statement) != nil else { return .failure(.otherUse) }
        let replaced = read.positionAfterSkippingLeadingTrivia.utf8Offset..<read.endPositionBeforeTrailingTrivia.utf8Offset
        return .success(.hoist(replaced: replaced, form: form, removingTry: removingTry))
    }

    /// The name `let name = expression` (the statement itself, one binding, no type) binds.
    static func letName(bound expression: ExprSyntax, in statement: CodeBlockItemSyntax) -> String? {
        guard let binding = expression.parent?.as(InitializerClauseSyntax.self)?.parent?.as(PatternBindingSyntax.self),
              binding.typeAnnotation == nil, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let variable = binding.parent?.parent?.as(VariableDeclSyntax.self), variable.bindings.count == 1,
              variable.bindingSpecifier.text == "let", statement.item.as(VariableDeclSyntax.self)?.id == variable.id else { return nil }
        return name
    }

    /// The assertion (one of `names`, the statement itself) whose first, unlabelled argument is `expression`.
    static func firstArgument(_ expression: ExprSyntax, of names: Set<String>, in statement: CodeBlockItemSyntax) -> FunctionCallExprSyntax? {
        guard let argument = expression.parent?.as(LabeledExprSyntax.self), argument.label == nil,
              let assertion = argument.parent?.parent?.as(FunctionCallExprSyntax.self),
              names.contains(assertion.calledExpression.trimmedDescription), assertion.arguments.first?.id == argument.id,
              assertion.trailingClosure == nil, statement.item.as(FunctionCallExprSyntax.self)?.id == assertion.id else { return nil }
        return assertion
    }

    /// Why a helper's call stays.
    enum Reason: Error {
        case otherUse, errorMayBeNil, untypedError, optionalValue, conformer, nestedOptional
        /// The promise is a name, not a call: kept in a `let` (`let p = f()` … `h(p)`).
        case keptPromise
        /// The `.inner` promise of a TokenPromise (`value(of: tracker.start().inner)`).
        case tokenPromise
        /// A promise that is not a plain call: a property, a coerced or `try` call.
        case otherPromise
        /// A later read of the helper's optional value or error (`x`) that is not an assertion's argument read through `x?`.
        case optionalRead(name: String, use: String)
        /// A helper's call outside the body of a synchronous `test…()` method.
        case outsideTest
        /// The promise comes from a call of a function without an async counterpart.
        case noCounterpart(String)
        /// A declaration between the error helper's call and the last read of its error (it would move into the `catch`).
        case declarationMoved(String)

        /// The reason, `helper` spelled with its first label (`result(of:)`, `waitForValue(_:)`).
        func text(helper: String) -> String {
            switch self {
            case .otherUse:
                return "a test reads `\(helper)` in a way convert-calls does not rewrite (it rewrites a `let` of the value, "
                    + "an assertion's first argument, a typed error's `XCTAssertEqual`, at the top level of the test)"
            case .keptPromise:
                return "`\(helper)` waits for a promise the test keeps in a variable (started earlier, cancelled or read as a promise): "
                    + "the test checks the promise itself, which the twin does not return"
            case .otherPromise:
                return "`\(helper)` waits for a promise that is not a plain call of a function with an async counterpart "
                    + "(a property, a coerced or `try` call)"
            case .tokenPromise:
                return "`\(helper)` waits for the `.inner` promise of a TokenPromise: a test of the token's promise, "
                    + "which the twin does not return"
            case .optionalRead(let name, let use):
                return "the test reads `\(name)`, the optional of `\(helper)`, as an optional (`\(use)`): "
                    + "awaited, it is not optional (`\(name)?.x` in an assertion's argument converts)"
            case .outsideTest:
                return "`\(helper)` is called outside the body of a synchronous `test…()` method (in a closure, "
                    + "an async test or another function): only a test's own statements are rewritten"
            case .noCounterpart(let function):
                return "`\(helper)` waits for a promise of `\(function)`, which has no async counterpart"
            case .declarationMoved(let declaration):
                return "`\(declaration)` sits between `\(helper)` and the last read of its error: it would move into the `catch`"
            case .errorMayBeNil:
                return "`XCTAssertEqual` of `\(helper)?.error` with an expected value that may be nil (a literal or a case converts)"
            case .conformer:
                return "a conformer's method, reached through its requirement's twin: its promise version stays as the witness, "
                    + "and convert-body gives it an async method of its own only while nothing calls that twin on its type"
            case .optionalValue:
                return "`\(helper)?.value` of a promise whose value is optional, or of a type the compiler does not spell: "
                    + "`try? await` would flatten an optional (`.some(nil)` reads as a failure)"
            case .nestedOptional:
                return "`\(helper)` of a promise whose value is optional, or of a type the compiler does not spell: the helper's "
                    + "optional nests it (`.some(nil)`), and the reads of the awaited value would read one optional less"
            case .untypedError:
                return "the error of `\(helper)`'s promise is untyped or NoError: a typed `catch` cannot tell it from cancellation"
            }
        }
    }

    /// A name for the value of `call` in `function`: the called function's name (`count` for
    /// `hub.count()`), numbered when a token of the method already spells it.
    static func valueName(for call: FunctionCallExprSyntax, in function: FunctionDeclSyntax, taken: Set<String>) -> String {
        valueName(stem: Calls.calledName(call)?.0 ?? "value", in: function, taken: taken)
    }

    /// `stem`, numbered when a token of `function` (or `taken`) already spells it.
    static func valueName(stem: String, in function: FunctionDeclSyntax, taken: Set<String>) -> String {
        // Names a local would shadow or clash with: every identifier but a member's name (`x.count`).
        let tokens = Set(function.tokens(viewMode: .sourceAccurate).filter { token in
            guard let reference = token.parent?.as(DeclReferenceExprSyntax.self) else { return true }
            return reference.parent?.as(MemberAccessExprSyntax.self)?.declName.id != reference.id
        }.map(\.text)).union(taken)
        return ChainConversion.firstFree(stem, avoiding: tokens)
    }

    /// `func test…()` as `func test…() async throws` (or `throws` → `async throws`).
    static func asyncSignatureEdit(of function: FunctionDeclSyntax) -> TextEdit {
        if let throwsClause = function.signature.effectSpecifiers?.throwsClause {
            let start = throwsClause.positionAfterSkippingLeadingTrivia.utf8Offset
            return TextEdit(start: start, end: start, text: "async ")
        }
        let end = function.signature.parameterClause.endPositionBeforeTrailingTrivia.utf8Offset
        return TextEdit(start: end, end: end, text: " async throws")
    }
}

extension TestBridges {
    /// The conversions of one test method: its signature made `async throws`, and each helper
    /// call it reads as a `Shape` rewritten. Collected call by call, then planned as one change.
    struct Method {
        let function: FunctionDeclSyntax
        let file: ParsedFile
        var edits: [TextEdit] = []
        var expectations: [PlannedChange.Expectation] = []
        var calls: [String] = []
        var names: Set<String> = []
        /// The ranges replaced as a whole (an error helper's do/catch): no other call in them is rewritten.
        var blocks: [Range<Int>] = []
        /// The helpers' calls it rewrites: their lines and text, for the notes if it is left.
        var helperCalls: [(line: Int, text: String)] = []
        /// The assertion helpers' calls on a kept promise it inlines (`assertCancelled(p)`), for the summary.
        var checked: [String] = []
        /// The polling helpers' calls it awaits through their async counterparts (TestBridges+PollingWaits), for the summary.
        var polled: [String] = []
        /// Those awaited through a counterpart still to be written: its group, the file, and where the called name starts.
        var writtenCalls: [(group: String, path: String, offset: Int, line: Int, text: String)] = []
        /// A support function's helper calls it rewrites, with the reason each is left when it stays synchronous.
        var outside: [(line: Int, text: String, reason: String)] = []
        /// A support function of a test class (TestBridges+SupportFunctions), not a test.
        var isSupport = false
        /// The first edits, before the body: `async throws`, and `@MainActor` (`TestBridges.mainActorEdit`).
        let signatureEdits: Int

        init(function: FunctionDeclSyntax, file: ParsedFile) {
            self.function = function
            self.file = file
            edits = [TestBridges.asyncSignatureEdit(of: function)] + [TestBridges.mainActorEdit(of: function)].compactMap { $0 }
            signatureEdits = edits.count
        }

        /// The change to prove; its summary names the calls (the tally counts them).
        var change: PlannedChange {
            let scope = function.positionAfterSkippingLeadingTrivia.utf8Offset..<function.endPositionBeforeTrailingTrivia.utf8Offset
            return PlannedChange(
                path: file.path, edits: edits, scope: scope, line: file.line(of: function.name),
                summary: "`\(function.name.text)()` became `async throws`: \(calls.count) "
                    + "\(TestBridges.summaryMarker) (\(calls.map { "`\($0)`" }.joined(separator: ", ")))"
                    + (checked.isEmpty ? "" : ", \(checked.count) kept promise(s) checked by awaiting them "
                        + "(\(checked.map { "`\($0)`" }.joined(separator: ", ")))")
                    + (polled.isEmpty ? "" : ", \(polled.count) polling wait(s) awaited through their async counterpart "
                        + "(\(polled.map { "`\($0)`" }.joined(separator: ", ")))"),
                expectations: expectations
            )
        }

        /// In the method made async, Swift would pick the async twin for a call whose promise type
        /// nothing pins (`let p = f()`): each such call of `names` is pinned (`f() as Promise<T, E>`,
        /// the compiler's type), as add-async-twins pins them; and each `wait(for:timeout:)` of the
        /// method's own becomes `await fulfillment(of:timeout:)` (`wait` is unavailable in async code).
        /// (A call that is the promise argument of a result helper, `helpers` by name, keeps its
        /// meaning: the helper's generic `Promise<T, E>` parameter rules the async twin out.)
        mutating func keepMeanings(names: Set<String>, helpers: Set<String>, project: Project) {
            let signature = Array(edits.prefix(signatureEdits))
            let scratch = ParsedFile(path: file.path, folder: file.folder, text: TextEdit.apply(signature, to: file.text))
            let shift = signature.reduce(0) { $0 + $1.text.utf8.count }
            let body = function.body.map { ($0.position.utf8Offset + shift)..<($0.endPosition.utf8Offset + shift) }
            let taken = edits.dropFirst(signatureEdits).map { $0.start..<max($0.end, $0.start + 1) }
            let finder = UnsafeCallFinder(file: scratch, names: names)
            finder.walk(scratch.tree)
            let isHelperArgument = { (call: FunctionCallExprSyntax) in
                guard let argument = call.parent?.as(LabeledExprSyntax.self),
                      let outer = argument.parent?.parent?.as(FunctionCallExprSyntax.self), outer.arguments.first?.id == argument.id,
                      let (name, _) = Calls.calledName(outer) else { return false }
                return helpers.contains(name)
            }
            for unsafe in finder.found where body?.contains(unsafe.call.position.utf8Offset) == true && !isHelperArgument(unsafe.call) {
                let original = Calls.nameOffset(of: unsafe.call) - shift
                let start = unsafe.call.positionAfterSkippingLeadingTrivia.utf8Offset - shift
                let end = unsafe.call.endPositionBeforeTrailingTrivia.utf8Offset - shift
                guard !taken.contains(where: { $0.overlaps(start..<end) }),
                      let type = project.compiler?.spelledPromiseType(ofCallAt: original, in: file.path) else { continue }
                edits += unsafe.edits(coercingTo: type).map { TextEdit(start: $0.edit.start - shift, end: $0.edit.end - shift, text: $0.edit.text) }
            }
            let waits = WaitFinder(viewMode: .sourceAccurate)
            waits.walk(function)
            for call in waits.calls where !taken.contains(where: { $0.contains(call.position.utf8Offset) }) {
                guard let label = call.arguments.first?.label else { continue }
                let receiver = call.calledExpression.as(MemberAccessExprSyntax.self)?.base.map { $0.trimmedDescription + "." } ?? ""
                edits.append(TextEdit(
                    start: call.positionAfterSkippingLeadingTrivia.utf8Offset, end: label.endPositionBeforeTrailingTrivia.utf8Offset,
                    text: "await \(receiver)fulfillment(of"
                ))
            }
        }

        /// Adds the rewrite of the helper's call of `call`, read as `shape` in `statement`; `error`: the
        /// promise's error type as the call site spells it (for `.expectError`).
        mutating func add(
            _ shape: Shape, call: FunctionCallExprSyntax, statement: CodeBlockItemSyntax, error: String?, target: String, meaning: String
        ) {
            let nameInCall = Calls.nameOffset(of: call) - call.positionAfterSkippingLeadingTrivia.utf8Offset
            let function = function
            let written = write(shape, awaited: call.trimmedDescription, statement: statement, error: error) {
                TestBridges.valueName(for: call, in: function, taken: $0)
            }
            guard let written else { return }
            expectations.append(PlannedChange.Expectation(
                place: .inserted(edit: written.edit, offset: written.offset + nameInCall), target: .usr(target), meaning: meaning
            ))
            calls.append(ConvertCalls.shortText(of: call))
        }

        /// Writes the edits of `shape` in `statement`, `awaited` (`f(x)`, `p.value`) after its `await`;
        /// `name` names a hoisted value, given the names taken. The edit that holds `awaited`, and where
        /// it starts in that edit's text; nil when the shape is not one to write (yet).
        mutating func write(
            _ shape: Shape, awaited: String, statement: CodeBlockItemSyntax, error: String?, name: (Set<String>) -> String
        ) -> (edit: Int, offset: Int)? {
            let indent = Twins.indentation(of: statement, in: file)
            let statementStart = statement.positionAfterSkippingLeadingTrivia.utf8Offset
            switch shape {
            case .bind(let value, let form):
                let prefix = (form.isEmpty ? "" : form + " ") + "await "
                edits.append(TextEdit(
                    start: value.positionAfterSkippingLeadingTrivia.utf8Offset, end: value.endPositionBeforeTrailingTrivia.utf8Offset,
                    text: prefix + awaited
                ))
                return (edits.count - 1, prefix.utf8.count)
            case .hoist(let replaced, let form, let removingTry):
                if let removingTry { edits.append(TextEdit(start: removingTry.lowerBound, end: removingTry.upperBound, text: "")) }
                let name = name(names)
                names.insert(name)
                let declaration = "let \(name) = " + (form.isEmpty ? "" : form + " ") + "await "
                edits.append(TextEdit(start: statementStart, end: statementStart, text: declaration + awaited + "\n" + indent))
                let index = edits.count - 1
                edits.append(TextEdit(start: replaced.lowerBound, end: replaced.upperBound, text: name))
                return (index, declaration.utf8.count)
            case .expectError(let assertion):
                guard let error else { return nil }
                let rest = assertion.arguments.dropFirst().map { $0.with(\.trailingComma, nil).trimmedDescription }
                let lines = [
                    "do {",
                    indent + "    _ = try await " + awaited,
                    indent + "    XCTFail(\"expected an error\")",
                    indent + "} catch let error as \(error) {",
                    indent + "    XCTAssertEqual(" + (["error"] + rest).joined(separator: ", ") + ")",
                    indent + "}",
                ]
                let end = statement.endPositionBeforeTrailingTrivia.utf8Offset
                edits.append(TextEdit(start: statementStart, end: end, text: lines.joined(separator: "\n")))
                return (edits.count - 1, lines[0].utf8.count + 1 + (indent + "    _ = try await ").utf8.count)
            case .replace(let range, let text, let callOffset):
                edits.append(TextEdit(start: range.lowerBound, end: range.upperBound, text: text))
                blocks.append(range)
                return (edits.count - 1, callOffset)
            case .bindOptional, .catchError:
                return nil
            }
        }
    }

    /// The conversions of test methods, planned call by call (`ConvertCalls.plan` asks for each call
    /// of a promise function with an async counterpart in synchronous code).
    struct Planner {
        let kinds: [String: Kind]
        /// Each helper's first argument label (nil: `_`): `value(of:)` is a helper, `value(for:)` another function.
        let firstLabels: [String: String?]
        let helperUSRs: Set<String>
        /// The helpers that assert something of a promise's result (`assertCancelled(_:)`), by name: inlined on a kept promise.
        let assertionHelpers: [String: AssertionHelper]
        /// The functions that spin the run loop while they wait: a test still calling one is not made async.
        let runLoopWaits: RunLoopWaits
        /// The polling helpers with an async counterpart: a test's call of one is awaited through it.
        let polls: PollingWaits
        private var methods: [SyntaxIdentifier: Method] = [:]
        private var order: [SyntaxIdentifier] = []

        init(sites: [FunctionSite], project: Project) {
            let found = TestBridges.helpers(in: sites)
            kinds = found
            // The helpers themselves, not the other functions of their names (`value(for:)` beside `value(of:)`).
            let results = Set(found.filter { $0.value == .result }.keys)
            let helperSites = sites.filter { site in
                found[site.name] != nil && (TestBridges.isResultHelper(site) || TestBridges.derivedKind(site, resultHelpers: results) != nil
                    || TestBridges.standaloneKind(site) != nil)
            }
            firstLabels = Dictionary(helperSites.map { ($0.name, $0.labels.first ?? nil) }) { first, _ in first }
            let assertionSites = sites.filter { found[$0.name] == nil && TestBridges.assertionHelper($0, resultHelpers: results) != nil }
            assertionHelpers = Dictionary(assertionSites.compactMap { site in
                TestBridges.assertionHelper(site, resultHelpers: results).map { (site.name, $0) }
            }) { first, _ in first }
            helperUSRs = Set((helperSites + assertionSites).compactMap(project.usr(of:)))
            runLoopWaits = found.isEmpty ? RunLoopWaits() : RunLoopWaits(sites: sites, project: project)
            polls = found.isEmpty ? PollingWaits() : PollingWaits(sites: sites, project: project)
        }

        /// Plans `call` when it is the promise argument of a helper in a synchronous XCTest method; the
        /// bridge left, with its reason, when it cannot be converted; nil otherwise.
        mutating func plan(
            _ call: FunctionCallExprSyntax, pair: TwinPair, promiseSite: FunctionSite, in file: ParsedFile, project: Project
        ) -> ConvertCalls.Left? {
            guard !kinds.isEmpty, let argument = call.parent?.as(LabeledExprSyntax.self),
                  let helperCall = argument.parent?.parent?.as(FunctionCallExprSyntax.self), helperCall.arguments.first?.id == argument.id,
                  let (helper, _) = Calls.calledName(helperCall), kinds[helper] != nil,
                  helperCall.arguments.first?.label?.text == firstLabels[helper] ?? nil else { return nil }
            if let usr = project.callee(nameAt: Calls.nameOffset(of: helperCall), in: file.path), !helperUSRs.contains(usr) { return nil }
            let leave = { (reason: String) in
                ConvertCalls.Left(path: file.path, line: file.line(of: call), text: "`\(ConvertCalls.shortText(of: helperCall))`", reason: reason)
            }
            guard let function = TestBridges.testMethod(around: Syntax(helperCall)) else {
                let outside = Reason.outsideTest.text(helper: "\(helper)(\(helperCall.arguments.first?.label?.text ?? "_"):)")
                // A support function of a test class (`seededStore()`) is planned as a test is; it is made async
                // only with the tests calling it (TestBridges+SupportFunctions), else its calls are left as outside a test.
                guard let support = TestBridges.supportFunction(around: Syntax(helperCall)) else { return leave(outside) }
                if methods[support.id] == nil {
                    methods[support.id] = Method(function: support, file: file)
                    methods[support.id]!.isSupport = true
                    order.append(support.id)
                }
                guard planInMethod(call, helperCall: helperCall, pair: pair, promiseSite: promiseSite, in: support, file: file, project: project) == nil
                else { return leave(outside) }
                methods[support.id]!.outside.append((file.line(of: call), "`\(ConvertCalls.shortText(of: helperCall))`", outside))
                return nil
            }
            return planInMethod(call, helperCall: helperCall, pair: pair, promiseSite: promiseSite, in: function, file: file, project: project)
        }

        /// Plans `call`, the promise argument of `helperCall`, in `function` (a test, or a support function of one):
        /// `HelperCallAction`'s rewrite recorded in the method's change, or the call left with the action's reason.
        mutating func planInMethod(
            _ call: FunctionCallExprSyntax, helperCall: FunctionCallExprSyntax, pair: TwinPair, promiseSite: FunctionSite,
            in function: FunctionDeclSyntax, file: ParsedFile, project: Project
        ) -> ConvertCalls.Left? {
            let action = HelperCallAction(kinds: kinds, project: project)
            var site = HelperCallAction.Site(call: call, helperCall: helperCall, pair: pair, promiseSite: promiseSite, function: function, file: file)
            site.blocks = methods[function.id]?.blocks ?? []
            switch action.apply(to: site) {
            case .notApplicable: return nil
            case .declines(let reason): return action.left(site, reason)
            case .holds(let rewrite):
                record(rewrite, of: site)
                return nil
            }
        }

        /// Adds `rewrite` of `site`'s helper call to its method's change (the method planned with its first).
        private mutating func record(_ rewrite: HelperCallAction.Rewrite, of site: HelperCallAction.Site) {
            let (function, file, pair) = (site.function, site.file, site.pair)
            if methods[function.id] == nil {
                methods[function.id] = Method(function: function, file: file)
                order.append(function.id)
            }
            let meaning = pair.twin == .async ? "its async twin" : "the async function its promise twin runs"
            methods[function.id]!.add(
                rewrite.shape, call: site.call, statement: rewrite.statement, error: rewrite.error, target: pair.asyncUSR,
                meaning: "\(meaning) (\(pair.async.signature))"
            )
            methods[function.id]!.edits += rewrite.reads
            methods[function.id]!.helperCalls.append((file.line(of: site.call), "`\(ConvertCalls.shortText(of: site.helperCall))`"))
        }

        /// The calls of a helper in `files` whose promise is not a call of a function in `twinned` (those are
        /// planned, or listed, one by one): each listed with its reason, so that every call through a helper counts.
        func otherCalls(in files: [ParsedFile], twinned: Set<String>, kept: Set<String> = [], project: Project) -> [ConvertCalls.Left] {
            guard !kinds.isEmpty else { return [] }
            var left: [ConvertCalls.Left] = []
            for file in files {
                let finder = CallFinder(viewMode: .sourceAccurate)
                finder.walk(file.tree)
                for helperCall in finder.calls {
                    let key = TestBridges.leftKey(path: file.path, line: file.line(of: helperCall), text: "`\(ConvertCalls.shortText(of: helperCall))`")
                    guard !kept.contains(key), let (helper, base) = Calls.calledName(helperCall), kinds[helper] != nil,
                          helperCall.arguments.first?.label?.text == firstLabels[helper] ?? nil,
                          let argument = helperCall.arguments.first?.expression else { continue }
                    // The helper, as the compiler resolves the call; or, where it does not say, a call of its name on
                    // `self` (not an enum case pattern `.value(let v)`, not another type's method).
                    if let usr = project.callee(nameAt: Calls.nameOffset(of: helperCall), in: file.path) {
                        guard helperUSRs.contains(usr) else { continue }
                    } else if let base, base.trimmedDescription != "self" {
                        continue
                    } else if base == nil, !helperCall.calledExpression.is(DeclReferenceExprSyntax.self) {
                        continue
                    }
                    // The helpers' own calls of each other (`value(of:)` built on `result(of:)`).
                    var enclosing = helperCall.parent
                    while let node = enclosing, !node.is(FunctionDeclSyntax.self) { enclosing = node.parent }
                    if let function = enclosing?.as(FunctionDeclSyntax.self), kinds[function.name.text] != nil { continue }
                    if let promiseCall = argument.as(FunctionCallExprSyntax.self),
                       let callee = project.callee(nameAt: Calls.nameOffset(of: promiseCall), in: file.path), twinned.contains(callee) {
                        continue
                    }
                    let spelled = "\(helper)(\(helperCall.arguments.first?.label?.text ?? "_"):)"
                    let reason: Reason
                    let member = argument.as(MemberAccessExprSyntax.self)
                    if member?.declName.baseName.text == "inner" {
                        reason = .tokenPromise
                    } else if argument.is(DeclReferenceExprSyntax.self) {
                        // A function's parameter passed on (a helper of the tests' own, built on this one) is no test's promise.
                        reason = TestBridges.passesParameter(argument, in: enclosing?.as(FunctionDeclSyntax.self)) ? .outsideTest : .keptPromise
                    } else if let promiseCall = argument.as(FunctionCallExprSyntax.self) {
                        reason = .noCounterpart(ConvertCalls.shortText(of: promiseCall.calledExpression))
                    } else {
                        reason = .otherPromise
                    }
                    left.append(ConvertCalls.Left(
                        path: file.path, line: file.line(of: helperCall), text: "`\(ConvertCalls.shortText(of: helperCall))`",
                        reason: reason.text(helper: spelled)
                    ))
                }
            }
            return left
        }

        /// Each method planned, with the waits on the promises it keeps awaited (and the keys of those helpers'
        /// calls), the meanings of its calls of `twinned` functions kept and its polling waits awaited.
        private func prepare(twinned: Set<String>, project: Project) -> [SyntaxIdentifier: (method: Method, awaited: [String])] {
            var prepared: [SyntaxIdentifier: (method: Method, awaited: [String])] = [:]
            for id in order {
                guard var method = methods[id] else { continue }
                let awaited = awaitKeptPromises(in: &method, project: project)
                method.keepMeanings(names: twinned, helpers: Set(kinds.keys), project: project)
                method.awaitPolls(polls, waits: runLoopWaits, project: project)
                prepared[id] = (method, awaited)
            }
            return prepared
        }

        /// One change per test method; in each, the calls of `twinned` functions that nothing pins are pinned,
        /// and the waits on a promise the test keeps are awaited (TestBridges+KeptPromises). A method that
        /// would still wait synchronously once rewritten is not changed: its calls are left. `kept`: the
        /// helpers' calls rewritten that way in the changes (`TestBridges.leftKey`), which are not left. The loop
        /// over `TestMethodAction`.
        func changes(twinned: Set<String>, project: Project) -> (changes: [PlannedChange], left: [ConvertCalls.Left], kept: Set<String>) {
            var changes: [PlannedChange] = []
            var left: [ConvertCalls.Left] = []
            var kept: Set<String> = []
            var importing: Set<String> = []
            let prepared = prepare(twinned: twinned, project: project)
            var writtenCalls: [(group: String, path: String, offset: Int, line: Int, text: String)] = []
            // The support functions made async, and the awaits of their calls (TestBridges+SupportFunctions).
            let supports = TestBridges.SupportFunctions(prepared.mapValues(\.method), waits: runLoopWaits, project: project)
            let action = TestMethodAction(supports: supports, waits: runLoopWaits, project: project)
            for id in order {
                guard let (method, awaited) = prepared[id] else { continue }
                // A support function not made async with its tests: its calls are left as outside a test.
                if method.isSupport, !supports.converted.contains(id) {
                    left += method.outside.map { ConvertCalls.Left(path: method.file.path, line: $0.line, text: $0.text, reason: $0.reason) }
                    continue
                }
                // The precondition and the edit apart: between them, once the method has no wait left, the file's
                // import (with its first such method) and the keys of the kept promises it awaits.
                let site = TestMethodAction.Site(id: id, method: method)
                var ready: TestBridges.Method
                switch action.precondition(site) {
                case .holds(let found): ready = found
                case .declines(let reason): left += action.left(method, reason); continue
                case .notApplicable: continue
                }
                // `p.value`, `p.resolvedResult` are TomorrowlandAsync's: the file imports it (once, with its first such test).
                if !awaited.isEmpty, !importing.contains(ready.file.path), let edit = Imports.addAsyncImport(to: ready.file)?.edit {
                    importing.insert(ready.file.path)
                    ready.edits.append(edit)
                }
                kept.formUnion(awaited)
                switch action.edit(site, ready) {
                case .holds(let edit):
                    changes.append(edit.change)
                    writtenCalls += edit.writtenCalls
                case .declines(let reason): left += action.left(method, reason)
                case .notApplicable: break
                }
            }
            changes += polls.overloadChanges(for: writtenCalls)
            return (changes, left, kept)
        }
    }

    /// The end of the summary of a change writing a polling helper's async overload: no call converted.
    static let overloadMarker = "(the calls are the tests' changes)"

    /// The words in a test change's summary after the number of calls (the tally counts them).
    static let summaryMarker = "call(s) awaited instead of waited for"

    /// The number of calls a proved change converted: one, or a test method's count.
    static func callCount(of change: PlannedChange) -> Int {
        // A polling helper's async overload written (TestBridges+PollingWaits) converts no call of its own.
        if change.summary.hasSuffix(overloadMarker) { return 0 }
        guard let range = change.summary.range(of: " " + summaryMarker) else { return 1 }
        let before = change.summary[..<range.lowerBound]
        return Int(before.split(separator: " ").last ?? "") ?? 1
    }
}

/// The calls `wait(for: …)` or `self.wait(for: …)` (XCTestCase's) in what it walks, outside closures (but a test's `assumeIsolated` wrapper).
private final class WaitFinder: SyntaxVisitor {
    var calls: [FunctionCallExprSyntax] = []

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        TestBridges.isAssumeIsolatedWrapper(node) ? .visitChildren : .skipChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let called = node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? node.calledExpression.as(MemberAccessExprSyntax.self).flatMap { member in
                member.base?.trimmedDescription == "self" ? member.declName.baseName.text : nil
            }
        if called == "wait", node.arguments.first?.label?.text == "for" { calls.append(node) }
        return .visitChildren
    }
}

/// The references to one name in what it walks.
final class NameReferences: SyntaxVisitor {
    let name: String
    var found: [DeclReferenceExprSyntax] = []

    init(name: String) {
        self.name = name
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        if node.baseName.text == name { found.append(node) }
        return .visitChildren
    }
}
