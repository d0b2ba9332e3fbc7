// `convert-body`: a promise-returning function whose body is a chain and whose async twin
// `add-async-twins` wrote. The twin gets the chain as straight-line code; the promise version
// becomes the thin wrapper `StdPromise { try await f(…) }`, so that every caller keeps working.

import SwiftParser
import SwiftSyntax

public enum ConvertBody {
    /// One function converted: the edits of its file (the twin's body, the promise
    /// function's body), which stand or fall together.
    struct Conversion {
        let site: FunctionSite
        let edits: [TextEdit]
        /// From the promise function's start to the twin's end (or the other way round).
        let scope: Range<Int>
        /// The compiler's USR of the twin, and where the wrapper's call of it ends in `edits[1]`.
        var twinUSR: String?
        var wrapperCallOffset: Int?
        /// Whether the promise version is deleted instead of becoming the wrapper: nothing calls it
        /// any more, and its wrapper would capture a non-`Sendable` value that Swift 6 mode rejects.
        var withoutWrapper = false
        /// The calls of the chain (as written) that the twin awaits through their async twins: a
        /// promise version they named is no longer called from here.
        var awaitedThroughTwins: Set<String> = []
        /// For a conversion without a wrapper: the conversions (by summary) whose replaced bodies
        /// held the promise version's other calls. It is proved after them, only if they pass.
        var dependsOn: Set<String> = []
        /// A conformer's calls of the requirement's twin on its own (final) type, which its new
        /// async method takes (edit 0, whose declaration starts at `methodOffset` in its text).
        var retargeted: [(path: String, offset: Int)] = []
        var methodOffset: Int?
        /// A base and its one override converted together (`pairedOverride`): both or neither.
        var pair: String?
        var summary: String {
            "\(site.signature) at line \(site.line): the chain moved into its async twin"
                + (withoutWrapper ? ", and the promise version that nothing calls went" : "")
        }
    }

    /// What the planning found: the conversions, and the chains left with their reason.
    struct Plan {
        var conversions: [Conversion] = []
        var left: [MigrationNote] = []
        /// Promise-returning functions whose body holds a promise operator (the denominator).
        var chains = 0
        /// The Swift 5 rule's notes of the wrappers that capture what their chain captured, by summary.
        var captured: [String: MigrationNote] = [:]
        /// Chains whose promise version is still called that the Swift 5 rule lets keep a wrapper, by
        /// the promise function's USR, with the note they are left with if they do not get one.
        var toWrap: [String: MigrationNote] = [:]
    }

    /// Plans from the syntax alone (twins found by name and labels); writes nothing.
    public static func run(_ set: SourceSet) -> MigrationResult {
        let project = Project(set)
        return result(of: plan(set, project: project), in: set, project: project)
    }

    /// A wrapper never captures a `self` or parameter not known to be `Sendable`, in either
    /// language mode: what the tool writes must build in Swift 6 mode too (a Swift 5 mode package
    /// accepts such a capture silently, and it is the race Swift 6 mode names).
    /// `callers(usr)`: every reference of a declaration (its place: path and offset), in the
    /// scanned files and the modules that import them; with it, a chain whose wrapper would capture
    /// a non-`Sendable` value in Swift 6 mode is converted without a wrapper when nothing but its
    /// twin and chains converted with it call the promise version (`includingPublic`: a public,
    /// open or package one too; `inactive`: names mentioned in `#if` clauses the compiler did not see).
    /// `rule`: in a Swift 5 mode module, a wrapper may capture what the chain's closures captured (ConvertBody+SwiftFive.swift).
    static func plan(
        _ set: SourceSet, project: Project,
        callers: ((String) -> [(path: String, offset: Int)])? = nil, includingPublic: Bool = false, inactive: [String: [String]] = [:],
        sharedModules: [String: Set<String>] = [:], unpaired: Set<String> = [], rule: CaptureRule? = nil
    ) -> Plan {
        let planning = Planning(set, project: project, callers: callers, sharedModules: sharedModules, unpaired: unpaired, rule: rule)
        var plan = Plan()
        // Chains whose wrapper would capture a non-Sendable value (Swift 6 mode): converted without
        // a wrapper if nothing else calls their promise version (decided once every chain is planned).
        var withoutWrapper: [Candidate] = []
        // Those of them that the Swift 5 rule lets keep a wrapper when their promise version is still called (by USR).
        var wrappable: Set<String> = []
        var action = ChainBodyAction(planning: planning)
        for site in planning.everySite {
            action.planned = plan.conversions
            switch action.apply(to: site) {
            case .notApplicable:
                continue
            case .declines(let reason):
                plan.left.append(leftAsChain(site, reason.text))
            case .holds(.wrapped(let conversion, let captured)):
                plan.conversions.append(conversion)
                if let captured { plan.captured[conversion.summary] = captured }
            case .holds(.withoutWrapper(let candidate, let keepsWrapper)):
                withoutWrapper.append(candidate)
                if keepsWrapper { wrappable.insert(candidate.usr) }
            }
            plan.chains += 1
        }
        let broken = brokenPairs(in: plan)
        if !broken.isEmpty {
            return self.plan(
                set, project: project, callers: callers, includingPublic: includingPublic, inactive: inactive, sharedModules: sharedModules,
                unpaired: unpaired.union(broken), rule: rule
            )
        }
        if let callers, !withoutWrapper.isEmpty {
            settleWithoutWrapper(
                withoutWrapper, in: &plan, set: set, callers: callers, includingPublic: includingPublic, inactive: inactive, wrappable: wrappable
            )
        }
        return plan
    }

