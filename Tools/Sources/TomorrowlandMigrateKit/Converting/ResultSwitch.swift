// `switch await f(x).resolvedResult` with its three cases in order, as the do/catch a person
// would write once `f` has an async twin:
//
//     switch await f(x).resolvedResult {        do {
//     case .value(let v):                            let v = try await f(x)
//         use(v)                                     use(v)
//     case .error(let error):            →       } catch let error as E {
//         report(error)                              report(error)
//     case .cancelled:                           } catch {
//         stop()                                     stop()
//     }                                          }
//
// The same number of lines, so not longer. The twin throws the promise's `E` when it rejects and
// `CancellationError` when it is cancelled, so the last `catch` is the cancelled case. Only for a
// typed `E` (an untyped promise can reject with a CancellationError, which the switch calls
// `.error`) or NoError (no error case then: it cannot happen). The case bodies are not moved:
// the edits replace the head and the case labels only. A `.value` case that throws (`try`,
// `throw` outside nested closures) is left: in the do block the catches would catch its errors.

import Foundation
import SwiftSyntax

enum ResultSwitch {
    /// The edits that turn `switchExpr` (whose subject awaits `call`'s `.resolvedResult`) into
    /// a do/catch, or why it stays. `error`: the promise's error as the call site can spell it.
    static func edits(
        _ switchExpr: SwitchExprSyntax, call: FunctionCallExprSyntax, error: String, noError: Bool, value: String, in file: ParsedFile
    ) -> Result<[TextEdit], SkipReason> {
        let cases = switchExpr.cases.compactMap { $0.as(SwitchCaseSyntax.self) }
        guard cases.count == 3, switchExpr.cases.count == 3,
              let patterns = Optional(cases.compactMap(pattern(of:))), patterns.count == 3,
              patterns.map(\.name) == ["value", "error", "cancelled"], patterns[2].binding == nil else {
            return .failure(SkipReason("a `switch` on `.resolvedResult` converts only with the cases `.value`, `.error`, `.cancelled` in that order"))
        }
        guard switchExpr.parent?.is(ExpressionStmtSyntax.self) == true || switchExpr.parent?.is(CodeBlockItemSyntax.self) == true else {
            return .failure(SkipReason("the `switch` is used as an expression"))
        }
        // `break` leaves a switch but not a do block; `fallthrough` has no do/catch equivalent.
        if cases.contains(where: { $0.tokens(viewMode: .sourceAccurate).contains { ["break", "fallthrough"].contains($0.text) } }) {
            return .failure(SkipReason("a case uses `break` or `fallthrough`"))
        }
        // In the do block, what the `.value` case's own code throws would land in the catches.
        let throwsOwn = Closures.containsOwn(Syntax(cases[0].statements)) { node in
            node.is(ThrowStmtSyntax.self) || node.as(TryExprSyntax.self).map { $0.questionOrExclamationMark == nil } == true
                || node.as(ForStmtSyntax.self)?.tryKeyword != nil
        }
        if throwsOwn {
            return .failure(SkipReason("the .value case throws: do/catch would catch its errors"))
        }
        let indent = Twins.indentation(of: switchExpr, in: file)
        guard cases.allSatisfy({ Twins.indentation(of: $0, in: file) == indent }) else {
            return .failure(SkipReason("the cases are indented differently from the `switch`"))
        }
        let valueStatement = switch patterns[0].binding {
        case let name? where name != "_": "let \(name) = try await "
        default: ["Void", "()"].contains(value) ? "try await " : "_ = try await "
        }
        var edits = [
            TextEdit(
                start: switchExpr.switchKeyword.positionAfterSkippingLeadingTrivia.utf8Offset,
                end: call.positionAfterSkippingLeadingTrivia.utf8Offset, text: "do {\n\(indent)    \(valueStatement)"
            ),
            TextEdit(start: call.endPositionBeforeTrailingTrivia.utf8Offset, end: cases[0].label.endPositionBeforeTrailingTrivia.utf8Offset, text: ""),
        ]
        if noError {
            // Unreachable: a NoError promise never rejects.
            edits.append(TextEdit(start: cases[1].position.utf8Offset, end: cases[2].position.utf8Offset, text: ""))
        } else {
            let binding = patterns[1].binding.flatMap { $0 == "_" ? nil : $0 }
            edits.append(label(of: cases[1], binding.map { "} catch let \($0) as \(error) {" } ?? "} catch is \(error) {"))
        }
        edits.append(label(of: cases[2], "} catch {"))
        return .success(edits)
    }

    private static func label(of switchCase: SwitchCaseSyntax, _ text: String) -> TextEdit {
        TextEdit(
            start: switchCase.label.positionAfterSkippingLeadingTrivia.utf8Offset,
            end: switchCase.label.endPositionBeforeTrailingTrivia.utf8Offset, text: text
        )
    }

    /// `.value(let v)`, `let .value(v)`, `.error(_)`, `.cancelled`: the case name and what
    /// its payload binds (nil: no payload); nil for any other pattern (a `where`, several
    /// patterns, a payload matched against a value).
    static func pattern(of switchCase: SwitchCaseSyntax) -> (name: String, binding: String?)? {
        guard let label = switchCase.label.as(SwitchCaseLabelSyntax.self), label.caseItems.count == 1,
              let item = label.caseItems.first, item.whereClause == nil else { return nil }
        var text = item.pattern.trimmedDescription
        var bound = false
        if text.hasPrefix("let ") { text.removeFirst(4); bound = true }
        guard text.hasPrefix(".") else { return nil }
        text.removeFirst()
        guard let open = text.firstIndex(of: "(") else {
            return text.allSatisfy { $0.isLetter } ? (text, nil) : nil
        }
        guard text.hasSuffix(")") else { return nil }
        let name = String(text[..<open])
        var payload = text[text.index(after: open)..<text.index(before: text.endIndex)].trimmingCharacters(in: .whitespaces)
        if payload.hasPrefix("let ") { payload.removeFirst(4); bound = true }
        guard payload == "_" || (bound && payload.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" } && !payload.isEmpty) else { return nil }
        return (name, payload)
    }
}
