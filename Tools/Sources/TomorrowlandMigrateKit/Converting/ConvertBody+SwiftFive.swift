// `convert-body` in a Swift 5 mode package: a chain whose wrapper would capture a `self` or
// parameter not known to be `Sendable` is converted with its wrapper when the chain's own
// closures (the closures of its promise operators, which 1.x ran on their context: off the
// caller's thread, or later) already capture that same value. The 1.x code sent the value off
// the caller's thread in each of those closures; the wrapper's Task sends it once. Swift 6 mode
// names that capture once, in the wrapper, where it named every closure; the type's own thread
// safety (a lock, a queue) is what it was. In a Swift 6 mode module, and where the chain's
// closures do not capture the value, the wrapper would add a race, and the chain goes without a
// wrapper or stays with its reason (`reasonToLeave`).

import SwiftSyntax

extension ConvertBody {
    /// The Swift 5 rule's facts, with the compiler only.
    struct CaptureRule {
        /// The files (`CompilerFacts.key`) of modules compiled in Swift 5 mode (or older).
        let swiftFiveFiles: Set<String>
        /// Chains (by the promise function's USR) whose promise version is still called, which
        /// a first planning sent to their wrapper: converted with it.
        var wrapping: Set<String> = []
    }

    /// The files of `oracle`'s modules whose language mode (`-swift-version`) is below 6, without
    /// complete concurrency checking (which asks for Swift 6 mode's diagnostics, as warnings).
    static func swiftFiveFiles(of oracle: CompilerOracle) -> Set<String> {
        var files: Set<String> = []
        for module in oracle.modules {
            let arguments = module.arguments
            guard let flag = arguments.firstIndex(of: "-swift-version"), flag + 1 < arguments.count,
                  let major = Int(arguments[flag + 1].prefix { $0.isNumber }), major < 6,
                  !arguments.contains("-strict-concurrency=complete"),
                  !zip(arguments, arguments.dropFirst()).contains(where: { $0 == "-strict-concurrency" && $1 == "complete" }) else { continue }
            files.formUnion(module.sources.map(CompilerFacts.key))
        }
        return files
    }

    /// The note of a wrapper the Swift 5 rule allows: `site` is in a Swift 5 mode module, its
    /// only reason to stay is a capture of a value not known to be `Sendable`, and the chain's
    /// closures capture each such value (`self`, a parameter). Nil otherwise.
    static func capturedByTheChain(_ site: FunctionSite, _ promise: PromiseType, body: CodeBlockSyntax, project: Project,
                                   rule: CaptureRule?) -> MigrationNote? {
        guard let rule, rule.swiftFiveFiles.contains(CompilerFacts.key(site.file.path)),
              reasonToLeave(site, promise, project: project, sendableChecked: false) == nil, let chain = body.statements.last else { return nil }
        var values: [String] = []
        if !project.selfIsSendable(in: site) { values.append("self") }
        values += project.nonSendableParameters(of: site).map { ($0.secondName ?? $0.firstName).text }
        guard !values.isEmpty else { return nil }
        let closures = operatorClosures(in: chain, path: site.file.path, project: project)
        let members = site.container.map { instanceMembers(of: $0, in: project.set) } ?? []
        let local = declaredNames(in: site.decl)
        for value in values {
            guard closures.contains(where: { captures($0, value, members: value == "self" ? members : [], local: local) }) else { return nil }
        }
        let what = values.map { $0 == "self" ? "`self` (`\(site.container ?? "")`)" : "parameter `\($0)`" }.joined(separator: " and ")
        let message = "\(site.signature): converted in a Swift 5 mode module; its wrapper captures \(what), not known to be Sendable, "
            + "as the chain's closures did, which 1.x ran off the caller's thread: Swift 6 mode names that capture once, in the wrapper, "
            + "where it named every closure that captured it; make the type Sendable or isolate it before switching to Swift 6 mode"
        return MigrationNote(path: site.file.path, line: site.line, message: message)
    }

