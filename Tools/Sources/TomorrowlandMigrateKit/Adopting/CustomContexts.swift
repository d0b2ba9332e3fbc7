// The contexts a codebase declares itself (`extension PromiseContext { static let db = … }`),
// and which kind of context argument each one is: what `adopt` twins and how it reads `.db`.

import SwiftSyntax

/// The kinds of context argument a callback API tells apart (the library's
/// `PromiseContext.Named`, `PromiseContext.Main` and `PromiseContext.CallerIsolated`).
enum ContextKind: Equatable {
    /// Names a queue, a QoS or an operation queue: the closure is nonisolated and runs there.
    case named
    /// `.main`, `.nowOr(.main)`: the closure is isolated to the main actor and runs there.
    case mainActor
    /// `.auto`, `.immediate`, `.nowOr` of one: the closure keeps the caller's actor.
    case callerIsolated

    /// The library's type for this kind, as written in an extension.
    var typeName: String {
        switch self {
        case .named: return "PromiseContext.Named"
        case .mainActor: return "PromiseContext.Main"
        case .callerIsolated: return "PromiseContext.CallerIsolated"
        }
    }

    /// The kind of a context spelled `spelling` (`.main`, `.nowOr(.auto)`) by the isolated
    /// spelling rules: `.main` anywhere in it makes it the main actor's.
    static func ofIsolated(spelling: String) -> ContextKind {
        spelling.contains(".main") ? .mainActor : .callerIsolated
    }

    /// Whether a closure given this kind of context has an actor (it is not nonisolated).
    var isIsolated: Bool { self != .named }

    /// The built-in members of `PromiseContext` and their kind.
    static let builtIn: [String: ContextKind] = [
        "main": .mainActor, "auto": .callerIsolated, "immediate": .callerIsolated,
        "background": .named, "utility": .named, "default": .named, "userInitiated": .named,
        "userInteractive": .named, "queue": .named, "operationQueue": .named, "init": .named,
    ]
}

/// A static member of an `extension PromiseContext` that is a context.
struct CustomContext {
    /// The member's name (`db`).
    let name: String
    /// The kind its twin gets: `.mainActor` when its value is written as `.main` or
    /// `.nowOr(.main)`, `.callerIsolated` when `.auto`, `.immediate` or `.nowOr` of one, in a
    /// `let` or a computed property; `.named` otherwise.
    let kind: ContextKind
    /// Its value as written for an isolated twin (`.main`, `.nowOr(.main)`, `.auto`).
    let callerIsolatedValue: String?
    /// The declaration (a `VariableDeclSyntax` or `FunctionDeclSyntax`).
    let decl: DeclSyntax
    /// For a function: the parameter clause, effects and generics to repeat.
    let function: FunctionDeclSyntax?
}

/// The custom contexts of a source set and the twins that already exist.
struct CustomContexts {
    /// Every custom context by name, whichever file declares it.
    private(set) var byName: [String: CustomContext] = [:]
    /// Names already declared on `PromiseContext.Named`, `PromiseContext.Main` or
    /// `PromiseContext.CallerIsolated`.
    private(set) var twinned: [String: ContextKind] = [:]
    /// Other names of `PromiseContext` (`typealias Context = PromiseContext`).
    private(set) var aliases: Set<String> = ["PromiseContext", "Tomorrowland.PromiseContext", "Self"]

    init(_ set: SourceSet) {
        for file in set.files {
            for statement in file.tree.statements {
                guard let alias = statement.item.as(TypeAliasDeclSyntax.self) else { continue }
                let aliased = alias.initializer.value.trimmedDescription
                if aliases.contains(aliased) { aliases.insert(alias.name.text) }
            }
        }
        for file in set.files {
            for extensionDecl in Self.extensions(in: Syntax(file.tree)) {
                let extended = extensionDecl.extendedType.trimmedDescription
                if let kind = twinKind(of: extended) {
                    for name in Self.memberNames(extensionDecl.memberBlock.members) { twinned[name] = kind }
                } else if aliases.contains(extended) {
                    for context in contexts(in: extensionDecl.memberBlock.members) { byName[context.name] = context }
                }
            }
        }
    }

