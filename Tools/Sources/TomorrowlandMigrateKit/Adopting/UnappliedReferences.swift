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

    /// The edits (an `as` type after each reference whose receiver's type the file declares)
    /// and notes (the others).
    static func fix(in file: ParsedFile) -> (edits: [TextEdit], notes: [MigrationNote]) {
        final class Finder: SyntaxVisitor {
            let file: ParsedFile
            var edits: [TextEdit] = []
            var notes: [MigrationNote] = []
            init(file: ParsedFile) {
                self.file = file
                super.init(viewMode: .sourceAccurate)
            }

            override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
                guard node.typeAnnotation == nil, let value = node.initializer?.value.as(MemberAccessExprSyntax.self),
                      let base = value.base else { return .visitChildren }
                let method = value.declName.baseName.text.replacingOccurrences(of: "`", with: "")
                guard UnappliedReferences.methods.contains(method), value.declName.argumentNames?.arguments.first.map({ $0.name.text == "on" }) ?? true
                else { return .visitChildren }
                guard let promise = UnappliedReferences.declaredType(of: base, at: Syntax(node), aliases: file.promiseAliases),
                      let type = UnappliedReferences.type(of: method, on: promise) else {
                    if value.declName.argumentNames != nil || UnappliedReferences.isPromiseLike(base) {
                        notes.append(MigrationNote(
                            path: file.path, line: file.line(of: value),
                            message: "`\(value.trimmedDescription)` is ambiguous (each callback API has one overload per kind of context) "
                                + "and the type of `\(base.trimmedDescription)` is not written here: add `as (PromiseContext, "
                                + "PromiseInvalidationToken?, @escaping @Sendable (Value) -> Void) -> Promise<Value, Error>` by hand"
                        ))
                    }
                    return .visitChildren
                }
                edits.append(.insert(" as \(type)", at: value.endPositionBeforeTrailingTrivia))
                return .visitChildren
            }
        }
        let finder = Finder(file: file)
        finder.walk(file.tree)
        return (finder.edits, finder.notes)
    }

    /// A name that says it holds a promise (`promise`, `userPromise`).
    private static func isPromiseLike(_ base: ExprSyntax) -> Bool {
        base.trimmedDescription.lowercased().hasSuffix("promise")
    }

    /// The promise type `base` (`name` or `self.name`) is declared with, looking outwards from
    /// `node`: earlier local declarations, parameters, then stored properties of the type.
    static func declaredType(of base: ExprSyntax, at node: Syntax, aliases: [String: PromiseType]) -> PromiseType? {
        var name: String
        if let reference = base.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let member = base.as(MemberAccessExprSyntax.self), member.base?.trimmedDescription == "self" {
            name = member.declName.baseName.text
        } else {
            return nil
        }
        name = name.replacingOccurrences(of: "`", with: "")
        func typed(_ variable: VariableDeclSyntax) -> PromiseType? {
            for binding in variable.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                return binding.typeAnnotation.flatMap { PromiseType($0.type, aliases: aliases) }
            }
            return nil
        }
        var current: Syntax? = node
        while let here = current {
            if let block = here.as(CodeBlockItemListSyntax.self) {
                for item in block where item.position < node.position {
                    if let variable = item.item.as(VariableDeclSyntax.self), let found = typed(variable) { return found }
                }
            } else if let function = here.as(FunctionDeclSyntax.self) {
                for parameter in function.signature.parameterClause.parameters where (parameter.secondName ?? parameter.firstName).text == name {
                    return PromiseType(parameter.type, aliases: aliases)
                }
            } else if let members = here.as(MemberBlockSyntax.self) {
                for member in members.members {
                    if let variable = member.decl.as(VariableDeclSyntax.self), let found = typed(variable) { return found }
                }
            }
            current = here.parent
        }
        return nil
    }
}
