import SwiftSyntax

// `mapResult` and `flatMapResult` (1.x's `always` returning a promise is the same) at the end of
// the chain (issues 37 and 39).
//
// 1.x gave the closure the whole result of the promise before it: a value, an error, or
// `.cancelled`. The twin takes that result where the chain's code stood:
//
// - On the chain's base (nothing before it): `await promise.resolvedResult` (a cancelled promise gives `.cancelled`;
//   a cancelled Task asks the promise to cancel and waits for what it becomes, as 1.x's cancel
//   request on the child reached the parent).
// - After other steps: their code in a `do`, whose value is `.value(x)`; the typed error the
//   steps throw is `.error(e)`; what else they throw is `CancellationError`, how this library's
//   `await promise.value` reports a cancelled promise (and a cancelled token's step), so it is
//   `.cancelled`, the case 1.x's closure read. A cancel request on the wrapper reaches the source
//   as it did in 1.x: the Task's await asks the source to cancel, the source cancels, the steps
//   after it never run, and the closure sees `.cancelled` and decides, as in 1.x.
//
// The closure's statements then run on its context. `mapResult`'s `PromiseResult` is returned
// (`.value`), thrown (`.error`) or thrown as `CancellationError` (`.cancelled`: the wrapper then
// cancels its promise, as 1.x's promise was cancelled). `flatMapResult`'s promise is awaited where
// the closure returned it: its `return p` is the twin's `return try await …`, as a last `flatMap`'s.
// With steps after it (ChainConversion+ResultSteps.swift) the same `do` takes the result, and the steps
// after take the value of what the closure gives. After an error handler, `always` or `tap`, whose
// code returns from the twin, the steps before it are a local function (ChainConversion+Tails.swift).

extension ChainConversion {
    /// The operators whose closure maps the whole result.
    static let resultOperators: Set<String> = ["mapResult", "flatMapResult"]

    /// The type a closure declares for its one parameter (`{ (result: PromiseResult<Int, E>) -> … in }`), as a promise type.
    static func declaredResultType(of closure: ClosureExprSyntax) -> PromiseType? {
        guard case .parameterClause(let clause)? = closure.signature?.parameterClause, clause.parameters.count == 1,
              let type = clause.parameters.first?.type?.trimmedDescription, type.hasPrefix("PromiseResult<") else { return nil }
        return promiseType(spelled: "Promise<" + type.dropFirst("PromiseResult<".count))
    }
}

extension Writer {
    /// `base….mapResult(on: c) { result in … }` or `flatMapResult`, the chain's last step: the result of what
    /// came before, the closure's statements on their context, and what they give, returned or thrown.
    mutating func mapResult(_ step: ChainConversion.Step) throws {
        let (body, placement) = try resultTaken(by: step)
        if step.name == "flatMapResult" {
            try flatMappedResult(step, body: body, placement: placement)
        } else {
            try mappedResult(step, body: body, placement: placement)
        }
        returned = true
    }

    /// The lines that take the result `step`'s closure reads (in a `let` named as its parameter), and the closure's
    /// statements (a token's check first: an invalidated token skipped the callback and cancelled its promise).
    mutating func resultTaken(by step: ChainConversion.Step) throws -> (body: [String], placement: Placement) {
        if returned { throw Left("`\(step.name)` after a `flatMap` whose closure returns early (its `return`s are the twin's own)") }
        let placement = try placement(of: step)
        var (name, body) = try parameter(of: step.closure, anonymousName: "result")
        if name.hasPrefix("(") { throw Left("`\(step.name)` whose closure takes several parameters") }
        // On the chain's base (nothing written before it: a step's await there would throw past the result).
        if let promise = pendingPromise, lines.isEmpty {
            let text = ChainConversion.dedented(promise.trimmedDescription, by: ChainConversion.lineIndentation(of: promise))
            let postfix = promise.is(FunctionCallExprSyntax.self) || promise.is(DeclReferenceExprSyntax.self)
                || promise.is(MemberAccessExprSyntax.self) || promise.is(TupleExprSyntax.self)
            var awaitedResult = "await " + (postfix ? text : "(\(text))") + ".resolvedResult"
            // A callback that 1.x enqueued and the twin runs inline: one suspension after the await (ChainConversion+Order.swift).
            if conversion.yieldsAfterAwaitOf?.base == promise.id { awaitedResult = "await Task.yieldingAfter { \(awaitedResult) }" }
            lines.append((name == "_" ? "_" : "let \(name)") + " = " + awaitedResult)
        } else {
            guard let upstream = step.baseType ?? ChainConversion.declaredResultType(of: step.closure) else {
                throw Left("`\(step.name)` after steps whose result type is not known")
            }
            // The result's `let` stands beside the steps' `let`s, inside the `do`: a parameter named like one is renamed.
            if name == "_" || boundNames.contains(name) || declared.contains(name) {
                let fresh = freshName(stem: "result")
                if name != "_" {
                    let uses = step.closure.statements.flatMap { $0.tokens(viewMode: .sourceAccurate) }.filter { token in
                        token.text == name && !ChainConversion.isMemberOrLabel(token)
                    }
                    body = Self.renaming(uses, to: fresh, in: step.closure)
                }
                name = fresh
            }
            taken.insert(name)
            lines = resultOfSteps(named: name, type: upstream)
        }
        return (guarded(body, by: step), placement)
    }

