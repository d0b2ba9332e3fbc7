// The `on:` arguments of a file: ternaries of implicit members that mix the two kinds of
// context (given a type), and closures run off the caller's actor that use `self` (listed).

import SwiftSyntax

/// The edits and notes for the context arguments of one file.
final class ContextArguments: TypeTrackingVisitor {
    private let file: ParsedFile
    private let contexts: CustomContexts
    private let isolation: IsolationIndex
    private let properties: ContextProperties.Index
    private(set) var edits: [TextEdit] = []
    private(set) var notes: [MigrationNote] = []
    /// Closures (and methods) given a stored `PromiseContext` property in code where a value's
    /// closure cannot do what they do: whether the property can be retyped is decided once
    /// every file was read (`ContextProperties.resolve`).
    private(set) var propertyUses: [ContextProperties.Key: [ContextProperties.Use]] = [:]

    /// An enclosing function, initializer, property or isolated extension.
    private struct Scope {
        let explicit: IsolationIndex.Explicit?
        let isStatic: Bool
        /// An extension: only its isolation counts.
        let isExtension: Bool
        /// The property whose initializer this is (a stored or `lazy` property, member or
        /// top-level); nil for functions and computed properties.
        let initializedProperty: String?
        /// The function, for its parameters.
        let function: FunctionDeclSyntax?
    }

    private var scopes: [Scope] = []

    init(file: ParsedFile, contexts: CustomContexts, isolation: IsolationIndex, properties: ContextProperties.Index) {
        self.file = file
        self.contexts = contexts
        self.isolation = isolation
        self.properties = properties
        super.init(viewMode: .sourceAccurate)
    }

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        if let scope = scope(of: node) { scopes.append(scope) }
        if let call = node.as(FunctionCallExprSyntax.self) { visitCall(call) }
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

    private static func isMemberOrTopLevel(_ node: Syntax) -> Bool {
        node.parent?.is(MemberBlockItemSyntax.self) == true
            || (node.parent?.is(CodeBlockItemSyntax.self) == true && node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true)
    }

    private func scope(of node: Syntax) -> Scope? {
        guard Self.opensScope(node) else { return nil }
        if let extensionDecl = node.as(ExtensionDeclSyntax.self) {
            let explicit = isolation.explicitIsolation(attributes: extensionDecl.attributes, modifiers: extensionDecl.modifiers)
            return Scope(explicit: explicit, isStatic: false, isExtension: true, initializedProperty: nil, function: nil)
        }
        let attributes: AttributeListSyntax
        let modifiers: DeclModifierListSyntax
        var initialized: String?
        if let function = node.as(FunctionDeclSyntax.self) {
            (attributes, modifiers) = (function.attributes, function.modifiers)
        } else if let initializer = node.as(InitializerDeclSyntax.self) {
            (attributes, modifiers) = (initializer.attributes, initializer.modifiers)
        } else if let variable = node.as(VariableDeclSyntax.self) {
            (attributes, modifiers) = (variable.attributes, variable.modifiers)
            if let binding = variable.bindings.first(where: { $0.initializer != nil }) {
                initialized = binding.pattern.trimmedDescription
            }
        } else {
            return nil
        }
        let isStatic = modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
        var explicit = isolation.explicitIsolation(attributes: attributes, modifiers: modifiers)
        // A static member of an actor is not isolated to it.
        if explicit == nil, isStatic, let type = types.last, type.isActor || isolation.domain(ofType: type.name).map(Self.isActorDomain) == true {
            explicit = .nonisolated
        }
        return Scope(explicit: explicit, isStatic: isStatic, isExtension: false, initializedProperty: initialized, function: node.as(FunctionDeclSyntax.self))
    }

    private static func isActorDomain(_ domain: IsolationIndex.Domain) -> Bool {
        if case .actor = domain { return true }
        return false
    }

    /// The innermost function, initializer or property.
    private var member: Scope? { scopes.last { !$0.isExtension } }

    /// Whether code here is in a static member.
    private var isStatic: Bool { member?.isStatic ?? false }

