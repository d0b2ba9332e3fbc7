import SwiftSyntax

// `convert-body`: a chain split in two where an operator acts on the whole chain before it and
// steps follow (ChainConversion+Tails.swift has the same operators at the end of the chain):
//
// - `timeout(on: c, delay: d)` with steps after it (Pharmacy's `restock`: `promise.onCancel(on: q)
//   { … }.timeout(on: q, delay: limit).mapError(on: .immediate) { error -> PharmacyError in switch
//   error { case .timedOut: … } }`). The steps before it are an async local function, `untimed()`,
//   kept under the chain's `timeout` as for a final one: `StdPromise(on: .immediate) { try await
//   untimed() }.timeout(on: c, delay: d)`, which starts them during the call, in the caller's
//   isolation, as the chain registered its callbacks, and keeps the timer and its context. After
//   untyped steps that promise is 1.x's type (`Promise<T, Swift.Error>`) and the base the steps
//   after it await. After typed ones a second local function, `timed()`, awaits it and throws what
//   the generic `timeout` made (`PromiseTimeoutError<E>.timedOut`, `.rejected(e)`), and the steps
//   after it await `timed()`: a handler there sees the errors it saw. A cancel request on the
//   twin's Task asks the timeout's promise to cancel, which passes it on to the steps' Task and
//   their source; on timing out, the timeout asks the steps' promise to cancel, as before.
// - `mapResult` or `flatMapResult` with steps after it, after an error handler, `always` or `tap`
//   (whose code returns from the twin or rethrows, so it cannot stand in the `do` that takes the
//   result): the steps before it are an async local function, `steps()`, as for a final
//   `mapResult` (ChainConversion+ResultTail.swift), and the steps after the handler, the
//   `mapResult` first, are converted with `try await steps()` as their base: the result taken
//   from it in a `do` (ChainConversion+ResultSteps.swift), the closure, and the steps after it.
//
// The statements before the chain come first, written for the function's own promise type (an
// early `return` there is the twin's), then the local function, then the steps after the split.

extension ChainConversion {
    /// Converting the steps after a split (`converted` in that mode): how many there are, what the twin awaits in place of
    /// the chain before them, and that promise's type.
    struct Split {
        let steps: Int
        let base: Writer.Pending
        let type: PromiseType?
    }

    /// The outermost split point of `expression` (the `timeout` call, or the `mapResult` after a handler), the number of steps
    /// after it (a `mapResult` counts itself), and the chain before it; nil when there is none.
    static func splitPoint(of expression: ExprSyntax) -> (call: FunctionCallExprSyntax, after: Int, before: ExprSyntax)? {
        let steps = valueOperators.union(errorOperators).union(resultOperators).union(["always", "tap", "onCancel"])
        var current = expression
        var after = 0
        while let call = current.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base, isOperatorCall(base), call.additionalTrailingClosures.isEmpty {
            let name = member.declName.baseName.text
            if name == "timeout" {
                guard after > 0, call.trailingClosure == nil, call.arguments.contains(where: { $0.label?.text == "delay" }) else { return nil }
                return (call, after, base)
            }
            guard steps.contains(throwingValueOperators[name] ?? name) else { return nil }
            if resultOperators.contains(name), after > 0, let previous = base.as(FunctionCallExprSyntax.self),
               let previousName = previous.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text,
               errorOperators.union(["always", "tap"]).contains(throwingValueOperators[previousName] ?? previousName) {
                return (call, after + 1, base)
            }
            after += 1
            current = base
        }
        return nil
    }

    /// A chain split at `call` (`splitPoint(of:)`), converted: the statements before the chain, the steps before the split
    /// as a local function, the steps after it. Nil where the function's type does not allow it.
    func convertedSplit(_ original: CodeBlockSyntax, at call: FunctionCallExprSyntax, after: Int, before: ExprSyntax) throws -> Converted? {
        guard !tokenPromise, functionPromise != nil else { return nil }
        let splitName = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ""
        let isTimeout = splitName == "timeout"
        let steps = try isTimeout ? timedStepsType(call, before: before) : resultTailInput(call, chained: before)
        // The steps before the split, as for a final `timeout` or `mapResult`: their lines apart, for their own type.
        guard let chainLines = try forSteps(of: steps).converted(original).chainLines else { throw Left("a chain split at `\(splitName)`") }
        let name = Self.firstFree(isTimeout ? "untimed" : "steps", avoiding: Self.identifiers(in: original))
        let function = Self.localFunction(name, of: steps, chainLines: chainLines)
        // The steps after it, on what stands for the chain before them.
        var outer = self
        outer.reservedNames.insert(name)
        var functions = function
        if isTimeout {
            let arguments = call.arguments.map(\.trimmedDescription).joined(separator: " ")
            let timedType = typeOfCall(call).flatMap(Self.promiseType(spelled:))
            if steps.hasUntypedError {
                let promise = Self.parse("StdPromise(on: .immediate) { try await \(name)() }.timeout(\(arguments))")
                let type = timedType ?? Self.promiseType(spelled: "Promise<\(steps.value), Swift.Error>")
                outer.split = Split(steps: after, base: .promise(promise), type: type)
            } else {
                // Typed: `timed()` throws what the generic `timeout` made (a promise of that type in between would be a handle
                // the twin keeps while it awaits, which blocks the timeout's cancel request on the way to the steps).
                let timed = Self.firstFree("timed", avoiding: Self.identifiers(in: original).union([name]))
                functions += Self.localFunction(timed, of: steps, chainLines: Self.timeoutLines(awaiting: name, arguments: arguments, steps: steps))
                outer.reservedNames.insert(timed)
                let type = timedType ?? Self.promiseType(spelled: "Promise<\(steps.value), PromiseTimeoutError<\(steps.error)>>")
                outer.split = Split(steps: after, base: .expression("try await \(timed)()"), type: type)
            }
        } else {
            outer.split = Split(steps: after, base: .expression("try await \(name)()"), type: steps)
        }
        let converted = try outer.converted(original)
        guard let afterLines = converted.chainLines else { throw Left("a chain split at `\(splitName)`") }
        var result = Converted(lines: converted.lines + functions + afterLines, token: converted.token)
        result.resolvedOn = converted.resolvedOn
        return result
    }

    /// The promise type of the steps before a `timeout` with steps after it: from the compiler's type of the `timeout`
    /// (`Promise<T, PromiseTimeoutError<E>>`: `Promise<T, E>`; `Promise<T, Swift.Error>`: untyped), else of the steps.
    func timedStepsType(_ call: FunctionCallExprSyntax, before: ExprSyntax) throws -> PromiseType {
        var steps: PromiseType?
        if let timed = typeOfCall(call).flatMap(Self.promiseType(spelled:)) {
            if timed.hasUntypedError {
                steps = Self.promiseType(spelled: "StdPromise<\(timed.value)>")
            } else if let inner = Self.timeoutErrorArgument(timed.error) {
                steps = Self.promiseType(spelled: "Promise<\(timed.value), \(inner)>")
            }
        } else if let base = before.as(FunctionCallExprSyntax.self) {
            steps = typeOfCall(base).flatMap(Self.promiseType(spelled:))
        }
        guard let steps else { throw Left("`timeout` with steps after it, after steps whose promise type is not known") }
        if steps.hasNoError { throw Left("`timeout` with steps after it, after steps whose promise cannot fail") }
        return steps
    }
}
