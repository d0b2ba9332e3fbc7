import SwiftSyntax

// `.nowOr(c)` off the caller's actor (issues 37 and 39).
//
// 1.x's `.nowOr(c)` decided once, when the callback was registered (while the chain was built,
// during the call): if the promise had already resolved, the closure ran at once, in the caller's
// thread, before the call returned; otherwise it ran on `c` once the promise resolved. A twin
// cannot ask whether an `await` suspended, but it can ask what 1.x asked, at the same moment:
// whether the promise has resolved (`promise.result != nil`), before awaiting it. So:
//
// - On the chain's base (the first step): the base is kept in a `let`, the flag taken from it at
//   once (the wrapper starts the twin synchronously, `Promise(on: .immediate)`, so that is still
//   during the call), and the closure's statements are written twice, once per path 1.x could
//   take: inline when the flag is set (an await of a resolved promise does not suspend, so they
//   run during the call, before the caller's next statement, as 1.x ran them), else in
//   `withTaskExecutorPreference(c.taskExecutor) { @concurrent in … }`, on `c`, nonisolated, as
//   1.x's `Named` closure. One executor chosen at run time cannot stand for both: a `@concurrent`
//   closure with no executor still hops to the global executor (not during the call), and one
//   that is not `@concurrent` stays on the caller's actor (not on `c`). Steps: `map`, `then`, and a
//   `flatMap` of one expression (its promise awaited on each path). When it is the chain's last
//   step the wrapper ends in `.then(on: .nowOr(c)) { _ in }`, so that its promise resolves where
//   1.x's did (at once, or on `c`), for its `.immediate` observers. `.nowOr(.main)` off the main
//   actor: ChainConversion+NowOrMain.swift.
// - After a step that 1.x enqueued (a value step or handler on a context other than `.immediate`
//   or `.nowOr`), the promise `.nowOr` sees cannot have resolved when the chain was built: it is
//   `c`, and is written as `c`.
// - Elsewhere (after steps that all ran at once) the promise may or may not have resolved when the
//   chain was built, and no promise of the twin's holds that answer: the chain stays, with its reason.

extension ChainConversion {
    /// Operators whose promise is a new one, resolved after their callback ran (`tap` returns its receiver).
    static let newPromiseOperators: Set<String> = [
        "then", "map", "flatMap", "catch", "recover", "mapError", "flatMapError", "always", "mapResult", "flatMapResult",
    ]

    /// `.nowOr(c)` (or `PromiseContext.nowOr(c)`): `c`; else nil.
    static func nowOrInner(_ context: ExprSyntax?) -> ExprSyntax? {
        guard let call = context?.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              member.declName.baseName.text == "nowOr", call.arguments.count == 1, call.trailingClosure == nil else { return nil }
        if let base = member.base, base.trimmedDescription != "PromiseContext" { return nil }
        return call.arguments.first?.expression
    }

    /// Whether 1.x always ran a callback on `context` after the call that registered it returned:
    /// no context (`.auto`), `.auto`, `.main`, a global queue, `.queue(q)`, `.operationQueue(q)`, a
    /// `PromiseContext.Named(…)`, or a context of the user's on `PromiseContext.Main`. (A custom
    /// context or a value might hold `.immediate`: not known.)
    func alwaysEnqueued(_ context: ExprSyntax?) -> Bool {
        guard let context else { return true }
        var spelled = context.trimmedDescription
        if spelled.hasPrefix("PromiseContext.") { spelled = String(spelled.dropFirst("PromiseContext".count)) }
        let builtIn: Set<String> = [".auto", ".main", ".background", ".utility", ".default", ".userInitiated", ".userInteractive"]
        if builtIn.contains(spelled) || spelled.hasPrefix(".queue(") || spelled.hasPrefix(".operationQueue(") { return true }
        if spelled.hasPrefix(".Named(") || spelled.hasPrefix("Named(") { return true }
        if spelled.hasPrefix("."), mainContexts.contains(String(spelled.dropFirst())) { return true }
        return false
    }

