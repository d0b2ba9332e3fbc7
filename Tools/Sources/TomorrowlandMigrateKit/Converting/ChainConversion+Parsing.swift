// `convert-body`, the syntax half, continued: reading a chain (`base.map { … }.catch { … }`)
// into its base and its steps, or the reason it stays a chain.

import SwiftParser
import SwiftSyntax

extension ChainConversion {
    /// A `propagatingCancellation(on: .immediate) { _ in … }` on the chain's base: its handler's statements.
    struct Propagation {
        let handler: [String]
    }

    /// Operators without a closure that stay on the chain's base, whose promise the twin awaits.
    static let baseOperators: Set<String> = ["ignoringCancel", "timeout", "delay"]

    /// Whether `expression` is a call of a promise operator (`x.map { … }`, `x.timeout(…)`).
    static func isOperatorCall(_ expression: ExprSyntax) -> Bool {
        guard let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              member.base != nil else { return false }
        let name = member.declName.baseName.text
        return CallbackOperators.names.contains(name) || unconvertible[name] != nil || throwingValueOperators[name] != nil || name == "withToken"
    }

    /// `base.a { }.b { }` as the base and the steps in order.
    func chain(_ expression: ExprSyntax, allowingCaptures: Bool = false, limit: Int? = nil) throws -> (ExprSyntax, [Step]) {
        let (base, steps, _) = try chainWithPropagation(expression, allowingCaptures: allowingCaptures, limit: limit)
        return (base, steps)
    }

    /// `chain`, and the handler of a `propagatingCancellation` on the base. With a `limit`, the last `limit` operators are the
    /// steps and what they are called on the base (the steps after a split).
    func chainWithPropagation(_ expression: ExprSyntax, allowingCaptures: Bool = false,
                              limit: Int? = nil) throws -> (ExprSyntax, [Step], Propagation?) {
        var steps: [Step] = []
        var current = expression
        var propagation: Propagation?
        var parsed = 0
        while parsed != limit, let call = current.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base {
            let written = member.declName.baseName.text
            // `f().ignoringCancel()`, `f().timeout(on: c, delay: d)`, `f().delay(on: c, d)` on the chain's base: that
            // promise, awaited as it is. A cancelled Task asks it to cancel as one observer and keeps waiting for its
            // outcome (`ignoringCancel` still delivers its value; `timeout` passes the request on, as for a child).
            if Self.baseOperators.contains(written), call.trailingClosure == nil, !Self.isOperatorCall(base) {
                break
            }
            if written == "propagatingCancellation" {
                guard !Self.isOperatorCall(base) else {
                    throw Left("`propagatingCancellation` after a step (its handler would run for a cancel request made while the steps "
                        + "before it ran, which no Task cancellation handler can tell apart)")
                }
                propagation = try Self.propagation(call)
                current = base
                continue
            }
            guard let name = try Self.stepOperator(written) else { break }
            let step = try Self.step(call, named: name, isLast: current.id == expression.id, allowingCaptures: allowingCaptures)
            // `mapError { $0 as Swift.Error }` does nothing in an untyped async function.
            if !Self.isErasure(step) { steps.insert(step, at: 0) }
            current = base
            parsed += 1
        }
        return (current, steps, propagation)
    }

    /// The step an operator called `name` is (`tryMap { try … }` is `map`: the same statements; what
    /// the closure throws, the twin throws), or nil where the chain's steps end (its base is a call
    /// of another name). Declines `withToken` and the operators not converted.
    static func stepOperator(_ name: String) throws -> String? {
        if name == "withToken" {
            // `x.withToken(t).map { … }`: the TokenPromise registers each later callback with `t`,
            // and each promise it returns with `t.requestCancelOnInvalidate(_:)` (an invalidation
            // cancels the request in flight): the twin's own callers would not be cancelled.
            throw Left("callbacks registered through `withToken(token)` (their promises are cancelled when it is invalidated, "
                + "which the twin's callers would not be)")
        }
        if let reason = unconvertible[name] { throw Left(reason) }
        let plain = throwingValueOperators[name] ?? name
        let known = valueOperators.union(errorOperators).union(["always", "tap", "onCancel"]).union(resultOperators)
        if !known.contains(plain) {
            if CallbackOperators.names.contains(plain) { throw Left("`\(plain)` is not converted") }
            return nil
        }
        return plain
    }

