// The `on:` arguments of a file: ternaries of implicit members that mix the two kinds of
// context (given a type), and closures run off the caller's actor that use `self` (listed).

import SwiftSyntax

/// The edits and notes for the context arguments of one file.
final class ContextArguments: TypeTrackingVisitor {
    private let file: ParsedFile
    private let contexts: CustomContexts
    private let isolatedTypes: Set<String>
    private(set) var edits: [TextEdit] = []
    private(set) var notes: [MigrationNote] = []
    /// Enclosing functions: whether each is isolated to an actor (nil: as its type).
    private var functions: [(decl: FunctionDeclSyntax?, isolated: Bool?)] = []

    init(file: ParsedFile, contexts: CustomContexts, isolatedTypes: Set<String>) {
        self.file = file
        self.contexts = contexts
        self.isolatedTypes = isolatedTypes
        super.init(viewMode: .sourceAccurate)
    }

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        if let function = node.as(FunctionDeclSyntax.self) {
            var isolated = Isolation.of(attributes: function.attributes, modifiers: function.modifiers)
            // A static method of an actor is not isolated to it.
            if isolated == nil, types.last?.isActor == true, function.modifiers.contains(where: { $0.name.text == "static" }) {
                isolated = false
            }
            functions.append((function, isolated))
        } else if let initializer = node.as(InitializerDeclSyntax.self) {
            functions.append((nil, Isolation.of(attributes: initializer.attributes, modifiers: initializer.modifiers)))
        } else if let call = node.as(FunctionCallExprSyntax.self) {
            visitCall(call)
        }
        return super.visitAny(node)
    }

    override func visitAnyPost(_ node: Syntax) {
        if node.is(FunctionDeclSyntax.self) || node.is(InitializerDeclSyntax.self) { functions.removeLast() }
        super.visitAnyPost(node)
    }

    /// Whether code here runs on an actor: in an actor or a `@MainActor` type (or an extension
    /// of one), or in a `@MainActor` function, and not in a `nonisolated` one.
    private var isIsolated: Bool {
        if let decided = functions.last(where: { $0.isolated != nil })?.isolated { return decided }
        guard let type = types.last else { return false }
        return type.isActor || isolatedTypes.contains(type.name)
            || type.attributes.map(Isolation.hasMainActor) == true
    }

    /// Whether code here runs on the main actor (not another actor): a `@MainActor` function,
    /// or a `@MainActor` type that is not an actor, unless the function is `nonisolated`.
    private var isMainActorIsolated: Bool {
        if let decided = functions.last(where: { $0.isolated != nil })?.isolated { return decided }
        guard let type = types.last, !type.isActor else { return false }
        return isolatedTypes.contains(type.name) || type.attributes.map(Isolation.hasMainActor) == true
    }

    /// The library's APIs that take a context (other `on:` parameters, such as a wrapper's
    /// `PromiseContext` one, take any context already), generated from its operator tables.
    private static let contextAPIs: Set<String> = OperatorFacts.contextTakers

    /// The name `call` calls: `then` for `p.then(…)`, `Promise` for `Promise<Int, E>(…)`.
    static func calledName(_ call: FunctionCallExprSyntax) -> String? {
        var called = call.calledExpression
        if let specialized = called.as(GenericSpecializationExprSyntax.self) { called = specialized.expression }
        if let member = called.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text.replacingOccurrences(of: "`", with: "") }
        return called.as(DeclReferenceExprSyntax.self)?.baseName.text
    }

    private func visitCall(_ call: FunctionCallExprSyntax) {
        guard let argument = call.arguments.first(where: { $0.label?.text == "on" }),
              let name = Self.calledName(call), Self.contextAPIs.contains(name) else { return }
        let expression = Self.unparenthesized(argument.expression)
        var kind: ContextKind?
        var isValue = false
        if let sequence = Self.ternary(in: expression), let leaves = Self.ternaryLeaves(sequence) {
            let kinds = leaves.map(contexts.kind(ofImplicitMember:))
            if kinds.allSatisfy({ $0 != nil }), Set(kinds.compactMap { $0 }.map(\.typeName)).count > 1, let first = leaves.first {
                // `flag ? .immediate : .utility` has no type both members belong to: spelled
                // `flag ? PromiseContext.immediate : .utility`, it is a `PromiseContext` value,
                // whose closure is nonisolated and runs on the context it holds, as in 1.x.
                edits.append(.insert("PromiseContext", at: first.positionAfterSkippingLeadingTrivia))
                isValue = true
            } else if !leaves.allSatisfy(Self.isImplicitMember) {
                isValue = true // `flag ? .main : someContext` is a `PromiseContext`
            } else if let uniform = kinds.first ?? nil, kinds.allSatisfy({ $0 == uniform }) {
                kind = uniform
            }
        } else if Self.isImplicitMember(expression) {
            kind = contexts.kind(ofImplicitMember: expression)
        } else {
            isValue = !isCallerIsolatedParameter(expression)
        }
        // `.main` in an actor's code (or another global actor's): a main-actor closure, run on
        // the main queue as in 1.x, where touching this actor's state was a data race.
        let onMainOffActor = kind == .mainActor && !isMainActorIsolated
        guard isIsolated, kind == .named || isValue || onMainOffActor else { return }
        let closures = Self.closures(of: call).filter(Self.usesSelf).map(Syntax.init)
            + [isolatedMethodReference(in: call)].compactMap { $0 }.map(Syntax.init)
        guard !closures.isEmpty else { return }
        if isMainActorIsolated, let base = contexts.mainQueueBase(of: expression) {
            // `PromiseContext.main` is a value: its closure is nonisolated, so using the main
            // actor's state there no longer compiles, though in 1.x it ran on the main queue.
            // `.main` gives a main-actor closure and still runs on the main queue. (In an
            // actor such a closure touched the actor's state from the main queue: listed.)
            let start = base.positionAfterSkippingLeadingTrivia.utf8Offset
            edits.append(TextEdit(start: start, end: base.endPositionBeforeTrailingTrivia.utf8Offset, text: ""))
            return
        }
        let context = argument.expression.trimmedDescription
        let container = types.last.map { "`\($0.name)`" } ?? "this function"
        let reason = onMainOffActor
            ? "the closure is isolated to the main actor and runs on the main queue, as in 1.x: touching this actor's state "
                + "there was a data race, and the compiler now rejects it"
            : isValue
            ? "the closure is nonisolated and runs on the context the value holds, as in 1.x: if that is a queue, touching "
                + "the actor's state there was a data race, and the compiler now rejects it; if it is `.main` in main-actor code, "
                + "declare the value `PromiseContext.Main` (its closure then runs on the main actor)"
            : "the closure is nonisolated and runs on that context, as in 1.x: touching the actor's state there was a data race, "
                + "and the compiler now rejects it"
        for closure in closures {
            let what = closure.is(ClosureExprSyntax.self)
                ? "a closure given `on: \(context)` uses `self` of \(container)"
                : "`\(closure.trimmedDescription)`, given `on: \(context)`, is a method of \(container)"
            notes.append(MigrationNote(
                path: file.path, line: file.line(of: closure),
                message: "\(what), which is isolated to an actor; \(reason). "
                    + "Left as it is: move that access to a following `.then { }` (no context: runs on the actor), or pass `.main`"
            ))
        }
    }

    /// The callback of `call` when it is a method of the enclosing actor-isolated type
    /// (`show`, `self.show`) that is not `nonisolated`: it runs on the actor, the context does not.
    private func isolatedMethodReference(in call: FunctionCallExprSyntax) -> ExprSyntax? {
        guard call.trailingClosure == nil, let last = call.arguments.last, last.label == nil else { return nil }
        let name: String
        var isStatic = false
        if let reference = last.expression.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let member = last.expression.as(MemberAccessExprSyntax.self), let base = member.base?.trimmedDescription,
                  base == "self" || base == "Self" || base == types.last?.name {
            name = member.declName.baseName.text
            // Static methods of a `@MainActor` type are isolated to it; an actor's are not.
            isStatic = base != "self"
            if isStatic && types.last?.isActor == true { return nil }
        } else {
            return nil
        }
        var current = call.parent
        while let node = current, node.as(MemberBlockSyntax.self) == nil { current = node.parent }
        guard let members = current?.as(MemberBlockSyntax.self)?.members else { return nil }
        let methods = members.compactMap { $0.decl.as(FunctionDeclSyntax.self) }.filter { $0.name.text == name }
        let isolated = methods.contains { method in
            let modifiers = method.modifiers.map(\.name.text)
            return !modifiers.contains("nonisolated") && (modifiers.contains("static") || modifiers.contains("class")) == isStatic
        }
        return isolated ? last.expression : nil
    }

    /// `(x)` → `x`.
    static func unparenthesized(_ expression: ExprSyntax) -> ExprSyntax {
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
            return unparenthesized(only.expression)
        }
        return expression
    }

    /// The ternary `expression` is (`flag ? .main : .utility`), or is given to
    /// (`.nowOr(flag ? .main : .utility)`).
    static func ternary(in expression: ExprSyntax) -> SequenceExprSyntax? {
        if let call = expression.as(FunctionCallExprSyntax.self), isImplicitMember(expression),
           call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "nowOr",
           call.arguments.count == 1, let argument = call.arguments.first {
            return unparenthesized(argument.expression).as(SequenceExprSyntax.self)
        }
        return expression.as(SequenceExprSyntax.self)
    }

    /// The values a chain of ternaries can take (`a ? x : b ? y : z` → x, y, z), or nil when
    /// `sequence` is not one.
    static func ternaryLeaves(_ sequence: SequenceExprSyntax) -> [ExprSyntax]? {
        let elements = Array(sequence.elements)
        guard let last = elements.lastIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }), last == elements.count - 2 else {
            return nil
        }
        // Ternaries bind loosest: anything between two of them is the next condition.
        let thens = elements.compactMap { $0.as(UnresolvedTernaryExprSyntax.self)?.thenExpression }
        return (thens + [elements[last + 1]]).map(unparenthesized)
    }

    /// `.x` or `.x(…)`.
    static func isImplicitMember(_ expression: ExprSyntax) -> Bool {
        let called = expression.as(FunctionCallExprSyntax.self)?.calledExpression ?? expression
        return called.as(MemberAccessExprSyntax.self).map { $0.base == nil } ?? false
    }

    /// A parameter of the enclosing function declared `PromiseContext.CallerIsolated` or
    /// `PromiseContext.Main`.
    private func isCallerIsolatedParameter(_ expression: ExprSyntax) -> Bool {
        guard let name = expression.as(DeclReferenceExprSyntax.self)?.baseName.text,
              let function = functions.last(where: { $0.decl != nil })?.decl else { return false }
        return function.signature.parameterClause.parameters.contains { parameter in
            let type = parameter.type.trimmedDescription
            return (parameter.secondName ?? parameter.firstName).text == name && (type.hasSuffix("CallerIsolated") || type.hasSuffix("Context.Main"))
        }
    }

    /// The closure arguments of `call`, trailing ones included.
    static func closures(of call: FunctionCallExprSyntax) -> [ClosureExprSyntax] {
        call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
            + [call.trailingClosure].compactMap { $0 } + call.additionalTrailingClosures.map(\.closure)
    }

    /// Whether `closure` mentions `self` (also in a nested closure).
    static func usesSelf(_ closure: ClosureExprSyntax) -> Bool {
        closure.statements.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .keyword(.self) }
    }
}

