// `convert-body`, the syntax half, continued: the writer of the twin's statements, its state
// (the value so far, the names taken and bound) and the naming and binding of values.

import SwiftParser
import SwiftSyntax

/// Builds the twin's statements step by step.
struct Writer {
    var conversion: ChainConversion
    /// Identifiers in use: a new name must differ from all of them.
    var taken: Set<String>
    var lines: [String] = []
    /// The `let` holding each token's validity (`token.validity()`), by the token as written.
    var validities: [String: String] = [:]
    /// The value so far: a promise still to await, or an expression (or a name) ready to use.
    var pending: Pending = .expression("()")
    /// The type a `map` closure declares for the pending expression, when inference alone would
    /// lose it (a labelled tuple: `{ x -> (label: String, queue: String?) in … }`): its `let` is
    /// written with it (ChainConversion+DeclaredTypes.swift).
    var pendingDeclared: (expression: String, type: String)?
    /// The names the later value steps read from outside: a closure parameter named so is renamed
    /// (its `let` would stand for it there).
    var readLater: Set<String> = []
    /// The names of the `let`s written so far.
    var boundNames: Set<String> = []
    /// The names the statements before the chain declare: a closure parameter named so is renamed.
    var declared: Set<String> = []
    /// Whether the step being written is the chain's last value step: a `return` anywhere in a
    /// `map` closure then returns the function's value, as it did the promise's.
    var isLastValueStep = false
    /// Promise `let`s of the statements before the chain that only the chain's base reads (`consume`d there).
    var consumable: Set<String> = []
    /// Whether error handlers follow the value steps (they see what the value steps throw).
    var handlersFollow = false
    /// Whether the lines written so far return from the twin on every path (the last
    /// `flatMap`'s closure, with its early returns, became the twin's own statements).
    var returned = false
    /// Lines that run where the chain was built, before its first await (a context chosen at run time).
    var hoisted: [String] = []
    /// The `.nowOr(c)` context of the chain's first step, and the `Bool` that says whether its base had resolved.
    var nowOrBase: (context: SyntaxIdentifier, flag: String)?
    /// Whether that context is `.nowOr(.main)` (or another `PromiseContext.Main`) off the main actor (ChainConversion+NowOrMain.swift).
    var nowOrOnMain = false

    /// The value so far: a promise still to await, or an expression ready to use.
    enum Pending {
        case promise(ExprSyntax)
        case expression(String)
    }

    typealias Left = ChainConversion.Left

    /// Where a closure's code runs in the twin.
    enum Placement {
        case inline
        /// In `withTaskExecutorPreference(<executor>) { @concurrent in … }`.
        case executor(String)
        /// `.nowOr(c)` on the chain's base: inline when `flag` (the base had resolved), else as `.executor` (ChainConversion+NowOr.swift).
        case nowOr(flag: String, executor: String)
    }

    /// The awaited value of the promise `expression`: `try await f(x)` when `f` has an async
    /// twin, `x` for `Promise(fulfilled: x)`, else `try await <expression>.value`.
    func awaited(_ expression: ExprSyntax) -> String {
        conversion.awaited(expression)
    }

    /// The pending value as an expression (awaiting a pending promise).
    var pendingText: String {
        switch pending {
        case .promise(let expression): return awaited(expression)
        case .expression(let text): return text
        }
    }

    /// A fresh name, from `hint` (a call's name: `fetchUser` → `user`), else `value`.
    mutating func freshName(for hint: ExprSyntax?) -> String {
        var candidates: [String] = []
        if let call = hint?.as(FunctionCallExprSyntax.self), let name = Calls.calledName(call)?.0 {
            var stem = Substring(name)
            for verb in ["fetch", "load", "get", "make"] where stem.hasPrefix(verb) && stem.dropFirst(verb.count).first?.isUppercase == true {
                stem = stem.dropFirst(verb.count)
            }
            candidates.append(stem.prefix(1).lowercased() + stem.dropFirst())
        }
        candidates += ["value", "result"]
        for candidate in candidates where !taken.contains(candidate) && !Self.keywords.contains(candidate) {
            taken.insert(candidate)
            return candidate
        }
        let name = ChainConversion.firstFree("value", avoiding: taken)
        taken.insert(name)
        return name
    }

    static let keywords: Set<String> = ["all", "default", "in", "is", "as", "self", "super", "init", "where", "for", "if", "do", "try"]

    /// A fresh name for the validity of `token` (`validity`, `validity2`, …).
    mutating func freshName(forValidityOf token: String) -> String {
        freshName(stem: "validity")
    }

    /// `stem`, or `stem2`, `stem3`, … : the first not taken.
    mutating func freshName(stem: String) -> String {
        let name = ChainConversion.firstFree(stem, avoiding: taken)
        taken.insert(name)
        return name
    }

    /// The token's rule around a callback's statements: an observer's run only while the token
    /// is valid (`if validity.isValid { … }`: skipped, the value passes on); another step's
    /// first check it (`guard validity.isValid else { throw CancellationError() }`: skipped,
    /// its promise cancelled, which cancels the chain's).
    func guarded(_ body: [String], by step: ChainConversion.Step) -> [String] {
        guard let token = step.token, let validity = validities[token] else { return body }
        if step.observes { return ["if \(validity).isValid {"] + body.map(Self.indent) + ["}"] }
        return ["guard \(validity).isValid else { throw CancellationError() }"] + body
    }

