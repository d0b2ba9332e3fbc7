import Foundation
import SwiftParser
import SwiftSyntax
import Testing

/// The rules that keep the tool easy to change: no function over 60 lines, and every action
/// named in Tools/README.md's list of actions.
@Suite struct HouseRulesTests {
    static let tools = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let longest = 60

    /// Every Swift file under Tools/Sources, parsed.
    static func sources() throws -> [(path: String, tree: SourceFileSyntax, lines: SourceLocationConverter)] {
        let root = tools.appendingPathComponent("Sources")
        let paths = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        return try paths.sorted().map { path in
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let tree = Parser.parse(source: text)
            return (path, tree, SourceLocationConverter(fileName: path, tree: tree))
        }
    }

    /// Functions, initializers, subscripts and accessors with a body, from their first token
    /// (attributes included, doc comment not) to their closing brace.
    final class Bodies: SyntaxVisitor {
        var found: [(name: String, line: Int, length: Int)] = []
        let lines: SourceLocationConverter
        init(_ lines: SourceLocationConverter) {
            self.lines = lines
            super.init(viewMode: .sourceAccurate)
        }
        func record(_ node: some SyntaxProtocol, _ name: String, hasBody: Bool) {
            guard hasBody else { return }
            let first = lines.location(for: node.positionAfterSkippingLeadingTrivia).line
            let last = lines.location(for: node.endPositionBeforeTrailingTrivia).line
            found.append((name, first, last - first + 1))
        }
        override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
            record(node, "func \(node.name.text)", hasBody: node.body != nil)
            return .visitChildren
        }
        override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
            record(node, "init", hasBody: node.body != nil)
            return .visitChildren
        }
        override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind {
            record(node, "subscript", hasBody: node.accessorBlock != nil)
            return .visitChildren
        }
        override func visit(_ node: AccessorDeclSyntax) -> SyntaxVisitorContinueKind {
            record(node, node.accessorSpecifier.text, hasBody: node.body != nil)
            return .visitChildren
        }
        override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
            // A computed property's getter written without `get`, from its declaration's first
            // token (`var`, or an attribute) when it is the declaration's only binding.
            if case .getter = node.accessorBlock?.accessors {
                let declaration = node.parent?.parent?.as(VariableDeclSyntax.self)
                let start: Syntax = declaration?.bindings.count == 1 ? Syntax(declaration!) : Syntax(node)
                record(start, "var \(node.pattern.trimmedDescription)", hasBody: true)
            }
            return .visitChildren
        }
    }

    /// An action: a type whose inheritance clause (or an extension's) names `MigrationAction`;
    /// by its own name and qualified with the types it is nested in (`ConvertBody.PairAction`).
    struct Action {
        let name: String
        let qualified: String
    }

    /// The types and extensions that declare a conformance to `MigrationAction` (not the
    /// protocol itself, nor its own extension, nor a protocol that refines it).
    final class Conformers: SyntaxAnyVisitor {
        var found: [Action] = []
        init() {
            super.init(viewMode: .sourceAccurate)
        }
        /// Records a type or extension whose inheritance clause names `MigrationAction`.
        override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
            guard let group = node.asProtocol(DeclGroupSyntax.self), !node.is(ProtocolDeclSyntax.self),
                  let name = node.asProtocol(NamedDeclSyntax.self)?.name.text ?? node.as(ExtensionDeclSyntax.self)?.extendedType.trimmedDescription
            else { return .visitChildren }
            let conforms = group.inheritanceClause?.inheritedTypes.contains { inherited in
                inherited.type.tokens(viewMode: .sourceAccurate).contains { $0.text == "MigrationAction" }
            } ?? false
            if conforms {
                found.append(Action(name: name.split(separator: ".").last.map(String.init) ?? name, qualified: qualified(name, in: node)))
            }
            return .visitChildren
        }
        /// `name` after the names of the types and extensions around `node`.
        func qualified(_ name: String, in node: Syntax) -> String {
            var parts = [name]
            var parent = node.parent
            while let current = parent {
                if current.asProtocol(DeclGroupSyntax.self) != nil, let type = current.asProtocol(NamedDeclSyntax.self) {
                    parts.insert(type.name.text, at: 0)
                } else if let group = current.as(ExtensionDeclSyntax.self) {
                    parts.insert(group.extendedType.trimmedDescription, at: 0)
                }
                parent = current.parent
            }
            return parts.joined(separator: ".")
        }
    }

    @Test("No function of the tool is over 60 lines")
    func functionsAreShort() throws {
        var long: [String] = []
        for source in try Self.sources() {
            let bodies = Bodies(source.lines)
            bodies.walk(source.tree)
            long += bodies.found.filter { $0.length > Self.longest }.map { "\(source.path):\($0.line): \($0.name), \($0.length) lines" }
        }
        #expect(long.isEmpty, "split these into steps of their own:\n\(long.joined(separator: "\n"))")
    }

    @Test("Every action is listed in Tools/README.md, and every action listed exists")
    func actionsAreListed() throws {
        var actions: [Action] = []
        for source in try Self.sources() {
            let conformers = Conformers()
            conformers.walk(source.tree)
            actions += conformers.found
        }
        #expect(!actions.isEmpty)
        let readme = try String(contentsOf: Self.tools.appendingPathComponent("README.md"), encoding: .utf8)
        guard let section = readme.range(of: "\n## Actions\n") else {
            Issue.record("Tools/README.md has no \"## Actions\" section")
            return
        }
        let rest = readme[section.upperBound...]
        let list = String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
        let listed = Set(list.matches(of: /^\| `([A-Za-z.]+)`/.anchorsMatchLineEndings()).map { String($0.1) })
        let missing = actions.filter { !listed.contains($0.qualified) && !listed.contains($0.name) }.map(\.qualified)
        let names = Set(actions.flatMap { [$0.qualified, $0.name] })
        #expect(missing.sorted() == [], "actions missing from Tools/README.md's \"Actions\" table")
        #expect(listed.subtracting(names).sorted() == [], "rows of Tools/README.md's \"Actions\" table that are no action")
    }
}
