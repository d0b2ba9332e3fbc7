// The stored `PromiseContext` properties of a source set (`ContextPropertyAction` retypes
// them), with what tells whether one can be retyped and which property a reference names.

import SwiftSyntax

extension ContextProperties {
    /// The declarations of a set, and what the retyping needs to know of the rest of it.
    struct Index {
        private(set) var declarations: [Key: Declaration] = [:]
        /// How many types (and the top level) of each module declare a member of each name: a
        /// reference `x.name` names the one property only when the name is unique there.
        private(set) var declarationCounts: [String: [String: Int]] = [:]
        /// The names of the properties each type of each module declares (whatever their type).
        private(set) var typeMembers: [String: [String: Set<String>]] = [:]

        init(_ set: SourceSet, contexts: CustomContexts) {
            var fixedNames: Set<String> = []
            var explicitInits: Set<String> = []
            var found: [Declaration] = []
            for file in set.files {
                let collector = PropertyCollector(contexts: contexts, path: file.path, module: file.module)
                collector.walk(file.tree)
                found += collector.found
                fixedNames.formUnion(collector.fixedNames)
                explicitInits.formUnion(collector.explicitInits.map { file.module + "\u{0}" + $0 })
                for name in collector.names { declarationCounts[file.module, default: [:]][name, default: 0] += 1 }
                typeMembers[file.module, default: [:]].merge(collector.typeMembers) { $0.union($1) }
            }
            for declaration in found {
                declarations[declaration.key] = settled(declaration, fixedNames: fixedNames, explicitInits: explicitInits)
            }
        }

        /// `declaration` with why it cannot be retyped, now that every file is read: a
        /// memberwise initializer takes it, a requirement or override has its name, or it is
        /// declared twice.
        private func settled(_ declaration: Declaration, fixedNames: Set<String>, explicitInits: Set<String>) -> Declaration {
            var fixed = declaration.fixedBecause
            if let reason = fixed, reason.hasPrefix("memberwise:") {
                fixed = explicitInits.contains(declaration.key.module + "\u{0}" + reason.dropFirst("memberwise:".count))
                    ? nil : "the struct's memberwise initializer takes it, with any context"
            }
            if fixed == nil, fixedNames.contains(declaration.key.name) {
                fixed = "a protocol requirement or an override has its name"
            }
            // The same property declared twice in one module (`#if` branches): neither is retyped.
            if declarations[declaration.key] != nil { fixed = "it is declared more than once" }
            return Declaration(
                key: declaration.key, path: declaration.path, variable: declaration.variable, binding: declaration.binding,
                declaredKind: declaration.declaredKind, fixedBecause: fixed
            )
        }

        /// The property `expression` names at `node` in a file of `module` (`delivery`,
        /// `self.delivery`, `Self.delivery`, `Screen.delivery`), with `types` the enclosing
        /// types, innermost last, and `isStatic` whether the code is in a static member: one of
        /// that module's (another module's are not retyped: only public ones are visible there,
        /// and those are listed).
        func property(_ expression: ExprSyntax, at node: Syntax, module: String, types: [String], isStatic: Bool) -> Declaration? {
            func key(_ type: String?, _ name: String, _ isStatic: Bool) -> Key { Key(module: module, type: type, name: name, isStatic: isStatic) }
            if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil {
                let name = reference.baseName.text
                guard !Scopes.isShadowed(name, at: node) else { return nil }
                for type in types.reversed() {
                    if let found = declarations[key(type, name, isStatic)] { return found }
                    if typeMembers[module]?[type]?.contains(name) == true { return nil } // another property of that name
                }
                return declarations[key(nil, name, false)]
            }
            guard let member = expression.as(MemberAccessExprSyntax.self), let base = member.base?.trimmedDescription,
                  member.declName.argumentNames == nil else { return nil }
            let name = member.declName.baseName.text
            if base == "self" { return types.last.flatMap { declarations[key($0, name, isStatic)] } }
            if base == "Self" { return types.last.flatMap { declarations[key($0, name, true)] } }
            if let found = declarations[key(base, name, true)] { return found }
            // `screen.delivery`, where `screen` is declared with its type (or `= Screen(…)`).
            if let baseExpression = member.base, let type = UnappliedReferences.declaredTypeSyntax(of: baseExpression, at: node),
               let typeName = type.as(IdentifierTypeSyntax.self)?.name.text {
                return declarations[key(typeName, name, false)]
            }
            return nil
        }
    }
}

/// Collects one file's stored properties of a context type, and the names that tell whether
/// they can be retyped.
private final class PropertyCollector: TypeTrackingVisitor {
    let contexts: CustomContexts
    let path: String
    let module: String
    var found: [ContextProperties.Declaration] = []
    var names: [String] = []
    var typeMembers: [String: Set<String>] = [:]
    /// Requirements and overrides: a property of that name is not only this one.
    var fixedNames: Set<String> = []
    /// Structs with an `init` of their own (no memberwise one).
    var explicitInits: Set<String> = []
    /// Enclosing public extensions.
    var publicExtensions: [Bool] = []

