// Recognising Tomorrowland's promise types in written Swift.

import Foundation
import SwiftSyntax

/// A promise type as written in a declaration: `Promise<User, Error>`, `StdPromise<Data>`,
/// `Tomorrowland.TokenPromise<Int, NoError>`.
public struct PromiseType: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        case promise = "Promise"
        case stdPromise = "StdPromise"
        case tokenPromise = "TokenPromise"
    }

    public let kind: Kind
    /// The value type, as written.
    public let value: String
    /// The error type, as written (`Swift.Error` for `StdPromise`).
    public let error: String
    /// The whole type, as written.
    public let spelled: String

    /// Recognises `type`, or nil if it is not a promise type.
    public init?(_ type: TypeSyntax) {
        let name: String
        var arguments: GenericArgumentClauseSyntax?
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            name = identifier.name.text
            arguments = identifier.genericArgumentClause
        } else if let member = type.as(MemberTypeSyntax.self), member.baseType.trimmedDescription == "Tomorrowland" {
            name = member.name.text
            arguments = member.genericArgumentClause
        } else {
            return nil
        }
        let written = arguments?.arguments.map { $0.argument.trimmedDescription } ?? []
        switch (name, written.count) {
        case ("Promise", 2): self.kind = .promise
        case ("TokenPromise", 2): self.kind = .tokenPromise
        case ("StdPromise", 1): self.kind = .stdPromise
        default: return nil
        }
        self.value = written[0]
        self.error = written.count == 2 ? written[1] : "Swift.Error"
        self.spelled = type.trimmedDescription
    }

    /// Recognises `type`, also when it names a typealias of a promise type (`UserPromise` for
    /// `typealias UserPromise = StdPromise<User>`), generic ones included (`HubPromise<Device>`
    /// for `typealias HubPromise<T> = Promise<T, HubError>`: the alias's parameters are replaced
    /// by the arguments written): then `spelled` is the alias as written.
    init?(_ type: TypeSyntax, aliases: [String: PromiseType]) {
        if let identifier = type.as(IdentifierTypeSyntax.self), let aliased = aliases[identifier.name.text] {
            let arguments = identifier.genericArgumentClause?.arguments.map { $0.argument.trimmedDescription } ?? []
            guard arguments.count == aliased.aliasParameters.count else { return nil }
            let value = Self.substituting(aliased.aliasParameters, with: arguments, in: aliased.value)
            let error = Self.substituting(aliased.aliasParameters, with: arguments, in: aliased.error)
            self.init(kind: aliased.kind, value: value, error: error, spelled: type.trimmedDescription)
            return
        }
        self.init(type)
    }

    /// For an entry of an alias table: the generic parameters of the alias (`T` of
    /// `typealias HubPromise<T> = …`), which `value` and `error` may name; empty otherwise.
    private(set) var aliasParameters: [String] = []

    /// `text` with every identifier that is one of `parameters` replaced by the argument at the
    /// same place (`Page<T>` with T → `Device`: `Page<Device>`).
    static func substituting(_ parameters: [String], with arguments: [String], in text: String) -> String {
        guard !parameters.isEmpty else { return text }
        return replacingIdentifiers(in: text) { word, _ in parameters.firstIndex(of: word).map { arguments[$0] } ?? word }
    }

    /// `text` with each identifier (a run of letters, digits and `_`) replaced by what `replace`
    /// returns for it, given the text written so far; everything else kept as it is.
    static func replacingIdentifiers(in text: String, _ replace: (_ word: String, _ before: String) -> String) -> String {
        var result = ""
        var word = ""
        func flush() {
            if !word.isEmpty { result += replace(word, result) }
            word = ""
        }
        for character in text {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }

    /// A promise type the compiler found: `compiled` as the demangler spells it
    /// (`Promise<Int, StoreError>`), `written` as the declaration does (`Loading<Int>`).
    /// The demangler names generic parameters by depth and index (`A`, `B` at depth 0, `A1`
    /// at depth 1): `generics` names them (`[["Request", "Response"], ["T"]]`); nil when one
    /// is left that `generics` does not name.
    init?(compiled: String, mangled: String, written: String, generics: [[String]] = []) {
        guard let open = compiled.firstIndex(of: "<"), compiled.hasSuffix(">") else { return nil }
        var arguments: [String] = []
        var depth = 0
        var current = ""
        for character in compiled[compiled.index(after: open)..<compiled.index(before: compiled.endIndex)] {
            if "<[(".contains(character) { depth += 1 }
            if ">])".contains(character) { depth -= 1 }
            if character == ",", depth == 0 {
                arguments.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
        }
        arguments.append(current.trimmingCharacters(in: .whitespaces))
        // `A`…`Z` (depth 0) and `A1`… (depth 1 on): the parameter at that depth and index.
        func placeholder(_ word: Substring) -> (depth: Int, index: Int)? {
            guard let first = word.first, first.isUppercase, first.isASCII, word.dropFirst().allSatisfy(\.isNumber) else { return nil }
            let index = Int(first.asciiValue! - Character("A").asciiValue!)
            return (word.count == 1 ? 0 : Int(word.dropFirst())!, index)
        }
        var unnamed = false
        arguments = arguments.map(Self.droppingProtocols).map { argument in
            Self.replacingIdentifiers(in: argument) { word, before in
                // (A member after a dot, `A.Element`, is a name, not a placeholder.)
                guard let (depth, index) = placeholder(Substring(word)), before.last != "." else { return word }
                guard depth < generics.count, index < generics[depth].count else {
                    unnamed = true
                    return word
                }
                return generics[depth][index]
            }
        }
        guard arguments.count == 2, !unnamed else { return nil }
        // The demangler writes `[Key : Value]`; source, `[Key: Value]`.
        arguments = arguments.map { $0.replacingOccurrences(of: " : ", with: ": ") }
        let kind: Kind = mangled.hasPrefix(CompilerFacts.mangledTokenPromisePrefix) ? .tokenPromise : .promise
        self.init(kind: kind, value: arguments[0], error: arguments[1], spelled: written)
    }

    /// The demangler writes an associated type of a generic parameter with its protocol
    /// (`A.Source.Item`, `A.Src.Item.Sequence.Element`: each step a protocol and a member);
    /// source writes the members only (`A.Item`, `A.Item.Element`).
    static func droppingProtocols(_ text: String) -> String {
        let pattern = #"(?<![A-Za-z0-9_.])([A-Z][0-9]*)((?:\.[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*)+)"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
        var result = text
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let whole = Range(match.range, in: text), let base = Range(match.range(at: 1), in: text),
                  let path = Range(match.range(at: 2), in: text) else { continue }
            let steps = text[path].split(separator: ".")
            let members = steps.indices.filter { $0 % 2 == 1 }.map { steps[$0] }
            result.replaceSubrange(
                Range(match.range, in: result) ?? whole, with: text[base] + members.map { "." + $0 }.joined()
            )
        }
        return result
    }

    private init(kind: Kind, value: String, error: String, spelled: String) {
        self.kind = kind
        self.value = value
        self.error = error
        self.spelled = spelled
    }

    /// Every `typealias Name = <promise type>` in `files`, by name: generic ones
    /// (`typealias HubPromise<T> = Promise<T, HubError>`, with their parameters) and aliases of
    /// such aliases (`typealias DevicePromise = HubPromise<Device>`) included.
    static func aliases(in files: [SourceFileSyntax]) -> [String: PromiseType] {
        final class Collector: SyntaxVisitor {
            var declarations: [TypeAliasDeclSyntax] = []
            override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
                declarations.append(node)
                return .skipChildren
            }
        }
        let collector = Collector(viewMode: .sourceAccurate)
        for file in files { collector.walk(file) }
        var found: [String: PromiseType] = [:]
        // Aliases of aliases resolve in as many rounds as the longest chain (bounded by the count).
        for _ in 0..<max(1, collector.declarations.count) {
            var grew = false
            for node in collector.declarations where found[node.name.text] == nil {
                guard var promise = PromiseType(node.initializer.value, aliases: found) else { continue }
                promise.aliasParameters = node.genericParameterClause?.parameters.map(\.name.text) ?? []
                found[node.name.text] = promise
                grew = true
            }
            if !grew { break }
        }
        return found
    }

    /// The type without aliases or `StdPromise` (`Promise<User, Swift.Error>`), for comparing.
    var canonical: String {
        let base = kind == .tokenPromise ? "TokenPromise" : "Promise"
        return "\(base)<\(value), \(hasUntypedError ? "Swift.Error" : hasNoError ? "NoError" : error)>"
    }

    /// The spellings of the untyped error.
    static let untypedErrorNames: Set<String> = ["Error", "Swift.Error", "any Error", "any Swift.Error"]

    /// `Swift.Error`, `Error` and `any Error`: the untyped error.
    public var hasUntypedError: Bool { Self.untypedErrorNames.contains(error) }

    /// `NoError`: `value` then throws only `CancellationError`.
    public var hasNoError: Bool { error == "NoError" || error == "Tomorrowland.NoError" }
}

/// The names Tomorrowland's promise operators are called by, and how each is told from another
/// type's method of the same name: all from `OperatorFacts`, generated from the library's
/// operator tables (Generator/Sources/CallbackAPI). `map`, `flatMap`, `mapError`, … count only
/// with an `on:` argument (collections, `Result` and other types have the same names); `when`
/// only as `when(fulfilled:…)` / `when(first:…)`.
enum PromiseOperators {
    static let always: Set<String> = OperatorFacts.byName
    static let withContextArgument: Set<String> = OperatorFacts.withContextArgument

    /// The operator `call` invokes, or nil when it is not (recognisably) a promise operator.
    static func name(of call: FunctionCallExprSyntax) -> String? {
        let firstLabel = call.arguments.first?.label?.text
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text.replacingOccurrences(of: "`", with: "")
            if always.contains(name) { return name }
            if withContextArgument.contains(name), firstLabel == "on" { return name }
            if let labels = OperatorFacts.freeFunctions[name], let firstLabel, labels.contains(firstLabel) { return name }
            return nil
        }
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self),
           let labels = OperatorFacts.freeFunctions[reference.baseName.text], let firstLabel, labels.contains(firstLabel) {
            return reference.baseName.text
        }
        return nil
    }
}
