// The compiler's facts for a set of files: each module that holds them is type-checked from
// source (`-dump-ast`), in import order, in a scratch folder; a module another of them imports
// is emitted there first. Facts that cannot have changed are reused (`unchanged`, `ASTCache`).

import Foundation

extension CompilerOracle {
    /// The facts for every file of the modules that hold `paths`, with the files in
    /// `replacing` (by path) read from that text instead: each of those modules that another
    /// of them imports is emitted to a scratch folder, so that its importers see it as it is
    /// (changed or not: `forPackage` does not build them). A module that sees no change takes
    /// its facts from `unchanged` when given, and one whose facts were kept (`ASTCache`) from those.
    public func facts(for paths: [String], replacing: [String: String] = [:], unchanged: CompilerFacts? = nil) throws -> CompilerFacts {
        var run = try FactsRun(oracle: self, paths: paths, replacing: replacing, unchanged: unchanged)
        defer { try? FileManager.default.removeItem(at: run.scratch) }
        for (index, module) in run.involved.enumerated() {
            try run.read(module, at: index)
        }
        run.spellPromiseTypes()
        return run.facts
    }
}

/// One run of `CompilerOracle.facts`: the scratch folder, the facts gathered so far, and what
/// the modules read so far leave for the modules that import them.
struct FactsRun {
    let oracle: CompilerOracle
    /// The replaced texts, by `CompilerFacts.key`.
    let replaced: [String: String]
    let unchanged: CompilerFacts?
    let scratch: URL
    /// Where modules are emitted for their importers.
    let scratchModules: String
    let cache: ASTCache?
    /// The modules that hold the paths, each after the ones it imports.
    let involved: [ModuleInvocation]
    var facts = CompilerFacts()
    /// Modules emitted to `scratchModules` this run. `forPackage` does not build the modules
    /// that hold the paths, so one that another of them imports is always emitted from source.
    var emitted = Set<String>()
    /// Modules whose text changed, or that import one that did, and whose interface is not the
    /// one `unchanged` saw: the modules that import none of them keep `unchanged`. (An emitted
    /// module is the same bytes for the same interface, wherever its sources are and whatever
    /// the bodies of its non-inlinable functions say: what an importer type-checks against.)
    var changed = Set<String>()
    /// The cache keys of the modules type-checked this run, for the modules that import them.
    var cacheKeys: [String: String] = [:]

    /// A run with its scratch folder made (and the cache's folder, when the oracle keeps facts).
    init(oracle: CompilerOracle, paths: [String], replacing: [String: String], unchanged: CompilerFacts?) throws {
        self.oracle = oracle
        self.unchanged = unchanged
        let keys = Set(paths.map(CompilerFacts.key))
        replaced = Dictionary(replacing.map { (CompilerFacts.key($0.key), $0.value) }, uniquingKeysWith: { $1 })
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("tomorrowland-migrate-\(UUID().uuidString)")
        scratchModules = scratch.appendingPathComponent("Modules").path
        try FileManager.default.createDirectory(atPath: scratchModules, withIntermediateDirectories: true)
        cache = oracle.cacheDirectory.map(ASTCache.init(directory:))
        if let cacheDirectory = oracle.cacheDirectory {
            try? FileManager.default.createDirectory(atPath: cacheDirectory, withIntermediateDirectories: true)
        }
        involved = oracle.modules(holding: keys)
    }

    /// One module of the run, with its sources as the compiler reads them.
    struct ModuleStep {
        let module: ModuleInvocation
        /// Its place in `involved`: names its scratch folders.
        let index: Int
        /// Its sources, a replaced one as its scratch copy.
        let sources: [String]
        /// Scratch path → real path, for the replaced sources.
        let original: [String: String]
        /// Whether its text changed, or that of a module it imports.
        let seesChange: Bool
        /// Whether a module read after it imports it.
        let importedLater: Bool
        /// The search path of the modules emitted so far.
        let search: [String]
        /// A proof of changed text: it also runs the diagnostics that come after type checking
        /// (`checkSIL`); a kept dump did not, so it is not used there.
        let strict: Bool
    }

    /// Reads one module's facts: from `unchanged`, from the cache, or from the compiler.
    mutating func read(_ module: ModuleInvocation, at index: Int) throws {
        let step = try self.step(for: module, at: index)
        if reuseUnchanged(step) { return }
        let key = cacheKey(for: step)
        if loadKept(step, key: key) { return }
        try typeCheck(step, key: key)
    }

