// What every command needs to know about the whole set of files at once.

import SwiftSyntax

/// The scanned files plus the project-wide facts the rewriters check against.
struct Project {
    let set: SourceSet
    let scans: [FileScan]
    /// Types declared (or extended) as `Error`s in the scanned files, plus the well-known ones.
    let errorTypes: Set<String>
    /// Names a call site cannot always spell: generic parameters, associated types and types
    /// nested in other types.
    let unspellableNames: Set<String>
    /// Actors declared in the scanned files.
    let actors: Set<String>

    init(_ set: SourceSet) {
        self.set = set
        var scans: [FileScan] = []
        var scope = 1
        for file in set.files {
            let scanner = Scanner(file: file, firstScope: scope)
            scanner.walk(file.tree)
            scope = scanner.scopeEnd
            scans.append(scanner.scan)
        }
        self.scans = scans
        let collector = TypeFactsCollector(viewMode: .sourceAccurate)
        for file in set.files { collector.walk(file.tree) }
        self.errorTypes = collector.errorTypes.union([
            "Error", "Swift.Error", "any Error", "any Swift.Error", "NoError", "Tomorrowland.NoError",
            "CancellationError", "URLError", "CocoaError", "POSIXError", "DecodingError", "EncodingError", "NSError",
        ])
        self.unspellableNames = collector.unspellable.union(["Self"])
        self.actors = collector.actors
    }

    var functions: [FunctionRecord] { scans.flatMap(\.functions) }

    /// Whether `type` (written inside `function`) can be written at any call site.
    func isSpellableAnywhere(_ type: String) -> Bool {
        identifiers(in: type).allSatisfy { !unspellableNames.contains($0) }
    }

    /// The identifiers of a type as written: `Promise<[User], Error>` → Promise, User, Error.
    func identifiers(in type: String) -> [String] {
        var result: [String] = []
        var current = ""
        for character in type {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else {
                if !current.isEmpty { result.append(current) }
                current = ""
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}

/// Collects error types and names that are not visible everywhere.
private final class TypeFactsCollector: TypeTrackingVisitor {
    var errorTypes = Set<String>()
    var unspellable = Set<String>()
    var actors = Set<String>()
    private var bodies = 0

    private static let errorProtocols: Set<String> = ["Error", "Swift.Error", "LocalizedError", "CustomNSError"]

    private func noteGenerics(_ clause: GenericParameterClauseSyntax?) {
        for parameter in clause?.parameters ?? [] { unspellable.insert(parameter.name.text) }
    }

    override func enter(_ type: TypeScope) {
        let isError = type.inheritance?.inheritedTypes.contains { Self.errorProtocols.contains($0.type.trimmedDescription) } == true
        if isError { errorTypes.insert(type.name) }
        // A type declared inside another type or a function body is not visible everywhere.
        if !type.isExtension && (!types.isEmpty || bodies > 0) { unspellable.insert(type.name) }
        noteGenerics(type.genericParameters)
        if type.isActor { actors.insert(type.name) }
    }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        if !types.isEmpty || bodies > 0 { unspellable.insert(node.name.text) }
        return .visitChildren
    }
    override func visit(_ node: AssociatedTypeDeclSyntax) -> SyntaxVisitorContinueKind {
        unspellable.insert(node.name.text)
        return .visitChildren
    }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        noteGenerics(node.genericParameterClause)
        return .visitChildren
    }
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind {
        bodies += 1
        return .visitChildren
    }
    override func visitPost(_ node: CodeBlockSyntax) { bodies -= 1 }
}
