// `convert-body`, the syntax half, continued: `lock.lock()` … `lock.unlock()` in code that
// becomes async. `NSLock.lock()` is unavailable from async contexts (an error in Swift 6 mode);
// `lock.withLock { … }` holds the same lock around the same statements, and is allowed.

import SwiftParser
import SwiftSyntax

extension ChainConversion {
    /// The twin's statements (`lines`) with each `x.lock()` … `x.unlock()` pair of one statement
    /// list in async code (the twin's body and the blocks in it, a `withTaskExecutorPreference`
    /// closure; not a synchronous closure, where `lock()` is allowed) written `x.withLock { … }`,
    /// when the statements between them can move into a closure: no `await` (a lock is never held
    /// across a suspension), no `return`, `break`, `continue`, `throw` or `try`, no declaration
    /// that later statements would read. Throws when a `lock()` in async code has no such pair.
    static func withLocks(_ lines: [String]) throws -> [String] {
        let prefix = "func twin() async throws {\n"
        let suffix = "\n}\n"
        let source = prefix + lines.joined(separator: "\n") + suffix
        let finder = LockPairs(source: source)
        finder.walk(Parser.parse(source: source))
        if let failure = finder.failure { throw Left(failure) }
        guard !finder.edits.isEmpty else { return lines }
        let updated = TextEdit.apply(finder.edits, to: source)
        return [String(updated.dropFirst(prefix.count).dropLast(suffix.count))]
    }

    private final class LockPairs: SyntaxVisitor {
        let source: String
        var edits: [TextEdit] = []
        var failure: String?
        /// The ranges replaced so far: the statement lists inside them are left as they are.
        var replaced: [Range<Int>] = []

        init(source: String) {
            self.source = source
            super.init(viewMode: .sourceAccurate)
        }

        /// `x` of a statement `x.<name>()` (`self.` dropped), nil for any other statement.
        static func receiver(of item: CodeBlockItemSyntax, calling name: String) -> String? {
            guard let call = item.item.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
                  let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == name,
                  let base = member.base else { return nil }
            let text = base.trimmedDescription
            return text.hasPrefix("self.") ? String(text.dropFirst("self.".count)) : text
        }

        /// Whether the statements of `list` run in async code: the twin's own body, or a closure
        /// that is async (`withTaskExecutorPreference`'s, `@concurrent`, `async`).
        static func isAsync(_ list: CodeBlockItemListSyntax) -> Bool {
            var node = list.parent
            while let current = node {
                if let closure = current.as(ClosureExprSyntax.self) {
                    if closure.signature?.effectSpecifiers?.asyncSpecifier != nil { return true }
                    if closure.signature?.attributes.contains(where: { $0.trimmedDescription == "@concurrent" }) == true { return true }
                    if let call = closure.parent?.as(FunctionCallExprSyntax.self), call.trailingClosure?.id == closure.id,
                       Calls.calledName(call)?.0 == "withTaskExecutorPreference" { return true }
                    return false
                }
                if let function = current.as(FunctionDeclSyntax.self) {
                    return function.signature.effectSpecifiers?.asyncSpecifier != nil
                }
                node = current.parent
            }
            return false
        }

        /// What keeps `items` (between a `lock()` and its `unlock()`) out of a `withLock` closure, or nil.
        static func obstacle(in items: ArraySlice<CodeBlockItemSyntax>) -> String? {
            func walk(_ node: Syntax) -> String? {
                if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) { return nil }
                if node.is(AwaitExprSyntax.self) { return "an `await` (a lock is never held across a suspension)" }
                if node.is(ReturnStmtSyntax.self) || node.is(BreakStmtSyntax.self) || node.is(ContinueStmtSyntax.self) {
                    return "a `\(node.firstToken(viewMode: .sourceAccurate)?.text ?? "return")` out of the locked statements"
                }
                if node.is(ThrowStmtSyntax.self) || node.as(TryExprSyntax.self).map({ $0.questionOrExclamationMark == nil }) == true {
                    return "an error thrown while the lock is held (1.x left it locked)"
                }
                return node.children(viewMode: .sourceAccurate).lazy.compactMap(walk).first
            }
            if items.contains(where: { $0.item.is(DeclSyntax.self) }) { return "a declaration (it would end with the closure)" }
            return items.lazy.compactMap { walk(Syntax($0)) }.first
        }

