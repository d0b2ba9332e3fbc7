// `convert-body`, the syntax half, continued: where a step's closure runs in the twin (inline,
// on a context's task executor, or either on `.nowOr`), from the context it was given.

import SwiftParser
import SwiftSyntax

extension Writer {
    /// Where `step`'s closure runs in the twin, from its context.
    mutating func placement(of step: ChainConversion.Step) throws -> Placement {
        try placement(of: step.context)
    }

    /// Where a closure given `context` runs in the twin (inline without one), by the context's
    /// kind: `.nowOr(c)`, a context chosen at run time, a stored property, a value, or a
    /// context spelled `.name`; or why no place in the twin says it.
    mutating func placement(of context: ExprSyntax?) throws -> Placement {
        guard var context else { return .inline }
        let originalContextID = context.id
        // `PromiseContext.utility` as `.utility`, `PromiseContext.nowOr(.main)` as `.nowOr(.main)`.
        let spelled = context.trimmedDescription
        if spelled.hasPrefix("PromiseContext."), spelled.dropFirst("PromiseContext.".count).first?.isLowercase == true {
            context = ChainConversion.parse(String(spelled.dropFirst("PromiseContext".count)))
        }
        if let placement = try nowOrPlacement(of: context, originalID: originalContextID) { return placement }
        if let placement = try placementChosenAtRunTime(of: context) { return placement }
        if let placement = try storedPlacement(of: context) { return placement }
        guard let member = context.as(MemberAccessExprSyntax.self), member.base == nil else { return try valuePlacement(of: context) }
        return memberPlacement(of: member, context: context)
    }

    /// `.nowOr(c)` ran the closure at once when the promise had already resolved, else on `c`. Where `c` runs it
    /// inline too (`.main` on the main actor, a caller-isolated context on an actor), so does the twin, which goes on
    /// without suspending when what it awaits has resolved. Elsewhere the twin cannot tell which of the two it was
    /// (but on the chain's base, ChainConversion+NowOr.swift). Nil for another context.
    mutating func nowOrPlacement(of context: ExprSyntax, originalID originalContextID: SyntaxIdentifier) throws -> Placement? {
        guard let call = context.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              member.base == nil, member.declName.baseName.text == "nowOr", call.arguments.count == 1,
              let inner = call.arguments.first?.expression else { return nil }
        let innerPlacement = try placement(of: inner)
        if case .inline = innerPlacement { return .inline }
        if case .executor(let executor) = innerPlacement, let nowOrBase, nowOrBase.context == originalContextID {
            return .nowOr(flag: nowOrBase.flag, executor: executor)
        }
        throw Left("a `.nowOr` context off its caller's actor (`\(context.trimmedDescription)`: the closure ran at once when the promise "
            + "had resolved, else on the context; the twin cannot tell whether its await suspended)")
    }

