// `convert-body`, the syntax half, continued: reading syntax (names, columns, closures'
// parameters and `$0`s) for the rewrite of a chain.

import SwiftParser
import SwiftSyntax

extension ChainConversion {
    /// Whether `expression` names a function without evaluating anything: `f`, `Type.f`,
    /// `Type.init`, `LedgerError.bank`, `f(_:label:)` (a name, `.`-separated names, argument names).
    static func isFunctionName(_ expression: ExprSyntax) -> Bool {
        if expression.is(DeclReferenceExprSyntax.self) { return true }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            return base.is(DeclReferenceExprSyntax.self) || base.is(TypeExprSyntax.self) || isFunctionName(base)
        }
        return false
    }

    /// `text` parsed as one expression (a closure's renamed result).
    static func parse(_ text: String) -> ExprSyntax {
        Parser.parse(source: text).statements.first?.item.as(ExprSyntax.self) ?? ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier(text)))
    }

    /// A `return` that belongs to the code itself (not to a nested closure or function).
    static func containsReturn(_ node: Syntax) -> Bool {
        if node.is(ReturnStmtSyntax.self) { return true }
        if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) { return false }
        return node.children(viewMode: .sourceAccurate).contains { containsReturn($0) }
    }

    /// `stem`, or `stem2`, `stem3`, …: the first name not in `taken`.
    static func firstFree(_ stem: String, avoiding taken: Set<String>) -> String {
        var name = stem
        var number = 2
        while taken.contains(name) {
            name = "\(stem)\(number)"
            number += 1
        }
        return name
    }

    /// Every identifier written in `node` (names a new `let` must not shadow).
    static func identifiers(in node: some SyntaxProtocol) -> Set<String> {
        Set(node.tokens(viewMode: .sourceAccurate).compactMap { token in
            if case .identifier(let text) = token.tokenKind { return text }
            return nil
        })
    }

    /// The names `closure` may read from outside: its identifiers but member names (after a
    /// `.`), argument labels and its own parameters (more than it reads; never fewer).
    static func freeNames(in closure: ClosureExprSyntax) -> Set<String> {
        let own = Set(parameters(of: closure)?.names ?? [])
        return Set(closure.statements.flatMap { $0.tokens(viewMode: .sourceAccurate) }.compactMap { token in
            guard case .identifier(let text) = token.tokenKind, !isMemberOrLabel(token), !own.contains(text) else { return nil }
            return text
        })
    }

    /// Whether `token` is a member name (`x.name`) or an argument label (`f(name: x)`): not a reference to a variable.
    static func isMemberOrLabel(_ token: TokenSyntax) -> Bool {
        token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period || token.parent?.as(LabeledExprSyntax.self)?.label?.id == token.id
    }

    /// A statement's text, its continuation lines shifted left by the statement's own column
    /// (the caller indents every line anew).
    static func text(of statement: CodeBlockItemSyntax) -> String {
        dedented(statement.trimmedDescription, by: column(of: statement))
    }

    /// How many columns precede the statement's first token on its line.
    static func column(of node: some SyntaxProtocol) -> Int {
        var count = 0
        var token = node.firstToken(viewMode: .sourceAccurate)
        // Leading trivia after the last newline, then whole tokens of the same line before it.
        var pieces = token.map { Array($0.leadingTrivia) } ?? []
        while true {
            if let newline = pieces.lastIndex(where: \.isNewline) {
                return count + pieces[(newline + 1)...].reduce(0) { $0 + $1.sourceLength.utf8Length }
            }
            count += pieces.reduce(0) { $0 + $1.sourceLength.utf8Length }
            guard let previous = token?.previousToken(viewMode: .sourceAccurate) else { return count }
            let trailing = Array(previous.trailingTrivia)
            if let newline = trailing.lastIndex(where: \.isNewline) {
                return count + trailing[(newline + 1)...].reduce(0) { $0 + $1.sourceLength.utf8Length }
            }
            count += previous.trailingTrivia.sourceLength.utf8Length + previous.text.utf8.count
            pieces = Array(previous.leadingTrivia)
            token = previous
        }
    }

    /// The spaces that begin the line `node` starts on (its statement's indentation).
    static func lineIndentation(of node: some SyntaxProtocol) -> Int {
        let source = Array(Syntax(node).root.description.utf8)
        var index = min(node.positionAfterSkippingLeadingTrivia.utf8Offset, source.count)
        while index > 0, source[index - 1] != UInt8(ascii: "\n") { index -= 1 }
        var spaces = 0
        while index + spaces < source.count, source[index + spaces] == UInt8(ascii: " ") { spaces += 1 }
        return spaces
    }

    /// `text` with up to `columns` leading spaces removed from every line after the first.
    static func dedented(_ text: String, by columns: Int) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return ([String(lines[0])] + lines.dropFirst().map { line in
            let spaces = line.prefix { $0 == " " }.count
            return String(line.dropFirst(min(spaces, columns)))
        }).joined(separator: "\n")
    }

    /// Whether `node` holds an implicit member (`.notFound`) outside nested closures.
    static func containsImplicitMember(_ node: Syntax) -> Bool {
        if let member = node.as(MemberAccessExprSyntax.self), member.base == nil { return true }
        if node.is(ClosureExprSyntax.self) { return false }
        return node.children(viewMode: .sourceAccurate).contains { containsImplicitMember($0) }
    }

    /// The `$0` tokens of `closure` itself (not of closures nested in it).
    static func anonymousArguments(of closure: ClosureExprSyntax) -> (zero: [TokenSyntax], others: Bool) {
        var zero: [TokenSyntax] = []
        var others = false
        func walk(_ node: Syntax) {
            if node.is(ClosureExprSyntax.self), node.id != Syntax(closure).id { return }
            if let token = node.as(TokenSyntax.self), case .dollarIdentifier(let text) = token.tokenKind {
                if text == "$0" { zero.append(token) } else { others = true }
            }
            for child in node.children(viewMode: .sourceAccurate) { walk(child) }
        }
        walk(Syntax(closure))
        return (zero, others)
    }

    /// The closure's parameter names (`_` for an unnamed one), nil when it has none written.
    static func parameters(of closure: ClosureExprSyntax) -> (names: [String], returnType: String?)? {
        guard let signature = closure.signature, let clause = signature.parameterClause else { return nil }
        let returnType = signature.returnClause?.type.trimmedDescription
        // `if case`, not a `switch`: see `CustomContexts.returnedExpression(of:)`.
        if case .simpleInput(let list) = clause { return (list.map(\.name.text), returnType) }
        if case .parameterClause(let parameters) = clause {
            return (parameters.parameters.map { ($0.secondName ?? $0.firstName).text }, returnType)
        }
        return nil
    }
}
