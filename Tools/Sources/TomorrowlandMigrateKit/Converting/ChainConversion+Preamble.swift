// `convert-body`, the syntax half, continued: the statements before a chain (they move into the
// twin, whose wrapper starts it at once) and `[weak self]` closures of the chain (in the twin,
// `self` is the method's own).

import SwiftParser
import SwiftSyntax

extension ChainConversion {
    /// The statements before the chain, as the twin's first statements.
    struct Preamble {
        var lines: [String] = []
        /// The names they declare at the top of the body: a closure parameter of the chain
        /// named so gets another name (its `let` would be a redeclaration).
        var declared: Set<String> = []
    }

    /// `statements` (all but the body's last) as the twin's first statements. An early
    /// `return` of a promise becomes what the twin does with it: `return Promise(fulfilled: x)`
    /// → `return x`, `return Promise(rejected: e)` → `throw e`, `return f(x)` → `return try
    /// await f(x)` (or its `.value`). In 1.x they ran during the call; the wrapper starts the
    /// twin at once (`Promise(on: .immediate)`), so they still do, in the caller's isolation.
    func preamble(_ statements: [CodeBlockItemSyntax]) throws -> Preamble {
        var preamble = Preamble()
        for statement in statements {
            if statement.item.is(DeferStmtSyntax.self) {
                throw Left("a `defer` before the chain (it ran when the promise function returned, before the chain)")
            }
            preamble.declared.formUnion(Self.declaredNames(by: statement))
            let rewriter = EarlyReturnRewriter(conversion: self)
            let rewritten = rewriter.rewrite(statement).as(CodeBlockItemSyntax.self) ?? statement
            if let failure = rewriter.failure { throw Left(failure) }
            preamble.lines.append(Self.text(of: rewriter.changed ? rewritten : statement))
        }
        return preamble
    }

    /// The names `statement` declares in the body's scope: its `let`/`var` patterns, a
    /// `guard let`'s bindings, a local function or type.
    static func declaredNames(by statement: CodeBlockItemSyntax) -> Set<String> {
        var names: Set<String> = []
        func patternNames(_ pattern: PatternSyntax) {
            names.formUnion(identifiers(in: pattern))
        }
        if let variable = statement.item.as(VariableDeclSyntax.self) {
            variable.bindings.forEach { patternNames($0.pattern) }
        } else if let guardStatement = statement.item.as(GuardStmtSyntax.self) {
            for condition in guardStatement.conditions {
                if let binding = condition.condition.as(OptionalBindingConditionSyntax.self) {
                    patternNames(binding.pattern)
                } else if let matching = condition.condition.as(MatchingPatternConditionSyntax.self) {
                    patternNames(matching.pattern)
                }
            }
        } else if let function = statement.item.as(FunctionDeclSyntax.self) {
            names.insert(function.name.text)
        } else if let decl = statement.item.as(DeclSyntax.self) {
            names.formUnion(identifiers(in: decl).prefix(1))
        }
        return names
    }

    /// The early `return`s of the statements before a chain (or of a closure of the chain), as
    /// the twin's: each `return <expression>` becomes `rewritten(expression)`.
    final class EarlyReturnRewriter: SyntaxRewriter {
        let rewritten: (ExprSyntax) throws -> String
        var failure: String?
        var changed = false

        convenience init(conversion: ChainConversion) {
            self.init { try conversion.earlyReturn(of: $0) }
        }

        init(_ rewritten: @escaping (ExprSyntax) throws -> String) {
            self.rewritten = rewritten
            super.init(viewMode: .sourceAccurate)
        }

        // A `return` in a closure or a nested function is its own.
        override func visit(_ node: ClosureExprSyntax) -> ExprSyntax { ExprSyntax(node) }
        override func visit(_ node: FunctionDeclSyntax) -> DeclSyntax { DeclSyntax(node) }
        override func visit(_ node: AccessorBlockSyntax) -> AccessorBlockSyntax { node }

        override func visit(_ node: ReturnStmtSyntax) -> StmtSyntax {
            guard let expression = node.expression else {
                failure = failure ?? "a `return` without a promise before the chain"
                return StmtSyntax(node)
            }
            let replacement: String
            do {
                replacement = try rewritten(expression)
            } catch {
                failure = failure ?? (error as? Left)?.reason ?? "\(error)"
                return StmtSyntax(node)
            }
            guard let parsed = Parser.parse(source: replacement).statements.first?.item.as(StmtSyntax.self) else {
                failure = failure ?? "an early return the tool cannot rewrite"
                return StmtSyntax(node)
            }
            changed = true
            return parsed.with(\.leadingTrivia, node.leadingTrivia).with(\.trailingTrivia, node.trailingTrivia)
        }
    }

