// `convert-body`: a callback on a named context that enters an actor with `assumeIsolated`
// (Examples/ActorOnQueue: `fetchPayment(id).map(on: .queue(ledgerQueue)) { p in ledger.assumeIsolated
// { ledger in ledger.record(p) }; return p }`, where the actor's executor is that queue).
// `assumeIsolated` is unavailable in async code. The twin runs the callback's code isolated to
// the actor instead, in a closure with an `isolated` parameter, where the actor's code needs no
// `assumeIsolated`: `await { (ledger: isolated Ledger) in ledger.record(p); return p }(ledger)`.
// It runs on the actor's executor, the queue 1.x's callback ran on (`assumeIsolated` stopped the
// program anywhere else), and the actor's code still runs without a hop of its own.

import SwiftParser
import SwiftSyntax

extension ChainConversion {
    /// `body` (a callback's statements, run on a named context) as a call of a closure isolated to
    /// the actor that its `x.assumeIsolated { y in … }` statements enter, or nil when it has none.
    /// `x` must be a parameter of the function (its type is the closure parameter's); every
    /// `assumeIsolated` must be a statement of its own, on the same `x`.
    static func onAssumedActor(_ body: [String], parameterTypes: [String: String]) throws -> String? {
        let joined = body.joined(separator: "\n")
        guard joined.contains("assumeIsolated") else { return nil }
        let statements = Parser.parse(source: joined).statements
        var actor: String?
        var rewritten: [String] = []
        for statement in statements {
            guard let call = statement.item.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                  member.declName.baseName.text == "assumeIsolated" else {
                if statement.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == "assumeIsolated" }) {
                    throw Left("`assumeIsolated` whose value is used or that is nested (unavailable in async code; only a statement of its own "
                        + "becomes the code of a closure isolated to its actor)")
                }
                rewritten.append(text(of: statement))
                continue
            }
            guard let name = member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text, parameterTypes[name] != nil,
                  actor == nil || actor == name, let closure = call.trailingClosure, call.arguments.isEmpty,
                  call.additionalTrailingClosures.isEmpty, closure.signature?.capture == nil else {
                throw Left("`assumeIsolated` on another value than one actor parameter (unavailable in async code; the twin runs "
                    + "the callback isolated to a parameter's actor)")
            }
            actor = name
            // `{ y in S }`: S, with `y` the isolated parameter's name.
            var inner = closure.statements
            if let names = parameters(of: closure)?.names {
                guard names.count == 1 else { throw Left("`assumeIsolated` whose closure takes several parameters") }
                if names[0] != "_", names[0] != name {
                    inner = Renamer(name: names[0], to: .identifier(name)).rewrite(inner).as(CodeBlockItemListSyntax.self) ?? inner
                }
            } else if !anonymousArguments(of: closure).zero.isEmpty {
                // `{ $0.add(n) }`: `$0` is the actor (a nested closure or block might have a `$0` of its own).
                guard !inner.tokens(viewMode: .sourceAccurate).contains(where: { $0.tokenKind == .leftBrace }) else {
                    throw Left("`assumeIsolated` whose closure reads `$0` and holds a closure or block")
                }
                inner = Renamer(name: "$0", to: .identifier(name)).rewrite(inner).as(CodeBlockItemListSyntax.self) ?? inner
            }
            if inner.contains(where: { containsReturn(Syntax($0)) }) { throw Left("`assumeIsolated` whose closure returns") }
            rewritten += inner.map(text(of:))
        }
        guard let actor, let type = parameterTypes[actor] else { return nil }
        let effects = throwsOutsideClosures(rewritten.joined(separator: "\n")) ? "try await" : "await"
        return "\(effects) { (\(actor): isolated \(type)) in\n" + rewritten.map(indented).joined(separator: "\n") + "\n}(\(actor))"
    }
}
