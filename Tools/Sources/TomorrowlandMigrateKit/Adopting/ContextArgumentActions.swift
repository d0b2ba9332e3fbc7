// What `adopt` does with a context argument (ContextArgumentSite.swift): each edit an action
// with its precondition, and `ContextArgumentActions.apply` the loop over them for one call.

import SwiftSyntax

/// What a call's context argument is: its kind when the closure's overload is known from it,
/// or a value (`PromiseContext`, whose closure is nonisolated).
struct ContextReading {
    /// The kind of the overload the call picks; nil when it is a value or not known.
    var kind: ContextKind?
    /// Whether the argument is a `PromiseContext` value.
    var isValue = false
    /// The stored property the value is, when it is one of the set's.
    var property: ContextProperties.Declaration?
    /// How the notes name the argument: "on: delivery", "no context".
    let context: String

    /// The reading of `site`'s argument; with no argument, the caller's actor where a closure
    /// stored for later loses it (a stored property's initializer), else nil.
    init?(_ site: ContextArgumentSite, contexts: CustomContexts, properties: ContextProperties.Index) {
        if let argument = site.argument {
            context = "on: \(argument.expression.trimmedDescription)"
            read(ContextArguments.unparenthesized(argument.expression), at: site, contexts: contexts, properties: properties)
        } else {
            guard site.member?.valueOfProperty != nil, site.isNoContextCallback else { return nil }
            (context, kind) = ("no context", .callerIsolated)
        }
    }

    /// Reads `expression`: a ternary, an implicit member, a parameter of a kind, a stored
    /// property of the set, else a value.
    private mutating func read(_ expression: ExprSyntax, at site: ContextArgumentSite, contexts: CustomContexts, properties: ContextProperties.Index) {
        if let leaves = TypedTernaryAction.leaves(of: expression) {
            readTernary(leaves, contexts: contexts)
        } else if ContextArguments.isImplicitMember(expression) {
            kind = contexts.kind(ofImplicitMember: expression)
        } else if let parameterKind = site.kindOfParameter(expression) {
            kind = parameterKind
        } else if let declared = properties.property(
            expression, at: Syntax(site.call), module: site.file.module, types: site.types.map(\.name), isStatic: site.isStatic
        ) {
            if declared.declaredKind == .named { (isValue, property) = (true, declared) } else { kind = declared.declaredKind }
        } else {
            isValue = true
        }
    }

    /// A ternary is a value when it mixes kinds (`TypedTernaryAction` spells it so) or has a
    /// leaf that is not an implicit member (`flag ? .main : someContext`); of one kind when all
    /// its leaves are.
    private mutating func readTernary(_ leaves: [ExprSyntax], contexts: CustomContexts) {
        let kinds = leaves.map(contexts.kind(ofImplicitMember:))
        if TypedTernaryAction.mixesKinds(kinds) {
            isValue = true
        } else if !leaves.allSatisfy(ContextArguments.isImplicitMember) {
            isValue = true
        } else if let uniform = kinds.first ?? nil, kinds.allSatisfy({ $0 == uniform }) {
            kind = uniform
        }
    }
}

/// `flag ? .immediate : .utility` has no type both members belong to: spelled
/// `flag ? PromiseContext.immediate : .utility`, it is a `PromiseContext` value, whose closure
/// is nonisolated and runs on the context it holds, as in 1.x. Never declines.
struct TypedTernaryAction: MigrationAction {
    let contexts: CustomContexts

    /// Holds (with the first leaf) when the `on:` argument is a ternary (or `.nowOr` of one)
    /// whose leaves are implicit members of known kinds, of more than one kind.
    func precondition(_ site: ContextArgumentSite) -> Outcome<ExprSyntax> {
        guard let argument = site.argument, let leaves = Self.leaves(of: ContextArguments.unparenthesized(argument.expression)),
              Self.mixesKinds(leaves.map(contexts.kind(ofImplicitMember:))), let first = leaves.first else { return .notApplicable }
        return .holds(first)
    }

    /// `PromiseContext` before the first leaf.
    func edit(_ site: ContextArgumentSite, _ first: ExprSyntax) -> Outcome<TextEdit> {
        .holds(.insert("PromiseContext", at: first.positionAfterSkippingLeadingTrivia))
    }

    /// The leaves of the ternary `expression` is or is given to (`.nowOr(…)`); nil if none.
    static func leaves(of expression: ExprSyntax) -> [ExprSyntax]? {
        ContextArguments.ternary(in: expression).flatMap(ContextArguments.ternaryLeaves)
    }