    /// A chain whose promise version would go instead of becoming a wrapper: its conversion
    /// (the promise version deleted), why it has no wrapper, and the promise function's USR.
    typealias Candidate = (conversion: Conversion, reason: String, usr: String)

    /// The note of a chain left, for `reason`.
    static func leftAsChain(_ site: FunctionSite, _ reason: String) -> MigrationNote {
        MigrationNote(path: site.file.path, line: site.line, message: "\(site.signature): left as a chain: \(reason)")
    }

    /// Which of `candidates` (chains whose wrapper Swift 6 mode rejects) go without a wrapper:
    /// those whose promise version nothing calls but their own twin's forwarding call and the
    /// bodies of the other chains converted (those bodies become wrappers or go); to a fixed
    /// point, as one left keeps its callers. The others are left, with the reason and callers.
    static func settleWithoutWrapper(
        _ candidates: [Candidate], in plan: inout Plan, set: SourceSet,
        callers: (String) -> [(path: String, offset: Int)], includingPublic: Bool, inactive: [String: [String]], wrappable: Set<String> = []
    ) {
        var reasons = reasonsToKeep(candidates, includingPublic: includingPublic, inactive: inactive)
        var remaining = candidates.filter { reasons[$0.usr] == nil }
        var dependencies: [String: Set<String>] = [:]
        var changed = true
        while changed {
            changed = false
            // Bodies whose text this plan replaces: a call in them that the twin awaits through its
            // async twin no longer names the promise version (one kept as a promise still does).
            // (A candidate the Swift 5 rule lets keep a wrapper is replaced either way.)
            let moving = plan.conversions + candidates.filter { candidate in
                wrappable.contains(candidate.usr) || remaining.contains { $0.usr == candidate.usr }
            }.map(\.conversion)
            for candidate in remaining {
                let (outside, needed) = otherCalls(of: candidate, moving: moving, callers: callers)
                dependencies[candidate.usr] = needed
                if !outside.isEmpty {
                    reasons[candidate.usr] = stillCalledReason(outside, in: set)
                    changed = true
                }
            }
            remaining.removeAll { reasons[$0.usr] != nil }
        }
        for candidate in candidates {
            if let why = reasons[candidate.usr] {
                let note = leftAsChain(candidate.conversion.site, candidate.reason + why)
                // The Swift 5 rule: its wrapper may stay (a second planning writes it).
                if wrappable.contains(candidate.usr) { plan.toWrap[candidate.usr] = note } else { plan.left.append(note) }
            } else {
                var conversion = candidate.conversion
                conversion.dependsOn = dependencies[candidate.usr] ?? []
                plan.conversions.append(conversion)
            }
        }
    }

    /// The candidates whose promise version stays whoever calls it (by USR, what the note adds
    /// to the reason): a public, open or package one without `includingPublic`, and one named in
    /// an inactive `#if` clause (`inactive`, by name).
    static func reasonsToKeep(_ candidates: [Candidate], includingPublic: Bool, inactive: [String: [String]]) -> [String: String] {
        var reasons: [String: String] = [:]
        for candidate in candidates {
            let site = candidate.conversion.site
            if !includingPublic, site.decl.modifiers.contains(where: { ["public", "open", "package"].contains($0.name.text) }) {
                reasons[candidate.usr] = " (and it is public: without --include-public the promise version cannot go instead)"
            } else if let mentions = inactive[site.name] {
                reasons[candidate.usr] = " (and it is named in an inactive `#if` clause at \(mentions.prefix(2).joined(separator: ", ")))"
            }
        }
        return reasons
    }

