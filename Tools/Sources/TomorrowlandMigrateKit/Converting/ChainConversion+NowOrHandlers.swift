import SwiftSyntax

// `.nowOr(c)` on the chain's base for an error handler (`recover`, `catch`, `mapError`, `flatMapError`) and
// for a `flatMap` or `flatMapError` of several statements (issues 37 and 39).
//
// A handler on the base is the `catch` of the base's await (ChainConversion.swift's
// `handlerLines`); on `.nowOr` its statements are written twice, as a value step's are
// (ChainConversion+NowOr.swift): inline when the base had resolved (its await threw without
// suspending, during the call, where 1.x ran the closure at once), else on `c`.
//
// A closure of several statements that returns a promise keeps its statements as they are, in a
// closure that returns that promise: a synchronous one called at once when the base had resolved
// (1.x ran it in the call; its `return`s are its own), else `withTaskExecutorPreference(c) {
// @concurrent in … }`, on `c`. The promise it returned is then awaited, as 1.x's step adopted it
// (a cancel request on the Task reaches it: the await asks it to cancel).

extension ChainConversion {
    /// The first steps whose `.nowOr(c)` converts (with a `token:` too: each path checks it where its closure runs).
    static let nowOrSteps: Set<String> = [
        "map", "then", "flatMap", "recover", "catch", "mapError", "flatMapError", "tap", "always", "onCancel", "mapResult", "flatMapResult",
    ]

    /// Whether the closure is one expression (`{ x in f(x) }`), not statements.
    static func isOneExpression(_ closure: ClosureExprSyntax) -> Bool {
        closure.statements.count == 1 && closure.statements.first?.item.is(ExprSyntax.self) == true
    }
}

extension Writer {
    /// A promise step's statements on both of `.nowOr`'s paths, each returning its promise; the promise, awaited.
    mutating func runNowOrPromise(_ body: [String], step: ChainConversion.Step, flag: String, executor: String) throws -> String {
        let functionType = step.isLast ? conversion.functionPromise?.spelled : nil
        guard let type = step.closure.signature?.returnClause?.type.trimmedDescription ?? step.type?.spelled ?? functionType else {
            throw Left("a `\(step.name)` on `.nowOr` whose promise type is not known")
        }
        let name = freshName(stem: "next")
        // A step with a token checks it first, on each path, where 1.x's callback ran.
        let statements = guarded(body, by: step).map(Self.indent).joined(separator: "\n")
        lines += [
            "let \(name): \(type)",
            "if \(flag) {",
            Self.indent("\(name) = {\n" + statements + "\n}()"),
            "} else {",
            Self.indent("\(name) = await withTaskExecutorPreference(\(executor)) { @concurrent in\n" + statements + "\n}"),
            "}",
        ]
        boundNames.insert(name)
        return awaited(ChainConversion.parse(name))
    }
}
