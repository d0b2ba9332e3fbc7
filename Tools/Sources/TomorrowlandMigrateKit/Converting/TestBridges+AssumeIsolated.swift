// A synchronous test whose body is one `MainActor.assumeIsolated { … }` statement. XCTest on Linux
// aborts on a `@MainActor` test class's synchronous tests, so a test of main-actor code runs its
// body on the main actor itself (XCTest calls a synchronous test on the main thread):
//
//     func testRefresh() throws {                        @MainActor func testRefresh() async throws {
//         try MainActor.assumeIsolated {                     makeScreen()
//             makeScreen()                           →       XCTAssertEqual(try await viewModel.refresh(), 2)
//             XCTAssertEqual(try value(of: viewModel.refresh()), 2)   }
//         }
//     }
//
// The closure's statements are the test's own: the helpers' calls there are rewritten as at the top
// level of a test, and the run-loop waits are looked for there. Once the test is converted, the
// wrapper goes: the test is `@MainActor`, isolated to the main actor already (where `assumeIsolated`
// ran the closure, synchronously), and `assumeIsolated` would not take the closure's `await`s. A
// `return` in the closure ended the closure, and so the test: it returns from the test. A closure
// with parameters, a wrapper whose value is used, or one beside other statements stays as it was.

import SwiftSyntax

extension TestBridges {
    /// The closure of `MainActor.assumeIsolated { … }` (or `try MainActor.assumeIsolated { … }`) when it
    /// is the only statement of `body`, takes no parameters and returns no value; its `{` ends its line and
    /// its `}` stands alone on its own (so that the wrapper's lines can go). Nil otherwise.
    static func assumeIsolatedClosure(in body: CodeBlockSyntax?) -> ClosureExprSyntax? {
        guard let body, body.statements.count == 1, let item = body.statements.first, var expression = item.item.as(ExprSyntax.self),
              Self.startsItsLine(item.leadingTrivia), Self.startsItsLine(body.rightBrace.leadingTrivia) else { return nil }
        if let tried = expression.as(TryExprSyntax.self), tried.questionOrExclamationMark == nil { expression = tried.expression }
        guard let call = expression.as(FunctionCallExprSyntax.self), call.calledExpression.trimmedDescription == "MainActor.assumeIsolated",
              call.arguments.isEmpty, call.leftParen == nil, call.additionalTrailingClosures.isEmpty, let closure = call.trailingClosure,
              closure.signature == nil, !closure.statements.isEmpty,
              closure.leftBrace.trailingTrivia.allSatisfy({ $0.isSpaceOrTab }),
              closure.statements.first?.leadingTrivia.first?.isNewline == true, Self.startsItsLine(closure.rightBrace.leadingTrivia),
              !ValueReturns.found(in: closure) else { return nil }
        return closure
    }

    /// Whether a token with `trivia` before it is the first on its line: a line break, then spaces or tabs.
    static func startsItsLine(_ trivia: Trivia) -> Bool {
        trivia.contains(where: \.isNewline) && trivia.reversed().prefix(while: { !$0.isNewline }).allSatisfy(\.isSpaceOrTab)
    }

    /// `function`'s body, or the statements of its `assumeIsolated` wrapper (above): the statements a
    /// test runs as its own. What holds them: the body, or the closure.
    static func testStatements(of function: FunctionDeclSyntax) -> (statements: CodeBlockItemListSyntax, holder: SyntaxIdentifier)? {
        if let closure = assumeIsolatedClosure(in: function.body) { return (closure.statements, closure.id) }
        return function.body.map { ($0.statements, $0.id) }
    }

    /// Whether `closure` is the `assumeIsolated` wrapper of the function whose body it is the statement of.
    static func isAssumeIsolatedWrapper(_ closure: ClosureExprSyntax) -> Bool {
        var current = closure.parent
        while let node = current, !node.is(CodeBlockSyntax.self) { current = node.parent }
        return assumeIsolatedClosure(in: current?.as(CodeBlockSyntax.self))?.id == closure.id
    }
}

