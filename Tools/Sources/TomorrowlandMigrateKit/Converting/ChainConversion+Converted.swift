// `convert-body`, the syntax half, continued: the conversion of one chain, step by step. The
// chain is read (its base, its steps, the statements before it), its steps typed from the
// compiler's facts, the writer set up on its base, the steps written in order, and the lines
// put together.

import SwiftParser
import SwiftSyntax

extension ChainConversion {
    /// A chain read from a body, before its steps are typed.
    struct ReadChain {
        /// The body, the chain's `[weak self]` closures without the capture.
        let body: CodeBlockSyntax
        /// The `let`s of values the chain's capture lists bound (`[x = f()]`).
        let boundCaptures: [String]
        /// The statements before the chain.
        let preamble: Preamble
        /// The token of a final `.withToken(token)`, which the wrapper keeps.
        let token: String?
        /// What the first step is called on.
        let base: ExprSyntax
        /// The steps in order, as parsed.
        let steps: [Step]
        /// A `propagatingCancellation` on the base.
        let propagation: Propagation?
    }

    /// The twin's statements for the body `original`, or why not (a thrown `Left`).
    func converted(_ original: CodeBlockSyntax) throws -> Converted {
        let chain = try readChain(original)
        var steps = chain.steps
        let spelled = typeSteps(&steps, original: original, token: chain.token)
        try requireOperators(chain, steps: steps)
        // `PromiseContext.isExecutingNow` in the first step's closure on `.nowOr`: the flag (ChainConversion+NowOrExecutingNow.swift).
        let readsExecutingNow = try Self.readsExecutingNowOnNowOr(steps, in: chain.body)
        // Promises the statements before the chain keep in `let`s: their types (for a handler
        // on one), and those only the chain's base reads, which it consumes: a local handle to a
        // promise would block the cancel request of the promise awaited from it (1.x's
        // function had returned, and its locals were gone).
        let locals = promiseLocals(Array(original.statements.dropLast()), in: original)
        if let name = chain.base.as(DeclReferenceExprSyntax.self)?.baseName.text, let type = locals.types[name], !steps.isEmpty,
           steps[0].baseType == nil {
            steps[0].baseType = type
        }
        var writer = Writer(conversion: self, taken: Self.identifiers(in: chain.body).union(reservedNames))
        writer.declared = chain.preamble.declared
        let validityLines = writer.bindValidities(of: steps)
        writer.consumable = locals.consumable
        writer.pending = .promise(Self.consuming(locals.consumable, in: chain.base))
        steps = settlingNowOr(steps)
        var probe = writer
        let yieldPoint = try yieldPoint(steps) { step in
            if case .inline = try probe.placement(of: step) { return true }
            return false
        }
        spellPendingBase(of: &writer, steps: &steps, base: chain.base, spelled: spelled, consumable: locals.consumable)
        try writer.bindNowOrBase(of: steps)
        let executingNowFlag = readsExecutingNow ? try writer.executingNowFlag(of: steps) : nil
        writer.awaitBase(yieldPoint: yieldPoint, steps: steps, propagation: chain.propagation)
        try writer.write(steps, yieldPoint: yieldPoint)
        if let executingNowFlag { writer.lines = Self.substitutingExecutingNow(writer.lines, flag: executingNowFlag) }
        return try assembled(chain, writer: writer, validityLines: validityLines)
    }

    /// The chain `original` ends in, read: its `[weak self]` closures without the capture (in the
    /// twin, `self` is the method's own), the statements before it, a final `.withToken(token)`
    /// and (with `stripsTail`) its tail taken off, then its base and steps.
    func readChain(_ original: CodeBlockSyntax) throws -> ReadChain {
        guard let originalLast = original.statements.last else { throw Left("an empty body") }
        var boundCaptures: [String] = []
        let body = try Self.withoutSelfCaptures(original, chainClosures: Self.stepClosures(of: originalLast), bound: &boundCaptures,
                                                 parameters: parameterNames)
        let statements = Array(body.statements)
        let last = statements.last!
        let expression: ExprSyntax
        if let returned = last.item.as(ReturnStmtSyntax.self), let value = returned.expression {
            expression = value
        } else if let value = last.item.as(ExprSyntax.self) {
            expression = value
        } else {
            throw Left("the body does not end in a returned chain")
        }
        // Statements before the chain run first in the twin, and the wrapper starts it at once
        // (`Promise(on: .immediate)`): during the call, in the caller's isolation, as before.
        let preamble = try self.preamble(Array(statements.dropLast()))
        let tokenless = try withoutToken(expression)
        var chained = tokenless.chained
        if stripsTail, let (_, inner) = Self.tail(of: chained) { chained = inner }
        let (base, steps, propagation) = try chainWithPropagation(chained, limit: split?.steps)
        if tokenPromise, tokenless.token == nil { throw Left("returns a `TokenPromise` that is not made by a final `.withToken(token)`") }
        return ReadChain(body: body, boundCaptures: boundCaptures, preamble: preamble, token: tokenless.token, base: base, steps: steps,
                         propagation: propagation)
    }

