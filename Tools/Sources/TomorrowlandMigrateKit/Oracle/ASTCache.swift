// What the `-dump-ast` outputs of modules that type-checked without an error said, kept in the
// package's build folder by the content they were made from: a command run after another's
// write, or a second run, finds the facts the previous run's proof read from the same text, and
// neither runs the compiler again nor parses its dump.

import Foundation

/// Facts by key, in `<package>/.build/tomorrowland-migrate/asts/<module>-<key>/`: one
/// `N.facts` per source (in the module's source order; `CompilerFacts.File.encoded`), and
/// `module.swiftmodule` when the module was emitted for the modules that import it. At most two
/// entries per module are kept.
struct ASTCache {
    let directory: String

    /// What a module's facts depend on: how they are read (the format's header), the compiler
    /// (the file the path leads to), the module's arguments, each source's path (as the package
    /// has it) and text, and each module it imports, directly or through others (`imports`):
    /// its key when this run type-checks it too, else the size and date of its built
    /// `.swiftmodule`.
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
        hash.add(CompilerFacts.File.encodingHeader + "\0" + compiler + "\0" + date(compiler) + "\0" + module.name)
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

    /// The facts of `count` sources and the emitted module (when `needsModule`), if kept.
    func load(module: String, key: String, count: Int, needsModule: Bool) -> (files: [CompilerFacts.File], swiftmodule: String?)? {
        let folder = entry(module, key)
        let swiftmodule = folder + "/module.swiftmodule"
        if needsModule, !FileManager.default.fileExists(atPath: swiftmodule) { return nil }
        var files: [CompilerFacts.File] = []
        for number in 0..<count {
            guard let text = try? String(contentsOfFile: folder + "/\(number).facts", encoding: .utf8),
                  let file = CompilerFacts.File(encoded: text) else { return nil }
            files.append(file)
        }
        return (files, needsModule ? swiftmodule : nil)
    }

