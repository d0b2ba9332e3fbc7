// Recognising twins already written, and writing new ones.

import Foundation
import SwiftSyntax

/// A function declaration together with where it sits.
struct FunctionSite {
    let file: ParsedFile
    let decl: FunctionDeclSyntax
    /// The enclosing type or extension, nil at top level.
    let scope: TypeScope?
    let isLocal: Bool

    /// The enclosing type or extension name, nil at top level.
    var container: String? { scope?.name }
    var inProtocol: Bool { scope?.isProtocol == true }
    var name: String { decl.name.text }
    var labels: [String?] { decl.signature.parameterClause.parameters.map(\.argumentLabel) }
    var line: Int { file.line(of: decl.name) }
    var signature: String { name + "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")" }
    var isAsync: Bool { decl.signature.effectSpecifiers?.asyncSpecifier != nil }
    var promise: PromiseType? { file.promise(returnedBy: decl) }

    /// Name, labels and `async`: what a protocol requirement and its witness share.
    var witnessKey: String { signature + (isAsync ? " async" : "") }

    /// The same name and labels, in the same type (or both at top level).
    func overloads(_ other: FunctionSite) -> Bool {
        name == other.name && labels == other.labels && container == other.container
    }

    /// The same parameter types as written (spaces aside): with `overloads`, what a twin and
    /// its function share. A same-named async method of other parameter types is an overload
    /// of its own, not the twin.
    func hasParameterTypes(of other: FunctionSite) -> Bool {
        let types = { (site: FunctionSite) in
            site.decl.signature.parameterClause.parameters.map { $0.type.trimmedDescription.filter { !$0.isWhitespace } }
        }
        return types(self) == types(other)
    }

    /// Every function declaration of `file`.
    static func all(in file: ParsedFile) -> [FunctionSite] {
        let collector = FunctionSiteCollector(file: file)
        collector.walk(file.tree)
        return collector.sites
    }
}

private final class FunctionSiteCollector: TypeTrackingVisitor {
    let file: ParsedFile
    var sites: [FunctionSite] = []
    private var bodies = 0

    init(file: ParsedFile) {
        self.file = file
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind { bodies += 1; return .visitChildren }
    override func visitPost(_ node: CodeBlockSyntax) { bodies -= 1 }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        sites.append(FunctionSite(file: file, decl: node, scope: types.last, isLocal: bodies > 0))
        return .visitChildren
    }
}

extension FunctionDeclSyntax {
    /// The protocol this function is a requirement of.
    var enclosingProtocol: ProtocolDeclSyntax? {
        var current = parent
        while let node = current {
            if let protocolDecl = node.as(ProtocolDeclSyntax.self) { return protocolDecl }
            if node.is(CodeBlockSyntax.self) { return nil }
            current = node.parent
        }
        return nil
    }
}

enum Twins {
    /// The body's only statement, without `return`.
    private static func onlyExpression(_ decl: FunctionDeclSyntax) -> ExprSyntax? {
        guard let statements = decl.body?.statements, statements.count == 1, let item = statements.first?.item else { return nil }
        if let expression = item.as(ExprSyntax.self) { return expression }
        return item.as(ReturnStmtSyntax.self)?.expression
    }

    /// Strips `try`, `await`, parentheses and `x as T`, down to the call.
    private static func innerCall(_ expression: ExprSyntax) -> FunctionCallExprSyntax? {
        var current = expression
        while true {
            if let node = current.as(TryExprSyntax.self) { current = node.expression; continue }
            if let node = current.as(AwaitExprSyntax.self) { current = node.expression; continue }
            if let node = current.as(TupleExprSyntax.self), node.elements.count == 1 { current = node.elements.first!.expression; continue }
            if let node = current.as(SequenceExprSyntax.self), node.elements.count == 3,
               node.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true {
                current = node.elements.first!; continue
            }
            if let node = current.as(AsExprSyntax.self) { current = node.expression; continue }
            if let node = current.as(MemberAccessExprSyntax.self), let base = node.base,
               ["value", "inner", "resolvedResult"].contains(node.declName.baseName.text) {
                current = base; continue
            }
            return current.as(FunctionCallExprSyntax.self)
        }
    }