    /// Whether every leaf has a known kind and they are not all of one.
    static func mixesKinds(_ kinds: [ContextKind?]) -> Bool {
        kinds.allSatisfy { $0 != nil } && Set(kinds.compactMap { $0 }.map(\.typeName)).count > 1
    }
}

/// A closure given to a call in a stored property's initializer.
struct StoredClosureSite {
    let site: ContextArgumentSite
    let closure: ClosureExprSyntax
    /// How the note names the argument (`ContextReading.context`).
    let context: String
}

/// In a stored property's initializer (a `lazy var`'s too), a closure that keeps the caller's
/// actor does not get the type's actor in Swift 6 mode: there it is nonisolated, and using the
/// actor's state from it does not compile. A main-actor (global-actor) type's closure gets the
/// attribute; an actor's is listed (the decline).
struct MainActorClosureAction: MigrationAction {
    /// Holds (with the attribute) for a closure in a stored property's initializer of isolated
    /// code, not inside another callback's closure, that uses the actor's state and has no
    /// actor attribute; declines when the actor is an actor type's.
    func precondition(_ stored: StoredClosureSite) -> Outcome<String> {
        let site = stored.site
        guard let property = site.member?.valueOfProperty, let domain = site.domain, !site.isInCallbackClosure,
              site.usesActorState(stored.closure), !site.hasActorAttribute(stored.closure) else { return .notApplicable }
        switch domain {
        case .mainActor: return .holds("@MainActor")
        case .globalActor(let name): return .holds("@" + name)
        case .actor:
            let container = site.types.last.map { "`\($0.name)`" } ?? "this actor"
            return .declines(SkipReason(
                "a closure given `\(stored.context)` in the initializer of `\(property)` uses `self` of \(container), which is an "
                    + "actor; in Swift 6 mode a closure in a stored property's initializer does not take on the actor, so using its "
                    + "state there does not compile. Left as it is: make the property's value a method's "
                    + "(`lazy var \(property) = make()`), whose closures keep the actor"
            ))
        }
    }

    /// The attribute before the closure's signature, or `@MainActor in` after its brace.
    func edit(_ stored: StoredClosureSite, _ attribute: String) -> Outcome<TextEdit> {
        if let signature = stored.closure.signature {
            return .holds(.insert(attribute + " ", at: signature.positionAfterSkippingLeadingTrivia))
        }
        return .holds(.insert(" \(attribute) in", at: stored.closure.leftBrace.endPositionBeforeTrailingTrivia))
    }
}

/// A call in isolated code whose closures (or method passed by name) use an actor's state
/// while the context runs them elsewhere.
struct ArgumentUses {
    let site: ContextArgumentSite
    let reading: ContextReading
    /// The closures that use the actor's state.
    let closures: [ClosureExprSyntax]
    /// The actor-isolated method passed by name.
    let method: ContextArgumentSite.IsolatedReference?

    /// The uses of `site` read as `reading`; nil when nothing given to it uses an actor's
    /// state off that actor.
    init?(_ site: ContextArgumentSite, reading: ContextReading) {
        let kind = reading.kind
        // `.main` in an actor's code (or another global actor's): a main-actor closure, run on
        // the main queue as in 1.x, where touching this actor's state was a data race.
        let onMainOffActor = kind == .mainActor && site.isIsolated && !site.isMainActorIsolated
        let offActor = kind == .named || reading.isValue || onMainOffActor
        closures = offActor && site.isIsolated ? ContextArguments.closures(of: site.call).filter(site.usesActorState) : []
        method = site.isolatedReference().flatMap { method in
            kind == .named || reading.isValue || (kind == .mainActor && method.domain != .mainActor) ? method : nil
        }
        guard !closures.isEmpty || method != nil else { return nil }
        (self.site, self.reading) = (site, reading)
    }

    /// Each closure, then the method, as a use the notes (or a property's retyping) speak of.
    var races: [RaceSite] {
        let file = site.file
        let container = site.types.last.map { "`\($0.name)`" } ?? "this function"
        let closureUses: [ContextProperties.Use] = closures.map { closure in
            let what = ContextArguments.usesSelf(closure) ? "uses `self` of \(container)" : "uses the state of \(container)"
            return .init(
                path: file.path, line: file.line(of: closure), what: "a closure given `\(reading.context)` \(what)",
                mainActorWorks: site.isMainActorIsolated
            )
        }
        let methodUse = method.map { method in
            ContextProperties.Use(
                path: file.path, line: file.line(of: method.expression),
                what: "`\(method.expression.trimmedDescription)`, given `\(reading.context)`, \(method.description)",
                mainActorWorks: method.domain == .mainActor, isMethod: true, isActorMethod: ContextArguments.isActorDomain(method.domain)
            )
        }
        return (closureUses + [methodUse].compactMap { $0 }).map { RaceSite(use: $0, kind: reading.kind, isValue: reading.isValue) }
    }
}