    /// The references of `candidate`'s promise version that keep it: all but its twin's
    /// forwarding call and the calls that the twins of the conversions `moving` await through
    /// their async twins; with the summaries of those conversions (`Conversion.dependsOn`).
    static func otherCalls(
        of candidate: Candidate, moving: [Conversion], callers: (String) -> [(path: String, offset: Int)]
    ) -> (outside: [(path: String, offset: Int)], needed: Set<String>) {
        let key = CompilerFacts.key(candidate.conversion.site.file.path)
        let twinBody = candidate.conversion.edits[0]
        var needed: Set<String> = []
        let outside = callers(candidate.usr).filter { place in
            let placeKey = CompilerFacts.key(place.path)
            if placeKey == key, (twinBody.start..<twinBody.end).contains(place.offset) { return false }
            let holder = moving.first { conversion in
                guard CompilerFacts.key(conversion.site.file.path) == placeKey, let body = conversion.site.decl.body,
                      (body.position.utf8Offset..<body.endPosition.utf8Offset).contains(place.offset) else { return false }
                let call = calls(in: body).first { Calls.nameOffset(of: $0) == place.offset }
                return call.map { conversion.awaitedThroughTwins.contains($0.trimmedDescription) } == true
            }
            if let holder, holder.summary != candidate.conversion.summary { needed.insert(holder.summary) }
            return holder == nil
        }
        return (outside, needed)
    }

    /// What a candidate's note adds when its promise version is still called at `outside`
    /// (the first three places, `path:line`).
    static func stillCalledReason(_ outside: [(path: String, offset: Int)], in set: SourceSet) -> String {
        let places = outside.prefix(3).map { place in
            let scanned = set.files.first { CompilerFacts.key($0.path) == CompilerFacts.key(place.path) }
            let text = scanned?.text ?? (try? String(contentsOfFile: place.path, encoding: .utf8)) ?? ""
            return "\(scanned?.path ?? place.path):\(EditProof.line(of: place.offset, in: text))"
        }
        return "; the promise version, which could go instead, is still called at \(places.joined(separator: ", "))"
            + (outside.count > 3 ? " and \(outside.count - 3) more place(s)" : "")
    }

    /// `StdPromise(on: .immediate) { try await f(…) }` (or `StdPromise { … }`, an older form,
    /// without `on:`), possibly followed by the `mapError` or `recover` that restores the error type
    /// and the `withToken` that restores a `TokenPromise`: what this command writes.
    static func isWrapper(_ body: CodeBlockSyntax) -> Bool {
        guard body.statements.count == 1, var call = body.statements.first?.item.as(FunctionCallExprSyntax.self) else { return false }
        for suffix in ["withToken", "then", "mapError|recover"] {
            if let member = call.calledExpression.as(MemberAccessExprSyntax.self),
               suffix.split(separator: "|").contains(Substring(member.declName.baseName.text)),
               let base = member.base?.as(FunctionCallExprSyntax.self) {
                call = base
            }
        }
        return Calls.isTaskPromiseBridge(call)
    }

