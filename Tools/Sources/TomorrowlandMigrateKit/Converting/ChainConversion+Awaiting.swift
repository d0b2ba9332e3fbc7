// `convert-body`, the syntax half, continued: awaiting a promise in the twin, the promise `let`s
// before the chain, and what the twin's awaits may throw.

import SwiftParser
import SwiftSyntax

extension ChainConversion {
    /// The awaited value of the promise `expression`: `try await f(x)` when `f` has an async
    /// twin, `x` for `Promise(fulfilled: x)`, else `try await <expression>.value`.
    func awaited(_ expression: ExprSyntax) -> String {
        if let yielding = yieldingAwait(of: expression) { return yielding }
        // `x.upcast`: the same promise with its error as `Swift.Error`, which async code throws anyway.
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "upcast", let base = member.base {
            return awaited(base)
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            if let value = Self.promiseArgument(of: call, label: "fulfilled") { return value.trimmedDescription }
            if hasTwin(call) { return "try await " + Self.dedented(expression.trimmedDescription, by: Self.lineIndentation(of: expression)) }
        }
        // Over several lines: its continuation lines shifted left by its own column (the caller indents anew).
        let text = Self.dedented(expression.trimmedDescription, by: Self.lineIndentation(of: expression))
        let postfix = expression.is(FunctionCallExprSyntax.self) || expression.is(DeclReferenceExprSyntax.self)
            || expression.is(MemberAccessExprSyntax.self) || expression.is(TupleExprSyntax.self)
        return "try await " + (postfix ? text : "(\(text))") + ".value"
    }

