// Which actor a declaration of the source set is isolated to, read from its attributes and
// those of its type: what `adopt` needs to tell a closure or a method passed by name that
// runs off its actor.

import SwiftSyntax

/// Reading actor isolation from attributes.
enum Isolation {
    static func hasMainActor(_ attributes: AttributeListSyntax) -> Bool {
        attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" }
    }

    /// true for `@MainActor`, false for `nonisolated`, nil when the declaration says neither.
    static func of(attributes: AttributeListSyntax, modifiers: DeclModifierListSyntax) -> Bool? {
        if hasMainActor(attributes) { return true }
        if modifiers.contains(where: { $0.name.text == "nonisolated" }) { return false }
        return nil
    }
}

/// The actors of a source set and the members isolated to one.
struct IsolationIndex {
    /// Where isolated code runs.
    enum Domain: Equatable {
        case mainActor
        /// The instance members of an actor (its name).
        case actor(String)
        /// Another global actor (its name).
        case globalActor(String)
    }

    /// What a declaration says of its isolation.
    enum Explicit: Equatable {
        case isolated(Domain)
        case nonisolated

        var domain: Domain? {
            if case .isolated(let domain) = self { return domain }
            return nil
        }
    }

    /// A method or property of a type (or a top-level one).
    struct Member {
        let name: String
        let isStatic: Bool
        let isFunction: Bool
        /// Nil: nonisolated.
        let domain: Domain?
    }

    /// Type name → the actor its members are isolated to (an actor's: its instance members).
    private(set) var types: [String: Domain] = [:]
    /// Type name → member name → declarations (overloads), from the type and its extensions.
    private(set) var members: [String: [String: [Member]]] = [:]
    /// Top-level functions and variables by name.
    private(set) var globals: [String: [Member]] = [:]
    /// The global actors the set declares (`@globalActor actor PlaybackActor`).
    private(set) var globalActors: Set<String> = []

    init(_ set: SourceSet) {
        let collector = IsolationCollector(viewMode: .sourceAccurate)
        for file in set.files { collector.walk(file.tree) }
        globalActors = collector.globalActors
        isolateTypes(collector)
        for entry in collector.raw { record(entry) }
    }

    /// Types: @MainActor or another global actor written on them, actors, and the
    /// subclasses of an isolated class.
    private mutating func isolateTypes(_ collector: IsolationCollector) {
        for (type, attributes) in collector.typeAttributes {
            if collector.actors.contains(type) {
                types[type] = .actor(type)
            } else if let explicit = explicitIsolation(attributes: attributes, modifiers: DeclModifierListSyntax([])), let domain = explicit.domain {
                types[type] = domain
            }
        }
        var changed = true
        while changed {
            changed = false
            for (type, superclass) in collector.superclasses where types[type] == nil {
                if let domain = types[superclass] {
                    types[type] = domain
                    changed = true
                }
            }
        }
    }

    /// A member with the isolation its declaration, its extension or its type gives it.
    private mutating func record(_ entry: IsolationCollector.RawMember) {
        var domain: Domain?
        if let explicit = explicitIsolation(attributes: entry.attributes, modifiers: entry.modifiers) {
            domain = explicit.domain
        } else if let scope = entry.scope, let explicit = explicitIsolation(attributes: scope.0, modifiers: scope.1) {
            domain = explicit.domain
        } else if let type = entry.type, let typeDomain = types[type] {
            // An actor's static members are not isolated to it; a global actor's are.
            if case .actor = typeDomain { domain = entry.isStatic ? nil : typeDomain } else { domain = typeDomain }
        }
        let member = Member(name: entry.name, isStatic: entry.isStatic, isFunction: entry.isFunction, domain: domain)
        if let type = entry.type {
            members[type, default: [:]][entry.name, default: []].append(member)
        } else {
            globals[entry.name, default: []].append(member)
        }
    }

