// One pass over a file: the declarations, bridges, operator calls and calls the report and
// the rewriting commands work from.

import SwiftSyntax

/// A function, method, computed property or protocol requirement found in a file.
public struct FunctionRecord: Sendable {
    public enum Kind: String, Sendable, Codable {
        case function, method, staticMethod = "static method", property, requirement, localFunction = "local function"
    }

    public let file: String
    public let line: Int
    public let name: String
    /// Argument labels, `nil` for `_`.
    public let labels: [String?]
    /// The parameters, for matching calls.
    let parameters: [ParameterShape]
    public let kind: Kind
    /// The enclosing type or extension, if any.
    public let container: String?
    public let isAsync: Bool
    /// The promise type it returns, if it returns one.
    public let promise: PromiseType?
    /// An `async` function whose body only awaits a same-named promise-returning one.
    public let isAsyncTwin: Bool
    /// A promise-returning function whose body only wraps a same-named async one in a Task.
    public let isPromiseTwin: Bool
    /// Marked with `// tomorrowland-migrate: promise-twin`.
    public let wantsPromiseTwin: Bool
    /// Identity of the function body, for the calls made in it.
    let scope: Int
    /// A computed property or property requirement rather than a function.
    var isProperty: Bool { scope < 0 }
    /// Where the declaration's last token is (UTF-8 offset; 0 for properties).
    var endOffset = 0

    /// `fetch(id:_:)`, or the bare name for properties.
    public var signature: String {
        isProperty ? name : name + "(" + labels.map { ($0 ?? "_") + ":" }.joined() + ")"
    }
}

/// What the syntax tells about the receiver of a call.
enum Receiver: Sendable, Equatable {
    /// `f()` or `self.f()` written in `type` (nil: at top level): a method of it or a function.
    case implicit(String?)
    /// `Type.f()`, `Type(…).f()`, or `x.f()` where `x` is declared with that type or initialized by `Type(…)`.
    case type(String)
    /// Anything else: the call may mean any function of that name and labels.
    case unknown
}

extension Receiver {
    /// The receiver's type, when the syntax tells it.
    var typeName: String? {
        switch self {
        case .implicit(let type): return type
        case .type(let type): return type
        case .unknown: return nil
        }
    }
}

/// A call `name(label: …)` or `x.name(…)` inside some function body.
struct CallRecord: Sendable {
    let name: String
    let labels: [String?]
    let receiver: Receiver
    let line: Int
    /// The function the call is written in (0: outside any function).
    let scope: Int
    /// `try await name(…).value` / `.resolvedResult`: the caller already awaits it.
    let awaited: Bool
    /// In an `await` expression without `.value`: a call of an async function.
    let underAwait: Bool
    /// In a `try` expression (`try`, `try?`, `try!`).
    let underTry: Bool
    /// Where the called name is (`Calls.nameOffset(of:)`), in the file at `path`.
    var nameOffset = 0
    var path = ""
}

/// Everything `Scanner` found in one file.
public struct FileScan: Sendable {
    public let path: String
    public let folder: String
    public internal(set) var functions: [FunctionRecord] = []
    /// `(kind, line, scope)`: `.value` / `.resolvedResult` awaited, `StdPromise { … await … }`.
    public internal(set) var bridges: [(kind: String, line: Int, scope: Int)] = []
    /// `(operator, line)` for every promise-operator call.
    public internal(set) var operatorCalls: [(name: String, line: Int, scope: Int)] = []
    var calls: [CallRecord] = []
    /// The receiver of every call, by the call's node.
    var receivers: [SyntaxIdentifier: Receiver] = [:]
    /// Names used as values (`let f = fetch`, `map(fetch)`), not called.
    var references: [(name: String, line: Int)] = []
    /// Names declared as variables or parameters in this file.
    var variableNames = Set<String>()

