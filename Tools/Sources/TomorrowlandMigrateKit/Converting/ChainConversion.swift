// `convert-body`, the syntax half: a promise chain (`base.map { … }.catch { … }`) as the
// straight-line body of an async function, or the reason it stays a chain. Pure text in, text
// out; the command (ConvertBody.swift) decides which functions to convert and proves the result.

import SwiftParser
import SwiftSyntax

/// Rewrites the body of one promise-returning function as the body of its async twin.
struct ChainConversion {
    /// Whether the twin runs on an actor (a global actor's or actor method): then callbacks
    /// given a caller-isolated context ran on that actor, and run inline.
    let isolated: Bool
    /// Whether that actor is the main actor: only then do `.main` callbacks run inline (in an
    /// actor or on another global actor they ran on main, and run on the main executor).
    var onMainActor = false
    /// Whether a call (in the body) has an async twin: `try await f(x)` instead of `.value`.
    let hasTwin: (FunctionCallExprSyntax) -> Bool
    /// Whether the twin returns nothing (a `Promise<Void, …>`).
    var returnsVoid: Bool
    /// The function's promise type as written (`Promise<String, APIError>`): the type of the
    /// promise a final `flatMap` returns.
    var promiseType: String = ""
    /// Whether that promise's error is `NoError`: the twin throws only `CancellationError`.
    var noError = false
    /// Contexts declared in `extension PromiseContext.CallerIsolated` (`.here`): they keep
    /// the caller's actor, like `.auto`.
    var callerIsolatedContexts: Set<String> = []
    /// Contexts declared in `extension PromiseContext.Main` (`.screen`): the main actor, like
    /// `.main`.
    var mainContexts: Set<String> = []
    /// The stored properties of the function's type that may hold a context (`delivery`), by name.
    var storedContexts: [String: StoredContext] = [:]
    /// The function's parameter names (a parameter named like a stored property hides it).
    var parameterNames: Set<String> = []
    /// The function's parameters' types as written, by name (`ledger: Ledger`).
    var parameterTypes: [String: String] = [:]
    /// The promise's error type as written (`APIError`; empty when untyped or `NoError`): an
    /// early `return Promise(rejected: .notFound)` becomes `throw APIError.notFound`.
    var typedError = ""
    /// Whether the function returns a `TokenPromise`: a final `.withToken(token)` moves to the wrapper.
    var tokenPromise = false
    /// The function's promise type, aliases resolved (`HubPromise<Device>`: value `Device`, error
    /// `HubError`): the type of the result a final `tap` or `always` reads.
    var functionPromise: PromiseType? = nil
    /// The promise type the compiler gave a call of the original body (`Promise<Menu, NetworkError>`), when known.
    var typeOfCall: (FunctionCallExprSyntax) -> String? = { _ in nil }
    /// Whether the chain's `Tail` (a final `timeout`, `recover { _ in }`) is left to the caller
    /// (`convertedWithTail`): the steps are converted, their lines apart from the preamble's.
    var stripsTail = false
    /// Converting the steps after a split point (ChainConversion+Split.swift): how many, and what stands for the chain before them.
    var split: Split? = nil
    /// Names the twin declares outside the chain's lines (a split's local function): no `let` of the chain takes them.
    var reservedNames: Set<String> = []
    /// Whether a wrapper starts the twin at once (`Promise(on: .immediate)`): the code 1.x ran in
    /// callbacks then comes after one real suspension (ChainConversion+Order.swift).
    var keepsCallbackOrder = false
    /// The chain's base whose await is that suspension (`Task.yieldingAfter { … }`), once chosen, and
    /// whether that await throws only `CancellationError` (a `NoError` promise).
    var yieldsAfterAwaitOf: (base: SyntaxIdentifier, cancellationOnly: Bool)?

    /// A stored property that may hold a context: its type as written (`PromiseContext.Main`), and
    /// the context it always holds when it is a `let` initialized with one spelled out (`.main`).
    struct StoredContext {
        let type: String
        let constant: ExprSyntax?
    }

    /// Why a chain stays a chain.
    struct Left: Error, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The operators this rewriter turns into statements.
    static let valueOperators: Set<String> = ["then", "map", "flatMap"]
    static let errorOperators: Set<String> = ["catch", "recover", "mapError", "flatMapError"]
    /// The operators whose closure returns a promise (awaited where the step ends).
    static let promiseSteps: Set<String> = ["flatMap", "flatMapError"]

    static let throwingValueOperators = [
        "tryThen": "then", "tryMap": "map", "tryFlatMap": "flatMap",
        "tryRecover": "recover", "tryMapError": "mapError", "tryFlatMapError": "flatMapError",
    ]
    static let unconvertible: [String: String] = [
        // On the chain's base it stays on that promise, awaited; after steps, the chain is split there (ChainConversion+Split.swift).
        "timeout": "`timeout` after steps, in a chain not split there (a limit of the tool: one `timeout` per chain, only steps after it, "
            + "not in a `TokenPromise` function)",
        "delay": "`delay` after a step (`Task.sleep` after the await would not pass errors and cancellation on late: on the chain's "
            + "base it stays on that promise, awaited)",
        "propagatingCancellation": "`propagatingCancellation`",
        // The token asks the chain's promise to cancel: the wrapper could, but the twin's own callers would not be.
        "requestCancelOnInvalidate": "`requestCancelOnInvalidate(token)` (an invalidation cancelled the chain's promise; an async function "
            + "cannot cancel the Task that runs it, as Swift gives it no handle to that Task, so the twin's callers would not be cancelled)",
        "ignoringCancel": "`ignoringCancel` after a step (the steps before it would see the Task's cancellation: Swift has no way to "
            + "shield an await from it)",
    ]

    /// One `.op(on: context) { closure }` of the chain.
    struct Step {
        let name: String
        var context: ExprSyntax?
        let closure: ClosureExprSyntax
        /// The outermost call of the chain: its promise is the function's.
        var isLast = false
        /// The operator's call (`base.map(on: …) { … }`).
        var call: FunctionCallExprSyntax? = nil
        /// The promise types the compiler gave the step's base and its call (`Promise<Menu,
        /// NetworkError>`), when known.
        var baseType: PromiseType? = nil
        var type: PromiseType? = nil
        /// The invalidation token the callback is registered with (`token: t`), as written.
        var token: String? = nil
        /// The closure as written, with its capture list (`closure` has none in the twin: ChainConversion+Preamble.swift).
        var written: ClosureExprSyntax? = nil

        /// Whether the operator is an observer (`then`, `catch`, `always`, `tap`): skipped by an
        /// invalidated token, its promise takes the parent's result. The others (`map`,
        /// `flatMap`, `recover`, …) are skipped and their promise is cancelled.
        var observes: Bool { ["then", "catch", "always", "tap", "onCancel"].contains(name) }

        /// Whether the closure reads its parameter (the result, for `tap` and `always`).
        var readsParameter: Bool {
            if let (names, _) = ChainConversion.parameters(of: closure) { return names.contains { $0 != "_" } }
            return !ChainConversion.anonymousArguments(of: closure).zero.isEmpty
        }
    }

    /// Whether `body` ends in a promise chain (`x.map { … }`, `when(fulfilled:)`): the bodies
    /// this command is about, converted or not.
    static func isChain(_ body: CodeBlockSyntax) -> Bool {
        guard let last = body.statements.last?.item else { return false }
        var current = last.as(ReturnStmtSyntax.self)?.expression ?? last.as(ExprSyntax.self)
        if let call = current?.as(FunctionCallExprSyntax.self), Calls.calledName(call)?.0 == "when" { return true }
        while let call = current?.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base {
            let name = member.declName.baseName.text
            if CallbackOperators.names.contains(name) || unconvertible[name] != nil || name == "withToken" { return true }
            current = base
        }
        return false
    }

