// `let delivery: PromiseContext = .main` in a `@MainActor` class, given to a callback whose
// closure uses the class's state: a value's closure is nonisolated, so that no longer compiles.
// When every value the property can hold is `.main`-like (or every one `.auto`/`.immediate`-like),
// `adopt` gives it the type of that kind (`PromiseContext.Main`, `PromiseContext.CallerIsolated`):
// the closure then runs on the main actor (the caller's actor), where 1.x ran it.

import SwiftSyntax

enum ContextProperties {
    /// A stored property (instance or static) or a top-level variable, by its identity: the
    /// module that declares it (`ParsedFile.module`), then its type's name and its own. Ten
    /// modules that each declare a `DashboardViewModel.delivery` declare ten properties.
    struct Key: Hashable {
        let module: String
        /// The type that declares it (nil: top-level).
        let type: String?
        let name: String
        let isStatic: Bool

        var description: String { type.map { "\($0).\(name)" } ?? name }
    }

    /// A stored property whose type is `PromiseContext` or one of its kinds.
    struct Declaration {
        let key: Key
        let path: String
        let variable: VariableDeclSyntax
        let binding: PatternBindingSyntax
        /// `.named` for `PromiseContext` (a value); `.mainActor` or `.callerIsolated` when it
        /// is declared with that kind already.
        let declaredKind: ContextKind?
        /// Why it cannot be retyped whatever its values (public API, a memberwise initializer's
        /// parameter, …); nil if it can.
        let fixedBecause: String?
    }

    /// The declarations of a set, and what the retyping needs to know of the rest of it.
    struct Index {
        private(set) var declarations: [Key: Declaration] = [:]
        /// How many types (and the top level) of each module declare a member of each name: a
        /// reference `x.name` names the one property only when the name is unique there.
        private(set) var declarationCounts: [String: [String: Int]] = [:]
        /// The names of the properties each type of each module declares (whatever their type).
        private(set) var typeMembers: [String: [String: Set<String>]] = [:]

