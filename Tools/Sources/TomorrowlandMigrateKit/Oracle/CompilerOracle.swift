// Asking the compiler: one `swiftc -dump-ast -dump-ast-format json` per module (and, for a
// proof of changed text, one `-emit-sil` for the diagnostics after type checking), with the
// arguments SwiftPM compiles that module with (read from the debug build's manifest), on the
// files as they are or as a command would leave them (a scratch copy).

import Foundation

/// One module to type-check: its sources and the compiler arguments that are not sources
/// or outputs.
public struct ModuleInvocation: Sendable {
    public let name: String
    public let sources: [String]
    public let arguments: [String]
    /// The modules (of the same set) it imports.
    public let dependencies: [String]

    public init(name: String, sources: [String], arguments: [String], dependencies: [String] = []) {
        self.name = name
        self.sources = sources.map(CompilerFacts.key)
        self.arguments = arguments
        self.dependencies = dependencies
    }
}

/// Why the compiler could not be asked: the commands then read syntax only.
public struct OracleUnavailable: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// The compiler as the source of truth for call targets, types and conformances.
public struct CompilerOracle: Sendable {
    public let swiftc: String
    public let modules: [ModuleInvocation]
    /// Where `facts` keeps the facts of modules that type-checked (`ASTCache`); nil: nowhere.
    public let cacheDirectory: String?

    public init(swiftc: String, modules: [ModuleInvocation], cacheDirectory: String? = nil) {
        self.swiftc = swiftc
        self.modules = modules
        self.cacheDirectory = cacheDirectory
    }

    /// The oracle for the SwiftPM package around `roots`: builds what the modules holding
    /// `roots` import (with `importers`, what the modules that import those import too: for a
    /// command that type-checks them, `pathsWithDependents`), and reads each module's compiler
    /// arguments from the `.build/debug.yaml` the build leaves.
    ///
    /// Those modules themselves are type-checked from source by `facts`, so they need no
    /// build: only what they (and their importers) import is built, one `swift build --target`
    /// each (a no-op when warm), and a command run after another's write does not recompile
    /// what the write changed. The modules are read from SwiftPM's manifest for the package
    /// as it is now (files added or removed), which those builds write (`buildDependencies`).
    /// When the manifest is older than `Package.swift` after that, when a scanned
    /// module uses macros or plugins (their executables and outputs come from a build), or
    /// when a build fails, `swift build --build-tests` builds everything (and says what does
    /// not compile). Modules SwiftPM generates (test discovery, the test runner) are left out:
    /// they hold no code of the package's.
    public static func forPackage(around roots: [String], importers: Bool = false) -> Result<CompilerOracle, OracleUnavailable> {
        guard let package = PackageContext(roots: roots) else {
            return .failure(OracleUnavailable(description: "no Package.swift above \(roots.first ?? "the paths")"))
        }
        let manifest = package.root + "/.build/debug.yaml"
        let swiftBuild = ["swift", "build", "--package-path", package.root]
        let built = buildDependencies(of: roots, importers: importers, manifest: manifest, package: package.root, swiftBuild: swiftBuild)
        if !built {
            let build = Process.capture("/usr/bin/env", swiftBuild + ["--build-tests"])
            guard build.status == 0 else {
                let firstError = CompilerDiagnostic.errors(in: build.output).first.map(\.description)
                    ?? build.output.split(separator: "\n").suffix(3).joined(separator: "\n")
                return .failure(OracleUnavailable(description: "the package at \(package.root) does not build: \(firstError)"))
            }
        }
        guard let text = try? String(contentsOfFile: manifest, encoding: .utf8) else {
            return .failure(OracleUnavailable(description: "no build manifest at \(manifest)"))
        }
        let modules = packageModules(in: text, root: package.root)
        guard let swiftc = modules.first?.compiler else {
            return .failure(OracleUnavailable(description: "\(manifest) lists no Swift module"))
        }
        return .success(CompilerOracle(
            swiftc: swiftc, modules: modules.map(\.module), cacheDirectory: package.root + "/.build/tomorrowland-migrate/asts"
        ))
    }