    /// Evaluates the pending value into `name` (nothing when it already is that name).
    mutating func bind(_ name: String) {
        if case .expression(let text) = pending, text == name { return }
        if name == "_" {
            let text = pendingText
            // A name already bound (`then { n in … }.map { _ in () }`): evaluating it again does nothing.
            let isBoundName = if case .expression(let bound) = pending { boundNames.contains(bound) } else { false }
            if text != "()", !isBoundName { lines.append("_ = " + text) }
            pending = .expression("()")
            return
        }
        lines.append("let \(name)\(declaredAnnotation) = " + pendingText)
        boundNames.insert(name)
        taken.formUnion(name.split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" }).map(String.init))
        pending = .expression(name)
    }

    /// The name a closure's single parameter is bound to, and its body with `$0` renamed to it.
    mutating func parameter(of closure: ClosureExprSyntax, anonymousName: String? = nil) throws -> (name: String, body: [String]) {
        let anonymous = ChainConversion.anonymousArguments(of: closure)
        if anonymous.others { throw Left("a closure that uses `$1`") }
        if let (names, _) = ChainConversion.parameters(of: closure) {
            // A tuple's elements (`when(fulfilled: a, b).map { x, y in … }`): `let (x, y) = …`.
            // One named like a function the chain calls, a name a later step reads or one declared
            // before the chain or bound by an earlier step gets a fresh name (`report` → `report2`), as a single parameter does.
            if names.count > 1 {
                let called = pendingPromise.map(ChainConversion.identifiers(in:)) ?? []
                var renamed: [String: String] = [:]
                for name in names where name != "_"
                    && (called.contains(name) || readLater.contains(name) || declared.contains(name) || boundNames.contains(name)) {
                    renamed[name] = freshName(stem: name)
                }
                let tokens = closure.statements.flatMap { $0.tokens(viewMode: .sourceAccurate) }.filter { token in
                    renamed[token.text] != nil && !ChainConversion.isMemberOrLabel(token)
                }
                let body = renamed.isEmpty ? closure.statements.map(ChainConversion.text(of:))
                    : Self.renaming(Dictionary(uniqueKeysWithValues: tokens.map { ($0.id, renamed[$0.text]!) }), in: closure)
                return ("(" + names.map { renamed[$0] ?? $0 }.joined(separator: ", ") + ")", body)
            }
            // `let titles = try await titles(limit: 3)` would read the new name in its own
            // initializer: the parameter gets another name.
            // So would a later step's `base` (a property, say) after `map { base in … }`.
            if pendingPromise.map({ ChainConversion.identifiers(in: $0).contains(names[0]) }) == true || readLater.contains(names[0])
                || declared.contains(names[0]) {
                let uses = parameterUses(names[0], in: closure)
                let name = freshName(for: pendingPromise)
                return (name, Self.renaming(uses, to: name, in: closure))
            }
            if let name = reboundName(names[0]) { return (name, Self.renaming(parameterUses(names[0], in: closure), to: name, in: closure)) }
            return (names[0], closure.statements.map(ChainConversion.text(of:)))
        }
        if anonymous.zero.isEmpty { return ("_", closure.statements.map(ChainConversion.text(of:))) }
        let name: String
        if let anonymousName {
            name = anonymousName
        } else if case .expression(let text) = pending, taken.contains(text), text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
            name = text
        } else if case .promise(let expression) = pending {
            name = freshName(for: expression)
        } else {
            name = freshName(for: nil)
        }
        return (name, Self.renaming(anonymous.zero, to: name, in: closure))
    }

    /// The closure's statements with `tokens` written as `name`.
    static func renaming(_ tokens: [TokenSyntax], to name: String, in closure: ClosureExprSyntax) -> [String] {
        renaming(Dictionary(uniqueKeysWithValues: tokens.map { ($0.id, name) }), in: closure)
    }

    /// The closure's statements with each token of `names` written as its name there.
    static func renaming(_ names: [SyntaxIdentifier: String], in closure: ClosureExprSyntax) -> [String] {
        closure.statements.map { item in
            item.tokens(viewMode: .sourceAccurate).map { token in
                names[token.id].map { token.leadingTrivia.description + $0 + token.trailingTrivia.description } ?? token.description
            }.joined().trimmingCharacters(in: .whitespacesAndNewlines)
        }.enumerated().map { index, text in ChainConversion.dedented(text, by: ChainConversion.column(of: Array(closure.statements)[index])) }
    }

    /// A single-expression closure body whose only `$0` is its leftmost base: the pending
    /// promise's awaited value can stand in its place (`try await f(x).map(\.title)`).
    func substitutable(_ closure: ClosureExprSyntax) -> Bool {
        guard case .promise = pending, ChainConversion.parameters(of: closure) == nil, closure.statements.count == 1,
              let expression = closure.statements.first?.item.as(ExprSyntax.self) else { return false }
        let anonymous = ChainConversion.anonymousArguments(of: closure)
        guard anonymous.zero.count == 1, !anonymous.others, let first = expression.firstToken(viewMode: .sourceAccurate) else { return false }
        return first.id == anonymous.zero[0].id && !pendingText.hasPrefix("try await (") && pendingText.hasPrefix("try await ")
    }

    /// `await Task.yield()` before the next step's code (ChainConversion+Order.swift). The value so far
    /// is bound first, so that its awaits and the steps that ran at once come before it.
    mutating func yieldBeforeNextStep() {
        if case .promise = pending {
            bind(freshName(for: pendingPromise))
        } else if case .expression(let text) = pending, text != "()", !boundNames.contains(text) {
            bind(freshName(for: nil))
        }
        lines.append("await Task.yield()")
    }

    /// The pending promise, when the value so far is one still to await.
    var pendingPromise: ExprSyntax? {
        if case .promise(let expression) = pending { return expression }
        return nil
    }

    /// `line` (one or several lines) indented by four spaces, blank lines left empty.
    static func indent(_ line: String) -> String {
        line.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
    }
}
