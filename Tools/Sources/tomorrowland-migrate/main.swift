// tomorrowland-migrate: makes a Tomorrowland 1.x codebase compile against this package (adopt),
// then moves it from promises to async/await one function at a time. Argument parsing and
// printing only; the work is in TomorrowlandMigrateKit. Each command's `run()` loads the set,
// runs the command (its loop over its actions, then its proof), and prints or writes the
// result: ReportCommand, TwinCommands, ProvenCommands, AdoptCommand; Output prints.

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

typealias AdoptCommand = TomorrowlandMigrateKit.Adopt
typealias AddAsyncTwinsCommand = TomorrowlandMigrateKit.AddAsyncTwins
typealias AddPromiseTwinsCommand = TomorrowlandMigrateKit.AddPromiseTwins
typealias ConvertCallsCommand = TomorrowlandMigrateKit.ConvertCalls
typealias DeleteTwinsCommand = TomorrowlandMigrateKit.DeleteTwins
typealias ConvertBodyCommand = TomorrowlandMigrateKit.ConvertBody

TomorrowlandMigrate.main()
