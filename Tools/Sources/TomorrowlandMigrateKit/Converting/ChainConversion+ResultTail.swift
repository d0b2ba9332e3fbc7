import SwiftSyntax

// A final `mapResult` or `flatMapResult` after an error handler, `always` or `tap` (issue 37).
// Those steps' code returns from the twin or rethrows (a handler's `catch`, an `always`'s
// `defer`), so it cannot stand in the `do` that takes the result after value steps
// (ChainConversion+MapResult.swift). It is a local function instead, as for a final `timeout`
// (ChainConversion+Tails.swift), and the result the closure reads is its outcome:
//
// ```swift
// func steps() async throws -> Int {
//     … the steps, their handlers, `always` as a `defer` …
// }
// let result: PromiseResult<Int, APIError>
// do {
//     let value = try await steps()
//     result = .value(value)
// } catch let error as APIError {
//     result = .error(error)
// } catch {
//     result = .cancelled
// }
// … the closure, on its context; its result returned or thrown …
// ```
//
// A cancel request reaches the steps' awaits, whose promises pass it to the source; the
// handlers see what they saw, and the closure `.cancelled`, as in 1.x. When 1.x enqueued the
// closure and the twin runs it inline (ChainConversion+Order.swift), the local function is
// awaited through `Task.yieldingAfter`: one suspension after it, on every path, as 1.x ran the
// closure after the call.

extension ChainConversion {
    /// The promise type of the steps before a final `mapResult` (`call`): the compiler's, else the one the closure declares.
    func resultTailInput(_ call: FunctionCallExprSyntax, chained: ExprSyntax) throws -> PromiseType {
        if let base = chained.as(FunctionCallExprSyntax.self), let spelled = typeOfCall(base), let type = Self.promiseType(spelled: spelled) {
            return type
        }
        let step = try Self.resultStep(of: call)
        guard let type = Self.declaredResultType(of: step.closure) else {
            throw Left("`\(step.name)` after steps whose result type is not known")
        }
        return type
    }

    /// The final `mapResult` or `flatMapResult` as a step.
    static func resultStep(of call: FunctionCallExprSyntax) throws -> Step {
        guard let name = call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text else { throw Left("not a chain") }
        var context: ExprSyntax?
        var token: String?
        var closure = call.trailingClosure
        for argument in call.arguments {
            switch argument.label?.text {
            case "on": context = argument.expression
            case "token": token = argument.expression.trimmedDescription
            case nil: closure = argument.expression.as(ClosureExprSyntax.self) ?? closure
            default: throw Left("`\(name)(\(argument.label!.text):)`")
            }
        }
        guard let closure, call.additionalTrailingClosures.isEmpty else { throw Left("`\(name)` without a closure") }
        if let capture = closure.signature?.capture { throw Left("a closure with a capture list (`\(capture.trimmedDescription)`)") }
        var step = Step(name: name, context: context, closure: closure, isLast: true, call: call)
        step.token = token
        return step
    }

    /// The local function of the steps, the result taken from it, and the closure (ChainConversion+MapResult.swift).
    func resultTailLines(_ call: FunctionCallExprSyntax, steps: PromiseType, chainLines: [String], taken: Set<String>) throws -> [String] {
        var step = try Self.resultStep(of: call)
        step.baseType = steps
        step.type = typeOfCall(call).flatMap(Self.promiseType(spelled:))
        let name = Self.firstFree("steps", avoiding: taken)
        var lines = Self.localFunction(name, of: steps, chainLines: chainLines)
        var writer = Writer(conversion: self, taken: taken.union([name]))
        // The token's validity, taken where the chain registered the callback (during the call).
        if let token = step.token {
            let validity = writer.freshName(forValidityOf: token)
            writer.validities[token] = validity
            lines.append("let \(validity) = \(token).validity()")
        }
        var probe = writer
        let inline = if case .inline = try probe.placement(of: step) { true } else { false }
        let awaited = "try await \(name)()"
        writer.pending = .expression(keepsCallbackOrder && inline && !ranAtOnce(step.context) ? "try await Task.yieldingAfter { \(awaited) }" : awaited)
        try writer.mapResult(step)
        return lines + writer.hoisted + writer.lines
    }
}