    /// The step of the operator `call` (named `name`): its context (`on:`), its token (`token:`),
    /// its closure (written, or a function named), without the owner it was given (`with:`).
    /// Declines several closures, other arguments, a missing closure, and a capture list unless
    /// `allowingCaptures`.
    static func step(_ call: FunctionCallExprSyntax, named name: String, isLast: Bool, allowingCaptures: Bool) throws -> Step {
        if !call.additionalTrailingClosures.isEmpty { throw Left("`\(name)` with several closures") }
        var context: ExprSyntax?
        var token: String?
        var owner: ExprSyntax?
        var closure = call.trailingClosure
        for argument in call.arguments {
            switch argument.label?.text {
            case "on": context = argument.expression
            case "token": token = argument.expression.trimmedDescription
            case "with": owner = argument.expression
            case nil:
                if let literal = argument.expression.as(ClosureExprSyntax.self) {
                    closure = literal
                } else if isFunctionName(argument.expression),
                          let wrapped = parse("{ \(argument.expression.trimmedDescription)($0) }").as(ClosureExprSyntax.self) {
                    // `mapError(on: .immediate, LedgerError.bank)`: a named function, read when the chain was
                    // built as it is now, is the closure that calls it (`{ LedgerError.bank($0) }`).
                    closure = wrapped
                } else {
                    throw Left("`\(name)` given a function, not a closure")
                }
            default: throw Left("`\(name)(\(argument.label!.text):)`")
            }
        }
        guard var closure else { throw Left("`\(name)` without a closure") }
        if let owner { closure = try withoutOwner(closure, owner: owner, operator: name) }
        if let capture = closure.signature?.capture, !allowingCaptures {
            throw Left("a closure with a capture list (`\(capture.trimmedDescription)`)")
        }
        var step = Step(name: name, context: context, closure: closure, isLast: isLast, call: call)
        step.token = token
        return step
    }

    /// The handler of `base.propagatingCancellation(on: .immediate) { _ in … }`: in the twin, the
    /// `onCancel` of a `withTaskCancellationHandler` around the base's await. A cancelled Task asks
    /// the promise it awaits to cancel as one observer, and in the twin nothing else holds that
    /// promise, so the request reaches its source at once, as `propagatingCancellation` made it;
    /// the handler runs synchronously where the cancellation happens, as `.immediate` ran it.
    static func propagation(_ call: FunctionCallExprSyntax) throws -> Propagation {
        var closure = call.trailingClosure
        for argument in call.arguments {
            switch argument.label?.text {
            case "on":
                let context = argument.expression.trimmedDescription
                guard context == ".immediate" || context == "PromiseContext.immediate" else {
                    throw Left("`propagatingCancellation(on: \(context))` (a Task's cancellation handler runs where the Task is "
                        + "cancelled, as `.immediate` did)")
                }
            case nil: closure = argument.expression.as(ClosureExprSyntax.self)
            default: throw Left("`propagatingCancellation(\(argument.label!.text):)`")
            }
        }
        guard let closure, call.additionalTrailingClosures.isEmpty else { throw Left("`propagatingCancellation` without a closure") }
        if parameters(of: closure).map({ $0.names.contains { $0 != "_" } }) == true || !anonymousArguments(of: closure).zero.isEmpty {
            throw Left("`propagatingCancellation` whose handler reads its promise")
        }
        return Propagation(handler: closure.statements.map(text(of:)))
    }
}
