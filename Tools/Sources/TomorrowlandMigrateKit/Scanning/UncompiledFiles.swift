// Scanned files that no target of the package compiles: a folder whose target is commented
// out in Package.swift (tests of the async twins, waiting for the twins), a file outside every
// target's folder. No command edits them: their code was never type-checked, and what its calls
// mean is for the target that will compile it (add-async-twins pinned a twin test's
// `try await registry.vehicle(id: 1)`, meant for the twin, to the promise).

import Foundation

/// The sources the package's build compiles, as SwiftPM's build manifest lists them.
public struct CompiledFiles: Sendable {
    /// Every source some module compiles (`CompilerFacts.key`).
    public let sources: Set<String>

    public init(modules: [ModuleInvocation]) {
        sources = Set(modules.flatMap(\.sources))
    }

    /// The modules the oracle read from the package's manifest.
    public init(_ oracle: CompilerOracle) {
        self.init(modules: oracle.modules)
    }

    /// For the package around `roots`, from `.build/debug.yaml`; when that is missing or older
    /// than `Package.swift`, SwiftPM writes it first (`swift build --target` with a name no target
    /// has: the package graph is loaded, nothing is compiled, so 1.x code that does not build yet
    /// is no obstacle). Nil when there is no package; a failure when no manifest can be written.
    public static func forPackage(around roots: [String]) -> Result<CompiledFiles, OracleUnavailable>? {
        guard let package = PackageContext(roots: roots) else { return nil }
        let manifest = package.root + "/.build/debug.yaml"
        let swiftBuild = ["swift", "build", "--package-path", package.root]
        var output = ""
        if !CompilerOracle.isNewer(manifest, than: package.root + "/Package.swift") {
            output = Process.capture("/usr/bin/env", swiftBuild + ["--target", "tomorrowland-migrate: the manifest only"]).output
        }
        guard CompilerOracle.isNewer(manifest, than: package.root + "/Package.swift"), let text = try? String(contentsOfFile: manifest, encoding: .utf8) else {
            let why = CompilerDiagnostic.errors(in: output).first.map(\.description)
                ?? output.split(separator: "\n").first { $0.contains("error:") }.map { String($0) } ?? "no build manifest"
            return .failure(OracleUnavailable(description: "SwiftPM wrote no build manifest for \(package.root): \(why)"))
        }
        let modules = BuildManifest.modules(in: text).map(\.module)
        guard !modules.isEmpty else { return .failure(OracleUnavailable(description: "\(manifest) lists no Swift module")) }
        return .success(CompiledFiles(modules: modules))
    }

    /// Whether some module compiles the file at `path` (through any symbolic link).
    public func compiles(_ path: String) -> Bool {
        sources.contains(CompilerFacts.key(path))
    }
}

/// Leaving the files no target compiles as they are.
public enum UncompiledFiles {
    /// Runs `body` on the files of `set` that some module of the package compiles, and puts
    /// first one note per folder of files none compiles (a folder some of whose files are
    /// compiled: one per file), saying they were left as is. `command` names the command in the
    /// notes (add-async-twins says its calls there were not pinned).
    public static func run(_ set: SourceSet, compiled: CompiledFiles, command: String, _ body: (SourceSet) -> MigrationResult) -> MigrationResult {
        let (kept, leftOut) = set.partitioned(compiled)
        var result = body(kept)
        result.notes.insert(contentsOf: notes(for: leftOut, in: set, command: command), at: 0)
        return result
    }

    /// The same for a command that does not ask the compiler (`adopt`, `--syntax-only`): which
    /// files the targets compile comes from SwiftPM's build manifest (`CompiledFiles.forPackage`).
    /// Files outside a package are all taken as compiled; when SwiftPM cannot say (the manifest
    /// does not load), so is every scanned file, and a note says so.
    public static func run(_ set: SourceSet, command: String, _ body: (SourceSet) -> MigrationResult) -> MigrationResult {
        switch CompiledFiles.forPackage(around: set.roots) {
        case .success(let compiled):
            return run(set, compiled: compiled, command: command, body)
        case .failure(let reason):
            var result = body(set)
            result.notes.insert(MigrationNote(
                path: set.files.first?.path ?? ".", line: 1,
                message: "which files the package's targets compile is not known (\(reason)): every scanned file was taken as compiled"
            ), at: 0)
            return result
        case nil:
            return body(set)
        }
    }

    /// One note per folder (SwiftPM's module folder: `Tests/TwinTests`) whose scanned files no
    /// module compiles; one per file where the folder's other files are compiled, or for a file
    /// outside any module folder.
    static func notes(for leftOut: [ParsedFile], in set: SourceSet, command: String) -> [MigrationNote] {
        let what = command == "add-async-twins"
            ? "its calls were not pinned and its functions got no twin"
            : "\(command) changed nothing there"
        let rule = "not compiled by any target of the package (a target commented out in Package.swift, or none), "
            + "so it was left as is: " + what
        let leftOutPaths = Set(leftOut.map(\.path))
        var notes: [MigrationNote] = []
        var done = Set<String>()
        for file in leftOut {
            let folder = file.module
            if !folder.isEmpty, set.files.allSatisfy({ $0.module != folder || leftOutPaths.contains($0.path) }) {
                guard done.insert(folder).inserted else { continue }
                let count = leftOut.filter { $0.module == folder }.count
                notes.append(MigrationNote(path: folder + "/", line: 1, message: "\(count) file(s) " + rule))
            } else {
                notes.append(MigrationNote(path: file.path, line: 1, message: rule))
            }
        }
        return notes
    }
}