    /// `x.withToken(token)` at the end: `x` and the token (the wrapper returns `….withToken(token)`);
    /// anything else as it is, without a token.
    func withoutToken(_ expression: ExprSyntax) throws -> (chained: ExprSyntax, token: String?) {
        guard let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              member.declName.baseName.text == "withToken", let inner = member.base,
              call.arguments.count == 1, call.arguments.first?.label == nil, call.trailingClosure == nil else { return (expression, nil) }
        guard tokenPromise else { throw Left("`withToken(token)` in a function that returns a plain promise") }
        return (inner, call.arguments.first!.expression.trimmedDescription)
    }

    /// The compiler's types, read from the original text (the steps are the same, in order): each
    /// step's base's and call's promise types and its closure as written; and the types spelled
    /// for the chain's base and for an initializer under its operator.
    func typeSteps(_ steps: inout [Step], original: CodeBlockSyntax, token: String?) -> (base: String?, initializer: String?) {
        guard let originalLast = original.statements.last,
              let originalExpression = originalLast.item.as(ReturnStmtSyntax.self)?.expression ?? originalLast.item.as(ExprSyntax.self)
        else { return (nil, nil) }
        var originalChained = originalExpression
        if token != nil, let call = originalExpression.as(FunctionCallExprSyntax.self),
           let inner = call.calledExpression.as(MemberAccessExprSyntax.self)?.base {
            originalChained = inner
        }
        if stripsTail, let (_, inner) = Self.tail(of: originalChained) { originalChained = inner }
        guard let (originalBase, originalSteps) = try? chain(originalChained, allowingCaptures: true, limit: split?.steps),
              originalSteps.count == steps.count else { return (nil, nil) }
        let baseSpelled = originalBase.as(FunctionCallExprSyntax.self).flatMap(typeOfCall)
        let initializerSpelled = Self.initializer(underOperatorOf: originalBase).flatMap(typeOfCall)
        var baseType = originalBase.as(FunctionCallExprSyntax.self).flatMap(typeOfCall).flatMap(Self.promiseType(spelled:))
        for index in steps.indices {
            steps[index].baseType = baseType
            steps[index].type = originalSteps[index].call.flatMap(typeOfCall).flatMap(Self.promiseType(spelled:))
            steps[index].written = originalSteps[index].closure
            baseType = steps[index].type
        }
        return (baseSpelled, initializerSpelled)
    }

