// convert-calls' rewrite of one call (ConvertCalls): a call of a promise-returning function that
// has an async twin, awaited through `.value` (pinned or not, `.inner.value` too) or switched on
// through `.resolvedResult` in async code, becomes the direct call of the async function. The
// precondition reads the compiler's callee and the twin pair; a call in synchronous code is the
// test bridges' (TestBridges), so it does not apply here.

import SwiftSyntax

/// The rewrite of one bridge to a promise-returning function with an async twin as the `await` of
/// that function (`try await f(x).value` → `try await f(x)`, a `switch` on `.resolvedResult` → a
/// do/catch).
struct CallConversionAction: MigrationAction {
    /// A call in a scanned file.
    struct Site {
        let call: FunctionCallExprSyntax
        let file: ParsedFile
    }

    /// The call's target, as the compiler resolves it: the pair its calls go to, and the
    /// promise-returning function it names (the pair's, or a conformer's or override's own).
    struct Target {
        let pair: TwinPair
        let promiseSite: FunctionSite
        /// Where the called name starts in the file.
        let nameOffset: Int
    }

    /// What the precondition established: the target and the form of the bridge converted.
    struct Facts {
        let target: Target
        let form: Form
    }

    /// The bridge converted.
    enum Form {
        /// `await f(…).value` (`outer` the member access; `parentheses` the `(f(…) as P)` of a pinned call).
        case value(outer: ExprSyntax, parentheses: ExprSyntax?)
        /// `switch await f(…).resolvedResult { … }`; `error` as the call site can spell it, when the compiler knows it.
        case resultSwitch(SwitchExprSyntax, error: String?)
    }

    let project: Project
    /// The pair each promise-returning function's calls can go to, by USR (`ConvertCalls.targets`).
    let targets: [String: TwinPair]
    /// The scanned promise-returning functions, by USR.
    let byUSR: [String: FunctionSite]
    /// The bodies of the pairs' twins, which call the other half on purpose.
    let twinBodies: [(path: String, range: Range<AbsolutePosition>)]

    /// The action for `pairs`, with the scanned functions `sites`.
    init(pairs: [TwinPair], sites: [FunctionSite], project: Project) {
        self.project = project
        var byUSR: [String: FunctionSite] = [:]
        for site in sites { if let usr = project.usr(of: site) { byUSR[usr] = site } }
        self.byUSR = byUSR
        targets = ConvertCalls.targets(of: pairs, sites: sites, project: project)
        twinBodies = pairs.map { (path: $0.twinSite.file.path, range: $0.twinSite.decl.range) }
    }

    /// The call's target: its callee, as the compiler resolves it, has a pair to go to, and the
    /// call is not in a twin's body. Nil otherwise.
    func target(of site: Site) -> Target? {
        let nameOffset = Calls.nameOffset(of: site.call)
        guard let callee = project.callee(nameAt: nameOffset, in: site.file.path), let pair = targets[callee],
              !twinBodies.contains(where: { $0.path == site.file.path && $0.range.contains(site.call.position) }) else { return nil }
        return Target(pair: pair, promiseSite: byUSR[callee] ?? pair.promise, nameOffset: nameOffset)
    }

    /// A call with a target, awaited through a bridge this action converts; declines a bridge it
    /// does not convert, a promise used as a value in async code, and a thrown type that differs.
    /// Not applicable to a call without a target or in synchronous code (the test bridges').
    func precondition(_ site: Site) -> Outcome<Facts> {
        guard let target = target(of: site) else { return .notApplicable }
        switch ConvertCalls.bridge(around: site.call) {
        case .none:
            return CallContext.of(Syntax(site.call)) == .async ? .declines(SkipReason(ConvertCalls.Reason.valueUse)) : .notApplicable
        case .unsupported(let reason, _):
            return .declines(SkipReason(reason))
        case .value(let outer, let parentheses):
            if let reason = ConvertCalls.thrownMismatch(bridge: ConvertCalls.bridgeThrows(target.promiseSite), async: target.pair.async) {
                return .declines(reason)
            }
            return .holds(Facts(target: target, form: .value(outer: outer, parentheses: parentheses)))
        case .resultSwitch(let switchExpr):
            if let reason = ConvertCalls.switchDecline(site: target.promiseSite, async: target.pair.async) { return .declines(reason) }
            let error = compiledError(ofCallAt: target.nameOffset, in: site.file)
            return .holds(Facts(target: target, form: .resultSwitch(switchExpr, error: error)))
        }
    }

    /// The change to prove: the conversion's edits, with the expectation that the call then names
    /// the async function. A `switch` `ResultSwitch` cannot rewrite declines with its reason.
    func edit(_ site: Site, _ facts: Facts) -> Outcome<PlannedChange> {
        let conversion: Result<ConvertCalls.Conversion, SkipReason>
        switch facts.form {
        case .value(let outer, let parentheses):
            conversion = .success(ConvertCalls.valueConversion(outer, parentheses: parentheses, call: site.call, in: site.file))
        case .resultSwitch(let switchExpr, let error):
            conversion = ConvertCalls.switchConversion(switchExpr, call: site.call, site: facts.target.promiseSite, error: error, in: site.file)
        }
        let pair = facts.target.pair
        switch conversion {
        case .failure(let reason):
            return .declines(reason)
        case .success(let conversion):
            let meaning = pair.twin == .async ? "its async twin" : "the async function its promise twin runs"
            return .holds(PlannedChange(
                path: site.file.path, edits: conversion.edits, scope: conversion.scope, line: site.file.line(of: site.call),
                summary: conversion.summary,
                expectations: [.init(place: .original(facts.target.nameOffset), target: .usr(pair.asyncUSR), meaning: "\(meaning) (\(pair.async.signature))")]
            ))
        }
    }

    /// The error of the promise of the call at `nameOffset` as the call site can spell it (the
    /// compiler's type of the call; a declaration may name it by a generic parameter).
    func compiledError(ofCallAt nameOffset: Int, in file: ParsedFile) -> String? {
        let compiled = project.compiler?.spelledPromiseType(ofCallAt: nameOffset, in: file.path).flatMap { spelled in
            project.compiledFile(file.path)?.call(calleeAt: nameOffset).flatMap {
                PromiseType(compiled: spelled, mangled: $0.type, written: spelled)
            }
        }
        return compiled?.error
    }

    /// What a note names for the site: the call, the awaited bridge or the `switch`, as the action
    /// looked at it.
    func subject(of site: Site) -> String {
        switch ConvertCalls.bridge(around: site.call) {
        case .none: "`\(ConvertCalls.shortText(of: site.call))`"
        case .unsupported(_, let outer): "`\(ConvertCalls.shortText(of: outer))`"
        case .value(let outer, _): "`\(ConvertCalls.shortText(of: ConvertCalls.outermostEffects(of: outer)))`"
        case .resultSwitch: ConvertCalls.switchSubject(site.call)
        }
    }

    /// The note of a site the action declined.
    func left(_ site: Site, _ reason: SkipReason) -> ConvertCalls.Left {
        ConvertCalls.Left(path: site.file.path, line: site.file.line(of: site.call), text: subject(of: site), reason: reason.text)
    }
}
