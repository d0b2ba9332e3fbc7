// Finding, reading and parsing the `.swift` files a command works on.

import Foundation
import SwiftParser
import SwiftSyntax

/// One parsed `.swift` file.
public struct ParsedFile: Sendable {
    /// The path as given on the command line or found under a given folder.
    public let path: String
    /// The top-level folder the report groups this file under (see `SourceSet.load`).
    public let folder: String
    public let text: String
    public let tree: SourceFileSyntax
    let converter: SourceLocationConverter
    /// The typealiases of promise types declared in the set this file belongs to.
    var promiseAliases: [String: PromiseType] = [:]
    /// Promise types the compiler found where the syntax did not (a generic typealias, an
    /// alias from another module), by the last-token offset of the function returning them.
    var compiledPromises: [Int: PromiseType] = [:]
    /// Promise types the compiler found that the tool cannot spell (its generic parameters
    /// could not be named), as the compiler spells them, by the same offset.
    var unspelledPromises: [Int: String] = [:]

    /// The promise type `decl` returns: as written, or as the compiler found it.
    func promise(returnedBy decl: FunctionDeclSyntax) -> PromiseType? {
        decl.signature.returnClause.flatMap { PromiseType($0.type, aliases: promiseAliases) } ?? compiledPromises[decl.endOffset]
    }

    init(path: String, folder: String, text: String) {
        self.path = path
        self.folder = folder
        self.text = text
        self.tree = Parser.parse(source: text)
        self.converter = SourceLocationConverter(fileName: path, tree: tree)
    }

    /// The module the file belongs to, by SwiftPM's layout: its path up to the folder right
    /// below the nearest `Sources`, `Source`, `src`, `srcs`, `Tests` or `Plugins` folder
    /// (`App/Sources/Feature` for `App/Sources/Feature/Sub/A.swift`); "" when its path has none
    /// (files given alone, sets in memory: one module). Declarations of the same name in two
    /// modules are two declarations.
    var module: String {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard components.count > 2,
              let index = components.dropLast(2).lastIndex(where: { ["Sources", "Source", "src", "srcs", "Tests", "Plugins"].contains($0) })
        else { return "" }
        return components[...(index + 1)].joined(separator: "/")
    }

    /// The 1-based line of `node`'s first token.
    func line(of node: some SyntaxProtocol) -> Int {
        converter.location(for: node.positionAfterSkippingLeadingTrivia).line
    }
}

/// A problem with one input path. The command prints it, goes on with the other files and
/// exits non-zero at the end.
public struct InputProblem: Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let message: String
    public var description: String { "\(path): error: \(message)" }
}

/// The `.swift` files under the paths a command was given.
public struct SourceSet: Sendable {
    public private(set) var files: [ParsedFile]
    /// Paths that could not be read and files that do not parse: those files are left out.
    public let problems: [InputProblem]
    /// The paths the set was loaded from (empty for a set built in memory).
    public private(set) var roots: [String] = []
    /// Files found under `roots` but left out of `files`: no target compiles them (UncompiledFiles.swift).
    public private(set) var uncompiled: [String] = []

    /// Reads every `.swift` file under `paths` (files are taken as they are; folders are
    /// walked recursively, skipping hidden entries such as `.build`). A file's folder, for
    /// the per-folder report, is the argument plus the first path component below it
    /// (`Sources/Feature` for `Sources/Feature/Sub/A.swift` found under `Sources`), the
    /// argument itself for files directly in it, and the parent folder of a file argument.
    ///
    /// A file reached through a symbolic link (a file two targets share) is read once, under
    /// its own path when that was found too, else under the link's: its changes are written to
    /// the file the link points to, and the link stays a link (`MigrationResult.write()`).
    public static func load(paths: [String]) -> SourceSet {
        var files: [ParsedFile] = []
        var problems: [InputProblem] = []
        // Each argument's files and the problems finding them, in the order given.
        let arguments = paths.map { argument in
            var found: [InputProblem] = []
            let files = swiftFiles(under: argument, problems: &found)
            return (files: files, problems: found)
        }
        // One entry per file: by the path with every link resolved; a path that is not itself a
        // link wins over the links to it.
        var chosen: [String: (path: String, folder: String)] = [:]
        for entry in arguments.flatMap(\.files) {
            let key = CompilerFacts.key(entry.path)
            if let kept = chosen[key], !isSymbolicLink(kept.path) || isSymbolicLink(entry.path) { continue }
            chosen[key] = entry
        }
        var seen = Set<String>()
        for argument in arguments {
            problems += argument.problems
            for candidate in argument.files {
                let key = CompilerFacts.key(candidate.path)
                guard let entry = chosen[key], entry.path == candidate.path, seen.insert(key).inserted else { continue }
                guard let data = FileManager.default.contents(atPath: entry.path) else {
                    problems.append(InputProblem(path: entry.path, message: "cannot read the file"))
                    continue
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    problems.append(InputProblem(path: entry.path, message: "not UTF-8 text"))
                    continue
                }
                let file = ParsedFile(path: entry.path, folder: entry.folder, text: text)
                if let syntaxError = firstSyntaxError(in: file) {
                    problems.append(InputProblem(path: entry.path, message: "does not parse: \(syntaxError); file skipped"))
                    continue
                }
                files.append(file)
            }
        }
        var set = SourceSet(files: withAliases(files), problems: problems)
        set.roots = paths
        return set
    }