    /// Keeps the facts of a module's sources (in its source order) and the emitted module, if
    /// any; drops the module's older entries but the newest one.
    func store(module: String, key: String, files facts: [CompilerFacts.File], swiftmodule: String?) {
        let files = FileManager.default
        let folder = entry(module, key)
        let partial = folder + ".partial-\(UUID().uuidString)"
        do {
            try files.createDirectory(atPath: partial, withIntermediateDirectories: true)
            for (number, file) in facts.enumerated() {
                try file.encoded.write(toFile: partial + "/\(number).facts", atomically: false, encoding: .utf8)
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

/// A file's facts as the cache keeps them: what `CompilerFacts.add(astJSON:path:)` read from a
/// dump, in lines of tab-separated fields, so that a command finding its predecessor's entry
/// reads a few kilobytes instead of parsing the dump again (megabytes of JSON: most of the
/// tool's own time went to that parse).
///
///     d <usr> <kind> <name> <offset> <end> <result type> <conformance>…   a declaration
///     r <end> <usr>…                                                      the references ending there
///     c <offset> <last token> <callee> <callee offset> <type> <receiver>  a call
///
/// An optional field is `?` when absent and `=` before its value; `\`, tab, newline and carriage
/// return are escaped as `\\`, `\t`, `\n` and `\r` (bytes, not characters: a field's text comes
/// back exactly). The first line names the format, the last one (`end <records>`) says the
/// file is whole. The header is part of every entry's key (`ASTCache.key`): change it when
/// `CompilerFacts.add(astJSON:path:)` reads something differently, and older entries are misses.
extension CompilerFacts.File {
    static let encodingHeader = "tomorrowland-migrate facts 2"

    var encoded: String {
        var lines = [Self.encodingHeader]
        for declaration in declarations {
            lines.append((["d", declaration.usr, declaration.kind, declaration.name, String(declaration.offset), String(declaration.end),
                           Self.encode(declaration.resultType)] + declaration.conformances.sorted()).map(Self.escape).joined(separator: "\t"))
        }
        for (end, usrs) in references.sorted(by: { $0.key < $1.key }) {
            lines.append((["r", String(end)] + usrs.sorted()).map(Self.escape).joined(separator: "\t"))
        }
        for call in calls {
            lines.append(["c", String(call.offset), String(call.lastTokenOffset), Self.encode(call.callee),
                          Self.encode(call.calleeOffset.map(String.init)), call.type, Self.encode(call.receiverType)]
                .map(Self.escape).joined(separator: "\t"))
        }
        lines.append("end \(lines.count - 1)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The facts `encoded` wrote; nil for anything else (another format, a file cut short).
    init?(encoded text: String) {
        var lines = Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // The header, the records, `end <records>`, and the empty rest after the last newline.
        guard lines.count >= 3, lines.removeLast().isEmpty else { return nil }
        let header = String(decoding: lines.removeFirst(), as: UTF8.self)
        let trailer = String(decoding: lines.removeLast(), as: UTF8.self)
        guard header == Self.encodingHeader, trailer == "end \(lines.count)" else { return nil }
        self.init()
        for line in lines {
            var fields: [String] = []
            for field in line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false) {
                guard let text = Self.unescape(field) else { return nil }
                fields.append(text)
            }
            switch fields.first {
            case "d" where fields.count >= 7:
                guard let offset = Int(fields[4]), let end = Int(fields[5]), let result = Self.decode(fields[6]) else { return nil }
                declarations.append(CompilerFacts.Declaration(
                    usr: fields[1], kind: fields[2], name: fields[3], offset: offset, end: end, resultType: result,
                    conformances: Set(fields.dropFirst(7))
                ))
            case "r" where fields.count >= 2:
                guard let end = Int(fields[1]) else { return nil }
                references[end] = Set(fields.dropFirst(2))
            case "c" where fields.count == 7:
                guard let offset = Int(fields[1]), let last = Int(fields[2]), let callee = Self.decode(fields[3]),
                      let calleeOffset = Self.decode(fields[4]), let receiver = Self.decode(fields[6]) else { return nil }
                if let calleeOffset, Int(calleeOffset) == nil { return nil }
                calls.append(CompilerFacts.Call(
                    offset: offset, lastTokenOffset: last, callee: callee, calleeOffset: calleeOffset.flatMap { Int($0) },
                    type: fields[5], receiverType: receiver
                ))
            default:
                return nil
            }
        }
        index()
    }

    private static func encode(_ value: String?) -> String {
        value.map { "=" + $0 } ?? "?"
    }

    /// `.some(nil)` for `?`, `.some(value)` for `=value`, nil for anything else.
    private static func decode(_ field: String) -> String?? {
        if field == "?" { return .some(nil) }
        return field.hasPrefix("=") ? .some(String(field.dropFirst())) : nil
    }

    /// The bytes `escape` writes as `\` and a letter, with their letters.
    private static let escapes: [UInt8: UInt8] = [
        UInt8(ascii: "\\"): UInt8(ascii: "\\"), UInt8(ascii: "\t"): UInt8(ascii: "t"),
        UInt8(ascii: "\n"): UInt8(ascii: "n"), UInt8(ascii: "\r"): UInt8(ascii: "r"),
    ]
    /// `escapes` the other way: letter to byte.
    private static let unescapes = Dictionary(uniqueKeysWithValues: escapes.map { ($0.value, $0.key) })

    private static func escape(_ field: String) -> String {
        guard field.utf8.contains(where: { escapes[$0] != nil }) else { return field }
        var bytes: [UInt8] = []
        for byte in field.utf8 {
            if let letter = escapes[byte] { bytes += [UInt8(ascii: "\\"), letter] } else { bytes.append(byte) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// nil for an escape `escape` does not write (a lone `\` at the end, `\x`).
    private static func unescape(_ field: ArraySlice<UInt8>) -> String? {
        guard field.contains(UInt8(ascii: "\\")) else { return String(decoding: field, as: UTF8.self) }
        var bytes: [UInt8] = []
        var escaped = false
        for byte in field {
            if escaped {
                guard let original = unescapes[byte] else { return nil }
                bytes.append(original)
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else {
                bytes.append(byte)
            }
        }
        return escaped ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
