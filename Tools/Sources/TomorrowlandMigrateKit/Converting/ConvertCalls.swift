// `convert-calls`: in async code, a bridge to a promise-returning function that has an async
// twin becomes a direct call of the twin: `try await f(x).value` and the pinned
// `try await (f(x) as Promise<T, E>).value` become `try await f(x)` (`.inner.value` of a
// TokenPromise too), and a `switch` on `await f(x).resolvedResult` a do/catch (`ResultSwitch`).
// Only where the async counterpart throws what the bridge throws (so every `catch` keeps
// matching) and the compiler's proof shows that the call then names it; the rest is listed
// with the reason.

import Foundation
import SwiftSyntax

public enum ConvertCalls {
    /// Why a bridge stays, as the notes say it (tests and scripts count by these).
    enum Reason {
        static let resolvedResult = "`.resolvedResult` gives a PromiseResult; its do/catch equivalent would be longer"
        static let cancellationPolicy = "`.value(onTaskCancel:)` chooses a Task-cancellation policy that the direct call has not"
        static let untypedResultSwitch = "a `switch` on `.resolvedResult` of a promise whose error is untyped (or of a throwing function): "
            + "a rejection with CancellationError would move to the cancelled case"
        static let valueUse = "the promise is used as a value (kept, passed on or chained), not awaited at once"
        static func thrown(bridge: String, direct: String) -> String {
            "the bridge throws \(bridge) but the async counterpart throws \(direct): existing `catch` clauses could stop matching"
        }
    }

    /// Plans the conversions with the compiler's facts, proves them in a scratch copy and
    /// returns what passed, with a note for every bridge left and why. Refuses (a note, no
    /// changes) when the compiler cannot be asked or the code does not type-check.
    public static func run(_ set: SourceSet, oracle: CompilerOracle) -> MigrationResult {
        var result = MigrationResult(problems: set.problems)
        // Twins in modules the scanned ones import (`Sources/` for `convert-calls Tests/`) are
        // targets too: their files, where the tool wrote any, are type-checked with the rest.
        let twinFiles = oracle.dependencySources(of: set.files.map(\.path)).compactMap { path -> (path: String, text: String)? in
            // The end of the twins' note, "(added by tomorrowland-migrate)", wrapped or not.
            guard let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains("tomorrowland-migrate)") else { return nil }
            return (path, text)
        }
        let start = EditProof.start(set, paths: set.files.map(\.path) + twinFiles.map(\.path), oracle: oracle, nothing: "nothing converted")
        guard let prover = start.proof else {
            result.notes = start.refusal.map { [$0] } ?? []
            return result
        }
        let imported = SourceSet.inMemory(twinFiles).recognizing(prover.before).files
        let (changes, left) = plan(prover.set, project: prover.project, importedFiles: imported)
        let proof = prover.settle(changes)
        var leftOver = left
        for (change, reason) in proof.dropped {
            leftOver.append(Left(path: change.path, line: change.line, text: change.summary, reason: reason))
        }
        result.notes = leftOver.sorted { ($0.path, $0.line) < ($1.path, $1.line) }.map(\.note) + proof.notes
        guard !proof.failed else { return result }
        result.changes = EditProof.fileChanges(proof.accepted, in: prover.set)
        let converted = proof.accepted.map(TestBridges.callCount(of:)).reduce(0, +)
        result.notes.append(MigrationNote(path: set.files.first?.path ?? ".", line: 1, message: summary(converted: converted, left: leftOver)))
        return result
    }

    /// A bridge left as it is (an Error only to travel in a `Result`).
    struct Left: Error {
        let path: String
        let line: Int
        /// The code, or the change that was tried.
        let text: String
        let reason: String

        var note: MigrationNote { MigrationNote(path: path, line: line, message: "left \(text): \(reason)") }
        /// The reason without the compiler's particulars.
        var kind: String {
            if reason.hasPrefix("the compiler objects") { return "the compiler objects" }
            return reason.hasPrefix(TestBridges.stillWaitsKind) ? TestBridges.stillWaitsKind : reason
        }
    }

