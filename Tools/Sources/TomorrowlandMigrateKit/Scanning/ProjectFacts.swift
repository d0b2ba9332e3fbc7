// What every command needs to know about the whole set of files at once.

import Foundation
import SwiftSyntax

/// The scanned files plus the project-wide facts the rewriters check against.
struct Project {
    let set: SourceSet
    let scans: [FileScan]
    /// Types declared (or extended) as `Error`s in the scanned files, plus the well-known ones.
    let errorTypes: Set<String>
    /// Names a call site cannot always spell: generic parameters, associated types and types
    /// nested in other types.
    let unspellableNames: Set<String>
    /// Actors declared in the scanned files.
    let actors: Set<String>
    /// What the scanned declarations and extensions say about each type, by name.
    let typeFacts: [String: TypeFacts]
    /// The types declared `@globalActor` in the scanned files.
    let globalActors: Set<String>
    /// What the compiler says about these files, when it was asked.
    let compiler: CompilerFacts?

    /// The compiler's facts by the paths of `set` as given (no path lookups in loops).
    private let compiled: [String: CompilerFacts.File]
    /// For each USR, its first reference that is not a call (by path, then offset): `valueUse(of:)`.
    private let firstValueUse: [String: (path: String, offset: Int)]

    init(_ set: SourceSet, compiler: CompilerFacts? = nil) {
        self.set = set
        self.compiler = compiler
        var compiled: [String: CompilerFacts.File] = [:]
        for file in set.files { compiled[file.path] = compiler?.file(file.path) }
        self.compiled = compiled
        var firstValueUse: [String: (path: String, offset: Int)] = [:]
        for (path, file) in (compiler?.files ?? [:]).sorted(by: { $0.key < $1.key }) {
            for (offset, usrs) in file.references.sorted(by: { $0.key < $1.key }) where file.call(calleeAt: offset) == nil {
                for usr in usrs where firstValueUse[usr] == nil { firstValueUse[usr] = (path, offset) }
            }
        }
        self.firstValueUse = firstValueUse
        var scans: [FileScan] = []
        var scope = 1
        for file in set.files {
            let scanner = Scanner(file: file, firstScope: scope)
            scanner.walk(file.tree)
            scope = scanner.scopeEnd
            scans.append(scanner.scan)
        }
        self.scans = scans
        let collector = TypeFactsCollector(viewMode: .sourceAccurate)
        for file in set.files { collector.walk(file.tree) }
        self.errorTypes = collector.errorTypes.union(PromiseType.untypedErrorNames).union([
            "NoError", "Tomorrowland.NoError",
            "CancellationError", "URLError", "CocoaError", "POSIXError", "DecodingError", "EncodingError", "NSError",
            "Never", "Swift.Never",
            // Tomorrowland's own.
            "PromiseTimeoutError", "PromiseCallbackError",
        ])
        self.unspellableNames = collector.unspellable.union(["Self"])
        self.actors = collector.actors
        let globalActors = collector.globalActors
        self.globalActors = globalActors
        self.typeFacts = collector.facts.mapValues { facts in
            var facts = facts
            facts.hasGlobalActor = facts.attributes.contains { Self.isGlobalActor($0, declared: globalActors) }
            return facts
        }
    }

    /// How the code in a function runs: on an actor, on a global actor, or on no actor.
    enum Isolation { case actor, globalActor, nonisolated }

    /// The isolation of the method or function `site` (as far as the syntax tells).
    func isolation(of site: FunctionSite) -> Isolation {
        let modifiers = site.decl.modifiers.map(\.name.text)
        if hasGlobalActor(site.decl.attributes) { return .globalActor }
        if modifiers.contains("nonisolated") { return .nonisolated }
        guard let container = site.container else { return .nonisolated }
        if facts(of: container)?.isActor == true { return modifiers.contains("static") ? .nonisolated : .actor }
        return isOnGlobalActor(container) ? .globalActor : .nonisolated
    }

    /// Whether `attributes` name a global actor: `@MainActor`, one declared `@globalActor` in the
    /// scanned files, or (declared elsewhere) one named by the convention `…Actor`.
    func hasGlobalActor(_ attributes: AttributeListSyntax) -> Bool {
        TypeFacts.attributeNames(attributes).contains { Self.isGlobalActor($0, declared: globalActors) }
    }

    static func isGlobalActor(_ attribute: String, declared: Set<String>) -> Bool {
        attribute != "globalActor" && (attribute.hasSuffix("Actor") || declared.contains(unqualified(attribute)))
    }

