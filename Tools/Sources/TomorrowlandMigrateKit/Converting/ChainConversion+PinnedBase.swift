// `convert-body`: a promise made with a resolver under an operator on the chain's base
// (`HubPromise(on: .radio) { resolver in … }.delay(on: .radio, latency)`) took its value type
// from the function's return type; in the twin nothing gives it (the compiler then failed to
// produce a diagnostic), so the initializer is spelled with the compiler's type.

import SwiftSyntax

extension ChainConversion {
    /// The `…Promise(…)` initializer (not `fulfilled:`) that an operator kept on the chain's base
    /// (`timeout`, `delay`, `ignoringCancel`, …) is called on, or nil.
    static func initializer(underOperatorOf base: ExprSyntax) -> FunctionCallExprSyntax? {
        guard let call = base.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              baseOperators.contains(member.declName.baseName.text), let inner = member.base?.as(FunctionCallExprSyntax.self),
              let name = inner.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, name.hasSuffix("Promise"),
              promiseArgument(of: inner, label: "fulfilled") == nil else { return nil }
        return inner
    }

    /// `base` with its initializer spelled `(… as <type>)`, or nil.
    static func pinningInitializer(under base: ExprSyntax, as type: String) -> ExprSyntax? {
        guard let inner = initializer(underOperatorOf: base) else { return nil }
        let indentation = lineIndentation(of: base)
        let whole = dedented(base.trimmedDescription, by: indentation)
        let initializer = dedented(inner.trimmedDescription, by: indentation)
        guard whole.hasPrefix(initializer) else { return nil }
        return parse("(\(initializer) as \(type))" + whole.dropFirst(initializer.count))
    }
}
