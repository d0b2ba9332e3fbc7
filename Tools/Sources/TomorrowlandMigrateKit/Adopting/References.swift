// Where the properties `ContextPropertyAction` would retype are referenced: the values they
// are given, the places that want a `PromiseContext`, and references adopt cannot follow.

import SwiftSyntax

/// Where the properties being retyped are referenced in a source set.
enum References {
    struct Found {
        /// `delivery = x`, `self.delivery = flag ? x : y`: the values (the elements after `=`).
        var assignments: [(path: String, value: [ExprSyntax], line: Int)] = []
        /// References where a `PromiseContext` is wanted (not the context argument of a
        /// callback API, which takes each kind): they get `.context`.
        var asValue: [(path: String, expression: ExprSyntax)] = []
        /// Why the property cannot be retyped: a reference adopt cannot follow.
        var unknown: String?
    }

    /// The APIs that take each kind of context (`PromiseContext.Main`, …), not only a `PromiseContext`.
    static let kindedAPIs: Set<String> = CallbackOperators.names.union([
        "Promise", "StdPromise", "DelayedPromise", "StdDelayedPromise", "PromiseOperation", "StdPromiseOperation",
        "onRequestCancel", "retry", "init",
    ])

    /// The references to the properties `keys` in `set`, merged across its files.
    static func find(
        _ keys: Set<ContextProperties.Key>, index: ContextProperties.Index, in set: SourceSet, contexts: CustomContexts
    ) -> [ContextProperties.Key: Found] {
        var found: [ContextProperties.Key: Found] = [:]
        for file in set.files {
            let finder = ReferenceFinder(keys: keys, index: index, file: file)
            finder.walk(file.tree)
            for (key, value) in finder.found {
                var merged = found[key] ?? Found()
                merged.assignments += value.assignments
                merged.asValue += value.asValue
                merged.unknown = merged.unknown ?? value.unknown
                found[key] = merged
            }
        }
        return found
    }
}

/// Finds the references to some properties in one file.
private final class ReferenceFinder: TypeTrackingVisitor {
    let keys: Set<ContextProperties.Key>
    let names: Set<String>
    let index: ContextProperties.Index
    let file: ParsedFile
    var found: [ContextProperties.Key: References.Found] = [:]
    /// Whether each enclosing member is static.
    var statics: [Bool] = []

    init(keys: Set<ContextProperties.Key>, index: ContextProperties.Index, file: ParsedFile) {
        self.keys = keys
        self.names = Set(keys.map(\.name))
        self.index = index
        self.file = file
        super.init(viewMode: .sourceAccurate)
    }