    /// Whether `site` runs on the main actor (not another global actor, not an actor): `@MainActor`
    /// on it, or on its type, an extension of it or a type it inherits from (scanned, or a known
    /// framework type) when it names no other isolation.
    func isOnMainActor(_ site: FunctionSite) -> Bool {
        if site.decl.attributes.contains(where: { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription == "MainActor" }) { return true }
        guard isolation(of: site) == .globalActor, !hasGlobalActor(site.decl.attributes), let container = site.container else { return false }
        return ancestors(of: container).contains { Self.mainActorFrameworkTypes.contains($0) || facts(of: $0)?.hasMainActor == true }
    }

    /// Framework types isolated to the main actor, which subclasses and conformers inherit.
    static let mainActorFrameworkTypes: Set<String> = [
        "UIViewController", "UIView", "UIResponder", "UIApplication", "UIApplicationDelegate", "UIWindowSceneDelegate",
        "UITableViewController", "UICollectionViewController", "UINavigationController", "UITabBarController",
        "NSViewController", "NSView", "NSResponder", "NSWindowController", "NSApplicationDelegate",
        "View", "App", "Scene", "WKInterfaceController",
    ]

    /// Whether `type` is isolated to a global actor: written on it, on an extension of it, or
    /// inherited from a superclass or protocol (scanned, or a known framework type).
    func isOnGlobalActor(_ type: String) -> Bool {
        ancestors(of: type).contains { Self.mainActorFrameworkTypes.contains($0) || facts(of: $0)?.hasGlobalActor == true }
    }

    /// Whether `site` implements `requirement` (same name and labels, in the protocol's own
    /// extension or in a type declared or extended to conform to it).
    func implements(_ site: FunctionSite, _ requirement: FunctionSite) -> Bool {
        guard site.name == requirement.name, site.labels == requirement.labels,
              let container = site.container, let protocolName = requirement.container else { return false }
        return container == protocolName || facts(of: container)?.inherited.contains(protocolName) == true
    }

    /// Whether `site` overrides `base` (marked `override`, the same name and labels, in a
    /// type that inherits from `base`'s): a call of `site` means `base`'s twin too once `base`
    /// has one, dynamically.
    func overrides(_ site: FunctionSite, _ base: FunctionSite) -> Bool {
        guard site.name == base.name, site.labels == base.labels, site.decl.modifiers.contains(where: { $0.name.text == "override" }),
              let container = site.container, let baseContainer = base.container.map(Self.unqualified),
              Self.unqualified(container) != baseContainer else { return false }
        return ancestors(of: container).contains(baseContainer)
    }

    /// Whether a call on `receiver` can reach a member of `container` (nil: a top-level
    /// function): the type itself, one it inherits from or conforms to (as declared in the
    /// scanned files), or any type when the receiver is unknown.
    func receiver(_ receiver: Receiver, reaches container: String?) -> Bool {
        // `API.Users` and `Users` (a nested type, or one extended by its qualified name) are one type.
        let container = container.map(Self.unqualified)
        func isOrInherits(_ type: String) -> Bool { container.map(ancestors(of: type).contains) == true }
        switch receiver {
        case .implicit(let type): return container == nil || type.map(isOrInherits) == true
        case .type(let type): return isOrInherits(type)
        case .unknown: return container != nil
        }
    }

    /// `type` and every type it inherits from or conforms to, as the scanned files declare
    /// them (on the type or its extensions), transitively; unqualified names.
    func ancestors(of type: String) -> [String] {
        var result = [Self.unqualified(type)]
        var index = 0
        while index < result.count {
            for parent in (facts(of: result[index])?.inherited ?? []).map(Self.unqualified) where !result.contains(parent) {
                result.append(parent)
            }
            index += 1
        }
        return result
    }

    /// The first parameter of `site` that a Task cannot capture in Swift 6 mode, as far as the
    /// syntax tells: a closure not both `@Sendable` and escaping, or a class of the scanned files that is
    /// not Sendable (not declared so, not an actor, not on a global actor).
    func nonSendableParameter(of site: FunctionSite) -> FunctionParameterSyntax? {
        nonSendableParameters(of: site).first
    }

    /// Every such parameter of `site`.
    func nonSendableParameters(of site: FunctionSite) -> [FunctionParameterSyntax] {
        site.decl.signature.parameterClause.parameters.filter { parameter in
            let type = parameter.type.trimmedDescription
            if type.contains("->") { return !Self.isCapturableClosure(type) }
            return identifiers(in: type).contains { name in
                guard let facts = facts(of: name), facts.isClass || facts.isProtocol else { return false }
                return !isKnownSendable(name)
            }
        }
    }

