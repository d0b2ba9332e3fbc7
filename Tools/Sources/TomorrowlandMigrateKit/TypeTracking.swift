// The enclosing types while walking a file.

import SwiftSyntax

/// A type declaration or extension as the visitors need it.
struct TypeScope {
    // `isActor` is set after the shared initializer.
    let name: String
    let isProtocol: Bool
    let isExtension: Bool
    private(set) var isActor: Bool
    let inheritance: InheritanceClauseSyntax?
    let genericParameters: GenericParameterClauseSyntax?

    init?(_ node: Syntax) {
        if let decl = node.as(ClassDeclSyntax.self) {
            self.init(decl.name.text, false, false, decl.inheritanceClause, decl.genericParameterClause)
        } else if let decl = node.as(StructDeclSyntax.self) {
            self.init(decl.name.text, false, false, decl.inheritanceClause, decl.genericParameterClause)
        } else if let decl = node.as(EnumDeclSyntax.self) {
            self.init(decl.name.text, false, false, decl.inheritanceClause, decl.genericParameterClause)
        } else if let decl = node.as(ActorDeclSyntax.self) {
            self.init(decl.name.text, false, false, decl.inheritanceClause, decl.genericParameterClause)
            self.isActor = true
        } else if let decl = node.as(ProtocolDeclSyntax.self) {
            self.init(decl.name.text, true, false, decl.inheritanceClause, nil)
        } else if let decl = node.as(ExtensionDeclSyntax.self) {
            self.init(decl.extendedType.trimmedDescription, false, true, decl.inheritanceClause, nil)
        } else {
            return nil
        }
    }

    private init(_ name: String, _ isProtocol: Bool, _ isExtension: Bool, _ inheritance: InheritanceClauseSyntax?, _ generics: GenericParameterClauseSyntax?) {
        self.name = name
        self.isProtocol = isProtocol
        self.isExtension = isExtension
        self.isActor = false
        self.inheritance = inheritance
        self.genericParameters = generics
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