    /// `extension` declarations at file level, also inside `#if` blocks.
    static func extensions(in node: Syntax) -> [ExtensionDeclSyntax] {
        var found: [ExtensionDeclSyntax] = []
        for child in node.children(viewMode: .sourceAccurate) {
            if let decl = child.as(ExtensionDeclSyntax.self) {
                found.append(decl)
            } else if child.is(CodeBlockItemListSyntax.self) || child.is(CodeBlockItemSyntax.self) || child.is(IfConfigDeclSyntax.self)
                || child.is(IfConfigClauseListSyntax.self) || child.is(IfConfigClauseSyntax.self) {
                found += extensions(in: child)
            }
        }
        return found
    }

    /// The kind an extension of `extended` declares twins of, if it extends `Named`, `Main` or
    /// `CallerIsolated`.
    private func twinKind(of extended: String) -> ContextKind? {
        for base in aliases where base != "Self" {
            if extended == base + ".Named" { return .named }
            if extended == base + ".Main" { return .mainActor }
            if extended == base + ".CallerIsolated" { return .callerIsolated }
        }
        return nil
    }

    /// The names of the static members in `members`, also inside `#if` blocks.
    private static func memberNames(_ members: MemberBlockItemListSyntax) -> [String] {
        members.flatMap { item -> [String] in
            if let variable = item.decl.as(VariableDeclSyntax.self) {
                return variable.bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
            }
            if let function = item.decl.as(FunctionDeclSyntax.self) { return [function.name.text] }
            if let ifConfig = item.decl.as(IfConfigDeclSyntax.self) {
                return ifConfig.clauses.flatMap { clause in
                    clause.elements?.as(MemberBlockItemListSyntax.self).map(memberNames) ?? []
                }
            }
            return []
        }
    }

    /// The static context members of an `extension PromiseContext`.
    private func contexts(in members: MemberBlockItemListSyntax) -> [CustomContext] {
        members.flatMap { item -> [CustomContext] in
            if let ifConfig = item.decl.as(IfConfigDeclSyntax.self) {
                return ifConfig.clauses.flatMap { clause in
                    clause.elements?.as(MemberBlockItemListSyntax.self).map(contexts) ?? []
                }
            }
            return context(declaredBy: item.decl)
        }
    }

    /// The contexts `decl` declares: a static property or function of type `PromiseContext`.
    func context(declaredBy decl: DeclSyntax) -> [CustomContext] {
        if let variable = decl.as(VariableDeclSyntax.self), variable.modifiers.contains(where: { $0.name.text == "static" }) {
            let isLet = variable.bindingSpecifier.text == "let"
            return variable.bindings.compactMap { binding in
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
                let value: ExprSyntax?
                if let initializer = binding.initializer {
                    value = initializer.value
                } else if let accessors = binding.accessorBlock {
                    value = Self.returnedExpression(of: accessors)
                } else {
                    value = nil
                }
                let typed = binding.typeAnnotation.map { aliases.contains($0.type.trimmedDescription) }
                    ?? value.map(isContextExpression) ?? false
                guard typed else { return nil }
                // A stored `var` can be given another context later: only its name is known.
                let fixed = isLet || binding.accessorBlock != nil
                let callerValue = fixed ? value.flatMap(callerIsolatedSpelling) : nil
                return CustomContext(
                    name: name, kind: callerValue.map(ContextKind.ofIsolated(spelling:)) ?? .named, callerIsolatedValue: callerValue,
                    decl: decl, function: nil
                )
            }
        }
        if let function = decl.as(FunctionDeclSyntax.self), function.modifiers.contains(where: { $0.name.text == "static" }),
           let result = function.signature.returnClause?.type.trimmedDescription, aliases.contains(result),
           !function.signature.parameterClause.parameters.contains(where: { $0.type.trimmedDescription.hasPrefix("inout ") }) {
            return [CustomContext(name: function.name.text, kind: .named, callerIsolatedValue: nil, decl: decl, function: function)]
        }
        return []
    }

