// What matching a call against twinned functions needs: label matching, the import a twin
// needs, and the edits a plan makes (owned by the calls of one name, or by the file).

import SwiftSyntax

/// A parameter as a call sees it.
struct ParameterShape: Sendable {
    /// The argument label, nil for `_`.
    let label: String?
    let hasDefault: Bool
    /// Of function type: a trailing closure can fill it.
    let isFunction: Bool

    init(_ parameter: FunctionParameterSyntax) {
        label = parameter.argumentLabel
        hasDefault = parameter.defaultValue != nil
        isFunction = parameter.type.isFunctionType
    }
}

/// Matching the labels of a call against a declaration with default arguments.
enum CallMatching {
    /// Whether a call written with `labels` (from `Calls.labels(of:)`) can call `decl`.
    static func labels(_ labels: [String?], canCall decl: FunctionDeclSyntax) -> Bool {
        self.labels(labels, canCall: decl.signature.parameterClause.parameters.map(ParameterShape.init))
    }

    /// Whether a call written with `labels` can call a function with `parameters`: parameters
    /// with defaults may be left out; a trailing closure fills the next parameter of function type.
    static func labels(_ labels: [String?], canCall parameters: [ParameterShape]) -> Bool {
        var index = 0
        for label in labels {
            if label == Calls.trailingClosure {
                while index < parameters.count, !parameters[index].isFunction, parameters[index].hasDefault {
                    index += 1
                }
                guard index < parameters.count, parameters[index].isFunction else { return false }
            } else {
                while index < parameters.count, parameters[index].label != label, parameters[index].hasDefault {
                    index += 1
                }
                guard index < parameters.count, parameters[index].label == label else { return false }
            }
            index += 1
        }
        return parameters[index...].allSatisfy(\.hasDefault)
    }
}

extension TypeSyntax {
    /// `(A) -> B`, possibly `@escaping`, `@Sendable` or optional.
    var isFunctionType: Bool { trimmedDescription.contains("->") }
}

/// Adding `import TomorrowlandAsync` next to `import Tomorrowland`.
enum Imports {
    static func addAsyncImport(to file: ParsedFile) -> OwnedEdit? {
        var tomorrowland: ImportDeclSyntax?
        for item in file.tree.statements {
            guard let declaration = item.item.as(ImportDeclSyntax.self) else { continue }
            let module = declaration.path.trimmedDescription
            if module == "TomorrowlandAsync" { return nil }
            if module == "Tomorrowland" { tomorrowland = declaration }
        }
        guard let tomorrowland else { return nil }
        return OwnedEdit(owner: nil, edit: .insert("\nimport TomorrowlandAsync", at: tomorrowland.endPositionBeforeTrailingTrivia))
    }
}

/// An edit made for the calls of one function name (nil: for the file as a whole).
struct OwnedEdit {
    let owner: String?
    let edit: TextEdit
    /// The twins the inserted text holds: where each is in `edit.text` (UTF-8 offsets).
    var twins: [(range: Range<Int>, key: AddAsyncTwins.CandidateKey)] = []
}
