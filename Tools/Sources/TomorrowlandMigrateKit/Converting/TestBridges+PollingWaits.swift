// A polling helper of the tests' own spins the run loop until a condition holds or a deadline
// passes: a test calling it would still wait synchronously once made `@MainActor async`
// (TestBridges+RunLoopWaits), and stays synchronous. When the package already has the helper's
// async counterpart, the same loop that sleeps the same interval with `Task.sleep` instead of
// spinning, a converted test calls that one, awaited, with the same arguments:
//
//     func waitUntil(_ description: String, …, _ condition: () -> Bool) {     // the helper
//         let deadline = Date().addingTimeInterval(timeout)
//         while !condition() {
//             if Date() > deadline { XCTFail("timed out …"); return }
//             RunLoop.current.run(until: Date().addingTimeInterval(0.01))
//         }
//     }
//     func eventually(_ description: String, …, isolation: isolated (any Actor)? = #isolation,
//                     …, _ condition: () -> Bool) async {                     // its counterpart
//         … the same, but `try? await Task.sleep(nanoseconds: 10_000_000)`
//     }
//
//     waitUntil("paid") { !till.isBusy }   →   await eventually("paid") { !till.isBusy }
//
// The counterpart is found by its shape, not its name: its parameters are the helper's (an added
// `isolated` parameter defaulting to `#isolation` aside), and its body is the helper's, word for
// word, but for that one pause (the same interval). So the condition is polled as often, the same
// deadline fails the test with the same message, and the test suspends between polls instead of
// spinning, so a callback on `.main` runs. A helper of another shape keeps its tests synchronous.
//
// A helper of that shape without a counterpart gets one, written once right after it (same file,
// access level, name and parameters, `async`, an `isolated (any Actor)? = #isolation` parameter
// before the condition so the condition is called on the caller's actor, the same message, the
// pause `try? await Task.sleep(nanoseconds:)` of the same interval). Its calls gain `await` in
// front; the name stays: Swift picks the synchronous overload in synchronous code and the async
// one in async code (a synchronous caller keeps naming the helper, which the proof checks). The
// overload and the tests awaiting it stand or fall together (one group).

import Foundation
import SwiftSyntax

extension TestBridges {
    /// The polling helpers of the scanned sources that have an async counterpart, and those counterparts.
    struct PollingWaits {
        /// A polling helper and its counterpart.
        struct Counterpart {
            let helper: FunctionSite
            let helperUSR: String?
            /// The package's counterpart; nil when it is to be written (`written`).
            let async: FunctionSite?
            let asyncUSR: String?
            /// The counterpart's text to insert after the helper, when the package has none.
            var written: String? = nil
            /// The name the counterpart is called by.
            var name: String { async?.name ?? helper.name }
            /// Where the written counterpart is inserted (after the helper) and the group of its change.
            var insertion: Int { helper.decl.endPositionBeforeTrailingTrivia.utf8Offset }
            var group: String { "polling overload \(helper.file.path) \(helper.signature) \(insertion)" }
        }

        private(set) var counterparts: [Counterpart] = []

        /// None: nothing to look through.
        init() {}

        init(sites: [FunctionSite], project: Project) {
            let candidates = sites.filter { !$0.isLocal && $0.decl.body != nil && $0.decl.genericParameterClause == nil }
            let asyncForms = candidates.filter(\.isAsync).compactMap { site in TestBridges.pollingForm(of: site).map { (site, $0) } }
            for helper in candidates where !helper.isAsync {
                guard let form = TestBridges.pollingForm(of: helper) else { continue }
                let existing = asyncForms.first(where: { $0.1 == form && TestBridges.samePollingParameters(helper, $0.0) })?.0
                guard let async = existing else {
                    // None of that shape: written, unless its file has an async function of its name in its type already (one
                    // elsewhere in its module that calls would name instead, or that clashes, fails the proof).
                    let clash = sites.contains {
                        $0.isAsync && $0.name == helper.name && $0.container == helper.container && $0.file.path == helper.file.path
                    }
                    if !clash, let text = TestBridges.asyncCounterpartText(of: helper) {
                        counterparts.append(Counterpart(helper: helper, helperUSR: project.usr(of: helper), async: nil, asyncUSR: nil, written: text))
                    }
                    continue
                }
                guard async.container == nil || async.container == helper.container,
                      !async.decl.modifiers.contains(where: { ["private", "fileprivate"].contains($0.name.text) })
                        || async.file.path == helper.file.path else { continue }
                counterparts.append(Counterpart(helper: helper, helperUSR: project.usr(of: helper), async: async, asyncUSR: project.usr(of: async)))
            }
        }

