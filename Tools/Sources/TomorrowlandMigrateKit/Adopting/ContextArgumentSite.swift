// A call that gives a closure (or a method passed by name) a context, with the scopes around
// it: which actor its code runs on, and what a closure given to it uses. The facts every
// context-argument action of `adopt` reads (ContextArgumentActions.swift).

import SwiftSyntax

/// One call of a library API that takes a context, as `ContextArguments` found it.
struct ContextArgumentSite {
    /// An enclosing function, initializer, property or isolated extension.
    struct Scope {
        let explicit: IsolationIndex.Explicit?
        let isStatic: Bool
        /// An extension: only its isolation counts.
        let isExtension: Bool
        /// The property whose initializer this is (a stored or `lazy` property, member or
        /// top-level); nil for functions and computed properties.
        let valueOfProperty: String?
        /// The function, for its parameters.
        let function: FunctionDeclSyntax?
    }

    let file: ParsedFile
    let call: FunctionCallExprSyntax
    /// The name the call calls (`then`, `Promise`).
    let name: String
    /// The enclosing types, innermost last.
    let types: [TypeScope]
    /// The enclosing scopes, innermost last.
    let scopes: [Scope]
    /// The isolation of the set's types and members.
    let isolation: IsolationIndex

    /// The `on:` argument, if the call has one.
    var argument: LabeledExprSyntax? { call.arguments.first(where: { $0.label?.text == "on" }) }

    /// The innermost function, initializer or property.
    var member: Scope? { scopes.last { !$0.isExtension } }

    /// Whether code here is in a static member.
    var isStatic: Bool { member?.isStatic ?? false }

    /// The actor code here runs on: that of the innermost declaration that says so, else of
    /// the enclosing type (an actor, a `@MainActor` type or an extension of one, a subclass of
    /// one); nil when nonisolated.
    var domain: IsolationIndex.Domain? {
        if let explicit = scopes.last(where: { $0.explicit != nil })?.explicit { return explicit.domain }
        guard let type = types.last else { return nil }
        if let domain = isolation.domain(ofType: type.name) { return domain }
        if type.isActor { return .actor(type.name) }
        return type.attributes.map(Isolation.hasMainActor) == true ? .mainActor : nil
    }

    /// Whether code here runs on an actor.
    var isIsolated: Bool { domain != nil }

    /// Whether code here runs on the main actor (not another actor).
    var isMainActorIsolated: Bool { domain == .mainActor }

    /// Whether `call` is inside a closure given to another call (whose isolation it takes)
    /// rather than directly in the initializer (or in a closure called at once, `{ … }()`).
    var isInCallbackClosure: Bool {
        var current = call.parent
        while let node = current, !node.is(VariableDeclSyntax.self), !node.is(MemberBlockSyntax.self) {
            if let closure = node.as(ClosureExprSyntax.self) {
                let calledAtOnce = closure.parent?.as(FunctionCallExprSyntax.self)?.calledExpression.id == closure.id
                if !calledAtOnce { return true }
            }
            current = node.parent
        }
        return false
    }

    /// `p.then { … }` (a callback API) or `Promise { resolver in … }` with no context.
    var isNoContextCallback: Bool {
        if ContextArguments.resolverAPIs.contains(name) {
            return ContextArguments.closures(of: call).contains { closure in
                closure.signature?.parameterClause != nil
                    || closure.statements.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .dollarIdentifier("$0") }
            }
        }
        return PromiseOperators.always.contains(name) && CallbackOperators.names.contains(name)
    }

    /// Whether the closure is marked with a global actor (`{ @MainActor in … }`).
    func hasActorAttribute(_ closure: ClosureExprSyntax) -> Bool {
        closure.signature?.attributes.contains { attribute in
            guard let name = attribute.as(AttributeSyntax.self)?.attributeName.trimmedDescription else { return false }
            return name == "MainActor" || isolation.globalActors.contains(name)
        } ?? false
    }

    /// The kind of a parameter of the enclosing function declared `PromiseContext.CallerIsolated`
    /// or `PromiseContext.Main`.
    func kindOfParameter(_ expression: ExprSyntax) -> ContextKind? {
        guard let name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text,
              let function = scopes.last(where: { $0.function != nil })?.function else { return nil }
        for parameter in function.signature.parameterClause.parameters where (parameter.secondName ?? parameter.firstName).text == name {
            let type = parameter.type.trimmedDescription
            if type.hasSuffix("CallerIsolated") { return .callerIsolated }
            if type.hasSuffix("Context.Main") { return .mainActor }
        }
        return nil
    }
}

extension ContextArgumentSite {
    /// Whether `closure` uses the state of the enclosing actor-isolated type: `self`, or an
    /// isolated static member (`Self.count`, `Screen.count`, `count` in a static member).
    func usesActorState(_ closure: ClosureExprSyntax) -> Bool {
        if isMainActorIsolated {
            // `DispatchQueue.main.async { self.phase = … }` inside it: back on the main actor.
            let selves = closure.statements.tokens(viewMode: .sourceAccurate).filter { $0.tokenKind == .keyword(.self) }
            if selves.contains(where: { !Self.isOnMainActor($0, inside: closure) }) { return true }
        } else if ContextArguments.usesSelf(closure) {
            return true
        }
        guard let type = types.last else { return false }
        let tokens = Array(closure.statements.tokens(viewMode: .sourceAccurate))
        func isolatedStatic(_ name: String) -> Bool {
            isolation.members(named: name, in: type.name).contains { $0.isStatic && $0.domain != nil }
        }
        for (offset, token) in tokens.enumerated() {
            let afterPeriod = offset > 0 && tokens[offset - 1].tokenKind == .period
            if token.tokenKind == .keyword(.Self) || token.tokenKind == .identifier(type.name), !afterPeriod,
               offset + 2 < tokens.count, tokens[offset + 1].tokenKind == .period, case .identifier(let name) = tokens[offset + 2].tokenKind,
               isolatedStatic(name) {
                return true
            }
            if isStatic, !afterPeriod, case .identifier(let name) = token.tokenKind, isolatedStatic(name),
               !Scopes.isShadowed(name, at: Syntax(token)) {
                return true
            }
        }
        return false
    }