    /// Whether a parameter of closure type `type` (as written) can be captured by a Task: it is
    /// `@Sendable` and escapes (`@escaping`, or an optional closure, which escapes already). A
    /// non-escaping closure cannot be captured even if `@Sendable` ("escaping closure captures
    /// non-escaping parameter").
    static func isCapturableClosure(_ type: String) -> Bool {
        type.contains("@Sendable") && (type.contains("@escaping") || isOptionalClosure(type))
    }

    /// `(() -> T)?` or `(() -> T)!`: an optional closure, implicitly escaping.
    static func isOptionalClosure(_ type: String) -> Bool {
        type.hasPrefix("(") && (type.hasSuffix(")?") || type.hasSuffix(")!"))
    }

    /// Why a Task cannot capture `parameter` (one of `nonSendableParameters`): "is not `@escaping`"
    /// for a `@Sendable` closure that does not escape, "is not known to be Sendable" otherwise.
    static func captureProblem(of parameter: FunctionParameterSyntax) -> String {
        let type = parameter.type.trimmedDescription
        return type.contains("->") && type.contains("@Sendable") ? "is not `@escaping`" : "is not known to be Sendable"
    }

    /// Whether `type` is an actor, on a global actor, or declared `Sendable` (on itself, an
    /// extension, a superclass or a protocol it refines, as the scanned files say).
    func isKnownSendable(_ type: String) -> Bool {
        isOnGlobalActor(type) || ancestors(of: type).contains { facts(of: $0)?.isSendable == true || facts(of: $0)?.isActor == true }
    }

    /// What the scanned files say about `type` (by its unqualified name).
    func facts(of type: String) -> TypeFacts? {
        typeFacts[Self.unqualified(type)]
    }

    /// `Users` for `API.Users` (generic arguments aside).
    static func unqualified(_ type: String) -> String {
        let base = type.firstIndex(of: "<").map { String(type[..<$0]) } ?? type
        return base.split(separator: ".").last.map(String.init) ?? base
    }

    /// The compiler's USR of the function whose last token is at `offset` in `path`.
    func usr(endingAt offset: Int, in path: String) -> String? {
        compiledFile(path)?.function(endingAt: offset)?.usr
    }

    /// The compiler's facts for `path`.
    func compiledFile(_ path: String) -> CompilerFacts.File? {
        compiled[path] ?? compiler?.file(path)
    }

    /// The compiler's USR of `site`.
    func usr(of site: FunctionSite) -> String? {
        usr(endingAt: site.decl.endOffset, in: site.file.path)
    }

    /// The declaration a call whose called name is at `offset` in `path` names, as the
    /// compiler resolved it (nil without the compiler's facts for that file).
    func callee(nameAt offset: Int, in path: String) -> String? {
        guard let file = compiledFile(path) else { return nil }
        return file.call(calleeAt: offset)?.callee ?? file.references[offset]?.sorted().first
    }

    /// Where the function with `usr` is used as a value (referenced, not called), as the
    /// compiler resolved the references: `(path, line)`.
    func valueUse(of usr: String) -> (String, Int)? {
        guard let (path, offset) = firstValueUse[usr] else { return nil }
        let text = set.files.first { CompilerFacts.key($0.path) == path }?.text ?? (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return (path, LineTable(text).line(of: offset))
    }

    /// The receiver of `call` in `file`, as the scan found it.
    func receiver(of call: FunctionCallExprSyntax, in file: ParsedFile) -> Receiver {
        scans.first { $0.path == file.path }?.receivers[call.id] ?? .unknown
    }

    /// Whether `self` in `site` can be sent to another Task: a static method, an actor, a
    /// type isolated to a global actor or declared `Sendable` (by its declaration or an extension).
    func selfIsSendable(in site: FunctionSite) -> Bool {
        guard let container = site.container, !site.decl.modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) else {
            return true
        }
        return isKnownSendable(container)
    }

    var functions: [FunctionRecord] { scans.flatMap(\.functions) }

    /// Whether the scanned declarations or the library say `type` conforms to `Error`
    /// (`Module.Name` and `Name<Arguments>` by their name).
    func isKnownError(_ type: String) -> Bool {
        var name = type
        if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
        if let dot = name.lastIndex(of: "."), !errorTypes.contains(name) { name = String(name[name.index(after: dot)...]) }
        if errorTypes.contains(type) || errorTypes.contains(name) { return true }
        // `enum LoadError: AppError` where `protocol AppError: Error`, or a subclass of an error class.
        return ancestors(of: name).contains { errorTypes.contains($0) }
    }