        /// The counterpart of the helper `call` calls (as the compiler resolves it; by name on `self` where it does not).
        func counterpart(of call: FunctionCallExprSyntax, in file: ParsedFile, project: Project) -> Counterpart? {
            guard !counterparts.isEmpty, let (name, base) = Calls.calledName(call) else { return nil }
            if let usr = project.callee(nameAt: Calls.nameOffset(of: call), in: file.path) {
                return counterparts.first { $0.helperUSR == usr }
            }
            guard base == nil || base?.trimmedDescription == "self" else { return nil }
            let labels = call.arguments.map { $0.label?.text }
            let matching = counterparts.filter { $0.helper.name == name }
            return matching.count == 1 && TestBridges.labelsFit(labels, matching[0].helper, trailing: call.trailingClosure != nil) ? matching[0] : nil
        }
    }

    /// A polling function's body with its one pause replaced by the interval it waits (`⟨pause 0.01⟩`), words
    /// separated by single spaces: `RunLoop.current.run(until: Date().addingTimeInterval(x))` in a synchronous
    /// function, `try? await Task.sleep(nanoseconds: n)` in an async one, a statement of a `while` loop's body
    /// that checks a condition and a deadline. Nil for any other function.
    static func pollingForm(of site: FunctionSite) -> String? {
        guard let body = site.decl.body, site.decl.signature.returnClause == nil,
              site.decl.signature.effectSpecifiers?.throwsClause == nil else { return nil }
        let pauses = body.statements.compactMap { $0.item.as(WhileStmtSyntax.self) }.flatMap { loop in
            loop.body.statements.compactMap { statement in pauseInterval(statement, async: site.isAsync).map { (statement, $0) } }
        }
        let texts = body.description
        guard pauses.count == 1, let (pause, interval) = pauses.first, texts.contains("Date()"), texts.contains("XCTFail(") else { return nil }
        let start = pause.positionAfterSkippingLeadingTrivia.utf8Offset - body.position.utf8Offset
        let end = pause.endPositionBeforeTrailingTrivia.utf8Offset - body.position.utf8Offset
        let utf8 = Array(body.description.utf8)
        let text = String(decoding: utf8[..<start], as: UTF8.self) + "⟨pause \(interval)⟩" + String(decoding: utf8[end...], as: UTF8.self)
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The async counterpart of polling helper `site`, as text to insert right after it: its declaration with
    /// its own doc comment, `async`, an `isolation: isolated (any Actor)? = #isolation` parameter before the
    /// condition (the last parameter), and its pause `try? await Task.sleep(nanoseconds: n)` of the same interval.
    static func asyncCounterpartText(of site: FunctionSite) -> String? {
        guard let body = site.decl.body, let _ = pollingForm(of: site) else { return nil }
        let pause = body.statements.compactMap { $0.item.as(WhileStmtSyntax.self) }.flatMap(\.body.statements)
            .first { pauseInterval($0, async: false) != nil }
        guard let pause, let interval = pauseInterval(pause, async: false) else { return nil }
        let nanoseconds = Int((interval * 1_000_000_000).rounded())
        guard nanoseconds > 0 else { return nil }
        let digits = Array(String(nanoseconds))
        let grouped = stride(from: digits.count, to: 0, by: -3).reversed().map { String(digits[max(0, $0 - 3)..<$0]) }.joined(separator: "_")
        let declStart = site.decl.positionAfterSkippingLeadingTrivia.utf8Offset
        let text = Array(site.file.text.utf8)
        let slice = { (start: Int, end: Int) in String(decoding: text[start..<end], as: UTF8.self) }
        var edits: [TextEdit] = []
        let parameters = site.decl.signature.parameterClause.parameters
        let isolation = "isolation: isolated (any Actor)? = #isolation"
        let column = { (offset: Int) in offset - (text[..<offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) }
        if parameters.count > 1, let first = parameters.first, site.decl.signature.parameterClause.description.contains("\n") {
            // Parameters on several lines: the isolation parameter on a line of its own before the condition's.
            let previous = parameters[parameters.index(parameters.endIndex, offsetBy: -2)]
            let at = previous.endPositionBeforeTrailingTrivia.utf8Offset
            let align = String(repeating: " ", count: column(first.positionAfterSkippingLeadingTrivia.utf8Offset))
            edits.append(TextEdit(start: at, end: at, text: "\n" + align + isolation + ","))
        } else if let last = parameters.last {
            let at = last.positionAfterSkippingLeadingTrivia.utf8Offset
            edits.append(TextEdit(start: at, end: at, text: isolation + ", "))
        } else {
            let at = site.decl.signature.parameterClause.rightParen.positionAfterSkippingLeadingTrivia.utf8Offset
            edits.append(TextEdit(start: at, end: at, text: isolation))
        }
        let afterParameters = site.decl.signature.parameterClause.endPositionBeforeTrailingTrivia.utf8Offset
        edits.append(TextEdit(start: afterParameters, end: afterParameters, text: " async"))
        edits.append(TextEdit(start: pause.positionAfterSkippingLeadingTrivia.utf8Offset, end: pause.endPositionBeforeTrailingTrivia.utf8Offset,
                              text: "try? await Task.sleep(nanoseconds: \(grouped))"))
        var declaration = ""
        var cursor = declStart
        for edit in edits.sorted(by: { $0.start < $1.start }) {
            declaration += slice(cursor, edit.start) + edit.text
            cursor = edit.end
        }
        declaration += slice(cursor, site.decl.endPositionBeforeTrailingTrivia.utf8Offset)
        // The helper's indentation: what precedes it on its line.
        let indentation = slice(declStart - column(declStart), declStart)
        guard indentation.allSatisfy({ $0 == " " || $0 == "\t" }) else { return nil }
        let doc = "/// `\(site.name)`, awaited: the same polling, sleeping between polls on the caller's actor instead of running the run loop."
        return "\n\n" + indentation + doc + "\n" + indentation + declaration
    }

    /// The seconds `statement` pauses for, when it is the run loop's `run(until: Date().addingTimeInterval(x))`
    /// (`async` false) or `try? await Task.sleep(nanoseconds: n)` (`async` true), with a literal interval.
    static func pauseInterval(_ statement: CodeBlockItemSyntax, async: Bool) -> Double? {
        if async {
            guard let tried = statement.item.as(TryExprSyntax.self), tried.questionOrExclamationMark?.text == "?",
                  let call = tried.expression.as(AwaitExprSyntax.self)?.expression.as(FunctionCallExprSyntax.self),
                  call.calledExpression.trimmedDescription == "Task.sleep", call.arguments.count == 1,
                  call.arguments.first?.label?.text == "nanoseconds",
                  let literal = call.arguments.first?.expression.as(IntegerLiteralExprSyntax.self),
                  let nanoseconds = Int(literal.literal.text.replacingOccurrences(of: "_", with: "")) else { return nil }
            return Double(nanoseconds) / 1_000_000_000
        }
        guard let call = statement.item.as(FunctionCallExprSyntax.self),
              ["RunLoop.current.run", "RunLoop.main.run"].contains(call.calledExpression.trimmedDescription),
              call.arguments.count == 1, call.arguments.first?.label?.text == "until",
              let date = call.arguments.first?.expression.as(FunctionCallExprSyntax.self),
              date.calledExpression.trimmedDescription == "Date().addingTimeInterval", date.arguments.count == 1,
              let literal = date.arguments.first?.expression, literal.is(FloatLiteralExprSyntax.self) || literal.is(IntegerLiteralExprSyntax.self),
              let seconds = Double(literal.trimmedDescription.replacingOccurrences(of: "_", with: "")) else { return nil }
        return seconds
    }

    /// Whether `async` takes what `helper` takes: the same parameters in the same order (labels, names, types,
    /// defaults), but for an `isolated` parameter of its own that defaults to `#isolation`.
    static func samePollingParameters(_ helper: FunctionSite, _ async: FunctionSite) -> Bool {
        let words = { (parameter: FunctionParameterSyntax) in
            [parameter.firstName.text, parameter.secondName?.text ?? "", parameter.type.trimmedDescription,
             parameter.defaultValue?.value.trimmedDescription ?? ""]
        }
        let isolation = { (parameter: FunctionParameterSyntax) in
            parameter.type.trimmedDescription.hasPrefix("isolated ") && parameter.defaultValue?.value.trimmedDescription == "#isolation"
        }
        let helperParameters = helper.decl.signature.parameterClause.parameters.map(words)
        let asyncParameters = async.decl.signature.parameterClause.parameters.filter { !isolation($0) }.map(words)
        return helperParameters == asyncParameters
    }

    /// Whether a call with `labels` (nil: none) can call `site`: its labels in order, each parameter left out
    /// having a default; with `trailing`, the last parameter is the trailing closure.
    static func labelsFit(_ labels: [String?], _ site: FunctionSite, trailing: Bool) -> Bool {
        var parameters = Array(site.decl.signature.parameterClause.parameters)
        if trailing { guard !parameters.isEmpty else { return false }; parameters.removeLast() }
        var index = 0
        for parameter in parameters {
            if index < labels.count, labels[index] == parameter.argumentLabel {
                index += 1
            } else if parameter.defaultValue == nil {
                return false
            }
        }
        return index == labels.count
    }
}

extension TestBridges.Method {
    /// Rewrites, in the method, each call of a polling helper with an async counterpart that is a statement
    /// of its own (outside closures): `waitUntil(…) { … }` → `await eventually(…) { … }`, checked to name the counterpart.
    /// The loop over `PollingWaitAction`.
    mutating func awaitPolls(_ polls: TestBridges.PollingWaits, waits: TestBridges.RunLoopWaits, project: Project) {
        let action = PollingWaitAction(polls: polls, waits: waits, project: project)
        for call in TestBridges.RunLoopWaits.calls(in: function.body) {
            if let awaited = action.apply(to: PollingWaitAction.Site(call: call, method: self)).value { self = awaited }
        }
    }
}

/// The rewrite of one call of a polling helper in a test made async as an await of its async
/// counterpart (the package's, or the overload written next to the helper).
struct PollingWaitAction: MigrationAction {
    /// A call in the body of `method`, as its rewrites so far leave it.
    struct Site {
        let call: FunctionCallExprSyntax
        let method: TestBridges.Method
    }

    let polls: TestBridges.PollingWaits
    let waits: TestBridges.RunLoopWaits
    let project: Project

    /// A statement of its own calling a polling helper with a counterpart (as the compiler resolves
    /// the call), whose closures do not wait themselves (called inside the main actor's job, they
    /// would spin the run loop there: the method's run-loop check lists it), that no other rewrite took.
    func precondition(_ site: Site) -> Outcome<TestBridges.PollingWaits.Counterpart> {
        let (call, method) = (site.call, site.method)
        guard call.parent?.is(CodeBlockItemSyntax.self) == true,
              let counterpart = polls.counterpart(of: call, in: method.file, project: project) else { return .notApplicable }
        let inner = AllCalls(viewMode: .sourceAccurate)
        inner.walk(call.arguments)
        if let closure = call.trailingClosure { inner.walk(closure) }
        guard !inner.calls.contains(where: { waits.waits($0, in: method.file, project: project) }) else { return .notApplicable }
        let range = calledRange(of: call)
        let taken = method.edits.dropFirst(method.signatureEdits).map { $0.start..<max($0.end, $0.start + 1) } + method.blocks
        guard !taken.contains(where: { $0.overlaps(range) }) else { return .notApplicable }
        return .holds(counterpart)
    }

    /// The method with the call awaited: through the overload written, its name as it is; else the
    /// package's counterpart by its name (on what the helper was called on, for a member), expected
    /// to name it.
    func edit(_ site: Site, _ counterpart: TestBridges.PollingWaits.Counterpart) -> Outcome<TestBridges.Method> {
        let (call, file) = (site.call, site.method.file)
        var method = site.method
        let range = calledRange(of: call)
        if counterpart.written != nil {
            // The overload written has the helper's name: the call is awaited, its name left as it is.
            method.edits.append(TextEdit(start: range.lowerBound, end: range.lowerBound, text: "await "))
            method.writtenCalls.append((group: counterpart.group, path: file.path, offset: Calls.nameOffset(of: call), line: file.line(of: call),
                                        text: ConvertCalls.shortText(of: call)))
            method.polled.append(ConvertCalls.shortText(of: call))
            return .holds(method)
        }
        guard let async = counterpart.async else { return .notApplicable }
        // A member counterpart (the helper's own extension) is called on what the helper was; a free one by its name.
        let base = async.container == nil ? "" : call.calledExpression.as(MemberAccessExprSyntax.self)?.base.map { $0.trimmedDescription + "." } ?? ""
        let prefix = "await " + base
        method.edits.append(TextEdit(start: range.lowerBound, end: range.upperBound, text: prefix + async.name))
        if let usr = counterpart.asyncUSR {
            method.expectations.append(PlannedChange.Expectation(
                place: .inserted(edit: method.edits.count - 1, offset: prefix.utf8.count), target: .usr(usr),
                meaning: "the async counterpart of the polling helper `\(counterpart.helper.signature)`"
            ))
        }
        method.polled.append(ConvertCalls.shortText(of: call))
        return .holds(method)
    }

    /// The called expression's range (`waitUntil`, `self.waitUntil`).
    private func calledRange(of call: FunctionCallExprSyntax) -> Range<Int> {
        call.calledExpression.positionAfterSkippingLeadingTrivia.utf8Offset..<call.calledExpression.endPositionBeforeTrailingTrivia.utf8Offset
    }
}

extension TestBridges.PollingWaits {
    /// The changes writing the counterparts that `calls` (in tests' changes, grouped with them) await, each
    /// expecting those calls to name the overload it inserts.
    func overloadChanges(for calls: [(group: String, path: String, offset: Int, line: Int, text: String)]) -> [PlannedChange] {
        counterparts.compactMap { counterpart in
            guard let text = counterpart.written else { return nil }
            let mine = calls.filter { $0.group == counterpart.group }
            guard !mine.isEmpty else { return nil }
            let at = counterpart.insertion
            var change = PlannedChange(
                path: counterpart.helper.file.path, edits: [TextEdit(start: at, end: at, text: text)], scope: at..<at,
                line: counterpart.helper.line, summary: "`\(counterpart.helper.signature)` got its async overload, awaited by \(mine.count) polling wait(s) "
                    + TestBridges.overloadMarker
            )
            change.expectations = mine.map { call in
                PlannedChange.Expectation(
                    place: .elsewhere(path: call.path, offset: call.offset), target: .declaration(edit: 0, offset: 0),
                    meaning: "the async counterpart of the polling helper `\(counterpart.helper.signature)` written next to it"
                )
            }
            change.group = counterpart.group
            return change
        }
    }
}

/// The function calls in what it walks, closures included.
private final class AllCalls: SyntaxVisitor {
    var calls: [FunctionCallExprSyntax] = []

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        calls.append(node)
        return .visitChildren
    }
}