    /// Declines a body with nothing to convert: no steps, no `when`, no token, no statements
    /// before the chain, no `propagatingCancellation` and no operator on the base.
    func requireOperators(_ chain: ReadChain, steps: [Step]) throws {
        // `when(fulfilled:)` stays, awaited through `.value`: `async let` or a task group would
        // await in order and cancel the other inputs on a failure, where `when` decides on the
        // first failure in time and leaves the others running.
        let isWhen = chain.base.as(FunctionCallExprSyntax.self).flatMap { Calls.calledName($0)?.0 } == "when"
        // `f().timeout(on: c, delay: d)` alone: the base with its operator, awaited.
        let operatorOnBase = chain.base.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self)
            .map { Self.baseOperators.contains($0.declName.baseName.text) } == true
        guard !steps.isEmpty || isWhen || chain.token != nil || !chain.preamble.lines.isEmpty || chain.propagation != nil || operatorOnBase
        else {
            throw Left("not a chain: no promise operators")
        }
    }

    /// The promise the writer awaits first, spelled where the twin would lose its type: after a
    /// split, what stands for the chain before it; `StdPromise(on: .utility) { resolver in … }`,
    /// which took its value type from the function's return, as the compiler's type of the
    /// original call; an initializer under the base's operator, pinned to its type.
    func spellPendingBase(of writer: inout Writer, steps: inout [Step], base: ExprSyntax, spelled: (base: String?, initializer: String?),
                          consumable: Set<String>) {
        if let split {
            // After a split: what stands for the chain before it (ChainConversion+Split.swift).
            writer.pending = split.base
            if !steps.isEmpty, steps[0].baseType == nil { steps[0].baseType = split.type }
        } else if let call = base.as(FunctionCallExprSyntax.self), let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
           name.hasSuffix("Promise"), Self.promiseArgument(of: call, label: "fulfilled") == nil, let baseSpelled = spelled.base,
           Self.consuming(consumable, in: base).trimmedDescription == base.trimmedDescription {
            let text = Self.dedented(base.trimmedDescription, by: Self.lineIndentation(of: base))
            writer.pending = .promise(Self.parse("(\(text) as \(baseSpelled))"))
        } else if let initializerSpelled = spelled.initializer, let pinned = Self.pinningInitializer(under: base, as: initializerSpelled),
                  Self.consuming(consumable, in: base).trimmedDescription == base.trimmedDescription {
            writer.pending = .promise(pinned)
        }
    }

    /// The twin's lines put together. The statements before the chain come first: outside the
    /// `do` of an error handler (an early `return Promise(rejected: e)`, now `throw e`, never
    /// reached the chain's handler) and before the `defer` of an `always` (which an early return
    /// never reached either). `lock.lock()` … `lock.unlock()` (unavailable in async code) as
    /// `lock.withLock { … }`. With `stripsTail` or a split, the chain's lines apart.
    func assembled(_ chain: ReadChain, writer: Writer, validityLines: [String]) throws -> Converted {
        let boundCaptures = chain.boundCaptures
        if stripsTail || split != nil {
            // A value a capture list binds (`[x = f()]`) would be bound twice, in the local function and after it.
            if split != nil, !boundCaptures.isEmpty {
                throw Left("a capture list that binds a value (`\(boundCaptures[0])`), in a chain split at a `timeout` or a `mapResult`")
            }
            let chainLines = try Self.withLocks(validityLines + boundCaptures + writer.hoisted + writer.lines)
            var converted = Converted(lines: try Self.withLocks(chain.preamble.lines), token: chain.token, chainLines: chainLines)
            if split != nil { converted.resolvedOn = writer.resolvedOn(last: chain.steps.last) }
            return converted
        }
        var converted = Converted(
            lines: try Self.withLocks(chain.preamble.lines + validityLines + boundCaptures + writer.hoisted + writer.lines), token: chain.token
        )
        converted.resolvedOn = writer.resolvedOn(last: chain.steps.last)
        return converted
    }
}

extension Writer {
    /// Each token's validity, taken where the chain registered its callbacks (after the
    /// statements before it, during the call: the wrapper starts the twin at once) and checked
    /// where each callback would have run: an observer is skipped, another step cancels. The
    /// `let`s that take them.
    mutating func bindValidities(of steps: [ChainConversion.Step]) -> [String] {
        var validityLines: [String] = []
        for token in steps.compactMap(\.token) where validities[token] == nil {
            let name = freshName(forValidityOf: token)
            validities[token] = name
            validityLines.append("let \(name) = \(token).validity()")
        }
        return validityLines
    }

    /// The await of the chain's base: the one real suspension after it when the callbacks' order
    /// asks for it there (`yieldPoint` 0, ChainConversion+Order.swift), and the handler of a
    /// `propagatingCancellation`, which runs when the Task is cancelled while it awaits the base.
    mutating func awaitBase(yieldPoint: Int?, steps: [ChainConversion.Step], propagation: ChainConversion.Propagation?) {
        if yieldPoint == 0, let awaited = pendingPromise {
            conversion.yieldsAfterAwaitOf = (awaited.id, steps[0].baseType?.hasNoError ?? conversion.noError)
        } else if yieldPoint == 0, conversion.split != nil, case .expression(let awaited) = pending {
            // A split's local function, awaited directly: the same suspension after it.
            pending = .expression("try await Task.yieldingAfter { \(awaited) }")
        }
        if let propagation {
            pending = .expression("try await withTaskCancellationHandler {\n" + Self.indent(pendingText) + "\n} onCancel: {\n"
                + propagation.handler.map(Self.indent).joined(separator: "\n") + "\n}")
        }
    }
}
