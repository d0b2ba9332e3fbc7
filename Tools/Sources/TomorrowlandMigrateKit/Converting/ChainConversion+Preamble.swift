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

    /// The early `return`s of the statements before a chain, as the twin's.
    private final class EarlyReturnRewriter: SyntaxRewriter {
        let conversion: ChainConversion
        var failure: String?
        var changed = false

        init(conversion: ChainConversion) {
            self.conversion = conversion
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
                replacement = try conversion.earlyReturn(of: expression)
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

    /// The twin's statement for an early `return <expression>` of the promise function.
    /// (Also the end of a `flatMapError` closure, whose promise has the function's type: there
    /// a `TokenPromise` function's promise is a plain one, `tokenAllowed`.)
    func earlyReturn(of expression: ExprSyntax, tokenAllowed: Bool = false) throws -> String {
        if let call = expression.as(FunctionCallExprSyntax.self) {
            if let error = Self.promiseArgument(of: call, label: "rejected") {
                if Self.isImplicitMember(error) {
                    guard !typedError.isEmpty else { throw Left("an early `return Promise(rejected: \(error.trimmedDescription))` whose error type is not spelled") }
                    return "throw \(typedError)\(error.trimmedDescription)"
                }
                return "throw \(error.trimmedDescription)"
            }
            if let value = Self.promiseArgument(of: call, label: "fulfilled") {
                let text = value.trimmedDescription
                return returnsVoid ? (["()", "Void()"].contains(text) ? "return" : "return \(text)") : "return \(text)"
            }
        }
        if tokenPromise, !tokenAllowed { throw Left("an early return of a `TokenPromise`") }
        if Self.containsImplicitMember(Syntax(expression)) && !expression.is(FunctionCallExprSyntax.self) {
            guard !promiseType.isEmpty else { throw Left("an early return of a promise that takes its type from the function") }
            return "return " + awaited(Self.parse("(\(expression.trimmedDescription) as \(promiseType))"))
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
    /// skipped the closure). Throws for any other capture, or a `self` still used as an optional.
    static func withoutSelfCaptures(_ body: CodeBlockSyntax, chainClosures: Set<SyntaxIdentifier>) throws -> CodeBlockSyntax {
        let captured = body.statements.last.map { last in
            last.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .leftSquare }
        } ?? false
        guard captured else { return body }
        let rewriter = SelfCaptureRewriter(closures: chainClosures)
        let rewritten = rewriter.rewrite(body).as(CodeBlockSyntax.self) ?? body
        if let failure = rewriter.failure { throw Left(failure) }
        return rewriter.changed ? rewritten : body
    }

    private final class SelfCaptureRewriter: SyntaxRewriter {
        let closures: Set<SyntaxIdentifier>
        var failure: String?
        var changed = false

        init(closures: Set<SyntaxIdentifier>) {
            self.closures = closures
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: ClosureExprSyntax) -> ExprSyntax {
            guard closures.contains(node.id), let signature = node.signature, let capture = signature.capture else {
                return super.visit(node)
            }
            var weak = false
            for item in capture.items {
                let specifier = item.specifier?.specifier.text
                guard item.name.text == "self", item.initializer == nil, [nil, "weak", "unowned"].contains(specifier) else {
                    failure = failure ?? "a closure with a capture list (`\(capture.trimmedDescription)`) other than `[weak self]` or `[unowned self]`"
                    return ExprSyntax(node)
                }
                weak = weak || specifier == "weak"
            }
            var statements = node.statements
            if weak, WeakSelfRewriter.coalescesSelf(in: Syntax(statements)) {
                failure = failure ?? "a `[weak self]` closure that uses `self?.x ?? y` (whether `??` is still needed is not known)"
                return ExprSyntax(node)
            }
            if weak {
                let inner = WeakSelfRewriter()
                statements = inner.rewrite(statements).as(CodeBlockItemListSyntax.self) ?? statements
                if let reason = inner.failure ?? WeakSelfRewriter.optionalUse(in: statements) {
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

    /// Inside a `[weak self]` closure of the chain: `self` as the twin's non-optional `self`.
    private final class WeakSelfRewriter: SyntaxRewriter {
        var failure: String?

        init() { super.init(viewMode: .sourceAccurate) }

        static func isSelf(_ expression: ExprSyntax) -> Bool {
            expression.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self)
        }

        // A nested closure that captures `self` again has its own (optional) `self`.
        override func visit(_ node: ClosureExprSyntax) -> ExprSyntax {
            if node.signature?.capture?.items.contains(where: { $0.name.text == "self" }) == true { return ExprSyntax(node) }
            return super.visit(node)
        }

        override func visit(_ node: OptionalChainingExprSyntax) -> ExprSyntax {
            guard Self.isSelf(node.expression) else { return super.visit(node) }
            return node.expression.with(\.leadingTrivia, node.leadingTrivia).with(\.trailingTrivia, node.trailingTrivia)
        }

        override func visit(_ node: ForceUnwrapExprSyntax) -> ExprSyntax {
            guard Self.isSelf(node.expression) else { return super.visit(node) }
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
                for condition in guardStatement.conditions {
                    if let binding = condition.condition.as(OptionalBindingConditionSyntax.self), binding.bindingSpecifier.text == "let",
                       let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                       binding.initializer.map({ Self.isSelf($0.value) }) ?? (name == "self") {
                        if name != "self" { bindings.append("let \(name) = self") }
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

        /// Whether `node` holds `self?.x ?? y`: without the `?`, the `??` may still be needed, or not.
        static func coalescesSelf(in node: Syntax) -> Bool {
            if let closure = node.as(ClosureExprSyntax.self),
               closure.signature?.capture?.items.contains(where: { $0.name.text == "self" }) == true { return false }
            if let sequence = node.as(SequenceExprSyntax.self) {
                let elements = Array(sequence.elements)
                for (index, element) in elements.enumerated() where index > 0 && element.as(BinaryOperatorExprSyntax.self)?.operator.text == "??" {
                    let tokens = Array(elements[index - 1].tokens(viewMode: .sourceAccurate).prefix(2))
                    if tokens.count == 2, tokens[0].tokenKind == .keyword(.self), tokens[1].tokenKind == .postfixQuestionMark { return true }
                }
            }
            return node.children(viewMode: .sourceAccurate).contains { coalescesSelf(in: $0) }
        }

        /// Why `self` is still used as an optional in `statements` (rewritten), or nil.
        static func optionalUse(in statements: CodeBlockItemListSyntax) -> String? {
            func walk(_ node: Syntax) -> String? {
                if let closure = node.as(ClosureExprSyntax.self),
                   closure.signature?.capture?.items.contains(where: { $0.name.text == "self" }) == true { return nil }
                if let token = node.as(TokenSyntax.self), token.tokenKind == .keyword(.self) {
                    let next = token.nextToken(viewMode: .sourceAccurate)
                    if next?.tokenKind == .postfixQuestionMark || next?.tokenKind == .exclamationMark {
                        return "a `[weak self]` closure that uses `self` as an optional"
                    }
                    if node.parent?.parent?.is(OptionalBindingConditionSyntax.self) == true
                        || node.parent?.parent?.parent?.is(OptionalBindingConditionSyntax.self) == true {
                        return "a `[weak self]` closure that binds `self` with `if let`"
                    }
                    if let reference = node.parent, let parent = reference.parent, parent.is(ExprListSyntax.self) {
                        return "a `[weak self]` closure that compares or combines `self` (`self == nil`, `self?.x ?? y`)"
                    }
                }
                return node.children(viewMode: .sourceAccurate).lazy.compactMap(walk).first
            }
            return walk(Syntax(statements))
        }
    }
}
