// Two steps whose closures name their parameter alike (Clinic's `updateEmail(patientID:to:)`:
// `.flatMap(on: .utility) { patient in … }.then(on: .records) { patient in … }`): each
// parameter becomes a `let` of the twin, in one scope, where a second `let patient` is an
// "invalid redeclaration". The later one gets a fresh name (`patient2`), with its uses, as a
// tuple's element named like an earlier value does. A parameter named like the value that is
// still pending (`then { x in }.map { x in }`) is that value, bound once, and keeps its name.

import SwiftSyntax

extension Writer {
    /// A fresh name for a single closure parameter that an earlier step already bound to a `let`
    /// of another value in the twin's own scope, or nil when `name` is free there (a `let` in a
    /// `do` block of an `onCancel` or a handler is not in scope after it) or is the pending value's own name.
    mutating func reboundName(_ name: String) -> String? {
        guard name != "_", boundNames.contains(name),
              lines.contains(where: { $0.hasPrefix("let \(name) ") || $0.hasPrefix("let \(name):") }) else { return nil }
        if case .expression(let text) = pending, text == name { return nil }
        return freshName(stem: name)
    }

    /// The tokens of `closure`'s statements that use the parameter `name` (not a member or a label).
    func parameterUses(_ name: String, in closure: ClosureExprSyntax) -> [TokenSyntax] {
        closure.statements.flatMap { $0.tokens(viewMode: .sourceAccurate) }.filter { token in
            token.text == name && !ChainConversion.isMemberOrLabel(token)
        }
    }
}
