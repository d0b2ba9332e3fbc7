// tomorrowland-migrate: makes a Tomorrowland 1.x codebase compile against this package (adopt),
// then moves it from promises to async/await one function at a time. Argument parsing and
// printing only; the work is in TomorrowlandMigrateKit.

import ArgumentParser
import Foundation
import TomorrowlandMigrateKit

struct TomorrowlandMigrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tomorrowland-migrate",
        abstract: "Move a codebase from Tomorrowland promises to async/await, one function at a time.",
        discussion: """
            Workflow: report → add-async-twins → convert-calls (async callers call the twins) → \
            convert-body (a promise function's body as async code, the promise version its wrapper) → \
            add-promise-twins for the remaining callers → delete-twins (the twins nothing calls). \
            convert-calls, convert-body and delete-twins prove their changes with the compiler (--test: and the package's tests). \
            A function marked with a `// \(skipMarker)` comment gets no twin from either command. \
            Moving from Tomorrowland 1.x to this package: run `adopt` first.
            """,
        subcommands: [Report.self, AddAsyncTwins.self, ConvertCalls.self, ConvertBody.self, AddPromiseTwins.self, DeleteTwins.self, Adopt.self]
    )
}

/// Paths shared by every subcommand.
struct Paths: ParsableArguments {
    @Argument(help: "Files or folders to scan; folders are searched for .swift files recursively.")
    var paths: [String]
}

/// Prints input problems to standard error; a non-zero exit if there were any.
func finish(problems: [InputProblem]) throws {
    for problem in problems { FileHandle.standardError.write(Data((problem.description + "\n").utf8)) }
    if !problems.isEmpty { throw ExitCode(1) }
}

extension TomorrowlandMigrate {
    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Report promise-returning declarations, async functions, bridges, operator calls, progress and a plan.",
            discussion: TomorrowlandMigrateKit.Report.percentageDefinition + """


                A file's folder is the first folder below the path argument it was found under \
                (the argument itself for files directly in it); the total sums every file.

                The plan lists promise-returning functions leaves first over the call graph of the \
                scanned files: level 0 calls no promise-returning function of these files \
                promise-style; level n: its deepest such callee is at level n - 1. Within a level, \
                functions whose bodies use no promise operators come first. "promise-style \
                callers" counts the call sites (outside twins) that neither await the function nor \
                go through `.value`. A call counts for the declaration the compiler says it names \
                (what the scanned files import is built, and they are type-checked). With --syntax-only, or when the \
                package does not build, a call is matched by name, argument labels and arity, and by \
                the receiver's type where the syntax tells it (`Type.f()`, `Type(…).f()`, a \
                variable, parameter or stored property declared with a type or initialized by \
                `Type(…)`, `self`); calls on other receivers that may call a method are counted \
                as "unknown", not as callers.
                """
        )

        @OptionGroup var paths: Paths

        @Flag(help: "Print JSON for tools instead of tables.")
        var json = false

        @OptionGroup var compiler: CompilerOptions

        func run() throws {
            let set = SourceSet.load(paths: paths.paths)
            let report = TomorrowlandMigrateKit.Report.make(set, compiler: compiler.facts(for: set))
            print(json ? try report.renderJSON() : report.renderText(), terminator: "")
            try finish(problems: set.problems)
        }
    }

    struct AddAsyncTwins: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a same-named async overload next to every promise-returning function.",
            discussion: """
                Promise<T, E> → async throws -> T (cancellation throws CancellationError); \
                Promise<T, NoError> → async throws(CancellationError) -> T. The twin forwards with \
                `try await (f(args) as Promise<T, E>).value` and keeps generics, access level, \
                static/class, labels, default arguments, attributes and the doc comment; a twin that \
                would be nonisolated is nonisolated(nonsending) (it runs on its caller's actor); a \
                protocol requirement's twin goes in an extension of the protocol. Call sites \
                in async code that the twin would capture get an explicit `as Promise<…>`. What the files \
                import is built and they are type-checked first: each call's target comes from the compiler, and the plan \
                is checked in a scratch copy (every existing reference must still name the same \
                declaration; the compiler's findings add pins or drop twins, with the reason) before \
                anything is printed or written. \
                `f(…).value`, `.result` and `.resolvedResult` are pinned too (the value could have \
                such a member). Twins an earlier run wrote elsewhere in the package count; folders \
                of the package that were not scanned are named. \
                Without --write, prints a unified diff. Running it twice changes nothing.
                """
        )

        @OptionGroup var paths: Paths

        @Flag(help: "Write the changes to the files instead of printing a diff.")
        var write = false

        @OptionGroup var compiler: CompilerOptions

        func run() throws {
            let set = SourceSet.load(paths: paths.paths)
            try apply(compiler.addAsyncTwins(set), write: write)
            try finish(problems: set.problems)
        }
    }

    struct AddPromiseTwins: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a same-named promise-returning overload next to async functions.",
            discussion: """
                For async functions marked with a `// \(promiseTwinMarker)` comment (every async \
                function with --all): `func f(…) -> StdPromise<T> { StdPromise { try await f(…) } }` \
                (Promise<T, NoError> for non-throwing functions, Promise<T, E> for throws(E)), so \
                old callers keep compiling after a body was rewritten as async. Methods of types not \
                known to be Sendable, mutating methods, test methods, computed properties and \
                subscripts get none; each is listed with the reason. Without --write, \
                prints a unified diff. Running it twice changes nothing.
                """
        )

        @OptionGroup var paths: Paths

        @Flag(help: "Twin every async function, not only the marked ones.")
        var all = false

        @Flag(help: "Write the changes to the files instead of printing a diff.")
        var write = false

        func run() throws {
            let set = SourceSet.load(paths: paths.paths)
            try apply(UncompiledFiles.run(set, command: "add-promise-twins") { AddPromiseTwinsCommand.run($0, all: all) }, write: write)
            try finish(problems: set.problems)
        }
    }
}

