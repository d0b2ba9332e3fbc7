// A final `tap` on a named context (`tap(on: c) { result in … }` or `tap(on: c) { _ in … }`):
// 1.x's `tap` returned its receiver, so the promise resolved with the steps and the closure ran
// on `c` afterwards, awaited by nobody. The twin starts the closure's statements in
// `Task(executorPreference: c.taskExecutor) { @concurrent in … }` and returns without awaiting
// it: after the result is taken when the closure reads it (`resultObserver`), else from a
// `defer` at the start of the chain's lines, which runs on every path (a value, an error, a
// cancellation). The Task is unstructured: a cancelled twin does not cancel it, and the
// statements run on a cancelled result too, as 1.x ran the closure on every result.
//
// The Task's closure escapes the twin, so it keeps the closure's capture list (the chain's other
// closures lose theirs: their code is the twin's own, ChainConversion+Preamble.swift), each
// capture evaluated when 1.x evaluated it, where the chain was built:
// - `[self]`, `[weak self]`, `[unowned self]`: as written, and the closure's statements as
//   written (under `[weak self]`, `self?.x` and `guard let self` stay). The twin holds `self`
//   until it returns, so a weak or unowned reference taken when the Task starts is to the same
//   object 1.x's was, and the statements skip what 1.x's skipped once it is gone.
// - `[x]` (`[weak x]`) of a parameter: as written (a parameter does not change).
// - `[x]` of anything else (a property, a local, a global): read where the chain was built, in a
//   `let` before the first await (`let journal2 = journal`), captured under its own name
//   (`[journal = journal2]`).
// - `[x = e]` of a read: the twin's `let x = e` (ChainConversion+Captures.swift), which the
//   closure captures as it is.

import SwiftSyntax

extension Writer {
    /// The executor of a final `tap` on a named context that the twin starts and does not await, or nil.
    func notAwaitedTapExecutor(_ step: ChainConversion.Step, placement: Placement) -> String? {
        guard step.name == "tap", step.isLast, step.token == nil, case .executor(let executor) = placement else { return nil }
        return executor
    }

    /// The closure whose statements the not-awaited `tap` runs: as written when it has a capture
    /// list (which the Task keeps), else the chain's.
    func notAwaitedTapClosure(_ step: ChainConversion.Step) -> ClosureExprSyntax {
        if let written = step.written, written.signature?.capture != nil { return written }
        return step.closure
    }

    /// `Task(executorPreference: executor) { @concurrent [captures] in body }`.
    mutating func notAwaitedTask(_ body: [String], of step: ChainConversion.Step, executor: String) -> [String] {
        ["Task(executorPreference: \(executor)) { @concurrent\(taskCaptures(of: step)) in"] + body.map(Self.indent) + ["}"]
    }

    /// The capture list of the not-awaited `tap`'s Task (` [journal = journal2]`, or nothing), its
    /// reads that 1.x did where the chain was built hoisted there.
    private mutating func taskCaptures(of step: ChainConversion.Step) -> String {
        guard let capture = step.written?.signature?.capture else { return "" }
        var items: [String] = []
        for item in capture.items where item.initializer == nil {
            let specifier = item.specifier.map { $0.trimmedDescription + " " } ?? ""
            let name = item.name.text
            if name == "self" || conversion.parameterNames.contains(name) {
                items.append(specifier + name)
                continue
            }
            taken.insert(name)
            let bound = freshName(stem: name)
            hoisted.append("let \(bound) = \(name)")
            items.append("\(specifier)\(name) = \(bound)")
        }
        return items.isEmpty ? "" : " [" + items.joined(separator: ", ") + "]"
    }
}
