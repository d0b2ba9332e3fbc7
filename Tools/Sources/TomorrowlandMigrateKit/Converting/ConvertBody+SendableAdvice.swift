// `convert-body`'s advice for its most common reason to leave a chain: the wrapper's Task would
// capture a `self` or parameter not known to be `Sendable`. The rule stays; what the user can do
// about it is to isolate the type or make it `Sendable`, then run convert-body again. The chains
// left for that reason are grouped by the type they wait on (closure parameters as one group),
// one note each, at the type's declaration, with the fix that is true of that type as far as its
// declarations show: its stored properties, the locks and queues among them, and whether every
// use of each stored `var` is under one of them.

import SwiftSyntax

extension ConvertBody {
    /// The words of the reason (`reasonToLeave`) whose chains the advice groups.
    static let sendableReasonMarker = "is not known to be Sendable: the wrapper's Task cannot capture"

    /// Whether `note` leaves a chain only for a capture the user can fix (a type or parameter not
    /// known to be `Sendable`, a `@Sendable` closure parameter not `@escaping`): not an override
    /// without a twin, which stays a chain once that is fixed (the base has no twin).
    static func waitsOnlyOnSendable(_ note: MigrationNote) -> Bool {
        (note.message.contains(sendableReasonMarker) || note.message.contains("is not `@escaping`: the wrapper's Task cannot capture"))
            && !note.message.contains(": left as a chain: " + overrideWithoutTwinPrefix)
    }

    /// One chain left that waits on a type: its signature and place.
    struct WaitingChain {
        let signature: String
        let path: String
        let line: Int
        /// What follows the signature: the name of the closure parameter it waits on.
        var shown = ""
        /// Its chain's closures hold `self` only weakly (`[weak self]`, `[unowned self]`).
        var weakSelf = false
    }

    /// One note per type that the chains of `left` left for a non-`Sendable` capture wait on
    /// (their `self`'s type, a parameter's class or protocol of the scanned files; closure
    /// parameters not `@escaping @Sendable` as one group), most chains first. Only the chains
    /// that wait on nothing else (`waitsOnlyOnSendable`). Types not declared in
    /// the scanned files get none: the tool cannot see what would be true of them.
    static func sendableAdvice(for left: [MigrationNote], in set: SourceSet, project: Project) -> [MigrationNote] {
        var waits: [String: [WaitingChain]] = [:]
        var order: [String] = []
        var sitesByPath: [String: [FunctionSite]] = [:]
        for note in left where waitsOnlyOnSendable(note) {
            guard let file = set.files.first(where: { $0.path == note.path }) else { continue }
            let sites = sitesByPath[note.path] ?? FunctionSite.all(in: file)
            sitesByPath[note.path] = sites
            guard let site = sites.first(where: { $0.line == note.line && note.message.hasPrefix($0.signature + ": left as a chain: ") }) else {
                continue
            }
            // The groups it waits on, each with what to show after its signature (a closure parameter's name).
            var keys: [(key: String, shown: String)] = []
            if !project.selfIsSendable(in: site), let container = site.container { keys.append((Project.unqualified(container), "")) }
            let weakSelf = holdsSelfOnlyWeakly(site, project: project)
            for parameter in project.nonSendableParameters(of: site) {
                let type = parameter.type.trimmedDescription
                if type.contains("->") {
                    // An optional closure escapes already: `@escaping` is not allowed on it.
                    let optional = Project.isOptionalClosure(type) ? ", optional: `@Sendable` alone" : ""
                    keys.append((closureKey, " (`\((parameter.secondName ?? parameter.firstName).text)`\(optional))"))
                    continue
                }
                keys += project.identifiers(in: type).filter { name in
                    guard let facts = project.facts(of: name), facts.isClass || facts.isProtocol else { return false }
                    return !project.isKnownSendable(name)
                }.map { ($0, "") }
            }
            for (key, shown) in keys where waits[key]?.contains(where: { $0.path == site.file.path && $0.line == site.line }) != true {
                if waits[key] == nil { order.append(key) }
                waits[key, default: []].append(WaitingChain(
                    signature: site.signature, path: site.file.path, line: site.line, shown: shown, weakSelf: weakSelf && shown.isEmpty
                ))
            }
        }
        let sorted = order.enumerated().sorted { (waits[$0.element]!.count, -$0.offset) > (waits[$1.element]!.count, -$1.offset) }.map(\.element)
        return sorted.compactMap { key in advice(for: key, chains: waits[key]!, in: set, project: project) }
    }

