// A file that several modules compile (a symbolic link: Ledger's test support, shared by two
// test targets): each module has its own copy of its declarations, with USRs of its own, and
// the compiler's facts of the file are one module's. A reference through another module's copy
// names the same declaration: these keys make the copies meet.

import Foundation

enum SharedDeclarations {
    /// One key per declaration for `usrs`: the demangled name, with the names of the modules
    /// that share a file replaced (`(shared).FakeFXProvider.latestRate(for:)`). USRs of other
    /// modules have no key; so has none when no module shares a file.
    static func keys(for usrs: some Sequence<String>, oracle: CompilerOracle) -> [String: String] {
        let sharing = Set(modulesOfSharedFiles(oracle).values.flatMap { $0 })
        guard !sharing.isEmpty else { return [:] }
        let prefixes = sharing.map { "s:\($0.utf8.count)\($0)" }
        let usrs = Set(usrs).filter { usr in prefixes.contains { usr.hasPrefix($0) } }.sorted()
        guard !usrs.isEmpty else { return [:] }
        let demangler = ((oracle.swiftc as NSString).deletingLastPathComponent as NSString).appendingPathComponent("swift-demangle")
        let lines = Process.capture(demangler, ["--compact"] + usrs.map { "$s" + $0.dropFirst(2) }).output.split(separator: "\n")
        guard lines.count == usrs.count else { return [:] }
        var keys: [String: String] = [:]
        for (usr, demangled) in zip(usrs, lines) {
            var key = String(demangled)
            // Longest first: `LedgerFeaturesLite.` before `LedgerFeatures.`.
            // (`(extension in Support):Support.P.f()`: a protocol extension's member names its module twice.)
            for module in sharing.sorted(by: { $0.count > $1.count }) {
                key = key.replacingOccurrences(of: module + ".", with: "(shared).").replacingOccurrences(of: "in \(module))", with: "in (shared))")
            }
            keys[usr] = key
        }
        return keys
    }

    /// The modules that compile each file compiled by more than one (by `CompilerFacts.key`).
    static func modulesOfSharedFiles(_ oracle: CompilerOracle) -> [String: Set<String>] {
        var modulesOfFile: [String: Set<String>] = [:]
        for module in oracle.modules {
            for source in module.sources { modulesOfFile[CompilerFacts.key(source), default: []].insert(module.name) }
        }
        return modulesOfFile.filter { $0.value.count > 1 }
    }

    /// `nominal` (a type's mangling, `15LedgerCoreTests14FakeFXProviderC`) and the same type in
    /// the other `modules` that compile its file (`19LedgerCoreTwinTests14FakeFXProviderC`).
    static func copies(of nominal: String, modules: Set<String>) -> [String] {
        guard let module = modules.first(where: { nominal.hasPrefix("\($0.utf8.count)\($0)") }) else { return [nominal] }
        let rest = nominal.dropFirst("\(module.utf8.count)\(module)".count)
        return [nominal] + modules.subtracting([module]).sorted().map { "\($0.utf8.count)\($0)" + rest }
    }

    /// Whether one of `usrs` names `target` through another module's copy of a shared file.
    static func names(_ target: String, in usrs: Set<String>, oracle: CompilerOracle) -> Bool {
        guard !usrs.isEmpty else { return false }
        let keys = keys(for: usrs.union([target]), oracle: oracle)
        guard let key = keys[target] else { return false }
        return usrs.contains { keys[$0] == key }
    }
}