        override func visit(_ node: CodeBlockItemListSyntax) -> SyntaxVisitorContinueKind {
            let start = node.position.utf8Offset
            guard failure == nil, !replaced.contains(where: { $0.contains(start) }), Self.isAsync(node) else { return .visitChildren }
            let items = Array(node)
            var index = 0
            while index < items.count {
                guard let lock = Self.receiver(of: items[index], calling: "lock") else {
                    index += 1
                    continue
                }
                let why = "`\(lock).lock()` in what becomes async code (`NSLock.lock()` is unavailable from async contexts), and "
                // `lock(); defer { unlock() }`, then the rest of a closure's statements: `return lock.withLock { <rest> }`.
                if index + 1 < items.count, Self.unlocks(items[index + 1], lock: lock) {
                    let rest = items[(index + 2)...]
                    guard node.parent?.is(ClosureExprSyntax.self) == true else {
                        failure = why + "its `defer { \(lock).unlock() }` holds it to the end of a block that is not a closure's"
                        return .skipChildren
                    }
                    if rest.contains(where: { Self.awaits(Syntax($0)) }) {
                        failure = why + "the statements its `defer { \(lock).unlock() }` holds it over hold an `await` "
                            + "(a lock is never held across a suspension)"
                        return .skipChildren
                    }
                    edits.append(deferred(lock: items[index], unlocking: items[index + 1], rest: rest))
                    return .skipChildren
                }
                guard let end = items[(index + 1)...].firstIndex(where: { Self.receiver(of: $0, calling: "unlock") == lock }) else {
                    failure = why + "no `\(lock).unlock()` in the same block brackets statements that `withLock { }` could hold"
                    return .skipChildren
                }
                let inner = items[(index + 1)..<end]
                // `let x = <value>` alone between them: `let x = lock.withLock { <value> }`.
                if inner.count == 1, let variable = inner.first?.item.as(VariableDeclSyntax.self), variable.bindings.count == 1,
                   let binding = variable.bindings.first, let value = binding.initializer?.value, binding.accessorBlock == nil,
                   Self.obstacle(in: [CodeBlockItemSyntax(item: .expr(value))]) == nil {
                    edits.append(declaration(variable, value: value, lock: items[index], unlock: items[end]))
                    index = end + 1
                    continue
                }
                // Statements, then `let x = <value>` last: `let x = lock.withLock { <statements>; return <value> }`.
                if inner.count > 1, let variable = inner.last?.item.as(VariableDeclSyntax.self), variable.bindings.count == 1,
                   let binding = variable.bindings.first, let value = binding.initializer?.value, binding.accessorBlock == nil,
                   Self.obstacle(in: ArraySlice(inner.dropLast() + [CodeBlockItemSyntax(item: .expr(value))])) == nil {
                    edits.append(declaration(variable, value: value, after: inner.dropLast(), lock: items[index], unlock: items[end]))
                    index = end + 1
                    continue
                }
                if let obstacle = Self.obstacle(in: inner) {
                    failure = why + "the statements it brackets hold \(obstacle)"
                    return .skipChildren
                }
                edits.append(edit(lock: items[index], inner: inner, unlock: items[end]))
                index = end + 1
            }
            return .visitChildren
        }

