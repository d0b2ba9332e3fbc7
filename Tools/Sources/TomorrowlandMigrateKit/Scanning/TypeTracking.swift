// The enclosing types while walking a file.

import SwiftSyntax

/// A type declaration or extension as the visitors need it.
struct TypeScope {
    /// The kind of declaration.
    enum Kind { case `class`, `struct`, `enum`, actor, `protocol`, `extension` }

    // `kind`, `whereClause` and `attributes` are set after the shared initializer.
    let name: String
    private(set) var kind: Kind
    let inheritance: InheritanceClauseSyntax?
    let genericParameters: GenericParameterClauseSyntax?
    /// The `where` clause of a constrained extension (or generic type).
    private(set) var whereClause: GenericWhereClauseSyntax?
    /// The attributes written on the declaration (`@MainActor`, …); none for extensions.
    private(set) var attributes: AttributeListSyntax?

    init?(_ node: Syntax) {
        if let decl = node.as(ClassDeclSyntax.self) {
            self.init(decl.name.text, decl.inheritanceClause, decl.genericParameterClause)
            (kind, whereClause, attributes) = (.class, decl.genericWhereClause, decl.attributes)
        } else if let decl = node.as(StructDeclSyntax.self) {
            self.init(decl.name.text, decl.inheritanceClause, decl.genericParameterClause)
            (kind, whereClause, attributes) = (.struct, decl.genericWhereClause, decl.attributes)
        } else if let decl = node.as(EnumDeclSyntax.self) {
            self.init(decl.name.text, decl.inheritanceClause, decl.genericParameterClause)
            (kind, whereClause, attributes) = (.enum, decl.genericWhereClause, decl.attributes)
        } else if let decl = node.as(ActorDeclSyntax.self) {
            self.init(decl.name.text, decl.inheritanceClause, decl.genericParameterClause)
            (kind, whereClause, attributes) = (.actor, decl.genericWhereClause, decl.attributes)
        } else if let decl = node.as(ProtocolDeclSyntax.self) {
            self.init(decl.name.text, decl.inheritanceClause, nil)
            (kind, whereClause, attributes) = (.protocol, decl.genericWhereClause, decl.attributes)
        } else if let decl = node.as(ExtensionDeclSyntax.self) {
            self.init(decl.extendedType.trimmedDescription, decl.inheritanceClause, nil)
            (kind, whereClause) = (.extension, decl.genericWhereClause)
        } else {
            return nil
        }
    }

    private init(_ name: String, _ inheritance: InheritanceClauseSyntax?, _ generics: GenericParameterClauseSyntax?) {
        self.name = name
        self.kind = .extension
        self.inheritance = inheritance
        self.genericParameters = generics
    }

    var isProtocol: Bool { kind == .protocol }
    var isExtension: Bool { kind == .extension }
    var isActor: Bool { kind == .actor }
}

extension TypeScope {
    /// The generic parameters of the Tomorrowland type an extension extends (`Value`, `Error`
    /// in `extension Promise`): there `Error` is not `Swift.Error`, and neither name can be
    /// written at a call site.
    var libraryGenericNames: Set<String> {
        guard isExtension else { return [] }
        let base = name.hasPrefix("Tomorrowland.") ? String(name.dropFirst("Tomorrowland.".count)) : name
        return ["Promise", "TokenPromise", "PromiseResult", "DelayedPromise"].contains(base) ? ["Value", "Error"] : []
    }

    /// Whether the extension's `where` clause makes the generic `Error` a `Swift.Error`.
    var constrainsErrorToSwiftError: Bool {
        whereClause?.requirements.contains { requirement in
            let text = requirement.requirement.trimmedDescription.replacingOccurrences(of: " ", with: "")
            return ["Error:Swift.Error", "Error==Swift.Error", "Error==NoError", "Error==Tomorrowland.NoError"].contains(text)
        } == true
    }
}

/// A visitor that knows the types (and extensions) it is inside of.
class TypeTrackingVisitor: SyntaxAnyVisitor {
    private(set) var types: [TypeScope] = []

    /// Called when entering a type declaration or extension, before its members.
    func enter(_ type: TypeScope) {}

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        if let type = TypeScope(node) {
            enter(type)
            types.append(type)
        }
        return .visitChildren
    }

    override func visitAnyPost(_ node: Syntax) {
        if TypeScope(node) != nil { types.removeLast() }
    }
}