    /// The actor code here runs on: that of the innermost declaration that says so, else of
    /// the enclosing type (an actor, a `@MainActor` type or an extension of one, a subclass of
    /// one); nil when nonisolated.
    private var domain: IsolationIndex.Domain? {
        if let explicit = scopes.last(where: { $0.explicit != nil })?.explicit { return explicit.domain }
        guard let type = types.last else { return nil }
        if let domain = isolation.domain(ofType: type.name) { return domain }
        if type.isActor { return .actor(type.name) }
        return type.attributes.map(Isolation.hasMainActor) == true ? .mainActor : nil
    }

    /// Whether code here runs on an actor.
    private var isIsolated: Bool { domain != nil }

    /// Whether code here runs on the main actor (not another actor).
    private var isMainActorIsolated: Bool { domain == .mainActor }

    /// The library's APIs that take a context (other `on:` parameters, such as a wrapper's
    /// `PromiseContext` one, take any context already), generated from its operator tables.
    private static let contextAPIs: Set<String> = OperatorFacts.contextTakers

    /// The promises made from a closure given a resolver.
    private static let resolverAPIs: Set<String> = [
        "Promise", "StdPromise", "DelayedPromise", "StdDelayedPromise", "PromiseOperation", "StdPromiseOperation",
    ]