    /// For `func f(…) async … { try await (f(…) as P).value }`: `f`.
    static func forwardedName(ofAsyncTwin decl: FunctionDeclSyntax) -> String? {
        forwardedCall(ofAsyncTwin: decl).flatMap { Calls.calledName($0)?.0 }
    }

    /// For `func f(…) async … { try await (f(…) as P).value }`: the call `f(…)`.
    static func forwardedCall(ofAsyncTwin decl: FunctionDeclSyntax) -> FunctionCallExprSyntax? {
        guard let expression = onlyExpression(decl), expression.description.contains(".value") else { return nil }
        return innerCall(expression)
    }

    /// The async twins in `files` (by the shape of their body) and the promise-returning
    /// functions they forward to.
    static func existingAsyncTwins(in files: [ParsedFile]) -> [FunctionSite] {
        let sites = files.flatMap(FunctionSite.all(in:))
        let twins = sites.filter { $0.isAsync && forwardedName(ofAsyncTwin: $0.decl) == $0.name }
        return twins + sites.filter { site in !site.isAsync && site.promise != nil && twins.contains { $0.overloads(site) } }
    }

    /// For `func f(…) -> StdPromise<T> { StdPromise { try await f(…) } }`: `f`.
    static func forwardedName(ofPromiseTwin decl: FunctionDeclSyntax) -> String? {
        forwardedCall(ofPromiseTwin: decl).flatMap { Calls.calledName($0)?.0 }
    }

    /// For `func f(…) -> StdPromise<T> { StdPromise { try await f(…) } }`: the call `f(…)`.
    static func forwardedCall(ofPromiseTwin decl: FunctionDeclSyntax) -> FunctionCallExprSyntax? {
        guard let expression = onlyExpression(decl), let call = expression.as(FunctionCallExprSyntax.self),
              Calls.isTaskPromiseBridge(call),
              let closure = call.trailingClosure, closure.statements.count == 1,
              let inner = closure.statements.first?.item.as(ExprSyntax.self) else { return nil }
        return innerCall(inner)
    }

    /// The longest line a twin gets, indentation included (doc lines are wrapped to it).
    static let maximumLineLength = 120

    /// A twin of `site`: its attributes (each on its own line where the original has it so),
    /// modifiers (`extraModifier` after the access level), generics, parameters and `where`
    /// clause, `effectsAndResult` after the parameters and a one-line body made from the
    /// forwarding call (`self.f(…)` with `selfQualified` in a type; `body` gets the columns it
    /// may use and may break its text into lines); documented by the
    /// original's doc comment (each line through `adapt`), a blank `///` line and `note`
    /// (sentences, wrapped); indented like `site`.
    static func twin(
        of site: FunctionSite, adapt: (String) -> String = { $0 }, note: [String], effectsAndResult: String,
        selfQualified: Bool = false, extraModifier: String? = nil, droppingAttributes: Set<String> = [],
        body: (_ call: String, _ width: Int) -> String
    ) -> String {
        let decl = site.decl
        let arguments = (try? forwardedArguments(of: decl, inoutAllowed: true).get()) ?? ""
        let dropped: Set<String> = extraModifier?.contains("nonisolated") == true ? ["nonisolated"] : []
        let (attributeLines, inlinePrefix) = prefix(
            of: decl, droppingModifiers: dropped, droppingAttributes: droppingAttributes, extraModifier: extraModifier
        )
        let start = inlinePrefix + "func " + decl.name.text + (decl.genericParameterClause?.trimmedDescription ?? "")
        var end = effectsAndResult.isEmpty ? "" : " " + effectsAndResult
        if let whereClause = decl.genericWhereClause { end += " " + whereClause.trimmedDescription }
        end += " {"
        let indent = indentation(of: decl, in: site.file)
        let width = maximumLineLength - indent.count
        var header = [start + decl.signature.parameterClause.trimmedDescription + end]
        let parameters = decl.signature.parameterClause.parameters.map { $0.with(\.trailingComma, nil).trimmedDescription }
        if header[0].count > width, !parameters.isEmpty {
            // One parameter per line, as a formatter would.
            header = [start + "("] + parameters.enumerated().map { "    " + $0.element + ($0.offset < parameters.count - 1 ? "," : "") }
                + [")" + end]
        }
        let original = docLines(of: decl).map(adapt)
        let wrappedNote = note.flatMap { wrapDoc($0, width: width) }
        // An escaping closure in a class or actor must capture `self` explicitly.
        let receiver = selfQualified && site.container != nil ? "self." : ""
        let lines = (original.isEmpty ? wrappedNote : original + ["///"] + wrappedNote) + attributeLines + header
            + body("\(receiver)\(decl.name.text)(\(arguments))", width - 4).split(separator: "\n").map { "    " + $0 } + ["}"]
        return lines.map { $0.isEmpty ? "" : indent + $0 }.joined(separator: "\n")
    }

