import SwiftSyntax

// `mapResult` and `flatMapResult` with steps after them (issue 37). The result the closure reads
// is taken as at the end of the chain (ChainConversion+MapResult.swift): on the chain's base,
// `await promise.resolvedResult`; after value steps, their code in a `do` whose value, typed
// error and cancellation are the result's cases. The closure runs on its context, and what it
// gives goes on to the steps after, as 1.x's promise did:
//
// - `mapResult`: its `PromiseResult` in a `let`, then its value in another (`.error(e)` thrown,
//   `.cancelled` thrown as `CancellationError`, which a later `onCancel` sees and an error
//   handler lets pass, as 1.x's cancelled promise skipped them);
// - `flatMapResult`: its closure returns its promise (its `return`s are its own: a synchronous
//   closure called at once, or on the context's executor), awaited where the next step reads it.

extension ChainConversion {
    /// Whether `step` is a `mapResult` or `flatMapResult` with steps after it.
    static func isResultStep(_ step: Step) -> Bool {
        resultOperators.contains(step.name) && !step.isLast
    }
}

extension Writer {
    /// A `mapResult` or `flatMapResult` that is not the chain's last step: the value it gives, pending.
    mutating func resultStep(_ step: ChainConversion.Step) throws {
        let (body, placement) = try resultTaken(by: step)
        if step.name == "mapResult" {
            let (mapped, type) = try mappedResultLet(step, body: body, placement: placement, promiseType: step.type)
            guard let resultType = ChainConversion.promiseType(spelled: type.replacingOccurrences(of: "PromiseResult<", with: "Promise<")) else {
                throw Left("`mapResult` whose result type is not known")
            }
            let errorCase = resultType.hasNoError ? "case .error(let error): switch error {}" : "case .error(let error): throw error"
            if ["Void", "()", "Swift.Void"].contains(resultType.value) {
                lines += ["switch \(mapped) {", "case .value: break", errorCase, "case .cancelled: throw CancellationError()", "}"]
                pending = .expression("()")
                return
            }
            let name = freshName(for: nil)
            let inner = freshName(stem: "mappedValue")
            lines += ["let \(name): \(resultType.value)", "switch \(mapped) {", "case .value(let \(inner)): \(name) = \(inner)", errorCase,
                      "case .cancelled: throw CancellationError()", "}"]
            boundNames.insert(name)
            pending = .expression(name)
            return
        }
        // `flatMapResult`: the closure's promise, in a `let` of its type, awaited by the step after.
        guard let type = step.closure.signature?.returnClause?.type.trimmedDescription ?? step.type?.spelled else {
            throw Left("`flatMapResult` whose promise type is not known")
        }
        if case .nowOr(let flag, let executor) = placement {
            let name = try nowOrResultLet(body, type: type, stem: "next", flag: flag, executor: executor)
            pending = .promise(ChainConversion.parse(name))
            return
        }
        let name = freshName(stem: "next")
        let statements = body.map(Self.indent).joined(separator: "\n")
        let tried = ChainConversion.throwsOutsideClosures(body.joined(separator: "\n")) ? "try " : ""
        switch placement {
        case .inline:
            lines.append("let \(name): \(type) = \(tried){\n" + statements + "\n}()")
        case .executor(let executor), .nowOr(_, let executor):
            lines.append("let \(name): \(type) = \(tried)await withTaskExecutorPreference(\(executor)) { @concurrent in\n" + statements + "\n}")
        }
        boundNames.insert(name)
        pending = .promise(ChainConversion.parse(name))
    }
}
