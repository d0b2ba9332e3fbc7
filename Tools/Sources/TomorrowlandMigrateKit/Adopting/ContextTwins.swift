// The twin of a custom context on `PromiseContext.Named`, `.Main` or `.CallerIsolated`, so
// that `.then(on: .db)` finds `.db` on the parameter type of the overload it belongs to.

import SwiftSyntax

/// A custom context in an `extension PromiseContext` gets its twin on `PromiseContext.Named`
/// (`.Main` when its value is `.main`-like, `.CallerIsolated` when `.auto`/`.immediate`-like),
/// right after the extension. Never declines.
struct ContextTwinAction: MigrationAction {
    let file: ParsedFile
    let contexts: CustomContexts

    /// Holds (with the extension's indentation) for an extension of `PromiseContext` (or an
    /// alias of it).
    func precondition(_ extensionDecl: ExtensionDeclSyntax) -> Outcome<String> {
        guard contexts.aliases.contains(extensionDecl.extendedType.trimmedDescription) else { return .notApplicable }
        return .holds(UnsafeCall.line(around: extensionDecl.extensionKeyword.positionAfterSkippingLeadingTrivia, in: file).indent)
    }

    /// The twins of its members that have none yet, inserted after it; not applicable when
    /// every member has one.
    func edit(_ extensionDecl: ExtensionDeclSyntax, _ indent: String) -> Outcome<TextEdit> {
        guard let twins = ContextTwins.text(after: extensionDecl, contexts: contexts, indent: indent) else { return .notApplicable }
        return .holds(.insert("\n\n" + twins, at: extensionDecl.endPositionBeforeTrailingTrivia))
    }
}

/// The text of the twins.
enum ContextTwins {
    /// The extensions to add after `extensionDecl` (an `extension PromiseContext`) for its
    /// members that have no twin yet, with the indentation of `extensionDecl`; nil when none.
    static func text(after extensionDecl: ExtensionDeclSyntax, contexts: CustomContexts, indent: String) -> String? {
        var blocks: [String] = []
        for kind in [ContextKind.named, .mainActor, .callerIsolated] {
            let lines = members(extensionDecl.memberBlock.members, kind: kind, contexts: contexts)
            guard !lines.isEmpty else { continue }
            let comment: [String]
            switch kind {
            case .named:
                comment = ["// Twins of the contexts above, so that they work as context arguments (`.then(on: .x)`): each",
                           "// runs its closure nonisolated on the queue it names, as in 1.x (added by tomorrowland-migrate adopt)."]
            case .mainActor:
                comment = ["// Twins of the contexts above that are the main queue, so that they work as context arguments",
                           "// (`.then(on: .x)`): a closure given one runs on the main actor, as in 1.x (added by tomorrowland-migrate adopt)."]
            case .callerIsolated:
                comment = ["// Twins of the contexts above that name no queue, so that they work as context arguments",
                           "// (`.then(on: .x)`): a closure given one keeps the caller's actor (added by tomorrowland-migrate adopt)."]
            }
            blocks.append(
                (comment + ["extension \(kind.typeName) {"]).map { indent + $0 }.joined(separator: "\n") + "\n"
                    + lines.map { $0.isEmpty ? "" : indent + "    " + $0 }.joined(separator: "\n") + "\n" + indent + "}"
            )
        }
        return blocks.isEmpty ? nil : blocks.joined(separator: "\n\n")
    }

    /// The twin lines for `members` of one kind, relative to the member indentation; `#if`
    /// blocks are repeated around the twins of their members.
    private static func members(_ members: MemberBlockItemListSyntax, kind: ContextKind, contexts: CustomContexts) -> [String] {
        var lines: [String] = []
        for item in members {
            if let ifConfig = item.decl.as(IfConfigDeclSyntax.self) {
                var clauses = ifConfig.clauses.map { clause in
                    let condition = clause.condition.map { " " + $0.trimmedDescription } ?? ""
                    let inner = clause.elements?.as(MemberBlockItemListSyntax.self).map { self.members($0, kind: kind, contexts: contexts) }
                    return (head: clause.poundKeyword.text + condition, twins: inner ?? [])
                }
                // Empty clauses at the end say nothing; earlier ones keep the later conditions right.
                while clauses.count > 1, clauses.last?.twins.isEmpty == true { clauses.removeLast() }
                if clauses.contains(where: { !$0.twins.isEmpty }) { lines += clauses.flatMap { [$0.head] + $0.twins } + ["#endif"] }
                continue
            }
            for context in contexts.context(declaredBy: item.decl) where context.kind == kind && contexts.twinned[context.name] == nil {
                lines += twin(of: context)
            }
        }
        return lines
    }

    /// `static var db: Self { Self(PromiseContext.db) }` and the like, with the original's
    /// access level and `@available` attributes.
    private static func twin(of context: CustomContext) -> [String] {
        let modifiers: DeclModifierListSyntax
        let attributes: AttributeListSyntax
        if let function = context.function {
            (modifiers, attributes) = (function.modifiers, function.attributes)
        } else if let variable = context.decl.as(VariableDeclSyntax.self) {
            (modifiers, attributes) = (variable.modifiers, variable.attributes)
        } else {
            return []
        }
        let access = modifiers.filter { ["public", "package", "internal", "fileprivate", "private"].contains($0.name.text) }
            .map { $0.trimmedDescription + " " }.joined()
        let available = attributes.compactMap { $0.as(AttributeSyntax.self) }
            .filter { $0.attributeName.trimmedDescription == "available" }.map(\.trimmedDescription)
        let doc = "/// `PromiseContext.\(context.name)` as a context argument."
        if let function = context.function {
            let signature = function.signature
            let generics = function.genericParameterClause?.trimmedDescription ?? ""
            let effects = signature.effectSpecifiers.map { " " + $0.trimmedDescription } ?? ""
            let whereClause = function.genericWhereClause.map { " " + $0.trimmedDescription } ?? ""
            let arguments = signature.parameterClause.parameters.map { parameter -> String in
                let name = (parameter.secondName ?? parameter.firstName).text
                let label = parameter.firstName.text == "_" ? "" : parameter.firstName.text + ": "
                return label + name
            }.joined(separator: ", ")
            let trying = (signature.effectSpecifiers?.throwsClause != nil ? "try " : "")
                + (signature.effectSpecifiers?.asyncSpecifier != nil ? "await " : "")
            return [doc] + available + [
                "\(access)static func \(function.name.text)\(generics)\(signature.parameterClause.trimmedDescription)\(effects) -> Self\(whereClause) {",
                "    Self(\(trying)PromiseContext.\(function.name.text)(\(arguments)))",
                "}",
            ]
        }
        let value = context.callerIsolatedValue ?? "Self(PromiseContext.\(context.name))"
        return [doc] + available + ["\(access)static var \(context.name): Self { \(value) }"]
    }
}