    init(contexts: CustomContexts, path: String, module: String) {
        self.contexts = contexts
        self.path = path
        self.module = module
        super.init(viewMode: .sourceAccurate)
    }

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        let result = super.visitAny(node)
        if let type = TypeScope(node) { enterType(type, node) }
        if node.is(InitializerDeclSyntax.self), node.parent?.is(MemberBlockItemSyntax.self) == true, let type = types.last,
           type.kind == .struct {
            explicitInits.insert(type.name)
        }
        if let variable = node.as(VariableDeclSyntax.self) { record(variable) }
        return result
    }

    override func visitAnyPost(_ node: Syntax) {
        if TypeScope(node) != nil { publicExtensions.removeLast() }
        super.visitAnyPost(node)
    }

    /// A type or extension: whether it is a public extension, and a protocol's property
    /// requirements.
    private func enterType(_ type: TypeScope, _ node: Syntax) {
        let extensionDecl = node.as(ExtensionDeclSyntax.self)
        publicExtensions.append(extensionDecl?.modifiers.contains { ["public", "open"].contains($0.name.text) } ?? false)
        guard type.isProtocol else { return }
        for item in node.as(ProtocolDeclSyntax.self)?.memberBlock.members ?? [] {
            for binding in item.decl.as(VariableDeclSyntax.self)?.bindings ?? [] {
                if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { fixedNames.insert(name) }
            }
        }
    }

    /// A member or top-level variable: its names, and a declaration for each stored binding of
    /// a context type.
    private func record(_ variable: VariableDeclSyntax) {
        let node = Syntax(variable)
        let isMember = node.parent?.is(MemberBlockItemSyntax.self) == true
        let isTopLevel = node.parent?.is(CodeBlockItemSyntax.self) == true && node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true
        guard isMember || isTopLevel else { return }
        // The app's own contexts (`extension PromiseContext { static let ui = … }`)
        // get twins instead (`ContextTwins`), and stay values.
        if isMember, let type = types.last?.name,
           contexts.aliases.contains(where: { $0 != "Self" && (type == $0 || type.hasPrefix($0 + ".")) }) {
            return
        }
        let modifiers = variable.modifiers.map(\.name.text)
        if modifiers.contains("override") {
            for binding in variable.bindings {
                if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { fixedNames.insert(name) }
            }
        }
        for binding in variable.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            names.append(name)
            if isMember, let type = types.last { typeMembers[type.name, default: []].insert(name) }
            guard let kind = declaredKind(binding), isStored(binding) else { continue }
            let type = isMember ? types.last : nil
            let isStatic = modifiers.contains("static") || modifiers.contains("class")
            let fixed = fixedReason(variable, binding, type: type, isMember: isMember, isStatic: isStatic)
            found.append(ContextProperties.Declaration(
                key: .init(module: module, type: type?.name, name: name, isStatic: isStatic), path: path, variable: variable,
                binding: binding, declaredKind: kind, fixedBecause: fixed
            ))
        }
    }

    /// Why the property cannot be retyped whatever its values, as far as its declaration says
    /// (`memberwise:<type>` until every initializer is known).
    private func fixedReason(
        _ variable: VariableDeclSyntax, _ binding: PatternBindingSyntax, type: TypeScope?, isMember: Bool, isStatic: Bool
    ) -> String? {
        let modifiers = variable.modifiers.map(\.name.text)
        if modifiers.contains("public") || modifiers.contains("open") || (isMember && publicExtensions.last == true) {
            return "it is public API: another module may use it as a `PromiseContext`"
        } else if variable.bindings.count > 1 {
            return "it is declared together with other variables"
        } else if let type, type.kind == .struct, !isStatic, variable.bindingSpecifier.text == "var" || binding.initializer == nil {
            // Decided once every initializer is known (`explicitInits`).
            return "memberwise:\(type.name)"
        }
        return nil
    }

    /// `.named` for `PromiseContext` (written, or `PromiseContext.x` without a type),
    /// the kind for `PromiseContext.Main` or `PromiseContext.CallerIsolated`.
    private func declaredKind(_ binding: PatternBindingSyntax) -> ContextKind? {
        if let type = binding.typeAnnotation?.type.trimmedDescription {
            if contexts.aliases.contains(type) { return .named }
            for alias in contexts.aliases where alias != "Self" {
                if type == alias + ".Main" { return .mainActor }
                if type == alias + ".CallerIsolated" { return .callerIsolated }
            }
            return nil
        }
        guard let value = binding.initializer?.value, contexts.isContextExpression(value) else { return nil }
        return .named
    }

    /// No accessors, or only observers.
    private func isStored(_ binding: PatternBindingSyntax) -> Bool {
        guard let accessors = binding.accessorBlock else { return true }
        guard case .accessors(let list) = accessors.accessors else { return false }
        return list.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
    }
}
