import SwiftSyntax

/// `PromiseContext.isExecutingNow` in a callback: 1.x's answer to "did this `.nowOr` callback
/// run synchronously, during registration?" (true only there; an `.immediate` callback run
/// during registration inherits the caller's flag; elsewhere false). The twin runs the
/// callback's statements as its own code, outside any callback, where the flag is false: a
/// view model that showed "instantly" for a cache hit would say it never did (Pharmacy's
/// `showCached(id:)`). Read by the closure of the chain's first `.nowOr` step, it is the flag the
/// twin takes (ChainConversion+NowOrExecutingNow.swift); anywhere else the chain stays, with
/// this reason.
extension ChainConversion {
    /// Why a chain whose callbacks read `PromiseContext.isExecutingNow` stays, or nil.
    static func executingNowReason(_ steps: [Step]) -> String? {
        guard let step = steps.first(where: { readsExecutingNow($0.closure) }) else { return nil }
        return "its `\(step.name)` callback reads `PromiseContext.isExecutingNow` (true while a `.nowOr` callback runs during "
            + "registration); the twin runs that code outside any callback, where it is always false"
    }

    /// Whether `closure` reads `isExecutingNow` (as `PromiseContext.isExecutingNow` or, in an
    /// extension of `PromiseContext`, alone).
    static func readsExecutingNow(_ closure: ClosureExprSyntax) -> Bool {
        closure.tokens(viewMode: .sourceAccurate).contains { $0.text == "isExecutingNow" }
    }
}