    /// The types an early return refers to: the error type an implicit member (`.notFound`)
    /// belongs to, the promise type a promise expression is spelled `as`, whether the value is `Void`.
    struct ReturnTypes {
        var typedError = ""
        var promiseType = ""
        var returnsVoid = false
        var tokenAllowed = false

        init(typedError: String = "", promiseType: String = "", returnsVoid: Bool = false, tokenAllowed: Bool = false) {
            self.typedError = typedError
            self.promiseType = promiseType
            self.returnsVoid = returnsVoid
            self.tokenAllowed = tokenAllowed
        }

        init(_ promise: PromiseType) {
            self.init(
                typedError: promise.hasUntypedError || promise.hasNoError ? "" : promise.error, promiseType: promise.spelled,
                returnsVoid: ["Void", "()", "Swift.Void"].contains(promise.value)
            )
        }
    }

    /// The function's own: what an early return before the chain refers to.
    var functionReturnTypes: ReturnTypes {
        ReturnTypes(typedError: typedError, promiseType: promiseType, returnsVoid: returnsVoid, tokenAllowed: false)
    }

    /// What `step`'s closure returns: its declared promise type, else the compiler's type of
    /// the step's call, else (for the chain's last step, `isFinal`) the function's.
    func types(of step: Step, isFinal: Bool) -> ReturnTypes {
        if let declared = step.closure.signature?.returnClause?.type {
            if let promise = PromiseType(declared) { return ReturnTypes(promise) }
            // `mapError { error -> CheckoutError in … }`: the error type itself.
            if step.name == "mapError" { return ReturnTypes(typedError: declared.trimmedDescription) }
        }
        if let type = step.type {
            var types = ReturnTypes(type)
            types.tokenAllowed = true
            return types
        }
        if isFinal {
            var types = functionReturnTypes
            types.tokenAllowed = true
            return types
        }
        return ReturnTypes()
    }

    /// What a closure of the chain hands back, in `closureStatements`.
    enum ClosureResult {
        /// A promise (`flatMap`, `flatMapError`): its value is returned, awaited.
        case promise(ReturnTypes)
        /// An error (`mapError`), of this type (empty: not known): it is thrown.
        case error(String)
    }

    /// A closure's statements (`body`, text) with every `return` (and a final expression) as
    /// the twin's: `return <awaited promise>` / `throw e`, or `throw <error>`.
    func closureStatements(_ body: [String], returning result: ClosureResult) throws -> [String] {
        let tree = Parser.parse(source: body.joined(separator: "\n"))
        let items = Array(tree.statements)
        let rewrite: (ExprSyntax) throws -> String = { expression in
            switch result {
            case .promise(let types):
                return try self.earlyReturn(of: expression, types: types)
            case .error(let type):
                if Self.isImplicitMember(expression) {
                    guard !type.isEmpty else { throw Left("an error `\(expression.trimmedDescription)` whose type is not spelled") }
                    return "throw \(type)\(expression.trimmedDescription)"
                }
                return "throw \(expression.trimmedDescription)"
            }
        }
        var lines: [String] = []
        for (index, item) in items.enumerated() {
            if index == items.count - 1, let expression = item.item.as(ExprSyntax.self) {
                lines.append(try rewrite(expression))
                continue
            }
            let rewriter = EarlyReturnRewriter(rewrite)
            let rewritten = rewriter.rewrite(item).as(CodeBlockItemSyntax.self) ?? item
            if let failure = rewriter.failure { throw Left(failure) }
            lines.append(Self.text(of: rewriter.changed ? rewritten : item))
        }
        return lines
    }

    /// The twin's statement for an early `return <expression>` of the promise function.
    func earlyReturn(of expression: ExprSyntax) throws -> String {
        try earlyReturn(of: expression, types: functionReturnTypes)
    }