extension TomorrowlandMigrate {
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
            guard let oracle = compiler.requiredOracle(for: set, command: "convert-calls") else { throw ExitCode(1) }
            let result = UncompiledFiles.run(set, compiled: CompiledFiles(oracle), command: "convert-calls") { ConvertCallsCommand.run($0, oracle: oracle) }
            try options.finish(result, roots: set.roots)
            try finish(problems: set.problems)
        }
    }

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
                twin's isolation). Left as a chain, each with its reason: invalidation tokens on steps, \
                `[weak self]` closures that did something when `self` was gone, other capture lists, \
                context values that may be `.immediate`, `.auto` or `.nowOr`, `timeout`, `delay`, `tap`, \
                error handlers between value steps, non-Sendable `self` or parameters in Swift 6 mode (the \
                wrapper's Task captures them; Swift 5 mode accepts it, and the command says so), overrides and \
                protocol conformers, functions without a twin (run add-async-twins first). Where Swift 6 mode \
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
            guard let oracle = compiler.requiredOracle(for: set, command: "convert-body", importers: true) else { throw ExitCode(1) }
            let result = UncompiledFiles.run(set, compiled: CompiledFiles(oracle), command: "convert-body") { set in
                ConvertBodyCommand.run(set, oracle: oracle, includingPublic: includePublic)
            }
            try options.finish(result, roots: set.roots)
            try finish(problems: set.problems)
        }
    }

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
            guard let oracle = compiler.requiredOracle(for: set, command: "delete-twins", importers: true) else { throw ExitCode(1) }
            let result = UncompiledFiles.run(set, compiled: CompiledFiles(oracle), command: "delete-twins") { set in
                DeleteTwinsCommand.run(set, oracle: oracle, includingPublic: includePublic)
            }
            try options.finish(result, roots: set.roots)
            try finish(problems: set.problems)
        }
    }
}