    /// The set with the promise types the compiler found where the syntax did not.
    /// (The compiler spells a generic parameter by its depth and index, `A`, `B` for the
    /// outermost generic context's, `A1` for the next one's: they are named from the
    /// declarations around the function.)
    func recognizing(_ facts: CompilerFacts) -> SourceSet {
        var copy = self
        let generics = GenericContexts(files.map(\.tree))
        copy.files = files.map { file in
            var file = file
            for site in FunctionSite.all(in: file) {
                guard site.promise == nil, let returnType = site.decl.signature.returnClause?.type,
                      let declaration = facts.file(file.path)?.function(endingAt: site.decl.endOffset),
                      let mangled = declaration.resultType, let spelled = facts.spelledTypes[mangled] else { continue }
                let names = generics.parameters(around: site.decl)
                if let promise = PromiseType(compiled: spelled, mangled: mangled, written: returnType.trimmedDescription, generics: names) {
                    file.compiledPromises[site.decl.endOffset] = promise
                } else if CompilerFacts.isPromise(mangled: mangled) {
                    file.unspelledPromises[site.decl.endOffset] = spelled
                }
            }
            return file
        }
        return copy
    }

    /// The set of the files some module compiles (`uncompiled` naming the others), and the others.
    func partitioned(_ compiled: CompiledFiles) -> (kept: SourceSet, leftOut: [ParsedFile]) {
        var kept = self
        kept.files = files.filter { compiled.compiles($0.path) }
        let leftOut = files.filter { !compiled.compiles($0.path) }
        kept.uncompiled += leftOut.map(\.path)
        return (kept, leftOut)
    }

    /// Whether the last component of `path` is a symbolic link.
    static func isSymbolicLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }

    /// Builds a set from sources in memory (tests).
    public static func inMemory(_ sources: [(path: String, text: String)]) -> SourceSet {
        SourceSet(files: withAliases(sources.map { ParsedFile(path: $0.path, folder: ".", text: $0.text) }), problems: [])
    }

    /// `files`, each knowing the promise typealiases declared in any of them.
    private static func withAliases(_ files: [ParsedFile]) -> [ParsedFile] {
        let aliases = PromiseType.aliases(in: files.map(\.tree))
        return files.map { file in
            var file = file
            file.promiseAliases = aliases
            return file
        }
    }

    private static func swiftFiles(under argument: String, problems: inout [InputProblem]) -> [(path: String, folder: String)] {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: argument, isDirectory: &isDirectory) else {
            problems.append(InputProblem(path: argument, message: "no such file or folder"))
            return []
        }
        guard isDirectory.boolValue else {
            guard fileManager.isReadableFile(atPath: argument) else {
                problems.append(InputProblem(path: argument, message: "cannot read the file"))
                return []
            }
            let parent = (argument as NSString).deletingLastPathComponent
            return [(argument, parent.isEmpty ? "." : parent)]
        }
        guard fileManager.isReadableFile(atPath: argument), let entries = try? fileManager.contentsOfDirectory(atPath: argument) else {
            problems.append(InputProblem(path: argument, message: "cannot read the folder"))
            return []
        }
        var result: [(path: String, folder: String)] = []
        var pending: [(relative: String, folder: String?)] = entries.sorted().map { ($0, nil) }
        while !pending.isEmpty {
            let (relative, folder) = pending.removeFirst()
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") { continue }
            let full = (argument as NSString).appendingPathComponent(relative)
            var entryIsDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: full, isDirectory: &entryIsDirectory) else { continue }
            if entryIsDirectory.boolValue {
                guard let children = try? fileManager.contentsOfDirectory(atPath: full) else {
                    problems.append(InputProblem(path: full, message: "cannot read the folder"))
                    continue
                }
                let childFolder = folder ?? name
                pending.insert(contentsOf: children.sorted().map { ((relative as NSString).appendingPathComponent($0), childFolder) }, at: 0)
            } else if name.hasSuffix(".swift") {
                if !fileManager.isReadableFile(atPath: full) {
                    problems.append(InputProblem(path: full, message: "cannot read the file"))
                    continue
                }
                result.append((full, folder.map { (argument as NSString).appendingPathComponent($0) } ?? argument))
            }
        }
        return result
    }

    /// `line:column: what` for the first syntax error, or nil when the file parses cleanly.
    static func firstSyntaxError(in file: ParsedFile) -> String? {
        guard file.tree.hasError else { return nil }
        let finder = SyntaxErrorFinder(viewMode: .all)
        finder.walk(file.tree)
        guard let position = finder.position else { return "syntax error" }
        let location = file.converter.location(for: position)
        return "\(location.line):\(location.column): \(finder.what)"
    }
}