    /// References to `name` that can only be the function itself (no variable of that name here).
    func functionValueUses(of name: String) -> [Int] {
        variableNames.contains(name) ? [] : references.filter { $0.name == name }.map(\.line)
    }
}

/// The marker that asks `add-promise-twins` for a promise twin of the function after it.
public let promiseTwinMarker = "tomorrowland-migrate: promise-twin"

final class Scanner: TypeTrackingVisitor {
    private let file: ParsedFile
    private(set) var scan: FileScan
    private var scopes: [Int] = [0]
    private var functionDepth = 0
    private var nextScope: Int

    init(file: ParsedFile, firstScope: Int) {
        self.file = file
        self.scan = FileScan(path: file.path, folder: file.folder)
        self.nextScope = firstScope
        super.init(viewMode: .sourceAccurate)
    }

    /// The scope ids this scanner used end before this value.
    var scopeEnd: Int { nextScope }

    /// Declared or initialized types of variables, parameters and stored properties: by
    /// function scope (locals and parameters) and by type name (properties).
    private var localTypes: [Int: [String: String]] = [:]
    private var propertyTypes: [String: [String: String]] = [:]

    /// `Type` for `x: Type`, `x: Type?`, `x: any Type`, or an initializer `Type(…)` / `Type<A>(…)`.
    private static func typeName(annotation: TypeSyntax?, initializer: ExprSyntax?) -> String? {
        if let annotation {
            var text = annotation.trimmedDescription
            for prefix in ["any ", "some "] where text.hasPrefix(prefix) { text = String(text.dropFirst(prefix.count)) }
            while text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
            if let generic = text.firstIndex(of: "<") { text = String(text[..<generic]) }
            return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." } ? text : nil
        }
        guard let call = initializer?.as(FunctionCallExprSyntax.self) else { return nil }
        var called = call.calledExpression
        if let specialized = called.as(GenericSpecializationExprSyntax.self) { called = specialized.expression }
        guard let name = called.as(DeclReferenceExprSyntax.self)?.baseName.text, name.first?.isUppercase == true else { return nil }
        return name
    }

    private func noteVariable(_ name: String, type: String?) {
        guard let type else { return }
        if functionDepth > 0 {
            localTypes[scopes.last!, default: [:]][name] = type
        } else if let container = types.last?.name {
            propertyTypes[container, default: [:]][name] = type
        }
    }

