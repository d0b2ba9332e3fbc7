import SwiftSyntax

// `.nowOr(.main)` (or another `PromiseContext.Main`) on the chain's base, off the main actor
// (issue 37).
//
// The promise version's closure is isolated to the main actor. The library runs it at once when
// the promise has resolved *and* the caller is on the main queue, otherwise on the main queue's
// FIFO (the `.nowOr(.main)` doc comment in ContextKinds.swift). The twin asks the same two
// questions at the same moment, before its first await (its wrapper starts it in the call): the
// promise's `result`, and `PromiseContext.auto == .main`, the library's own public answer to "is
// this the main queue" (its main queue's specific key, never `Thread.isMainThread`, which is false
// for main-queue work after `dispatchMain()` on Linux). Then:
//
// - both: the await of a resolved promise does not suspend, so the twin is still in the call, on
//   the main queue, and the closure's statements run there in `MainActor.assumeIsolated { … }`
//   (in a synchronous closure called at once: `assumeIsolated` is unavailable in async code),
//   before the caller's next statement, as the library ran them (the check that precedes it is the
//   one `assumeIsolated` makes: the main queue is the main actor's executor);
// - otherwise: `await MainActor.run { … }`, a job on the main actor, whose executor is the main
//   queue, after the call returned (or once the promise resolved), as the library enqueued it.
//
// Steps: those of ChainConversion+NowOrHandlers.swift's `nowOrSteps` (`map`, `then`, `flatMap`,
// and the error handlers, the `catch` of the base's await). A `flatMap`'s or `flatMapError`'s
// closure returns its promise from the main actor's closure (its statements as written), and the
// promise is awaited after, as the library's step adopted it.

extension ChainConversion {
    /// The closure of `MainActor.run { … }` or `MainActor.assumeIsolated { … }`, which rethrow what it throws; else nil.
    /// (Also through the synchronous closure around `assumeIsolated`: `{ MainActor.assumeIsolated { … } }()`.)
    static func mainActorClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        if let outer = call.calledExpression.as(ClosureExprSyntax.self), call.arguments.isEmpty, outer.statements.count == 1,
           let item = outer.statements.first?.item.as(ExprSyntax.self) {
            let inner = item.as(TryExprSyntax.self)?.expression ?? item
            return inner.as(FunctionCallExprSyntax.self).flatMap(mainActorClosure(of:))
        }
        guard ["MainActor.run", "MainActor.assumeIsolated"].contains(call.calledExpression.trimmedDescription), call.arguments.isEmpty else { return nil }
        return call.trailingClosure
    }
}

extension Writer {
    /// The lines that take the flag: whether the base had resolved and this is the main queue.
    func mainNowOrFlag(_ flag: String, of promise: String) -> [String] {
        [
            "// 1.x's `.nowOr(.main)`: at once if it had already resolved here and this is the main queue, else on the main queue.",
            "let \(flag) = \(promise).result != nil && PromiseContext.auto == .main",
        ]
    }

    /// The closure's statements on both paths of `.nowOr(.main)`: `MainActor.assumeIsolated` when
    /// `flag`, else `MainActor.run`; their value, if `result`, in a `let` declared before them.
    mutating func runNowOrMain(_ body: [String], step: ChainConversion.Step, flag: String, result: Bool) throws -> String {
        let inner = guarded(body, by: step)
        let effects = ChainConversion.throwsOutsideClosures(inner.joined(separator: "\n")) ? "try " : ""
        let closure = inner.map(Self.indent).joined(separator: "\n") + "\n}"
        // `assumeIsolated` is unavailable in async code: a synchronous closure, called at once, holds it.
        let atOnce = effects + "{\n" + Self.indent(effects + "MainActor.assumeIsolated {\n" + closure) + "\n}()"
        let later = effects + "await MainActor.run {\n" + closure
        guard result else {
            lines += ["if \(flag) {", Self.indent(atOnce), "} else {", Self.indent(later), "}"]
            return "()"
        }
        // A `flatMap`'s or `flatMapError`'s closure returns its promise (its `return`s are its own), awaited after.
        let returnsPromise = ChainConversion.promiseSteps.contains(step.name)
        guard let type = nowOrType(of: step, wholePromise: returnsPromise) else { throw Left("a `\(step.name)` on `.nowOr(.main)` whose type is not known") }
        let name = returnsPromise ? freshName(stem: "next") : freshName(for: nil)
        lines += ["let \(name): \(type)", "if \(flag) {", Self.indent("\(name) = " + atOnce), "} else {", Self.indent("\(name) = " + later), "}"]
        boundNames.insert(name)
        return returnsPromise ? awaited(ChainConversion.parse(name)) : name
    }
}