    /// What `convert` makes of a body.
    struct Converted: Equatable {
        /// The statements of the twin's body (without indentation).
        var lines: [String]
        /// The token of a final `.withToken(token)`, which the wrapper keeps: the callbacks that
        /// callers register through the returned `TokenPromise` still check it.
        var token: String?
        /// With `stripsTail`, the lines of the chain alone (`lines` are the preamble's).
        var chainLines: [String]? = nil
        /// The `.nowOr(c)` of a last step off the caller's actor: 1.x's promise resolved at once or on `c`, and so does the
        /// wrapper's (`.then(on: .nowOr(c)) { _ in }`), for its `.immediate` observers (ChainConversion+NowOr.swift).
        var resolvedOn: String? = nil
        /// Whether every result resolves there (`.always(on: c) { _ in }`: a final `delay`, ChainConversion+Tails.swift), not the value only.
        var resolvedOnEveryResult = false
    }

    /// The statements of the twin's body (without indentation), or why not.
    func convert(_ body: CodeBlockSyntax) -> Result<Converted, Left> {
        Result { try converted(body) }.mapError { $0 as? Left ?? Left("\($0)") }.flatMapError { left in
            // A final `timeout` or `recover { _ in }` the chain's own conversion left: the steps alone, the tail around them.
            convertedWithTail(body, left: left)
        }
    }