    /// The names of the contexts declared in `extension PromiseContext.CallerIsolated` or
    /// `extension PromiseContext.Main` (`extended`; by `adopt`, for a 1.x context whose value is
    /// `.auto` or `.immediate`, or `.main`, or by hand).
    static func contexts(in set: SourceSet, extending extended: String) -> Set<String> {
        var names: Set<String> = []
        for file in set.files {
            for item in file.tree.statements {
                guard let extensionDecl = item.item.as(ExtensionDeclSyntax.self),
                      extensionDecl.extendedType.trimmedDescription.hasSuffix(extended) else { continue }
                for member in extensionDecl.memberBlock.members {
                    if let variable = member.decl.as(VariableDeclSyntax.self) {
                        names.formUnion(variable.bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text })
                    } else if let function = member.decl.as(FunctionDeclSyntax.self) {
                        names.insert(function.name.text)
                    }
                }
            }
        }
        return names
    }

    /// The stored properties of `container` (its declarations and extensions in `set`) that may
    /// hold a context: by name, the type written and, for a `let` initialized with a context
    /// spelled out (`.main`, `.immediate`, `.utility`), that context.
    static func storedContexts(of container: String?, in set: SourceSet) -> [String: ChainConversion.StoredContext] {
        guard let container else { return [:] }
        var found: [String: ChainConversion.StoredContext] = [:]
        for member in memberBlocks(of: container, in: set).flatMap(\.members) {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            for binding in variable.bindings {
                guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, binding.accessorBlock == nil else { continue }
                let value = binding.initializer?.value
                let spelled = value.flatMap { $0.as(MemberAccessExprSyntax.self) }.map { $0.base == nil } == true
                found[name] = ChainConversion.StoredContext(
                    type: binding.typeAnnotation?.type.trimmedDescription ?? "",
                    constant: variable.bindingSpecifier.text == "let" && spelled ? value : nil
                )
            }
        }
        return found
    }

    /// Why `site` cannot become a wrapper with the same meaning, or nil.
    static func reasonToLeave(_ site: FunctionSite, _ promise: PromiseType, project: Project, sendableChecked: Bool = true) -> String? {
        if site.decl.modifiers.contains(where: { $0.name.text == "mutating" }) { return "mutating: the wrapper's Task cannot hold on to `self`" }
        if case .failure(let reason) = Twins.forwardedArguments(of: site.decl, inoutAllowed: false) { return reason.text }
        guard sendableChecked else { return nil }
        if !project.selfIsSendable(in: site) {
            return "`\(site.container ?? "")` is not known to be Sendable: the wrapper's Task cannot capture `self` in Swift 6 mode"
        }
        if let parameter = project.nonSendableParameter(of: site) {
            return "parameter `\(parameter.parameterName ?? "_")` \(Project.captureProblem(of: parameter)): the wrapper's Task cannot capture it"
        }
        return nil
    }

    /// `lines` (the twin's statements) with the calls of `names` that nothing pins to their
    /// promise type in async code (`let p = f()`, `_ = f()`, `f()` as a statement or an
    /// argument) written `f() as Promise<…>`; the type is the compiler's (`typeOf`, given the
    /// same call in `body`, the original). Calls whose type is not known stay as they are (the
    /// proof then finds what they name).
    static func pinned(
        _ lines: [String], names: Set<String>, in body: CodeBlockSyntax, typeOf: (FunctionCallExprSyntax) -> String?
    ) -> [String] {
        guard !names.isEmpty else { return lines }
        let prefix = "func twin() async throws {\n"
        let file = ParsedFile(path: "twin.swift", folder: "", text: prefix + lines.joined(separator: "\n") + "\n}\n")
        let finder = UnsafeCallFinder(file: file, names: names)
        finder.walk(file.tree)
        var edits: [TextEdit] = []
        let originals = calls(in: body)
        // A call under `await` is one the conversion awaits (its twin, or `.value` of its promise).
        // Matched by their tokens: a statement over several lines moved into the twin with its indentation changed.
        let tokens = { (call: FunctionCallExprSyntax) in call.tokens(viewMode: .sourceAccurate).map(\.text) }
        for unsafe in finder.found where !Calls.isUnderAwait(Syntax(unsafe.call)) {
            let text = tokens(unsafe.call)
            guard let original = originals.first(where: { tokens($0) == text }), let type = typeOf(original) else { continue }
            edits += unsafe.edits(coercingTo: type).map(\.edit)
        }
        guard !edits.isEmpty else { return lines }
        let updated = TextEdit.apply(edits, to: file.text)
        return [String(updated.dropFirst(prefix.count).dropLast("\n}\n".count))]
    }

    /// Every call in `node`.
    static func calls(in node: CodeBlockSyntax) -> [FunctionCallExprSyntax] {
        let collector = CallCollector(viewMode: .sourceAccurate)
        collector.walk(node)
        return collector.calls
    }

    /// The promise function's new body: its twin in a Task that starts at once
    /// (`StdPromise(on: .immediate) { … }`: synchronously, in the caller's isolation, until the
    /// twin first suspends, as 1.x ran the function's statements and its chain's first request
    /// during the call; `CancellationError` cancels the promise and any other error rejects
    /// it). A typed error is restored by `mapError` (the twin throws only that error or
    /// `CancellationError`); for `NoError`, `recover` never runs (the twin throws only
    /// `CancellationError`, typed); a `TokenPromise` gets its token back (`.withToken(token)`).
    /// With `executorPreference` (`sharedExecutor(of:)`), the Task prefers it after its first
    /// suspension (`StdPromise(on: .immediate, executorPreference: …)`); with `resolvedOn`, the
    /// promise resolves on that context (`.then(on: c) { _ in }`; `.always`, with `everyResult`), where 1.x's did. Broken after the
    /// Task when longer than `width`, and in the Task when that is.
    static func wrapperText(
        _ site: FunctionSite, _ promise: PromiseType, token: String? = nil, executorPreference: String? = nil, resolvedOn: String? = nil,
        everyResult: Bool = false, width: Int
    ) -> String {
        let arguments = (try? Twins.forwardedArguments(of: site.decl, inoutAllowed: false).get()) ?? ""
        let receiver = site.container != nil ? "self." : ""
        let start = executorPreference.map { "StdPromise(on: .immediate, executorPreference: \($0))" } ?? "StdPromise(on: .immediate)"
        let call = "try await \(receiver)\(site.name)(\(arguments))"
        let task = start.count + call.count + 6 <= width ? "\(start) { \(call) }" : "\(start) {\n    \(call)\n}"
        var suffixes: [String] = []
        if promise.hasUntypedError {
        } else if promise.hasNoError {
            suffixes.append(".recover(on: .immediate) { _ in preconditionFailure(\"the async \(site.name) throws only CancellationError\") }")
        } else {
            suffixes.append(".mapError(on: .immediate) { $0 as! \(promise.error) }")
        }
        if let resolvedOn { suffixes.append(".\(everyResult ? "always" : "then")(on: \(resolvedOn)) { _ in }") }
        if let token { suffixes.append(".withToken(\(token))") }
        let oneLine = task + suffixes.joined()
        return oneLine.count <= width && !task.contains("\n") ? oneLine : ([task] + suffixes.map { "    " + $0 }).joined(separator: "\n")
    }

    /// The executor a nonisolated twin's wrapper prefers: the one every
    /// `withTaskExecutorPreference(…) { @concurrent in` of the twin names, when that is a context
    /// of the package's own, a static member (`PromiseContext.sync.taskExecutor`: in scope in the
    /// wrapper too), not `.main` or a global queue's. 1.x ran each of those steps on that context
    /// (typically a serial queue of the package): a Task that prefers it resumes there after each
    /// await, instead of on a thread of the global executor that only hops to it, and ends there,
    /// where the promise's own callbacks on that context then run without another thread. Also
    /// `PromiseContext.queue(Queues.sync).taskExecutor`, a queue held in a static property of a
    /// type (`DispatchQueue.main` aside): the same queue wherever it is read.
    static func sharedExecutor(of lines: [String]) -> String? {
        let text = lines.joined(separator: "\n")
        let opening = "withTaskExecutorPreference(", closing = ") { @concurrent in"
        var executors: Set<String> = []
        var rest = text[...]
        while let open = rest.range(of: opening) {
            let afterOpen = rest[open.upperBound...]
            guard let close = afterOpen.range(of: closing), !afterOpen[..<close.lowerBound].contains("\n") else { return nil }
            executors.insert(String(afterOpen[..<close.lowerBound]))
            rest = afterOpen[close.upperBound...]
        }
        guard executors.count == 1, let executor = executors.first, executor.hasPrefix("PromiseContext."), executor.hasSuffix(".taskExecutor") else {
            return nil
        }
        let name = executor.dropFirst("PromiseContext.".count).dropLast(".taskExecutor".count)
        if name.hasPrefix("queue("), name.hasSuffix(")") {
            let path = name.dropFirst("queue(".count).dropLast().split(separator: ".", omittingEmptySubsequences: false)
            let isStatic = path.count > 1 && path[0].first?.isUppercase == true && path.joined(separator: ".") != "DispatchQueue.main"
                && path.allSatisfy { $0.first?.isLetter == true && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } }
            return isStatic ? executor : nil
        }
        let builtIn: Set<Substring> = ["main", "background", "utility", "default", "userInitiated", "userInteractive", "immediate", "auto"]
        guard let first = name.first, first.isLowercase, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !builtIn.contains(name) else {
            return nil
        }
        return executor
    }

    /// `{`, the lines indented one level below `indent`, `}`.
    static func block(_ lines: [String], indent: String) -> String {
        let inner = lines.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }
            .map { $0.isEmpty ? "" : indent + "    " + $0 }
        return "{\n" + inner.joined(separator: "\n") + "\n" + indent + "}"
    }

    /// The twin's doc note said it awaits the promise; now the promise wraps it.
    static func docEdits(of twin: FunctionSite) -> [TextEdit] {
        let old = "awaits the promise it returns."
        var edits: [TextEdit] = []
        var offset = twin.decl.position.utf8Offset
        for piece in twin.decl.leadingTrivia {
            if case .docLineComment(let text) = piece, let range = text.range(of: old) {
                let start = offset + text[..<range.lowerBound].utf8.count
                edits.append(TextEdit(start: start, end: start + old.utf8.count, text: "does the work; the promise version wraps it."))
            }
            offset += piece.sourceLength.utf8Length
        }
        return edits
    }

    /// The async method of a protocol requirement's implementation: the twin `add-async-twins`
    /// writes for a function (its signature, `nonisolated(nonsending)`, the original's doc comment
    /// and the twin's note), with `body` (a block) for its body; without the leading indentation.
    static func conformerMethod(for site: FunctionSite, body: String) -> String? {
        var text = AddAsyncTwins.twinText(for: site, nonsending: true)
        guard let parsed = Parser.parse(source: text).statements.first?.item.as(FunctionDeclSyntax.self), let old = parsed.body else { return nil }
        let start = text.utf8.index(text.utf8.startIndex, offsetBy: old.positionAfterSkippingLeadingTrivia.utf8Offset)
        let end = text.utf8.index(text.utf8.startIndex, offsetBy: old.endPositionBeforeTrailingTrivia.utf8Offset)
        text.replaceSubrange(start..<end, with: body)
        text = text.replacingOccurrences(of: "awaits the promise it returns.", with: "does the work; the promise version wraps it.")
        // An override's async method overrides the twin of the method it overrides.
        // (In its header line: `override public func` is written `nonisolated(nonsending) public func`.)
        if site.decl.modifiers.contains(where: { $0.name.text == "override" }), let name = text.range(of: "func \(site.name)"),
           let range = text.range(of: "nonisolated(nonsending) ", range: text[..<name.lowerBound].lastIndex(of: "\n").map { $0..<name.lowerBound }
               ?? text.startIndex..<name.lowerBound) {
            text.replaceSubrange(range, with: "override nonisolated(nonsending) ")
        }
        return String(text.drop { $0 == " " })
    }

    /// A twin whose promise version goes: its doc note (from "Async twin of" to the end of that
    /// paragraph) says what it is now.
    static func wrapperFreeDocEdits(of twin: FunctionSite) -> [TextEdit] {
        var offset = twin.decl.position.utf8Offset
        var start: Int?
        var end = 0
        for piece in twin.decl.leadingTrivia {
            let length = piece.sourceLength.utf8Length
            if case .docLineComment(let text) = piece {
                if start == nil, text.contains("Async twin of `"), text.contains("(added by tomorrowland-migrate)") {
                    start = offset
                } else if start != nil, text.trimmingCharacters(in: .whitespaces) == "///" {
                    break
                }
                if start != nil { end = offset + length }
            }
            offset += length
        }
        guard let start else { return [] }
        let note = "/// Converted by tomorrowland-migrate (convert-body) from its promise version, which nothing called any more."
        let indent = Twins.indentation(of: twin.decl, in: twin.file)
        guard indent.count + note.count > Twins.maximumLineLength else { return [TextEdit(start: start, end: end, text: note)] }
        let text = "/// Converted by tomorrowland-migrate (convert-body) from its promise version,\n\(indent)/// which nothing called any more."
        return [TextEdit(start: start, end: end, text: text)]
    }

    /// The changes and notes of `plan`, with the tally as the last note; with `project`, before
    /// it the advice for the chains left for a non-`Sendable` capture (ConvertBody+SendableAdvice.swift).
    static func result(of plan: Plan, in set: SourceSet, extraNotes: [MigrationNote] = [], project: Project? = nil) -> MigrationResult {
        var result = MigrationResult(problems: set.problems)
        for file in set.files {
            let edits = plan.conversions.filter { $0.site.file.path == file.path }.flatMap(\.edits)
            guard !edits.isEmpty else { continue }
            result.changes.append(FileChange(path: file.path, original: file.text, updated: TextEdit.apply(edits, to: file.text)))
        }
        result.notes = plan.left + extraNotes
        let advice = project.map { sendableAdvice(for: plan.left, in: set, project: $0) } ?? []
        result.notes += advice
        let waiting = plan.left.filter(waitsOnlyOnSendable).count
        result.notes.append(MigrationNote(
            path: set.files.first?.path ?? ".", line: 1,
            message: "convert-body: \(plan.conversions.count) of \(plan.chains) chain bodies converted, \(plan.left.count) left (reasons above)"
                + (advice.isEmpty ? "" : "; \(waiting) \(waiting == 1 ? "waits" : "wait") on a type being Sendable (what to do: the notes before this one)")
        ))
        return result
    }
}