/// `PromiseContext.main` is a value: its closure is nonisolated, so using the main actor's
/// state there no longer compiles, though in 1.x it ran on the main queue. `.main` gives a
/// main-actor closure and still runs on the main queue. Never declines (in an actor such a
/// closure touched the actor's state from the main queue: `RaceListingAction` lists it).
struct MainContextAction: MigrationAction {
    let contexts: CustomContexts

    /// Holds (with the `PromiseContext` to delete) in main-actor code whose argument is
    /// `PromiseContext.main` (`.auto`, `.nowOr(.main)`, a custom context holding one), when
    /// the method passed, if any, is the main actor's.
    func precondition(_ uses: ArgumentUses) -> Outcome<ExprSyntax> {
        guard uses.site.isMainActorIsolated, let argument = uses.site.argument,
              let base = contexts.mainQueueBase(of: ContextArguments.unparenthesized(argument.expression)),
              uses.method.map({ $0.domain == .mainActor }) ?? true else { return .notApplicable }
        return .holds(base)
    }

    /// The base deleted: `PromiseContext.main` → `.main`.
    func edit(_ uses: ArgumentUses, _ base: ExprSyntax) -> Outcome<TextEdit> {
        .holds(TextEdit(start: base.positionAfterSkippingLeadingTrivia.utf8Offset, end: base.endPositionBeforeTrailingTrivia.utf8Offset, text: ""))
    }
}

/// A closure or a method passed by name that runs off the actor whose state it uses.
struct RaceSite {
    let use: ContextProperties.Use
    /// The kind of the context it is given (nil: a value, or not known).
    let kind: ContextKind?
    /// Whether the context is a `PromiseContext` value.
    let isValue: Bool
}

/// The listing of a race `adopt` cannot fix: a check with no edit. Its precondition always
/// declines with the reason the user reads (the note says what to do by hand).
struct RaceListingAction: MigrationAction {
    /// Declines: the closure (method) runs where 1.x ran it, off the actor whose state it uses.
    func precondition(_ race: RaceSite) -> Outcome<Never> {
        if race.use.isMethod {
            return .declines(SkipReason(ContextProperties.methodReason(kind: race.kind, actor: race.use.isActorMethod)))
        }
        let reason = race.kind == .mainActor
            ? ContextProperties.mainOffActorReason
            : race.isValue ? ContextProperties.valueReason
            : "the closure is nonisolated and runs on that context, as in 1.x: touching the actor's state there was a data race, "
                + "and the compiler now rejects it"
        return .declines(SkipReason(reason))
    }

    /// Never called: the precondition never holds.
    func edit(_ race: RaceSite, _ facts: Never) -> Outcome<Never> {}
}

/// The actions for the context arguments of a set, and the loop over them for one call.
struct ContextArgumentActions {
    let contexts: CustomContexts
    let properties: ContextProperties.Index

    /// What the actions make of `site`: edits and notes into `output`, and the uses of a
    /// stored property, whose retyping waits for every file (`ContextPropertyAction`).
    func apply(to site: ContextArgumentSite, into output: inout AdoptOutput) {
        let path = site.file.path
        if let edit = TypedTernaryAction(contexts: contexts).apply(to: site).value { output.edits[path, default: []].append(edit) }
        guard let reading = ContextReading(site, contexts: contexts, properties: properties) else { return }
        if reading.kind == .callerIsolated {
            for closure in ContextArguments.closures(of: site.call) {
                let stored = StoredClosureSite(site: site, closure: closure, context: reading.context)
                switch MainActorClosureAction().apply(to: stored) {
                case .holds(let edit): output.edits[path, default: []].append(edit)
                case .declines(let reason): output.notes.append(MigrationNote(path: path, line: site.file.line(of: closure), message: reason.text))
                case .notApplicable: break
                }
            }
            return
        }
        guard let uses = ArgumentUses(site, reading: reading) else { return }
        if let edit = MainContextAction(contexts: contexts).apply(to: uses).value {
            output.edits[path, default: []].append(edit)
            return
        }
        if reading.isValue, let property = reading.property {
            output.propertyUses[property.key, default: []] += uses.races.map(\.use)
            return
        }
        for race in uses.races {
            if let reason = RaceListingAction().apply(to: race).reason { output.notes.append(ContextProperties.note(race.use, reason: reason.text)) }
        }
    }
}
