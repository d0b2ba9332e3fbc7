// A capture list that binds a read (`[store = self.store, clock = self.clock]`): in the twin,
// the closure's code is the method's own, so each binding is a `let` declared where the chain
// was built. 1.x evaluated the capture when the step was registered, during the call, after
// the statements before the chain; the twin declares it after those statements and before its
// first await, which the wrapper runs during the call too (`Promise(on: .immediate)`).

import SwiftSyntax

extension ChainConversion {
    /// Whether `expression` only reads (`x`, `self.x`, `a.b.c`): it has no effect, so reading it
    /// before the chain's base is built (instead of just after) sees the same value.
    static func isRead(_ expression: ExprSyntax) -> Bool {
        if expression.is(DeclReferenceExprSyntax.self) { return true }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base, member.declName.argumentNames == nil {
            return isRead(base)
        }
        return false
    }

    /// Why the `let`s of `bound` cannot stand in the twin, or nil: a name that the function's
    /// body also uses outside the closure that captured it would read the `let` there, not
    /// what it named before (a property, a local).
    /// `[x = x]` is a parameter's value (`parameters`), which the twin reads as it is; of anything
    /// else (a property, or a local the capture shadows) the twin's `let x = x` would not compile.
    static func boundCaptureClash(
        _ bound: [(name: String, value: String, closure: SyntaxIdentifier)], in body: CodeBlockSyntax, parameters: Set<String> = []
    ) -> String? {
        if let same = bound.first(where: { $0.name == $0.value && !parameters.contains($0.name) }) {
            return "a capture `[\(same.name) = \(same.value)]` of a name that is not a parameter (in the twin `let \(same.name) = "
                + "\(same.value)` would read the `let` itself)"
        }
        var names: [String: Int] = [:]
        for entry in bound { names[entry.name, default: 0] += 1 }
        if let twice = names.first(where: { $0.value > 1 }) {
            return "a capture list that binds `\(twice.key)` in two closures (one `let` in the twin cannot hold both)"
        }
        for entry in bound where entry.name != entry.value {
            let total = body.tokens(viewMode: .sourceAccurate).filter { $0.tokenKind == .identifier(entry.name) }.count
            let closure = body.tokens(viewMode: .sourceAccurate).first { token in
                token.ancestorOrSelf { $0.id == entry.closure ? $0 : nil } != nil
            }.flatMap { token in token.ancestorOrSelf { $0.id == entry.closure ? $0 : nil } }
            let inside = closure?.tokens(viewMode: .sourceAccurate).filter { $0.tokenKind == .identifier(entry.name) }.count ?? 0
            if total > inside {
                return "a capture `[\(entry.name) = \(entry.value)]` whose name the function also uses outside its closure "
                    + "(in the twin one `let` would serve both)"
            }
        }
        return nil
    }
}