    /// `@MainActor`, another global actor of the set, or `nonisolated`, as written.
    func explicitIsolation(attributes: AttributeListSyntax, modifiers: DeclModifierListSyntax) -> Explicit? {
        for attribute in attributes {
            guard let name = attribute.as(AttributeSyntax.self)?.attributeName.trimmedDescription else { continue }
            if name == "MainActor" { return .isolated(.mainActor) }
            if globalActors.contains(name) { return .isolated(.globalActor(name)) }
        }
        if modifiers.contains(where: { $0.name.text == "nonisolated" }) { return .nonisolated }
        return nil
    }

    /// Whether the set declares a type of this name (or extends one).
    func isKnownType(_ name: String) -> Bool {
        types[name] != nil || members[name] != nil
    }

    /// The members named `name` of `type` (its declaration and extensions).
    func members(named name: String, in type: String) -> [Member] {
        members[type]?[name] ?? []
    }

    /// The actor `type`'s members are isolated to (an actor: its instance members).
    func domain(ofType type: String) -> Domain? {
        types[type]
    }
}

/// Collects the types, actors and members of a source set with the attributes that say their
/// isolation.
private final class IsolationCollector: TypeTrackingVisitor {
    var globalActors: Set<String> = []
    var typeAttributes: [String: AttributeListSyntax] = [:]
    var actors: Set<String> = []
    var superclasses: [String: String] = [:]
    /// A member as written: its type, its extension's attributes and modifiers, and its own.
    typealias RawMember = (type: String?, scope: (AttributeListSyntax, DeclModifierListSyntax)?, name: String, isStatic: Bool,
                           isFunction: Bool, attributes: AttributeListSyntax, modifiers: DeclModifierListSyntax)
    /// The members and top-level declarations, in order.
    var raw: [RawMember] = []
    /// The enclosing extensions' attributes and modifiers (nil for a type declaration).
    var scopes: [(AttributeListSyntax, DeclModifierListSyntax)?] = []

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        let result = super.visitAny(node)
        if let decl = node.as(ActorDeclSyntax.self) {
            actors.insert(decl.name.text)
            typeAttributes[decl.name.text] = decl.attributes
            if decl.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "globalActor" }) {
                globalActors.insert(decl.name.text)
            }
        } else if let decl = node.as(ClassDeclSyntax.self) {
            typeAttributes[decl.name.text] = decl.attributes
            if let first = decl.inheritanceClause?.inheritedTypes.first { superclasses[decl.name.text] = first.type.trimmedDescription }
        } else if let decl = node.as(StructDeclSyntax.self) {
            typeAttributes[decl.name.text] = decl.attributes
            if decl.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "globalActor" }) {
                globalActors.insert(decl.name.text)
            }
        } else if let decl = node.as(EnumDeclSyntax.self) {
            typeAttributes[decl.name.text] = decl.attributes
        }
        if TypeScope(node) != nil {
            scopes.append(node.as(ExtensionDeclSyntax.self).map { ($0.attributes, $0.modifiers) })
        }
        if let function = node.as(FunctionDeclSyntax.self) {
            record(Syntax(function), name: function.name.text, isFunction: true, function.attributes, function.modifiers)
        } else if let variable = node.as(VariableDeclSyntax.self) {
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                record(Syntax(variable), name: name, isFunction: false, variable.attributes, variable.modifiers)
            }
        }
        return result
    }

    override func visitAnyPost(_ node: Syntax) {
        if TypeScope(node) != nil { scopes.removeLast() }
        super.visitAnyPost(node)
    }

    /// A member of the innermost type, or a top-level declaration; not a local one.
    private func record(_ decl: Syntax, name: String, isFunction: Bool, _ attributes: AttributeListSyntax, _ modifiers: DeclModifierListSyntax) {
        let isMember = decl.parent?.is(MemberBlockItemSyntax.self) == true
        let isTopLevel = decl.parent?.is(CodeBlockItemSyntax.self) == true && decl.parent?.parent?.parent?.is(SourceFileSyntax.self) == true
        guard isMember || isTopLevel else { return }
        let isStatic = modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
        raw.append((isMember ? types.last?.name : nil, isMember ? scopes.last ?? nil : nil, name, isStatic, isFunction, attributes, modifiers))
    }
}