extension ConvertBody {
    /// Plans with the compiler's facts and proves each conversion with `EditProof` in a scratch
    /// copy (built in the package's language mode; every other reference must name what it
    /// named, and each wrapper's call must name its async twin). (`--test` is the command
    /// line's, shared with convert-calls and delete-twins.)
    ///
    /// A chain whose wrapper would capture a non-`Sendable` `self` or parameter in Swift 6 mode is
    /// converted without a wrapper when nothing in the package calls its promise version any more
    /// (the scanned files and every module that imports them; a public, open or package one only
    /// with `includingPublic`): the promise version goes, and the twin holds the straight-line code.
    /// In a Swift 5 mode module its wrapper may capture what the chain's closures captured
    /// (ConvertBody+SwiftFive.swift; `swiftFiveFiles`, for tests: those files' modules are taken
    /// to be the Swift 5 mode ones, not the modules' own `-swift-version`).
    public static func run(
        _ set: SourceSet, oracle: CompilerOracle, includingPublic: Bool = false, swiftFiveFiles: Set<String>? = nil
    ) -> MigrationResult {
        // The modules that import the scanned ones too: their calls of a promise version keep it.
        let paths = oracle.pathsWithDependents(of: set.files.map(\.path))
        guard let before = try? oracle.facts(for: paths), before.errors.isEmpty else { return withoutTypeChecking(set) }
        let set = set.recognizing(before)
        let project = Project(set, compiler: before)
        // (A declaration of a file that several modules compile: its copies' references meet.)
        let shared = DeleteTwins.sharedDeclarations(facts: before, oracle: oracle)
        let places = referencePlaces(in: before, shared: shared)
        let inactive = DeleteTwins.inactiveMentions(in: set, facts: before), sharedModules = SharedDeclarations.modulesOfSharedFiles(oracle)
        var plan = planned(with: CaptureRule(swiftFiveFiles: swiftFiveFiles ?? Self.swiftFiveFiles(of: oracle))) { rule in
            Self.plan(
                set, project: project, callers: { places[shared[$0] ?? $0] ?? [] }, includingPublic: includingPublic, inactive: inactive,
                sharedModules: sharedModules, rule: rule
            )
        }
        let proof = EditProof(oracle: oracle, before: before, paths: paths, set: set)
        let outcome = settle(plan: &plan, changes: plannedChanges(of: plan), proof: proof)
        if outcome.failed {
            var result = MigrationResult(problems: set.problems)
            result.notes = outcome.notes
            return result
        }
        keepProved(outcome, in: &plan)
        return result(of: plan, in: set, extraNotes: outcome.notes + plan.conversions.compactMap { plan.captured[$0.summary] }, project: project)
    }