    override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
        let result = super.visitAny(node)
        if let modifiers = Self.memberModifiers(node) {
            statics.append(modifiers.contains { $0.name.text == "static" || $0.name.text == "class" })
        }
        guard let reference = node.as(DeclReferenceExprSyntax.self), names.contains(reference.baseName.text),
              reference.argumentNames == nil else { return result }
        let expression: ExprSyntax
        let key: ContextProperties.Key?
        if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
            guard member.base != nil else { return result } // `.delivery`: another type's
            (expression, key) = (ExprSyntax(member), memberKey(member, name: reference.baseName.text, at: node))
        } else {
            expression = ExprSyntax(reference)
            key = index.property(expression, at: node, module: file.module, types: types.map(\.name), isStatic: statics.last ?? false)?.key
        }
        guard let key, keys.contains(key) else { return result }
        classify(expression, key: key)
        return result
    }

    override func visitAnyPost(_ node: Syntax) {
        if Self.memberModifiers(node) != nil { statics.removeLast() }
        super.visitAnyPost(node)
    }

    /// The property `member` (`self.delivery`, `Screen.delivery`, `screen.delivery`) names;
    /// nil when none of them, or when it may name one (recorded as a reference adopt cannot
    /// follow, unless it is a context argument, where either kind is fine).
    private func memberKey(_ member: MemberAccessExprSyntax, name: String, at node: Syntax) -> ContextProperties.Key? {
        guard let base = member.base?.trimmedDescription else { return nil }
        let module = file.module
        let isStatic = statics.last ?? false
        if base == "self" { return types.last.map { .init(module: module, type: $0.name, name: name, isStatic: isStatic) } }
        if base == "Self" { return types.last.map { .init(module: module, type: $0.name, name: name, isStatic: true) } }
        if keys.contains(.init(module: module, type: base, name: name, isStatic: true)) {
            return .init(module: module, type: base, name: name, isStatic: true)
        }
        if let only = keys.first(where: { $0.module == module && $0.name == name }), index.declarationCounts[module]?[name] == 1, !only.isStatic {
            return only // `screen.delivery`: the only property of that name
        }
        if let resolved = index.property(ExprSyntax(member), at: node, module: module, types: types.map(\.name), isStatic: isStatic) {
            return resolved.key // `screen.delivery`, `screen` declared with its type
        }
        if let candidate = keys.first(where: { $0.module == module && $0.name == name && !$0.isStatic }) {
            // Another type's property of that name, or this one: fine where either kind is.
            if !isContextArgument(Self.outermost(Syntax(member))) {
                found[candidate, default: References.Found()].unknown = found[candidate]?.unknown
                    ?? "`\(member.trimmedDescription)` at \(file.path):\(file.line(of: member)) may name it"
            }
        }
        return nil
    }

    /// The modifiers of a function, initializer or property that is a member or top-level.
    static func memberModifiers(_ node: Syntax) -> DeclModifierListSyntax? {
        guard node.parent?.is(MemberBlockItemSyntax.self) == true
            || (node.parent?.is(CodeBlockItemSyntax.self) == true && node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true)
        else { return nil }
        return node.as(FunctionDeclSyntax.self)?.modifiers ?? node.as(VariableDeclSyntax.self)?.modifiers
            ?? node.as(InitializerDeclSyntax.self)?.modifiers ?? node.as(SubscriptDeclSyntax.self)?.modifiers
    }

    /// `node`, or the parentheses around it.
    static func outermost(_ node: Syntax) -> Syntax {
        var outer = node
        while let parent = outer.parent, let tuple = parent.parent?.parent?.as(TupleExprSyntax.self), parent.is(LabeledExprSyntax.self),
              tuple.elements.count == 1 {
            outer = Syntax(tuple)
        }
        return outer
    }

    private func classify(_ expression: ExprSyntax, key: ContextProperties.Key) {
        let outer = Self.outermost(Syntax(expression))
        // `delivery = x`
        if let list = outer.parent?.as(ExprListSyntax.self), let sequence = list.parent?.as(SequenceExprSyntax.self) {
            let elements = Array(sequence.elements)
            if elements.count >= 3, elements[0].id == outer.id, elements[1].is(AssignmentExprSyntax.self) {
                found[key, default: References.Found()].assignments.append((file.path, Array(elements.dropFirst(2)), file.line(of: elements[2])))
                return
            }
            if elements.count >= 2, elements[0].id == outer.id, let operation = elements[1].as(BinaryOperatorExprSyntax.self),
               operation.operator.text.hasSuffix("="), !["==", "!=", "<=", ">=", "==="].contains(operation.operator.text) {
                found[key, default: References.Found()].unknown = "it is assigned at \(file.path):\(file.line(of: expression))"
                return
            }
        }
        if outer.parent?.is(InOutExprSyntax.self) == true || outer.parent?.is(KeyPathComponentSyntax.self) == true {
            found[key, default: References.Found()].unknown = "it is passed `inout` at \(file.path):\(file.line(of: expression))"
            return
        }
        if isContextArgument(outer) { return }
        found[key, default: References.Found()].asValue.append((file.path, expression))
    }

    /// The `on:` argument of an API that takes each kind of context, or the argument of
    /// a `.nowOr(…)` that is one.
    private func isContextArgument(_ node: Syntax) -> Bool {
        guard let argument = node.parent?.as(LabeledExprSyntax.self), let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self) else {
            return false
        }
        if argument.label?.text == "on" {
            return ContextArguments.calledName(call).map(References.kindedAPIs.contains) ?? false
        }
        if argument.label == nil, call.arguments.count == 1, ContextArguments.isImplicitMember(ExprSyntax(call)),
           ContextArguments.calledName(call) == "nowOr" {
            return isContextArgument(Syntax(call))
        }
        return false
    }
}