    /// A wrapper under the Swift 5 rule whose twin's steps all run on one queue (`shared`, the
    /// executor `sharedExecutor(of:)` found) does not prefer that queue's executor. Its promise
    /// resolves on that context instead (`.then(on: c) { _ in }`), where 1.x's did. Started from a
    /// nonisolated synchronous caller, the twin's first hop to the queue must leave the caller's
    /// thread even when nothing suspended before it (Relay's `Inbox.refresh()` expects its
    /// bookkeeping on its queue); the library's preference does that
    /// (`ImmediateExecutorPreferenceFirstStepTests`), and this rule stays until a Swift 5 mode
    /// corpus run shows that it keeps Relay's order.
    static func resolvedWithoutPreference(_ shared: String?, _ resolvedOn: String?) -> (preference: String?, resolvedOn: String?) {
        guard let shared, resolvedOn == nil else { return (nil, resolvedOn) }
        return (nil, String(shared.dropLast(".taskExecutor".count)))
    }

    /// The closures passed to promise operators in `chain` (the body's last statement): those of
    /// the chain's own steps, and of operators nested in it that the compiler says act on a
    /// promise (not `Array.map`).
    static func operatorClosures(in chain: CodeBlockItemSyntax, path: String, project: Project) -> [ClosureExprSyntax] {
        var spine: Set<SyntaxIdentifier> = []
        var current = chain.item.as(ReturnStmtSyntax.self)?.expression ?? chain.item.as(ExprSyntax.self)
        while let call = current?.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
            spine.insert(call.id)
            current = member.base
        }
        let compiled = project.compiledFile(path)
        final class Finder: SyntaxVisitor {
            var calls: [FunctionCallExprSyntax] = []
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if let member = node.calledExpression.as(MemberAccessExprSyntax.self), CallbackOperators.names.contains(member.declName.baseName.text) {
                    calls.append(node)
                }
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(chain)
        return finder.calls.filter { call in
            spine.contains(call.id)
                || compiled?.call(calleeAt: Calls.nameOffset(of: call))?.receiverType.map(CompilerFacts.isPromise(mangled:)) == true
        }.flatMap { call in
            call.arguments.compactMap { $0.expression.as(ClosureExprSyntax.self) }
                + (call.trailingClosure.map { [$0] } ?? []) + call.additionalTrailingClosures.map(\.closure)
        }
    }

    /// Whether `closure` captures `value` (`self` or a parameter's name): named in its body (not
    /// as a member, `x.self`, or a name declared in the function, `local`), or in its capture
    /// list alone (`[weak self]`, `[unowned self]`, `[api]`, `[s = self]`; `[store = self.store]`
    /// captures the store, not `self`). For `self`, also a bare use of one of the type's instance
    /// `members` (implicit `self`).
    static func captures(_ closure: ClosureExprSyntax, _ value: String, members: Set<String>, local: Set<String>) -> Bool {
        for item in closure.signature?.capture?.items ?? [] {
            let words = item.trimmedDescription.split(whereSeparator: { $0 == " " || $0 == "=" }).map(String.init)
            // `[weak self]`, `[unowned self]`: the closure does not keep `self` alive, and a wrapper
            // would (its Task holds `self` until the twin returns): a caller's `[weak self]` that
            // saw the value gone while the request was in flight would see it alive (Pharmacy's
            // `refill(id:)` on `prescription(id:)`). Not a capture that lets the wrapper take it.
            if words.last == value, words.contains(where: { $0 == "weak" || $0.hasPrefix("unowned") }) { return false }
            if words.last == value { return true }
        }
        for token in closure.statements.tokens(viewMode: .sourceAccurate) {
            guard token.previousToken(viewMode: .sourceAccurate)?.tokenKind != .period else { continue }
            if value == "self", token.tokenKind == .keyword(.self) { return true }
            guard case .identifier(let name) = token.tokenKind, token.parent?.is(DeclReferenceExprSyntax.self) == true else { continue }
            if name == value || (members.contains(name) && !local.contains(name)) { return true }
        }
        return false
    }

    /// The names `function` declares: parameters, closure parameters, capture list names, and
    /// every name bound in its body (`let`, `var`, `if let`, `guard let`, `for`, `case let`).
    static func declaredNames(in function: FunctionDeclSyntax) -> Set<String> {
        boundNames(in: Syntax(function)).union(function.signature.parameterClause.parameters.map { ($0.secondName ?? $0.firstName).text })
    }