    /// The `let`s of `statements` (before the chain) that hold a promise, with its type (written,
    /// or the compiler's type of the call), and those of them read once in `body`, outside closures;
    /// also a `let` read once as an argument of `when(…)` (`let changes = ids.map { f($0) }`: its
    /// promises, whose handles would block the cancel request `when` passes on).
    func promiseLocals(_ statements: [CodeBlockItemSyntax], in body: CodeBlockSyntax) -> (types: [String: PromiseType], consumable: Set<String>) {
        var types: [String: PromiseType] = [:]
        var others: Set<String> = []
        for statement in statements {
            guard let variable = statement.item.as(VariableDeclSyntax.self), variable.bindingSpecifier.text == "let",
                  variable.bindings.count == 1, let binding = variable.bindings.first,
                  let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value else { continue }
            if let annotation = binding.typeAnnotation?.type, let type = PromiseType(annotation) {
                types[name] = type
            } else if let call = value.as(FunctionCallExprSyntax.self), let type = typeOfCall(call).flatMap(Self.promiseType(spelled:)) {
                types[name] = type
            } else {
                others.insert(name)
            }
        }
        func isWhenArgument(_ token: TokenSyntax) -> Bool {
            guard let argument = token.parent?.parent?.as(LabeledExprSyntax.self), argument.expression.id == token.parent?.id,
                  let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self) else { return false }
            return Calls.calledName(call)?.0 == "when"
        }
        var reads: [String: (count: Int, inClosure: Bool)] = [:]
        for token in body.tokens(viewMode: .sourceAccurate) where token.parent?.is(DeclReferenceExprSyntax.self) == true
            && (types[token.text] != nil || others.contains(token.text)) {
            guard !Self.isMemberOrLabel(token) else { continue }
            var inClosure = false
            var node = token.parent
            while let current = node, current.id != body.id {
                if current.is(ClosureExprSyntax.self) { inClosure = true }
                node = current.parent
            }
            let seen = reads[token.text] ?? (0, false)
            reads[token.text] = (seen.count + 1, seen.inClosure || inClosure)
        }
        var whenArguments: Set<String> = []
        for token in body.tokens(viewMode: .sourceAccurate) where others.contains(token.text) && isWhenArgument(token) {
            whenArguments.insert(token.text)
        }
        let once = Set(reads.filter { $0.value.count == 1 && !$0.value.inClosure }.keys)
        return (types, once.filter { types[$0] != nil || whenArguments.contains($0) })
    }

    /// `expression` with each read of `names` (outside closures) written `(consume name)`.
    static func consuming(_ names: Set<String>, in expression: ExprSyntax) -> ExprSyntax {
        guard !names.isEmpty else { return expression }
        final class Rewriter: SyntaxRewriter {
            let names: Set<String>
            init(names: Set<String>) {
                self.names = names
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: ClosureExprSyntax) -> ExprSyntax { ExprSyntax(node) }
            override func visit(_ node: DeclReferenceExprSyntax) -> ExprSyntax {
                guard names.contains(node.baseName.text) else { return ExprSyntax(node) }
                return ChainConversion.parse("(consume \(node.baseName.text))")
                    .with(\.leadingTrivia, node.leadingTrivia).with(\.trailingTrivia, node.trailingTrivia)
            }
        }
        return Rewriter(names: names).rewrite(expression).as(ExprSyntax.self) ?? expression
    }

    /// `Promise<Menu, NetworkError>` (as the compiler spells a call's type) as a `PromiseType`.
    static func promiseType(spelled: String) -> PromiseType? {
        guard let binding = Parser.parse(source: "let x: \(spelled)").statements.first?.item.as(VariableDeclSyntax.self)?.bindings.first,
              let type = binding.typeAnnotation?.type else { return nil }
        return PromiseType(type)
    }

    /// Whether `statements` (text) can throw out of the closure that holds them: a `try` (not
    /// `try?` or `try!`) or a `throw` outside nested closures.
    static func throwsOutsideClosures(_ statements: String) -> Bool {
        func walk(_ node: Syntax) -> Bool {
            if node.is(ClosureExprSyntax.self) { return false }
            if let tried = node.as(TryExprSyntax.self), tried.questionOrExclamationMark == nil { return true }
            if node.is(ThrowStmtSyntax.self) { return true }
            return node.children(viewMode: .sourceAccurate).contains(where: walk)
        }
        return walk(Syntax(Parser.parse(source: statements)))
    }

    /// `x` of `Promise(fulfilled: x)` (`label` "fulfilled"), `Promise(rejected: x)` ("rejected"),
    /// also spelled `StdPromise`, `Promise<T, E>` or with `.init`; nil for anything else.
    static func promiseArgument(of call: FunctionCallExprSyntax, label: String) -> ExprSyntax? {
        var callee = call.calledExpression
        if let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init", let base = member.base {
            callee = base
        }
        if let specialized = callee.as(GenericSpecializationExprSyntax.self) { callee = specialized.expression }
        // `Promise`, `StdPromise`, or a typealias of a promise type (`HubPromise(rejected: .offline)`).
        guard let name = callee.as(DeclReferenceExprSyntax.self)?.baseName.text, name.hasSuffix("Promise"),
              !["TokenPromise", "DelayedPromise"].contains(name),
              call.arguments.count == 1, call.arguments.first?.label?.text == label, call.trailingClosure == nil else { return nil }
        return call.arguments.first!.expression
    }

    /// The first expression the twin's statements `lines` await or `try` whose errors are not known:
    /// anything but a call `hasTwin` accepts, a promise's `.value`, or `withTaskExecutorPreference`
    /// or `withTaskCancellationHandler` (whose operation closure is looked into); nil when there is none. (Awaits in other closures do not
    /// throw from the twin.) A local function the lines declare (a tail's or a split's steps) is known: its own awaits are looked into.
    static func awaitOfUnknownErrors(in lines: [String], hasTwin: @escaping (FunctionCallExprSyntax) -> Bool) -> String? {
        let tree = Parser.parse(source: "func twin() async throws {\n" + lines.joined(separator: "\n") + "\n}")
        let twin = tree.statements.first?.item.as(FunctionDeclSyntax.self)
        let local = Set(twin?.body?.statements.compactMap { $0.item.as(FunctionDeclSyntax.self)?.name.text } ?? [])
        func unknown(in node: Syntax) -> String? {
            if node.is(ClosureExprSyntax.self) { return nil }
            if let tried = node.as(TryExprSyntax.self), tried.questionOrExclamationMark == nil, !tried.expression.is(AwaitExprSyntax.self) {
                // `try MainActor.assumeIsolated { … }` (ChainConversion+NowOrMain.swift) rethrows what its closure throws.
                if let call = tried.expression.as(FunctionCallExprSyntax.self), let closure = mainActorClosure(of: call) {
                    return closure.statements.lazy.compactMap { unknown(in: Syntax($0)) }.first
                }
                return tried.expression.trimmedDescription
            }
            if let awaited = node.as(AwaitExprSyntax.self) {
                // `await Task.yield()` (ChainConversion+Order.swift) throws nothing.
                if awaited.expression.trimmedDescription == "Task.yield()" { return nil }
                if let call = awaited.expression.as(FunctionCallExprSyntax.self),
                   ["withTaskExecutorPreference", "withTaskCancellationHandler", "yieldingAfter"].contains(Calls.calledName(call)?.0),
                   let closure = call.trailingClosure {
                    return closure.statements.lazy.compactMap { unknown(in: Syntax($0)) }.first
                }
                if let call = awaited.expression.as(FunctionCallExprSyntax.self), let closure = mainActorClosure(of: call) {
                    return closure.statements.lazy.compactMap { unknown(in: Syntax($0)) }.first
                }
                // `try await f(x).map(\.title)`: down the postfix chain to the twin's call or `.value`.
                var expression: ExprSyntax? = awaited.expression
                while let current = expression {
                    if let member = current.as(MemberAccessExprSyntax.self) {
                        // `.resolvedResult` (ChainConversion+MapResult.swift) throws nothing.
                        if ["value", "resolvedResult"].contains(member.declName.baseName.text) { return nil }
                        expression = member.base
                    } else if let call = current.as(FunctionCallExprSyntax.self) {
                        if hasTwin(call) { return nil }
                        if call.arguments.isEmpty, let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
                           local.contains(name) { return nil }
                        expression = call.calledExpression
                    } else {
                        expression = nil
                    }
                }
                return awaited.expression.trimmedDescription
            }
            return node.children(viewMode: .sourceAccurate).lazy.compactMap { unknown(in: $0) }.first
        }
        return unknown(in: Syntax(tree))
    }

    /// `mapError { $0 as Swift.Error }`: nothing to do in an untyped async function.
    static func isErasure(_ step: ChainConversion.Step) -> Bool {
        guard step.name == "mapError", step.closure.statements.count == 1 else { return false }
        let text = step.closure.statements.first!.trimmedDescription.replacingOccurrences(of: " ", with: "")
        return ["$0asSwift.Error", "$0asError", "$0as(anyError)", "$0asanyError"].contains(text)
    }

    /// Whether `text` may stand as a statement of a Void function (an awaited call).
    func returnsVoidExpression(_ text: String) -> Bool {
        text.hasPrefix("try await ") || text.hasPrefix("await ") || Self.isAssignment(text)
    }
}
