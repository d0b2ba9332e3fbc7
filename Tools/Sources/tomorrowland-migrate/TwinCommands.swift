// `add-async-twins` and `add-promise-twins`: the commands that add overloads next to functions.

import ArgumentParser
import Foundation
import TomorrowlandMigrateKit

extension TomorrowlandMigrate {
    /// `add-async-twins`: an async overload next to every promise-returning function, proven by the compiler.
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
            let result = compiler.addAsyncTwins(set)
            try apply(result, write: write)
            try finish(problems: set.problems)
        }
    }

    /// `add-promise-twins`: a promise-returning overload next to marked async functions, from syntax.
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
            let result = UncompiledFiles.run(set, command: "add-promise-twins") { AddPromiseTwinsCommand.run($0, all: all) }
            try apply(result, write: write)
            try finish(problems: set.problems)
        }
    }
}
