// The commands that replace code and prove it with the compiler: `convert-calls`,
// `convert-body`, `delete-twins`.

import ArgumentParser
import Foundation
import TomorrowlandMigrateKit

extension TomorrowlandMigrate {
    /// `convert-calls`: async code calls the async twins directly.
    struct ConvertCalls: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "In async code, call async twins directly instead of awaiting the promise.",
            discussion: """
                `try await f(x).value` and the pinned `try await (f(x) as Promise<T, E>).value` become \
                `try await f(x)` (`.inner.value` of a TokenPromise too) when f has an async counterpart: the async \
                twin add-async-twins wrote, or the async function its promise twin runs. Only where that \
                function throws what the bridge throws (any Error; only CancellationError for a NoError \
                promise), so that every existing `catch` keeps matching, and where the compiler shows the \
                call then names it. Left, each listed with file:line and the reason: `.resolvedResult` \
                (its do/catch equivalent would be longer), `.value(onTaskCancel:)`, a promise used as a \
                value (kept, passed on, chained), different thrown errors, and anything the compiler \
                objects to. What the files import is built and the changes are checked in a scratch copy (every \
                other reference must name the same declaration as before) before anything is printed \
                or written. Without --write, prints a unified diff. Running it twice changes nothing.
                """
        )

        @OptionGroup var paths: Paths
        @OptionGroup var options: ProvenWriteOptions
        @OptionGroup var compiler: CompilerOptions

        func run() throws {
            let set = SourceSet.load(paths: paths.paths)
            let result = try compiler.proven(set, command: "convert-calls") { set, oracle in ConvertCallsCommand.run(set, oracle: oracle) }
            try options.finish(result, roots: set.roots)
            try finish(problems: set.problems)
        }
    }

    /// `convert-body`: a promise chain moves into the async twin; the promise version wraps it.
    struct ConvertBody: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert-body",
            abstract: "Move a promise chain into the async twin add-async-twins wrote; the promise version wraps the twin.",
            discussion: """
                For a promise-returning function whose body ends in a chain: its async twin's body becomes \
                straight-line code (the statements before the chain first, an early `return` of a promise \
                as the twin's return or throw; `then`/`map`/`flatMap` and their `try` forms as statements, \
                a `flatMap`'s promise awaited through its twin or `.value`, `when(fulfilled:)` awaited as it \
                is; one `catch`/`recover`/`mapError`/`flatMapError` at the end, or on the chain's base, as \
                do/catch that lets `CancellationError` through; `always { _ in }` as `defer`, or on a named \
                context as code on every path; `[weak self]` closures on the twin's `self`), and the promise \
                version becomes `StdPromise(on: .immediate) { try await f(…) }`, which runs the twin at once, \
                in the call, until it first suspends (in nonisolated code whose steps all ran on one context of \
                the package's own, `StdPromise(on: .immediate, executorPreference: PromiseContext.q.taskExecutor)`: \
                it then resumes on that context, where the next step runs): for a typed error E followed by \
                `.mapError(on: .immediate) { $0 as! E }` (the twin throws only E or CancellationError, and \
                CancellationError cancels the promise), for NoError by a `recover` that never runs (the \
                twin throws only CancellationError), for a TokenPromise by `.withToken(token)`. \
                requestCancel() on the wrapper cancels the Task; cancelling the Task asks each awaited \
                promise to cancel. A closure given a named context (`.utility`, `.queue(q)`, `.main` off \
                the main actor) or a PromiseContext value runs in \
                `withTaskExecutorPreference(….taskExecutor) { @concurrent in … }`; no \
                context, `.auto` and `.immediate`, and `.main` in @MainActor code, run inline (on the \
                twin's isolation). Also converted: `tap`, `onCancel`, `mapResult`, `timeout`, `delay` and \
                `ignoringCancel` (a chain with steps after a `timeout` is split there), `.nowOr(c)`, invalidation \
                tokens on steps, capture lists and `[weak self]` closures, `lock()`/`unlock()` pairs (as \
                `withLock`); a protocol requirement's implementation or an override gets an async method of its \
                own where that keeps what runs. Left as a chain, each with its reason: a shape the rewrite \
                cannot write as straight-line code, a non-Sendable `self` or parameter (the wrapper's Task \
                captures it; in a Swift 5 mode module the wrapper stays where the chain's closures already \
                captured it, and the command says so), overrides and conformers whose own async method would \
                change what runs, functions without a twin (run add-async-twins first). Where Swift 6 mode \
                rejects the wrapper's capture and nothing in the package calls the promise version any more \
                (convert-calls moved its callers to the twin), the promise version goes instead of becoming \
                a wrapper (a public, open or package one only with --include-public). What the files \
                import is built and each conversion is proved in a scratch copy (checked in the package's language \
                mode; no other reference may change its target, and the wrapper must call the twin); a \
                conversion the compiler objects to is left with its reason. The chains left for a non-Sendable \
                `self` or parameter are grouped by the type they wait on, each with the fix that is true of \
                that type as its declarations show (all `let`: Sendable; `var`s used only under its lock: \
                `@unchecked Sendable`, with a comment; `var`s outside it: the lock they need first) or \
                isolating it; then run convert-body again. With --test, the package's \
                tests run on a copy with the conversions, and nothing is written if they fail. Without \
                --write, prints a unified diff. Running it twice changes nothing.
                """
        )

        @OptionGroup var paths: Paths

        @Flag(help: "Delete a public, open or package promise version that nothing in this package calls, where its wrapper cannot be written.")
        var includePublic = false

        @OptionGroup var options: ProvenWriteOptions
        @OptionGroup var compiler: CompilerOptions

        func run() throws {
            let set = SourceSet.load(paths: paths.paths)
            let result = try compiler.proven(set, command: "convert-body", importers: true) { set, oracle in
                ConvertBodyCommand.run(set, oracle: oracle, includingPublic: includePublic)
            }
            try options.finish(result, roots: set.roots)
            try finish(problems: set.problems)
        }
    }

    /// `delete-twins`: the twins nothing calls go.
    struct DeleteTwins: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete the twins that nothing calls any more.",
            discussion: """
                Deletes the async twins add-async-twins wrote and the promise twins add-promise-twins \
                wrote (recognised by the note in their doc comment and by forwarding to the function of \
                the same name, as the compiler resolves it) that no code of the package references: the \
                scanned files and every module of the package that imports them. A protocol extension \
                left empty goes too. Public, open and package twins stay unless --include-public (clients \
                outside the package may call them). Every twin kept is listed with the reason. Proven like \
                convert-calls. Without --write, prints a unified diff. Running it twice changes nothing.
                """
        )

        @OptionGroup var paths: Paths

        @Flag(help: "Delete public, open and package twins that nothing in this package calls too.")
        var includePublic = false

        @OptionGroup var options: ProvenWriteOptions
        @OptionGroup var compiler: CompilerOptions

        func run() throws {
            let set = SourceSet.load(paths: paths.paths)
            let result = try compiler.proven(set, command: "delete-twins", importers: true) { set, oracle in
                DeleteTwinsCommand.run(set, oracle: oracle, includingPublic: includePublic)
            }
            try options.finish(result, roots: set.roots)
            try finish(problems: set.problems)
        }
    }
}