    /// The twin's statement for `return <expression>`, where `expression` is a promise whose
    /// types `types` tells: `return x` for `Promise(fulfilled: x)`, `throw e` for
    /// `Promise(rejected: e)`, `throw CancellationError()` for `Promise(with: .cancelled)`,
    /// `return try await f(x)` (or `.value`) otherwise.
    func earlyReturn(of expression: ExprSyntax, types: ReturnTypes) throws -> String {
        if let call = expression.as(FunctionCallExprSyntax.self) {
            if let error = Self.promiseArgument(of: call, label: "rejected") {
                if Self.isImplicitMember(error) {
                    guard !types.typedError.isEmpty else {
                        throw Left("an early `return Promise(rejected: \(error.trimmedDescription))` whose error type is not spelled")
                    }
                    return "throw \(types.typedError)\(error.trimmedDescription)"
                }
                return "throw \(error.trimmedDescription)"
            }
            if let value = Self.promiseArgument(of: call, label: "fulfilled") {
                let text = value.trimmedDescription
                return types.returnsVoid ? (["()", "Void()"].contains(text) ? "return" : "return \(text)") : "return \(text)"
            }
            if let result = Self.promiseArgument(of: call, label: "with"), result.trimmedDescription == ".cancelled" {
                return "throw CancellationError()"
            }
        }
        if tokenPromise, !types.tokenAllowed { throw Left("an early return of a `TokenPromise`") }
        // `charge(…).mapError(on: .immediate) { .payment($0) }` took its error type from the
        // closure's declared promise type: awaited `as` that type.
        if let call = expression.as(FunctionCallExprSyntax.self), !types.promiseType.isEmpty, PromiseOperators.name(of: call) != nil,
           call.calledExpression.is(MemberAccessExprSyntax.self) {
            return "return " + awaited(Self.parse("(\(expression.trimmedDescription) as \(types.promiseType))"))
        }
        if Self.containsImplicitMember(Syntax(expression)) && !expression.is(FunctionCallExprSyntax.self) {
            guard !types.promiseType.isEmpty else { throw Left("an early return of a promise that takes its type from the function") }
            return "return " + awaited(Self.parse("(\(expression.trimmedDescription) as \(types.promiseType))"))
        }
        // `StdPromise(on: .immediate) { resolver in … }` took its value type from the function's return (Swift 6 mode
        // cannot infer it in the twin: "failed to produce diagnostic"): awaited `as` that type.
        if let call = expression.as(FunctionCallExprSyntax.self), !types.promiseType.isEmpty,
           let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, name.hasSuffix("Promise") {
            return "return " + awaited(Self.parse("(\(expression.trimmedDescription) as \(types.promiseType))"))
        }
        return "return " + awaited(expression)
    }

    /// `.notFound`, `.failed(code)`: a member of a type the context gives.
    static func isImplicitMember(_ expression: ExprSyntax) -> Bool {
        if let member = expression.as(MemberAccessExprSyntax.self) { return member.base == nil }
        if let call = expression.as(FunctionCallExprSyntax.self) { return isImplicitMember(call.calledExpression) }
        return false
    }
}

// MARK: - `[weak self]`

