// `convert-body`: `then(on: c, with: self) { owner, value in … }`, a callback that holds its owner
// weakly and gets it strongly. 1.x skipped it (an observer: its promise took the result) when the
// owner was gone by then, as an invalidated token. In the twin the owner is the method's own
// `self`, a strong reference until it returns: the closure's code runs on `self`, as a `[weak
// self]` closure's `self?.x` does (the same lifetime difference, MIGRATION.md's timing section).

import SwiftParser
import SwiftSyntax

extension ChainConversion {
    /// `closure` of a `with: owner` step as a closure of the value alone: `{ owner, feeds in
    /// owner.show(feeds) }` is `{ feeds in self.show(feeds) }`. Throws for an owner other than
    /// `self` (the twin would hold it strongly, where 1.x let it go) and for a transformer
    /// (`map`, `flatMap`, `recover`, …, whose promise was cancelled when the owner was gone: that
    /// would never happen in the twin).
    static func withoutOwner(_ closure: ClosureExprSyntax, owner: ExprSyntax, operator name: String) throws -> ClosureExprSyntax {
        guard owner.trimmedDescription == "self" else {
            throw Left("`\(name)(with: \(owner.trimmedDescription))` (an owner other than `self`: "
                + strongInTwin(owner.trimmedDescription) + ", so its callback would run where 1.x skipped it)")
        }
        guard ["then", "always"].contains(name) else {
            throw Left("`\(name)(with: self)` (its promise was cancelled once `self` was gone; " + strongInTwin("self")
                + ", so that would never happen)")
        }
        guard let signature = closure.signature, signature.capture == nil, let clause = signature.parameterClause else {
            throw Left("`\(name)(with: self)` whose closure does not name its parameters")
        }
        var ownerName: String
        var rest: String
        if case .simpleInput(let list) = clause, list.count == 2 {
            ownerName = list.first!.name.text
            rest = list.last!.name.text
        } else if case .parameterClause(let parameters) = clause, parameters.parameters.count == 2 {
            let first = parameters.parameters.first!
            let second = parameters.parameters.last!
            ownerName = (first.secondName ?? first.firstName).text
            let typed = second.type.map { ": " + $0.trimmedDescription } ?? ""
            rest = "(" + (second.secondName ?? second.firstName).text + typed + ")"
        } else {
            throw Left("`\(name)(with: self)` whose closure does not name its two parameters")
        }
        if ownerName == "self" { ownerName = "_" }
        // The owner's uses are `self`'s (a nested closure or declaration that rebinds the name keeps its own).
        let renamed = Renamer(name: ownerName, to: .keyword(.self)).rewrite(closure.statements).as(CodeBlockItemListSyntax.self) ?? closure.statements
        let returned = signature.returnClause.map { " " + $0.trimmedDescription } ?? ""
        let effects = signature.effectSpecifiers.map { " " + $0.trimmedDescription } ?? ""
        let text = "{ \(rest)\(effects)\(returned) in\n" + renamed.map(text(of:)).joined(separator: "\n") + "\n}"
        guard let rewritten = parse(text).as(ClosureExprSyntax.self) else {
            throw Left("`\(name)(with: self)` whose closure could not be read")
        }
        return rewritten
    }

    /// Whether `text` is one assignment (`self.loading = false`, `count += 1`): a statement of a
    /// Void function as it is, where a value would be discarded with `_ =`.
    static func isAssignment(_ text: String) -> Bool {
        let statements = Parser.parse(source: text).statements
        guard statements.count == 1, let sequence = statements.first?.item.as(SequenceExprSyntax.self) else { return false }
        let compound: Set<String> = ["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="]
        return sequence.elements.contains { element in
            element.is(AssignmentExprSyntax.self) || element.as(BinaryOperatorExprSyntax.self).map { compound.contains($0.operator.text) } == true
        }
    }

    /// Renames the references to `name` (`owner` to `self`), but in a closure that names a parameter so.
    final class Renamer: SyntaxRewriter {
        let name: String
        let replacement: TokenKind

        init(name: String, to replacement: TokenKind) {
            self.name = name
            self.replacement = replacement
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: DeclReferenceExprSyntax) -> ExprSyntax {
            guard name != "_", node.baseName.text == name, node.argumentNames == nil else { return ExprSyntax(node) }
            return ExprSyntax(node.with(\.baseName, TokenSyntax(replacement, presence: .present).with(\.leadingTrivia, node.baseName.leadingTrivia)
                .with(\.trailingTrivia, node.baseName.trailingTrivia)))
        }

        override func visit(_ node: ClosureExprSyntax) -> ExprSyntax {
            // A closure that names a parameter of the same name shadows the owner.
            if let (names, _) = ChainConversion.parameters(of: node), names.contains(name) { return ExprSyntax(node) }
            return super.visit(node)
        }
    }
}
