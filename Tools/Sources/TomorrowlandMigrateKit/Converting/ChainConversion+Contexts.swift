// `convert-body`: a context chosen at run time (`quick ? .immediate : .work(.utility)`) in
// actor-isolated code. Such a value picks a nonisolated overload: 1.x ran the closure, not
// isolated to the caller's actor, on the context the value held. The twin picks the executor
// where the chain was built, before the first await, as in nonisolated code: a named context's
// task executor, or `nil` for `.immediate` (the `@concurrent` closure then runs on the global
// concurrent executor, where a resumed nonisolated twin runs too; 1.x ran it on the thread that
// resolved the promise, which no executor names). `.auto`, `.main` or a caller-isolated context
// in such a value ran on the actor's queue (the main queue): no executor chosen before the await
// says so, and the chain is left.

import SwiftSyntax

extension ChainConversion {
    /// Whether `context` is `.immediate` (also `PromiseContext.immediate`).
    static func isImmediate(_ context: ExprSyntax) -> Bool {
        [".immediate", "PromiseContext.immediate", "Tomorrowland.PromiseContext.immediate"].contains(context.trimmedDescription)
    }
}