    /// Whether the closures `site`'s chain passes to promise operators capture `self` only as
    /// `[weak self]` or `[unowned self]`: once `self` is Sendable its wrapper's Task holds it until
    /// the twin returns, where the chain let it go while its request was in flight.
    static func holdsSelfOnlyWeakly(_ site: FunctionSite, project: Project) -> Bool {
        guard let chain = site.decl.body?.statements.last else { return false }
        let closures = operatorClosures(in: chain, path: site.file.path, project: project)
        let members = site.container.map { instanceMembers(of: $0, in: project.set) } ?? []
        let local = declaredNames(in: site.decl)
        let weakly = closures.contains { closure in
            (closure.signature?.capture?.items ?? []).contains { item in
                let words = item.trimmedDescription.split(whereSeparator: { $0 == " " || $0 == "=" }).map(String.init)
                return words.last == "self" && words.contains { $0 == "weak" || $0.hasPrefix("unowned") }
            }
        }
        return weakly && !closures.contains { captures($0, "self", members: members, local: local) }
    }

    /// The key of the group of closure parameters not `@escaping @Sendable`.
    private static let closureKey = " closure"

    /// The note for the chains that wait on `key` (a type, or `closureKey`).
    private static func advice(for key: String, chains: [WaitingChain], in set: SourceSet, project: Project) -> MigrationNote? {
        let count = chains.count == 1 ? "1 chain left waits" : "\(chains.count) chains left wait"
        var listed: [String] = []
        var lastPath: String?
        for chain in chains.prefix(4) {
            let file = chain.path.split(separator: "/").last.map(String.init) ?? chain.path
            listed.append("`\(chain.signature)`\(chain.shown) " + (chain.path == lastPath ? ":\(chain.line)" : "\(file):\(chain.line)"))
            lastPath = chain.path
        }
        let list = listed.joined(separator: ", ") + (chains.count > 4 ? " and \(chains.count - 4) more" : "")
        let again = "; then run convert-body again"
        if key == closureKey {
            return MigrationNote(
                path: chains[0].path, line: chains[0].line,
                message: "\(count) on closure parameters not marked `@escaping @Sendable` (\(list)): mark them `@escaping @Sendable` "
                    + "(the wrapper's Task cannot capture a non-escaping closure, `@Sendable` or not; "
                    + "their callers then pass closures that capture only Sendable values)" + again
            )
        }
        guard let type = SendableShape(of: key, in: set, project: project) else { return nil }
        // A chain whose closures held `self` weakly: its wrapper will hold it (a test that drops the object sees it).
        let weak = chains.filter(\.weakSelf).map { "`\($0.signature)`" }
        let lifetime = weak.isEmpty ? "" : "; \(weak.joined(separator: ", ")) \(weak.count == 1 ? "holds" : "hold") `self` only weakly: "
            + "once it is Sendable, \(weak.count == 1 ? "its wrapper keeps" : "their wrappers keep") it alive until the work is done, "
            + "where the chain let it go"
        return MigrationNote(path: type.path, line: type.line, message: "\(count) on `\(key)` being Sendable (\(list)): \(type.fix)\(lifetime)" + again)
    }
}

/// What the declarations of one type of the scanned files show about its thread safety.
struct SendableShape {
    /// Where the type is declared (the note's place).
    let path: String
    let line: Int
    /// The fix a Swift engineer would make that is true of the type as far as the tool sees it.
    let fix: String

    /// Types whose values guard what they are used for: a `var` used only inside their
    /// `lock()` … `unlock()`, `withLock { }` or (a queue's) `sync { }` / `async { }` is guarded.
    static let lockTypes: Set<String> = [
        "NSLock", "NSRecursiveLock", "NSCondition", "NSConditionLock", "OSAllocatedUnfairLock", "Mutex", "DispatchQueue",
    ]