extension ChainConversion {
    /// The closures of the chain that `statement` returns (its steps' closures, through a
    /// final `.withToken(token)`).
    static func stepClosures(of statement: CodeBlockItemSyntax) -> Set<SyntaxIdentifier> {
        var current = statement.item.as(ReturnStmtSyntax.self)?.expression ?? statement.item.as(ExprSyntax.self)
        var closures: Set<SyntaxIdentifier> = []
        while let call = current?.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            if let closure = call.trailingClosure { closures.insert(closure.id) }
            for argument in call.arguments {
                if let closure = argument.expression.as(ClosureExprSyntax.self) { closures.insert(closure.id) }
            }
            current = member.base
        }
        return closures
    }

    /// `body` with the capture lists of the chain's closures (`chainClosures`) taken out: the
    /// closure's code becomes the twin's, and there `self` is the method's own. `[unowned self]`
    /// and `[self]` go; under `[weak self]`, `self?.x` and `self!.x` become `self.x`, `guard let
    /// self else { … }` goes and `guard let strong = self else { … }` becomes `let strong = self`.
    /// The twin holds `self` until it returns, as the wrapper's Task does (1.x let it go and
    /// skipped the closure). A capture that binds a read (`[store = self.store]`) becomes `let
    /// store = self.store` in `bound`, which the twin declares where the chain was built (during
    /// the call, before its first await: ChainConversion+Captures.swift). Throws for any other
    /// capture, or a `self` still used as an optional.
    static func withoutSelfCaptures(
        _ body: CodeBlockSyntax, chainClosures: Set<SyntaxIdentifier>, bound: inout [String], parameters: Set<String> = []
    ) throws -> CodeBlockSyntax {
        let captured = body.statements.last.map { last in
            last.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .leftSquare }
        } ?? false
        guard captured else { return body }
        let rewriter = SelfCaptureRewriter(closures: chainClosures)
        let rewritten = rewriter.rewrite(body).as(CodeBlockSyntax.self) ?? body
        if let failure = rewriter.failure ?? Self.boundCaptureClash(rewriter.bound, in: body, parameters: parameters) { throw Left(failure) }
        // `[x = x]` of a parameter: the twin reads the parameter itself.
        bound = rewriter.bound.filter { $0.name != $0.value }.map { "let \($0.name) = \($0.value)" }
        return rewriter.changed ? rewritten : body
    }

    /// Why a `[weak name]` closure's "gone" branch cannot run in the twin: the language's rule.
    static func strongInTwin(_ name: String) -> String {
        name == "self"
            ? "in the twin `self` is a strong reference until it returns (Swift has no weak `self` in a method)"
            : "in the twin `\(name)` is a strong reference until it returns (a parameter or property read by an async function)"
    }

    private final class SelfCaptureRewriter: SyntaxRewriter {
        let closures: Set<SyntaxIdentifier>
        var failure: String?
        var changed = false
        /// `[name = value]` captures of a read: the twin's `let`s, and the closure that had each.
        var bound: [(name: String, value: String, closure: SyntaxIdentifier)] = []

        init(closures: Set<SyntaxIdentifier>) {
            self.closures = closures
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: ClosureExprSyntax) -> ExprSyntax {
            guard closures.contains(node.id), let signature = node.signature, let capture = signature.capture else {
                return super.visit(node)
            }
            var statements = node.statements
            for item in capture.items {
                let specifier = item.specifier?.specifier.text
                if let value = item.initializer?.value, specifier == nil, ChainConversion.isRead(value), item.name.tokenKind != .wildcard {
                    bound.append((item.name.text, value.trimmedDescription, node.id))
                    continue
                }
                // `[weak self]`, `[unowned self]`, `[self]`, and `[weak log]` of a name the twin has too.
                guard item.initializer == nil, [nil, "weak", "unowned"].contains(specifier), item.name.tokenKind != .wildcard else {
                    failure = failure ?? "a closure with a capture list (`\(capture.trimmedDescription)`) other than `[weak self]` or `[unowned self]`"
                    return ExprSyntax(node)
                }
                guard specifier == "weak" else { continue }
                let name = item.name.text
                if WeakSelfRewriter.coalesces(name, in: Syntax(statements)) {
                    failure = failure ?? "a `[weak \(name)]` closure that uses `\(name)?.x ?? y` (`y` is what it gave once `\(name)` was gone; "
                        + ChainConversion.strongInTwin(name) + ", so `y` would never be used)"
                    return ExprSyntax(node)
                }
                let inner = WeakSelfRewriter(name: name)
                statements = inner.rewrite(statements).as(CodeBlockItemListSyntax.self) ?? statements
                if let reason = inner.failure ?? inner.optionalUse(in: statements) {
                    failure = failure ?? reason
                    return ExprSyntax(node)
                }
            }
            changed = true
            var closure = node.with(\.statements, statements)
            if signature.parameterClause == nil, signature.effectSpecifiers == nil, signature.returnClause == nil,
               signature.attributes.isEmpty {
                closure.signature = nil
            } else {
                closure.signature = signature.with(\.capture, nil)
            }
            return ExprSyntax(closure)
        }
    }

    /// Inside a `[weak self]` (or `[weak name]`) closure of the chain: `self` as the twin's
    /// non-optional `self` (`name` as the twin's own parameter or property).
    private final class WeakSelfRewriter: SyntaxRewriter {
        let name: String
        var failure: String?

        init(name: String) {
            self.name = name
            super.init(viewMode: .sourceAccurate)
        }

        func isSelf(_ expression: ExprSyntax) -> Bool {
            expression.as(DeclReferenceExprSyntax.self)?.baseName.text == name
        }

        // A nested closure that captures `self` again has its own (optional) `self`.
        override func visit(_ node: ClosureExprSyntax) -> ExprSyntax {
            if node.signature?.capture?.items.contains(where: { $0.name.text == name }) == true { return ExprSyntax(node) }
            return super.visit(node)
        }

        override func visit(_ node: OptionalChainingExprSyntax) -> ExprSyntax {
            guard isSelf(node.expression) else { return super.visit(node) }
            return node.expression.with(\.leadingTrivia, node.leadingTrivia).with(\.trailingTrivia, node.trailingTrivia)
        }

        override func visit(_ node: ForceUnwrapExprSyntax) -> ExprSyntax {
            guard isSelf(node.expression) else { return super.visit(node) }
            return node.expression.with(\.leadingTrivia, node.leadingTrivia).with(\.trailingTrivia, node.trailingTrivia)
        }

        /// `guard let self else { return }` goes; `guard let strong = self else { … }` becomes
        /// `let strong = self`; other conditions of the same `guard` stay.
        override func visit(_ node: CodeBlockItemListSyntax) -> CodeBlockItemListSyntax {
            var items: [CodeBlockItemSyntax] = []
            for item in node {
                guard let guardStatement = item.item.as(GuardStmtSyntax.self) else {
                    items.append(item)
                    continue
                }
                var kept: [ConditionElementSyntax] = []
                var bindings: [String] = []
                // What the closure did when the object was gone must be nothing: the twin holds it, so an
                // `else` that returns a value, throws or cancels would never run any more.
                let bindsName = guardStatement.conditions.contains { condition in
                    guard let binding = condition.condition.as(OptionalBindingConditionSyntax.self),
                          let bound = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return false }
                    return binding.initializer.map { isSelf($0.value) } ?? (bound == name)
                }
                if bindsName {
                    let elseStatements = Array(guardStatement.body.statements)
                    let silent = elseStatements.count == 1 && elseStatements[0].item.as(ReturnStmtSyntax.self).map { $0.expression == nil } == true
                    if !silent {
                        failure = failure ?? "a `[weak \(name)]` closure that does something when `\(name)` is gone "
                            + "(`guard let … else { \(guardStatement.body.statements.trimmedDescription) }`): "
                            + ChainConversion.strongInTwin(name) + ", so that would never run"
                        return node
                    }
                }
                for condition in guardStatement.conditions {
                    if let binding = condition.condition.as(OptionalBindingConditionSyntax.self), binding.bindingSpecifier.text == "let",
                       let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                       binding.initializer.map({ isSelf($0.value) }) ?? (name == self.name) {
                        if name != self.name { bindings.append("let \(name) = \(self.name)") }
                    } else {
                        kept.append(condition)
                    }
                }
                for binding in bindings {
                    let parsed = Parser.parse(source: binding).statements.first!
                    items.append(parsed.with(\.leadingTrivia, item.leadingTrivia).with(\.trailingTrivia, []))
                }
                if kept.count == guardStatement.conditions.count {
                    items.append(item)
                } else if !kept.isEmpty {
                    var list = kept
                    // The last condition has no comma after it.
                    list[list.count - 1] = list[list.count - 1].with(\.trailingComma, nil)
                    let conditions = ConditionElementListSyntax(list)
                    items.append(item.with(\.item, .stmt(StmtSyntax(guardStatement.with(\.conditions, conditions)))))
                }
            }
            return super.visit(CodeBlockItemListSyntax(items))
        }

        /// Whether `node` holds `name?.x ?? y`: without the `?`, the `??` may still be needed, or not.
        static func coalesces(_ name: String, in node: Syntax) -> Bool {
            if let closure = node.as(ClosureExprSyntax.self),
               closure.signature?.capture?.items.contains(where: { $0.name.text == name }) == true { return false }
            if let sequence = node.as(SequenceExprSyntax.self) {
                let elements = Array(sequence.elements)
                for (index, element) in elements.enumerated() where index > 0 && element.as(BinaryOperatorExprSyntax.self)?.operator.text == "??" {
                    let tokens = Array(elements[index - 1].tokens(viewMode: .sourceAccurate).prefix(2))
                    if tokens.count == 2, tokens[0].text == name, tokens[1].tokenKind == .postfixQuestionMark { return true }
                }
            }
            return node.children(viewMode: .sourceAccurate).contains { coalesces(name, in: $0) }
        }

        /// Why `name` is still used as an optional in `statements` (rewritten), or nil.
        func optionalUse(in statements: CodeBlockItemListSyntax) -> String? {
            func walk(_ node: Syntax) -> String? {
                if let closure = node.as(ClosureExprSyntax.self),
                   closure.signature?.capture?.items.contains(where: { $0.name.text == name }) == true { return nil }
                if let token = node.as(TokenSyntax.self), token.text == name, token.parent?.is(DeclReferenceExprSyntax.self) == true {
                    let next = token.nextToken(viewMode: .sourceAccurate)
                    if next?.tokenKind == .postfixQuestionMark || next?.tokenKind == .exclamationMark {
                        return "a `[weak \(name)]` closure that uses `\(name)` as an optional"
                    }
                    if node.parent?.parent?.is(OptionalBindingConditionSyntax.self) == true
                        || node.parent?.parent?.parent?.is(OptionalBindingConditionSyntax.self) == true {
                        return "a `[weak \(name)]` closure that binds `\(name)` with `if let`"
                    }
                    if let reference = node.parent, let parent = reference.parent, parent.is(ExprListSyntax.self) {
                        return "a `[weak \(name)]` closure that compares or combines `\(name)` (`\(name) == nil`)"
                    }
                }
                return node.children(viewMode: .sourceAccurate).lazy.compactMap(walk).first
            }
            return walk(Syntax(statements))
        }
    }
}
