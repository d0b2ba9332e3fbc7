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
}

/// A stored `PromiseContext` property (instance, static or top-level, not public) given to a
/// closure that a value's closure cannot be, whose every value in the set is `.main`-like (or
/// every one `.auto`/`.immediate`-like), becomes `PromiseContext.Main` (`.CallerIsolated`);
/// where a `PromiseContext` is wanted, its `.context` is passed. Declines (a note for each use)
/// when a value may name a queue, the property is public API, or adopt cannot see every value.
struct ContextPropertyAction: MigrationAction {
    /// A property and the closures (methods) given it, from every file.
    typealias Site = (key: ContextProperties.Key, uses: [ContextProperties.Use])

    /// What the precondition found: the kind every value has, and the values respelled as
    /// that kind's implicit members.
    struct Facts {
        let declaration: ContextProperties.Declaration
        let found: References.Found
        let kind: ContextKind
        let valueEdits: [(path: String, edit: TextEdit)]
    }

    /// The edits that retype the property, and the notes of the uses that stay errors.
    struct Retyping {
        let edits: [(path: String, edit: TextEdit)]
        let notes: [MigrationNote]
    }

    let index: ContextProperties.Index
    let contexts: CustomContexts
    /// Where the properties are referenced in the set.
    let references: [ContextProperties.Key: References.Found]

    /// The action for the properties `uses` names, with their references in `set`.
    init(index: ContextProperties.Index, set: SourceSet, contexts: CustomContexts, uses: [ContextProperties.Key: [ContextProperties.Use]]) {
        (self.index, self.contexts) = (index, contexts)
        references = References.find(Set(uses.keys), index: index, in: set, contexts: contexts)
    }

    /// Holds when the property is declared in the set as a `PromiseContext`, can be retyped,
    /// and every value it is given is of one kind that keeps an actor.
    func precondition(_ site: Site) -> Outcome<Facts> {
        guard let declaration = index.declarations[site.key] else { return .notApplicable }
        let found = references[site.key] ?? References.Found()
        return Self.values(of: declaration, found).then { values in
            oneKind(values).map { Facts(declaration: declaration, found: found, kind: $0.kind, valueEdits: $0.edits) }
        }
    }

    /// The values given the property (its initial value first); declines when it cannot be
    /// retyped whatever they are, or when some are set where adopt cannot see them.
    private static func values(
        of declaration: ContextProperties.Declaration, _ found: References.Found
    ) -> Outcome<[(path: String, value: [ExprSyntax], line: Int)]> {
        guard declaration.declaredKind == .named else { return .declines(SkipReason("it is declared with a kind already")) }
        if let reason = declaration.fixedBecause { return .declines(SkipReason(reason)) }
        if let unknown = found.unknown { return .declines(SkipReason(unknown)) }
        var values = found.assignments
        if let initial = declaration.binding.initializer?.value {
            values.insert((declaration.path, [initial], 0), at: 0)
        }
        guard !values.isEmpty else { return .declines(SkipReason("its value is set where adopt cannot see it")) }
        return .holds(values)
    }

    /// The one kind of context every value is, with the edits that spell each as that kind's
    /// implicit member; declines when a value may name a queue or the kinds differ.
    private func oneKind(
        _ values: [(path: String, value: [ExprSyntax], line: Int)]
    ) -> Outcome<(kind: ContextKind, edits: [(path: String, edit: TextEdit)])> {
        var kinds = Set<String>()
        var kind: ContextKind?
        var edits: [(path: String, edit: TextEdit)] = []
        for value in values {
            guard let leaves = contexts.isolatedLeaves(of: value.value) else {
                let place = value.line > 0 ? " at \(value.path):\(value.line)" : ""
                let text = value.value.map(\.trimmedDescription).joined(separator: " ")
                return .declines(SkipReason("it is given `\(text)`\(place), which may name a queue"))
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
            return .declines(SkipReason("it holds \(kinds.sorted().joined(separator: " and ")): no one kind of context holds both"))
        }
        return .holds((kind, edits))
    }

    /// The values respelled, the declaration given the kind's type, `.context` where a
    /// `PromiseContext` is wanted; a note for each use a main-actor closure cannot make.
    func edit(_ site: Site, _ facts: Facts) -> Outcome<Retyping> {
        let declaration = facts.declaration
        var edits = facts.valueEdits
        if let annotation = declaration.binding.typeAnnotation {
            edits.append((declaration.path, TextEdit(
                start: annotation.type.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: annotation.type.endPositionBeforeTrailingTrivia.utf8Offset, text: facts.kind.typeName
            )))
        } else {
            edits.append((declaration.path, .insert(": \(facts.kind.typeName)", at: declaration.binding.pattern.endPositionBeforeTrailingTrivia)))
        }
        // Where a `PromiseContext` is wanted, the value it holds.
        for reference in facts.found.asValue {
            edits.append((reference.path, .insert(".context", at: reference.expression.endPositionBeforeTrailingTrivia)))
        }
        let notes = site.uses.filter { facts.kind == .mainActor && !$0.mainActorWorks }.map { use in
            ContextProperties.note(use, reason: "`\(site.key.name)` holds only the main queue and is now `PromiseContext.Main`: "
                + (use.isMethod ? ContextProperties.methodReason(kind: .mainActor, actor: use.isActorMethod) : ContextProperties.mainOffActorReason))
        }
        return .holds(Retyping(edits: edits, notes: notes))
    }

    /// The notes of a property that keeps its type: one for each use, with the reason.
    static func notes(_ site: Site, keepingBecause reason: SkipReason) -> [MigrationNote] {
        site.uses.map { use in
            let why = use.isMethod ? ContextProperties.methodReason(kind: nil, actor: use.isActorMethod) : ContextProperties.valueReason
            return ContextProperties.note(use, reason: why + "; `\(site.key.name)` keeps its type: \(reason.text)")
        }
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