    /// The calls of a lock or queue whose closure runs with it held (or on it).
    static let guardingCalls: Set<String> = ["withLock", "withLockUnchecked", "sync", "async", "asyncAndWait", "withCriticalRegion"]

    /// The names `x` of the calls `x.lock()` and `x.withLock { … }`, `x.sync { … }` (`guardingCalls`) in `blocks`.
    static func lockReceivers(in blocks: [MemberBlockSyntax]) -> Set<String> {
        final class Finder: SyntaxVisitor {
            var names: Set<String> = []
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if let member = node.calledExpression.as(MemberAccessExprSyntax.self), let base = member.base,
                   SendableShape.guardingCalls.contains(member.declName.baseName.text)
                    || (member.declName.baseName.text == "lock" && node.arguments.isEmpty && node.trailingClosure == nil) {
                    names.insert(SendableShape.lockName(base))
                }
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        for block in blocks { finder.walk(block) }
        return finder.names
    }

    /// A stored instance property.
    struct Stored {
        let name: String
        let isVar: Bool
        let isPrivate: Bool
        /// The names in its type (annotation, or the called name of its initial value).
        let typeNames: [String]
    }

    /// The shape of the type named `name`, from its first declaration in `set` and the member
    /// blocks of it and its extensions; nil when `set` does not declare it.
    init?(of name: String, in set: SourceSet, project: Project) {
        var declaration: (file: ParsedFile, node: DeclSyntax)?
        var blocks: [(file: ParsedFile, block: MemberBlockSyntax)] = []
        for file in set.files {
            let finder = TypeBlockFinder(name: name)
            finder.walk(file.tree)
            if declaration == nil, let found = finder.declaration { declaration = (file, found) }
            blocks += finder.blocks.map { (file, $0) }
        }
        guard let declaration else { return nil }
        path = declaration.file.path
        line = declaration.file.line(of: declaration.node)
        if declaration.node.is(ProtocolDeclSyntax.self) {
            fix = "a protocol: declare it `: Sendable` (each conformer must then be Sendable), or isolate it to a global actor (`@MainActor`)"
        } else if let classDecl = declaration.node.as(ClassDeclSyntax.self) {
            fix = Self.classFix(of: name, classDecl, blocks: blocks, project: project)
        } else {
            fix = "a value type: declare it `Sendable` (the compiler checks its stored properties)"
        }
    }

    /// The other way out, named in every class's fix.
    static let isolate = "or isolate it (an actor, or `@MainActor`)"

    /// The fix of a class: by its stored properties (all `let`s, or `var`s under a lock or not),
    /// with what else must be thread-safe for it (`alsoNeeded`).
    static func classFix(
        of name: String, _ classDecl: ClassDeclSyntax, blocks: [(file: ParsedFile, block: MemberBlockSyntax)], project: Project
    ) -> String {
        let stored = blocks.flatMap { storedProperties(in: $0.block) }
        // A lock or queue: a `let` of such a type, or one the type locks or runs closures on (a queue a factory made).
        let usedAsLocks = lockReceivers(in: blocks.map(\.block))
        let locks = stored.filter { !$0.isVar && (!Set($0.typeNames).isDisjoint(with: lockTypes) || usedAsLocks.contains($0.name)) }
            .map(\.name)
        let superclass = classDecl.inheritanceClause?.inheritedTypes.map { $0.type.trimmedDescription }
            .first { project.facts(of: $0)?.isClass == true && !project.isKnownSendable($0) }
        // Its subclasses in the scanned files, at any depth: each must restate `@unchecked Sendable`.
        let subclasses = project.typeFacts.keys.filter { other in
            other != name && project.typeFacts[other]?.isClass == true && project.ancestors(of: other).dropFirst().contains(name)
        }.sorted()
        let holds = alsoNeeded(
            held: heldNotSendable(stored, project: project), superclass: stored.contains(where: \.isVar) ? superclass : nil, subclasses: subclasses
        )
        let vars = stored.filter(\.isVar)
        if vars.isEmpty {
            return allLetsFix(classDecl, superclass: superclass, subclasses: subclasses, holds: holds)
        }
        return varsFix(vars, locks: locks, blocks: blocks, holds: holds)
    }

    /// The `let`s of `stored` that hold a class or protocol not known to be Sendable, each
    /// named with those types: they must be thread-safe too.
    static func heldNotSendable(_ stored: [Stored], project: Project) -> [String] {
        stored.filter { !$0.isVar }.compactMap { property -> String? in
            let unsafe = property.typeNames.filter { type in
                guard let facts = project.facts(of: type), facts.isClass || facts.isProtocol else { return false }
                return !project.isKnownSendable(type)
            }
            return unsafe.isEmpty ? nil : "`\(property.name)` (`\(unsafe.joined(separator: "`, `"))`)"
        }
    }

    /// What a class's fix adds: what it holds that must be thread-safe too, its superclass that
    /// must be `@unchecked Sendable` too (given only when the class has a `var`: with `let`s
    /// alone the fix itself names it), and its subclasses that must restate it.
    static func alsoNeeded(held: [String], superclass: String?, subclasses: [String]) -> String {
        var holds = held.isEmpty ? "" : "; it holds \(held.joined(separator: ", ")), not known to be Sendable: "
            + (held.count == 1 ? "that type must" : "those types must") + " be thread-safe too"
        if let superclass { holds += "; its superclass `\(superclass)` must be `@unchecked Sendable` too" }
        if !subclasses.isEmpty {
            holds += "; " + (subclasses.count == 1 ? "its subclass " : "its subclasses ") + subclasses.map { "`\($0)`" }.joined(separator: ", ")
                + " must " + (subclasses.count == 1 ? "" : "each ") + "restate `@unchecked Sendable` (a warning otherwise; the compiler checks "
                + (subclasses.count == 1 ? "it" : "them") + " no further)"
        }
        return holds
    }

    /// The fix of a class whose stored properties are all `let`s: `Sendable` (`final` first),
    /// or `@unchecked Sendable` for a class with a superclass or subclasses.
    static func allLetsFix(_ classDecl: ClassDeclSyntax, superclass: String?, subclasses: [String], holds: String) -> String {
        let isFinal = classDecl.modifiers.contains { $0.name.text == "final" }
        // A `Sendable` class cannot inherit from another class: a subclass can only restate its base's `@unchecked Sendable`.
        let declare = superclass.map { superclass in
            "a `Sendable` class cannot inherit from another class: once its superclass `\(superclass)` is `@unchecked Sendable`, "
                + "declare it `@unchecked Sendable` too (restated, or a warning; the compiler then checks nothing: "
                + "its `let`s must hold Sendable values)"
        } ?? (isFinal || subclasses.isEmpty
            ? "declare it " + (isFinal ? "" : "`final` and ") + "`Sendable` (the compiler then checks its `let`s)"
            : "declare it `@unchecked Sendable` (a class with subclasses is not checked: theirs must be `let`s too)")
        return "its stored properties are all `let`: \(declare), \(isolate)\(holds)"
    }

    /// The fix of a class with stored `var`s: each private one used only under one of `locks`
    /// is guarded; the others (not private, or used outside a lock) are named.
    static func varsFix(_ vars: [Stored], locks: [String], blocks: [(file: ParsedFile, block: MemberBlockSyntax)], holds: String) -> String {
        var guardedBy: Set<String> = []
        var exposed: [String] = []
        var unguarded: [String] = []
        for property in vars {
            if !property.isPrivate {
                exposed.append("`\(property.name)`")
                continue
            }
            switch uses(of: property.name, in: blocks, locks: Set(locks)) {
            case .guarded(let by): guardedBy.formUnion(by)
            case .unguarded(let file, let line): unguarded.append("`\(property.name)` (\(file):\(line))")
            }
        }
        let count = exposed.count + unguarded.count
        // The ones not private in one group, the first four named.
        if !exposed.isEmpty {
            let named = exposed.prefix(4).joined(separator: ", ") + (exposed.count > 4 ? " and \(exposed.count - 4) more" : "")
            unguarded.insert(named + " (not private: used from outside)", at: 0)
        }
        let lockNames = (guardedBy.isEmpty ? locks : guardedBy.sorted()).map { "`\($0)`" }.joined(separator: " or ")
        // "its `var` `x` is", "its `var`s `x`, `y` are".
        let one = count == 0 ? vars.count == 1 : count == 1
        let (its, are, them) = one ? ("its `var`", "is", "it") : ("its `var`s", "are", "them")
        if unguarded.isEmpty {
            return "\(its) (\(vars.map { "`\($0.name)`" }.joined(separator: ", "))) \(are) used only under \(lockNames): "
                + "declare it `@unchecked Sendable`, with a comment that \(lockNames) guards every use, \(isolate)\(holds)"
        } else if locks.isEmpty {
            return "\(its) \(unguarded.joined(separator: ", ")) \(one ? "has" : "have") no lock: hold \(them) in a `Mutex` "
                + "(or guard \(them) with a lock) and declare it Sendable, \(isolate)\(holds)"
        }
        return "\(its) \(unguarded.joined(separator: ", ")) \(are) used outside \(lockNames) (as far as the tool sees): "
            + "guard \(them) (every use under \(lockNames), "
            + "or in a `Mutex`) before declaring it `@unchecked Sendable` with a comment saying so, \(isolate)\(holds)"
    }

    /// The stored instance properties declared in `block`.
    static func storedProperties(in block: MemberBlockSyntax) -> [Stored] {
        block.members.compactMap { $0.decl.as(VariableDeclSyntax.self) }.flatMap { variable -> [Stored] in
            let modifiers = variable.modifiers
            guard !modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) else { return [] }
            // `private(set)` leaves it readable from outside.
            let isPrivate = modifiers.contains { ["private", "fileprivate"].contains($0.name.text) && $0.detail == nil }
            return variable.bindings.compactMap { binding -> Stored? in
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { return nil }
                if let accessors = binding.accessorBlock {
                    // Only `willSet` / `didSet`: still stored.
                    guard case .accessors(let list) = accessors.accessors,
                          list.allSatisfy({ ["willSet", "didSet"].contains($0.accessorSpecifier.text) }) else { return nil }
                }
                var typeNames = binding.typeAnnotation.map { identifiers(in: $0.type.trimmedDescription) } ?? []
                // `NSLock()`, `Guarded<[String]>([])`: the type initialized (not a factory's `Queues.make()`, whose type is not written).
                if typeNames.isEmpty, let call = binding.initializer?.value.as(FunctionCallExprSyntax.self),
                   call.calledExpression.is(DeclReferenceExprSyntax.self) || call.calledExpression.is(GenericSpecializationExprSyntax.self) {
                    typeNames = identifiers(in: call.calledExpression.trimmedDescription)
                }
                return Stored(name: name, isVar: variable.bindingSpecifier.text == "var", isPrivate: isPrivate, typeNames: typeNames)
            }
        }
    }

