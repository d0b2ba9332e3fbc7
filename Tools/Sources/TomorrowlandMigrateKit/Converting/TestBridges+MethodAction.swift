// convert-calls' rewrite of one test method as a whole (TestBridges): once its helpers' calls,
// kept promises and polling waits are rewritten, the method becomes `async throws` (on the main
// actor), its `assumeIsolated` wrapper unwrapped, unless it would still wait synchronously: a
// run-loop wait no rewrite reached (TestBridges+RunLoopWaits), or a polling helper's overload
// written for tests that do not all stand together. Then its helpers' calls are left with why.

import SwiftSyntax

/// The change that makes one planned test (or support function) async, or why it stays synchronous.
struct TestMethodAction: MigrationAction {
    /// A planned method, by its declaration's id.
    struct Site {
        let id: SyntaxIdentifier
        let method: TestBridges.Method
    }

    /// The change, and the calls it awaits through a polling helper's overload still to be written.
    struct Edit {
        let change: PlannedChange
        let writtenCalls: [(group: String, path: String, offset: Int, line: Int, text: String)]
    }

    /// The support functions made async with their callers (TestBridges+SupportFunctions).
    let supports: TestBridges.SupportFunctions
    /// The functions that spin the run loop while they wait.
    let waits: TestBridges.RunLoopWaits
    let project: Project

    /// The method with its calls of the support functions made async awaited, when no run-loop wait
    /// is left in it; declines with the first wait left otherwise.
    func precondition(_ site: Site) -> Outcome<TestBridges.Method> {
        var method = site.method
        supports.await(in: &method, id: site.id)
        if let wait = method.stillWaits(waits, project: project) {
            return .declines(SkipReason(TestBridges.stillWaits(test: method.function.name.text, wait: wait.text, line: wait.line)))
        }
        return .holds(method)
    }

    /// The method's change, its `assumeIsolated` wrapper unwrapped, in the group of the support
    /// functions it calls or is, or of the polling overload it awaits. Declines when it awaits an
    /// overload to be written and is in a support group, or awaits overloads of several groups.
    func edit(_ site: Site, _ method: TestBridges.Method) -> Outcome<Edit> {
        var method = method
        method.unwrapAssumeIsolated()
        var change = method.change
        change.group = supports.group(of: site.id)
        guard let written = method.writtenCalls.first else { return .holds(Edit(change: change, writtenCalls: [])) }
        // The overload written stands or falls with the tests awaiting it; a test in a support group awaits none.
        guard change.group == nil, method.writtenCalls.allSatisfy({ $0.group == written.group }) else {
            return .declines(SkipReason(TestBridges.stillWaits(test: method.function.name.text, wait: written.text, line: written.line)))
        }
        change.group = written.group
        return .holds(Edit(change: change, writtenCalls: method.writtenCalls))
    }

    /// The notes of a method declined: each helper's call it rewrote, left with the reason.
    func left(_ method: TestBridges.Method, _ reason: SkipReason) -> [ConvertCalls.Left] {
        method.helperCalls.map { ConvertCalls.Left(path: method.file.path, line: $0.line, text: $0.text, reason: reason.text) }
    }
}
