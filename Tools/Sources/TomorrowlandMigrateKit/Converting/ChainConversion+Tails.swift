// `convert-body`: a chain whose last operators act on the whole chain before them, which the
// twin keeps as they were around the steps' own code, an async local function:
// - `timeout(on:delay:)` after steps. TomorrowlandAsync has no async timeout, so the twin keeps
//   the chain's: the local function, started at once by `StdPromise(on: .immediate)` (in the call,
//   in the caller's isolation, as the chain registered its callbacks), and that promise's
//   `timeout` awaited.
// - `.map(on: .immediate) { _ in }.recover(on: .immediate) { _ in }` making a `Promise<Void,
//   NoError>` of the steps: the local function awaited in a `do` whose `catch` ends every error
//   but cancellation (the steps' own handlers, `always` included, run first, as before).
// - a final `mapResult` or `flatMapResult` after an error handler, `always` or `tap`: the local
//   function's result is the closure's (ChainConversion+ResultTail.swift).
// - `delay(on:_:)` or `ignoringCancel()` after steps (Orders' `fetchStatus`, `map(on: .utility)
//   { … }.delay(on: .queue(kitchen), d)`): TomorrowlandAsync has neither, so the twin keeps the
//   chain's, as for `timeout`: the steps' promise, started at once, with the operator, awaited.
//   `delay` passes every result on late on its context (errors and cancellation too), and a
//   cancel request passes through it to the steps, whose Task the request cancels, as 1.x's
//   passed it to their promises; `ignoringCancel` keeps the steps running in their own Task,
//   which the twin's cancellation does not reach, and delivers their outcome.

import Foundation
import SwiftSyntax

extension ChainConversion {
    /// The last operators of a chain that the twin keeps around its steps.
    enum Tail {
        /// `timeout(on: c, delay: d)`: its arguments as written.
        case timeout(arguments: String)
        /// `.map { _ in }.recover { _ in }` (or `.recover { _ in }` alone, on a `Void` promise).
        case recoverAll
        /// A final `mapResult` or `flatMapResult` (its call), after steps whose code returns from the twin (an error
        /// handler, `always`, `tap`): ChainConversion+ResultTail.swift.
        case resultMap(FunctionCallExprSyntax)
        /// `delay(on: c, d)` or `ignoringCancel()`: the call as written (`delay(on: c, d)`), kept on the steps' promise;
        /// `delay`'s named context, where 1.x's promise resolved.
        case onSteps(call: String, context: ExprSyntax?)
        /// Not the last operator: a `timeout` or a `mapResult` after a handler (`call`), with `after` steps after the split
        /// (ChainConversion+Split.swift).
        case split(FunctionCallExprSyntax, after: Int)

        /// Whether the steps' promise has the function's type.
        var keepsType: Bool {
            if case .onSteps = self { return true }
            return false
        }
    }

    /// The tail of `expression` and the chain before it, when it ends in one after steps, or has a split point.
    static func tail(of expression: ExprSyntax) -> (Tail, ExprSyntax)? {
        if let final = finalTail(of: expression) { return final }
        return splitPoint(of: expression).map { (.split($0.call, after: $0.after), $0.before) }
    }

    /// The last operator of `expression` as a `Tail` and the chain before it, when it is one after steps.
    static func finalTail(of expression: ExprSyntax) -> (Tail, ExprSyntax)? {
        guard let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base, isOperatorCall(base), call.additionalTrailingClosures.isEmpty else { return nil }
        switch member.declName.baseName.text {
        case "timeout":
            guard call.trailingClosure == nil, call.arguments.contains(where: { $0.label?.text == "delay" }) else { return nil }
            return (.timeout(arguments: call.arguments.map(\.trimmedDescription).joined(separator: " ")), base)
        case "recover":
            guard isEmptyCallback(call) else { return nil }
            if let mapped = base.as(FunctionCallExprSyntax.self), let inner = mapped.calledExpression.as(MemberAccessExprSyntax.self),
               inner.declName.baseName.text == "map", let innerBase = inner.base, isOperatorCall(innerBase), isEmptyCallback(mapped) {
                return (.recoverAll, innerBase)
            }
            return (.recoverAll, base)
        case "mapResult", "flatMapResult":
            return (.resultMap(call), base)
        case "delay", "ignoringCancel":
            guard call.trailingClosure == nil else { return nil }
            let text = "\(member.declName.baseName.text)(\(call.arguments.map(\.trimmedDescription).joined(separator: " ")))"
            let context = call.arguments.first { $0.label?.text == "on" }?.expression
            return (.onSteps(call: text, context: context.flatMap { isImmediate($0) || $0.trimmedDescription == ".auto" ? nil : $0 }), base)
        default:
            return nil
        }
    }

    /// `op(on: .immediate) { _ in }` or `op { _ in }`: a callback that ignores its input and does nothing.
    static func isEmptyCallback(_ call: FunctionCallExprSyntax) -> Bool {
        var closure = call.trailingClosure
        for argument in call.arguments {
            switch argument.label?.text {
            case "on": guard isImmediate(argument.expression) else { return false }
            case nil: closure = argument.expression.as(ClosureExprSyntax.self)
            default: return false
            }
        }
        guard let closure, closure.statements.isEmpty, let names = parameters(of: closure)?.names else { return false }
        return names == ["_"]
    }