    /// `f(a: a, b: b)` as `f(` / one argument per line / `)`, the continuation lines indented
    /// by `indent` more (for a call that does not fit on one line).
    static func wrappedCall(_ call: String, indent: String) -> String {
        guard let open = call.firstIndex(of: "("), call.hasSuffix(")") else { return call }
        let arguments = call[call.index(after: open)..<call.index(before: call.endIndex)]
        guard !arguments.isEmpty else { return call }
        let lines = arguments.components(separatedBy: ", ").map { indent + "    " + $0 }.joined(separator: ",\n")
        return call[...open] + "\n" + lines + "\n" + indent + ")"
    }

    /// `text` as `///` lines of at most `width` columns (a word longer than that stays whole).
    static func wrapDoc(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = "///"
        for word in text.split(separator: " ") {
            if line.count + 1 + word.count > width, line != "///" {
                lines.append(line)
                line = "///"
            }
            line += " " + word
        }
        return lines + [line]
    }

    /// The leading whitespace of the line `decl` starts on.
    static func indentation(of decl: some SyntaxProtocol, in file: ParsedFile) -> String {
        let bytes = Array(file.text.utf8)
        var start = decl.positionAfterSkippingLeadingTrivia.utf8Offset
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        var end = start
        while end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t") { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// The `///` lines of the doc comment in front of `decl` (without the indentation).
    static func docLines(of decl: FunctionDeclSyntax) -> [String] {
        var lines: [String] = []
        for piece in decl.leadingTrivia {
            switch piece {
            case .docLineComment(let text): lines.append(text)
            case .docBlockComment(let text):
                lines += text.split(separator: "\n").map { "/// " + $0.trimmingCharacters(in: CharacterSet(charactersIn: " */")) }
            case .lineComment(let text), .blockComment(let text):
                // Only the comment right above counts; the tool's own markers may sit in between.
                if !text.contains(promiseTwinMarker), !text.contains(skipMarker) { lines.removeAll() }
            default: break
            }
        }
        return lines
    }

    /// Attributes and modifiers to copy onto a twin: the attributes the original writes on
    /// lines of their own, then the rest as one prefix (`@MainActor public static `), with
    /// `extraModifier` after the access level.
    static func prefix(
        of decl: FunctionDeclSyntax, droppingModifiers dropped: Set<String> = [], droppingAttributes: Set<String> = [],
        extraModifier: String? = nil
    ) -> (lines: [String], inline: String) {
        let droppedAttributes = droppingAttributes.union(["objc", "nonobjc", "IBAction", "IBSegueAction", "_dynamicReplacement"])
        var lines: [String] = []
        var parts: [String] = []
        for element in decl.attributes {
            if let attribute = element.as(AttributeSyntax.self), droppedAttributes.contains(attribute.attributeName.trimmedDescription) {
                continue
            }
            parts.append(element.trimmedDescription) // `#if` inside attributes: kept as written
            let next = element.nextToken(viewMode: .sourceAccurate)
            if element.trailingTrivia.contains(where: \.isNewline) || next?.leadingTrivia.contains(where: \.isNewline) == true {
                lines.append(parts.joined(separator: " "))
                parts.removeAll()
            }
        }
        let accessLevels: Set<String> = ["public", "open", "package", "internal", "fileprivate", "private"]
        var extraPlaced = extraModifier == nil
        for modifier in decl.modifiers {
            let name = modifier.name.text
            if !extraPlaced, !accessLevels.contains(name) {
                parts.append(extraModifier!)
                extraPlaced = true
            }
            switch name {
            case "override", "dynamic", "optional", "required", "convenience": continue
            case let name where dropped.contains(name): continue
            case "open": parts.append("public")
            default: parts.append(modifier.trimmedDescription)
            }
        }
        if !extraPlaced { parts.append(extraModifier!) }
        return (lines, parts.map { $0 + " " }.joined())
    }

    /// Why `site` can get no twin in either direction, or nil. An async twin (`asyncTwin`) may
    /// twin a requirement (in an extension) and pass `inout` parameters on (`&xs`).
    static func commonSkipReason(_ site: FunctionSite, project: Project, asyncTwin: Bool = false) -> SkipReason? {
        if site.decl.leadingTrivia.hasComment(containing: skipMarker) { return SkipReason("marked `// \(skipMarker)`") }
        if site.isLocal { return SkipReason("declared inside a function body") }
        if site.decl.modifiers.contains(where: { $0.name.text == "override" }) {
            return SkipReason("an override: the twin of the overridden method already reaches it dynamically")
        }
        if site.decl.body == nil, !(asyncTwin && site.inProtocol) { return SkipReason("has no body") }
        if site.decl.signature.effectSpecifiers?.throwsClause?.throwsSpecifier.text == "rethrows" {
            return SkipReason("rethrows; write its twin by hand")
        }
        if case .failure(let reason) = Twins.forwardedArguments(of: site.decl, inoutAllowed: asyncTwin) { return reason }
        // With the compiler, an async twin's proof checks that every reference, a use as a value
        // included, names the same declaration once the twin is there (`xs.map(f)` in synchronous
        // code still does) and rejects the twin where one becomes ambiguous (`let g = f`).
        if asyncTwin, project.usr(of: site) != nil { return nil }
        // The compiler says which function a value use names; the syntax only knows the name.
        let valueUse = project.usr(of: site).map { project.valueUse(of: $0) }
            ?? project.scans.lazy.compactMap({ scan in scan.functionValueUses(of: site.name).first.map { (scan.path, $0) } }).first
        if let use = valueUse {
            return SkipReason("`\(site.name)` is used as a value at \(use.0):\(use.1); a same-named overload would make that ambiguous")
        }
        return nil
    }

    /// `label: name, name, other: &other` for forwarding every parameter, or why not. An
    /// async twin passes an `inout` parameter on (`&xs`: the call is exclusive access for the
    /// whole await); a promise twin cannot, since its Task outlives the call.
    static func forwardedArguments(of decl: FunctionDeclSyntax, inoutAllowed: Bool) -> Result<String, SkipReason> {
        var arguments: [String] = []
        for parameter in decl.signature.parameterClause.parameters {
            let type = parameter.type.trimmedDescription
            let isInout = parameter.type.as(AttributedTypeSyntax.self)?.specifiers.contains { $0.trimmedDescription == "inout" } == true
                || type.hasPrefix("inout ")
            if isInout, !inoutAllowed {
                return .failure(SkipReason("has an inout parameter: the Task the twin starts outlives the call, so it cannot hold on to it"))
            }
            if parameter.ellipsis != nil {
                let name = parameter.parameterName ?? "_"
                return .failure(SkipReason(
                    "has a variadic parameter, which cannot be forwarded: Swift cannot pass an array (`\(name)` inside the function) "
                        + "on as variadic arguments, so neither a twin nor a wrapper can call the other; by hand, write the twin's own "
                        + "code, or put both over a function that takes an array"
                ))
            }
            if type.contains("@autoclosure") {
                return .failure(SkipReason("has an @autoclosure parameter, which cannot be forwarded as written"))
            }
            guard let name = parameter.parameterName else {
                return .failure(SkipReason("has an unnamed parameter (`_: T`), which cannot be forwarded"))
            }
            let value = isInout ? "&" + name : name
            arguments.append(parameter.argumentLabel.map { "\($0): \(value)" } ?? value)
        }
        return .success(arguments.joined(separator: ", "))
    }
}

/// Whether a function gets a twin.
enum TwinDecision {
    case add
    /// It has one already, or is one: nothing to say.
    case alreadyDone
    case skip(SkipReason)
}