    /// Builds what the modules holding `roots` (and their importers) import (`dependencyTargets`),
    /// as SwiftPM's manifest for the package as it is now says; false when that takes a build
    /// of everything (a target fails, a scanned module needs a build of its own, the manifest
    /// is older than `Package.swift`).
    ///
    /// Every `swift build --target` writes the manifest anew before it builds, so the targets
    /// are first read from the manifest an earlier run left: their builds write it, and it is
    /// read again for a target they did not name. The manifest is written alone (`--target`
    /// with a name no target has: nothing is built) only when no build wrote it: when there
    /// is none yet, when it names no target to build, or when a target it named fails.
    private static func buildDependencies(
        of roots: [String], importers: Bool, manifest: String, package root: String, swiftBuild: [String]
    ) -> Bool {
        var fresh = false
        func writeManifest() {
            _ = Process.capture("/usr/bin/env", swiftBuild + ["--target", "tomorrowland-migrate: the manifest only"])
            fresh = true
        }
        func planned() -> [String]? {
            guard isNewer(manifest, than: root + "/Package.swift"), let text = try? String(contentsOfFile: manifest, encoding: .utf8) else {
                return nil
            }
            return dependencyTargets(of: roots, importers: importers, in: packageModules(in: text, root: root).map(\.module), root: root)
        }
        if !isNewer(manifest, than: root + "/Package.swift") { writeManifest() }
        var done = Set<String>()
        while true {
            let plannedFresh = fresh
            guard let targets = planned() else {
                if plannedFresh { return false }
                writeManifest()
                continue
            }
            let missing = targets.filter { !done.contains($0) }
            if missing.isEmpty {
                if plannedFresh { return true }
                writeManifest()
                continue
            }
            for target in missing {
                guard Process.capture("/usr/bin/env", swiftBuild + ["--target", target]).status == 0 else {
                    if plannedFresh { return false }
                    if !fresh { writeManifest() }
                    break
                }
                done.insert(target)
                fresh = true
            }
        }
    }

    /// The manifest's modules but those SwiftPM generates into the build folder.
    private static func packageModules(in manifest: String, root: String) -> [(compiler: String, module: ModuleInvocation)] {
        let generated = CompilerFacts.key(root) + "/.build/"
        return BuildManifest.modules(in: manifest).filter { entry in !entry.module.sources.allSatisfy { $0.hasPrefix(generated) } }
    }

    /// The modules to build before `facts` can type-check the modules holding `roots` (with
    /// `importers`, and the modules that import those) from source: every module they import,
    /// directly or through others, that is not type-checked from source itself (a module
    /// between two scanned ones, that neither holds `roots` nor imports them, is built, with what
    /// it imports); only the outermost ones are named (each build builds what it imports). Nil
    /// when a module holding `roots` needs a build of its own first: it loads macros or
    /// compiles sources a plugin writes into the build folder. What only an importer of the
    /// scanned modules imports is not built unless `importers`: scanning one module of a deep
    /// tree builds what that module needs, not most of the package.
    static func dependencyTargets(of roots: [String], importers: Bool = false, in all: [ModuleInvocation], root: String) -> [String]? {
        let rootKeys = roots.map(CompilerFacts.key)
        let holding = all.filter { module in
            module.sources.contains { source in rootKeys.contains { source == $0 || source.hasPrefix($0 + "/") } }
        }
        let buildFolder = CompilerFacts.key(root) + "/.build/"
        let needsBuild = holding.contains { module in
            module.arguments.contains { ["-load-plugin-executable", "-load-plugin-library", "-plugin-path"].contains($0) }
                || module.sources.contains { $0.hasPrefix(buildFolder) }
        }
        if needsBuild { return nil }
        let scanned = Set(holding.map(\.name))
        let checked = importers ? withImporters(scanned, in: all) : scanned
        let needed = imported(by: checked, in: all).subtracting(checked)
        let inner = Set(all.filter { needed.contains($0.name) }.flatMap(\.dependencies))
        return needed.subtracting(inner).sorted()
    }

