// Printing or writing what a command made, its notes, and the input problems.

import ArgumentParser
import Foundation
import TomorrowlandMigrateKit

/// Prints input problems to standard error; a non-zero exit if there were any.
func finish(problems: [InputProblem]) throws {
    for problem in problems { FileHandle.standardError.write(Data((problem.description + "\n").utf8)) }
    if !problems.isEmpty { throw ExitCode(1) }
}

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