        init(_ set: SourceSet, contexts: CustomContexts) {
            final class Collector: TypeTrackingVisitor {
                let contexts: CustomContexts
                let path: String
                let module: String
                var found: [Declaration] = []
                var names: [String] = []
                var typeMembers: [String: Set<String>] = [:]
                /// Requirements and overrides: a property of that name is not only this one.
                var fixedNames: Set<String> = []
                /// Structs with an `init` of their own (no memberwise one).
                var explicitInits: Set<String> = []
                /// Enclosing public extensions.
                var publicExtensions: [Bool] = []

                init(contexts: CustomContexts, path: String, module: String) {
                    self.contexts = contexts
                    self.path = path
                    self.module = module
                    super.init(viewMode: .sourceAccurate)
                }

                override func visitAny(_ node: Syntax) -> SyntaxVisitorContinueKind {
                    let result = super.visitAny(node)
                    if let type = TypeScope(node) {
                        let extensionDecl = node.as(ExtensionDeclSyntax.self)
                        publicExtensions.append(extensionDecl?.modifiers.contains { ["public", "open"].contains($0.name.text) } ?? false)
                        if type.isProtocol {
                            for item in node.as(ProtocolDeclSyntax.self)?.memberBlock.members ?? [] {
                                for binding in item.decl.as(VariableDeclSyntax.self)?.bindings ?? [] {
                                    if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { fixedNames.insert(name) }
                                }
                            }
                        }
                    }
                    if node.is(InitializerDeclSyntax.self), node.parent?.is(MemberBlockItemSyntax.self) == true, let type = types.last,
                       type.kind == .struct {
                        explicitInits.insert(type.name)
                    }
                    guard let variable = node.as(VariableDeclSyntax.self) else { return result }
                    let isMember = node.parent?.is(MemberBlockItemSyntax.self) == true
                    let isTopLevel = node.parent?.is(CodeBlockItemSyntax.self) == true && node.parent?.parent?.parent?.is(SourceFileSyntax.self) == true
                    guard isMember || isTopLevel else { return result }
                    // The app's own contexts (`extension PromiseContext { static let ui = … }`)
                    // get twins instead (`ContextTwins`), and stay values.
                    if isMember, let type = types.last?.name,
                       contexts.aliases.contains(where: { $0 != "Self" && (type == $0 || type.hasPrefix($0 + ".")) }) {
                        return result
                    }
                    let modifiers = variable.modifiers.map(\.name.text)
                    if modifiers.contains("override") {
                        for binding in variable.bindings {
                            if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text { fixedNames.insert(name) }
                        }
                    }
                    for binding in variable.bindings {
                        guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
                        names.append(name)
                        if isMember, let type = types.last { typeMembers[type.name, default: []].insert(name) }
                        guard let kind = declaredKind(binding), isStored(binding) else { continue }
                        let type = isMember ? types.last : nil
                        let isStatic = modifiers.contains("static") || modifiers.contains("class")
                        var fixed: String?
                        if modifiers.contains("public") || modifiers.contains("open") || (isMember && publicExtensions.last == true) {
                            fixed = "it is public API: another module may use it as a `PromiseContext`"
                        } else if variable.bindings.count > 1 {
                            fixed = "it is declared together with other variables"
                        } else if let type, type.kind == .struct, !isStatic, variable.bindingSpecifier.text == "var" || binding.initializer == nil {
                            // Decided once every initializer is known (`explicitInits`).
                            fixed = "memberwise:\(type.name)"
                        }
                        found.append(Declaration(
                            key: Key(module: module, type: type?.name, name: name, isStatic: isStatic), path: path, variable: variable, binding: binding,
                            declaredKind: kind, fixedBecause: fixed
                        ))
                    }
                    return result
                }

                override func visitAnyPost(_ node: Syntax) {
                    if TypeScope(node) != nil { publicExtensions.removeLast() }
                    super.visitAnyPost(node)
                }

                /// `.named` for `PromiseContext` (written, or `PromiseContext.x` without a type),
                /// the kind for `PromiseContext.Main` or `PromiseContext.CallerIsolated`.
                private func declaredKind(_ binding: PatternBindingSyntax) -> ContextKind? {
                    if let type = binding.typeAnnotation?.type.trimmedDescription {
                        if contexts.aliases.contains(type) { return .named }
                        for alias in contexts.aliases where alias != "Self" {
                            if type == alias + ".Main" { return .mainActor }
                            if type == alias + ".CallerIsolated" { return .callerIsolated }
                        }
                        return nil
                    }
                    guard let value = binding.initializer?.value, contexts.isContextExpression(value) else { return nil }
                    return .named
                }

                /// No accessors, or only observers.
                private func isStored(_ binding: PatternBindingSyntax) -> Bool {
                    guard let accessors = binding.accessorBlock else { return true }
                    guard case .accessors(let list) = accessors.accessors else { return false }
                    return list.allSatisfy { ["willSet", "didSet"].contains($0.accessorSpecifier.text) }
                }
            }
            var fixedNames: Set<String> = []
            var explicitInits: Set<String> = []
            var found: [Declaration] = []
            for file in set.files {
                let collector = Collector(contexts: contexts, path: file.path, module: file.module)
                collector.walk(file.tree)
                found += collector.found
                fixedNames.formUnion(collector.fixedNames)
                explicitInits.formUnion(collector.explicitInits.map { file.module + "\u{0}" + $0 })
                for name in collector.names { declarationCounts[file.module, default: [:]][name, default: 0] += 1 }
                typeMembers[file.module, default: [:]].merge(collector.typeMembers) { $0.union($1) }
            }
            for declaration in found {
                var fixed = declaration.fixedBecause
                if let reason = fixed, reason.hasPrefix("memberwise:") {
                    fixed = explicitInits.contains(declaration.key.module + "\u{0}" + reason.dropFirst("memberwise:".count))
                        ? nil : "the struct's memberwise initializer takes it, with any context"
                }
                if fixed == nil, fixedNames.contains(declaration.key.name) {
                    fixed = "a protocol requirement or an override has its name"
                }
                // The same property declared twice in one module (`#if` branches): neither is retyped.
                if declarations[declaration.key] != nil { fixed = "it is declared more than once" }
                declarations[declaration.key] = Declaration(
                    key: declaration.key, path: declaration.path, variable: declaration.variable, binding: declaration.binding,
                    declaredKind: declaration.declaredKind, fixedBecause: fixed
                )
            }
        }

