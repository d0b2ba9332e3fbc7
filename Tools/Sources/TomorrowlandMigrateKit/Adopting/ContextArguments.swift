// The `on:` arguments of a file: every call of a library API that takes a context, found with
// the scopes around it (ContextArgumentSite.swift). The actions decide what each one needs
// (ContextArgumentActions.swift).

import SwiftSyntax

/// Finds the context-argument sites of one file, in the order they are written.
final class ContextArguments: TypeTrackingVisitor {
    private let file: ParsedFile
    private let isolation: IsolationIndex
    /// The calls found so far.
    private(set) var sites: [ContextArgumentSite] = []
    private var scopes: [ContextArgumentSite.Scope] = []

    init(file: ParsedFile, isolation: IsolationIndex) {
        self.file = file
        self.isolation = isolation
        super.init(viewMode: .sourceAccurate)
    }

    /// The calls of `file` that take a context, each with its scopes.
    static func sites(in file: ParsedFile, isolation: IsolationIndex) -> [ContextArgumentSite] {
        let visitor = ContextArguments(file: file, isolation: isolation)
        visitor.walk(file.tree)
        return visitor.sites
    }

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        if let scope = scope(of: node) { scopes.append(scope) }
        if let call = node.as(FunctionCallExprSyntax.self), let name = Self.calledName(call), Self.contextAPIs.contains(name) {
            sites.append(ContextArgumentSite(file: file, call: call, name: name, types: types, scopes: scopes, isolation: isolation))
        }
        return super.visitAny(node)
    }

    override func visitAnyPost(_ node: Syntax) {
        if Self.opensScope(node) { scopes.removeLast() }
        super.visitAnyPost(node)
    }

    /// Functions, initializers, member and top-level properties, and extensions that say
    /// their isolation.
    private static func opensScope(_ node: Syntax) -> Bool {
        if node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self) { return true }
        if node.is(VariableDeclSyntax.self) { return isMemberOrTopLevel(node) }
        if let extensionDecl = node.as(ExtensionDeclSyntax.self) {
            return Isolation.hasMainActor(extensionDecl.attributes) || !extensionDecl.attributes.isEmpty
                || extensionDecl.modifiers.contains { $0.name.text == "nonisolated" }
        }
        return false
    }

    /// Whether `node` is a member of a type or a top-level declaration.
    private static func isMemberOrTopLevel(_ node: Syntax) -> Bool {
        node.parent?.is(MemberBlockItemSyntax.self) == true
            || (node.parent?.is(CodeBlockItemSyntax.self) == true && node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true)
    }

    /// The scope `node` opens, with the isolation it says (or its type gives a static member).
    private func scope(of node: Syntax) -> ContextArgumentSite.Scope? {
        guard Self.opensScope(node) else { return nil }
        if let extensionDecl = node.as(ExtensionDeclSyntax.self) {
            let explicit = isolation.explicitIsolation(attributes: extensionDecl.attributes, modifiers: extensionDecl.modifiers)
            return ContextArgumentSite.Scope(explicit: explicit, isStatic: false, isExtension: true, valueOfProperty: nil, function: nil)
        }
        let attributes: AttributeListSyntax
        let modifiers: DeclModifierListSyntax
        var initialized: String?
        if let function = node.as(FunctionDeclSyntax.self) {
            (attributes, modifiers) = (function.attributes, function.modifiers)
        } else if let declaration = node.as(InitializerDeclSyntax.self) {
            (attributes, modifiers) = (declaration.attributes, declaration.modifiers)
        } else if let variable = node.as(VariableDeclSyntax.self) {
            (attributes, modifiers) = (variable.attributes, variable.modifiers)
            initialized = variable.bindings.first { $0.initializer != nil }?.pattern.trimmedDescription
        } else {
            return nil
        }
        let isStatic = modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
        var explicit = isolation.explicitIsolation(attributes: attributes, modifiers: modifiers)
        // A static member of an actor is not isolated to it.
        if explicit == nil, isStatic, let type = types.last, type.isActor || isolation.domain(ofType: type.name).map(Self.isActorDomain) == true {
            explicit = .nonisolated
        }
        return ContextArgumentSite.Scope(
            explicit: explicit, isStatic: isStatic, isExtension: false, valueOfProperty: initialized, function: node.as(FunctionDeclSyntax.self)
        )
    }

    /// Whether `domain` is an actor's (not the main actor's or another global actor's).
    static func isActorDomain(_ domain: IsolationIndex.Domain) -> Bool {
        if case .actor = domain { return true }
        return false
    }

    /// The library's APIs that take a context (other `on:` parameters, such as a wrapper's
    /// `PromiseContext` one, take any context already), generated from its operator tables.
    private static let contextAPIs: Set<String> = OperatorFacts.contextTakers

    /// The promises made from a closure given a resolver.
    static let resolverAPIs: Set<String> = [
        "Promise", "StdPromise", "DelayedPromise", "StdDelayedPromise", "PromiseOperation", "StdPromiseOperation",
    ]

    /// The name `call` calls: `then` for `p.then(…)`, `Promise` for `Promise<Int, E>(…)`.
    static func calledName(_ call: FunctionCallExprSyntax) -> String? {
        var called = call.calledExpression
        if let specialized = called.as(GenericSpecializationExprSyntax.self) { called = specialized.expression }
        if let member = called.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text.replacingOccurrences(of: "`", with: "") }
        return called.as(DeclReferenceExprSyntax.self)?.baseName.text
    }

    /// `(x)` → `x`.
    static func unparenthesized(_ expression: ExprSyntax) -> ExprSyntax {
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
            return unparenthesized(only.expression)
        }
        return expression
    }

    /// The ternary `expression` is (`flag ? .main : .utility`), or is given to
    /// (`.nowOr(flag ? .main : .utility)`).
    static func ternary(in expression: ExprSyntax) -> SequenceExprSyntax? {
        if let call = expression.as(FunctionCallExprSyntax.self), isImplicitMember(expression),
           call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "nowOr",
           call.arguments.count == 1, let argument = call.arguments.first {
            return unparenthesized(argument.expression).as(SequenceExprSyntax.self)
        }
        return expression.as(SequenceExprSyntax.self)
    }

    /// The values a chain of ternaries can take (`a ? x : b ? y : z` → x, y, z), or nil when
    /// `sequence` is not one.
    static func ternaryLeaves(_ sequence: SequenceExprSyntax) -> [ExprSyntax]? {
        ternaryLeaves(Array(sequence.elements))
    }

    /// The same, for the elements of a sequence (those after an `=`).
    static func ternaryLeaves(_ elements: [ExprSyntax]) -> [ExprSyntax]? {
        guard let last = elements.lastIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }), last == elements.count - 2 else {
            return nil
        }
        // Ternaries bind loosest: anything between two of them is the next condition.
        let thens = elements.compactMap { $0.as(UnresolvedTernaryExprSyntax.self)?.thenExpression }
        return (thens + [elements[last + 1]]).map(unparenthesized)
    }

    /// `.x` or `.x(…)`.
    static func isImplicitMember(_ expression: ExprSyntax) -> Bool {
        let called = expression.as(FunctionCallExprSyntax.self)?.calledExpression ?? expression
        return called.as(MemberAccessExprSyntax.self).map { $0.base == nil } ?? false
    }

    /// The closure arguments of `call`, trailing ones included.
    static func closures(of call: FunctionCallExprSyntax) -> [ClosureExprSyntax] {
        call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
            + [call.trailingClosure].compactMap { $0 } + call.additionalTrailingClosures.map(\.closure)
    }

    /// Whether `closure` mentions `self` (also in a nested closure).
    static func usesSelf(_ closure: ClosureExprSyntax) -> Bool {
        closure.statements.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.self) }
    }
}