    /// The syntax's plan when the package does not type-check: nothing written, and the tally
    /// says how many chain bodies could be converted once it does.
    static func withoutTypeChecking(_ set: SourceSet) -> MigrationResult {
        var result = run(set)
        result.changes = []
        // The tally counts what is written: nothing (the syntax's plan is only what could be).
        if let last = result.notes.indices.last, result.notes[last].message.hasPrefix("convert-body: ") {
            let planned = result.notes[last].message.dropFirst("convert-body: ".count).prefix { $0 != " " }
            result.notes[last] = MigrationNote(
                path: result.notes[last].path, line: result.notes[last].line,
                message: "convert-body: nothing converted (\(planned) of the chain bodies could be, once the package type-checks)"
            )
        }
        result.notes.insert(MigrationNote(
            path: set.files.first?.path ?? ".", line: 1,
            message: "nothing written: the package does not type-check as it is, so no conversion can be proved"
        ), at: 0)
        return result
    }

    /// Every reference, by the USR it names (a shared declaration's copies as one, `shared`):
    /// who still calls a promise version.
    static func referencePlaces(in facts: CompilerFacts, shared: [String: String]) -> [String: [(path: String, offset: Int)]] {
        var places: [String: [(path: String, offset: Int)]] = [:]
        // In the order of the files and of the places in them, so that a note lists them the same way every run.
        for (path, file) in facts.files.sorted(by: { $0.key < $1.key }) {
            for (offset, usrs) in file.references.sorted(by: { $0.key < $1.key }) {
                for usr in usrs.sorted() { places[shared[usr] ?? usr, default: []].append((path, offset)) }
            }
        }
        return places
    }

