import SwiftSyntax

/// A function that blocks its thread while it waits (a test helper's `wait(for:timeout:)` on an
/// expectation, a semaphore's or a group's `wait()`): its async twin would hold a Task's thread
/// for the whole wait, and where that Task runs on an actor (a `@MainActor` test calling it),
/// nothing else the wait needs can run there: a test's closure literal, main-actor isolated once
/// its test is, never runs and the expectation times out. Such a function gets no async twin;
/// its callers stay on the promise it returns.
enum BlockingWaits {
    /// The first call in `body` that blocks the function's own thread (not one inside a closure,
    /// which runs wherever that closure is called), as `name` and its 1-based line, or nil.
    static func first(in body: CodeBlockSyntax?, of file: ParsedFile) -> (call: String, line: Int)? {
        guard let body else { return nil }
        let finder = Finder()
        finder.walk(body)
        return finder.found.map { ($0.call, file.line(of: $0.node)) }
    }

    /// `wait(for:…)` and `waitForExpectations(timeout:…)` (XCTest), `XCTWaiter…wait(for:…)`,
    /// and a `.wait()` / `.wait(timeout:)` / `.wait(wallTimeout:)` member call (a
    /// `DispatchSemaphore`, a `DispatchGroup`).
    static func isBlocking(_ call: FunctionCallExprSyntax) -> String? {
        let labels = call.arguments.map { $0.label?.text ?? "_" }
        if let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text {
            if name == "wait", labels.first == "for" { return "wait(for:…)" }
            if name == "waitForExpectations" { return "waitForExpectations(…)" }
            return nil
        }
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { return nil }
        let name = member.declName.baseName.text
        if name == "waitForExpectations" { return "waitForExpectations(…)" }
        guard name == "wait" else { return nil }
        if labels.first == "for" { return "\(member.base?.trimmedDescription ?? "").wait(for:…)" }
        if labels.isEmpty || labels == ["timeout"] || labels == ["wallTimeout"] {
            return "\(member.base?.trimmedDescription ?? "").wait(\(labels.map { $0 + ":" }.joined()))"
        }
        return nil
    }

    private final class Finder: SyntaxVisitor {
        var found: (call: String, node: Syntax)?

        init() { super.init(viewMode: .sourceAccurate) }

        override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

        override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            if found == nil, let call = BlockingWaits.isBlocking(node) { found = (call, Syntax(node)) }
            return found == nil ? .visitChildren : .skipChildren
        }
    }
}
