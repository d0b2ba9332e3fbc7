// `let register = promise.then(on:token:_:)`: a callback method referenced without a call, where
// nothing says its type. Each callback API has three overloads (one per kind of context), so
// the reference is ambiguous; given the type of the `PromiseContext` one it compiles and keeps
// its 1.x meaning (a closure run on the context given, nonisolated).

import SwiftSyntax

enum UnappliedReferences {
    /// The callback methods whose unapplied reference has one type once its context is a
    /// `PromiseContext` (the generic ones, `map` and the like, needed a type from their context
    /// in 1.x too).
    static let methods: Set<String> = ["then", "catch", "always", "onCancel", "recover", "tryThen", "tryRecover"]

    /// The function type of the `PromiseContext` overload of `method` on `promise`.
    static func type(of method: String, on promise: PromiseType) -> String? {
        let base = promise.kind == .tokenPromise ? "TokenPromise" : "Promise"
        let error = promise.hasUntypedError ? "Swift.Error" : promise.error
        let same = "\(base)<\(promise.value), \(error)>"
        let closure: String
        var result = same
        switch method {
        case "then": closure = "(\(promise.value)) -> Void"
        case "catch": closure = "(\(error)) -> Void"
        case "always": closure = "(PromiseResult<\(promise.value), \(error)>) -> Void"
        case "onCancel": closure = "() -> Void"
        case "recover": (closure, result) = ("(\(error)) -> \(promise.value)", "\(base)<\(promise.value), NoError>")
        case "tryThen": closure = "(\(promise.value)) throws -> Void"
        case "tryRecover": closure = "(\(error)) throws -> \(promise.value)"
        default: return nil
        }
        let token = promise.kind == .tokenPromise ? "" : "PromiseInvalidationToken?, "
        return "(PromiseContext, \(token)@escaping @Sendable \(closure)) -> \(result)"
    }

    /// The type of the `PromiseContext` overload of `method` with a placeholder (`_`) for every
    /// type that depends on the promise (`(PromiseContext, PromiseInvalidationToken?,
    /// @escaping @Sendable (_) -> Void) -> _`): it picks the overload as well, and needs no type
    /// from the scope, so it is right in a generic function, an `extension Promise` or wherever
    /// the receiver's type is not written. `token`: whether the method takes an invalidation
    /// token (a `Promise`'s do, a `TokenPromise`'s do not).
    static func placeholderType(of method: String, token: Bool) -> String? {
        let closure: String
        switch method {
        case "then", "catch", "always": closure = "(_) -> Void"
        case "onCancel": closure = "() -> Void"
        case "recover": closure = "(_) -> _"
        case "tryThen": closure = "(_) throws -> Void"
        case "tryRecover": closure = "(_) throws -> _"
        default: return nil
        }
        return "(PromiseContext, \(token ? "PromiseInvalidationToken?, " : "")@escaping @Sendable \(closure)) -> _"
    }

    /// The pattern bindings of `file` (`let register = promise.then(on:token:_:)`), in order:
    /// the sites of `UnappliedReferenceAction`.
    static func sites(in file: ParsedFile) -> [PatternBindingSyntax] {
        final class Finder: SyntaxVisitor {
            var found: [PatternBindingSyntax] = []
            override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
                found.append(node)
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(file.tree)
        return finder.found
    }

    /// A name that says it holds a promise (`promise`, `userPromise`).
    static func isPromiseLike(_ base: ExprSyntax) -> Bool {
        base.trimmedDescription.lowercased().hasSuffix("promise")
    }

    /// The promise type `base` (`name` or `self.name`) is declared with, looking outwards from
    /// `node`: earlier local declarations, `for` loops over a collection of promises,
    /// parameters, then stored properties of the type.
    static func declaredType(of base: ExprSyntax, at node: Syntax, aliases: [String: PromiseType]) -> PromiseType? {
        declaredTypeSyntax(of: base, at: node).flatMap { PromiseType($0, aliases: aliases) }
    }

    /// The type `base` (`name` or `self.name`) is declared with, as written, looking outwards
    /// from `node`.
    static func declaredTypeSyntax(of base: ExprSyntax, at node: Syntax) -> TypeSyntax? {
        var name: String
        var member = false
        if let reference = base.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let access = base.as(MemberAccessExprSyntax.self), access.base?.trimmedDescription == "self" {
            name = access.declName.baseName.text
            member = true
        } else {
            return nil
        }
        name = name.replacingOccurrences(of: "`", with: "")
        func typed(_ variable: VariableDeclSyntax) -> TypeSyntax?? {
            for binding in variable.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                if let type = binding.typeAnnotation?.type { return .some(type) }
                // `let screen = Screen(…)`: an initializer call of a type named without generic arguments.
                if let called = binding.initializer?.value.as(FunctionCallExprSyntax.self)?.calledExpression.as(DeclReferenceExprSyntax.self),
                   called.argumentNames == nil, called.baseName.text.first?.isUppercase == true {
                    return .some(TypeSyntax(IdentifierTypeSyntax(name: .identifier(called.baseName.text))))
                }
                return .some(nil)
            }
            return nil
        }
        var current: Syntax? = node
        while let here = current {
            if member, !here.is(MemberBlockSyntax.self) {
                current = here.parent
                continue
            }
            if let block = here.as(CodeBlockItemListSyntax.self) {
                for item in block.reversed() where item.position < node.position {
                    if let variable = item.item.as(VariableDeclSyntax.self), let found = typed(variable) { return found }
                }
            } else if let loop = here.as(ForStmtSyntax.self), loop.body.position <= node.position,
                      loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                // `for promise in promises`: the element type of what `promises` is declared with.
                if let type = loop.typeAnnotation?.type { return type }
                return declaredTypeSyntax(of: loop.sequence, at: Syntax(loop)).flatMap(elementType)
            } else if let function = here.as(FunctionDeclSyntax.self) {
                for parameter in function.signature.parameterClause.parameters where (parameter.secondName ?? parameter.firstName).text == name {
                    return parameter.type
                }
            } else if let initializer = here.as(InitializerDeclSyntax.self) {
                for parameter in initializer.signature.parameterClause.parameters where (parameter.secondName ?? parameter.firstName).text == name {
                    return parameter.type
                }
            } else if let members = here.as(MemberBlockSyntax.self) {
                for item in members.members {
                    if let variable = item.decl.as(VariableDeclSyntax.self), let found = typed(variable) { return found }
                }
            }
            current = here.parent
        }
        return nil
    }

    /// `Element` of `[Element]`, `Array<Element>`, `Set<Element>`, `ContiguousArray<Element>`.
    static func elementType(_ type: TypeSyntax) -> TypeSyntax? {
        if let array = type.as(ArrayTypeSyntax.self) { return array.element }
        if let identifier = type.as(IdentifierTypeSyntax.self), ["Array", "Set", "ContiguousArray", "ArraySlice"].contains(identifier.name.text),
           let arguments = identifier.genericArgumentClause?.arguments, arguments.count == 1, let only = arguments.first {
            return only.argument.as(TypeSyntax.self)
        }
        return nil
    }
}