        /// The property `expression` names at `node` in a file of `module` (`delivery`,
        /// `self.delivery`, `Self.delivery`, `Screen.delivery`), with `types` the enclosing
        /// types, innermost last, and `isStatic` whether the code is in a static member: one of
        /// that module's (another module's are not retyped: only public ones are visible there,
        /// and those are listed).
        func property(_ expression: ExprSyntax, at node: Syntax, module: String, types: [String], isStatic: Bool) -> Declaration? {
            func key(_ type: String?, _ name: String, _ isStatic: Bool) -> Key { Key(module: module, type: type, name: name, isStatic: isStatic) }
            if let reference = expression.as(DeclReferenceExprSyntax.self), reference.argumentNames == nil {
                let name = reference.baseName.text
                guard !Scopes.isShadowed(name, at: node) else { return nil }
                for type in types.reversed() {
                    if let found = declarations[key(type, name, isStatic)] { return found }
                    if typeMembers[module]?[type]?.contains(name) == true { return nil } // another property of that name
                }
                return declarations[key(nil, name, false)]
            }
            guard let member = expression.as(MemberAccessExprSyntax.self), let base = member.base?.trimmedDescription,
                  member.declName.argumentNames == nil else { return nil }
            let name = member.declName.baseName.text
            if base == "self" { return types.last.flatMap { declarations[key($0, name, isStatic)] } }
            if base == "Self" { return types.last.flatMap { declarations[key($0, name, true)] } }
            if let found = declarations[key(base, name, true)] { return found }
            // `screen.delivery`, where `screen` is declared with its type (or `= Screen(…)`).
            if let baseExpression = member.base, let type = UnappliedReferences.declaredTypeSyntax(of: baseExpression, at: node),
               let typeName = type.as(IdentifierTypeSyntax.self)?.name.text {
                return declarations[key(typeName, name, false)]
            }
            return nil
        }
    }

    /// A closure (or a method passed by name) given a property as its context, in code where
    /// a value's closure cannot use the state it uses.
    struct Use {
        let path: String
        let line: Int
        /// "a closure given `on: delivery` uses `self` of `Screen`".
        let what: String
        /// Whether a main-actor closure may do what it does here (main-actor code, or a
        /// main-actor method).
        let mainActorWorks: Bool
        /// A method (or function) passed by name, not a closure.
        var isMethod = false
        /// For a method: whether it is an actor's (not a global actor's).
        var isActorMethod = false
    }

    /// Retypes each property that `uses` name when every value it can hold is of one kind of
    /// context, and writes the notes of the uses that stay errors (with the reason).
    static func resolve(
        _ uses: [Key: [Use]], index: Index, set: SourceSet, contexts: CustomContexts
    ) -> (edits: [String: [TextEdit]], notes: [MigrationNote]) {
        var edits: [String: [TextEdit]] = [:]
        var notes: [MigrationNote] = []
        let references = References.find(Set(uses.keys), index: index, in: set, contexts: contexts)
        for (key, uses) in uses {
            guard let declaration = index.declarations[key] else { continue }
            let found = references[key] ?? References.Found()
            switch plan(declaration, found, contexts: contexts) {
            case .failure(let refusal):
                for use in uses {
                    notes.append(note(use, reason: (use.isMethod ? methodReason(kind: nil, actor: use.isActorMethod) : valueReason)
                        + "; `\(key.name)` keeps its type: \(refusal.reason)"))
                }
            case .success(let plan):
                for edit in plan.edits { edits[edit.path, default: []].append(edit.edit) }
                for use in uses where plan.kind == .mainActor && !use.mainActorWorks {
                    notes.append(note(use, reason: "`\(key.name)` holds only the main queue and is now `PromiseContext.Main`: "
                        + (use.isMethod ? methodReason(kind: .mainActor, actor: use.isActorMethod) : mainOffActorReason)))
                }
            }
        }
        return (edits, notes)
    }

    /// The reason for a closure given a context value.
    static let valueReason = "the closure is nonisolated and runs on the context the value holds, as in 1.x: if that is a queue, touching "
        + "the actor's state there was a data race, and the compiler now rejects it; if it is `.main` in main-actor code, "
        + "declare the value `PromiseContext.Main` (its closure then runs on the main actor)"
    /// The reason for a main-actor closure in another actor's code.
    static let mainOffActorReason = "the closure is isolated to the main actor and runs on the main queue, as in 1.x: touching this actor's "
        + "state there was a data race, and the compiler now rejects it"

    /// The reason for an actor-isolated method passed by name with a context of `kind` (nil:
    /// named, or a value); `actor`: whether it is an actor's (not a global actor's) method.
    static func methodReason(kind: ContextKind?, actor: Bool) -> String {
        let verdict = actor
            ? "the compiler accepts it, so the race remains"
            : "the compiler now rejects it (Swift 5 mode: a warning, and it still runs there)"
        return kind == .mainActor
            ? "a callback given `.main` runs on the main actor, not on the method's actor, as in 1.x (a data race); " + verdict
            : "a callback given a named context or a context value is nonisolated and runs there, as in 1.x, where the method ran "
                + "off its actor (a data race); " + verdict
    }