    /// The steps, with each `.nowOr(c)` after a step 1.x enqueued written as `c` (its promise had not resolved when the chain was built).
    func settlingNowOr(_ steps: [Step]) -> [Step] {
        var settled = steps
        var enqueued = false
        for index in settled.indices {
            if enqueued, let inner = Self.nowOrInner(settled[index].context) { settled[index].context = inner }
            if Self.newPromiseOperators.contains(settled[index].name), alwaysEnqueued(settled[index].context) { enqueued = true }
        }
        return settled
    }
}

extension Writer {
    /// A first step on `.nowOr(c)` (`nowOrSteps`) whose `c` does not run inline: the chain's base in
    /// a `let`, and whether it had resolved, taken before any await (`nowOrBase`).
    mutating func bindNowOrBase(of steps: [ChainConversion.Step]) throws {
        guard let first = steps.first, let inner = ChainConversion.nowOrInner(first.context), let context = first.context,
              let promise = pendingPromise else { return }
        var probe = self
        guard case .executor = try probe.placement(of: inner) else { return }
        // `.nowOr(.main)` off the main actor: its closure is isolated to the main actor (ChainConversion+NowOrMain.swift).
        let onMain = isMainContext(inner)
        guard ChainConversion.nowOrSteps.contains(first.name) else {
            throw Left("`\(first.name)` on `\(context.trimmedDescription)` (not converted yet: a limit of the tool; "
                + ChainConversion.nowOrSteps.sorted().map { "`\($0)`" }.joined(separator: ", ") + " are)")
        }
        let writer = self
        try hoistNowOrBase(promise, of: first, flag: { name, flag in
            onMain ? writer.mainNowOrFlag(flag, of: name) : [
                "// 1.x's `.nowOr`: at once if it had already resolved here, else on its context.",
                "let \(flag) = \(name).result != nil",
            ]
        })
        nowOrOnMain = onMain
    }

    /// The chain's base in a `let` (its type spelled) and the lines `flag` gives, which take whether it had resolved,
    /// before any await; the pending promise is that `let`, consumed, and `nowOrBase` the first step's context and the flag.
    mutating func hoistNowOrBase(_ promise: ExprSyntax, of first: ChainConversion.Step, flag flagLines: (String, String) -> [String]) throws {
        guard let context = first.context else { return }
        let name = freshName(stem: "promise")
        let flag = freshName(stem: "resolvedAtOnce")
        let text = ChainConversion.dedented(promise.trimmedDescription, by: ChainConversion.lineIndentation(of: promise))
        // Its type spelled: in async code a call with an async twin would pick the twin.
        var annotation = first.baseType.map { ": " + $0.spelled } ?? ""
        if annotation.isEmpty, let call = promise.as(FunctionCallExprSyntax.self), conversion.hasTwin(call) {
            guard let type = conversion.typeOfCall(call) else { throw Left("a `.nowOr` context on a promise whose type is not known") }
            annotation = ": " + type
        }
        // Before the `do` of a handler on it too, whose `catch` reads the flag.
        hoisted.append("let \(name)\(annotation) = \(text)")
        hoisted += flagLines(name, flag)
        pending = .promise(ChainConversion.parse("(consume \(name))"))
        nowOrBase = (context.id, flag)
    }

    /// The `.nowOr(c)` of the chain's last step (a step that makes a promise) whose `c` is not inline: 1.x's promise
    /// resolved at once (a resolved base) or on `c`, where its `.immediate` observers ran; the wrapper's promise is
    /// made to resolve so, by a `.then(on: .nowOr(c)) { _ in }` (a twin that returns in the call has resolved it at
    /// once; one that returns from `c`'s executor has not, so the `then` runs on `c`).
    func resolvedOn(last: ChainConversion.Step?) -> String? {
        guard let last, last.isLast, ChainConversion.newPromiseOperators.contains(last.name), let context = last.context,
              let inner = ChainConversion.nowOrInner(context) else { return nil }
        var probe = self
        guard case .executor = try? probe.placement(of: inner) else { return nil }
        return context.trimmedDescription
    }