    /// Whether `type` (written inside `function`) can be written at any call site.
    func isSpellableAnywhere(_ type: String) -> Bool {
        identifiers(in: type).allSatisfy { !unspellableNames.contains($0) }
    }

    /// The identifiers of a type as written: `Promise<[User], Error>` → Promise, User, Error.
    func identifiers(in type: String) -> [String] {
        var result: [String] = []
        var current = ""
        for character in type {
            if character.isLetter || character.isNumber || character == "_" {
                current.append(character)
            } else {
                if !current.isEmpty { result.append(current) }
                current = ""
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}

/// What the declarations and extensions of one type name say about it.
struct TypeFacts {
    var isActor = false
    var isClass = false
    /// Set by `Project` once it knows every global actor of the scanned files.
    var hasGlobalActor = false
    /// `@MainActor` written on the type or an extension of it.
    var hasMainActor = false
    var isSendable = false
    /// The attributes written on the declaration (`MainActor` for `@MainActor`).
    var attributes: Set<String> = []
    var isProtocol = false
    /// The inherited types and protocols written on the declaration and its extensions.
    var inherited: Set<String> = []

    mutating func add(_ scope: TypeScope) {
        isActor = isActor || scope.isActor
        isClass = isClass || scope.kind == .class
        isProtocol = isProtocol || scope.isProtocol
        attributes.formUnion(scope.attributes.map(Self.attributeNames) ?? [])
        hasMainActor = hasMainActor || scope.attributes.map(Isolation.hasMainActor) == true
        for inheritedType in scope.inheritance?.inheritedTypes ?? [] {
            let name = inheritedType.type.trimmedDescription
            inherited.insert(name)
            if let generic = name.firstIndex(of: "<") { inherited.insert(String(name[..<generic])) } // `Repository<Post>`
            if ["Sendable", "@unchecked Sendable", "Swift.Sendable", "@unchecked Swift.Sendable"].contains(name) { isSendable = true }
        }
    }

    /// The names of `attributes` (`MainActor` for `@MainActor`).
    static func attributeNames(_ attributes: AttributeListSyntax) -> [String] {
        attributes.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription }
    }
}

/// Collects error types and names that are not visible everywhere.
private final class TypeFactsCollector: TypeTrackingVisitor {
    var errorTypes = Set<String>()
    var unspellable = Set<String>()
    var actors = Set<String>()
    var globalActors = Set<String>()
    var facts: [String: TypeFacts] = [:]
    private var bodies = 0

    private static let errorProtocols: Set<String> = ["Error", "Swift.Error", "LocalizedError", "CustomNSError"]

    /// `Error`, or a composition with it (`Error & Sendable`).
    private static func isError(_ type: TypeSyntax) -> Bool {
        type.trimmedDescription.split(separator: "&").contains { errorProtocols.contains($0.trimmingCharacters(in: .whitespaces)) }
    }

    private func noteGenerics(_ clause: GenericParameterClauseSyntax?) {
        for parameter in clause?.parameters ?? [] { unspellable.insert(parameter.name.text) }
    }

    override func enter(_ type: TypeScope) {
        let isError = type.inheritance?.inheritedTypes.contains { Self.isError($0.type) } == true
        if isError { errorTypes.insert(type.name) }
        // A type declared inside another type or a function body is not visible everywhere.
        if !type.isExtension && (!types.isEmpty || bodies > 0) { unspellable.insert(type.name) }
        noteGenerics(type.genericParameters)
        if type.isActor { actors.insert(type.name) }
        if type.attributes.map(TypeFacts.attributeNames)?.contains("globalActor") == true { globalActors.insert(Project.unqualified(type.name)) }
        facts[Project.unqualified(type.name), default: TypeFacts()].add(type)
    }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        if !types.isEmpty || bodies > 0 { unspellable.insert(node.name.text) }
        return .visitChildren
    }
    override func visit(_ node: AssociatedTypeDeclSyntax) -> SyntaxVisitorContinueKind {
        unspellable.insert(node.name.text)
        if node.inheritanceClause?.inheritedTypes.contains(where: { Self.isError($0.type) }) == true {
            errorTypes.insert(node.name.text)
        }
        return .visitChildren
    }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        noteGenerics(node.genericParameterClause)
        return .visitChildren
    }
    override func visit(_ node: CodeBlockSyntax) -> SyntaxVisitorContinueKind {
        bodies += 1
        return .visitChildren
    }
    override func visitPost(_ node: CodeBlockSyntax) { bodies -= 1 }
}
