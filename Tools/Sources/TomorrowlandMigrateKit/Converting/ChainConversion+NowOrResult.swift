// `mapResult` and `flatMapResult` on `.nowOr(c)` as the chain's first step (issue 37). The result
// is the base's (`await promise.resolvedResult`, ChainConversion+MapResult.swift), and the closure
// runs on the path 1.x took, by the flag taken before the first await (ChainConversion+NowOr.swift):
// at once, in the call, when the base had resolved (`{ … }()`; for `.nowOr(.main)` off the main
// actor, `MainActor.assumeIsolated` on the main queue, ChainConversion+NowOrMain.swift), else on
// `c` (`withTaskExecutorPreference`, or `MainActor.run`). Its statements are kept as written, in a
// closure that gives the `PromiseResult` (`mapResult`) or the promise (`flatMapResult`, awaited
// after, as 1.x's step adopted it).

extension Writer {
    /// The closure's statements on both of `.nowOr`'s paths, what they give in a `let` of `type`: its name.
    mutating func nowOrResultLet(_ body: [String], type: String, stem: String, flag: String, executor: String) throws -> String {
        let name = freshName(stem: stem)
        let statements = body.map(Self.indent).joined(separator: "\n")
        // A token's check throws (`CancellationError`); in a twin that throws only that, the closure says so.
        let throwing = ChainConversion.throwsOutsideClosures(body.joined(separator: "\n"))
        let tried = throwing ? "try " : ""
        let typed = throwing && conversion.noError
        let atOnce: String
        let later: String
        if nowOrOnMain {
            let signature = typed ? " () throws(CancellationError) -> \(type) in" : ""
            atOnce = tried + "{\n" + Self.indent(tried + "MainActor.assumeIsolated {\(signature)\n" + statements + "\n}") + "\n}()"
            later = tried + "await MainActor.run {\(signature)\n" + statements + "\n}"
        } else {
            atOnce = tried + "{" + (typed ? " () throws(CancellationError) -> \(type) in" : "") + "\n" + statements + "\n}()"
            later = tried + "await withTaskExecutorPreference(\(executor)) { @concurrent" + (typed ? " () async throws(CancellationError) -> \(type)" : "")
                + " in\n" + statements + "\n}"
        }
        lines += ["let \(name): \(type)", "if \(flag) {", Self.indent("\(name) = " + atOnce), "} else {", Self.indent("\(name) = " + later), "}"]
        boundNames.insert(name)
        return name
    }
}