    static func isNewer(_ path: String, than other: String) -> Bool {
        let date = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date }
        guard let first = date(path), let second = date(other) else { return false }
        return first > second
    }

    /// `names` and every module of `modules` that imports one of them, directly or through others.
    static func withImporters(_ names: Set<String>, in modules: [ModuleInvocation]) -> Set<String> {
        var names = names
        while let next = modules.first(where: { !names.contains($0.name) && $0.dependencies.contains(where: names.contains) }) {
            names.insert(next.name)
        }
        return names
    }

    /// Every module that one of `names` imports, directly or through others.
    static func imported(by names: Set<String>, in modules: [ModuleInvocation]) -> Set<String> {
        var found = Set<String>()
        var frontier = names
        while !frontier.isEmpty {
            frontier = Set(modules.filter { frontier.contains($0.name) }.flatMap(\.dependencies)).subtracting(found)
            found.formUnion(frontier)
        }
        return found
    }

    /// The modules `module` imports, directly or through others (by name).
    func imports(of module: ModuleInvocation) -> [String] {
        Self.imported(by: [module.name], in: modules).sorted()
    }

    /// The modules that hold any of `paths`, each after the ones it imports.
    func modules(holding paths: Set<String>) -> [ModuleInvocation] {
        var pending = modules.filter { !Set($0.sources).isDisjoint(with: paths) }
        var ordered: [ModuleInvocation] = []
        while !pending.isEmpty {
            let ready = pending.firstIndex { module in !module.dependencies.contains { name in pending.contains { $0.name == name } } }
            ordered.append(pending.remove(at: ready ?? 0))
        }
        return ordered
    }

    /// `paths` and the sources of every module that imports a module holding one of them,
    /// directly or through others: where all code that can call into `paths` is.
    public func pathsWithDependents(of paths: [String]) -> [String] {
        let keys = Set(paths.map(CompilerFacts.key))
        let names = Self.withImporters(Set(modules.filter { !Set($0.sources).isDisjoint(with: keys) }.map(\.name)), in: modules)
        let dependents = modules.filter { names.contains($0.name) }.flatMap(\.sources).filter { !keys.contains($0) }
        return paths + dependents
    }

    /// The sources of the modules of this package that the modules holding `paths` import,
    /// directly or through others (not `paths` themselves).
    public func dependencySources(of paths: [String]) -> [String] {
        let keys = Set(paths.map(CompilerFacts.key))
        let names = Self.imported(by: Set(modules.filter { !Set($0.sources).isDisjoint(with: keys) }.map(\.name)), in: modules)
        return modules.filter { names.contains($0.name) }.flatMap(\.sources).filter { !keys.contains($0) }
    }

    /// The facts for every file of the modules that hold `paths`, with the files in
    /// `replacing` (by path) read from that text instead: each of those modules that another
    /// of them imports is emitted to a scratch folder, so that its importers see it as it is
    /// (changed or not: `forPackage` does not build them). A module that sees no change takes
    /// its facts from `unchanged` when given, and one whose facts were kept (`ASTCache`) from those.
    public func facts(for paths: [String], replacing: [String: String] = [:], unchanged: CompilerFacts? = nil) throws -> CompilerFacts {
        let keys = Set(paths.map(CompilerFacts.key))
        let replaced = Dictionary(replacing.map { (CompilerFacts.key($0.key), $0.value) }, uniquingKeysWith: { $1 })
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-migrate-\(UUID().uuidString)")
        let scratchModules = scratch.appendingPathComponent("Modules").path
        try FileManager.default.createDirectory(atPath: scratchModules, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var facts = CompilerFacts()
        // Modules emitted to `scratchModules` this run. `forPackage` does not build the modules
        // that hold `paths`, so one that another of them imports is always emitted from source.
        var emitted = Set<String>()
        // Modules whose text changed, or that import one that did, and whose interface is not the
        // one `unchanged` saw: the modules that import none of them keep `unchanged`. (An emitted
        // module is the same bytes for the same interface, wherever its sources are and whatever
        // the bodies of its non-inlinable functions say: what an importer type-checks against.)
        var changed = Set<String>()
        // The cache keys of the modules type-checked this run, for the modules that import them.
        var cacheKeys: [String: String] = [:]
        let cache = cacheDirectory.map(ASTCache.init(directory:))
        if let cacheDirectory { try? FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true) }
        let involved = modules(holding: keys)
        for (index, module) in involved.enumerated() {
            var sources: [String] = []
            var original: [String: String] = [:] // scratch path → real path
            for source in module.sources {
                guard let text = replaced[source] else { sources.append(source); continue }
                let copy = scratch.appendingPathComponent("src\(index)").appendingPathComponent(source).path
                try FileManager.default.createDirectory(atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try text.write(toFile: copy, atomically: true, encoding: .utf8)
                sources.append(copy)
                original[copy] = source
            }
            // (Through the modules it imports too: their imports are loaded with them.)
            let seesChange = !original.isEmpty || imports(of: module).contains(where: changed.contains)
            if seesChange { changed.insert(module.name) }
            let importedLater = involved.dropFirst(index + 1).contains { $0.dependencies.contains(module.name) }
            // Keeps the module just placed in `scratchModules`; a changed module whose interface
            // is the one `unchanged` saw changes nothing for its importers.
            let noteInterface = {
                guard let data = FileManager.default.contents(atPath: scratchModules + "/\(module.name).swiftmodule") else { return }
                facts.interfaces[module.name] = data
                if seesChange, unchanged?.interfaces[module.name] == data { changed.remove(module.name) }
            }
            let search = emitted.isEmpty ? [] : ["-I", scratchModules]
            // One frontend that skips the bodies the interface does not need, as a build's own
            // emit-module job does (without `-wmo` the driver type-checks every file again, in
            // one job per file: eight times the CPU). The bodies' errors come from the dump.
            let emit = {
                let run = Process.capture(swiftc, search + module.arguments + sources + [
                    "-emit-module", "-emit-module-path", scratchModules + "/\(module.name).swiftmodule", "-diagnostic-style", "llvm",
                    "-wmo", "-experimental-skip-non-inlinable-function-bodies-without-types",
                ])
                facts.errors += CompilerDiagnostic.errors(in: run.output).map { $0.mapping(original) }.filter { error in
                    !facts.errors.contains { $0.line == error.line && $0.message == error.message }
                }
                emitted.insert(module.name)
                noteInterface()
            }
            if !seesChange, let unchanged, module.sources.allSatisfy({ unchanged.files[$0] != nil }) {
                for source in module.sources { facts.files[source] = unchanged.files[source] }
                guard importedLater else { continue }
                // The same sources against the same imports: the module `unchanged` saw.
                if unchanged.errors.isEmpty, let data = unchanged.interfaces[module.name],
                   FileManager.default.createFile(atPath: scratchModules + "/\(module.name).swiftmodule", contents: data) {
                    emitted.insert(module.name)
                    facts.interfaces[module.name] = data
                } else {
                    emit()
                }
                continue
            }
            // Kept facts of the same text (a previous command's proof, a second run).
            var key: String?
            if cache != nil, module.dependencies.allSatisfy({ !emitted.contains($0) || cacheKeys[$0] != nil }) {
                let texts = sources.map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }
                key = ASTCache.key(swiftc: swiftc, module: module, imports: imports(of: module), texts: texts, importedKeys: cacheKeys)
            }
            // A proof of changed text also runs the diagnostics that come after type checking
            // (below): a kept dump did not, so it is not used there.
            let strict = !replaced.isEmpty && seesChange
            if !strict, let cache, let key,
               let kept = cache.load(module: module.name, key: key, count: sources.count, needsModule: importedLater) {
                // (A run pruning the entry meanwhile: the module is type-checked below instead.)
                let copied = kept.swiftmodule.map { kept in
                    (try? FileManager.default.copyItem(atPath: kept, toPath: scratchModules + "/\(module.name).swiftmodule")) != nil
                }
                if copied != false {
                    for (number, source) in sources.enumerated() { facts.files[CompilerFacts.key(original[source] ?? source)] = kept.files[number] }
                    if copied == true {
                        emitted.insert(module.name)
                        noteInterface()
                    }
                    cacheKeys[module.name] = key
                    continue
                }
            }
            let errorsBefore = facts.errors.count
            let dumps = scratch.appendingPathComponent("ast\(index)")
            try FileManager.default.createDirectory(at: dumps, withIntermediateDirectories: true)
            var map: [String: [String: String]] = [:]
            for (number, source) in sources.enumerated() { map[source] = ["ast-dump": dumps.appendingPathComponent("\(number).json").path] }
            let mapFile = dumps.appendingPathComponent("map.json")
            try JSONSerialization.data(withJSONObject: map).write(to: mapFile)
            // Batch mode: each frontend dumps a share of the files, so the module's files are
            // parsed once per frontend, not once per file (a third less CPU on a 19-file module).
            let run = Process.capture(
                swiftc,
                search + module.arguments + sources + ["-dump-ast", "-dump-ast-format", "json", "-output-file-map", mapFile.path, "-diagnostic-style", "llvm",
                 "-continue-building-after-errors", "-enable-batch-mode"]
            )
            facts.errors += CompilerDiagnostic.errors(in: run.output).map { $0.mapping(original) }
            if strict { facts.swift6Errors += CompilerDiagnostic.swift6Errors(in: run.output).map { $0.mapping(original) } }
            for (number, source) in sources.enumerated() {
                guard let data = FileManager.default.contents(atPath: dumps.appendingPathComponent("\(number).json").path) else { continue }
                try facts.add(astJSON: data, path: original[source] ?? source)
            }
            // As strict as the build: region isolation, `sending`, definite initialization and
            // the other diagnostics of SIL's mandatory passes come after type checking, in the
            // package's own language mode (its arguments). Run on changed text that type-checks.
            if strict, facts.errors.count == errorsBefore {
                let sil = Process.capture(
                    swiftc, search + module.arguments + sources + ["-emit-sil", "-wmo", "-o", "/dev/null", "-diagnostic-style", "llvm"]
                )
                facts.errors += CompilerDiagnostic.errors(in: sil.output).map { error in
                    CompilerDiagnostic(path: original[error.path] ?? error.path, line: error.line, column: error.column, message: error.message)
                }
            }
            // A module other modules import: they see it (and any change) through its interface.
            if importedLater { emit() }
            // Only the facts of modules without errors are kept (a hit reports no errors).
            let read = sources.compactMap { facts.file(original[$0] ?? $0) }
            if let cache, let key, facts.errors.count == errorsBefore, read.count == sources.count {
                cache.store(
                    module: module.name, key: key, files: read,
                    swiftmodule: importedLater ? scratchModules + "/\(module.name).swiftmodule" : nil
                )
                cacheKeys[module.name] = key
            }
        }
        // Spell the promise types of calls and results, for pins and twins (one demangler run).
        let types = facts.files.values.flatMap { $0.calls.map(\.type) + $0.declarations.compactMap(\.resultType) }
        let promiseTypes = Set(types.filter(CompilerFacts.isPromise)).sorted()
        if !promiseTypes.isEmpty {
            let demangler = ((swiftc as NSString).deletingLastPathComponent as NSString).appendingPathComponent("swift-demangle")
            let lines = Process.capture(demangler, ["--compact", "--simplified"] + promiseTypes).output.split(separator: "\n")
            if lines.count == promiseTypes.count {
                for (mangled, spelled) in zip(promiseTypes, lines) { facts.spelledTypes[mangled] = String(spelled) }
            }
        }
        return facts
    }
}