    /// A chain that ends in a `Tail` after steps, converted; nil when the body ends otherwise.
    ///
    /// `timeout`:
    /// ```swift
    /// func untimed() async throws -> [String] {
    ///     try await latestPosts(limit: 3).map(\.title)
    /// }
    /// return try await StdPromise(on: .immediate) { try await untimed() }.timeout(on: .immediate, delay: seconds).value
    /// ```
    /// What stays as it was: the timer and its context; on timing out, the steps' promise is
    /// asked to cancel as one observer (no handle to it is kept), so the Task running them is
    /// cancelled and the request reaches the source, as the steps' promises passed it on; a
    /// cancelled caller asks the timeout's promise to cancel, which passes the request on. The
    /// statements before the chain run first, outside the local function. Errors: an untyped
    /// chain's timeout throws `PromiseTimeoutError<Swift.Error>.timedOut` and passes the steps'
    /// errors on, as the untyped `timeout` did; a typed one (`Promise<T, PromiseTimeoutError<E>>`)
    /// catches both and throws `PromiseTimeoutError<E>.timedOut` and `.rejected(error)`, as the
    /// generic `timeout` made them.
    ///
    /// `recoverAll`: `do { _ = try await steps() } catch let error as CancellationError { throw
    /// error } catch {}`: the value is dropped, an error ends there, cancellation goes on.
    /// Tried when the chain's own conversion left it (`left`), whose reason stays when this fails too (but a
    /// `timeout`'s, which is more precise than "`timeout` after a step").
    func convertedWithTail(_ original: CodeBlockSyntax, left: Left) -> Result<Converted, Left> {
        guard !stripsTail, let last = original.statements.last,
              let expression = last.item.as(ReturnStmtSyntax.self)?.expression ?? last.item.as(ExprSyntax.self),
              let (tail, chained) = Self.tail(of: expression) else { return .failure(left) }
        if case .split(let call, let after) = tail {
            // The split's own reason, when it fails too: more precise than the step the chain's conversion stopped at.
            do {
                guard let converted = try convertedSplit(original, at: call, after: after, before: chained) else { return .failure(left) }
                return .success(converted)
            } catch {
                return .failure(error as? Left ?? left)
            }
        }
        do {
            guard let converted = try convertedWithTail(original, tail: tail, chained: chained) else { return .failure(left) }
            return .success(converted)
        } catch {
            switch tail {
            case .timeout, .resultMap: return .failure(error as? Left ?? left)
            case .recoverAll, .onSteps, .split: return .failure(left)
            }
        }
    }

    /// The chain's steps converted apart (`stripsTail`), their lines a local function, and the
    /// tail around it; nil where the tail is not converted so.
    private func convertedWithTail(_ original: CodeBlockSyntax, tail: Tail, chained: ExprSyntax) throws -> Converted? {
        guard !tokenPromise, let function = functionPromise, let steps = try stepsPromise(tail: tail, function: function, chained: chained) else {
            return nil
        }
        // An early return in the statements before the chain returned the function's promise: not the steps'.
        // (For `delay` and `ignoringCancel` it is the same type, and it was not delayed: the twin's `throw` is not either.)
        for statement in original.statements.dropLast() where !tail.keepsType && Self.containsReturn(Syntax(statement)) {
            throw Left("a chain that ends in `timeout` or `recover { _ in }`, with an early `return` before it")
        }
        let inner = forSteps(of: steps)
        let converted = try inner.converted(original)
        guard let chainLines = converted.chainLines else { throw Left("a chain that ends in `timeout` or `recover { _ in }`") }
        return try tailLines(original, tail: tail, steps: steps, inner: inner, lines: converted.lines, chainLines: chainLines)
    }

    /// The steps' promise: for `timeout`, the function's value and `E` of `PromiseTimeoutError<E>` (or untyped);
    /// for `recoverAll`, the compiler's type of the chain before it; nil where the tail is not converted so.
    private func stepsPromise(tail: Tail, function: PromiseType, chained: ExprSyntax) throws -> PromiseType? {
        switch tail {
        case .timeout:
            var stepsError = "Swift.Error"
            if !function.hasUntypedError {
                guard let inner = Self.timeoutErrorArgument(function.error),
                      !PromiseType.untypedErrorNames.contains(inner), !["NoError", "Tomorrowland.NoError"].contains(inner) else {
                    throw Left("`timeout` after a step whose promise's error is `\(function.error)` (not `PromiseTimeoutError<E>` of a typed `E`)")
                }
                stepsError = inner
            }
            let spelled = stepsError == "Swift.Error" ? "StdPromise<\(function.value)>" : "Promise<\(function.value), \(stepsError)>"
            guard let type = Self.promiseType(spelled: spelled) else { throw Left("`timeout` after steps whose promise type is not known") }
            return type
        case .onSteps:
            // The steps' promise is the function's (neither operator changes its type); a typed twin
            // of a promise that cannot fail would not take `.value`'s untyped throw.
            return function.hasNoError ? nil : function
        case .recoverAll:
            guard returnsVoid, function.hasNoError else { return nil }
            guard let call = chained.as(FunctionCallExprSyntax.self), let spelled = typeOfCall(call), let type = Self.promiseType(spelled: spelled) else {
                throw Left("`recover { _ in }` after the steps of a chain whose type is not known")
            }
            return type
        case .resultMap(let call):
            return try resultTailInput(call, chained: chained)
        case .split:
            return nil
        }
    }

