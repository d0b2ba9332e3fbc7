import SwiftSyntax

// `PromiseContext.isExecutingNow` read by the closure of the chain's first step on `.nowOr(c)`
// (issue 37). 1.x set it while a `.nowOr` callback ran synchronously, during registration: true
// when the promise had resolved when the chain was built (the closure ran at once), false when
// the closure ran later on `c`. The twin takes that same answer, at the same moment, before its
// first await (ChainConversion+NowOr.swift's flag), so each read is that flag:
//
// - `c` off the caller's actor: the flag of the split (`resolvedAtOnce`: true on the inline
//   branch, false on the executor's; for `.nowOr(.main)` off the main actor, the flag that also
//   asks whether this is the main queue, ChainConversion+NowOrMain.swift);
// - `c` that runs inline (`.main` on the main actor, a caller-isolated context on an actor): the
//   twin runs the closure inline on both paths, and the flag is taken all the same, from the
//   base kept in a `let` (on the main actor the caller is on the main queue, so 1.x's second
//   question for `.nowOr(.main)` was always yes).
//
// Any other read (another step's closure, which 1.x ran at once only when an earlier callback
// did, or on another context where it read false; a closure nested in the step's, which ran
// later; a bare `isExecutingNow` in an extension of `PromiseContext`) stays
// (ChainConversion+ExecutingNow.swift).

extension ChainConversion {
    /// Whether the first step's closure reads `PromiseContext.isExecutingNow` on `.nowOr(c)`, in a way the flag stands for
    /// (then every read of it in `body` is there); false when nothing reads it; throws the reason otherwise.
    static func readsExecutingNowOnNowOr(_ steps: [Step], in body: CodeBlockSyntax) throws -> Bool {
        let reads = body.tokens(viewMode: .sourceAccurate).filter { $0.text == "isExecutingNow" }
        guard !reads.isEmpty else { return false }
        let reason = Left(executingNowReason(steps) ?? "it reads `PromiseContext.isExecutingNow` outside a callback on `.nowOr`")
        guard let first = steps.first, nowOrInner(first.context) != nil else { throw reason }
        let closure = Syntax(first.closure)
        for token in reads {
            // `PromiseContext.isExecutingNow`, read by the closure itself (not by one nested in it).
            guard let member = token.parent?.parent?.as(MemberAccessExprSyntax.self), member.declName.baseName.id == token.id,
                  member.base?.trimmedDescription == "PromiseContext" else { throw reason }
            var node = member.parent
            while let current = node, current.id != closure.id {
                if current.is(ClosureExprSyntax.self) || current.is(FunctionDeclSyntax.self) { throw reason }
                node = current.parent
            }
            if node == nil { throw reason }
        }
        // No other spelling of it (a string literal, a comment) that the text's substitution would change.
        guard body.description.components(separatedBy: executingNowSpelling).count - 1 == reads.count else { throw reason }
        return true
    }

    static let executingNowSpelling = "PromiseContext.isExecutingNow"

    /// `lines` with each `PromiseContext.isExecutingNow` written as `flag`.
    static func substitutingExecutingNow(_ lines: [String], flag: String) -> [String] {
        lines.map { $0.replacingOccurrences(of: executingNowSpelling, with: flag) }
    }
}

extension Writer {
    /// The flag that stands for `PromiseContext.isExecutingNow` in the first step's closure on `.nowOr(c)`: the split's
    /// (`bindNowOrBase`, `c` off the caller's actor), or, where `c` runs inline, one taken from the base kept in a `let`.
    mutating func executingNowFlag(of steps: [ChainConversion.Step]) throws -> String {
        if let nowOrBase { return nowOrBase.flag }
        guard let first = steps.first, let promise = pendingPromise else {
            throw Left(ChainConversion.executingNowReason(steps) ?? "it reads `PromiseContext.isExecutingNow`")
        }
        try hoistNowOrBase(promise, of: first, flag: { name, flag in
            [
                "// 1.x's `.nowOr`: its closure ran at once (`PromiseContext.isExecutingNow`) if the promise had already resolved here.",
                "let \(flag) = \(name).result != nil",
            ]
        })
        guard let nowOrBase else { throw Left(ChainConversion.executingNowReason(steps) ?? "it reads `PromiseContext.isExecutingNow`") }
        return nowOrBase.flag
    }
}