extension TestBridges.Method {
    /// Once the test is converted: its `assumeIsolated` wrapper's lines go and the closure's lines (those
    /// the edits leave, and the lines the edits write there) move out one level. Nothing when it has none.
    mutating func unwrapAssumeIsolated() {
        guard let closure = TestBridges.assumeIsolatedClosure(in: function.body),
              let wrapper = function.body?.statements.first else { return }
        let bytes = Array(file.text.utf8)
        let lineStart = { (offset: Int) in
            var start = offset
            while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
            return start
        }
        let outer = Twins.indentation(of: wrapper, in: file)
        let inner = Twins.indentation(of: closure.statements.first!, in: file)
        guard inner.count > outer.count, inner.hasPrefix(outer) else { return }
        let extra = Array(inner.utf8.dropFirst(outer.utf8.count))
        var firstLine = closure.leftBrace.endPositionBeforeTrailingTrivia.utf8Offset
        while firstLine < bytes.count, bytes[firstLine] != UInt8(ascii: "\n") { firstLine += 1 }
        firstLine += 1
        let closingLine = lineStart(closure.rightBrace.positionAfterSkippingLeadingTrivia.utf8Offset)
        var closingEnd = closure.rightBrace.endPositionBeforeTrailingTrivia.utf8Offset
        while closingEnd < bytes.count, bytes[closingEnd] != UInt8(ascii: "\n") { closingEnd += 1 }
        // The edits so far: the lines they write move out too; a line they replace is theirs.
        let written = edits
        edits = []
        for (index, edit) in written.enumerated() {
            guard edit.start >= firstLine, edit.end <= closingLine else {
                edits.append(edit)
                continue
            }
            let (text, removed) = Self.dedented(edit.text, by: String(decoding: extra, as: UTF8.self))
            edits.append(TextEdit(start: edit.start, end: edit.end, text: text))
            expectations = expectations.map { expectation in
                guard case .inserted(let at, let offset) = expectation.place, at == index else { return expectation }
                let shift = removed.filter { $0 < offset }.count * extra.count
                return PlannedChange.Expectation(place: .inserted(edit: at, offset: offset - shift), target: expectation.target,
                                                 meaning: expectation.meaning)
            }
        }
        let start = lineStart(wrapper.positionAfterSkippingLeadingTrivia.utf8Offset)
        edits.append(TextEdit(start: start, end: firstLine, text: ""))
        edits.append(TextEdit(start: closingLine, end: min(closingEnd + 1, bytes.count), text: ""))
        var line = firstLine
        while line < closingLine {
            let end = line + extra.count
            let taken = written.contains { edit in
                (edit.start < end && line < edit.end) || (edit.start == edit.end && edit.start > line && edit.start < end)
            }
            if !taken, end <= bytes.count, Array(bytes[line..<end]) == extra { edits.append(TextEdit(start: line, end: end, text: "")) }
            while line < closingLine, bytes[line] != UInt8(ascii: "\n") { line += 1 }
            line += 1
        }
    }

    /// `text` without `extra` after each of its line breaks, and the offsets (in `text`) of the removed copies.
    static func dedented(_ text: String, by extra: String) -> (text: String, removed: [Int]) {
        var bytes = Array(text.utf8)
        let extra = Array(extra.utf8)
        var removed: [Int] = []
        var index = 0
        var shift = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n"), index + 1 + extra.count <= bytes.count, Array(bytes[(index + 1)..<(index + 1 + extra.count)]) == extra {
                removed.append(index + 1 + shift)
                bytes.removeSubrange((index + 1)..<(index + 1 + extra.count))
                shift += extra.count
            }
            index += 1
        }
        return (String(decoding: bytes, as: UTF8.self), removed)
    }
}

/// Whether a closure returns a value: a `return x` of its own (not of a closure or function in it).
private final class ValueReturns: SyntaxVisitor {
    private var found = false
    private var depth = 0

    static func found(in closure: ClosureExprSyntax) -> Bool {
        let visitor = ValueReturns(viewMode: .sourceAccurate)
        visitor.walk(closure.statements)
        return visitor.found
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: AccessorBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind {
        if node.expression != nil { found = true }
        return .skipChildren
    }
}

private extension TriviaPiece {
    var isSpaceOrTab: Bool {
        switch self {
        case .spaces, .tabs: return true
        default: return false
        }
    }
}