extension TomorrowlandMigrate {
    struct Adopt: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the edits that code written for Tomorrowland 1.x needs to compile against this package.",
            discussion: """
                Each edit keeps the 1.x meaning: a context that names a queue runs the closure on that \
                queue; .main runs it on the main actor; no context, .auto or .immediate runs it on \
                the caller's actor. \
                (1) A context declared in `extension PromiseContext` (`static let db = \
                PromiseContext.queue(dbQueue)`) gets a twin on PromiseContext.Named \
                (`static var db: Self { Self(PromiseContext.db) }`), on PromiseContext.Main when its \
                value is .main or .nowOr(.main), or on PromiseContext.CallerIsolated when it is .auto, \
                .immediate or .nowOr of one, so that `.then(on: .db)` compiles. (2) A ternary of \
                implicit members that mixes kinds (`on: fast ? .immediate : .utility`) becomes a PromiseContext value \
                (`fast ? PromiseContext.immediate : .utility`): its closure is nonisolated and runs on \
                the context chosen. (3) A callback method referenced without a call and without a \
                type from its context (`let f = promise.then(on:token:_:)`) gets the type of its \
                PromiseContext overload: written out when the receiver's declared type is in the file \
                (also through `for p in promises`), with placeholders (`(PromiseContext, \
                PromiseInvalidationToken?, @escaping @Sendable (_) -> Void) -> _`) when its labels say which \
                method it is. (4) In \
                actor-isolated code, `PromiseContext.main` (or a custom context holding .main or .auto) \
                given to a closure that uses `self` becomes `.main`: a value's closure is nonisolated, \
                while 1.x ran it on the main queue, as .main does. (5) A stored PromiseContext property \
                (instance, static or top-level, not public) given to such a closure becomes \
                PromiseContext.Main when every value it is given is .main or .nowOr(.main), \
                PromiseContext.CallerIsolated when every one is .auto or .immediate (where a \
                PromiseContext is wanted, its `.context` is passed). (6) In a stored property's \
                initializer (a lazy var's too) of a main-actor type, a closure that keeps the caller's \
                actor and uses the type's state is marked `@MainActor` (Swift 6 mode does not give it \
                the actor there). \
                Listed with file:line, not changed: a closure given a named context or a context value \
                in actor-isolated code that uses its state (with the reason a property was not retyped), \
                an actor-isolated method or function passed by name with one (touching the actor's \
                state there was a data race in 1.x and is a compile error now, except for an actor's \
                method), such a closure in an actor's stored property initializer, and references whose \
                type is not known. A file that two targets share through a symbolic link is edited \
                once, through the link. \
                Without --write, prints a unified diff. Running it twice changes nothing.
                """
        )

        @OptionGroup var paths: Paths

        @Flag(help: "Write the changes to the files instead of printing a diff.")
        var write = false

        func run() throws {
            let set = SourceSet.load(paths: paths.paths)
            try apply(UncompiledFiles.run(set, command: "adopt") { AdoptCommand.run($0) }, write: write)
            try finish(problems: set.problems)
        }
    }
}

typealias AdoptCommand = TomorrowlandMigrateKit.Adopt
typealias AddAsyncTwinsCommand = TomorrowlandMigrateKit.AddAsyncTwins
typealias AddPromiseTwinsCommand = TomorrowlandMigrateKit.AddPromiseTwins
typealias ConvertCallsCommand = TomorrowlandMigrateKit.ConvertCalls
typealias DeleteTwinsCommand = TomorrowlandMigrateKit.DeleteTwins
typealias ConvertBodyCommand = TomorrowlandMigrateKit.ConvertBody

/// `--write` and `--test` of the commands that replace code, proven by the compiler.
struct ProvenWriteOptions: ParsableArguments {
    @Flag(help: "Write the changes to the files instead of printing a diff.")
    var write = false

    @Flag(help: """
        Also run the package's tests (swift build --build-tests, swift test) on a copy of the package with the \
        changes, made next to it; print or write nothing if they fail.
        """)
    var test = false

    /// Runs the tests when asked, then prints or writes `result`.
    func finish(_ result: MigrationResult, roots: [String]) throws {
        if test, !result.changes.isEmpty {
            switch ScratchPackage.test(result.changes, roots: roots) {
            case .success(let summary):
                FileHandle.standardError.write(Data("note: the package's tests pass on a copy with the changes (\(summary))\n".utf8))
            case .failure(let reason):
                for note in result.notes { FileHandle.standardError.write(Data(("note: " + note.description + "\n").utf8)) }
                FileHandle.standardError.write(Data("error: nothing written: \(reason)\n".utf8))
                throw ExitCode(1)
            }
        }
        try apply(result, write: write)
    }
}

/// Prints the diff (or writes the files), then the notes on standard error.
func apply(_ result: MigrationResult, write: Bool) throws {
    if write {
        print("\(try result.write()) file(s) changed")
    } else {
        print(result.diff, terminator: "")
    }
    for note in result.notes { FileHandle.standardError.write(Data(("note: " + note.description + "\n").utf8)) }
}

TomorrowlandMigrate.main()