    /// The twin's lines: the statements before the chain (`lines`), the steps (`chainLines`) as an
    /// async local function, and the tail that awaits it, by the tail's kind.
    private func tailLines(_ original: CodeBlockSyntax, tail: Tail, steps: PromiseType, inner: ChainConversion, lines preamble: [String],
                           chainLines: [String]) throws -> Converted? {
        let taken = Self.identifiers(in: original)
        var lines = preamble
        // The steps as an async local function (`timeout`, `recoverAll` and `onSteps` await it).
        func localFunction(_ name: String) -> [String] {
            Self.localFunction(name, of: steps, chainLines: chainLines)
        }
        switch tail {
        case .timeout(let arguments):
            let name = Self.firstFree("untimed", avoiding: taken)
            lines += localFunction(name)
            lines += Self.timeoutLines(awaiting: name, arguments: arguments, steps: steps)
        case .recoverAll:
            let name = Self.firstFree("steps", avoiding: taken)
            lines += localFunction(name)
            lines += ["do {", Self.indented((inner.returnsVoid ? "" : "_ = ") + "try await \(name)()")]
            lines += ["} catch let error as CancellationError {", Self.indented("throw error"), "} catch {", "}"]
        case .resultMap(let call):
            lines += try resultTailLines(call, steps: steps, chainLines: chainLines, taken: taken)
        case .split:
            return nil
        case .onSteps(let call, let context):
            let name = Self.firstFree(call.hasPrefix("delay") ? "undelayed" : "steps", avoiding: taken)
            lines += localFunction(name)
            let awaited = "try await StdPromise(on: .immediate) { try await \(name)() }.\(call).value"
            lines.append(returnsVoid ? awaited : "return " + awaited)
            // The wrapper's promise resolves on `delay`'s context, as 1.x's did (its `.immediate` observers ran
            // there), a value, an error or a cancellation, when the wrapper sees that context: no name the function declares.
            if let context, Self.identifiers(in: context).isDisjoint(with: ConvertBody.boundNames(in: Syntax(original))) {
                var converted = Converted(lines: lines, token: nil)
                converted.resolvedOn = context.trimmedDescription
                converted.resolvedOnEveryResult = true
                return converted
            }
        }
        return Converted(lines: lines, token: nil)
    }

    /// This conversion for the steps before a tail or a split, whose promise is `steps`: their lines apart (`stripsTail`).
    func forSteps(of steps: PromiseType) -> ChainConversion {
        var inner = self
        inner.stripsTail = true
        inner.functionPromise = steps
        inner.promiseType = steps.spelled
        inner.typedError = steps.hasUntypedError || steps.hasNoError ? "" : steps.error
        inner.noError = steps.hasNoError
        inner.returnsVoid = ["Void", "()", "Swift.Void"].contains(steps.value)
        return inner
    }

    /// The steps' lines as the async local function `name` (awaited for their value).
    static func localFunction(_ name: String, of steps: PromiseType, chainLines: [String]) -> [String] {
        let isVoid = ["Void", "()", "Swift.Void"].contains(steps.value)
        return ["func \(name)() async throws\(isVoid ? "" : " -> \(steps.value)") {"] + chainLines.map(indented) + ["}"]
    }

    /// The steps' local function `name` awaited through the promise that starts it at once, with the `timeout` of the
    /// chain, its value returned; a typed chain's errors mapped back as the generic `timeout` made them.
    static func timeoutLines(awaiting name: String, arguments: String, steps: PromiseType) -> [String] {
        let awaited = "try await StdPromise(on: .immediate) { try await \(name)() }.timeout(\(arguments)).value"
        let returned = ["Void", "()", "Swift.Void"].contains(steps.value) ? awaited : "return " + awaited
        if steps.hasUntypedError { return [returned] }
        let timeoutError = "PromiseTimeoutError<\(steps.error)>"
        return ["do {", indented(returned), "} catch is PromiseTimeoutError<Swift.Error> {", indented("throw \(timeoutError).timedOut"),
                "} catch let error as \(steps.error) {", indented("throw \(timeoutError).rejected(error)"), "}"]
    }

    /// `text` indented by one level, each of its lines.
    static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
    }

    /// `E` of `PromiseTimeoutError<E>` (also spelled `Tomorrowland.PromiseTimeoutError<E>`).
    static func timeoutErrorArgument(_ error: String) -> String? {
        for prefix in ["PromiseTimeoutError<", "Tomorrowland.PromiseTimeoutError<"] where error.hasPrefix(prefix) && error.hasSuffix(">") {
            return String(error.dropFirst(prefix.count).dropLast()).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }
}