    /// The module's sources (a replaced one written to the scratch folder) and where it stands;
    /// a module that sees a change joins `changed`.
    mutating func step(for module: ModuleInvocation, at index: Int) throws -> ModuleStep {
        var sources: [String] = []
        var original: [String: String] = [:]
        for source in module.sources {
            guard let text = replaced[source] else { sources.append(source); continue }
            let copy = scratch.appendingPathComponent("src\(index)").appendingPathComponent(source).path
            try FileManager.default.createDirectory(atPath: (copy as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: copy, atomically: true, encoding: .utf8)
            sources.append(copy)
            original[copy] = source
        }
        // (Through the modules it imports too: their imports are loaded with them.)
        let seesChange = !original.isEmpty || oracle.imports(of: module).contains(where: changed.contains)
        if seesChange { changed.insert(module.name) }
        return ModuleStep(
            module: module, index: index, sources: sources, original: original, seesChange: seesChange,
            importedLater: involved.dropFirst(index + 1).contains { $0.dependencies.contains(module.name) },
            search: emitted.isEmpty ? [] : ["-I", scratchModules], strict: !replaced.isEmpty && seesChange
        )
    }

    /// A module that sees no change takes the facts `unchanged` has for all its files (and,
    /// when imported later, the interface that run emitted); false when it cannot.
    mutating func reuseUnchanged(_ step: ModuleStep) -> Bool {
        let module = step.module
        guard !step.seesChange, let unchanged, module.sources.allSatisfy({ unchanged.files[$0] != nil }) else { return false }
        for source in module.sources { facts.files[source] = unchanged.files[source] }
        guard step.importedLater else { return true }
        // The same sources against the same imports: the module `unchanged` saw.
        if unchanged.errors.isEmpty, let data = unchanged.interfaces[module.name],
           FileManager.default.createFile(atPath: scratchModules + "/\(module.name).swiftmodule", contents: data) {
            emitted.insert(module.name)
            facts.interfaces[module.name] = data
        } else {
            emit(step)
        }
        return true
    }

    /// The module's key in the cache: nil without a cache, or when it imports a module
    /// emitted this run that has no key.
    func cacheKey(for step: ModuleStep) -> String? {
        guard cache != nil, step.module.dependencies.allSatisfy({ !emitted.contains($0) || cacheKeys[$0] != nil }) else { return nil }
        let texts = step.sources.map { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }
        return ASTCache.key(swiftc: oracle.swiftc, module: step.module, imports: oracle.imports(of: step.module), texts: texts, importedKeys: cacheKeys)
    }

    /// Kept facts of the same text (a previous command's proof, a second run), with the kept
    /// interface copied into place when importers need it; false when there are none to use.
    mutating func loadKept(_ step: ModuleStep, key: String?) -> Bool {
        let module = step.module
        guard !step.strict, let cache, let key,
              let kept = cache.load(module: module.name, key: key, count: step.sources.count, needsModule: step.importedLater) else { return false }
        // (A run pruning the entry meanwhile: the module is type-checked instead.)
        let copied = kept.swiftmodule.map { kept in
            (try? FileManager.default.copyItem(atPath: kept, toPath: scratchModules + "/\(module.name).swiftmodule")) != nil
        }
        guard copied != false else { return false }
        for (number, source) in step.sources.enumerated() {
            facts.files[CompilerFacts.key(step.original[source] ?? source)] = kept.files[number]
        }
        if copied == true {
            emitted.insert(module.name)
            noteInterface(step)
        }
        cacheKeys[module.name] = key
        return true
    }

    /// Type-checks the module from source: its AST dumps, on changed text the diagnostics after
    /// type checking, its interface for its importers; keeps facts without errors in the cache.
    mutating func typeCheck(_ step: ModuleStep, key: String?) throws {
        let errorsBefore = facts.errors.count
        try dumpAST(step)
        // As strict as the build: region isolation, `sending`, definite initialization and
        // the other diagnostics of SIL's mandatory passes come after type checking, in the
        // package's own language mode (its arguments). Run on changed text that type-checks.
        if step.strict, facts.errors.count == errorsBefore { checkSIL(step) }
        // A module other modules import: they see it (and any change) through its interface.
        if step.importedLater { emit(step) }
        // Only the facts of modules without errors are kept (a hit reports no errors).
        let read = step.sources.compactMap { facts.file(step.original[$0] ?? $0) }
        if let cache, let key, facts.errors.count == errorsBefore, read.count == step.sources.count {
            cache.store(
                module: step.module.name, key: key, files: read,
                swiftmodule: step.importedLater ? scratchModules + "/\(step.module.name).swiftmodule" : nil
            )
            cacheKeys[step.module.name] = key
        }
    }

    /// `-dump-ast` of the module's files into the facts, with its errors (and, when strict,
    /// its Swift 6 errors).
    mutating func dumpAST(_ step: ModuleStep) throws {
        let dumps = scratch.appendingPathComponent("ast\(step.index)")
        try FileManager.default.createDirectory(at: dumps, withIntermediateDirectories: true)
        var map: [String: [String: String]] = [:]
        for (number, source) in step.sources.enumerated() { map[source] = ["ast-dump": dumps.appendingPathComponent("\(number).json").path] }
        let mapFile = dumps.appendingPathComponent("map.json")
        try JSONSerialization.data(withJSONObject: map).write(to: mapFile)
        // Batch mode: each frontend dumps a share of the files, so the module's files are
        // parsed once per frontend, not once per file (a third less CPU on a 19-file module).
        let run = Process.capture(
            oracle.swiftc,
            step.search + step.module.arguments + step.sources + [
                "-dump-ast", "-dump-ast-format", "json", "-output-file-map", mapFile.path, "-diagnostic-style", "llvm",
                "-continue-building-after-errors", "-enable-batch-mode",
            ]
        )
        facts.errors += CompilerDiagnostic.errors(in: run.output).map { $0.mapping(step.original) }
        if step.strict { facts.swift6Errors += CompilerDiagnostic.swift6Errors(in: run.output).map { $0.mapping(step.original) } }
        for (number, source) in step.sources.enumerated() {
            guard let data = FileManager.default.contents(atPath: dumps.appendingPathComponent("\(number).json").path) else { continue }
            try facts.add(astJSON: data, path: step.original[source] ?? source)
        }
    }

    /// `-emit-sil` of the module: the errors of SIL's mandatory passes.
    mutating func checkSIL(_ step: ModuleStep) {
        let sil = Process.capture(
            oracle.swiftc, step.search + step.module.arguments + step.sources + ["-emit-sil", "-wmo", "-o", "/dev/null", "-diagnostic-style", "llvm"]
        )
        facts.errors += CompilerDiagnostic.errors(in: sil.output).map { error in
            CompilerDiagnostic(path: step.original[error.path] ?? error.path, line: error.line, column: error.column, message: error.message)
        }
    }

    /// Emits the module's interface to `scratchModules`, in one frontend that skips the bodies
    /// the interface does not need, as a build's own emit-module job does (without `-wmo` the
    /// driver type-checks every file again, in one job per file: eight times the CPU). The
    /// bodies' errors come from the dump; errors already found are not added again.
    mutating func emit(_ step: ModuleStep) {
        let module = step.module
        let run = Process.capture(oracle.swiftc, step.search + module.arguments + step.sources + [
            "-emit-module", "-emit-module-path", scratchModules + "/\(module.name).swiftmodule", "-diagnostic-style", "llvm",
            "-wmo", "-experimental-skip-non-inlinable-function-bodies-without-types",
        ])
        let known = facts.errors
        facts.errors += CompilerDiagnostic.errors(in: run.output).map { $0.mapping(step.original) }.filter { error in
            !known.contains { $0.line == error.line && $0.message == error.message }
        }
        emitted.insert(module.name)
        noteInterface(step)
    }

    /// Keeps the module just placed in `scratchModules`; a changed module whose interface is
    /// the one `unchanged` saw changes nothing for its importers.
    mutating func noteInterface(_ step: ModuleStep) {
        let name = step.module.name
        guard let data = FileManager.default.contents(atPath: scratchModules + "/\(name).swiftmodule") else { return }
        facts.interfaces[name] = data
        if step.seesChange, unchanged?.interfaces[name] == data { changed.remove(name) }
    }

    /// Spells the promise types of calls and results, for pins and twins (one demangler run).
    mutating func spellPromiseTypes() {
        let types = facts.files.values.flatMap { $0.calls.map(\.type) + $0.declarations.compactMap(\.resultType) }
        let promiseTypes = Set(types.filter(CompilerFacts.isPromise)).sorted()
        guard !promiseTypes.isEmpty else { return }
        let demangler = ((oracle.swiftc as NSString).deletingLastPathComponent as NSString).appendingPathComponent("swift-demangle")
        let lines = Process.capture(demangler, ["--compact", "--simplified"] + promiseTypes).output.split(separator: "\n")
        if lines.count == promiseTypes.count {
            for (mangled, spelled) in zip(promiseTypes, lines) { facts.spelledTypes[mangled] = String(spelled) }
        }
    }
}