    /// The identifiers of a type as written (`Mutex<[String: Int]>` → Mutex, String, Int).
    static func identifiers(in type: String) -> [String] {
        type.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
    }

    /// Whether every use of `name` (bare or `self.name`) in `blocks`, initializers and `deinit`
    /// aside, is under one of `locks`; else the first one that is not.
    enum Uses {
        case guarded(by: Set<String>)
        case unguarded(file: String, line: Int)
    }

    static func uses(of name: String, in blocks: [(file: ParsedFile, block: MemberBlockSyntax)], locks: Set<String>) -> Uses {
        var by: Set<String> = []
        for (file, block) in blocks {
            for member in block.members {
                if member.decl.is(InitializerDeclSyntax.self) || member.decl.is(DeinitializerDeclSyntax.self) { continue }
                for token in member.tokens(viewMode: .sourceAccurate) {
                    guard case .identifier(let text) = token.tokenKind, text == name, token.parent?.is(DeclReferenceExprSyntax.self) == true else {
                        continue
                    }
                    // `x.name` is another value's member; `self.name` is this one's.
                    if let member = token.parent?.parent?.as(MemberAccessExprSyntax.self), member.declName.id == token.parent?.id,
                       member.base?.trimmedDescription != "self" { continue }
                    guard let lock = heldLock(at: Syntax(token), locks: locks) else {
                        let fileName = file.path.split(separator: "/").last.map(String.init) ?? file.path
                        return .unguarded(file: fileName, line: file.line(of: token))
                    }
                    by.insert(lock)
                }
            }
        }
        return .guarded(by: by)
    }

