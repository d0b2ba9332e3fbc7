// A test that convert-calls makes `async throws` is also made `@MainActor` (TestBridges+MainActor):
// its statements then run as one job of the main actor, which is the main dispatch queue. A
// synchronous wait left in it (a helper's `wait(for:timeout:)` on a promise the test keeps, a
// helper that spins `RunLoop.current.run(until:)`, `waitForExpectations(timeout:)`) spins the run
// loop inside that job, and the run loop does not drain the main queue from inside one of its own
// jobs: a callback the awaited promise runs on `.main` (or on `.auto`, the main queue there) never
// runs, and the wait times out. In the synchronous 1.x test the same wait ran on the main thread
// outside any main-queue job, and the run loop drained the main queue while it waited.
//
// Orders' `testCheckoutIsInProgressDuringTheCallAndRefusesASecondOne()`: `value(of:
// model.refreshQuote())` became `try await model.refreshQuote()`, the method `@MainActor … async
// throws`; `value(of: promise)` of the checkout it keeps stayed, and the checkout's chain ends in
// `always(on: .main)`: the promise never resolved, and the test failed after its 15 s timeout.
//
// So a test method that would still wait that way once its calls are rewritten is not converted:
// each of its calls is left with the reason. A wait through a helper on a promise the test keeps,
// or on a call's promise, is rewritten first, as an await of that promise where it stood
// (TestBridges+KeptPromises: Orders' checkout test now awaits its checkout and passes); what is
// left here is a wait no rewrite covers (a polling helper without an async counterpart,
// TestBridges+PollingWaits; another function of the tests' that waits and is not made async,
// TestBridges+SupportFunctions; a helper's call read in a way not rewritten). (`wait(for:)` of the
// method's own, outside closures, becomes `await fulfillment(of:)`, and the helper calls that are
// rewritten go: neither counts. A wait inside a rewritten statement whose text the rewrite carries
// over as it was still runs, and counts.)
// A semaphore's or a group's `wait()` is not such a wait: it held the main queue in the 1.x test too.

import SwiftSyntax

extension TestBridges {
    /// The functions of the scanned sources that spin the run loop while they wait, directly or
    /// through one another (`value(of:)` through `result(of:)`, `assertCancelled(_:)` through it).
    struct RunLoopWaits {
        /// The compiler's USRs of those functions.
        private(set) var usrs: Set<String> = []
        /// Their names, for calls the compiler did not resolve (on `self` only).
        private(set) var names: Set<String> = []

        /// None: no test helper to look through.
        init() {}

        init(sites: [FunctionSite], project: Project) {
            let candidates = sites.filter { !$0.isAsync && !$0.isLocal && $0.decl.body != nil }
            let calls = candidates.map { Self.calls(in: $0.decl.body) }
            var found: Set<Int> = []
            var changed = true
            while changed {
                changed = false
                for (index, site) in candidates.enumerated() where !found.contains(index) {
                    guard calls[index].contains(where: { waits($0, in: site.file, project: project) }) else { continue }
                    found.insert(index)
                    if let usr = project.usr(of: site) { usrs.insert(usr) }
                    names.insert(site.name)
                    changed = true
                }
            }
        }

        /// Whether `call` spins the run loop: a wait of XCTest or the run loop's own, or a call of one of
        /// the functions found (as the compiler resolved it; by name where it did not, on `self` only).
        func waits(_ call: FunctionCallExprSyntax, in file: ParsedFile, project: Project) -> Bool {
            if TestBridges.spinsRunLoop(call) != nil { return true }
            if let usr = project.callee(nameAt: Calls.nameOffset(of: call), in: file.path) { return usrs.contains(usr) }
            guard let (name, base) = Calls.calledName(call), base == nil || base?.trimmedDescription == "self" else { return false }
            return names.contains(name)
        }

        /// The calls in `body`, outside closures and nested functions (which run when they are called); in
        /// the closure of an `assumeIsolated` wrapper too (it runs there and then, TestBridges+AssumeIsolated).
        static func calls(in body: CodeBlockSyntax?) -> [FunctionCallExprSyntax] {
            guard let body else { return [] }
            let finder = OwnCalls(viewMode: .sourceAccurate)
            finder.wrapper = TestBridges.assumeIsolatedClosure(in: body)?.id
            finder.walk(body)
            return finder.calls
        }
    }

    /// A call that spins the run loop until something happens or a timeout: `wait(for:…)` (XCTestCase's
    /// or an `XCTWaiter`'s), `waitForExpectations(…)`, `RunLoop.…run(…)`, `CFRunLoopRun…(…)`. Its name, or nil.
    static func spinsRunLoop(_ call: FunctionCallExprSyntax) -> String? {
        guard let (name, base) = Calls.calledName(call) else { return nil }
        let labels = call.arguments.map { $0.label?.text ?? "_" }
        switch name {
        case "wait" where labels.first == "for": return "wait(for:…)"
        case "waitForExpectations": return "waitForExpectations(…)"
        case "CFRunLoopRun", "CFRunLoopRunInMode": return base == nil ? name : nil
        case "run" where labels == ["until"] || labels == ["mode", "before"]
            || (labels.isEmpty && base?.trimmedDescription.contains("RunLoop") == true):
            return "run(" + labels.map { $0 + ":" }.joined() + ")"
        default: return nil
        }
    }

    /// Why every call of a test method that would still wait synchronously is left, without the particulars (the tally groups by it).
    static let stillWaitsKind = "the test would still wait synchronously, spinning the run loop: made `@MainActor async`, it would wait "
        + "inside a job of the main actor, where the run loop does not drain the main queue, so a callback on `.main` or `.auto` "
        + "would never run and the wait would time out; the test stays synchronous"

    /// Why every call of `test` is left: `wait`, at `line`, would still wait synchronously.
    static func stillWaits(test: String, wait: String, line: Int) -> String {
        stillWaitsKind + " (`\(test)()` waits at line \(line): `\(wait)`)"
    }
}

/// The function calls in what it walks, outside closures and nested functions.
private final class OwnCalls: SyntaxVisitor {
    var calls: [FunctionCallExprSyntax] = []
    var wrapper: SyntaxIdentifier?

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { node.id == wrapper ? .visitChildren : .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        calls.append(node)
        return .visitChildren
    }
}

extension TestBridges.Method {
    /// The first wait left in the method once its edits are made (none of them rewrites it), or nil. A call
    /// inside an edit's range that an edit's text carries over as it was (`XCTAssertEqual(try value(of:
    /// g(try f())), x)` → `let g = try await g(try f())` …) is not rewritten: it still runs, and still waits.
    func stillWaits(_ waits: TestBridges.RunLoopWaits, project: Project) -> (text: String, line: Int)? {
        let replacing = edits.filter { $0.end > $0.start }
        for call in TestBridges.RunLoopWaits.calls(in: function.body) {
            let start = call.positionAfterSkippingLeadingTrivia.utf8Offset
            let text = call.trimmedDescription
            let carried = edits.contains { $0.text.contains(text) && !$0.text.contains("await " + text) }
            if replacing.contains(where: { $0.start <= start && start < $0.end }), !carried { continue }
            // Awaited through the async overload written for its polling helper (TestBridges+PollingWaits).
            if writtenCalls.contains(where: { $0.offset == Calls.nameOffset(of: call) }) { continue }
            guard waits.waits(call, in: file, project: project) else { continue }
            return (ConvertCalls.shortText(of: call), file.line(of: call))
        }
        return nil
    }
}