    /// The note for a use left as it is: "<what>, which is isolated to an actor; <reason>. Left as it is: …".
    static func note(_ use: Use, reason: String) -> MigrationNote {
        if use.isMethod {
            return MigrationNote(
                path: use.path, line: use.line,
                message: "\(use.what); \(reason). Left as it is: move that access to a following `.then { }` (no context: runs on the "
                    + "actor), pass `.main` if it needs the main actor, or mark the method `nonisolated` if it touches no actor state"
            )
        }
        // `.main` is advice only where the main actor is the one whose state the closure uses.
        return MigrationNote(
            path: use.path, line: use.line,
            message: "\(use.what), which is isolated to an actor; \(reason). "
                + "Left as it is: move that access to a following `.then { }` (no context: runs on the actor)"
                + (use.mainActorWorks ? ", or pass `.main`" : "")
        )
    }

    private struct Plan {
        let kind: ContextKind
        let edits: [(path: String, edit: TextEdit)]
    }

    private struct Refusal: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The edits that give `declaration` the type of the one kind its values have, or why not.
    private static func plan(_ declaration: Declaration, _ found: References.Found, contexts: CustomContexts) -> Result<Plan, Refusal> {
        guard declaration.declaredKind == .named else { return .failure(Refusal("it is declared with a kind already")) }
        if let reason = declaration.fixedBecause { return .failure(Refusal(reason)) }
        if let unknown = found.unknown { return .failure(Refusal(unknown)) }
        var values: [(path: String, value: [ExprSyntax], line: Int)] = found.assignments
        if let initial = declaration.binding.initializer?.value {
            values.insert((declaration.path, [initial], 0), at: 0)
        }
        guard !values.isEmpty else { return .failure(Refusal("its value is set where adopt cannot see it")) }
        var kinds = Set<String>()
        var kind: ContextKind?
        var edits: [(path: String, edit: TextEdit)] = []
        for value in values {
            guard let leaves = contexts.isolatedLeaves(of: value.value) else {
                let place = value.line > 0 ? " at \(value.path):\(value.line)" : ""
                let text = value.value.map(\.trimmedDescription).joined(separator: " ")
                return .failure(Refusal("it is given `\(text)`\(place), which may name a queue"))
            }
            for leaf in leaves {
                kinds.insert(leaf.kind == .mainActor ? "`.main`" : "`.auto` or `.immediate`")
                kind = leaf.kind
                if leaf.expression.trimmedDescription != leaf.spelling {
                    edits.append((value.path, TextEdit(
                        start: leaf.expression.positionAfterSkippingLeadingTrivia.utf8Offset,
                        end: leaf.expression.endPositionBeforeTrailingTrivia.utf8Offset, text: leaf.spelling
                    )))
                }
            }
        }
        guard kinds.count == 1, let kind else {
            return .failure(Refusal("it holds \(kinds.sorted().joined(separator: " and ")): no one kind of context holds both"))
        }
        if let annotation = declaration.binding.typeAnnotation {
            edits.append((declaration.path, TextEdit(
                start: annotation.type.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: annotation.type.endPositionBeforeTrailingTrivia.utf8Offset, text: kind.typeName
            )))
        } else {
            edits.append((declaration.path, .insert(": \(kind.typeName)", at: declaration.binding.pattern.endPositionBeforeTrailingTrivia)))
        }
        // Where a `PromiseContext` is wanted, the value it holds.
        for reference in found.asValue {
            edits.append((reference.path, .insert(".context", at: reference.expression.endPositionBeforeTrailingTrivia)))
        }
        return .success(Plan(kind: kind, edits: edits))
    }
}

extension CustomContexts {
    /// The values `expression` can be (one, or each branch of a ternary) when each is a context
    /// that keeps an actor, with its kind and its spelling as an implicit member (`.main` for
    /// `PromiseContext.main`, `.ui` for a custom context holding `.main`); nil when one of them
    /// may name a queue or is not known.
    func isolatedLeaves(of elements: [ExprSyntax]) -> [(expression: ExprSyntax, kind: ContextKind, spelling: String)]? {
        guard elements.count > 1 else { return elements.first.flatMap(isolatedLeaves(of:)) }
        guard let leaves = ContextArguments.ternaryLeaves(elements) else { return nil }
        var all: [(expression: ExprSyntax, kind: ContextKind, spelling: String)] = []
        for leaf in leaves {
            guard let found = isolatedLeaves(of: leaf), found.count == 1 else { return nil }
            all += found
        }
        return all
    }