    /// The lock of `locks` held at `node`: an earlier `lock.lock()` in an enclosing statement list
    /// with no `lock.unlock()` after it (a `defer` aside), or a closure of `lock.withLock`,
    /// `queue.sync`, `queue.async`, or of a call `on: .queue(queue)` (a promise step on that queue).
    /// Nil when none, or the use is in another closure (it may run later, anywhere).
    static func heldLock(at node: Syntax, locks: Set<String>) -> String? {
        var current = node
        while let parent = current.parent {
            if let item = current.as(CodeBlockItemSyntax.self), let list = parent.as(CodeBlockItemListSyntax.self),
               let index = list.firstIndex(where: { $0.id == item.id }) {
                for sibling in list[..<index].reversed() {
                    if let lock = receiver(of: sibling, calling: "lock"), locks.contains(lock) { return lock }
                    if let lock = receiver(of: sibling, calling: "unlock"), locks.contains(lock) { return nil }
                }
            }
            if let closure = current.as(ClosureExprSyntax.self) {
                var call = parent.as(FunctionCallExprSyntax.self)
                if call == nil, parent.is(LabeledExprSyntax.self) { call = parent.parent?.parent?.as(FunctionCallExprSyntax.self) }
                guard let call, call.trailingClosure?.id == closure.id || call.arguments.contains(where: { $0.expression.id == closure.id }) else {
                    return nil
                }
                if let member = call.calledExpression.as(MemberAccessExprSyntax.self), guardingCalls.contains(member.declName.baseName.text),
                   let base = member.base.map(lockName), locks.contains(base) {
                    return base
                }
                // `.map(on: .queue(queue)) { … }`: 1.x runs the closure on that queue (not `.nowOr(.queue(queue))`: at once, in the caller).
                guard let context = call.arguments.first(where: { $0.label?.text == "on" })?.expression.as(FunctionCallExprSyntax.self),
                      let queue = context.calledExpression.as(MemberAccessExprSyntax.self), queue.declName.baseName.text == "queue",
                      queue.base == nil || queue.base?.trimmedDescription == "PromiseContext",
                      let argument = context.arguments.first?.expression, context.arguments.count == 1,
                      locks.contains(lockName(argument)) else { return nil }
                return lockName(argument)
            }
            if current.is(FunctionDeclSyntax.self) || current.is(AccessorDeclSyntax.self) { return nil }
            current = parent
        }
        return nil
    }

