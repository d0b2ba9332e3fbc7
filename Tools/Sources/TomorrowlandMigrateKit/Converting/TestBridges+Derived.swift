// The two spellings of a value or error helper's guard (`TestBridges.derivedKind`), and where a
// converted test runs.
//
//     guard case .value(let value)? = result else { XCTFail(…); return nil }
//     guard let value = result?.value else { XCTFail(…); return nil }      (Relay's `awaitValue(_:)`)
//
// Both bind the value of a fulfilled result and nothing else: `PromiseResult.value` is nil for a
// rejection and a cancellation alike, as the pattern does not match them. (`.error` the same.)

import SwiftSyntax

extension TestBridges {
    /// What the one condition of `guard` binds from the result `result`: `("value", v)` for `case
    /// .value(let v)? = result` or `let v = result?.value`, `("error", e)` the same for the error.
    static func guardedRead(_ guardStatement: GuardStmtSyntax, of result: String) -> (member: String, bound: String)? {
        guard guardStatement.conditions.count == 1, let condition = guardStatement.conditions.first?.condition else { return nil }
        if let matching = condition.as(MatchingPatternConditionSyntax.self) {
            guard matching.initializer.value.trimmedDescription == result else { return nil }
            let pattern = matching.pattern.trimmedDescription.filter { !$0.isWhitespace }
            for member in ["value", "error"] where pattern.hasPrefix(".\(member)(let") && pattern.hasSuffix(")?") {
                let bound = pattern.dropFirst(".\(member)(let".count).dropLast(2)
                if !bound.isEmpty, bound.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) { return (member, String(bound)) }
            }
            return nil
        }
        guard let binding = condition.as(OptionalBindingConditionSyntax.self), binding.bindingSpecifier.text == "let",
              binding.typeAnnotation == nil, let bound = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
              let read = binding.initializer?.value.as(MemberAccessExprSyntax.self),
              let chained = read.base?.as(OptionalChainingExprSyntax.self),
              chained.expression.as(DeclReferenceExprSyntax.self)?.baseName.text == result,
              ["value", "error"].contains(read.declName.baseName.text), read.declName.argumentNames == nil else { return nil }
        return (read.declName.baseName.text, bound)
    }
}

extension TestBridges {
    /// Whether `argument` names a parameter of `function` (a helper's call of another, `awaitResult(promise)`
    /// in a helper that is not recognised): the call is outside a test, not a test's kept promise.
    static func passesParameter(_ argument: ExprSyntax, in function: FunctionDeclSyntax?) -> Bool {
        guard let function, !function.name.text.hasPrefix("test"),
              let name = argument.as(DeclReferenceExprSyntax.self)?.baseName.text else { return false }
        return function.signature.parameterClause.parameters.contains { ($0.secondName ?? $0.firstName).text == name }
    }
}
