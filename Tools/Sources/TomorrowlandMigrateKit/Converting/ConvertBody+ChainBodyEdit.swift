// `ChainBodyAction`'s edit: the chain as straight-line code (ChainConversion) in the twin's body
// (or a conformer's or an override's new async method), the promise version's body as the
// wrapper `StdPromise(on: .immediate) { try await f(…) }`, or the promise version deleted when
// it goes without a wrapper. The edits of one function stand or fall together (a `Conversion`).

import SwiftSyntax

extension ChainBodyAction {
    /// The texts of the calls a conversion awaits through their async twins (filled as
    /// ChainConversion writes the twin).
    final class AwaitedCalls {
        var texts: Set<String> = []
    }

    /// The chain converted, then written as the conversion of `site`; declines with
    /// ChainConversion's reason, or when what it wrote cannot be placed.
    func edit(_ site: FunctionSite, _ facts: Facts) -> Outcome<Edit> {
        let awaited = AwaitedCalls()
        let conversion = chainConversion(for: site, facts, awaited: awaited)
        switch conversion.convert(facts.body) {
        case .failure(let left):
            return .declines(SkipReason(left.reason))
        case .success(let converted):
            return written(converted, of: site, facts, isolated: conversion.isolated, awaited: awaited)
        }
    }

    /// The rewrite of `site`'s chain, with what the package says of its isolation, its contexts,
    /// its parameters and the calls it makes (a call is awaited through its async twin when the
    /// tool wrote that twin: with the compiler, when the callee itself is such a promise function).
    func chainConversion(for site: FunctionSite, _ facts: Facts, awaited: AwaitedCalls) -> ChainConversion {
        let project = planning.project, promise = facts.promise, planning = planning
        let hasTwin: (FunctionCallExprSyntax) -> Bool = { call in
            guard planning.hasTwinByName(call), facts.pairedBase != nil || !ConvertBody.isSuperCall(call) else { return false }
            let known = planning.twinnedUSRs.map { project.callee(nameAt: Calls.nameOffset(of: call), in: site.file.path).map($0.contains) == true }
            if known != false { awaited.texts.insert(call.trimmedDescription) }
            return known ?? true
        }
        let tokenPromise = promise.kind == .tokenPromise
        let parameters = site.decl.signature.parameterClause.parameters
        var conversion = ChainConversion(
            isolated: project.isolation(of: site) != .nonisolated, onMainActor: project.isOnMainActor(site), hasTwin: hasTwin,
            returnsVoid: ["Void", "()", "Swift.Void"].contains(promise.value),
            // A TokenPromise function's chain makes a plain promise; the wrapper adds the token.
            promiseType: tokenPromise ? "Promise<\(promise.value), \(promise.error)>" : promise.spelled, noError: promise.hasNoError,
            callerIsolatedContexts: planning.callerIsolated, mainContexts: planning.onMain,
            storedContexts: ConvertBody.storedContexts(of: site.container, in: planning.set),
            parameterNames: Set(parameters.map { ($0.secondName ?? $0.firstName).text }),
            parameterTypes: Dictionary(parameters.map {
                (($0.secondName ?? $0.firstName).text, $0.type.trimmedDescription)
            }, uniquingKeysWith: { first, _ in first }),
            typedError: promise.hasUntypedError || promise.hasNoError ? "" : promise.error, tokenPromise: tokenPromise, functionPromise: promise,
            typeOfCall: { call in ConvertBody.spelledPromiseType(of: call, in: site, project: project) }
        )
        // A wrapper starts the twin at once: what 1.x ran in callbacks comes after one suspension (ChainConversion+Order.swift).
        conversion.keepsCallbackOrder = facts.sendableReason == nil
        return conversion
    }

    /// The converted chain written into the twin (calls of promise functions pinned to their
    /// promise type) and the wrapper into the promise version; declines when an await may throw
    /// what the wrapper cannot cast to the promise's error type.
    func written(
        _ converted: ChainConversion.Converted, of site: FunctionSite, _ facts: Facts, isolated: Bool, awaited: AwaitedCalls
    ) -> Outcome<Edit> {
        let project = planning.project, promise = facts.promise
        // In the twin, a promise function called for its promise (`let p = f()`, `_ = f()`) would call the
        // async twin instead: such calls are pinned to their promise type, as add-async-twins pins them.
        let lines = ConvertBody.pinned(converted.lines, names: Set(planning.twinned.map(\.name)), in: facts.body) { call in
            project.compiler?.spelledPromiseType(ofCallAt: Calls.nameOffset(of: call), in: site.file.path)
        }
        // The wrapper casts what the twin throws to the promise's error type: every await must be known to throw only that.
        if !promise.hasUntypedError, !promise.hasNoError,
           let call = ChainConversion.awaitOfUnknownErrors(in: lines, hasTwin: planning.hasTwinByName) {
            return .declines(SkipReason("`\(call)` may throw other errors than `\(promise.error)` (not a twin add-async-twins wrote)"))
        }
        let indent = Twins.indentation(of: site.decl, in: site.file)
        let twinIndent = facts.twin.map { Twins.indentation(of: $0.decl, in: $0.file) } ?? indent
        let twinText = ConvertBody.block(lines, indent: twinIndent)
        let wrapper = wrapperBlock(of: site, facts, converted, shared: isolated ? nil : ConvertBody.sharedExecutor(of: lines), indent: indent)
        return placed(site, facts, twinText: twinText, wrapper: wrapper, indent: indent).then { edits, scope in
            conversion(of: site, facts, edits: edits, scope: scope, wrapper: wrapper, awaited: awaited)
        }
    }