    /// `fast ? .immediate : .utility` in nonisolated code: the executor chosen where the chain was built
    /// (`nil` for a context that runs the closure inline: a `@concurrent` closure then runs on the global executor).
    /// Nil for a context that is not a ternary.
    mutating func placementChosenAtRunTime(of context: ExprSyntax) throws -> Placement? {
        guard let sequence = context.as(SequenceExprSyntax.self),
              let index = sequence.elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }),
              let ternary = sequence.elements[index].as(UnresolvedTernaryExprSyntax.self) else { return nil }
        let condition = sequence.elements[..<index].map(\.trimmedDescription).joined(separator: " ")
        let otherwise = ChainConversion.parse(sequence.elements[sequence.elements.index(after: index)...].map(\.trimmedDescription).joined(separator: " "))
        let branches = [(ternary.thenExpression, try placement(of: ternary.thenExpression)), (otherwise, try placement(of: otherwise))]
        // In actor-isolated code only `.immediate` may stand for the global executor (ChainConversion+Contexts.swift).
        if conversion.isolated, let branch = branches.first(where: { branch in
            if case .executor = branch.1 { return false }
            return !ChainConversion.isImmediate(branch.0)
        }) {
            throw Left("context value chosen at run time in actor-isolated code (`\(context.trimmedDescription)`: "
                + "`\(branch.0.trimmedDescription)` ran its closure on the caller's actor's queue, which no executor chosen before the await names)")
        }
        func executor(_ placement: Placement) -> String {
            if case .executor(let text) = placement { return text }
            return "nil"
        }
        let first = executor(branches[0].1)
        let second = executor(branches[1].1)
        let name = freshName(stem: "executor")
        hoisted.append("let \(name): (any TaskExecutor)? = \(condition) ? \(first) : \(second)")
        return .executor(name)
    }

    /// A stored property of the function's type (`delivery`, `self.delivery`), not shadowed by a
    /// parameter or a local, whose type or constant value says where its closures run; nil for
    /// anything else.
    mutating func storedPlacement(of context: ExprSyntax) throws -> Placement? {
        let stored = context.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? context.as(MemberAccessExprSyntax.self).flatMap { member in
                member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" ? member.declName.baseName.text : nil
            }
        guard let stored, let property = conversion.storedContexts[stored],
              context.is(MemberAccessExprSyntax.self) || !declared.contains(stored) && !conversion.parameterNames.contains(stored)
        else { return nil }
        // A `let` that holds a context spelled out: that context.
        if let constant = property.constant { return try placement(of: constant) }
        let type = property.type.hasPrefix("Tomorrowland.") ? String(property.type.dropFirst("Tomorrowland.".count)) : property.type
        let text = context.trimmedDescription
        // Every value of `PromiseContext.Main` (`.main`, `.nowOr(.main)`) runs the closure on the main actor, as `.main` does.
        if type == "PromiseContext.Main" { return conversion.onMainActor ? .inline : .executor("\(text).context.taskExecutor") }
        // Every value of `PromiseContext.CallerIsolated` (`.auto`, `.immediate`, `.nowOr(…)`) keeps the caller's actor, as `.auto` does.
        if type == "PromiseContext.CallerIsolated" { return conversion.isolated ? .inline : .executor("\(text).context.taskExecutor") }
        return nil
    }

    /// A context that is not an implicit member: a call (`.named(…)`), a named context spelled
    /// out, or a value that holds a context (its task executor).
    func valuePlacement(of context: ExprSyntax) throws -> Placement {
        if let call = context.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
           member.base == nil {
            if member.declName.baseName.text == "nowOr" { throw Left("a `.nowOr` context") }
            return .executor("PromiseContext" + context.trimmedDescription + ".taskExecutor")
        }
        let text = context.trimmedDescription
        if text.hasPrefix("PromiseContext.nowOr") || text.hasPrefix(".nowOr") { throw Left("a `.nowOr` context") }
        // `PromiseContext.Named(qos: .utility)`, `PromiseContext.Named.decoding`: a named context, spelled out.
        if text.hasPrefix("PromiseContext.Named") || text.hasPrefix("Named(") || text.hasPrefix("Named.") {
            return .executor("\(text).context.taskExecutor")
        }
        if text.hasPrefix("PromiseContext.Main.") {
            return conversion.onMainActor ? .inline : .executor("\(text).context.taskExecutor")
        }
        // A value that may be `.immediate` (run at once, inline) or caller-isolated: no executor says that.
        let words = ChainConversion.identifiers(in: context)
        if text.hasPrefix("PromiseContext.CallerIsolated.") || !words.isDisjoint(with: ["immediate", "auto", "nowOr"]) {
            throw Left("context value not known statically (`\(text)`)")
        }
        // A `PromiseContext` held in a value (a property, `PromiseContext.decoding`, a
        // ternary): 1.x ran the closure on the context it holds, nonisolated, as the
        // value overloads still do; its task executor is that queue. (A value holding
        // `.immediate` or `.nowOr` has none: the closure then runs on the global
        // concurrent executor, after a hop.)
        let postfix = context.is(DeclReferenceExprSyntax.self) || context.is(MemberAccessExprSyntax.self)
        return .executor((postfix ? text : "(\(text))") + ".taskExecutor")
    }

    /// A context spelled `.name`: the user's contexts on `PromiseContext.Main` and
    /// `PromiseContext.CallerIsolated`, `.immediate`, `.auto`, `.main`, and the others' executors.
    func memberPlacement(of member: MemberAccessExprSyntax, context: ExprSyntax) -> Placement {
        let name = member.declName.baseName.text
        if conversion.mainContexts.contains(name) {
            // A context of the user's on `PromiseContext.Main`: as `.main`.
            return conversion.onMainActor ? .inline : .executor("PromiseContext.Main.\(name).context.taskExecutor")
        }
        if conversion.callerIsolatedContexts.contains(name) {
            // A context of the user's on `PromiseContext.CallerIsolated`: as `.auto`.
            return conversion.isolated ? .inline : .executor("PromiseContext.CallerIsolated.\(name).context.taskExecutor")
        }
        switch name {
        case "immediate", "auto": return .inline
        case "main": return conversion.onMainActor ? .inline : .executor("PromiseContext.main.taskExecutor")
        default: return .executor("PromiseContext" + context.trimmedDescription + ".taskExecutor")
        }
    }
}
