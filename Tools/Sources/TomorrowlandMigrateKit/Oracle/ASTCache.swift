// The `-dump-ast` outputs of modules that type-checked without an error, kept in the package's
// build folder by the content they were made from: a command run after another's write, or a
// second run, finds the dumps the previous run's proof made of the same text and does not
// run the compiler again.

import Foundation

/// Dumps by key, in `<package>/.build/tomorrowland-migrate/asts/<module>-<key>/`: one
/// `N.json` per source (in the module's source order), and `module.swiftmodule` when the
/// module was emitted for the modules that import it. At most two entries per module are kept.
struct ASTCache {
    let directory: String

    /// What a module's dump depends on: the compiler (the file the path leads to), the
    /// module's arguments, each source's path (as the package has it) and text, and each
    /// module it imports, directly or through others (`imports`): its key when this run
    /// type-checks it too, else the size and date of its built `.swiftmodule`.
    static func key(
        swiftc: String, module: ModuleInvocation, imports: [String], texts: [String], importedKeys: [String: String]
    ) -> String {
        var hash = Hash128()
        let date = { (path: String) -> String in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "none" }
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(attributes[.size] as? Int ?? 0)@\(modified)"
        }
        let compiler = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().path
        hash.add(compiler + "\0" + date(compiler) + "\0" + module.name)
        for argument in module.arguments { hash.add("\0" + argument) }
        for (source, text) in zip(module.sources, texts) { hash.add("\0" + source + "\0" + text) }
        let searchPaths = zip(module.arguments, module.arguments.dropFirst()).filter { $0.0 == "-I" }.map(\.1)
        for name in imports {
            if let key = importedKeys[name] {
                hash.add("\0\(name)=\(key)")
            } else {
                let built = searchPaths.map { "\($0)/\(name).swiftmodule" }.first { FileManager.default.fileExists(atPath: $0) }
                hash.add("\0\(name)@" + (built.map { $0 + date($0) } ?? "none"))
            }
        }
        return hash.hex
    }

    private func entry(_ module: String, _ key: String) -> String {
        directory + "/\(module)-\(key)"
    }

    /// The dumps of `count` sources and the emitted module (when `needsModule`), if kept.
    func load(module: String, key: String, count: Int, needsModule: Bool) -> (dumps: [Data], swiftmodule: String?)? {
        let folder = entry(module, key)
        let swiftmodule = folder + "/module.swiftmodule"
        if needsModule, !FileManager.default.fileExists(atPath: swiftmodule) { return nil }
        var dumps: [Data] = []
        for number in 0..<count {
            guard let data = FileManager.default.contents(atPath: folder + "/\(number).json") else { return nil }
            dumps.append(data)
        }
        return (dumps, needsModule ? swiftmodule : nil)
    }

    /// Keeps the dumps in `dumps` (`N.json`, moved) and the emitted module, if any; drops the
    /// module's older entries but the newest one.
    func store(module: String, key: String, dumps: URL, count: Int, swiftmodule: String?) {
        let files = FileManager.default
        let folder = entry(module, key)
        let partial = folder + ".partial-\(UUID().uuidString)"
        do {
            try files.createDirectory(atPath: partial, withIntermediateDirectories: true)
            for number in 0..<count {
                try files.moveItem(atPath: dumps.appendingPathComponent("\(number).json").path, toPath: partial + "/\(number).json")
            }
            if let swiftmodule { try files.copyItem(atPath: swiftmodule, toPath: partial + "/module.swiftmodule") }
            try? files.removeItem(atPath: folder)
            try files.moveItem(atPath: partial, toPath: folder)
        } catch {
            try? files.removeItem(atPath: partial)
            return
        }
        let entries = ((try? files.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasPrefix(module + "-") }
        let older = entries
            .filter { $0 != (folder as NSString).lastPathComponent && !$0.contains(".partial-") }
            .map { directory + "/" + $0 }
            .sorted { modified($0) > modified($1) }
        for stale in older.dropFirst() { try? files.removeItem(atPath: stale) }
        // What a killed run left half written.
        for partial in entries.filter({ $0.contains(".partial-") }).map({ directory + "/" + $0 })
        where modified(partial) < Date().addingTimeInterval(-600) {
            try? files.removeItem(atPath: partial)
        }
    }

    private func modified(_ path: String) -> Date {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date ?? .distantPast
    }
}

/// Two 64-bit hashes with different multipliers (FNV-1a's, and the golden ratio's with a
/// rotation): a 128-bit key, enough that two different inputs never meet in practice.
struct Hash128 {
    private var first: UInt64 = 0xcbf2_9ce4_8422_2325
    private var second: UInt64 = 0x6c62_272e_07bb_0142

    mutating func add(_ text: String) {
        var (first, second) = (self.first, self.second)
        for byte in text.utf8 {
            first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            second = ((second ^ UInt64(byte)) &* 0x9e37_79b9_7f4a_7c15)
            second = (second << 23) | (second >> 41)
        }
        (self.first, self.second) = (first, second)
    }

    var hex: String {
        [first, second].map { value in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}
