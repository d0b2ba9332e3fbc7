// `convert-body`: a promise-returning function whose body is a chain and whose async twin
// `add-async-twins` wrote. The twin gets the chain as straight-line code; the promise version
// becomes the thin wrapper `StdPromise { try await f(…) }`, so that every caller keeps working.

import SwiftSyntax

public enum ConvertBody {
    /// One function converted: the edits of its file (the twin's body, the promise
    /// function's body), which stand or fall together.
    struct Conversion {
        let site: FunctionSite
        let edits: [TextEdit]
        /// From the promise function's start to the twin's end (or the other way round).
        let scope: Range<Int>
        var summary: String { "\(site.signature): the chain moved into its async twin" }
    }

    /// What the planning found: the conversions, and the chains left with their reason.
    struct Plan {
        var conversions: [Conversion] = []
        var left: [MigrationNote] = []
        /// Promise-returning functions whose body holds a promise operator (the denominator).
        var chains = 0
    }

    /// Plans from the syntax alone (twins found by name and labels); writes nothing.
    public static func run(_ set: SourceSet) -> MigrationResult {
        result(of: plan(set, project: Project(set)), in: set)
    }

    static func plan(_ set: SourceSet, project: Project) -> Plan {
        var plan = Plan()
        let everySite = set.files.flatMap(FunctionSite.all(in:))
        // Twins still forwarding to their promise function: the bodies to replace.
        let forwarding = everySite.filter { $0.isAsync && Twins.forwardedName(ofAsyncTwin: $0.decl) == $0.name }
        let twinned = everySite.filter { site in !site.isAsync && site.promise != nil && everySite.contains { $0.isAsync && $0.overloads(site) } }
        let hasTwin: (FunctionCallExprSyntax) -> Bool = { call in
            guard let (name, _) = Calls.calledName(call) else { return false }
            let labels = Calls.labels(of: call)
            return twinned.contains { $0.name == name && CallMatching.labels(labels, canCall: $0.decl) }
        }
        for site in everySite where !site.isAsync && !site.isLocal && !site.inProtocol {
            guard let promise = site.promise, let body = site.decl.body, ChainConversion.isChain(body) else { continue }
            // A promise twin of an async function, or a wrapper convert-body wrote: done.
            if Twins.forwardedName(ofPromiseTwin: site.decl) == site.name { continue }
            plan.chains += 1
            func leave(_ reason: String) {
                plan.left.append(MigrationNote(path: site.file.path, line: site.line, message: "\(site.signature): left as a chain: \(reason)"))
            }
            guard let twin = forwarding.first(where: { $0.overloads(site) && $0.file.path == site.file.path }), let twinBody = twin.decl.body else {
                if site.decl.modifiers.contains(where: { $0.name.text == "override" }) {
                    leave("an override (the twin of the method it overrides serves it)")
                } else if everySite.contains(where: { $0.isAsync && $0.overloads(site) }) {
                    leave("its async twin no longer forwards to it (written by hand?)")
                } else {
                    leave("no async twin of its own (run add-async-twins first; a protocol requirement's implementation has none)")
                }
                continue
            }
            if let reason = reasonToLeave(site, promise, project: project) {
                leave(reason)
                continue
            }
            let conversion = ChainConversion(
                isolated: project.isolation(of: site) != .nonisolated, hasTwin: hasTwin,
                returnsVoid: ["Void", "()", "Swift.Void"].contains(promise.value)
            )
            switch conversion.convert(body) {
            case .failure(let left):
                leave(left.reason)
            case .success(let lines):
                let twinIndent = Twins.indentation(of: twin.decl, in: twin.file)
                let indent = Twins.indentation(of: site.decl, in: site.file)
                let twinText = block(lines, indent: twinIndent)
                let wrapper = block([wrapperText(site, promise)], indent: indent)
                var edits = [
                    TextEdit(start: twinBody.position.utf8Offset + twinBody.leadingTrivia.sourceLength.utf8Length,
                             end: twinBody.endPositionBeforeTrailingTrivia.utf8Offset, text: twinText),
                    TextEdit(start: body.positionAfterSkippingLeadingTrivia.utf8Offset, end: body.endPositionBeforeTrailingTrivia.utf8Offset,
                             text: wrapper),
                ]
                edits += docEdits(of: twin)
                let start = min(site.decl.positionAfterSkippingLeadingTrivia.utf8Offset, twin.decl.position.utf8Offset)
                let end = max(site.decl.endPosition.utf8Offset, twin.decl.endPosition.utf8Offset)
                plan.conversions.append(Conversion(site: site, edits: edits, scope: start..<end))
            }
        }
        return plan
    }

    /// Why `site` cannot become a wrapper with the same meaning, or nil.
    static func reasonToLeave(_ site: FunctionSite, _ promise: PromiseType, project: Project) -> String? {
        if promise.kind == .tokenPromise { return "returns a `TokenPromise` (an invalidation token)" }
        if promise.hasNoError {
            return "a `Promise<_, NoError>`: its twin throws `CancellationError`, which no NoError promise initializer turns back into cancelling"
        }
        if site.decl.modifiers.contains(where: { $0.name.text == "mutating" }) { return "mutating: the wrapper's Task cannot hold on to `self`" }
        if case .failure(let reason) = Twins.forwardedArguments(of: site.decl, inoutAllowed: false) { return reason.text }
        if !project.selfIsSendable(in: site) {
            return "`\(site.container ?? "")` is not known to be Sendable: the wrapper's Task cannot capture `self` in Swift 6 mode"
        }
        if let parameter = project.nonSendableParameter(of: site) {
            return "parameter `\(parameter.parameterName ?? "_")` is not known to be Sendable: the wrapper's Task cannot capture it"
        }
        return nil
    }

    /// The promise function's new body: its twin in a Task (`StdPromise { … }`); a typed
    /// error is restored by `mapError` (the twin throws only that error or `CancellationError`,
    /// and `CancellationError` cancels the promise).
    static func wrapperText(_ site: FunctionSite, _ promise: PromiseType) -> String {
        let arguments = (try? Twins.forwardedArguments(of: site.decl, inoutAllowed: false).get()) ?? ""
        let receiver = site.container != nil ? "self." : ""
        let task = "StdPromise { try await \(receiver)\(site.name)(\(arguments)) }"
        return promise.hasUntypedError ? task : task + ".mapError(on: .immediate) { $0 as! \(promise.error) }"
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

    /// The changes and notes of `plan`, with the tally as the last note.
    static func result(of plan: Plan, in set: SourceSet, extraNotes: [MigrationNote] = []) -> MigrationResult {
        var result = MigrationResult(problems: set.problems)
        for file in set.files {
            let edits = plan.conversions.filter { $0.site.file.path == file.path }.flatMap(\.edits)
            guard !edits.isEmpty else { continue }
            result.changes.append(FileChange(path: file.path, original: file.text, updated: TextEdit.apply(edits, to: file.text)))
        }
        result.notes = plan.left + extraNotes
        result.notes.append(MigrationNote(
            path: set.files.first?.path ?? ".", line: 1,
            message: "convert-body: \(plan.conversions.count) of \(plan.chains) chain bodies converted, \(plan.left.count) left (reasons above)"
        ))
        return result
    }
}