/// Reading SwiftPM's llbuild manifest (`.build/debug.yaml`).
enum BuildManifest {
    /// The Swift modules the manifest compiles, in build order, with their arguments minus
    /// outputs, incremental-build and index-store flags (and with every source listed).
    static func modules(in text: String) -> [(compiler: String, module: ModuleInvocation)] {
        var result: [(compiler: String, module: ModuleInvocation)] = []
        var current: String?
        var inputs: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("  \"C."), line.hasSuffix(".module\":") {
                // `"C.AppCore-x86_64-unknown-linux-gnu-debug.module":` (a module name has no `-`).
                current = line.dropFirst(5).split(separator: "-").first.map(String.init)
                inputs = []
            } else if current != nil, trimmed.hasPrefix("inputs: ") {
                inputs = (try? JSONSerialization.jsonObject(with: Data(trimmed.dropFirst(8).utf8))) as? [String] ?? []
            } else if let name = current, trimmed.hasPrefix("args: ") {
                current = nil
                guard let args = (try? JSONSerialization.jsonObject(with: Data(trimmed.dropFirst(6).utf8))) as? [String],
                      let first = args.first, first.hasSuffix("swiftc") else { continue }
                var (arguments, sources) = cleaned(Array(args.dropFirst()))
                // The sources as the manifest lists them: the `@…/sources` file is written by a
                // build step, stale or missing for a module `forPackage` did not build.
                let listed = inputs.filter { $0.hasSuffix(".swift") }
                if !listed.isEmpty { sources = listed }
                let dependencies = inputs.compactMap { input -> String? in
                    guard input.hasSuffix(".swiftmodule"), input.contains("/Modules/") else { return nil }
                    return ((input as NSString).lastPathComponent as NSString).deletingPathExtension
                }
                result.append((first, ModuleInvocation(name: name, sources: sources, arguments: arguments, dependencies: dependencies)))
            }
        }
        return result
    }

    /// Drops what only a build needs; reads `@file` source lists.
    static func cleaned(_ args: [String]) -> (arguments: [String], sources: [String]) {
        let single: Set<String> = [
            "-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode", "-serialize-diagnostics",
            "-parseable-output", "-g", "-emit-objc-header", "-whole-module-optimization", "-wmo",
        ]
        let withValue: Set<String> = ["-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path", "-o"]
        var arguments: [String] = []
        var sources: [String] = []
        var index = 0
        while index < args.count {
            let arg = args[index]
            if arg == "-Xcc", index + 1 < args.count, args[index + 1] == "-g" { index += 2; continue }
            if single.contains(arg) { index += 1; continue }
            if withValue.contains(arg) { index += 2; continue }
            if arg.hasPrefix("@") {
                let list = (try? String(contentsOfFile: String(arg.dropFirst()), encoding: .utf8)) ?? ""
                sources += list.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            } else if arg.hasSuffix(".swift"), !arg.hasPrefix("-") {
                sources.append(arg)
            } else {
                arguments.append(arg)
            }
            index += 1
        }
        return (arguments, sources)
    }
}

