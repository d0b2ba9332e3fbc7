// convert-calls' rewrite of one wait through a test helper (TestBridges): in a synchronous XCTest
// method (or a support function of one), `h(of: f())` on a promise-returning function with an
// async twin becomes an await of the twin, read as the helper's result was read (a `Shape`).
// The precondition reads the compiler's callee, the twin pair and how the test reads the helper;
// the edit resolves the shape with the compiler's type of the promise. The planner records each
// rewrite in its method's change (`TestBridges.Method`).

import SwiftSyntax

/// The rewrite of one helper's wait on a call's promise as an await of the call's async twin.
struct HelperCallAction: MigrationAction {
    /// A helper's call whose promise argument is `call`, in `function` (a test or a support function).
    struct Site {
        let call: FunctionCallExprSyntax
        let helperCall: FunctionCallExprSyntax
        let pair: TwinPair
        let promiseSite: FunctionSite
        let function: FunctionDeclSyntax
        let file: ParsedFile
        /// The ranges the method already replaces as a whole (an error helper's do/catch).
        var blocks: [Range<Int>] = []
    }

    /// What the precondition established: the helper (`result(of:)`), its kind, the test's
    /// statement it is read in and how.
    struct Facts {
        let spelled: String
        let statement: CodeBlockItemSyntax
        let shape: TestBridges.Shape
    }

    /// The rewrite to record: the shape to write, the error an error check catches, and the
    /// edits of later reads of a bound optional.
    struct Rewrite {
        /// The test's statement the helper's result is read in.
        let statement: CodeBlockItemSyntax
        let shape: TestBridges.Shape
        let error: String?
        let reads: [TextEdit]
    }

    /// The helpers, by name (`TestBridges.helpers(in:)`).
    let kinds: [String: TestBridges.Kind]
    let project: Project

    /// A helper's call in the test's own statements, read in a shape the bridges rewrite, on a
    /// promise whose async counterpart throws what the helper's wait did; declines otherwise.
    func precondition(_ site: Site) -> Outcome<Facts> {
        guard let (helper, _) = Calls.calledName(site.helperCall), let kind = kinds[helper] else { return .notApplicable }
        let spelled = "\(helper)(\(site.helperCall.arguments.first?.label?.text ?? "_"):)"
        if let reason = conformer(site, helper: spelled) ?? thrown(site) { return .declines(reason) }
        guard let statement = TestBridges.topLevelStatement(of: Syntax(site.helperCall), in: site.function) else {
            return .declines(SkipReason(TestBridges.Reason.otherUse.text(helper: spelled)))
        }
        if site.blocks.contains(where: { $0.contains(statement.positionAfterSkippingLeadingTrivia.utf8Offset) }) {
            return .declines(SkipReason(TestBridges.Reason.otherUse.text(helper: spelled)))
        }
        switch TestBridges.shape(of: site.helperCall, kind: kind, in: statement) {
        case .failure(let reason): return .declines(SkipReason(reason.text(helper: spelled)))
        case .success(let shape): return .holds(Facts(spelled: spelled, statement: statement, shape: shape))
        }
    }

    /// Declines a conformer's method reached through its requirement's twin: its promise version
    /// stays (the witness), and a call of that twin on its type would keep convert-body from
    /// giving it an async method of its own.
    func conformer(_ site: Site, helper: String) -> SkipReason? {
        guard site.pair.promise.inProtocol,
              project.callee(nameAt: Calls.nameOffset(of: site.call), in: site.file.path) != site.pair.promiseUSR else { return nil }
        return SkipReason(TestBridges.Reason.conformer.text(helper: helper))
    }

    /// Declines when the async counterpart throws something else than the promise's wait.
    func thrown(_ site: Site) -> SkipReason? {
        ConvertCalls.thrownMismatch(bridge: ConvertCalls.bridgeThrows(site.promiseSite), async: site.pair.async)
    }

    /// The shape resolved with the compiler's type of the promise: an error check needs a typed
    /// error, a `try?` read a value that is not optional, a bound optional reads that take it as
    /// not optional. Declines with the helper's reason otherwise.
    func edit(_ site: Site, _ facts: Facts) -> Outcome<Rewrite> {
        let nameOffset = Calls.nameOffset(of: site.call)
        let compiled = project.compiler?.spelledPromiseType(ofCallAt: nameOffset, in: site.file.path).flatMap { spelled in
            project.compiledFile(site.file.path)?.call(calleeAt: nameOffset).flatMap { PromiseType(compiled: spelled, mangled: $0.type, written: spelled) }
        }
        let optionalValue = compiled.map({ $0.value.hasSuffix("?") || $0.value.hasPrefix("Optional<") }) != false
        let declines = { (reason: TestBridges.Reason) in Outcome<Rewrite>.declines(SkipReason(reason.text(helper: facts.spelled))) }
        switch facts.shape {
        case .expectError, .catchError:
            guard let compiled, !compiled.hasUntypedError, !compiled.hasNoError else { return declines(.untypedError) }
            return errorCheck(site, facts, error: compiled.error).map { Rewrite(statement: facts.statement, shape: $0, error: compiled.error, reads: []) }
        case .bind(_, let form), .hoist(_, let form, _):
            // `try?` flattens an optional value: its nil would read as a failure's. So the value's type must be known.
            if form == "try?", optionalValue { return declines(.optionalValue) }
            return .holds(Rewrite(statement: facts.statement, shape: facts.shape, error: nil, reads: []))
        case .bindOptional(let value, let name):
            // The helper's `T?` of an optional `T` nests one: `try await` would not give the reads what they read.
            if optionalValue { return declines(.nestedOptional) }
            switch TestBridges.nonOptionalReads(of: name, after: facts.statement, in: site.function) {
            case .failure(let reason): return declines(reason)
            case .success(let edits): return .holds(Rewrite(statement: facts.statement, shape: .bind(value: value, form: "try"), error: nil, reads: edits))
            }
        case .replace:
            return .holds(Rewrite(statement: facts.statement, shape: facts.shape, error: nil, reads: []))
        }
    }

    /// An error check's shape with the promise's typed `error`: an assertion's stays, an error
    /// bound by a `let` becomes the do/catch holding its reads (`TestBridges.catchBlock`), or
    /// declines with its reason.
    func errorCheck(_ site: Site, _ facts: Facts, error: String) -> Outcome<TestBridges.Shape> {
        guard case .catchError(let name) = facts.shape else { return .holds(facts.shape) }
        let indent = Twins.indentation(of: facts.statement, in: site.file)
        switch TestBridges.catchBlock(
            name: name, statement: facts.statement, call: site.call.trimmedDescription, error: error, indent: indent, in: site.function, file: site.file
        ) {
        case .failure(let reason): return .declines(SkipReason(reason.text(helper: facts.spelled)))
        case .success(let block): return .holds(.replace(range: block.range, text: block.text, callOffset: block.callOffset))
        }
    }

    /// The note of a helper's call the action declined.
    func left(_ site: Site, _ reason: SkipReason) -> ConvertCalls.Left {
        let text = "`\(ConvertCalls.shortText(of: site.helperCall))`"
        return ConvertCalls.Left(path: site.file.path, line: site.file.line(of: site.call), text: text, reason: reason.text)
    }
}
