import SwiftSyntax

/// A `map` closure's declared result type, where the twin's `let` needs it spelled out.
///
/// `.map(on: .labels) { left -> (label: String, queue: String?) in … return (label, queue) }`:
/// the closure's value is a labelled tuple because the closure says so. Its body, moved into
/// the twin (inline, or in `withTaskExecutorPreference { @concurrent in … }`), has no such
/// context: `let printed = …` would be `(String, String?)`, and a later step's `printed.queue`
/// would not compile. The `let` is written `let printed: (label: String, queue: String?) = …`.
extension Writer {
    /// The declared result type of `step`'s closure when it is a `map` whose value needs it: a
    /// tuple type with a label.
    static func declaredType(of step: ChainConversion.Step) -> String? {
        guard step.name == "map", let declared = step.closure.signature?.returnClause?.type,
              let tuple = declared.as(TupleTypeSyntax.self), tuple.elements.contains(where: { $0.firstName != nil })
        else { return nil }
        return declared.trimmedDescription
    }

    /// `: T` for the `let` of the pending expression when its `map` declared `T` (see above).
    var declaredAnnotation: String {
        guard let declared = pendingDeclared, case .expression(let text) = pending, text == declared.expression else { return "" }
        return ": " + declared.type
    }
}