    func isolatedLeaves(of expression: ExprSyntax) -> [(expression: ExprSyntax, kind: ContextKind, spelling: String)]? {
        let expression = ContextArguments.unparenthesized(expression)
        if let sequence = expression.as(SequenceExprSyntax.self) {
            guard let leaves = ContextArguments.ternaryLeaves(sequence) else { return nil }
            var all: [(expression: ExprSyntax, kind: ContextKind, spelling: String)] = []
            for leaf in leaves {
                guard let found = isolatedLeaves(of: leaf), found.count == 1 else { return nil }
                all += found
            }
            return all
        }
        guard let (kind, spelling) = isolatedSpelling(of: expression) else { return nil }
        return [(expression, kind, spelling)]
    }

    /// `.main`, `.auto`, `.immediate`, a custom context holding one of them, or `.nowOr` of
    /// one, with or without `PromiseContext` in front: its kind and implicit-member spelling.
    private func isolatedSpelling(of expression: ExprSyntax) -> (ContextKind, String)? {
        let expression = ContextArguments.unparenthesized(expression)
        if let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
           member.declName.baseName.text == "nowOr", member.base.map({ aliases.contains($0.trimmedDescription) }) ?? true,
           call.arguments.count == 1, let argument = call.arguments.first, argument.label == nil, call.trailingClosure == nil,
           let (kind, inner) = isolatedSpelling(of: argument.expression) {
            return (kind, ".nowOr(\(inner))")
        }
        guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.argumentNames == nil,
              member.base.map({ aliases.contains($0.trimmedDescription) && $0.trimmedDescription != "Self" }) ?? true else { return nil }
        let name = member.declName.baseName.text
        if let builtIn = ContextKind.builtIn[name] { return builtIn.isIsolated ? (builtIn, "." + name) : nil }
        if let custom = byName[name], custom.callerIsolatedValue != nil, custom.kind.isIsolated { return (custom.kind, "." + name) }
        return nil
    }
}

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

    static func find(
        _ keys: Set<ContextProperties.Key>, index: ContextProperties.Index, in set: SourceSet, contexts: CustomContexts
    ) -> [ContextProperties.Key: Found] {
        final class Finder: TypeTrackingVisitor {
            let keys: Set<ContextProperties.Key>
            let names: Set<String>
            let index: ContextProperties.Index
            let file: ParsedFile
            var found: [ContextProperties.Key: Found] = [:]
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
                let name = reference.baseName.text
                var expression = ExprSyntax(reference)
                let module = file.module
                var key: ContextProperties.Key?
                if let member = node.parent?.as(MemberAccessExprSyntax.self), member.declName.id == reference.id {
                    guard let base = member.base?.trimmedDescription else { return result } // `.delivery`: another type's
                    expression = ExprSyntax(member)
                    let isStatic = statics.last ?? false
                    if base == "self" {
                        key = types.last.map { .init(module: module, type: $0.name, name: name, isStatic: isStatic) }
                    } else if base == "Self" {
                        key = types.last.map { .init(module: module, type: $0.name, name: name, isStatic: true) }
                    } else if keys.contains(.init(module: module, type: base, name: name, isStatic: true)) {
                        key = .init(module: module, type: base, name: name, isStatic: true)
                    } else if let only = keys.first(where: { $0.module == module && $0.name == name }),
                              index.declarationCounts[module]?[name] == 1, !only.isStatic {
                        key = only // `screen.delivery`: the only property of that name
                    } else if let resolved = index.property(expression, at: node, module: module, types: types.map(\.name), isStatic: isStatic) {
                        key = resolved.key // `screen.delivery`, `screen` declared with its type
                    } else if let candidate = keys.first(where: { $0.module == module && $0.name == name && !$0.isStatic }) {
                        // Another type's property of that name, or this one: fine where either kind is.
                        if !isContextArgument(Self.outermost(Syntax(member))) {
                            found[candidate, default: Found()].unknown = found[candidate]?.unknown
                                ?? "`\(member.trimmedDescription)` at \(file.path):\(file.line(of: member)) may name it"
                        }
                        return result
                    }
                } else {
                    key = index.property(expression, at: node, module: module, types: types.map(\.name), isStatic: statics.last ?? false)?.key
                }
                guard let key, keys.contains(key) else { return result }
                classify(expression, key: key)
                return result
            }

            override func visitAnyPost(_ node: Syntax) {
                if Self.memberModifiers(node) != nil { statics.removeLast() }
                super.visitAnyPost(node)
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
                        found[key, default: Found()].assignments.append((file.path, Array(elements.dropFirst(2)), file.line(of: elements[2])))
                        return
                    }
                    if elements.count >= 2, elements[0].id == outer.id, let operation = elements[1].as(BinaryOperatorExprSyntax.self),
                       operation.operator.text.hasSuffix("="), !["==", "!=", "<=", ">=", "==="].contains(operation.operator.text) {
                        found[key, default: Found()].unknown = "it is assigned at \(file.path):\(file.line(of: expression))"
                        return
                    }
                }
                if outer.parent?.is(InOutExprSyntax.self) == true || outer.parent?.is(KeyPathComponentSyntax.self) == true {
                    found[key, default: Found()].unknown = "it is passed `inout` at \(file.path):\(file.line(of: expression))"
                    return
                }
                if isContextArgument(outer) { return }
                found[key, default: Found()].asValue.append((file.path, expression))
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
        var found: [ContextProperties.Key: Found] = [:]
        for file in set.files {
            let finder = Finder(keys: keys, index: index, file: file)
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

/// Names declared in the scopes around a node.
enum Scopes {
    /// Whether `name` at `node` names a local variable, a parameter or a closure parameter
    /// rather than a member or a top-level declaration.
    static func isShadowed(_ name: String, at node: Syntax) -> Bool {
        func binds(_ pattern: PatternSyntax) -> Bool {
            pattern.tokens(viewMode: .sourceAccurate).contains { $0.tokenKind == .identifier(name) }
        }
        func conditionsBind(_ conditions: ConditionElementListSyntax) -> Bool {
            conditions.contains { element in
                if let binding = element.condition.as(OptionalBindingConditionSyntax.self) { return binds(binding.pattern) }
                if let matching = element.condition.as(MatchingPatternConditionSyntax.self) { return binds(matching.pattern) }
                return false
            }
        }
        var current = node.parent
        var child = node
        while let here = current {
            if let block = here.as(CodeBlockItemListSyntax.self) {
                for item in block where item.position < node.position {
                    if let variable = item.item.as(VariableDeclSyntax.self), variable.bindings.contains(where: { binds($0.pattern) }) { return true }
                    if let guardStatement = item.item.as(GuardStmtSyntax.self), conditionsBind(guardStatement.conditions) { return true }
                    if let function = item.item.as(FunctionDeclSyntax.self), function.name.text == name { return true }
                }
            } else if let ifExpression = here.as(IfExprSyntax.self), child.id == ifExpression.body.id, conditionsBind(ifExpression.conditions) {
                return true
            } else if let whileStatement = here.as(WhileStmtSyntax.self), conditionsBind(whileStatement.conditions) {
                return true
            } else if let loop = here.as(ForStmtSyntax.self), child.id == loop.body.id, binds(loop.pattern) {
                return true
            } else if let closure = here.as(ClosureExprSyntax.self), let signature = closure.signature {
                if let parameters = signature.parameterClause {
                    if parameters.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .identifier(name) }) { return true }
                }
            } else if let function = here.as(FunctionDeclSyntax.self) {
                if function.signature.parameterClause.parameters.contains(where: { ($0.secondName ?? $0.firstName).text == name }) { return true }
            } else if let initializer = here.as(InitializerDeclSyntax.self) {
                if initializer.signature.parameterClause.parameters.contains(where: { ($0.secondName ?? $0.firstName).text == name }) { return true }
            } else if let accessor = here.as(AccessorDeclSyntax.self) {
                let implicit = ["set": "newValue", "willSet": "newValue", "didSet": "oldValue"][accessor.accessorSpecifier.text]
                if accessor.parameters?.name.text == name || (accessor.parameters == nil && implicit == name) { return true }
            } else if let clause = here.as(SwitchCaseSyntax.self), case .case(let label) = clause.label {
                if label.caseItems.contains(where: { binds($0.pattern) }) { return true }
            } else if here.is(MemberBlockSyntax.self) || here.is(SourceFileSyntax.self) {
                return false
            }
            child = here
            current = here.parent
        }
        return false
    }
}