    /// Whether `token` is in a closure nested in `outer` that runs on the main actor:
    /// `DispatchQueue.main.async { … }` (`sync`, `asyncAfter`) or `{ @MainActor in … }`.
    private static func isOnMainActor(_ token: TokenSyntax, inside outer: ClosureExprSyntax) -> Bool {
        var current = token.parent
        while let node = current, node.id != outer.id {
            if let closure = node.as(ClosureExprSyntax.self) {
                if closure.signature.map({ Isolation.hasMainActor($0.attributes) }) == true { return true }
                var call = closure.parent
                if call?.is(LabeledExprSyntax.self) == true { call = call?.parent?.parent }
                if let called = call?.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedDescription,
                   ["DispatchQueue.main.async", "DispatchQueue.main.sync", "DispatchQueue.main.asyncAfter"].contains(called) {
                    return true
                }
            }
            current = node.parent
        }
        return false
    }
}

extension ContextArgumentSite {
    /// A method passed by name as the callback, with the actor it is isolated to.
    struct IsolatedReference {
        let expression: ExprSyntax
        let domain: IsolationIndex.Domain
        /// "is a method of `Screen`, which is isolated to an actor", "is a `@MainActor` method of `Format`".
        let description: String
    }

    /// The callback of `call` when it is a method (or a top-level function) that is isolated
    /// to an actor: `show`, `self.show`, `Self.describe`, `Formatter.describe` of a type of the
    /// set, `@MainActor` or a method of an actor-isolated type, and not `nonisolated`.
    func isolatedReference() -> IsolatedReference? {
        guard call.trailingClosure == nil, let last = call.arguments.last, last.label == nil else { return nil }
        let expression = last.expression
        let owner: String?
        let candidates: [IsolationIndex.Member]
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            guard let found = functions(named: reference) else { return nil }
            (owner, candidates) = found
        } else if let member = expression.as(MemberAccessExprSyntax.self), let found = methods(of: member) {
            (owner, candidates) = found
        } else {
            return nil
        }
        guard let domain = candidates.lazy.compactMap(\.domain).first else { return nil }
        let description: String
        if let owner {
            description = isolation.domain(ofType: owner) != nil
                ? "is a method of `\(owner)`, which is isolated to an actor"
                : "is a `@\(Self.name(of: domain))` method of `\(owner)`"
        } else {
            description = "is a `@\(Self.name(of: domain))` function"
        }
        return IsolatedReference(expression: expression, domain: domain, description: description)
    }

    /// The functions `show` names here: the innermost enclosing type's methods of that name
    /// (its owner), else the top-level functions (no owner); nil when a local shadows it.
    private func functions(named reference: DeclReferenceExprSyntax) -> (owner: String?, [IsolationIndex.Member])? {
        let name = reference.baseName.text
        guard !Scopes.isShadowed(name, at: Syntax(call)) else { return nil }
        for type in types.reversed() {
            let found = isolation.members(named: name, in: type.name).filter { $0.isFunction && $0.isStatic == isStatic }
            if !found.isEmpty { return (type.name, found) }
        }
        return (nil, (isolation.globals[name] ?? []).filter(\.isFunction))
    }

    /// The methods `self.show`, `Self.describe`, `Formatter.describe` or `badge.label` names,
    /// with the type that declares them; nil when the base is none of those.
    private func methods(of member: MemberAccessExprSyntax) -> (owner: String?, [IsolationIndex.Member])? {
        guard let base = member.base?.trimmedDescription else { return nil }
        let owner: String?
        let wantsStatic: Bool
        if base == "self" {
            (owner, wantsStatic) = (types.last?.name, isStatic)
        } else if base == "Self" {
            (owner, wantsStatic) = (types.last?.name, true)
        } else if isolation.isKnownType(base) {
            (owner, wantsStatic) = (base, true)
        } else if let baseExpression = member.base,
                  let type = UnappliedReferences.declaredTypeSyntax(of: baseExpression, at: Syntax(call))?.as(IdentifierTypeSyntax.self),
                  isolation.isKnownType(type.name.text) {
            (owner, wantsStatic) = (type.name.text, false) // `badge.label`, `badge` declared a `Badge`
        } else {
            return nil
        }
        guard let owner else { return nil }
        return (owner, isolation.members(named: member.declName.baseName.text, in: owner).filter { $0.isFunction && $0.isStatic == wantsStatic })
    }

    private static func name(of domain: IsolationIndex.Domain) -> String {
        switch domain {
        case .mainActor: return "MainActor"
        case .actor(let name), .globalActor(let name): return name
        }
    }
}