extension Process {
    /// Runs `executable` with `arguments`; its exit status and its standard output and error together.
    static func capture(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let started = Date()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "cannot run \(executable): \(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        ToolTrace.record(executable: executable, arguments: arguments, since: started)
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// Where the time goes: with `TOMORROWLAND_MIGRATE_TRACE=<file>` in the environment, every
/// process the tool runs appends one line to that file (tab-separated: the tool's process id,
/// seconds since the tool started, the run's wall seconds, what it ran). Nothing otherwise.
public enum ToolTrace {
    private static let file = ProcessInfo.processInfo.environment["TOMORROWLAND_MIGRATE_TRACE"]
    private static let start = Date()

    /// Appends a line for a process that ran from `since` until now.
    static func record(executable: String, arguments: [String], since: Date) {
        guard let file else { return }
        let now = Date()
        record(String(format: "%.2f\t%.2f\t", since.timeIntervalSince(start), now.timeIntervalSince(since)) + summary(executable, arguments), in: file)
    }

    /// Appends a line for a phase of the tool's own work (`phase` names it).
    public static func phase(_ phase: String, since: Date) {
        guard let file else { return }
        record(String(format: "%.2f\t%.2f\t", since.timeIntervalSince(start), Date().timeIntervalSince(since)) + "tool " + phase, in: file)
    }

    private static func summary(_ executable: String, _ arguments: [String]) -> String {
        let name = (executable as NSString).lastPathComponent
        let mode = arguments.first { ["-dump-ast", "-emit-sil", "-emit-module", "build", "test", "--compact"].contains($0) } ?? ""
        let module = zip(arguments, arguments.dropFirst()).first { $0.0 == "-module-name" || $0.0 == "--target" }?.1 ?? ""
        let sources = arguments.filter { $0.hasSuffix(".swift") && !$0.hasPrefix("-") }.count
        return "\(name == "env" ? arguments.first ?? name : name) \(mode) \(module) \(sources) files"
    }

    private static let lock = NSLock()

    private static func record(_ line: String, in path: String) {
        lock.lock()
        defer { lock.unlock() }
        let text = "\(getpid())\t" + line + "\n"
        guard let handle = FileHandle(forWritingAtPath: path) else {
            try? text.write(toFile: path, atomically: false, encoding: .utf8)
            return
        }
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        try? handle.close()
    }
}