    /// The names bound in `node`: closure parameters, capture list names, and every name bound
    /// in it (`let`, `var`, `if let`, `guard let`, `for`, `case let`).
    static func boundNames(in node: Syntax) -> Set<String> {
        final class Collector: SyntaxVisitor {
            var names: Set<String> = []
            override func visit(_ node: IdentifierPatternSyntax) -> SyntaxVisitorContinueKind {
                names.insert(node.identifier.text)
                return .visitChildren
            }
            override func visit(_ node: ClosureShorthandParameterSyntax) -> SyntaxVisitorContinueKind {
                names.insert(node.name.text)
                return .visitChildren
            }
            override func visit(_ node: ClosureParameterSyntax) -> SyntaxVisitorContinueKind {
                names.insert((node.secondName ?? node.firstName).text)
                return .visitChildren
            }
            override func visit(_ node: OptionalBindingConditionSyntax) -> SyntaxVisitorContinueKind {
                if let name = node.pattern.as(IdentifierPatternSyntax.self) { names.insert(name.identifier.text) }
                return .visitChildren
            }
            override func visit(_ node: ClosureCaptureSyntax) -> SyntaxVisitorContinueKind {
                // `[x = e]` declares `x`; `[x]`, `[weak x]` too: a copy of `self.x` where `x` is a member, not `self`.
                let text = node.trimmedDescription
                let words = text.split(whereSeparator: { $0 == " " || $0 == "=" }).map(String.init)
                if let name = text.contains("=") ? words.first : words.last, name != "self" { names.insert(name) }
                return .visitChildren
            }
        }
        let collector = Collector(viewMode: .sourceAccurate)
        collector.walk(node)
        return collector.names
    }

    /// The names of the instance properties and methods of `container` (its declarations and
    /// extensions in `set`).
    static func instanceMembers(of container: String, in set: SourceSet) -> Set<String> {
        var names: Set<String> = []
        for member in memberBlocks(of: container, in: set).flatMap(\.members) {
            let modifiers = member.decl.asProtocol(WithModifiersSyntax.self)?.modifiers ?? []
            guard !modifiers.contains(where: { ["static", "class"].contains($0.name.text) }) else { continue }
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                names.formUnion(variable.bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text })
            } else if let function = member.decl.as(FunctionDeclSyntax.self) {
                names.insert(function.name.text)
            }
        }
        return names
    }

    /// The member blocks of the declarations and extensions of `container` in `set`.
    static func memberBlocks(of container: String, in set: SourceSet) -> [MemberBlockSyntax] {
        final class Collector: SyntaxVisitor {
            let container: String
            var blocks: [MemberBlockSyntax] = []
            init(container: String) {
                self.container = container
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { visitType(node.name.text, node.memberBlock) }
            override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { visitType(node.name.text, node.memberBlock) }
            override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind { visitType(node.name.text, node.memberBlock) }
            override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { visitType(node.name.text, node.memberBlock) }
            override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
                visitType(node.extendedType.trimmedDescription, node.memberBlock)
            }
            func visitType(_ name: String, _ members: MemberBlockSyntax) -> SyntaxVisitorContinueKind {
                if name == container { blocks.append(members) }
                return .visitChildren
            }
        }
        let collector = Collector(container: container)
        for file in set.files { collector.walk(file.tree) }
        return collector.blocks
    }
}

extension ConvertBody {
    /// `plan` (given the rule) with the Swift 5 rule settled: a first planning finds the chains
    /// whose promise version is still called and whose wrapper the rule allows (a chain that can
    /// go without a wrapper still does); a second one writes their wrappers. Their bodies are
    /// replaced either way, so the other chains' decisions stand.
    static func planned(with rule: CaptureRule, _ plan: (CaptureRule?) -> Plan) -> Plan {
        guard !rule.swiftFiveFiles.isEmpty else { return plan(nil) }
        var rule = rule
        var planned = plan(rule)
        // (One more planning at most: the second should find nothing new.)
        for _ in 0..<2 where !Set(planned.toWrap.keys).isSubset(of: rule.wrapping) {
            rule.wrapping.formUnion(planned.toWrap.keys)
            planned = plan(rule)
        }
        planned.left += planned.toWrap.values.sorted { ($0.path, $0.line) < ($1.path, $1.line) }
        planned.toWrap = [:]
        return planned
    }
}
