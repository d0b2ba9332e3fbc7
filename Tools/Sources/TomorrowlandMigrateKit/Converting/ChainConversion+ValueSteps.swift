// `convert-body`, the syntax half, continued: the value steps (`then`, `map`, `flatMap`) as
// statements, and a closure's statements run inline or on its executor.

import SwiftParser
import SwiftSyntax

extension Writer {
    /// The chain's steps in order: the error handlers on its base before its value steps, the
    /// value steps (with `onCancel` and `mapResult` among them), then its end (`finish`).
    mutating func write(_ steps: [ChainConversion.Step], yieldPoint: Int?) throws {
        var index = try leadingHandlers(steps)
        handlersFollow = steps.contains { ChainConversion.errorOperators.contains($0.name) } && index < steps.count
            && steps[index...].contains { ChainConversion.errorOperators.contains($0.name) }
        while index < steps.count, Self.isMiddleStep(steps[index]) {
            try middleStep(steps, at: index, yieldPoint: yieldPoint)
            index += 1
        }
        try finish(tail: Array(steps[index...]))
    }

    /// Error handlers on the chain's base, before its value steps (`get(x).mapError { … }.flatMap { … }`):
    /// a do/catch around the first await. How many steps they are.
    mutating func leadingHandlers(_ steps: [ChainConversion.Step]) throws -> Int {
        var index = 0
        while index < steps.count, ChainConversion.errorOperators.contains(steps[index].name),
              steps[(index + 1)...].contains(where: { ChainConversion.valueOperators.contains($0.name) }) {
            try leadingHandler(steps[index], next: steps[(index + 1)...].first { ChainConversion.valueOperators.contains($0.name) })
            index += 1
        }
        return index
    }

    /// Whether `step` is written among the value steps: a value step, `onCancel`, or a `mapResult` or `flatMapResult`.
    static func isMiddleStep(_ step: ChainConversion.Step) -> Bool {
        ChainConversion.valueOperators.contains(step.name) || step.name == "onCancel" || ChainConversion.isResultStep(step)
    }

    /// The step at `index` among the value steps, by its kind: a `mapResult` or `flatMapResult`
    /// with steps after it (ChainConversion+ResultSteps.swift), an `onCancel`, or a value step.
    mutating func middleStep(_ steps: [ChainConversion.Step], at index: Int, yieldPoint: Int?) throws {
        if ChainConversion.isResultStep(steps[index]) {
            try resultStep(steps[index])
        } else if steps[index].name == "onCancel" {
            var step = steps[index]
            step.baseType = onCancelBaseType(steps, at: index)
            try cancelHandler(step)
        } else {
            // The `let`s share one scope with the later value steps (a handler's `catch` and a `defer` do not see them).
            readLater = steps[(index + 1)...].prefix { ChainConversion.valueOperators.contains($0.name) }.reduce(into: []) {
                $0.formUnion(ChainConversion.freeNames(in: $1.closure))
            }
            // A `mapResult` after it reads its result (its early `return` is not the twin's).
            isLastValueStep = index + 1 == steps.count
                || !ChainConversion.valueOperators.union(ChainConversion.resultOperators).contains(steps[index + 1].name)
            if index == yieldPoint, index > 0 { yieldBeforeNextStep() }
            try valueStep(steps[index])
        }
    }

    /// The type of the promise `onCancel` at `index` is called on (it keeps that type): the
    /// compiler's type of its base; without it, the type the closure before it declares
    /// (`map { v -> Int in … }`); else the compiler's type of the call or, the chain's last step, the function's.
    func onCancelBaseType(_ steps: [ChainConversion.Step], at index: Int) -> PromiseType? {
        var baseType = steps[index].baseType
        if baseType == nil, index > 0, ["map", "flatMap"].contains(steps[index - 1].name),
           let declared = steps[index - 1].closure.signature?.returnClause?.type {
            let type = steps[index - 1].name == "map" ? "Promise<\(declared.trimmedDescription), Swift.Error>" : declared.trimmedDescription
            baseType = ChainConversion.promiseType(spelled: type)
        }
        if baseType == nil { baseType = steps[index].type ?? (steps[index].isLast ? conversion.functionPromise : nil) }
        return baseType
    }

    /// A value step, by its kind: a `map` whose closure's value stands on the pending value
    /// (`try await f(x).map(\.title)`), a `then`, or a `map` or `flatMap`.
    mutating func valueStep(_ step: ChainConversion.Step) throws {
        let placement = try placement(of: step)
        if case .inline = placement, step.name == "map", step.token == nil, substitutable(step.closure) {
            pending = .expression(pendingText + step.closure.statements.first!.trimmedDescription.dropFirst(2))
            return
        }
        let (name, body) = try parameter(of: step.closure)
        if step.name == "then" {
            try thenStep(step, name: name, body: body, placement: placement)
        } else {
            try mapStep(step, name: name, body: body, placement: placement)
        }
    }

    /// `then`: the closure's statements; the value passes through, and needs a name unless nothing reads it later.
    mutating func thenStep(_ step: ChainConversion.Step, name: String, body: [String], placement: Placement) throws {
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
    }

    /// `map` and `flatMap`: the value bound to the closure's parameter, its statements, and its
    /// result the value so far (for `flatMap` inline, the promise it returns, to await).
    mutating func mapStep(_ step: ChainConversion.Step, name: String, body: [String], placement: Placement) throws {
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

    /// Emits `body` (the closure's statements) inline or on its executor; returns the
    /// expression of its result (for `map` and `flatMap`, `result`).
    @discardableResult
    mutating func run(_ body: [String], step: ChainConversion.Step, placement: Placement, result: Bool) throws -> String {
        switch placement {
        case .inline:
            return try runInline(body, step: step, result: result)
        case .nowOr(let flag, let executor):
            return try runNowOr(body, step: step, flag: flag, executor: executor, result: result)
        case .executor(let executor):
            return try runOnExecutor(body, step: step, executor: executor, result: result)
        }
    }

    /// `run` inline: the statements among the twin's own.
    mutating func runInline(_ body: [String], step: ChainConversion.Step, result: Bool) throws -> String {
        let statements = Array(step.closure.statements)
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
    }

    /// `run` on a context's task executor: the statements in `withTaskExecutorPreference(executor) { @concurrent in … }`.
    mutating func runOnExecutor(_ body: [String], step: ChainConversion.Step, executor: String, result: Bool) throws -> String {
        let statements = Array(step.closure.statements)
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
