// `convert-body`, the syntax half, continued: the end of the chain (error handlers, `always`,
// `tap`, `onCancel`) around the value steps' statements, then the twin's `return`.

import SwiftParser
import SwiftSyntax

extension Writer {
    /// The steps at the end of the chain, by kind: its error handler, its `always` and `tap`
    /// steps, its `onCancel` steps.
    struct EndSteps {
        var handlers: [ChainConversion.Step] = []
        var always: [ChainConversion.Step] = []
        var cancels: [ChainConversion.Step] = []
    }

    /// What the `always` and `tap { _ in … }` steps at the end become.
    struct AlwaysCode {
        /// The statements of the `defer` (inline `always` code).
        var deferred: [String] = []
        /// `always` on a named context: its closure hops there, which a `defer` cannot; it runs
        /// on every path instead (after the value, after the handler, on cancellation).
        var finally: [String] = []
        /// Whether an `always` hops (on a named context, or on `.nowOr`: one of its two paths hops).
        var hops = false
        /// A last `tap { _ in … }` on a named context: started, not awaited, on every path (ChainConversion+FinalTap.swift).
        var startsTap: [String] = []
    }

    /// The error handlers and `always` at the end of the chain, then the `return`.
    mutating func finish(tail: [ChainConversion.Step]) throws {
        if try finishedAlone(tail) { return }
        let end = try endSteps(tail)
        let cancelClause = try cancelClause(end)
        var code = try alwaysCode(end.always)
        if code.hops {
            try requireHopsAllowed(end)
            code.deferred = []
        }
        var main = try handled(valueLines(code), end: end, code: code, cancelClause: cancelClause)
        if !code.deferred.isEmpty {
            main.insert(contentsOf: ["defer {"] + code.deferred.map(Self.indent) + ["}"], at: 0)
        }
        // First, so that it runs last: after an `always`'s `defer`, as 1.x's `tap` ran after the promise resolved.
        main.insert(contentsOf: code.startsTap, at: 0)
        lines = main
    }

    /// The ends written by a step of their own (whether `tail` was one): a final `mapResult`
    /// (ChainConversion+ResultTail.swift), or a final `tap` or `always` that reads the result;
    /// declines a `mapResult` with steps after it here.
    mutating func finishedAlone(_ tail: [ChainConversion.Step]) throws -> Bool {
        if let step = tail.first(where: ChainConversion.isResultStep), let first = tail.first {
            // Where the chain can be split there, the steps before it become a local function (ChainConversion+Split.swift).
            throw Left("`\(step.name)` with steps after it, after `\(first.name)` (a limit of the tool where the chain is not split there: "
                + "in a `TokenPromise` function, or one whose promise type is not known)")
        }
        if let last = tail.last, ChainConversion.resultOperators.contains(last.name) {
            // After an error handler, `always` or `tap`: the steps are a local function (ChainConversion+ResultTail.swift).
            guard tail.count == 1 else { throw Left("`\(last.name)` after `\(tail[0].name)`") }
            try mapResult(last)
            return true
        }
        // A final `tap` or `always` that reads the result: the result is taken, the closure runs, the result is returned.
        if tail.count == 1, let step = tail.first, step.isLast, ["tap", "always"].contains(step.name), step.readsParameter {
            try resultObserver(step)
            return true
        }
        return false
    }

    /// The steps at the end sorted by kind, in order; a `tap` that reads the result before the
    /// chain's one error handler is written here. Declines a value step after an error handler,
    /// a step after `always`, and several error handlers.
    mutating func endSteps(_ tail: [ChainConversion.Step]) throws -> EndSteps {
        var end = EndSteps()
        for (index, step) in tail.enumerated() {
            if step.name == "tap", step.readsParameter {
                // Before the chain's one error handler: the result taken and observed; the handler's `do`/`catch`
                // then takes the error the result's `switch` throws.
                if index == 0, tail.count == 2, ChainConversion.errorOperators.contains(tail[1].name) {
                    try resultObserver(step, beforeHandler: true)
                    continue
                }
                throw Left("`tap` that reads the result, not at the end of the chain or before its one error handler")
            }
            // `tap { _ in … }` returns its promise and runs the closure whatever the result: as `always`
            // (the last one on a named context is started, not awaited: `alwaysCode`).
            if step.name == "always" || step.name == "tap" {
                end.always.append(step)
            } else if ChainConversion.valueOperators.contains(step.name) {
                throw Left("`\(step.name)` after an error handler")
            } else if !end.always.isEmpty {
                throw Left("`\(step.name)` after `always`")
            } else if step.name == "onCancel" {
                end.cancels.append(step)
            } else {
                end.handlers.append(step)
            }
        }
        if end.handlers.count > 1 { throw Left("several error handlers in one chain") }
        return end
    }

