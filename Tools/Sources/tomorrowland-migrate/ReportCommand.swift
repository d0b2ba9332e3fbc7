// `report`: what is left to migrate, and a plan.

import ArgumentParser
import Foundation
import TomorrowlandMigrateKit

extension TomorrowlandMigrate {
    /// `report`: promise-returning declarations, async functions, progress and a plan.
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
}