    /// The receiver of `call`, as far as the syntax of this file tells.
    private func receiver(of call: FunctionCallExprSyntax) -> Receiver {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { return .implicit(types.last?.name) }
        guard let base = member.base else { return .unknown } // `.f()`: an implicit member
        if let reference = base.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if name == "self" || name == "Self" { return .implicit(types.last?.name) }
            if let type = localTypes[scopes.last!]?[name] ?? types.last.flatMap({ propertyTypes[$0.name]?[name] }) { return .type(type) }
            if name.first?.isUppercase == true, !scan.variableNames.contains(name) { return .type(name) }
            return .unknown
        }
        if let inner = base.as(MemberAccessExprSyntax.self), inner.base?.trimmedDescription == "self",
           let type = types.last.flatMap({ propertyTypes[$0.name]?[inner.declName.baseName.text] }) {
            return .type(type)
        }
        if let type = Self.typeName(annotation: nil, initializer: base) { return .type(type) }
        return .unknown
    }

    // MARK: Declarations

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        let scope = nextScope
        nextScope += 1
        let inProtocol = types.last?.isProtocol == true && functionDepth == 0
        let isStatic = node.modifiers.contains { ["static", "class"].contains($0.name.text) }
        let kind: FunctionRecord.Kind =
            functionDepth > 0 ? .localFunction
            : inProtocol ? .requirement
            : types.isEmpty ? .function
            : isStatic ? .staticMethod : .method
        let promise = file.promise(returnedBy: node)
        let isAsync = node.signature.effectSpecifiers?.asyncSpecifier != nil
        scan.functions.append(FunctionRecord(
            file: file.path, line: file.line(of: node.name), name: node.name.text,
            labels: node.signature.parameterClause.parameters.map(\.argumentLabel),
            parameters: node.signature.parameterClause.parameters.map(ParameterShape.init),
            kind: kind, container: functionDepth > 0 ? nil : types.last?.name, isAsync: isAsync, promise: promise,
            isAsyncTwin: isAsync && Twins.forwardedName(ofAsyncTwin: node) == node.name.text,
            isPromiseTwin: promise != nil && Twins.forwardedName(ofPromiseTwin: node) == node.name.text,
            wantsPromiseTwin: node.leadingTrivia.hasMarker, scope: scope,
            endOffset: node.endOffset
        ))
        scopes.append(scope)
        functionDepth += 1
        return .visitChildren
    }

    override func visitPost(_ node: FunctionDeclSyntax) {
        scopes.removeLast()
        functionDepth -= 1
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        for binding in node.bindings {
            guard let type = binding.typeAnnotation?.type, let promise = PromiseType(type, aliases: file.promiseAliases) else { continue }
            // Stored properties (`let p: Promise<…>`, `var p = …`) are not declarations that
            // produce promises; computed ones (with an accessor block) and requirements are.
            let inProtocol = types.last?.isProtocol == true
            guard binding.accessorBlock != nil, functionDepth == 0 else { continue }
            scan.functions.append(FunctionRecord(
                file: file.path, line: file.line(of: binding.pattern), name: binding.pattern.trimmedDescription,
                labels: [], parameters: [], kind: inProtocol ? .requirement : .property, container: types.last?.name,
                isAsync: false, promise: promise, isAsyncTwin: false, isPromiseTwin: false, wantsPromiseTwin: false,
                scope: -1
            ))
        }
        return .visitChildren
    }

    // MARK: Expressions

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let line = file.line(of: node)
        if let name = PromiseOperators.name(of: node) {
            scan.operatorCalls.append((name, line, scopes.last!))
        }
        if let (name, _) = Calls.calledName(node) {
            let receiver = receiver(of: node)
            scan.receivers[node.id] = receiver
            scan.calls.append(CallRecord(
                name: name, labels: Calls.labels(of: node), receiver: receiver, line: line, scope: scopes.last!,
                awaited: Calls.isAwaitedBridge(node), underAwait: Calls.isUnderAwait(Syntax(node)),
                underTry: Calls.isUnder(TryExprSyntax.self, Syntax(node)),
                nameOffset: Calls.nameOffset(of: node), path: file.path
            ))
        }
        if Calls.isTaskPromiseBridge(node) {
            scan.bridges.append(("StdPromise { await … }", line, scopes.last!))
        }
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.declName.baseName.text
        if (name == "value" || name == "resolvedResult"), node.base != nil, Calls.isUnderAwait(Syntax(node)) {
            scan.bridges.append(("." + name, file.line(of: node.declName), scopes.last!))
        }
        return .visitChildren
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        // A key path (`\.author.name`) names properties, never a function.
        guard !Calls.isCallee(Syntax(node)), node.parent?.is(KeyPathPropertyComponentSyntax.self) != true else { return .visitChildren }
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
            // `x.name` is usually a property; `self.name` / `Type.name` unapplied is a method value.
            guard let base = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text,
                  base == "self" || base == "Self" || base.first?.isUppercase == true else { return .visitChildren }
        }
        scan.references.append((node.baseName.text, file.line(of: node)))
        return .visitChildren
    }

    // Variables and parameters: a reference to one of these names is not a function value.

    override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
        scan.variableNames.insert(node.identifier.text)
        if let binding = node.parent?.as(PatternBindingSyntax.self) {
            noteVariable(node.identifier.text, type: Self.typeName(annotation: binding.typeAnnotation?.type, initializer: binding.initializer?.value))
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionParameterSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.parameterName {
            scan.variableNames.insert(name)
            noteVariable(name, type: Self.typeName(annotation: node.type, initializer: nil))
        }
        return .visitChildren
    }

    override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
        scan.variableNames.insert(node.name.text)
        return .visitChildren
    }

    override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
        scan.variableNames.insert((node.secondName ?? node.firstName).text)
        return .visitChildren
    }
}