    /// The changes the proof checks, one per conversion: the wrapper's call names the async
    /// twin, a conformer's calls it took name its new method, and a pair stands or falls together.
    static func plannedChanges(of plan: Plan) -> [PlannedChange] {
        plan.conversions.map { conversion in
            var change = PlannedChange(
                path: conversion.site.file.path, edits: conversion.edits, scope: conversion.scope, line: conversion.site.line,
                summary: conversion.summary
            )
            // The wrapper's call names the async twin.
            if let twin = conversion.twinUSR, let offset = conversion.wrapperCallOffset {
                change.expectations.append(.init(place: .inserted(edit: 1, offset: offset), target: .usr(twin), meaning: "the async twin"))
            }
            change.expectations += retargetExpectations(of: conversion)
            change.group = conversion.pair
            return change
        }
    }

    /// The plan with only the conversions the proof accepted; those it dropped are left, with
    /// the compiler's reason.
    static func keepProved(_ outcome: EditProof.Outcome, in plan: inout Plan) {
        let accepted = Set(outcome.accepted.map(\.summary))
        for (change, reason) in outcome.dropped {
            let signature = change.summary.components(separatedBy: " at line")[0]
            plan.left.append(MigrationNote(path: change.path, line: change.line, message: "\(signature): left as a chain: \(reason)"))
        }
        plan.conversions.removeAll { !accepted.contains($0.summary) }
    }
}