/// Finds the first missing or unexpected piece of syntax.
private final class SyntaxErrorFinder: SyntaxVisitor {
    var position: AbsolutePosition?
    var what = ""

    override func visit(_ node: UnexpectedNodesSyntax) -> SyntaxVisitorContinueKind {
        record(node.positionAfterSkippingLeadingTrivia, "unexpected '\(node.trimmedDescription.prefix(40))'")
        return .skipChildren
    }

    override func visit(_ token: TokenSyntax) -> SyntaxVisitorContinueKind {
        if token.presence == .missing { record(token.position, "expected '\(token.text)'") }
        return .skipChildren
    }

    private func record(_ at: AbsolutePosition, _ description: String) {
        if position == nil || at < position! {
            position = at
            what = description
        }
    }
}

/// The generic parameters in scope of a declaration, by depth as the compiler numbers them:
/// each generic type around it (outermost first; a protocol's `Self`; an extension's type's
/// own), then the function's own.
struct GenericContexts {
    /// Declared types by name: their generic parameters (`["Self"]` for a protocol).
    private var declared: [String: [String]] = [:]

    init(_ trees: [SourceFileSyntax]) {
        final class Collector: SyntaxVisitor {
            var declared: [String: [String]] = [:]
            override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { add(node.name, node.genericParameterClause) }
            override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { add(node.name, node.genericParameterClause) }
            override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { add(node.name, node.genericParameterClause) }
            override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { add(node.name, node.genericParameterClause) }
            override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind {
                declared[node.name.text] = ["Self"]
                return .skipChildren
            }
            private func add(_ name: TokenSyntax, _ generics: GenericParameterClauseSyntax?) -> SyntaxVisitorContinueKind {
                declared[name.text] = generics?.parameters.map(\.name.text) ?? []
                return .visitChildren
            }
        }
        let collector = Collector(viewMode: .sourceAccurate)
        for tree in trees { collector.walk(tree) }
        declared = collector.declared
        // Tomorrowland's own generic types, extended as `extension Promise where …`.
        for name in ["Promise", "TokenPromise", "PromiseResult", "DelayedPromise"] where declared[name] == nil {
            declared[name] = ["Value", "Error"]
        }
        // The standard library's, as extended by teams (`extension Array where Element == …`).
        let standard = [
            "StdPromise": ["Value"], "Array": ["Element"], "Set": ["Element"], "Dictionary": ["Key", "Value"],
            "Optional": ["Wrapped"], "Result": ["Success", "Failure"],
        ]
        for (name, parameters) in standard where declared[name] == nil { declared[name] = parameters }
    }

    /// The parameters in scope of `decl`, one list per depth (empty lists left out).
    func parameters(around decl: FunctionDeclSyntax) -> [[String]] {
        var levels: [[String]] = []
        var current = decl.parent
        while let node = current {
            if let type = node.as(ClassDeclSyntax.self) {
                levels.insert(type.genericParameterClause?.parameters.map(\.name.text) ?? [], at: 0)
            } else if let type = node.as(StructDeclSyntax.self) {
                levels.insert(type.genericParameterClause?.parameters.map(\.name.text) ?? [], at: 0)
            } else if let type = node.as(EnumDeclSyntax.self) {
                levels.insert(type.genericParameterClause?.parameters.map(\.name.text) ?? [], at: 0)
            } else if let type = node.as(ActorDeclSyntax.self) {
                levels.insert(type.genericParameterClause?.parameters.map(\.name.text) ?? [], at: 0)
            } else if node.is(ProtocolDeclSyntax.self) {
                levels.insert(["Self"], at: 0)
            } else if let ext = node.as(ExtensionDeclSyntax.self) {
                // `extension Outer.Inner`: Outer's parameters, then Inner's.
                let path = ext.extendedType.trimmedDescription.split(separator: ".").map(String.init)
                let names = path.first == "Tomorrowland" ? Array(path.dropFirst()) : path
                levels.insert(contentsOf: names.map { declared[$0] ?? [] }, at: 0)
            }
            current = node.parent
        }
        levels.append(decl.genericParameterClause?.parameters.map(\.name.text) ?? [])
        return levels.filter { !$0.isEmpty }
    }
}