/// `let f = promise.then(on:token:_:)` gets `as` the type of the `PromiseContext` overload: the
/// full type when the receiver's type is declared, with placeholders when the reference's
/// labels say which overload set it is; declines (a note) when neither is known but the name
/// says it is a promise.
struct UnappliedReferenceAction: MigrationAction {
    /// An unapplied reference to a callback method.
    struct Reference {
        let value: MemberAccessExprSyntax
        let base: ExprSyntax
        let method: String
        /// The argument labels, when written (`on`, `token`, `_`).
        let labels: [String]?
    }

    let file: ParsedFile

    /// Holds for a binding with no type whose value is an unapplied callback method
    /// (`promise.then`, `promise.then(on:token:_:)`) whose first label, if any, is `on`.
    func precondition(_ binding: PatternBindingSyntax) -> Outcome<Reference> {
        guard binding.typeAnnotation == nil, let value = binding.initializer?.value.as(MemberAccessExprSyntax.self),
              let base = value.base else { return .notApplicable }
        let method = value.declName.baseName.text.replacingOccurrences(of: "`", with: "")
        let labels = value.declName.argumentNames?.arguments.map(\.name.text)
        guard UnappliedReferences.methods.contains(method), labels?.first.map({ $0 == "on" }) ?? true else { return .notApplicable }
        return .holds(Reference(value: value, base: base, method: method, labels: labels))
    }

    /// ` as <type>` after the reference; declines with what to add by hand when the type of
    /// a promise-like receiver is not written.
    func edit(_ binding: PatternBindingSyntax, _ reference: Reference) -> Outcome<TextEdit> {
        let (value, base, method) = (reference.value, reference.base, reference.method)
        if let promise = UnappliedReferences.declaredType(of: base, at: Syntax(binding), aliases: file.promiseAliases),
           let type = UnappliedReferences.type(of: method, on: promise) {
            return .holds(.insert(" as \(type)", at: value.endPositionBeforeTrailingTrivia))
        }
        if let labels = reference.labels, let type = UnappliedReferences.placeholderType(of: method, token: labels.contains("token")) {
            // `promise.catch(on:token:_:)`: the labels tell a `Promise`'s method from a
            // `TokenPromise`'s, and the placeholders need no type from the scope.
            return .holds(.insert(" as \(type)", at: value.endPositionBeforeTrailingTrivia))
        }
        guard UnappliedReferences.isPromiseLike(base), let promiseType = UnappliedReferences.placeholderType(of: method, token: true),
              let tokenType = UnappliedReferences.placeholderType(of: method, token: false) else { return .notApplicable }
        return .declines(SkipReason(
            "`\(value.trimmedDescription)` is ambiguous (each callback API has one overload per kind of context) "
                + "and the type of `\(base.trimmedDescription)` is not written here: add `as \(promiseType)` by hand "
                + "(on a `TokenPromise`: `as \(tokenType)`)"
        ))
    }
}