extension FunctionDeclSyntax {
    /// The UTF-8 offset of the last token: where the compiler's range of the declaration ends.
    var endOffset: Int {
        lastToken(viewMode: .sourceAccurate)?.positionAfterSkippingLeadingTrivia.utf8Offset ?? 0
    }
}

extension FunctionParameterSyntax {
    /// The argument label callers write, nil for `_`.
    var argumentLabel: String? {
        firstName.tokenKind == .wildcard ? nil : firstName.text
    }

    /// The name the body uses, nil for `_`.
    var parameterName: String? {
        let name = secondName ?? firstName
        return name.tokenKind == .wildcard ? nil : name.text
    }
}

/// The marker that keeps both commands away from the function after it.
public let skipMarker = "tomorrowland-migrate: skip"

extension Trivia {
    /// Holds a `// tomorrowland-migrate: promise-twin` comment.
    var hasMarker: Bool { hasComment(containing: promiseTwinMarker) }

    /// Holds a `//` or `/* */` comment that contains `text`.
    func hasComment(containing text: String) -> Bool {
        contains { piece in
            switch piece {
            case .lineComment(let comment), .blockComment(let comment): return comment.contains(text)
            default: return false
            }
        }
    }
}

/// Questions about calls, shared by the scanner and the rewriters.
enum Calls {
    /// The name a call invokes (`fetch` in `fetch(…)`, `self.fetch(…)`, `api.fetch(…)`) and
    /// the explicit receiver, if any.
    static func calledName(_ call: FunctionCallExprSyntax) -> (String, ExprSyntax?)? {
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            return (reference.baseName.text, nil)
        }
        if let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            return (member.declName.baseName.text, member.base)
        }
        return nil
    }

    /// The UTF-8 offset of the called name's token (`find` in `store.find(1)`): where the
    /// compiler's reference to the callee sits.
    static func nameOffset(of call: FunctionCallExprSyntax) -> Int {
        var called = call.calledExpression
        if let specialized = called.as(GenericSpecializationExprSyntax.self) { called = specialized.expression }
        if let member = called.as(MemberAccessExprSyntax.self) { return member.declName.baseName.positionAfterSkippingLeadingTrivia.utf8Offset }
        return called.positionAfterSkippingLeadingTrivia.utf8Offset
    }

    /// The label `labels(of:)` gives an unlabelled trailing closure.
    static let trailingClosure = "{ trailing closure }"

    /// The argument labels of a call (nil: unlabelled), trailing closures included.
    static func labels(of call: FunctionCallExprSyntax) -> [String?] {
        var labels: [String?] = call.arguments.map { $0.label?.text }
        if call.trailingClosure != nil { labels.append(trailingClosure) }
        labels += call.additionalTrailingClosures.map { $0.label.text }
        return labels
    }

    /// `await f(…).value` or `await (f(…) as P).value` (with any `try`, possibly a
    /// `.value(onTaskCancel:)` call).
    static func isAwaitedBridge(_ call: FunctionCallExprSyntax) -> Bool {
        let base = coercedParentheses(around: call) ?? ExprSyntax(call)
        guard let member = base.parent?.as(MemberAccessExprSyntax.self), member.base?.id == base.id,
              ["value", "resolvedResult", "inner"].contains(member.declName.baseName.text) else { return false }
        return isUnderAwait(Syntax(member))
    }

    /// `(call as P)` around `call`, if it is written so.
    static func coercedParentheses(around call: FunctionCallExprSyntax) -> ExprSyntax? {
        guard let sequence = call.parent?.parent?.as(SequenceExprSyntax.self), sequence.elements.count == 3,
              sequence.elements.first?.id == call.id,
              sequence.elements.dropFirst().first?.is(UnresolvedAsExprSyntax.self) == true,
              let tuple = sequence.parent?.parent?.parent?.as(TupleExprSyntax.self), tuple.elements.count == 1 else { return nil }
        return ExprSyntax(tuple)
    }

    /// The members of a promise a twin's value type may also have: `f(…).value` would read
    /// the value's member once an async twin exists.
    static let promiseResultMembers: Set<String> = ["value", "resolvedResult", "result", "inner"]

    /// Whether `node` sits in an `await` expression of its own function or closure.
    static func isUnderAwait(_ node: Syntax) -> Bool {
        isUnder(AwaitExprSyntax.self, node)
    }

    /// Whether `node` is inside an expression of type `kind` of its own statement (not across a
    /// closure's or a function's boundary).
    static func isUnder<Kind: SyntaxProtocol>(_ kind: Kind.Type, _ node: Syntax) -> Bool {
        var current: Syntax? = node.parent
        while let node = current {
            if node.is(kind) { return true }
            if node.is(ClosureExprSyntax.self) || node.is(CodeBlockItemSyntax.self) || node.is(FunctionDeclSyntax.self) { return false }
            current = node.parent
        }
        return false
    }

    /// Whether a reference is the function part of a call (`fetch` in `fetch()`).
    static func isCallee(_ node: Syntax) -> Bool {
        guard let parent = node.parent else { return false }
        if let call = parent.as(FunctionCallExprSyntax.self) { return call.calledExpression.id == node.id }
        if let member = parent.as(MemberAccessExprSyntax.self), member.declName.id == node.id {
            return isCallee(Syntax(member))
        }
        // `fetch(id:)` spelled with labels is a value, but a member name `x.fetch` is not a reference of its own.
        return false
    }

    /// `StdPromise { … await … }` / `Promise { … }` / `Promise<T, E> { … }` with an async body.
    static func isTaskPromiseBridge(_ call: FunctionCallExprSyntax) -> Bool {
        var called = call.calledExpression
        if let specialized = called.as(GenericSpecializationExprSyntax.self) { called = specialized.expression }
        guard let reference = called.as(DeclReferenceExprSyntax.self),
              ["Promise", "StdPromise"].contains(reference.baseName.text),
              let closure = call.trailingClosure ?? call.arguments.last?.expression.as(ClosureExprSyntax.self) else { return false }
        if Closures.parameterCount(closure) > 0 { return false } // `Promise { resolver in … }`
        return closure.signature?.effectSpecifiers?.asyncSpecifier != nil || Closures.containsAwait(closure)
    }
}

/// Questions about closures.
enum Closures {
    /// The number of parameters the closure declares (`$0` uses not counted).
    static func parameterCount(_ closure: ClosureExprSyntax) -> Int {
        // `if case`, not a `switch`: see `CustomContexts.returnedExpression(of:)`.
        let clause = closure.signature?.parameterClause
        if case .simpleInput(let names)? = clause { return names.count }
        if case .parameterClause(let parameters)? = clause { return parameters.parameters.count }
        return 0
    }

    /// Whether `closure` has an `await` of its own (not in a nested closure): Swift then
    /// infers it `async`.
    static func containsAwait(_ closure: ClosureExprSyntax) -> Bool {
        containsOwn(Syntax(closure.statements)) { $0.is(AwaitExprSyntax.self) }
    }

    /// Whether `node` has a node that `matches` outside the closures and functions nested in it.
    static func containsOwn(_ node: Syntax, where matches: (Syntax) -> Bool) -> Bool {
        if matches(node) { return true }
        if node.is(ClosureExprSyntax.self) || node.is(FunctionDeclSyntax.self) { return false }
        return node.children(viewMode: .sourceAccurate).contains { containsOwn($0, where: matches) }
    }
}