    /// `x` of a statement `x.<name>()` or `self.x.<name>()`.
    static func receiver(of item: CodeBlockItemSyntax, calling name: String) -> String? {
        guard let call = item.item.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
              let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == name,
              let base = member.base else { return nil }
        return lockName(base)
    }

    /// `lock` for `lock` and `self.lock`.
    static func lockName(_ base: ExprSyntax) -> String {
        let text = base.trimmedDescription
        return text.hasPrefix("self.") ? String(text.dropFirst("self.".count)) : text
    }
}

/// The declaration of a type named `name` (the first) and the member blocks of it and its
/// extensions.
private final class TypeBlockFinder: SyntaxVisitor {
    let name: String
    var declaration: DeclSyntax?
    var blocks: [MemberBlockSyntax] = []

    init(name: String) {
        self.name = name
        super.init(viewMode: .sourceAccurate)
    }

    private func found(_ decl: some DeclSyntaxProtocol, _ typeName: String, _ block: MemberBlockSyntax) -> SyntaxVisitorContinueKind {
        if typeName == name {
            if declaration == nil { declaration = DeclSyntax(decl) }
            blocks.append(block)
        }
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        return found(node, node.name.text, node.memberBlock)
    }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { found(node, node.name.text, node.memberBlock) }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { found(node, node.name.text, node.memberBlock) }
    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { found(node, node.name.text, node.memberBlock) }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { found(node, node.name.text, node.memberBlock) }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        if Project.unqualified(node.extendedType.trimmedDescription) == name { blocks.append(node.memberBlock) }
        return .visitChildren
    }
}
