// Declarations neither command can twin, listed with the reason instead of passed over.

import SwiftSyntax

/// Subscripts and computed properties that return a promise (for `add-async-twins`) or are
/// `async` (for `add-promise-twins`): Swift cannot overload them on the result type or on
/// `async`, so they get no twin.
enum Unhandled {
    /// The notes for `file`: promise-returning ones when `asyncTwins`, async ones otherwise
    /// (those only when marked or with `all`).
    static func notes(in file: ParsedFile, asyncTwins: Bool, all: Bool = true) -> [MigrationNote] {
        let collector = Collector(file: file)
        collector.walk(file.tree)
        return collector.found.compactMap { found in
            if asyncTwins {
                guard found.promise != nil else { return nil }
                return MigrationNote(
                    path: file.path, line: found.line,
                    message: "\(found.name): no async twin: a \(found.kind) cannot be overloaded by an async one; "
                        + "await its `.value` at the call sites instead"
                )
            }
            guard found.isAsync, all || found.marked else { return nil }
            return MigrationNote(
                path: file.path, line: found.line,
                message: "\(found.name): no promise twin: a \(found.kind) cannot be overloaded by a promise-returning one; "
                    + "add a method returning `StdPromise { try await … }` by hand"
            )
        }
    }

    private struct Found {
        let name: String
        let kind: String
        let line: Int
        let promise: PromiseType?
        let isAsync: Bool
        let marked: Bool
    }

    private final class Collector: SyntaxVisitor {
        let file: ParsedFile
        var found: [Found] = []

        init(file: ParsedFile) {
            self.file = file
            super.init(viewMode: .sourceAccurate)
        }

        override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind {
            let isAsync = node.accessorBlock.map(Self.hasAsyncGetter) ?? false
            found.append(Found(
                name: "subscript" + node.parameterClause.trimmedDescription, kind: "subscript", line: file.line(of: node.subscriptKeyword),
                promise: PromiseType(node.returnClause.type, aliases: file.promiseAliases), isAsync: isAsync,
                marked: node.leadingTrivia.hasMarker
            ))
            return .skipChildren
        }

        override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
            for binding in node.bindings {
                guard let accessors = binding.accessorBlock, let type = binding.typeAnnotation?.type else { continue }
                // Stored properties with observers are not computed.
                if case .accessors(let list) = accessors.accessors,
                   list.allSatisfy({ ["willSet", "didSet"].contains($0.accessorSpecifier.text) }) { continue }
                found.append(Found(
                    name: binding.pattern.trimmedDescription, kind: "computed property", line: file.line(of: binding.pattern),
                    promise: PromiseType(type, aliases: file.promiseAliases), isAsync: Self.hasAsyncGetter(accessors),
                    marked: node.leadingTrivia.hasMarker
                ))
            }
            return .skipChildren
        }

        override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

        private static func hasAsyncGetter(_ block: AccessorBlockSyntax) -> Bool {
            guard case .accessors(let list) = block.accessors else { return false }
            return list.contains { $0.effectSpecifiers?.asyncSpecifier != nil }
        }
    }
}