        /// Whether `item` is `defer { x.unlock() }` (`self.` dropped) and nothing else.
        static func unlocks(_ item: CodeBlockItemSyntax, lock: String) -> Bool {
            guard let deferred = item.item.as(DeferStmtSyntax.self), deferred.body.statements.count == 1,
                  let statement = deferred.body.statements.first else { return false }
            return receiver(of: statement, calling: "unlock") == lock
        }

        /// Whether `node` awaits, outside the closures and functions in it.
        static func awaits(_ node: Syntax) -> Bool {
            if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) { return false }
            if node.is(AwaitExprSyntax.self) { return true }
            return node.children(viewMode: .sourceAccurate).contains { awaits($0) }
        }

        /// Whether `node` throws out of itself (a `try` or `throw` outside the closures, functions
        /// and `do` statements with a catch-all clause in it): `withLock` then needs a `try`.
        static func throwsOut(_ node: Syntax) -> Bool {
            if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) { return false }
            if node.is(ThrowStmtSyntax.self) || node.as(TryExprSyntax.self).map({ $0.questionOrExclamationMark == nil }) == true { return true }
            if let statement = node.as(DoStmtSyntax.self), statement.catchClauses.contains(where: { $0.catchItems.isEmpty }) {
                return statement.catchClauses.contains { throwsOut(Syntax($0.body)) }
            }
            return node.children(viewMode: .sourceAccurate).contains { throwsOut($0) }
        }

        /// Whether `node` returns a value out of the statements, outside the closures and functions in it.
        static func returnsValue(_ node: Syntax) -> Bool {
            if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) { return false }
            if let statement = node.as(ReturnStmtSyntax.self) { return statement.expression != nil }
            return node.children(viewMode: .sourceAccurate).contains { returnsValue($0) }
        }

        /// `return x.withLock { <rest> }` (`try` if the rest throws; no `return` if it returns no
        /// value) in place of `x.lock()`, `defer { x.unlock() }` and the rest of a closure's
        /// statements: the lock is held over the same statements, released on every way out of
        /// them (`withLock` unlocks when its closure returns or throws, as the `defer` did), and the
        /// closure's value is the rest's. The rest had no `await` (the closure was synchronous).
        func deferred(lock: CodeBlockItemSyntax, unlocking: CodeBlockItemSyntax, rest: ArraySlice<CodeBlockItemSyntax>) -> TextEdit {
            let (start, end, call) = span(lock: lock, unlock: rest.last ?? unlocking)
            guard let first = rest.first, let last = rest.last else { return TextEdit(start: start, end: end, text: "\(call).withLock {}") }
            let value = rest.contains { Self.returnsValue(Syntax($0)) }
            let head = (value ? "return " : "") + (rest.contains { Self.throwsOut(Syntax($0)) } ? "try " : "")
            // `return v` alone: the closure's value is `v`.
            if rest.count == 1, let returned = first.item.as(ReturnStmtSyntax.self), let expression = returned.expression,
               !expression.trimmedDescription.contains("\n") {
                return TextEdit(start: start, end: end, text: head + "\(call).withLock { \(expression.trimmedDescription) }")
            }
            return TextEdit(start: start, end: end, text: head + wrapped(call: call, from: first, to: last, count: rest.count, lock: lock, discarding: !value))
        }

        /// The offsets from `lock` to `unlock` (kept as replaced: the lists inside are left as they
        /// are), and the lock's expression as written (`x` of `x.lock()`, `self.` kept).
        func span(lock: CodeBlockItemSyntax, unlock: CodeBlockItemSyntax) -> (start: Int, end: Int, lock: String) {
            let start = lock.positionAfterSkippingLeadingTrivia.utf8Offset
            let end = unlock.endPositionBeforeTrailingTrivia.utf8Offset
            replaced.append(start..<end)
            let call = lock.item.as(FunctionCallExprSyntax.self)!.calledExpression.as(MemberAccessExprSyntax.self)!.base!.trimmedDescription
            return (start, end, call)
        }

        /// `let v = x.withLock { <value> }` in place of `x.lock()`, `let v = <value>`, `x.unlock()`.
        func declaration(_ variable: VariableDeclSyntax, value: ExprSyntax, lock: CodeBlockItemSyntax, unlock: CodeBlockItemSyntax) -> TextEdit {
            let (start, end, call) = span(lock: lock, unlock: unlock)
            let bytes = Array(source.utf8)
            let head = String(decoding: bytes[variable.positionAfterSkippingLeadingTrivia.utf8Offset..<value.positionAfterSkippingLeadingTrivia.utf8Offset],
                              as: UTF8.self)
            return TextEdit(start: start, end: end, text: head + "\(call).withLock { \(value.trimmedDescription) }")
        }

        /// `let v = x.withLock {`, `statements`, `return <value>`, `}` in place of `x.lock()`,
        /// the statements, `let v = <value>`, `x.unlock()`: the value is read under the lock, as it was.
        func declaration(
            _ variable: VariableDeclSyntax, value: ExprSyntax, after statements: ArraySlice<CodeBlockItemSyntax>,
            lock: CodeBlockItemSyntax, unlock: CodeBlockItemSyntax
        ) -> TextEdit {
            let (start, end, call) = span(lock: lock, unlock: unlock)
            let bytes = Array(source.utf8)
            let head = String(decoding: bytes[variable.positionAfterSkippingLeadingTrivia.utf8Offset..<value.positionAfterSkippingLeadingTrivia.utf8Offset],
                              as: UTF8.self)
            let indent = String(repeating: " ", count: ChainConversion.column(of: lock))
            let body = statements.map { ChainConversion.dedented($0.trimmedDescription, by: ChainConversion.column(of: $0)) }
                + ["return " + value.trimmedDescription]
            return TextEdit(start: start, end: end, text: head + "\(call).withLock {\n"
                + body.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }.map { indent + "    " + $0 }.joined(separator: "\n")
                + "\n" + indent + "}")
        }

        /// `x.withLock { <inner> }` in place of the statements from `lock` to `unlock`.
        func edit(lock: CodeBlockItemSyntax, inner: ArraySlice<CodeBlockItemSyntax>, unlock: CodeBlockItemSyntax) -> TextEdit {
            let (start, end, call) = span(lock: lock, unlock: unlock)
            guard let first = inner.first, let last = inner.last else { return TextEdit(start: start, end: end, text: "\(call).withLock {}") }
            return TextEdit(start: start, end: end, text: wrapped(call: call, from: first, to: last, count: inner.count, lock: lock, discarding: true))
        }

        /// `x.withLock { … }` around the statements from `first` to `last` (`count` of them),
        /// indented from `lock`'s column.
        func wrapped(call: String, from first: CodeBlockItemSyntax, to last: CodeBlockItemSyntax, count: Int, lock: CodeBlockItemSyntax,
                     discarding: Bool) -> String {
            let bytes = Array(source.utf8)
            var text = String(decoding: bytes[first.positionAfterSkippingLeadingTrivia.utf8Offset..<last.endPositionBeforeTrailingTrivia.utf8Offset],
                              as: UTF8.self)
            if text.hasSuffix(";") { text.removeLast() }
            // A lone call is the closure's value (`withLock` returns it, unused: a warning): discarded, as the statement was.
            if discarding, count == 1, first.item.is(FunctionCallExprSyntax.self) || first.item.is(TryExprSyntax.self) { text = "_ = " + text }
            if !text.contains("\n") { return "\(call).withLock { \(text) }" }
            let indent = String(repeating: " ", count: ChainConversion.column(of: lock))
            let body = ChainConversion.dedented(text, by: ChainConversion.column(of: first)).split(separator: "\n", omittingEmptySubsequences: false)
            return "\(call).withLock {\n" + body.map { $0.isEmpty ? "" : indent + "    " + $0 }.joined(separator: "\n") + "\n" + indent + "}"
        }
    }
}