    /// `convert-calls: 12 call(s) converted, 3 left (2 …; 1 …)`.
    static func summary(converted: Int, left: [Left]) -> String {
        let reasons = Dictionary(grouping: left, by: \.kind).sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }
        let listed = reasons.map { "\($0.value.count): \($0.key)" }.joined(separator: "; ")
        return "convert-calls: \(converted) call(s) converted, \(left.count) left" + (listed.isEmpty ? "" : " (\(listed))")
    }

    /// The pair each promise-returning function's calls can go to, by its USR: its own, or (for
    /// a conformer's method or an override) the pair of the requirement it implements or the
    /// method it overrides, whose twin reaches it dynamically.
    static func targets(of pairs: [TwinPair], sites: [FunctionSite], project: Project) -> [String: TwinPair] {
        var targets: [String: TwinPair] = [:]
        for pair in pairs { targets[pair.promiseUSR] = pair }
        for site in sites where !site.isAsync && site.promise != nil {
            guard let usr = project.usr(of: site), targets[usr] == nil else { continue }
            let overrides = site.decl.modifiers.contains { $0.name.text == "override" }
            let served = pairs.first { pair in
                pair.promise.inProtocol ? project.implements(site, pair.promise)
                    : overrides && pair.promise.name == site.name && pair.promise.labels == site.labels
                        && pair.promise.container.map { container in
                            site.container.map(project.ancestors(of:))?.dropFirst().contains(container) == true
                        } == true
            }
            if let served { targets[usr] = served }
        }
        return targets
    }

    /// The conversions to prove, and the notes of bridges left. `importedFiles`: files of
    /// modules the scanned ones import, whose twins count (nothing is changed there). The loop
    /// over `CallConversionAction`, each call in synchronous code handed to the test bridges,
    /// then the test methods' changes.
    static func plan(_ set: SourceSet, project: Project, importedFiles: [ParsedFile] = []) -> (changes: [PlannedChange], left: [Left]) {
        let pairs = TwinPairs.find(in: set.files + importedFiles, project: project)
        let sites = set.files.flatMap(FunctionSite.all(in:))
        let action = CallConversionAction(pairs: pairs, sites: sites, project: project)
        var changes: [PlannedChange] = []
        var left: [Left] = []
        // Synchronous tests that wait through a helper of the test support (`result(of: f())`).
        var tests = TestBridges.Planner(sites: sites, project: project)
        for file in set.files {
            let finder = CallFinder(viewMode: .sourceAccurate)
            finder.walk(file.tree)
            for call in finder.calls {
                let site = CallConversionAction.Site(call: call, file: file)
                switch action.apply(to: site) {
                case .holds(let change):
                    changes.append(change)
                case .declines(let reason):
                    left.append(action.left(site, reason))
                case .notApplicable:
                    // A call in synchronous code: a test's wait through a helper, when it is one.
                    guard let target = action.target(of: site),
                          let stays = tests.plan(call, pair: target.pair, promiseSite: target.promiseSite, in: file, project: project) else { continue }
                    left.append(stays)
                }
            }
        }
        let (testChanges, testsLeft, kept) = tests.changes(twinned: Set(action.targets.values.map(\.promise.name)), project: project)
        changes += testChanges
        // A helper's call whose promise a converted test now awaits (TestBridges+KeptPromises) is not left.
        left.removeAll { kept.contains(TestBridges.leftKey(path: $0.path, line: $0.line, text: $0.text)) }
        left += testsLeft
        left += tests.otherCalls(in: set.files, twinned: Set(action.targets.keys), kept: kept, project: project)
        return (changes, left)
    }

    /// The edits of one conversion, the original text it answers for, and what it does.
    struct Conversion {
        let edits: [TextEdit]
        let scope: Range<Int>
        let summary: String
    }

    /// The reason a bridge that throws `bridge` stays when `async`, its counterpart, throws
    /// something else (a `catch` could stop matching); nil when they throw the same.
    static func thrownMismatch(bridge: String, async: FunctionSite) -> SkipReason? {
        let direct = thrown(by: async)
        return bridge == direct ? nil : SkipReason(Reason.thrown(bridge: bridge, direct: direct))
    }

    /// `try await f(x).value` (or pinned, or `.inner.value`) as `try await f(x)`.
    static func valueConversion(_ outer: ExprSyntax, parentheses: ExprSyntax?, call: FunctionCallExprSyntax, in file: ParsedFile) -> Conversion {
        let awaited = Self.outermostEffects(of: outer)
        var edits: [TextEdit] = []
        if let parentheses {
            let open = parentheses.positionAfterSkippingLeadingTrivia.utf8Offset
            edits.append(TextEdit(start: open, end: call.positionAfterSkippingLeadingTrivia.utf8Offset, text: ""))
        }
        let callEnd = call.endPositionBeforeTrailingTrivia.utf8Offset
        edits.append(TextEdit(start: callEnd, end: outer.endPositionBeforeTrailingTrivia.utf8Offset, text: ""))
        let start = awaited.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = awaited.endPositionBeforeTrailingTrivia.utf8Offset
        let before = String(decoding: Array(file.text.utf8)[start..<end], as: UTF8.self)
        let after = TextEdit.apply(edits.map { TextEdit(start: $0.start - start, end: $0.end - start, text: $0.text) }, to: before)
        return Conversion(edits: edits, scope: start..<end, summary: "`\(Self.oneLine(before))` → `\(Self.oneLine(after))`")
    }

    /// Why a `switch` on `.resolvedResult` of `site`'s promise stays: the promise's error is
    /// untyped (or the function throws), or `async` does not throw what the twin of such a
    /// promise throws. Nil when it converts.
    static func switchDecline(site: FunctionSite, async: FunctionSite) -> SkipReason? {
        guard let promise = site.promise, site.decl.signature.effectSpecifiers?.throwsClause == nil,
              promise.hasNoError || !promise.hasUntypedError else { return SkipReason(Reason.untypedResultSwitch) }
        return thrownMismatch(bridge: promise.hasNoError ? "CancellationError" : "any Error", async: async)
    }

    /// `switch await f(x).resolvedResult`, as the notes name it.
    static func switchSubject(_ call: FunctionCallExprSyntax) -> String {
        "`switch await \(Self.shortText(of: call)).resolvedResult`"
    }

    /// `switch await f(x).resolvedResult { … }` as a do/catch (see `ResultSwitch`), for a promise
    /// `switchDecline` accepts. `error`: the error as the call site can spell it, when the compiler knows it.
    static func switchConversion(
        _ switchExpr: SwitchExprSyntax, call: FunctionCallExprSyntax, site: FunctionSite, error: String?, in file: ParsedFile
    ) -> Result<Conversion, SkipReason> {
        guard let promise = site.promise else { return .failure(SkipReason(Reason.untypedResultSwitch)) }
        let edits = ResultSwitch.edits(
            switchExpr, call: call, error: error ?? promise.error, noError: promise.hasNoError, value: promise.value, in: file
        )
        return edits.map { edits in
            let scope = switchExpr.positionAfterSkippingLeadingTrivia.utf8Offset..<switchExpr.endPositionBeforeTrailingTrivia.utf8Offset
            let summary = "\(switchSubject(call)) → `do { … try await \(Self.shortText(of: call)) … } catch …`"
            return Conversion(edits: edits, scope: scope, summary: summary)
        }
    }

    /// What surrounds a call of a promise-returning function.
    enum Bridge {
        /// Not awaited through a member of the promise.
        case none
        /// `await f(…).value` or `await (f(…) as P).value` (`.inner.value`): `outer` is the
        /// member access, `parentheses` the `(f(…) as P)` of a pinned call.
        case value(outer: ExprSyntax, parentheses: ExprSyntax?)
        /// `switch await f(…).resolvedResult { … }`.
        case resultSwitch(SwitchExprSyntax)
        /// An awaited member that is not converted, and why.
        case unsupported(String, outer: ExprSyntax)
    }

    /// The bridge `call` is awaited through, read from the syntax around it.
    static func bridge(around call: FunctionCallExprSyntax) -> Bridge {
        let parentheses = Calls.coercedParentheses(around: call)
        let base = parentheses ?? ExprSyntax(call)
        guard let member = base.parent?.as(MemberAccessExprSyntax.self), member.base?.id == base.id,
              Calls.isUnderAwait(Syntax(member)) else { return .none }
        var outer = member
        switch member.declName.baseName.text {
        case "value": break
        case "inner":
            guard let value = member.parent?.as(MemberAccessExprSyntax.self), value.declName.baseName.text == "value" else { return .none }
            outer = value
        case "resolvedResult":
            if let awaited = member.parent?.as(AwaitExprSyntax.self), let switchExpr = awaited.parent?.as(SwitchExprSyntax.self),
               switchExpr.subject.id == awaited.id {
                return .resultSwitch(switchExpr)
            }
            return .unsupported(Reason.resolvedResult, outer: ExprSyntax(member))
        default:
            return .none
        }
        if let called = outer.parent?.as(FunctionCallExprSyntax.self), called.calledExpression.id == outer.id {
            return .unsupported(Reason.cancellationPolicy, outer: ExprSyntax(called))
        }
        return .value(outer: ExprSyntax(outer), parentheses: parentheses)
    }

    /// What `try await f(…).value` throws: `any Error`, or only `CancellationError` for a
    /// promise whose error is NoError (from a function that does not throw itself).
    static func bridgeThrows(_ site: FunctionSite) -> String {
        if site.decl.signature.effectSpecifiers?.throwsClause != nil { return "any Error" }
        return site.promise?.hasNoError == true ? "CancellationError" : "any Error"
    }

    /// What an async function throws, spelled like `bridgeThrows`.
    static func thrown(by site: FunctionSite) -> String {
        guard let clause = site.decl.signature.effectSpecifiers?.throwsClause else { return "nothing" }
        guard let type = clause.type?.trimmedDescription, !["any Error", "Error", "Swift.Error", "any Swift.Error"].contains(type) else {
            return "any Error"
        }
        return type == "Swift.CancellationError" ? "CancellationError" : type
    }

    /// `try await` / `await` around `expression`, up to the outermost.
    static func outermostEffects(of expression: ExprSyntax) -> ExprSyntax {
        var outer = expression
        while let parent = outer.parent, parent.is(TryExprSyntax.self) || parent.is(AwaitExprSyntax.self) {
            outer = ExprSyntax(parent)!
        }
        return outer
    }

    /// Text on one line, cut at 80 characters, for notes.
    static func oneLine(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            .replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
        return line.count > 80 ? String(line.prefix(79)) + "…" : line
    }

    static func shortText(of node: some SyntaxProtocol) -> String {
        oneLine(node.trimmedDescription)
    }
}

/// Every function call of a file, outermost first.
final class CallFinder: SyntaxVisitor {
    var calls: [FunctionCallExprSyntax] = []

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        calls.append(node)
        return .visitChildren
    }
}
