// `convert-body`, the syntax half, continued: an error handler (`catch`, `recover`, `mapError`,
// `flatMapError`) as the `catch` clause of a `do` around the steps before it.

import SwiftParser
import SwiftSyntax

extension Writer {
    /// The `catch` clause line(s) of an error handler and the statements under it. At the end
    /// of the chain (`target` nil) a value of `recover` or `flatMapError` is returned; on the
    /// chain's base (`leadingHandler`) it is assigned to `target`.
    mutating func handlerLines(_ handler: ChainConversion.Step, assigning target: String?) throws -> (clause: [String], handling: [String]) {
        let placement = try placement(of: handler)
        let (parameter, body) = try parameter(of: handler.closure, anonymousName: "error")
        let name = parameter == "_" ? "error" : parameter
        let types = conversion.types(of: handler, isFinal: target == nil)
        let handling = try handling(handler, body: body, error: name, placement: placement, types: types, target: target)
        return (catchClause(of: handler, error: name, handling: handling, target: target), handling)
    }

    /// The statements under an error handler's `catch`: a `mapError` or `flatMapError` closure
    /// that returns early as the twin's statements (each `return` a `throw`, or the awaited
    /// promise's value); else the closure's statements (inline, or on its context's executor),
    /// then what the handler's kind ends in.
    mutating func handling(_ handler: ChainConversion.Step, body: [String], error name: String, placement: Placement,
                           types: ChainConversion.ReturnTypes, target: String?) throws -> [String] {
        let statements = Array(handler.closure.statements)
        let returnsEarly = statements.dropLast().contains { ChainConversion.containsReturn(Syntax($0)) }
            || statements.last?.item.is(ExprSyntax.self) == false
        if case .inline = placement, returnsEarly, handler.name == "mapError" {
            // Every `return e` of the closure is the twin's `throw e`.
            return guarded(try conversion.closureStatements(body, returning: .error(types.typedError)), by: handler)
        }
        if case .inline = placement, returnsEarly, handler.name == "flatMapError", target == nil {
            return guarded(try conversion.closureStatements(body, returning: .promise(types)), by: handler)
        }
        let outer = lines
        lines = []
        let value = try run(body, step: handler, placement: placement, result: handler.name != "catch")
        var handling = lines
        lines = outer
        switch handler.name {
        case "catch": handling.append("throw \(name)")
        case "recover": handling += recoverEnding(value, target: target)
        case "flatMapError": handling.append(try flatMapErrorEnding(handler, value: value, body: body, placement: placement, types: types, target: target))
        default: handling.append(mapErrorEnding(handler, value: value, types: types))
        }
        return handling
    }

    /// What `recover` ends in: its value assigned to `target`, evaluated in a `Void` twin, else returned.
    func recoverEnding(_ value: String, target: String?) -> [String] {
        if let target { return ["\(target) = \(value)"] }
        if conversion.returnsVoid { return value != "()" ? [value] : [] }
        return ["return " + value]
    }

    /// What `flatMapError` ends in: the closure's promise, awaited (`throw e` for `Promise(rejected: e)`),
    /// returned or assigned to `target`.
    func flatMapErrorEnding(_ handler: ChainConversion.Step, value: String, body: [String], placement: Placement,
                            types: ChainConversion.ReturnTypes, target: String?) throws -> String {
        let statements = Array(handler.closure.statements)
        var ending: String
        if case .inline = placement {
            let original = statements.count == 1 && body == statements.map(ChainConversion.text(of:)) ? statements.first?.item.as(ExprSyntax.self) : nil
            ending = try conversion.earlyReturn(of: original ?? ChainConversion.parse(value), types: types)
        } else {
            ending = conversion.returnsVoid && target == nil ? value : "return " + value
        }
        if let target, ending.hasPrefix("return ") { ending = "\(target) = " + ending.dropFirst("return ".count) }
        if target != nil, ending == "return" { throw Left("a `flatMapError` on the chain's base that returns nothing") }
        return ending
    }

    /// What `mapError` ends in: the `throw` of its value, typed as the promise's error where it
    /// is an implicit member, and on a context's executor as the closure's type (ChainConversion+ThrownTypes.swift).
    func mapErrorEnding(_ handler: ChainConversion.Step, value: String, types: ChainConversion.ReturnTypes) -> String {
        let thrown = ChainConversion.parse(value)
        let declared = handler.closure.signature?.returnClause?.type.trimmedDescription ?? (types.typedError.isEmpty ? nil : types.typedError)
        let typed = declared.map { Self.typingExecutorClosure(value, as: $0) } ?? value
        return "throw " + (ChainConversion.isImplicitMember(thrown) && !types.typedError.isEmpty ? types.typedError + value : typed)
    }

    /// The `catch` clause of an error handler. A catch callback never saw cancellation:
    /// `CancellationError` goes on. In a twin that throws only `CancellationError` (a NoError
    /// promise's), it is rethrown typed. A typed upstream error is caught as that type (the
    /// closure may use its cases).
    func catchClause(of handler: ChainConversion.Step, error name: String, handling: [String], target: String?) -> [String] {
        let upstream = handler.baseType.flatMap { $0.hasUntypedError || $0.hasNoError ? nil : $0.error }
        let used = handling.contains { ChainConversion.identifiers(in: Parser.parse(source: $0)).contains(name) }
        if conversion.noError, target == nil {
            return ["} catch let error as CancellationError {", "    throw error", name == "error" ? "} catch {" : "} catch let \(name) {"]
        }
        if let upstream { return [used ? "} catch let \(name) as \(upstream) {" : "} catch is \(upstream) {"] }
        return ["} catch let \(name) where !(\(name) is CancellationError) {"]
    }

    /// An error handler on the chain's base, before its value steps: the base awaited into a
    /// `let` in a do/catch, whose catch is the handler. Needs the base's value type (the
    /// compiler's); without it the handler stays on the base's promise, awaited with it.
    mutating func leadingHandler(_ handler: ChainConversion.Step, next: ChainConversion.Step?) throws {
        // The base: a promise, or after a split the local function that stands for the chain before it (ChainConversion+Split.swift).
        let base = pendingPromise
        guard base != nil || conversion.split != nil else { throw Left("`\(handler.name)` in the middle of the chain") }
        guard let valueType = handler.baseType?.value, let call = handler.call else {
            // `get(x).mapError(on: .immediate) { … }`, awaited as one promise.
            guard let call = handler.call, base != nil else { throw Left("`\(handler.name)` in the middle of the chain") }
            // On `.nowOr` the base is in a `let` already: the call would evaluate it again.
            if nowOrBase != nil { throw Left("`\(handler.name)` on `.nowOr` before value steps, on a promise whose value type is not known") }
            pending = .promise(ChainConversion.consuming(consumable, in: ExprSyntax(call)))
            return
        }
        _ = call
        // The next closure's parameter names the value, if it can.
        var name = freshName(for: base)
        let inBase = base.map(ChainConversion.identifiers(in:)) ?? []
        if let next, let (names, _) = ChainConversion.parameters(of: next.closure), names.count == 1, names[0] != "_",
           !taken.subtracting(ChainConversion.identifiers(in: next.closure)).contains(names[0]) || !inBase.contains(names[0]),
           !declared.contains(names[0]), !inBase.contains(names[0]) {
            name = names[0]
        }
        let (clause, handling) = try handlerLines(handler, assigning: name)
        lines += ["let \(name): \(valueType)", "do {", Self.indent("\(name) = " + pendingText)] + clause + handling.map(Self.indent) + ["}"]
        boundNames.insert(name)
        taken.insert(name)
        pending = .expression(name)
    }
}