extension ConvertBody {
    /// Proves `changes` in rounds. A promise version that goes (no wrapper) whose other calls
    /// were in chains converted with it waits for those chains: it is proved in a later round,
    /// with what passed, only once all of them passed. A round that fails as a whole keeps the
    /// outcome before it, and its promise versions stay (left, with the compiler's words);
    /// so does a first round that fails only with them in it.
    static func settle(plan: inout Plan, changes: [PlannedChange], proof: EditProof) -> EditProof.Outcome {
        let bySummary = Dictionary(plan.conversions.map { ($0.summary, $0) }, uniquingKeysWith: { first, _ in first })
        func leave(_ summaries: [String], _ reason: String) {
            for summary in summaries {
                guard let conversion = bySummary[summary] else { continue }
                plan.left.append(MigrationNote(
                    path: conversion.site.file.path, line: conversion.site.line,
                    message: "\(conversion.site.signature): left as a chain: \(reason)"
                ))
            }
        }
        var waiting = changes.filter { bySummary[$0.summary]?.dependsOn.isEmpty == false }
        var outcome = proof.settle(changes.filter { bySummary[$0.summary]?.dependsOn.isEmpty != false })
        if outcome.failed {
            let withoutWrapper = changes.filter { bySummary[$0.summary]?.withoutWrapper == true }
            guard !withoutWrapper.isEmpty else { return outcome }
            let retry = proof.settle(changes.filter { bySummary[$0.summary]?.withoutWrapper != true })
            guard !retry.failed else { return outcome }
            leave(withoutWrapper.map(\.summary), "the compiler objects to removing its promise version (\(outcome.notes.first?.message ?? ""))")
            leave(waiting.map(\.summary), "its promise version is still called by a chain the compiler did not let convert")
            return retry
        }
        while true {
            let passed = Set(outcome.accepted.map(\.summary))
            let ready = waiting.filter { bySummary[$0.summary]!.dependsOn.isSubset(of: passed) }
            guard !ready.isEmpty else { break }
            waiting.removeAll { change in ready.contains { $0.summary == change.summary } }
            let next = proof.settle(outcome.accepted + ready)
            if next.failed {
                leave(ready.map(\.summary), "the compiler objects to removing its promise version (\(next.notes.first?.message ?? ""))")
                break
            }
            let dropped = outcome.dropped
            outcome = next
            outcome.dropped = dropped + next.dropped
        }
        leave(waiting.map(\.summary), "its promise version is still called by a chain the compiler did not let convert")
        return outcome
    }
}

/// Every call in what it walks.
private final class CallCollector: SyntaxVisitor {
    var calls: [FunctionCallExprSyntax] = []

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        calls.append(node)
        return .visitChildren
    }
}
