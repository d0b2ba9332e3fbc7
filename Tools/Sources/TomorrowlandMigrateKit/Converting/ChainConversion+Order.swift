import SwiftSyntax

// The order 1.x kept for callbacks (issue 39). 1.x ran a callback on a context that is not
// `.immediate` (no context, `.auto`, `.main`, a queue, a context value) after the call that
// registered it had returned, even when its promise had already resolved: it was enqueued. Awaiting
// an already-resolved promise does not suspend, so in a twin that its wrapper starts at once
// (`Promise(on: .immediate)`, synchronously until the first suspension) the code after such an await
// would run during the call, before the caller's next statement: Ledger's `SyncCoordinator.sync(_:)`
// journaled "done checking" before `syncAll` journaled "start savings". The first await of the
// chain's base is therefore written `try await Task.yieldingAfter { … }` (TomorrowlandAsync): one real
// suspension after it, on every path (a value, an error, a cancellation), before any code that 1.x
// ran in a callback. On an actor or the main actor the rest is enqueued behind the caller, which
// holds the actor until it returns; in nonisolated code it resumes beside the caller, as 1.x's
// callback ran on its queue beside it.

extension ChainConversion {
    /// Whether 1.x ran a callback on `context` at once when its promise had already resolved:
    /// `.immediate`, and `.nowOr(_)` (which the twin runs inline too).
    func ranAtOnce(_ context: ExprSyntax?) -> Bool {
        guard let context else { return false }
        var spelled = context.trimmedDescription
        // A stored `let` initialized with a context spelled out (`private let update: PromiseContext.CallerIsolated = .immediate`).
        let stored = spelled.hasPrefix("self.") ? String(spelled.dropFirst("self.".count)) : spelled
        if !parameterNames.contains(stored), let constant = storedContexts[stored]?.constant { spelled = constant.trimmedDescription }
        if spelled.hasPrefix("PromiseContext.") { spelled = String(spelled.dropFirst("PromiseContext".count)) }
        return spelled == ".immediate" || spelled.hasPrefix(".nowOr(")
    }

    /// Where the twin suspends once (nil: nowhere). Only when a wrapper starts it at once (without
    /// one its callers await it, and nothing of theirs runs until it returns), and a callback that
    /// 1.x ran later would run inline in the twin (`runsInline`: no context, `.auto`, `.main` on the
    /// main actor, a caller-isolated context on an actor). A callback on a named context hops there
    /// (`withTaskExecutorPreference`): a suspension of its own; one on `.immediate` or `.nowOr` ran
    /// during the call when its promise had resolved, as in the twin.
    ///
    /// 0: after the chain's base (`Task.yieldingAfter`), on every path. `n`: the first callbacks ran at
    /// once, so `await Task.yield()` comes before step `n`'s code, a value step; a later callback that
    /// would run inline on an error path (a handler, `always`, `onCancel`) cannot be ordered so: the
    /// chain is left.
    func yieldPoint(_ steps: [Step], runsInline: (Step) throws -> Bool) throws -> Int? {
        guard keepsCallbackOrder, let first = steps.first,
              let later = try steps.firstIndex(where: { try !ranAtOnce($0.context) && runsInline($0) }) else { return nil }
        if !ranAtOnce(first.context) { return 0 }
        for step in steps[later...] where try !ranAtOnce(step.context) && runsInline(step) && !Self.valueOperators.contains(step.name) {
            throw Left("`\(step.name)` after a step on `\(first.context?.trimmedDescription ?? "")`: when the promise had resolved, 1.x ran "
                + "that step during the call and the `\(step.name)` after it returned; in the twin both would run during the call")
        }
        return later
    }

    /// `try await Task.yieldingAfter { <the await> }` for the chain's base, once chosen; else nil.
    /// Its closure's error type is spelled when the await throws only `CancellationError` (a
    /// closure's typed error is not inferred). A long await goes on a line of its own.
    func yieldingAwait(of expression: ExprSyntax) -> String? {
        guard let yieldsAfterAwaitOf, expression.id == yieldsAfterAwaitOf.base else { return nil }
        var plain = self
        plain.yieldsAfterAwaitOf = nil
        let awaited = plain.awaited(expression)
        let effects = awaited.hasPrefix("try ") ? "try await" : "await"
        let signature = yieldsAfterAwaitOf.cancellationOnly && awaited.hasPrefix("try ") ? " () async throws(CancellationError) in" : ""
        let line = "\(effects) Task.yieldingAfter {\(signature) \(awaited) }"
        // One line when it leaves room for an indentation and a `let name = ` within the tool's line length.
        if awaited.contains("\n") || line.count > Twins.maximumLineLength - 32 {
            let body = awaited.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : "    " + $0 }
            return "\(effects) Task.yieldingAfter {\(signature)\n" + body.joined(separator: "\n") + "\n}"
        }
        return line
    }
}