    /// The expression a computed property's getter returns, when it is a single one.
    private static func returnedExpression(of accessors: AccessorBlockSyntax) -> ExprSyntax? {
        // `if case`, not a `switch`: the toolchain's swift-syntax (Package.swift) is built with
        // library evolution, so a switch over its enums would need an `@unknown default`.
        let body: CodeBlockItemListSyntax
        if case .getter(let items) = accessors.accessors {
            body = items
        } else if case .accessors(let list) = accessors.accessors, list.count == 1, let getter = list.first,
                  getter.accessorSpecifier.text == "get", let items = getter.body?.statements {
            body = items
        } else {
            return nil
        }
        guard body.count == 1, let item = body.first?.item else { return nil }
        if let statement = item.as(ReturnStmtSyntax.self) { return statement.expression }
        return item.as(ExprSyntax.self)
    }

    /// Whether `expression` is syntactically a `PromiseContext`: `PromiseContext.x`,
    /// `PromiseContext.x(…)`, `PromiseContext(qos:)`, `Self.x`.
    func isContextExpression(_ expression: ExprSyntax) -> Bool {
        var expression = expression
        if let call = expression.as(FunctionCallExprSyntax.self) { expression = call.calledExpression }
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return aliases.contains(reference.baseName.text) }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            return aliases.contains(base.trimmedDescription)
        }
        return false
    }

    /// `.main`, `.auto`, `.immediate` or `.nowOr(…)` of one (with or without `PromiseContext`
    /// in front), spelled as an implicit member; nil for anything else.
    private func callerIsolatedSpelling(_ expression: ExprSyntax) -> String? {
        if let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
           member.declName.baseName.text == "nowOr", member.base.map({ aliases.contains($0.trimmedDescription) }) ?? true,
           call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil,
           let inner = callerIsolatedSpelling(argument.expression) {
            return ".nowOr(\(inner))"
        }
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.argumentNames == nil,
              member.base.map({ aliases.contains($0.trimmedDescription) }) ?? true,
              ContextKind.builtIn[member.declName.baseName.text]?.isIsolated == true else { return nil }
        return "." + member.declName.baseName.text
    }

    /// The `PromiseContext` of `PromiseContext.main`, `PromiseContext.auto`,
    /// `PromiseContext.nowOr(.main)` or `PromiseContext.ui` (a custom context whose value is one
    /// of them): written without it, the context keeps the caller's actor and runs where it did
    /// in 1.x (on the main queue). Nil for anything else, `.immediate` included (given to
    /// actor-isolated code it delivers onto the actor instead of running in place).
    func mainQueueBase(of expression: ExprSyntax) -> ExprSyntax? {
        let member = (expression.as(FunctionCallExprSyntax.self)?.calledExpression ?? expression).as(MemberAccessExprSyntax.self)
        guard let member, let base = member.base, aliases.contains(base.trimmedDescription), base.trimmedDescription != "Self" else {
            return nil
        }
        let name = member.declName.baseName.text
        let spelling: String?
        if let call = expression.as(FunctionCallExprSyntax.self) {
            spelling = name == "nowOr" && call.arguments.count == 1 ? callerIsolatedSpelling(expression) : nil
        } else {
            spelling = ContextKind.builtIn[name]?.isIsolated == true ? "." + name : byName[name]?.callerIsolatedValue
        }
        guard let spelling, !spelling.contains("immediate") else { return nil }
        return base
    }

    /// The kind of the context argument `expression` if it is an implicit member the library
    /// or a custom context (with its twin) gives a kind: `.utility`, `.queue(q)`, `.db`,
    /// `.nowOr(.main)`. Nil for values and for members it does not know.
    func kind(ofImplicitMember expression: ExprSyntax) -> ContextKind? {
        var expression = expression
        var argument: ExprSyntax?
        if let call = expression.as(FunctionCallExprSyntax.self) {
            expression = call.calledExpression
            argument = call.arguments.count == 1 ? call.arguments.first?.expression : nil
        }
        guard let member = expression.as(MemberAccessExprSyntax.self), member.base == nil else { return nil }
        let name = member.declName.baseName.text.replacingOccurrences(of: "`", with: "")
        if name == "nowOr" { return argument.flatMap(kind(ofImplicitMember:)) }
        if let twin = twinned[name] { return twin }
        if let custom = byName[name] { return custom.kind }
        return ContextKind.builtIn[name]
    }
}