    /// The promise version's new body: the wrapper (`ConvertBody.wrapperText`) as a block, which
    /// prefers the executor every step of the twin runs on (`shared`); under the Swift 5 rule it
    /// resolves on that context instead (ConvertBody+SwiftFive.swift).
    func wrapperBlock(
        of site: FunctionSite, _ facts: Facts, _ converted: ChainConversion.Converted, shared: String?, indent: String
    ) -> String {
        let (preference, resolvedOn) = facts.captured == nil
            ? (shared, converted.resolvedOn) : ConvertBody.resolvedWithoutPreference(shared, converted.resolvedOn)
        let wrapperLine = ConvertBody.wrapperText(
            site, facts.promise, token: converted.token, executorPreference: preference, resolvedOn: resolvedOn,
            everyResult: converted.resolvedOnEveryResult, width: Twins.maximumLineLength - indent.count - 4
        )
        return ConvertBody.block([wrapperLine], indent: indent)
    }

    /// The edits (the twin's body or the new async method first, the wrapper second) and the
    /// range from the promise function's start to the twin's end (or the other way round).
    func placed(
        _ site: FunctionSite, _ facts: Facts, twinText: String, wrapper: String, indent: String
    ) -> Outcome<(edits: [TextEdit], scope: Range<Int>)> {
        let body = facts.body
        let wrapperEdit = TextEdit(
            start: body.positionAfterSkippingLeadingTrivia.utf8Offset, end: body.endPositionBeforeTrailingTrivia.utf8Offset, text: wrapper
        )
        let start = site.decl.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = site.decl.endPosition.utf8Offset
        if let twin = facts.twin, let twinBody = twin.decl.body {
            var edits = [
                TextEdit(start: twinBody.position.utf8Offset + twinBody.leadingTrivia.sourceLength.utf8Length,
                         end: twinBody.endPositionBeforeTrailingTrivia.utf8Offset, text: twinText),
                wrapperEdit,
            ]
            edits += ConvertBody.docEdits(of: twin)
            if facts.paired != nil, let open = ConvertBody.openTwinEdit(base: site, twin: twin) { edits.append(open) }
            return .holds((edits, min(start, twin.decl.position.utf8Offset)..<max(end, twin.decl.endPosition.utf8Offset)))
        }
        // The conformer's async method: the twin add-async-twins would write, with the chain as its body.
        guard let method = ConvertBody.conformerMethod(for: site, body: twinText) else {
            return .declines(SkipReason("no async twin of its own (its async method could not be written)"))
        }
        let after = site.decl.endPositionBeforeTrailingTrivia.utf8Offset
        var edits = [TextEdit(start: after, end: after, text: "\n\n" + indent + method), wrapperEdit]
        edits += ConvertBody.asyncImport(for: site, planned: planned).map { [$0] } ?? []
        return .holds((edits, start..<end))
    }

    /// The conversion of `site` from its edits: with its wrapper, or (for a chain whose wrapper
    /// Swift 6 mode rejects) with the promise version deleted instead, a candidate to go without
    /// a wrapper. Declines when another conversion claims its text.
    func conversion(
        of site: FunctionSite, _ facts: Facts, edits: [TextEdit], scope: Range<Int>, wrapper: String, awaited: AwaitedCalls
    ) -> Outcome<Edit> {
        let project = planning.project
        // Two functions can never claim one twin; if the plan says so, neither text is trusted.
        let claimed = planned.filter { $0.site.file.path == site.file.path }.flatMap(\.edits)
        if edits.contains(where: { edit in claimed.contains { $0.start < edit.end && edit.start < $0.end } }) {
            return .declines(SkipReason("its twin's text is claimed by another conversion"))
        }
        if let sendableReason = facts.sendableReason, let twin = facts.twin {
            // The promise version goes (with its doc comment; the twin keeps its own): edit 1 deletes it.
            guard let usr = project.usr(of: site) else { return .declines(SkipReason(sendableReason)) }
            var edits = edits
            edits[1] = DeleteTwins.deletion(of: site.decl, in: site.file, summary: "").edits[0]
            edits.removeSubrange(2...)
            edits += ConvertBody.wrapperFreeDocEdits(of: twin)
            let conversion = Conversion(
                site: site, edits: edits, scope: scope, twinUSR: nil, wrapperCallOffset: nil, withoutWrapper: true,
                awaitedThroughTwins: awaited.texts
            )
            return .holds(.withoutWrapper((conversion, sendableReason, usr), wrappable: facts.wrappable))
        }
        let call = "await " + (site.container != nil ? "self." : "")
        let callOffset = wrapper.range(of: call).map { wrapper[..<$0.upperBound].utf8.count }
        let conversion = Conversion(
            site: site, edits: edits, scope: scope, twinUSR: facts.twin.flatMap(project.usr(of:)), wrapperCallOffset: callOffset,
            awaitedThroughTwins: awaited.texts, retargeted: facts.retargeted,
            methodOffset: facts.twin == nil ? ConvertBody.declarationOffset(in: edits[0].text) : nil,
            pair: (facts.pairedBase ?? facts.paired.map { _ in site }).map(ConvertBody.pairKey(base:))
        )
        return .holds(.wrapped(conversion, captured: facts.captured))
    }
}
