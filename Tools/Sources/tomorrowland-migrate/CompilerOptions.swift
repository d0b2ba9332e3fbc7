// `--syntax-only`: the commands that can ask the compiler do so unless told not to.

import ArgumentParser
import Foundation
import TomorrowlandMigrateKit

/// Whether to ask the compiler (`swift build`, then `swiftc -dump-ast`: `CompilerOracle`) for
/// call targets, or to read syntax only.
struct CompilerOptions: ParsableArguments {
    @Flag(help: """
        Read syntax only: do not build the package and ask the compiler which declaration each call names \
        (the fallback when the package does not build).
        """)
    var syntaxOnly = false

    /// The compiler's facts for `set`, or nil (with the reason on standard error).
    func facts(for set: SourceSet) -> CompilerFacts? {
        guard !syntaxOnly else { return nil }
        switch CompilerOracle.forPackage(around: set.roots).flatMap({ oracle in
            Result { try oracle.facts(for: set.files.map(\.path)) }.mapError { OracleUnavailable(description: "\($0)") }
        }) {
        case .success(let facts) where facts.errors.isEmpty:
            return facts
        case .success(let facts):
            warn("the code does not type-check as it is (\(facts.firstError ?? facts.errors[0])): call targets read from syntax only")
        case .failure(let reason):
            warn("\(reason): call targets read from syntax only")
        }
        return nil
    }

    /// `add-async-twins` with the compiler's proof, or from syntax (saying why); on the files
    /// some target compiles (the others are left as is, with a note: `UncompiledFiles`).
    func addAsyncTwins(_ set: SourceSet) -> MigrationResult {
        let command = "add-async-twins"
        if syntaxOnly { return UncompiledFiles.run(set, command: command) { AddAsyncTwins.run($0) } }
        switch CompilerOracle.forPackage(around: set.roots) {
        case .success(let oracle):
            return UncompiledFiles.run(set, compiled: CompiledFiles(oracle), command: command) { AddAsyncTwins.run($0, oracle: oracle) }
        case .failure(let reason):
            return UncompiledFiles.run(set, command: command) { AddAsyncTwins.syntaxOnly($0, because: reason.description) }
        }
    }

    /// The oracle for a command that only works with the compiler (`convert-calls`,
    /// `delete-twins`); nil, with the reason on standard error, when there is none.
    /// `importers`: the command type-checks the modules that import the scanned ones too.
    func requiredOracle(for set: SourceSet, command: String, importers: Bool = false) -> CompilerOracle? {
        if syntaxOnly {
            warn("\(command) needs the compiler to prove its changes; it does not run with --syntax-only")
            return nil
        }
        switch CompilerOracle.forPackage(around: set.roots, importers: importers) {
        case .success(let oracle): return oracle
        case .failure(let reason):
            warn("\(command) needs the compiler to prove its changes: \(reason)")
            return nil
        }
    }

    /// A command that only works with the compiler: its loop over its actions and its proof
    /// (`run`, given the oracle) on the files some target compiles (`UncompiledFiles`); exits
    /// with 1 when there is no oracle (`requiredOracle` says why).
    func proven(
        _ set: SourceSet, command: String, importers: Bool = false, _ run: (SourceSet, CompilerOracle) -> MigrationResult
    ) throws -> MigrationResult {
        guard let oracle = requiredOracle(for: set, command: command, importers: importers) else { throw ExitCode(1) }
        return UncompiledFiles.run(set, compiled: CompiledFiles(oracle), command: command) { run($0, oracle) }
    }

    private func warn(_ text: String) {
        FileHandle.standardError.write(Data(("note: " + text + "\n").utf8))
    }
}