    /// Whether `context` is `.main` or another `PromiseContext.Main` (`.ui`, a property of that type).
    func isMainContext(_ context: ExprSyntax) -> Bool {
        var spelled = context.trimmedDescription
        if spelled.hasPrefix("self.") { spelled = String(spelled.dropFirst("self.".count)) }
        if spelled.hasPrefix("PromiseContext.") { spelled = String(spelled.dropFirst("PromiseContext".count)) }
        if spelled == ".main" || spelled.hasPrefix("Main.") || spelled.hasPrefix(".Main.") { return true }
        if spelled.hasPrefix("."), conversion.mainContexts.contains(String(spelled.dropFirst())) { return true }
        return conversion.storedContexts[spelled]?.type.hasSuffix("PromiseContext.Main") == true
    }

    /// The closure's statements on both of `.nowOr`'s paths: inline when `flag`, else on `executor`.
    mutating func runNowOr(_ body: [String], step: ChainConversion.Step, flag: String, executor: String, result: Bool) throws -> String {
        if nowOrOnMain { return try runNowOrMain(body, step: step, flag: flag, result: result) }
        if ChainConversion.promiseSteps.contains(step.name), !ChainConversion.isOneExpression(step.closure) {
            return try runNowOrPromise(body, step: step, flag: flag, executor: executor)
        }
        let outer = lines
        lines = []
        var inlineValue = try run(body, step: step, placement: .inline, result: result)
        // A `flatMap`'s promise, awaited where the closure ran (on the executor, the closure's own `return` awaits it).
        if ChainConversion.promiseSteps.contains(step.name), !returned { inlineValue = conversion.awaited(ChainConversion.parse(inlineValue)) }
        let inlineLines = lines
        lines = []
        let concurrentValue = try run(body, step: step, placement: .executor(executor), result: result)
        let concurrentLines = lines
        lines = outer
        if returned { throw Left("a closure on `.nowOr` that returns early") }
        guard result else {
            lines += ["if \(flag) {"] + inlineLines.map(Self.indent) + ["} else {"] + concurrentLines.map(Self.indent) + ["}"]
            return "()"
        }
        guard let type = nowOrType(of: step, wholePromise: false) else {
            throw Left("a `\(step.name)` on `.nowOr` whose value type is not known")
        }
        let name = freshName(for: nil)
        lines += ["let \(name): \(type)", "if \(flag) {"] + (inlineLines + ["\(name) = \(inlineValue)"]).map(Self.indent)
            + ["} else {", Self.indent("\(name) = \(concurrentValue)"), "}"]
        boundNames.insert(name)
        return name
    }
}

extension Writer {
    /// The type of the `let` a `.nowOr` step's two paths assign: the closure's declared type, else
    /// the compiler's type of the step, else (the chain's last step) the function's. Its value
    /// (`mapError`: the error it gives), or with `wholePromise` the promise a `flatMap`'s closure
    /// returns, awaited after.
    func nowOrType(of step: ChainConversion.Step, wholePromise: Bool) -> String? {
        let declared = step.closure.signature?.returnClause?.type
        let function = step.isLast ? conversion.functionPromise : nil
        if wholePromise { return declared?.trimmedDescription ?? step.type?.spelled ?? function?.spelled }
        if step.name == "mapError" { return declared?.trimmedDescription ?? step.type?.error ?? function?.error }
        let declaredValue = ChainConversion.promiseSteps.contains(step.name) ? declared.flatMap { PromiseType($0)?.value } : declared?.trimmedDescription
        return declaredValue ?? step.type?.value ?? function?.value
    }
}
