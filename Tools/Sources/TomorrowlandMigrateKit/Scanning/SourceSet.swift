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
    func recognizing(_ facts: CompilerFacts) -> SourceSet {
        var copy = self
        copy.files = files.map { file in
            var file = file
            for site in FunctionSite.all(in: file) {
                guard site.promise == nil, let returnType = site.decl.signature.returnClause?.type,
                      let declaration = facts.file(file.path)?.function(endingAt: site.decl.endOffset),
                      let mangled = declaration.resultType, let spelled = facts.spelledTypes[mangled],
                      let promise = PromiseType(compiled: spelled, mangled: mangled, written: returnType.trimmedDescription) else { continue }
                file.compiledPromises[site.decl.endOffset] = promise
            }
            return file
        }
        return copy
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