    /// The lines so far in a `do` whose value, typed error and cancellation are `name`'s cases.
    mutating func resultOfSteps(named name: String, type: PromiseType) -> [String] {
        let value = pendingText
        var main = lines
        if ["Void", "()", "Swift.Void"].contains(type.value) {
            if value != "()" { main.append(conversion.returnsVoidExpression(value) ? value : "_ = " + value) }
            main.append("\(name) = .value(())")
        } else if value.contains("\n") || value.hasPrefix("try ") || value.hasPrefix("await ") {
            let kept = freshName(for: pendingPromise)
            main += ["let \(kept) = " + value, "\(name) = .value(\(kept))"]
        } else {
            main.append("\(name) = .value(\(value))")
        }
        let caught: [String]
        if type.hasNoError {
            caught = ["} catch {", "    \(name) = .cancelled", "}"]
        } else if type.hasUntypedError {
            caught = ["} catch is CancellationError {", "    \(name) = .cancelled", "} catch {", "    \(name) = .error(error)", "}"]
        } else {
            caught = ["} catch let error as \(type.error) {", "    \(name) = .error(error)", "} catch {", "    \(name) = .cancelled", "}"]
        }
        return ["let \(name): PromiseResult<\(type.value), \(type.error)>", "do {"] + main.map(Self.indent) + caught
    }

    /// `mapResult`'s closure on its context, and its `PromiseResult` returned, thrown, or thrown as `CancellationError`.
    mutating func mappedResult(_ step: ChainConversion.Step, body: [String], placement: Placement) throws {
        let (mapped, type) = try mappedResultLet(step, body: body, placement: placement, promiseType: step.type ?? conversion.functionPromise)
        let resultType = ChainConversion.promiseType(spelled: type.replacingOccurrences(of: "PromiseResult<", with: "Promise<"))
        let valueCase = conversion.returnsVoid ? "case .value: return" : "case .value(let value): return value"
        let errorCase = resultType?.hasNoError == true ? "case .error(let error): switch error {}" : "case .error(let error): throw error"
        lines += ["switch \(mapped) {", valueCase, errorCase, "case .cancelled: throw CancellationError()", "}"]
    }

    /// `mapResult`'s closure on its context, its `PromiseResult` in a `let`: its name and type.
    mutating func mappedResultLet(_ step: ChainConversion.Step, body: [String], placement: Placement,
                                  promiseType: PromiseType?) throws -> (name: String, type: String) {
        guard let type = step.closure.signature?.returnClause?.type.trimmedDescription
            ?? promiseType.map({ "PromiseResult<\($0.value), \($0.error)>" }) else {
            throw Left("`mapResult` whose result type is not known")
        }
        if case .nowOr(let flag, let executor) = placement {
            return (try nowOrResultLet(body, type: type, stem: "mapped", flag: flag, executor: executor), type)
        }
        let mapped = freshName(stem: "mapped")
        // A token's check throws (`CancellationError`).
        let tried = ChainConversion.throwsOutsideClosures(body.joined(separator: "\n")) ? "try " : ""
        // In a twin that throws only `CancellationError` the closure says so (a closure's typed error is not inferred).
        let typed = !tried.isEmpty && conversion.noError
        let closure: String
        switch placement {
        case .inline:
            let signature = typed ? " () throws(CancellationError) -> \(type) in" : ""
            closure = tried + "{" + signature + "\n" + body.map(Self.indent).joined(separator: "\n") + "\n}()"
        case .executor(let executor), .nowOr(_, let executor):
            closure = tried + "await withTaskExecutorPreference(\(executor)) { @concurrent" + (typed ? " () async throws(CancellationError) -> \(type)" : "")
                + " in\n" + body.map(Self.indent).joined(separator: "\n") + "\n}"
        }
        lines += ["let \(mapped): \(type)", "\(mapped) = " + closure]
        return (mapped, type)
    }

    /// `flatMapResult`'s closure on its context; the promise it returns awaited there, its value returned.
    mutating func flatMappedResult(_ step: ChainConversion.Step, body: [String], placement: Placement) throws {
        if case .nowOr(let flag, let executor) = placement {
            // On `.nowOr`'s two paths (ChainConversion+NowOrResult.swift): the promise in a `let`, awaited after.
            guard let type = step.closure.signature?.returnClause?.type.trimmedDescription ?? (step.type ?? conversion.functionPromise)?.spelled else {
                throw Left("`flatMapResult` whose promise type is not known")
            }
            let next = try nowOrResultLet(body, type: type, stem: "next", flag: flag, executor: executor)
            let value = awaited(ChainConversion.parse(next))
            lines.append(conversion.returnsVoid ? value : "return " + value)
            return
        }
        let types = conversion.types(of: step, isFinal: true)
        var inner = try conversion.closureStatements(body, returning: .promise(types))
        switch placement {
        case .inline:
            lines += inner
        case .executor(let executor), .nowOr(_, let executor):
            if inner.count == 1, inner[0].hasPrefix("return ") { inner[0] = String(inner[0].dropFirst("return ".count)) }
            let effects = ChainConversion.throwsOutsideClosures(inner.joined(separator: "\n")) ? "try await" : "await"
            let call = "\(effects) withTaskExecutorPreference(\(executor)) { @concurrent in\n" + inner.map(Self.indent).joined(separator: "\n") + "\n}"
            lines.append(conversion.returnsVoid ? call : "return " + call)
        }
    }
}