    /// `onCancel` at the end, before or after the error handler (they see disjoint errors): a
    /// `catch` of `CancellationError` that runs its statements (on its context) and rethrows.
    /// No lines without `onCancel`.
    mutating func cancelClause(_ end: EndSteps) throws -> [String] {
        guard !end.cancels.isEmpty else { return [] }
        if conversion.noError, !end.handlers.isEmpty { throw Left("`onCancel` beside a handler of a promise that cannot fail") }
        var handling: [String] = []
        for step in end.cancels {
            if ChainConversion.parameters(of: step.closure).map({ !$0.names.isEmpty }) == true {
                throw Left("an `onCancel` closure with a parameter")
            }
            let placement = try placement(of: step)
            let outer = lines
            lines = []
            try run(step.closure.statements.map(ChainConversion.text(of:)), step: step, placement: placement, result: false)
            handling += lines
            lines = outer
        }
        return ["} catch let error as CancellationError {"] + (handling + ["throw error"]).map(Self.indent)
    }

    /// The code of the `always` and `tap { _ in … }` steps at the end: in a `defer`, on every
    /// path where one hops, and a last `tap` on a named context started, not awaited.
    mutating func alwaysCode(_ always: [ChainConversion.Step]) throws -> AlwaysCode {
        var code = AlwaysCode()
        for step in always {
            let placement = try placement(of: step)
            if let executor = notAwaitedTapExecutor(step, placement: placement) {
                let (_, body) = try parameter(of: notAwaitedTapClosure(step))
                code.startsTap = ["defer {"] + notAwaitedTask(body, of: step, executor: executor).map(Self.indent) + ["}"]
                continue
            }
            let (name, body) = try parameter(of: step.closure)
            if name != "_" { throw Left("`always` reads the result") }
            code.deferred += guarded(body, by: step)
            let outer = lines
            lines = []
            try run(body, step: step, placement: placement, result: false)
            code.finally += lines
            lines = outer
            // On `.nowOr` too: one of its two paths hops.
            if case .inline = placement {} else { code.hops = true }
        }
        return code
    }

    /// Declines an `always` that hops where its code cannot run on every path by a `catch`: beside
    /// a handler of a promise that cannot fail, with `onCancel`, after a handler or a `flatMap` that returns.
    func requireHopsAllowed(_ end: EndSteps) throws {
        // A promise that cannot fail: the `catch` below sees only `CancellationError` (the do's
        // awaits throw nothing else), runs the code there and rethrows it, typed as the twin's.
        if conversion.noError, let handler = end.handlers.first {
            throw Left("`always` on a named context beside a `\(handler.name)` in a chain whose promise cannot fail")
        }
        if !end.cancels.isEmpty { throw Left("`onCancel` and `always` on a named context at the end of one chain") }
        if returned || end.handlers.contains(where: { $0.name != "catch" }) {
            throw Left("`always` on a named context after a `\(end.handlers.first?.name ?? "flatMap")` that returns (a `defer` cannot hop)")
        }
    }

    /// The lines so far, then the twin's `return` of the value (with an `always` that hops, its
    /// code before the `return`).
    mutating func valueLines(_ code: AlwaysCode) -> [String] {
        let finalLine: String
        let value = pendingText
        if returned {
            finalLine = ""
        } else if conversion.returnsVoid {
            finalLine = value == "()" ? "" : (conversion.returnsVoidExpression(value) ? value : "_ = " + value)
        } else {
            finalLine = "return " + value
        }
        var main = lines
        if code.hops {
            // `return x` after the `always` code: `let value = x`, the code, `return value`.
            if conversion.returnsVoid {
                if !finalLine.isEmpty { main.append(finalLine) }
                main += code.finally
            } else if boundNames.contains(value) {
                main += code.finally + ["return \(value)"]
            } else {
                let kept = freshName(for: nil)
                main += ["let \(kept) = " + value] + code.finally + ["return \(kept)"]
            }
        } else if !finalLine.isEmpty {
            main.append(finalLine)
        }
        return main
    }

    /// `main` in the `do` of the error handler, of `onCancel`'s `catch`, or of the `catch` that
    /// runs an `always` that hops (and rethrows); as it is without them.
    mutating func handled(_ main: [String], end: EndSteps, code: AlwaysCode, cancelClause: [String]) throws -> [String] {
        if let handler = end.handlers.first {
            if conversion.noError, !["recover", "flatMapError"].contains(handler.name) {
                throw Left("`\(handler.name)` in a chain whose promise cannot fail")
            }
            var (clause, handling) = try handlerLines(handler, assigning: nil)
            guard code.hops else { return ["do {"] + main.map(Self.indent) + cancelClause + clause + handling.map(Self.indent) + ["}"] }
            // The handler rethrows (`catch`): the `always` code runs before it does.
            handling.insert(contentsOf: code.finally, at: handling.count - 1)
            return ["do {"] + main.map(Self.indent) + clause + handling.map(Self.indent) + ["} catch {"]
                + (code.finally + ["throw error"]).map(Self.indent) + ["}"]
        }
        if !cancelClause.isEmpty { return ["do {"] + main.map(Self.indent) + cancelClause + ["}"] }
        if code.hops { return ["do {"] + main.map(Self.indent) + ["} catch {"] + (code.finally + ["throw error"]).map(Self.indent) + ["}"] }
        return main
    }