    /// The name `call` calls: `then` for `p.then(…)`, `Promise` for `Promise<Int, E>(…)`.
    static func calledName(_ call: FunctionCallExprSyntax) -> String? {
        var called = call.calledExpression
        if let specialized = called.as(GenericSpecializationExprSyntax.self) { called = specialized.expression }
        if let member = called.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text.replacingOccurrences(of: "`", with: "") }
        return called.as(DeclReferenceExprSyntax.self)?.baseName.text
    }

    private func visitCall(_ call: FunctionCallExprSyntax) {
        guard let name = Self.calledName(call), Self.contextAPIs.contains(name) else { return }
        let argument = call.arguments.first(where: { $0.label?.text == "on" })
        var kind: ContextKind?
        var isValue = false
        var property: ContextProperties.Declaration?
        if let argument {
            let expression = Self.unparenthesized(argument.expression)
            if let sequence = Self.ternary(in: expression), let leaves = Self.ternaryLeaves(sequence) {
                let kinds = leaves.map(contexts.kind(ofImplicitMember:))
                if kinds.allSatisfy({ $0 != nil }), Set(kinds.compactMap { $0 }.map(\.typeName)).count > 1, let first = leaves.first {
                    // `flag ? .immediate : .utility` has no type both members belong to: spelled
                    // `flag ? PromiseContext.immediate : .utility`, it is a `PromiseContext` value,
                    // whose closure is nonisolated and runs on the context it holds, as in 1.x.
                    edits.append(.insert("PromiseContext", at: first.positionAfterSkippingLeadingTrivia))
                    isValue = true
                } else if !leaves.allSatisfy(Self.isImplicitMember) {
                    isValue = true // `flag ? .main : someContext` is a `PromiseContext`
                } else if let uniform = kinds.first ?? nil, kinds.allSatisfy({ $0 == uniform }) {
                    kind = uniform
                }
            } else if Self.isImplicitMember(expression) {
                kind = contexts.kind(ofImplicitMember: expression)
            } else if let parameterKind = kindOfParameter(expression) {
                kind = parameterKind
            } else if let declared = properties.property(expression, at: Syntax(call), module: file.module, types: types.map(\.name), isStatic: isStatic) {
                if declared.declaredKind == .named { (isValue, property) = (true, declared) } else { kind = declared.declaredKind }
            } else {
                isValue = true
            }
        } else {
            // No context: the caller's actor. (Only where a closure stored for later loses it.)
            guard member?.initializedProperty != nil, Self.isNoContextCallback(call, name: name) else { return }
            kind = .callerIsolated
        }
        let context = argument.map { "on: \($0.expression.trimmedDescription)" } ?? "no context"
        if kind == .callerIsolated {
            storedClosures(of: call, context: context)
            return
        }
        // `.main` in an actor's code (or another global actor's): a main-actor closure, run on
        // the main queue as in 1.x, where touching this actor's state was a data race.
        let onMainOffActor = kind == .mainActor && isIsolated && !isMainActorIsolated
        let closures = (kind == .named || isValue || onMainOffActor) && isIsolated ? Self.closures(of: call).filter(usesActorState) : []
        let method = isolatedReference(in: call).flatMap { method -> IsolatedReference? in
            kind == .named || isValue || (kind == .mainActor && method.domain != .mainActor) ? method : nil
        }
        guard !closures.isEmpty || method != nil else { return }
        if isMainActorIsolated, let expression = argument.map({ Self.unparenthesized($0.expression) }),
           let base = contexts.mainQueueBase(of: expression), method.map({ $0.domain == .mainActor }) ?? true {
            // `PromiseContext.main` is a value: its closure is nonisolated, so using the main
            // actor's state there no longer compiles, though in 1.x it ran on the main queue.
            // `.main` gives a main-actor closure and still runs on the main queue. (In an
            // actor such a closure touched the actor's state from the main queue: listed.)
            let start = base.positionAfterSkippingLeadingTrivia.utf8Offset
            edits.append(TextEdit(start: start, end: base.endPositionBeforeTrailingTrivia.utf8Offset, text: ""))
            return
        }
        let container = types.last.map { "`\($0.name)`" } ?? "this function"
        let closureUses: [ContextProperties.Use] = closures.map { closure in
            let what = Self.usesSelf(closure) ? "uses `self` of \(container)" : "uses the state of \(container)"
            return .init(path: file.path, line: file.line(of: closure), what: "a closure given `\(context)` \(what)", mainActorWorks: isMainActorIsolated)
        }
        let methodUse = method.map { method in
            ContextProperties.Use(
                path: file.path, line: file.line(of: method.expression),
                what: "`\(method.expression.trimmedDescription)`, given `\(context)`, \(method.description)",
                mainActorWorks: method.domain == .mainActor, isMethod: true, isActorMethod: Self.isActorDomain(method.domain)
            )
        }
        if isValue, let property {
            propertyUses[property.key, default: []] += closureUses + [methodUse].compactMap { $0 }
            return
        }
        let reason = kind == .mainActor
            ? ContextProperties.mainOffActorReason
            : isValue ? ContextProperties.valueReason
            : "the closure is nonisolated and runs on that context, as in 1.x: touching the actor's state there was a data race, "
                + "and the compiler now rejects it"
        notes += closureUses.map { ContextProperties.note($0, reason: reason) }
        if let methodUse {
            notes.append(ContextProperties.note(methodUse, reason: ContextProperties.methodReason(kind: kind, actor: methodUse.isActorMethod)))
        }
    }

    /// In a stored property's initializer (a `lazy var`'s too), a closure that keeps the
    /// caller's actor does not get the type's actor in Swift 6 mode: there it is nonisolated,
    /// and using the actor's state from it does not compile. A main-actor (global-actor) type's
    /// closure gets the attribute; an actor's is listed.
    private func storedClosures(of call: FunctionCallExprSyntax, context: String) {
        guard let property = member?.initializedProperty, let domain, !isInCallbackClosure(call) else { return }
        for closure in Self.closures(of: call) where usesActorState(closure) && !hasActorAttribute(closure) {
            let attribute: String
            switch domain {
            case .mainActor: attribute = "@MainActor"
            case .globalActor(let name): attribute = "@" + name
            case .actor:
                let container = types.last.map { "`\($0.name)`" } ?? "this actor"
                notes.append(MigrationNote(
                    path: file.path, line: file.line(of: closure),
                    message: "a closure given `\(context)` in the initializer of `\(property)` uses `self` of \(container), which is an "
                        + "actor; in Swift 6 mode a closure in a stored property's initializer does not take on the actor, so using its "
                        + "state there does not compile. Left as it is: make the property's value a method's "
                        + "(`lazy var \(property) = make()`), whose closures keep the actor"
                ))
                continue
            }
            if let signature = closure.signature {
                edits.append(.insert(attribute + " ", at: signature.positionAfterSkippingLeadingTrivia))
            } else {
                edits.append(.insert(" \(attribute) in", at: closure.leftBrace.endPositionBeforeTrailingTrivia))
            }
        }
    }

    /// Whether `call` is inside a closure given to another call (whose isolation it takes)
    /// rather than directly in the initializer (or in a closure called at once, `{ … }()`).
    private func isInCallbackClosure(_ call: FunctionCallExprSyntax) -> Bool {
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
    private static func isNoContextCallback(_ call: FunctionCallExprSyntax, name: String) -> Bool {
        if resolverAPIs.contains(name) {
            return closures(of: call).contains { closure in
                closure.signature?.parameterClause != nil
                    || closure.statements.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .dollarIdentifier("$0") }
            }
        }
        return PromiseOperators.always.contains(name) && CallbackOperators.names.contains(name)
    }

    /// Whether the closure is marked with a global actor (`{ @MainActor in … }`).
    private func hasActorAttribute(_ closure: ClosureExprSyntax) -> Bool {
        closure.signature?.attributes.contains { attribute in
            guard let name = attribute.as(AttributeSyntax.self)?.attributeName.trimmedDescription else { return false }
            return name == "MainActor" || isolation.globalActors.contains(name)
        } ?? false
    }

    /// Whether `closure` uses the state of the enclosing actor-isolated type: `self`, or an
    /// isolated static member (`Self.count`, `Screen.count`, `count` in a static member).
    private func usesActorState(_ closure: ClosureExprSyntax) -> Bool {
        if isMainActorIsolated {
            // `DispatchQueue.main.async { self.phase = … }` inside it: back on the main actor.
            let selves = closure.statements.tokens(viewMode: .sourceAccurate).filter { $0.tokenKind == .keyword(.self) }
            if selves.contains(where: { !Self.isOnMainActor($0, inside: closure) }) { return true }
        } else if Self.usesSelf(closure) {
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

    /// A method passed by name as the callback, with the actor it is isolated to.
    private struct IsolatedReference {
        let expression: ExprSyntax
        let domain: IsolationIndex.Domain
        /// "is a method of `Screen`, which is isolated to an actor", "is a `@MainActor` method of `Format`".
        let description: String
    }

    /// The callback of `call` when it is a method (or a top-level function) that is isolated
    /// to an actor: `show`, `self.show`, `Self.describe`, `Formatter.describe` of a type of the
    /// set, `@MainActor` or a method of an actor-isolated type, and not `nonisolated`.
    private func isolatedReference(in call: FunctionCallExprSyntax) -> IsolatedReference? {
        guard call.trailingClosure == nil, let last = call.arguments.last, last.label == nil else { return nil }
        let expression = last.expression
        var owner: String?
        var candidates: [IsolationIndex.Member] = []
        if let reference = expression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            guard !Scopes.isShadowed(name, at: Syntax(call)) else { return nil }
            for type in types.reversed() {
                let found = isolation.members(named: name, in: type.name).filter { $0.isFunction && $0.isStatic == isStatic }
                if !found.isEmpty {
                    (owner, candidates) = (type.name, found)
                    break
                }
            }
            if owner == nil { candidates = (isolation.globals[name] ?? []).filter(\.isFunction) }
        } else if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base?.trimmedDescription {
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
            candidates = isolation.members(named: member.declName.baseName.text, in: owner).filter { $0.isFunction && $0.isStatic == wantsStatic }
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

    private static func name(of domain: IsolationIndex.Domain) -> String {
        switch domain {
        case .mainActor: return "MainActor"
        case .actor(let name), .globalActor(let name): return name
        }
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

    /// The kind of a parameter of the enclosing function declared `PromiseContext.CallerIsolated`
    /// or `PromiseContext.Main`.
    private func kindOfParameter(_ expression: ExprSyntax) -> ContextKind? {
        guard let name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text,
              let function = scopes.last(where: { $0.function != nil })?.function else { return nil }
        for parameter in function.signature.parameterClause.parameters where (parameter.secondName ?? parameter.firstName).text == name {
            let type = parameter.type.trimmedDescription
            if type.hasSuffix("CallerIsolated") { return .callerIsolated }
            if type.hasSuffix("Context.Main") { return .mainActor }
        }
        return nil
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