    func converted(_ original: CodeBlockSyntax) throws -> Converted {
        guard let originalLast = original.statements.last else { throw Left("an empty body") }
        // `[weak self]` closures of the chain: in the twin, `self` is the method's own.
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
        // `x.withToken(token)` at the end: the wrapper returns `….withToken(token)`.
        var chained = expression
        var token: String?
        if let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
           member.declName.baseName.text == "withToken", let inner = member.base,
           call.arguments.count == 1, call.arguments.first?.label == nil, call.trailingClosure == nil {
            guard tokenPromise else { throw Left("`withToken(token)` in a function that returns a plain promise") }
            token = call.arguments.first!.expression.trimmedDescription
            chained = inner
        }
        if stripsTail, let (_, inner) = Self.tail(of: chained) { chained = inner }
        let (base, parsedSteps, propagation) = try chainWithPropagation(chained, limit: split?.steps)
        if tokenPromise, token == nil { throw Left("returns a `TokenPromise` that is not made by a final `.withToken(token)`") }
        var steps = parsedSteps
        // The compiler's types, read from the original text (the steps are the same, in order).
        var baseSpelled: String?
        var initializerSpelled: String?
        if let originalLast = original.statements.last,
           let originalExpression = originalLast.item.as(ReturnStmtSyntax.self)?.expression ?? originalLast.item.as(ExprSyntax.self) {
            var originalChained = originalExpression
            if token != nil, let call = originalExpression.as(FunctionCallExprSyntax.self),
               let inner = call.calledExpression.as(MemberAccessExprSyntax.self)?.base {
                originalChained = inner
            }
            if stripsTail, let (_, inner) = Self.tail(of: originalChained) { originalChained = inner }
            if let (originalBase, originalSteps) = try? chain(originalChained, allowingCaptures: true, limit: split?.steps),
               originalSteps.count == steps.count {
                baseSpelled = originalBase.as(FunctionCallExprSyntax.self).flatMap(typeOfCall)
                initializerSpelled = Self.initializer(underOperatorOf: originalBase).flatMap(typeOfCall)
                var baseType = originalBase.as(FunctionCallExprSyntax.self).flatMap(typeOfCall).flatMap(Self.promiseType(spelled:))
                for index in steps.indices {
                    steps[index].baseType = baseType
                    steps[index].type = originalSteps[index].call.flatMap(typeOfCall).flatMap(Self.promiseType(spelled:))
                    steps[index].written = originalSteps[index].closure
                    baseType = steps[index].type
                }
            }
        }
        // `when(fulfilled:)` stays, awaited through `.value`: `async let` or a task group would
        // await in order and cancel the other inputs on a failure, where `when` decides on the
        // first failure in time and leaves the others running.
        let isWhen = base.as(FunctionCallExprSyntax.self).flatMap { Calls.calledName($0)?.0 } == "when"
        // `f().timeout(on: c, delay: d)` alone: the base with its operator, awaited.
        let operatorOnBase = base.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self)
            .map { Self.baseOperators.contains($0.declName.baseName.text) } == true
        guard !steps.isEmpty || isWhen || token != nil || !preamble.lines.isEmpty || propagation != nil || operatorOnBase else {
            throw Left("not a chain: no promise operators")
        }
        // `PromiseContext.isExecutingNow` in the first step's closure on `.nowOr`: the flag (ChainConversion+NowOrExecutingNow.swift).
        let readsExecutingNow = try Self.readsExecutingNowOnNowOr(steps, in: body)
        // Promises the statements before the chain keep in `let`s: their types (for a handler
        // on one), and those only the chain's base reads, which it consumes: a local handle to a
        // promise would block the cancel request of the promise awaited from it (1.x's
        // function had returned, and its locals were gone).
        let locals = promiseLocals(Array(original.statements.dropLast()), in: original)
        if let name = base.as(DeclReferenceExprSyntax.self)?.baseName.text, let type = locals.types[name], !steps.isEmpty, steps[0].baseType == nil {
            steps[0].baseType = type
        }
        var writer = Writer(conversion: self, taken: Self.identifiers(in: body).union(reservedNames))
        writer.declared = preamble.declared
        // Each token's validity, taken where the chain registered its callbacks (after the
        // statements before it, during the call: the wrapper starts the twin at once) and checked
        // where each callback would have run: an observer is skipped, another step cancels.
        var validityLines: [String] = []
        for token in steps.compactMap(\.token) where writer.validities[token] == nil {
            let name = writer.freshName(forValidityOf: token)
            writer.validities[token] = name
            validityLines.append("let \(name) = \(token).validity()")
        }
        writer.consumable = locals.consumable
        writer.pending = .promise(Self.consuming(locals.consumable, in: base))
        steps = settlingNowOr(steps)
        var probe = writer
        let yieldPoint = try yieldPoint(steps) { step in
            if case .inline = try probe.placement(of: step) { return true }
            return false
        }
        // `StdPromise(on: .utility) { resolver in … }` took its value type from the function's return: in the twin,
        // nothing gives it, so it is spelled (the compiler's type of the original call).
        if let split {
            // After a split: what stands for the chain before it (ChainConversion+Split.swift).
            writer.pending = split.base
            if !steps.isEmpty, steps[0].baseType == nil { steps[0].baseType = split.type }
        } else if let call = base.as(FunctionCallExprSyntax.self), let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
           name.hasSuffix("Promise"), Self.promiseArgument(of: call, label: "fulfilled") == nil, let baseSpelled,
           Self.consuming(locals.consumable, in: base).trimmedDescription == base.trimmedDescription {
            let text = Self.dedented(base.trimmedDescription, by: Self.lineIndentation(of: base))
            writer.pending = .promise(Self.parse("(\(text) as \(baseSpelled))"))
        } else if let initializerSpelled, let pinned = Self.pinningInitializer(under: base, as: initializerSpelled),
                  Self.consuming(locals.consumable, in: base).trimmedDescription == base.trimmedDescription {
            writer.pending = .promise(pinned)
        }
        try writer.bindNowOrBase(of: steps)
        let executingNowFlag = readsExecutingNow ? try writer.executingNowFlag(of: steps) : nil
        if yieldPoint == 0, let awaited = writer.pendingPromise {
            writer.conversion.yieldsAfterAwaitOf = (awaited.id, steps[0].baseType?.hasNoError ?? noError)
        } else if yieldPoint == 0, split != nil, case .expression(let awaited) = writer.pending {
            // A split's local function, awaited directly: the same suspension after it.
            writer.pending = .expression("try await Task.yieldingAfter { \(awaited) }")
        }
        if let propagation {
            // `propagatingCancellation`'s handler runs when the Task is cancelled while it awaits the base.
            writer.pending = .expression("try await withTaskCancellationHandler {\n" + Writer.indent(writer.pendingText) + "\n} onCancel: {\n"
                + propagation.handler.map(Writer.indent).joined(separator: "\n") + "\n}")
        }
        // Error handlers and `always` come last; value steps before them.
        var index = 0
        // Error handlers on the chain's base, before its value steps (`get(x).mapError { … }.flatMap { … }`):
        // a do/catch around the first await.
        while index < steps.count, Self.errorOperators.contains(steps[index].name),
              steps[(index + 1)...].contains(where: { Self.valueOperators.contains($0.name) }) {
            try writer.leadingHandler(steps[index], next: steps[(index + 1)...].first { Self.valueOperators.contains($0.name) })
            index += 1
        }
        writer.handlersFollow = steps.contains { Self.errorOperators.contains($0.name) } && index < steps.count
            && steps[index...].contains { Self.errorOperators.contains($0.name) }
        while index < steps.count, Self.valueOperators.contains(steps[index].name) || steps[index].name == "onCancel"
                || Self.isResultStep(steps[index]) {
            if Self.isResultStep(steps[index]) {
                // `mapResult` or `flatMapResult` with steps after it (ChainConversion+ResultSteps.swift).
                try writer.resultStep(steps[index])
                index += 1
                continue
            }
            if steps[index].name == "onCancel" {
                // Without the compiler's type of its base, the type the closure before it declares (`map { v -> Int in … }`).
                if steps[index].baseType == nil, index > 0, ["map", "flatMap"].contains(steps[index - 1].name),
                   let declared = steps[index - 1].closure.signature?.returnClause?.type {
                    let type = steps[index - 1].name == "map" ? "Promise<\(declared.trimmedDescription), Swift.Error>" : declared.trimmedDescription
                    steps[index].baseType = Self.promiseType(spelled: type)
                }
                // `onCancel` keeps its promise's type: the compiler's type of the call, or, the chain's last step, the function's.
                if steps[index].baseType == nil { steps[index].baseType = steps[index].type ?? (steps[index].isLast ? functionPromise : nil) }
                try writer.cancelHandler(steps[index])
                index += 1
                continue
            }
            // The `let`s share one scope with the later value steps (a handler's `catch` and a `defer` do not see them).
            writer.readLater = steps[(index + 1)...].prefix { Self.valueOperators.contains($0.name) }.reduce(into: []) {
                $0.formUnion(Self.freeNames(in: $1.closure))
            }
            // A `mapResult` after it reads its result (its early `return` is not the twin's).
            writer.isLastValueStep = index + 1 == steps.count
                || !Self.valueOperators.union(Self.resultOperators).contains(steps[index + 1].name)
            if index == yieldPoint, index > 0 { writer.yieldBeforeNextStep() }
            try writer.valueStep(steps[index])
            index += 1
        }
        let tail = Array(steps[index...])
        try writer.finish(tail: tail)
        if let executingNowFlag { writer.lines = Self.substitutingExecutingNow(writer.lines, flag: executingNowFlag) }
        // The statements before the chain come first: outside the `do` of an error handler (an
        // early `return Promise(rejected: e)`, now `throw e`, never reached the chain's handler)
        // and before the `defer` of an `always` (which an early return never reached either).
        // `lock.lock()` … `lock.unlock()` (unavailable in async code) as `lock.withLock { … }`.
        if stripsTail || split != nil {
            // A value a capture list binds (`[x = f()]`) would be bound twice, in the local function and after it.
            if split != nil, !boundCaptures.isEmpty {
                throw Left("a capture list that binds a value (`\(boundCaptures[0])`), in a chain split at a `timeout` or a `mapResult`")
            }
            let chainLines = try Self.withLocks(validityLines + boundCaptures + writer.hoisted + writer.lines)
            var converted = Converted(lines: try Self.withLocks(preamble.lines), token: token, chainLines: chainLines)
            if split != nil { converted.resolvedOn = writer.resolvedOn(last: parsedSteps.last) }
            return converted
        }
        var converted = Converted(
            lines: try Self.withLocks(preamble.lines + validityLines + boundCaptures + writer.hoisted + writer.lines), token: token
        )
        converted.resolvedOn = writer.resolvedOn(last: parsedSteps.last)
        return converted
    }

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
    private func chain(_ expression: ExprSyntax, allowingCaptures: Bool = false, limit: Int? = nil) throws -> (ExprSyntax, [Step]) {
        let (base, steps, _) = try chainWithPropagation(expression, allowingCaptures: allowingCaptures, limit: limit)
        return (base, steps)
    }

    /// `chain`, and the handler of a `propagatingCancellation` on the base. With a `limit`, the last `limit` operators are the
    /// steps and what they are called on the base (the steps after a split).
    private func chainWithPropagation(_ expression: ExprSyntax, allowingCaptures: Bool = false,
                                      limit: Int? = nil) throws -> (ExprSyntax, [Step], Propagation?) {
        var steps: [Step] = []
        var current = expression
        var propagation: Propagation?
        var parsed = 0
        while parsed != limit, let call = current.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base {
            var name = member.declName.baseName.text
            // `f().ignoringCancel()`, `f().timeout(on: c, delay: d)`, `f().delay(on: c, d)` on the chain's base: that
            // promise, awaited as it is. A cancelled Task asks it to cancel as one observer and keeps waiting for its
            // outcome (`ignoringCancel` still delivers its value; `timeout` passes the request on, as for a child).
            if Self.baseOperators.contains(name), call.trailingClosure == nil, !Self.isOperatorCall(base) {
                break
            }
            if name == "propagatingCancellation" {
                guard !Self.isOperatorCall(base) else {
                    throw Left("`propagatingCancellation` after a step (its handler would run for a cancel request made while the steps "
                        + "before it ran, which no Task cancellation handler can tell apart)")
                }
                propagation = try Self.propagation(call)
                current = base
                continue
            }
            if name == "withToken" {
                // `x.withToken(t).map { … }`: the TokenPromise registers each later callback with `t`,
                // and each promise it returns with `t.requestCancelOnInvalidate(_:)` (an invalidation
                // cancels the request in flight): the twin's own callers would not be cancelled.
                throw Left("callbacks registered through `withToken(token)` (their promises are cancelled when it is invalidated, "
                    + "which the twin's callers would not be)")
            }
            if let reason = Self.unconvertible[name] { throw Left(reason) }
            // `tryMap { try … }`: the same statements; what the closure throws, the twin throws.
            if let plain = Self.throwingValueOperators[name] { name = plain }
            let known = Self.valueOperators.union(Self.errorOperators).union(["always", "tap", "onCancel"]).union(Self.resultOperators)
            if !known.contains(name) {
                if CallbackOperators.names.contains(name) { throw Left("`\(name)` is not converted") }
                break
            }
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
                    } else if Self.isFunctionName(argument.expression),
                              let wrapped = Self.parse("{ \(argument.expression.trimmedDescription)($0) }").as(ClosureExprSyntax.self) {
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
            if let owner { closure = try Self.withoutOwner(closure, owner: owner, operator: name) }
            if let capture = closure.signature?.capture, !allowingCaptures {
                throw Left("a closure with a capture list (`\(capture.trimmedDescription)`)")
            }
            var step = Step(name: name, context: context, closure: closure, isLast: current.id == expression.id, call: call)
            step.token = token
            // `mapError { $0 as Swift.Error }` does nothing in an untyped async function.
            if !Self.isErasure(step) { steps.insert(step, at: 0) }
            current = base
            parsed += 1
        }
        return (current, steps, propagation)
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

    // MARK: - Reading syntax

    /// Whether `expression` names a function without evaluating anything: `f`, `Type.f`,
    /// `Type.init`, `LedgerError.bank`, `f(_:label:)` (a name, `.`-separated names, argument names).
    static func isFunctionName(_ expression: ExprSyntax) -> Bool {
        if expression.is(DeclReferenceExprSyntax.self) { return true }
        if let member = expression.as(MemberAccessExprSyntax.self), let base = member.base {
            return base.is(DeclReferenceExprSyntax.self) || base.is(TypeExprSyntax.self) || isFunctionName(base)
        }
        return false
    }

    /// `text` parsed as one expression (a closure's renamed result).
    static func parse(_ text: String) -> ExprSyntax {
        Parser.parse(source: text).statements.first?.item.as(ExprSyntax.self) ?? ExprSyntax(DeclReferenceExprSyntax(baseName: .identifier(text)))
    }

    /// A `return` that belongs to the code itself (not to a nested closure or function).
    static func containsReturn(_ node: Syntax) -> Bool {
        if node.is(ReturnStmtSyntax.self) { return true }
        if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) { return false }
        return node.children(viewMode: .sourceAccurate).contains { containsReturn($0) }
    }

    /// Every identifier written in `node` (names a new `let` must not shadow).
    /// `stem`, or `stem2`, `stem3`, …: the first name not in `taken`.
    static func firstFree(_ stem: String, avoiding taken: Set<String>) -> String {
        var name = stem
        var number = 2
        while taken.contains(name) {
            name = "\(stem)\(number)"
            number += 1
        }
        return name
    }

    static func identifiers(in node: some SyntaxProtocol) -> Set<String> {
        Set(node.tokens(viewMode: .sourceAccurate).compactMap { token in
            if case .identifier(let text) = token.tokenKind { return text }
            return nil
        })
    }

    /// The names `closure` may read from outside: its identifiers but member names (after a
    /// `.`), argument labels and its own parameters (more than it reads; never fewer).
    static func freeNames(in closure: ClosureExprSyntax) -> Set<String> {
        let own = Set(parameters(of: closure)?.names ?? [])
        return Set(closure.statements.flatMap { $0.tokens(viewMode: .sourceAccurate) }.compactMap { token in
            guard case .identifier(let text) = token.tokenKind, !isMemberOrLabel(token), !own.contains(text) else { return nil }
            return text
        })
    }

    /// Whether `token` is a member name (`x.name`) or an argument label (`f(name: x)`): not a reference to a variable.
    static func isMemberOrLabel(_ token: TokenSyntax) -> Bool {
        token.previousToken(viewMode: .sourceAccurate)?.tokenKind == .period || token.parent?.as(LabeledExprSyntax.self)?.label?.id == token.id
    }

    /// A statement's text, its continuation lines shifted left by the statement's own column
    /// (the caller indents every line anew).
    static func text(of statement: CodeBlockItemSyntax) -> String {
        dedented(statement.trimmedDescription, by: column(of: statement))
    }

    /// How many columns precede the statement's first token on its line.
    static func column(of node: some SyntaxProtocol) -> Int {
        var count = 0
        var token = node.firstToken(viewMode: .sourceAccurate)
        // Leading trivia after the last newline, then whole tokens of the same line before it.
        var pieces = token.map { Array($0.leadingTrivia) } ?? []
        while true {
            if let newline = pieces.lastIndex(where: \.isNewline) {
                return count + pieces[(newline + 1)...].reduce(0) { $0 + $1.sourceLength.utf8Length }
            }
            count += pieces.reduce(0) { $0 + $1.sourceLength.utf8Length }
            guard let previous = token?.previousToken(viewMode: .sourceAccurate) else { return count }
            let trailing = Array(previous.trailingTrivia)
            if let newline = trailing.lastIndex(where: \.isNewline) {
                return count + trailing[(newline + 1)...].reduce(0) { $0 + $1.sourceLength.utf8Length }
            }
            count += previous.trailingTrivia.sourceLength.utf8Length + previous.text.utf8.count
            pieces = Array(previous.leadingTrivia)
            token = previous
        }
    }

    /// The spaces that begin the line `node` starts on (its statement's indentation).
    static func lineIndentation(of node: some SyntaxProtocol) -> Int {
        let source = Array(Syntax(node).root.description.utf8)
        var index = min(node.positionAfterSkippingLeadingTrivia.utf8Offset, source.count)
        while index > 0, source[index - 1] != UInt8(ascii: "\n") { index -= 1 }
        var spaces = 0
        while index + spaces < source.count, source[index + spaces] == UInt8(ascii: " ") { spaces += 1 }
        return spaces
    }

    /// `text` with up to `columns` leading spaces removed from every line after the first.
    static func dedented(_ text: String, by columns: Int) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return ([String(lines[0])] + lines.dropFirst().map { line in
            let spaces = line.prefix { $0 == " " }.count
            return String(line.dropFirst(min(spaces, columns)))
        }).joined(separator: "\n")
    }

    /// Whether `node` holds an implicit member (`.notFound`) outside nested closures.
    static func containsImplicitMember(_ node: Syntax) -> Bool {
        if let member = node.as(MemberAccessExprSyntax.self), member.base == nil { return true }
        if node.is(ClosureExprSyntax.self) { return false }
        return node.children(viewMode: .sourceAccurate).contains { containsImplicitMember($0) }
    }

    /// The `$0` tokens of `closure` itself (not of closures nested in it).
    static func anonymousArguments(of closure: ClosureExprSyntax) -> (zero: [TokenSyntax], others: Bool) {
        var zero: [TokenSyntax] = []
        var others = false
        func walk(_ node: Syntax) {
            if node.is(ClosureExprSyntax.self), node.id != Syntax(closure).id { return }
            if let token = node.as(TokenSyntax.self), case .dollarIdentifier(let text) = token.tokenKind {
                if text == "$0" { zero.append(token) } else { others = true }
            }
            for child in node.children(viewMode: .sourceAccurate) { walk(child) }
        }
        walk(Syntax(closure))
        return (zero, others)
    }

    /// The closure's parameter names (`_` for an unnamed one), nil when it has none written.
    static func parameters(of closure: ClosureExprSyntax) -> (names: [String], returnType: String?)? {
        guard let signature = closure.signature, let clause = signature.parameterClause else { return nil }
        let returnType = signature.returnClause?.type.trimmedDescription
        // `if case`, not a `switch`: see `CustomContexts.returnedExpression(of:)`.
        if case .simpleInput(let list) = clause { return (list.map(\.name.text), returnType) }
        if case .parameterClause(let parameters) = clause {
            return (parameters.parameters.map { ($0.secondName ?? $0.firstName).text }, returnType)
        }
        return nil
    }
}

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

    mutating func placement(of step: ChainConversion.Step) throws -> Placement {
        try placement(of: step.context)
    }

    mutating func placement(of context: ExprSyntax?) throws -> Placement {
        guard var context else { return .inline }
        let originalContextID = context.id
        // `PromiseContext.utility` as `.utility`, `PromiseContext.nowOr(.main)` as `.nowOr(.main)`.
        let spelled = context.trimmedDescription
        if spelled.hasPrefix("PromiseContext."), spelled.dropFirst("PromiseContext.".count).first?.isLowercase == true {
            context = ChainConversion.parse(String(spelled.dropFirst("PromiseContext".count)))
        }
        // `.nowOr(c)` ran the closure at once when the promise had already resolved, else on `c`. Where `c` runs it
        // inline too (`.main` on the main actor, a caller-isolated context on an actor), so does the twin, which goes on
        // without suspending when what it awaits has resolved. Elsewhere the twin cannot tell which of the two it was.
        if let call = context.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
           member.base == nil, member.declName.baseName.text == "nowOr", call.arguments.count == 1, let inner = call.arguments.first?.expression {
            let innerPlacement = try placement(of: inner)
            if case .inline = innerPlacement { return .inline }
            if case .executor(let executor) = innerPlacement, let nowOrBase, nowOrBase.context == originalContextID {
                return .nowOr(flag: nowOrBase.flag, executor: executor)
            }
            throw Left("a `.nowOr` context off its caller's actor (`\(context.trimmedDescription)`: the closure ran at once when the promise "
                + "had resolved, else on the context; the twin cannot tell whether its await suspended)")
        }
        // `fast ? .immediate : .utility` in nonisolated code: the executor chosen where the chain was built
        // (`nil` for a context that runs the closure inline: a `@concurrent` closure then runs on the global executor).
        if let sequence = context.as(SequenceExprSyntax.self), let index = sequence.elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }),
           let ternary = sequence.elements[index].as(UnresolvedTernaryExprSyntax.self) {
            let condition = sequence.elements[..<index].map(\.trimmedDescription).joined(separator: " ")
            let otherwise = ChainConversion.parse(sequence.elements[sequence.elements.index(after: index)...].map(\.trimmedDescription).joined(separator: " "))
            let branches = [(ternary.thenExpression, try placement(of: ternary.thenExpression)), (otherwise, try placement(of: otherwise))]
            // In actor-isolated code only `.immediate` may stand for the global executor (ChainConversion+Contexts.swift).
            if conversion.isolated, let branch = branches.first(where: { branch in
                if case .executor = branch.1 { return false }
                return !ChainConversion.isImmediate(branch.0)
            }) {
                throw Left("context value chosen at run time in actor-isolated code (`\(context.trimmedDescription)`: "
                    + "`\(branch.0.trimmedDescription)` ran its closure on the caller's actor's queue, which no executor chosen before the await names)")
            }
            func executor(_ placement: Placement) -> String {
                if case .executor(let text) = placement { return text }
                return "nil"
            }
            let first = executor(branches[0].1)
            let second = executor(branches[1].1)
            let name = freshName(stem: "executor")
            hoisted.append("let \(name): (any TaskExecutor)? = \(condition) ? \(first) : \(second)")
            return .executor(name)
        }
        // A stored property of the function's type (`delivery`, `self.delivery`), not shadowed by a parameter or a local.
        let stored = context.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? context.as(MemberAccessExprSyntax.self).flatMap { member in
                member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" ? member.declName.baseName.text : nil
            }
        if let stored, let property = conversion.storedContexts[stored],
           context.is(MemberAccessExprSyntax.self) || !declared.contains(stored) && !conversion.parameterNames.contains(stored) {
            // A `let` that holds a context spelled out: that context.
            if let constant = property.constant { return try placement(of: constant) }
            let type = property.type.hasPrefix("Tomorrowland.") ? String(property.type.dropFirst("Tomorrowland.".count)) : property.type
            let text = context.trimmedDescription
            // Every value of `PromiseContext.Main` (`.main`, `.nowOr(.main)`) runs the closure on the main actor, as `.main` does.
            if type == "PromiseContext.Main" { return conversion.onMainActor ? .inline : .executor("\(text).context.taskExecutor") }
            // Every value of `PromiseContext.CallerIsolated` (`.auto`, `.immediate`, `.nowOr(…)`) keeps the caller's actor, as `.auto` does.
            if type == "PromiseContext.CallerIsolated" { return conversion.isolated ? .inline : .executor("\(text).context.taskExecutor") }
        }
        guard let member = context.as(MemberAccessExprSyntax.self), member.base == nil else {
            if let call = context.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
               member.base == nil {
                if member.declName.baseName.text == "nowOr" { throw Left("a `.nowOr` context") }
                return .executor("PromiseContext" + context.trimmedDescription + ".taskExecutor")
            }
            let text = context.trimmedDescription
            if text.hasPrefix("PromiseContext.nowOr") || text.hasPrefix(".nowOr") { throw Left("a `.nowOr` context") }
            // `PromiseContext.Named(qos: .utility)`, `PromiseContext.Named.decoding`: a named context, spelled out.
            if text.hasPrefix("PromiseContext.Named") || text.hasPrefix("Named(") || text.hasPrefix("Named.") {
                return .executor("\(text).context.taskExecutor")
            }
            if text.hasPrefix("PromiseContext.Main.") {
                return conversion.onMainActor ? .inline : .executor("\(text).context.taskExecutor")
            }
            // A value that may be `.immediate` (run at once, inline) or caller-isolated: no executor says that.
            let words = ChainConversion.identifiers(in: context)
            if text.hasPrefix("PromiseContext.CallerIsolated.") || !words.isDisjoint(with: ["immediate", "auto", "nowOr"]) {
                throw Left("context value not known statically (`\(text)`)")
            }
            // A `PromiseContext` held in a value (a property, `PromiseContext.decoding`, a
            // ternary): 1.x ran the closure on the context it holds, nonisolated, as the
            // value overloads still do; its task executor is that queue. (A value holding
            // `.immediate` or `.nowOr` has none: the closure then runs on the global
            // concurrent executor, after a hop.)
            let postfix = context.is(DeclReferenceExprSyntax.self) || context.is(MemberAccessExprSyntax.self)
            return .executor((postfix ? text : "(\(text))") + ".taskExecutor")
        }
        let name = member.declName.baseName.text
        if conversion.mainContexts.contains(name) {
            // A context of the user's on `PromiseContext.Main`: as `.main`.
            return conversion.onMainActor ? .inline : .executor("PromiseContext.Main.\(name).context.taskExecutor")
        }
        if conversion.callerIsolatedContexts.contains(name) {
            // A context of the user's on `PromiseContext.CallerIsolated`: as `.auto`.
            return conversion.isolated ? .inline : .executor("PromiseContext.CallerIsolated.\(name).context.taskExecutor")
        }
        switch name {
        case "immediate", "auto": return .inline
        case "main": return conversion.onMainActor ? .inline : .executor("PromiseContext.main.taskExecutor")
        default: return .executor("PromiseContext" + context.trimmedDescription + ".taskExecutor")
        }
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

    mutating func valueStep(_ step: ChainConversion.Step) throws {
        let placement = try placement(of: step)
        if case .inline = placement, step.name == "map", step.token == nil, substitutable(step.closure) {
            pending = .expression(pendingText + step.closure.statements.first!.trimmedDescription.dropFirst(2))
            return
        }
        let (name, body) = try parameter(of: step.closure)
        if step.name == "then" {
            // The value passes through: it needs a name unless nothing reads it later.
            var keep = name
            // A `Void` value nothing reads: evaluated, not kept (`let value = …` of `()` warns).
            if name == "_", let value = step.baseType?.value, ["Void", "()", "Swift.Void"].contains(value) {
                bind("_")
                try run(body, step: step, placement: placement, result: false)
                pending = .expression("()")
                return
            }
            if name == "_" {
                // A name already bound passes through as it is.
                if case .expression(let bound) = pending, boundNames.contains(bound) { keep = bound } else { keep = freshName(for: pendingPromise) }
            }
            bind(keep)
            try run(body, step: step, placement: placement, result: false)
            pending = .expression(keep)
            return
        }
        bind(name)
        let value = try run(body, step: step, placement: placement, result: true)
        if returned {
            pending = .expression("()")
        } else if step.name == "flatMap", case .inline = placement {
            // The closure's promise, awaited (through the twin of its call, if it has one).
            let original = step.closure.statements.count == 1 && body == step.closure.statements.map(ChainConversion.text(of:))
                ? step.closure.statements.first?.item.as(ExprSyntax.self) : nil
            var promise = original ?? ChainConversion.parse(value)
            // `a ?? Promise(rejected: .notFound)` took its type from the closure's: spelled out
            // where it is the function's; elsewhere not known.
            if !promise.is(FunctionCallExprSyntax.self), ChainConversion.containsImplicitMember(Syntax(promise)) {
                guard step.isLast, !conversion.promiseType.isEmpty else { throw Left("a `flatMap` whose promise takes its type from the chain") }
                promise = ChainConversion.parse("(\(promise.trimmedDescription) as \(conversion.promiseType))")
            }
            pending = .promise(promise)
        } else {
            pending = .expression(value)
            pendingDeclared = Self.declaredType(of: step).map { (value, $0) }
        }
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

    var pendingPromise: ExprSyntax? {
        if case .promise(let expression) = pending { return expression }
        return nil
    }

    /// Emits `body` (the closure's statements) inline or on its executor; returns the
    /// expression of its result (for `map` and `flatMap`, `result`).
    @discardableResult
    mutating func run(_ body: [String], step: ChainConversion.Step, placement: Placement, result: Bool) throws -> String {
        let statements = Array(step.closure.statements)
        switch placement {
        case .inline:
            // A step that an invalidated token skips and cancels: the check comes first.
            if step.token != nil, !step.observes { lines += guarded([], by: step) }
            // An early `return x` of the last `map` is the twin's `return x` (what follows is an
            // error handler's `catch` or an `always`'s `defer`, which a value skipped or ran anyway).
            let returnsTheValue = isLastValueStep && step.name == "map" && result
            let returnsEarly = statements.dropLast().contains(where: { ChainConversion.containsReturn(Syntax($0)) })
            // The last `flatMap`'s `return p` is the twin's `return try await p`: its statements become the twin's.
            if isLastValueStep, step.name == "flatMap", result, returnsEarly || statements.last?.item.is(StmtSyntax.self) == true {
                let types = conversion.types(of: step, isFinal: step.isLast || !handlersFollow)
                lines += try conversion.closureStatements(body, returning: .promise(types))
                returned = true
                return "()"
            }
            if !returnsTheValue, returnsEarly {
                throw Left("a closure that returns early")
            }
            guard result else {
                if statements.last.map({ ChainConversion.containsReturn(Syntax($0)) }) == true { throw Left("a closure that returns early") }
                lines += step.observes ? guarded(body, by: step) : body
                return "()"
            }
            if let last = statements.last?.item.as(ReturnStmtSyntax.self), last.expression != nil {
                lines += body.dropLast()
                return String(body.last!.dropFirst("return".count)).trimmingCharacters(in: .whitespaces)
            }
            // `{ _ in }` of a `Void` chain: `()`.
            if statements.isEmpty, conversion.returnsVoid { return "()" }
            guard statements.count == 1, statements.first?.item.is(ExprSyntax.self) == true else {
                throw Left("a `\(step.name)` closure without a returned value")
            }
            return body[0]
        case .nowOr(let flag, let executor):
            return try runNowOr(body, step: step, flag: flag, executor: executor, result: result)
        case .executor(let executor):
            var inner = body
            if ChainConversion.promiseSteps.contains(step.name) {
                // The closure runs on the context and its promise is awaited there (1.x adopted
                // it without a hop; the awaited twin runs on the caller's executor, this one).
                // Each `return` of a promise is the closure's `return` of its value (or `throw`).
                let types = conversion.types(of: step, isFinal: step.isLast || (isLastValueStep && !handlersFollow && step.name == "flatMap"))
                inner = try conversion.closureStatements(body, returning: .promise(types))
                if inner.count == 1, inner[0].hasPrefix("return ") { inner[0] = String(inner[0].dropFirst("return ".count)) }
            }
            if step.token != nil {
                // Checked on the context, where the callback would have run. A single expression
                // that was the closure's value is returned after the check.
                if result, !step.observes, inner.count == 1, statements.count == 1, statements.first?.item.is(ExprSyntax.self) == true,
                   !inner[0].hasPrefix("return "), !inner[0].hasPrefix("throw ") {
                    inner[0] = "return " + inner[0]
                }
                inner = guarded(inner, by: step)
            }
            let effects = ChainConversion.throwsOutsideClosures(inner.joined(separator: "\n")) ? "try await" : "await"
            // Code that enters an actor with `assumeIsolated` runs isolated to it instead (ChainConversion+Isolation.swift).
            let call = try ChainConversion.onAssumedActor(inner, parameterTypes: conversion.parameterTypes)
                ?? "\(effects) withTaskExecutorPreference(\(executor)) { @concurrent in\n" + inner.map(Self.indent).joined(separator: "\n") + "\n}"
            guard result else {
                lines.append(call)
                return "()"
            }
            return call
        }
    }

    /// The error handlers and `always` at the end of the chain, then the `return`.
    mutating func finish(tail: [ChainConversion.Step]) throws {
        if let step = tail.first(where: ChainConversion.isResultStep), let first = tail.first {
            // Where the chain can be split there, the steps before it become a local function (ChainConversion+Split.swift).
            throw Left("`\(step.name)` with steps after it, after `\(first.name)` (a limit of the tool where the chain is not split there: "
                + "in a `TokenPromise` function, or one whose promise type is not known)")
        }
        if let last = tail.last, ChainConversion.resultOperators.contains(last.name) {
            // After an error handler, `always` or `tap`: the steps are a local function (ChainConversion+ResultTail.swift).
            guard tail.count == 1 else { throw Left("`\(last.name)` after `\(tail[0].name)`") }
            try mapResult(last)
            return
        }
        // A final `tap` or `always` that reads the result: the result is taken, the closure runs, the result is returned.
        if tail.count == 1, let step = tail.first, step.isLast, ["tap", "always"].contains(step.name), step.readsParameter {
            try resultObserver(step)
            return
        }
        var handlers: [ChainConversion.Step] = []
        var always: [ChainConversion.Step] = []
        var cancels: [ChainConversion.Step] = []
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
            // (the last one on a named context is started, not awaited: below).
            if step.name == "always" || step.name == "tap" {
                always.append(step)
            } else if ChainConversion.valueOperators.contains(step.name) {
                throw Left("`\(step.name)` after an error handler")
            } else if !always.isEmpty {
                throw Left("`\(step.name)` after `always`")
            } else if step.name == "onCancel" {
                cancels.append(step)
            } else {
                handlers.append(step)
            }
        }
        if handlers.count > 1 { throw Left("several error handlers in one chain") }
        // `onCancel` at the end, before or after the error handler (they see disjoint errors): a
        // `catch` of `CancellationError` that runs its statements (on its context) and rethrows.
        var cancelClause: [String] = []
        if !cancels.isEmpty {
            if conversion.noError, !handlers.isEmpty { throw Left("`onCancel` beside a handler of a promise that cannot fail") }
            var handling: [String] = []
            for step in cancels {
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
            cancelClause = ["} catch let error as CancellationError {"] + (handling + ["throw error"]).map(Self.indent)
        }
        var deferred: [String] = []
        // `always` on a named context: its closure hops there, which a `defer` cannot; it runs
        // on every path instead (after the value, after the handler, on cancellation).
        var finally: [String] = []
        var hops = false
        // A last `tap { _ in … }` on a named context: started, not awaited, on every path (ChainConversion+FinalTap.swift).
        var startsTap: [String] = []
        for step in always {
            let placement = try placement(of: step)
            if let executor = notAwaitedTapExecutor(step, placement: placement) {
                let (_, body) = try parameter(of: notAwaitedTapClosure(step))
                startsTap = ["defer {"] + notAwaitedTask(body, of: step, executor: executor).map(Self.indent) + ["}"]
                continue
            }
            let (name, body) = try parameter(of: step.closure)
            if name != "_" { throw Left("`always` reads the result") }
            deferred += guarded(body, by: step)
            let outer = lines
            lines = []
            try run(body, step: step, placement: placement, result: false)
            finally += lines
            lines = outer
            // On `.nowOr` too: one of its two paths hops.
            if case .inline = placement {} else { hops = true }
        }
        if hops {
            // A promise that cannot fail: the `catch` below sees only `CancellationError` (the do's
            // awaits throw nothing else), runs the code there and rethrows it, typed as the twin's.
            if conversion.noError, let handler = handlers.first {
                throw Left("`always` on a named context beside a `\(handler.name)` in a chain whose promise cannot fail")
            }
            if !cancels.isEmpty { throw Left("`onCancel` and `always` on a named context at the end of one chain") }
            if returned || handlers.contains(where: { $0.name != "catch" }) {
                throw Left("`always` on a named context after a `\(handlers.first?.name ?? "flatMap")` that returns (a `defer` cannot hop)")
            }
            deferred = []
        }
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
        if hops {
            // `return x` after the `always` code: `let value = x`, the code, `return value`.
            if conversion.returnsVoid {
                if !finalLine.isEmpty { main.append(finalLine) }
                main += finally
            } else if boundNames.contains(value) {
                main += finally + ["return \(value)"]
            } else {
                let kept = freshName(for: nil)
                main += ["let \(kept) = " + value] + finally + ["return \(kept)"]
            }
        } else if !finalLine.isEmpty {
            main.append(finalLine)
        }
        if let handler = handlers.first {
            if conversion.noError, !["recover", "flatMapError"].contains(handler.name) { throw Left("`\(handler.name)` in a chain whose promise cannot fail") }
            var (clause, handling) = try handlerLines(handler, assigning: nil)
            if hops {
                // The handler rethrows (`catch`): the `always` code runs before it does.
                handling.insert(contentsOf: finally, at: handling.count - 1)
                main = ["do {"] + main.map(Self.indent) + clause + handling.map(Self.indent) + ["} catch {"]
                    + (finally + ["throw error"]).map(Self.indent) + ["}"]
            } else {
                main = ["do {"] + main.map(Self.indent) + cancelClause + clause + handling.map(Self.indent) + ["}"]
            }
        } else if !cancelClause.isEmpty {
            main = ["do {"] + main.map(Self.indent) + cancelClause + ["}"]
        } else if hops {
            main = ["do {"] + main.map(Self.indent) + ["} catch {"] + (finally + ["throw error"]).map(Self.indent) + ["}"]
        }
        if !deferred.isEmpty {
            main.insert(contentsOf: ["defer {"] + deferred.map(Self.indent) + ["}"], at: 0)
        }
        // First, so that it runs last: after an `always`'s `defer`, as 1.x's `tap` ran after the promise resolved.
        main.insert(contentsOf: startsTap, at: 0)
        lines = main
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

    /// The `catch` clause line(s) of an error handler and the statements under it. At the end
    /// of the chain (`target` nil) a value of `recover` or `flatMapError` is returned; on the
    /// chain's base (`leadingHandler`) it is assigned to `target`.
    mutating func handlerLines(_ handler: ChainConversion.Step, assigning target: String?) throws -> (clause: [String], handling: [String]) {
        let placement = try placement(of: handler)
        let (parameter, body) = try parameter(of: handler.closure, anonymousName: "error")
        let name = parameter == "_" ? "error" : parameter
        let statements = Array(handler.closure.statements)
        let returnsEarly = statements.dropLast().contains { ChainConversion.containsReturn(Syntax($0)) }
            || statements.last?.item.is(ExprSyntax.self) == false
        let types = conversion.types(of: handler, isFinal: target == nil)
        var handling: [String]
        if case .inline = placement, returnsEarly, handler.name == "mapError" {
            // Every `return e` of the closure is the twin's `throw e`.
            handling = guarded(try conversion.closureStatements(body, returning: .error(types.typedError)), by: handler)
        } else if case .inline = placement, returnsEarly, handler.name == "flatMapError", target == nil {
            handling = guarded(try conversion.closureStatements(body, returning: .promise(types)), by: handler)
        } else {
            // The handler's statements (inline, or on its context's executor), then what it ends in.
            let outer = lines
            lines = []
            let value = try run(body, step: handler, placement: placement, result: handler.name != "catch")
            handling = lines
            lines = outer
            switch handler.name {
            case "catch": handling.append("throw \(name)")
            case "recover" where target != nil: handling.append("\(target!) = \(value)")
            case "recover" where conversion.returnsVoid: if value != "()" { handling.append(value) }
            case "recover": handling.append("return " + value)
            case "flatMapError":
                // The closure's promise: awaited (`throw e` for `Promise(rejected: e)`).
                var ending: String
                if case .inline = placement {
                    let original = statements.count == 1 && body == statements.map(ChainConversion.text(of:)) ? statements.first?.item.as(ExprSyntax.self) : nil
                    ending = try conversion.earlyReturn(of: original ?? ChainConversion.parse(value), types: types)
                } else {
                    ending = conversion.returnsVoid && target == nil ? value : "return " + value
                }
                if let target, ending.hasPrefix("return ") { ending = "\(target) = " + ending.dropFirst("return ".count) }
                if target != nil, ending == "return" { throw Left("a `flatMapError` on the chain's base that returns nothing") }
                handling.append(ending)
            default: // mapError
                let thrown = ChainConversion.parse(value)
                // On a context's executor, the closure's type (ChainConversion+ThrownTypes.swift).
                let declared = handler.closure.signature?.returnClause?.type.trimmedDescription ?? (types.typedError.isEmpty ? nil : types.typedError)
                let typed = declared.map { Self.typingExecutorClosure(value, as: $0) } ?? value
                handling.append("throw " + (ChainConversion.isImplicitMember(thrown) && !types.typedError.isEmpty ? types.typedError + value : typed))
            }
        }
        // A catch callback never saw cancellation: `CancellationError` goes on. In a twin
        // that throws only `CancellationError` (a NoError promise's), it is rethrown typed.
        // A typed upstream error is caught as that type (the closure may use its cases).
        let upstream = handler.baseType.flatMap { $0.hasUntypedError || $0.hasNoError ? nil : $0.error }
        let used = handling.contains { ChainConversion.identifiers(in: Parser.parse(source: $0)).contains(name) }
        let clause: [String]
        if conversion.noError, target == nil {
            clause = ["} catch let error as CancellationError {", "    throw error", name == "error" ? "} catch {" : "} catch let \(name) {"]
        } else if let upstream {
            clause = [used ? "} catch let \(name) as \(upstream) {" : "} catch is \(upstream) {"]
        } else {
            clause = ["} catch let \(name) where !(\(name) is CancellationError) {"]
        }
        return (clause, handling)
    }

    /// An error handler on the chain's base, before its value steps: the base awaited into a
    /// `let` in a do/catch, whose catch is the handler. Needs the base's value type (the
    /// compiler's); without it the handler stays on the base's promise, awaited with it.
    mutating func leadingHandler(_ handler: ChainConversion.Step, next: ChainConversion.Step?) throws {
        // The base: a promise, or after a split the local function that stands for the chain before it (ChainConversion+Split.swift).
        let base = pendingPromise
        guard base != nil || conversion.split != nil else { throw Left("`\(handler.name)` in the middle of the chain") }
        guard let valueType = handler.baseType?.value, let call = handler.call else {
            // `get(x).mapError(on: .immediate) { … }`, awaited as one promise.
            guard let call = handler.call, base != nil else { throw Left("`\(handler.name)` in the middle of the chain") }
            // On `.nowOr` the base is in a `let` already: the call would evaluate it again.
            if nowOrBase != nil { throw Left("`\(handler.name)` on `.nowOr` before value steps, on a promise whose value type is not known") }
            pending = .promise(ChainConversion.consuming(consumable, in: ExprSyntax(call)))
            return
        }
        _ = call
        // The next closure's parameter names the value, if it can.
        var name = freshName(for: base)
        let inBase = base.map(ChainConversion.identifiers(in:)) ?? []
        if let next, let (names, _) = ChainConversion.parameters(of: next.closure), names.count == 1, names[0] != "_",
           !taken.subtracting(ChainConversion.identifiers(in: next.closure)).contains(names[0]) || !inBase.contains(names[0]),
           !declared.contains(names[0]), !inBase.contains(names[0]) {
            name = names[0]
        }
        let (clause, handling) = try handlerLines(handler, assigning: name)
        lines += ["let \(name): \(valueType)", "do {", Self.indent("\(name) = " + pendingText)] + clause + handling.map(Self.indent) + ["}"]
        boundNames.insert(name)
        taken.insert(name)
        pending = .expression(name)
    }

    static func indent(_ line: String) -> String {
        line.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
    }
}

extension ChainConversion {
    /// The awaited value of the promise `expression`: `try await f(x)` when `f` has an async
    /// twin, `x` for `Promise(fulfilled: x)`, else `try await <expression>.value`.
    func awaited(_ expression: ExprSyntax) -> String {
        if let yielding = yieldingAwait(of: expression) { return yielding }
        // `x.upcast`: the same promise with its error as `Swift.Error`, which async code throws anyway.
        if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "upcast", let base = member.base {
            return awaited(base)
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            if let value = Self.promiseArgument(of: call, label: "fulfilled") { return value.trimmedDescription }
            if hasTwin(call) { return "try await " + Self.dedented(expression.trimmedDescription, by: Self.lineIndentation(of: expression)) }
        }
        // Over several lines: its continuation lines shifted left by its own column (the caller indents anew).
        let text = Self.dedented(expression.trimmedDescription, by: Self.lineIndentation(of: expression))
        let postfix = expression.is(FunctionCallExprSyntax.self) || expression.is(DeclReferenceExprSyntax.self)
            || expression.is(MemberAccessExprSyntax.self) || expression.is(TupleExprSyntax.self)
        return "try await " + (postfix ? text : "(\(text))") + ".value"
    }

    /// The `let`s of `statements` (before the chain) that hold a promise, with its type (written,
    /// or the compiler's type of the call), and those of them read once in `body`, outside closures;
    /// also a `let` read once as an argument of `when(…)` (`let changes = ids.map { f($0) }`: its
    /// promises, whose handles would block the cancel request `when` passes on).
    func promiseLocals(_ statements: [CodeBlockItemSyntax], in body: CodeBlockSyntax) -> (types: [String: PromiseType], consumable: Set<String>) {
        var types: [String: PromiseType] = [:]
        var others: Set<String> = []
        for statement in statements {
            guard let variable = statement.item.as(VariableDeclSyntax.self), variable.bindingSpecifier.text == "let",
                  variable.bindings.count == 1, let binding = variable.bindings.first,
                  let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value else { continue }
            if let annotation = binding.typeAnnotation?.type, let type = PromiseType(annotation) {
                types[name] = type
            } else if let call = value.as(FunctionCallExprSyntax.self), let type = typeOfCall(call).flatMap(Self.promiseType(spelled:)) {
                types[name] = type
            } else {
                others.insert(name)
            }
        }
        func isWhenArgument(_ token: TokenSyntax) -> Bool {
            guard let argument = token.parent?.parent?.as(LabeledExprSyntax.self), argument.expression.id == token.parent?.id,
                  let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self) else { return false }
            return Calls.calledName(call)?.0 == "when"
        }
        var reads: [String: (count: Int, inClosure: Bool)] = [:]
        for token in body.tokens(viewMode: .sourceAccurate) where token.parent?.is(DeclReferenceExprSyntax.self) == true
            && (types[token.text] != nil || others.contains(token.text)) {
            guard !Self.isMemberOrLabel(token) else { continue }
            var inClosure = false
            var node = token.parent
            while let current = node, current.id != body.id {
                if current.is(ClosureExprSyntax.self) { inClosure = true }
                node = current.parent
            }
            let seen = reads[token.text] ?? (0, false)
            reads[token.text] = (seen.count + 1, seen.inClosure || inClosure)
        }
        var whenArguments: Set<String> = []
        for token in body.tokens(viewMode: .sourceAccurate) where others.contains(token.text) && isWhenArgument(token) {
            whenArguments.insert(token.text)
        }
        let once = Set(reads.filter { $0.value.count == 1 && !$0.value.inClosure }.keys)
        return (types, once.filter { types[$0] != nil || whenArguments.contains($0) })
    }

    /// `expression` with each read of `names` (outside closures) written `(consume name)`.
    static func consuming(_ names: Set<String>, in expression: ExprSyntax) -> ExprSyntax {
        guard !names.isEmpty else { return expression }
        final class Rewriter: SyntaxRewriter {
            let names: Set<String>
            init(names: Set<String>) {
                self.names = names
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: ClosureExprSyntax) -> ExprSyntax { ExprSyntax(node) }
            override func visit(_ node: DeclReferenceExprSyntax) -> ExprSyntax {
                guard names.contains(node.baseName.text) else { return ExprSyntax(node) }
                return ChainConversion.parse("(consume \(node.baseName.text))")
                    .with(\.leadingTrivia, node.leadingTrivia).with(\.trailingTrivia, node.trailingTrivia)
            }
        }
        return Rewriter(names: names).rewrite(expression).as(ExprSyntax.self) ?? expression
    }

    /// `Promise<Menu, NetworkError>` (as the compiler spells a call's type) as a `PromiseType`.
    static func promiseType(spelled: String) -> PromiseType? {
        guard let binding = Parser.parse(source: "let x: \(spelled)").statements.first?.item.as(VariableDeclSyntax.self)?.bindings.first,
              let type = binding.typeAnnotation?.type else { return nil }
        return PromiseType(type)
    }

    /// Whether `statements` (text) can throw out of the closure that holds them: a `try` (not
    /// `try?` or `try!`) or a `throw` outside nested closures.
    static func throwsOutsideClosures(_ statements: String) -> Bool {
        func walk(_ node: Syntax) -> Bool {
            if node.is(ClosureExprSyntax.self) { return false }
            if let tried = node.as(TryExprSyntax.self), tried.questionOrExclamationMark == nil { return true }
            if node.is(ThrowStmtSyntax.self) { return true }
            return node.children(viewMode: .sourceAccurate).contains(where: walk)
        }
        return walk(Syntax(Parser.parse(source: statements)))
    }

    /// `x` of `Promise(fulfilled: x)` (`label` "fulfilled"), `Promise(rejected: x)` ("rejected"),
    /// also spelled `StdPromise`, `Promise<T, E>` or with `.init`; nil for anything else.
    static func promiseArgument(of call: FunctionCallExprSyntax, label: String) -> ExprSyntax? {
        var callee = call.calledExpression
        if let member = callee.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init", let base = member.base {
            callee = base
        }
        if let specialized = callee.as(GenericSpecializationExprSyntax.self) { callee = specialized.expression }
        // `Promise`, `StdPromise`, or a typealias of a promise type (`HubPromise(rejected: .offline)`).
        guard let name = callee.as(DeclReferenceExprSyntax.self)?.baseName.text, name.hasSuffix("Promise"),
              !["TokenPromise", "DelayedPromise"].contains(name),
              call.arguments.count == 1, call.arguments.first?.label?.text == label, call.trailingClosure == nil else { return nil }
        return call.arguments.first!.expression
    }

    /// The first expression the twin's statements `lines` await or `try` whose errors are not known:
    /// anything but a call `hasTwin` accepts, a promise's `.value`, or `withTaskExecutorPreference`
    /// or `withTaskCancellationHandler` (whose operation closure is looked into); nil when there is none. (Awaits in other closures do not
    /// throw from the twin.) A local function the lines declare (a tail's or a split's steps) is known: its own awaits are looked into.
    static func awaitOfUnknownErrors(in lines: [String], hasTwin: @escaping (FunctionCallExprSyntax) -> Bool) -> String? {
        let tree = Parser.parse(source: "func twin() async throws {\n" + lines.joined(separator: "\n") + "\n}")
        let twin = tree.statements.first?.item.as(FunctionDeclSyntax.self)
        let local = Set(twin?.body?.statements.compactMap { $0.item.as(FunctionDeclSyntax.self)?.name.text } ?? [])
        func unknown(in node: Syntax) -> String? {
            if node.is(ClosureExprSyntax.self) { return nil }
            if let tried = node.as(TryExprSyntax.self), tried.questionOrExclamationMark == nil, !tried.expression.is(AwaitExprSyntax.self) {
                // `try MainActor.assumeIsolated { … }` (ChainConversion+NowOrMain.swift) rethrows what its closure throws.
                if let call = tried.expression.as(FunctionCallExprSyntax.self), let closure = mainActorClosure(of: call) {
                    return closure.statements.lazy.compactMap { unknown(in: Syntax($0)) }.first
                }
                return tried.expression.trimmedDescription
            }
            if let awaited = node.as(AwaitExprSyntax.self) {
                // `await Task.yield()` (ChainConversion+Order.swift) throws nothing.
                if awaited.expression.trimmedDescription == "Task.yield()" { return nil }
                if let call = awaited.expression.as(FunctionCallExprSyntax.self),
                   ["withTaskExecutorPreference", "withTaskCancellationHandler", "yieldingAfter"].contains(Calls.calledName(call)?.0),
                   let closure = call.trailingClosure {
                    return closure.statements.lazy.compactMap { unknown(in: Syntax($0)) }.first
                }
                if let call = awaited.expression.as(FunctionCallExprSyntax.self), let closure = mainActorClosure(of: call) {
                    return closure.statements.lazy.compactMap { unknown(in: Syntax($0)) }.first
                }
                // `try await f(x).map(\.title)`: down the postfix chain to the twin's call or `.value`.
                var expression: ExprSyntax? = awaited.expression
                while let current = expression {
                    if let member = current.as(MemberAccessExprSyntax.self) {
                        // `.resolvedResult` (ChainConversion+MapResult.swift) throws nothing.
                        if ["value", "resolvedResult"].contains(member.declName.baseName.text) { return nil }
                        expression = member.base
                    } else if let call = current.as(FunctionCallExprSyntax.self) {
                        if hasTwin(call) { return nil }
                        if call.arguments.isEmpty, let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text,
                           local.contains(name) { return nil }
                        expression = call.calledExpression
                    } else {
                        expression = nil
                    }
                }
                return awaited.expression.trimmedDescription
            }
            return node.children(viewMode: .sourceAccurate).lazy.compactMap { unknown(in: $0) }.first
        }
        return unknown(in: Syntax(tree))
    }

    /// `mapError { $0 as Swift.Error }`: nothing to do in an untyped async function.
    static func isErasure(_ step: ChainConversion.Step) -> Bool {
        guard step.name == "mapError", step.closure.statements.count == 1 else { return false }
        let text = step.closure.statements.first!.trimmedDescription.replacingOccurrences(of: " ", with: "")
        return ["$0asSwift.Error", "$0asError", "$0as(anyError)", "$0asanyError"].contains(text)
    }

    /// Whether `text` may stand as a statement of a Void function (an awaited call).
    func returnsVoidExpression(_ text: String) -> Bool {
        text.hasPrefix("try await ") || text.hasPrefix("await ") || Self.isAssignment(text)
    }
}
