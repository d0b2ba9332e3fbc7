// `adopt`: the edits 1.x code needs to compile against this package.

import ArgumentParser
import Foundation
import TomorrowlandMigrateKit

extension TomorrowlandMigrate {
    /// `adopt`: the edits that code written for Tomorrowland 1.x needs, from syntax.
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
            let result = UncompiledFiles.run(set, command: "adopt") { AdoptCommand.run($0) }
            try apply(result, write: write)
            try finish(problems: set.problems)
        }
    }
}