    /// `onCancel` after the value steps so far: they run in a `do` whose `catch` of
    /// `CancellationError` (what the twin's awaits throw when their promise is cancelled, and a
    /// token's cancelled step) runs the handler's statements (on its context) and rethrows; the
    /// value is kept in a `let` declared before the `do` (the compiler's type of the step's base).
    mutating func cancelHandler(_ step: ChainConversion.Step) throws {
        if returned { throw Left("an `onCancel` handler after a `flatMap` whose closure returns early") }
        if ChainConversion.parameters(of: step.closure).map({ !$0.names.isEmpty }) == true { throw Left("an `onCancel` closure with a parameter") }
        let placement = try placement(of: step)
        let body = step.closure.statements.map(ChainConversion.text(of:))
        let outer = lines
        lines = []
        try run(body, step: step, placement: placement, result: false)
        let handling = lines + ["throw error"]
        lines = outer
        let clause = ["} catch let error as CancellationError {"] + handling.map(Self.indent) + ["}"]
        let value = pendingText
        let isVoid = value == "()" || step.baseType.map { ["Void", "()", "Swift.Void"].contains($0.value) } == true
        if isVoid {
            var main = lines
            if value != "()" { main.append(conversion.returnsVoidExpression(value) ? value : "_ = " + value) }
            lines = ["do {"] + main.map(Self.indent) + clause
            pending = .expression("()")
            return
        }
        guard let valueType = step.baseType?.value else { throw Left("an `onCancel` handler on a value whose type is not known") }
        let name = freshName(for: pendingPromise)
        lines = ["let \(name): \(valueType)", "do {"] + (lines + ["\(name) = " + value]).map(Self.indent) + clause
        boundNames.insert(name)
        pending = .expression(name)
    }

    /// A final `tap` or `always` whose closure reads the result (`PromiseResult<Value, Error>`):
    /// the value steps in a `do` whose end and `catch` clauses set the result (`.value`, the
    /// promise's `.error`, `.cancelled` for `CancellationError`), the closure's statements (on
    /// its context), then the result as the twin's return or throw. An `always` ran before its
    /// promise resolved, as here; a last `tap` on a named context is started on it and not awaited
    /// (ChainConversion+FinalTap.swift), elsewhere it runs before the twin returns, one of the
    /// orders 1.x allowed.
    /// Before an error handler (`beforeHandler`), the result is the upstream promise's (the
    /// compiler's type of the step), and the handler's `do`/`catch` takes the error the `switch` throws.
    mutating func resultObserver(_ step: ChainConversion.Step, beforeHandler: Bool = false) throws {
        if returned { throw Left("`\(step.name)` after a `flatMap` whose closure returns early") }
        if beforeHandler ? step.baseType?.hasNoError == true : conversion.noError {
            throw Left("`\(step.name)` that reads the result of a promise that cannot fail")
        }
        guard let type = beforeHandler ? step.baseType : conversion.functionPromise ?? step.baseType else {
            throw Left("`\(step.name)` that reads a result whose type is not known")
        }
        let placement = try placement(of: step)
        // A `tap` on a named context is started, not awaited (ChainConversion+FinalTap.swift).
        let taskExecutor = beforeHandler ? nil : notAwaitedTapExecutor(step, placement: placement)
        let closure = taskExecutor == nil ? step.closure : notAwaitedTapClosure(step)
        // The result's `let` stands beside the value steps' `let`s: a parameter named like one is renamed.
        let outerDeclared = declared
        declared.formUnion(boundNames)
        var (name, body) = try parameter(of: closure, anonymousName: "result")
        declared = outerDeclared
        if name.hasPrefix("(") { throw Left("`\(step.name)` whose closure takes several parameters") }
        if boundNames.contains(name) || declared.contains(name) {
            // `$0`, named `result` here, where a value step's `let` has that name.
            let fresh = freshName(stem: "result")
            body = Self.renaming(ChainConversion.anonymousArguments(of: closure).zero, to: fresh, in: closure)
            name = fresh
        }
        taken.insert(name)
        lines = resultOfSteps(named: name, type: type)
        if let taskExecutor {
            lines += notAwaitedTask(body, of: step, executor: taskExecutor)
        } else {
            try run(body, step: step, placement: placement, result: false)
        }
        let valueCase = ["Void", "()", "Swift.Void"].contains(type.value) ? "case .value: break" : "case .value(let value): return value"
        lines += ["switch \(name) {", valueCase, "case .error(let error): throw error", "case .cancelled: throw CancellationError()", "}"]
        returned = true
    }
}
