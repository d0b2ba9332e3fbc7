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
}