/// Reading actor isolation from attributes.
enum Isolation {
    static func hasMainActor(_ attributes: AttributeListSyntax) -> Bool {
        attributes.contains { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" }
    }

    /// true for `@MainActor`, false for `nonisolated`, nil when the declaration says neither.
    static func of(attributes: AttributeListSyntax, modifiers: DeclModifierListSyntax) -> Bool? {
        if hasMainActor(attributes) { return true }
        if modifiers.contains(where: { $0.name.text == "nonisolated" }) { return false }
        return nil
    }

    /// The names of the actors and `@MainActor` types of `set`, and of the classes that
    /// inherit from one of them there.
    static func isolatedTypes(in set: SourceSet) -> Set<String> {
        final class Collector: SyntaxVisitor {
            var isolated: Set<String> = []
            var superclasses: [String: String] = [:]
            override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
                isolated.insert(node.name.text)
                return .visitChildren
            }
            override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
                if Isolation.hasMainActor(node.attributes) { isolated.insert(node.name.text) }
                if let first = node.inheritanceClause?.inheritedTypes.first { superclasses[node.name.text] = first.type.trimmedDescription }
                return .visitChildren
            }
            override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
                if Isolation.hasMainActor(node.attributes) { isolated.insert(node.name.text) }
                return .visitChildren
            }
            override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
                if Isolation.hasMainActor(node.attributes) { isolated.insert(node.name.text) }
                return .visitChildren
            }
        }
        let collector = Collector(viewMode: .sourceAccurate)
        for file in set.files { collector.walk(file.tree) }
        var isolated = collector.isolated
        var changed = true
        while changed {
            changed = false
            for (type, superclass) in collector.superclasses where isolated.contains(superclass) && !isolated.contains(type) {
                isolated.insert(type)
                changed = true
            }
        }
        return isolated
    }
}
