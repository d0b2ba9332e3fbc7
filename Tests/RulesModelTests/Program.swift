// The programs the rules model and the library both run: a list of API calls on numbered
// entities (promises, resolvers, tokens, delayed promises, operations, token wrappers), written
// by a seeded generator and printed as Swift-like code for a replay.
//
// Every entity is created by exactly one operation, which names it; an operation whose entity
// does not exist (its creator was shrunk away, or has not run yet, as for a resolver a handler
// keeps) does nothing, in the model and in the library alike. So any sub-list of a program is a
// program, which is all the shrinker needs.

#if TOMORROWLAND_SCHEDULE_POINTS

/// Where a callback or handler runs. Only contexts whose order the test controls: `.immediate`,
/// and the serial test queue `q`, which runs only while the program drains it.
enum Ctx: Int, CaseIterable, Sendable {
    /// `.immediate`
    case imm
    /// `.nowOr(.queue(q))`
    case nowOrQ
    /// `.queue(q)`
    case q

    var swift: String {
        switch self {
        case .imm: return ".immediate"
        case .nowOrQ: return ".nowOr(.queue(q))"
        case .q: return ".queue(q)"
        }
    }
}

/// A result to resolve with: values and errors are small numbers.
enum RSpec: Equatable, Sendable {
    case value(Int)
    case error(Int)
    case cancelled

    var swift: String {
        switch self {
        case .value(let v): return ".value(\(v))"
        case .error(let e): return ".error(TE(\(e)))"
        case .cancelled: return ".cancelled"
        }
    }
}

/// How a resolver call resolves.
enum How: Equatable, Sendable {
    case fulfill(Int)
    case reject(Int)
    case cancel
    /// `resolve(with: p<id>)`
    case with(Int)

    func swift(_ r: String) -> String {
        switch self {
        case .fulfill(let v): return "\(r).fulfill(with: \(v))"
        case .reject(let e): return "\(r).reject(with: TE(\(e)))"
        case .cancel: return "\(r).cancel()"
        case .with(let p): return "\(r).resolve(with: p\(p))"
        }
    }
}

/// The operator of a child made with a callback.
enum ChainKind: Equatable, Sendable {
    case then, `catch`, always, map, recover, mapResult, mapError, onCancel
    /// `flatMap` returning the promise `p<inner>` if the program holds it, else a fulfilled one.
    case flatMap(inner: Int)
    /// `tap(on:)`: returns the receiver (no new entity).
    case tapOn

    var name: String {
        switch self {
        case .then: return "then"
        case .catch: return "catch"
        case .always: return "always"
        case .map: return "map"
        case .recover: return "recover"
        case .mapResult: return "mapResult"
        case .mapError: return "mapError"
        case .onCancel: return "onCancel"
        case .flatMap: return "flatMap"
        case .tapOn: return "tap"
        }
    }

    /// The rules a child of this kind exercises besides the common ones.
    var rules: [Int] {
        switch self {
        case .onCancel, .tapOn: return [7]
        case .flatMap: return [27]
        default: return []
        }
    }
}

/// Children without a callback.
enum PassKind: Equatable, Sendable {
    case tap, makeChild, ignoringCancel
}

/// What user code (a callback, a handler) does when it runs, besides recording itself.
indirect enum Act: Equatable, Sendable {
    case none
    /// On the handler's own resolver (cancel handlers, `Promise(on:)`, delayed and operation handlers).
    case own(How)
    /// Keep the handler's own resolver in the program, under its promise's number.
    case keepOwn
    /// A simple operation of the program (`Op.isSimple`).
    case op(Op)
    /// Two actions, in order.
    case both(Act, Act)

    func swift(own r: String) -> String {
        switch self {
        case .none: return ""
        case .own(let how): return how.swift(r)
        case .keepOwn: return "keep(\(r))"
        case .op(let op): return op.swift
        case .both(let a, let b): return a.swift(own: r) + "; " + b.swift(own: r)
        }
    }

    var ops: [Op] {
        switch self {
        case .op(let op): return [op]
        case .both(let a, let b): return a.ops + b.ops
        default: return []
        }
    }
}

/// What the `n`-th attempt of a `retry` body returns.
enum AttemptSpec: Equatable, Sendable {
    /// A pending promise, `p<id>`, whose resolver the program keeps; with `handler`, an
    /// `.immediate` cancel handler `h<handler>` that does `act` is registered on it; with
    /// `cancelsOutput`, the body first asks the `retry`'s own promise to cancel.
    case pending(Int, handler: Int?, act: Act, cancelsOutput: Bool)
    case fulfilled(Int)
    case rejected(Int)
}

/// One step of a program.
indirect enum Op: Equatable, Sendable {
    /// `let (p, r) = Promise<Int, TE>.makeWithResolver()`
    case make(p: Int)
    /// `let p = Promise<Int, TE>(with: result)`
    case resolved(p: Int, result: RSpec)
    /// `let p = Promise<Int, TE>(on: ctx) { r in i<n> }`
    case initOn(p: Int, n: Int, ctx: Ctx, act: Act)
    /// `let c = parent.<kind>(on: ctx, token: k) { cb<n> }`
    case chain(c: Int, parent: Int, kind: ChainKind, n: Int, ctx: Ctx, token: Int?, act: Act)
    /// `let c = parent.tap() / makeChild() / ignoringCancel()`
    case pass(c: Int, parent: Int, kind: PassKind)
    /// `let c = parent.propagatingCancellation(on: ctx) { pc<n> }`
    case propagating(c: Int, parent: Int, n: Int, ctx: Ctx, act: Act)
    /// `r.onRequestCancel(on: ctx) { r in h<n> }`
    case onRequestCancel(r: Int, n: Int, ctx: Ctx, act: Act)
    case resolve(r: Int, how: How)
    case requestCancel(p: Int)
    /// `r.hasRequestedCancel`, recorded
    case readRequested(r: Int)
    case dropHandle(p: Int)
    case dropResolver(r: Int)
    case newToken(k: Int, invalidateOnDeinit: Bool)
    case invalidate(k: Int)
    case cancelWithoutInvalidating(k: Int)
    case requestCancelOnInvalidate(p: Int, k: Int)
    case dropToken(k: Int)
    /// `k.chainInvalidation(from: from, includingCancelWithoutInvalidating: including)`
    case chainTokens(k: Int, from: Int, including: Bool)
    /// Runs `q` (and the global queue's stand-in `g`) until both are idle.
    case drain
    /// Puts marker `m` on `q`; `drainTo(m)` runs `q` up to it.
    case mark(m: Int)
    case drainTo(m: Int)
    case whenAll(p: Int, inputs: [Int], cancelOnFailure: Bool)
    case whenFirst(p: Int, inputs: [Int], cancelRemaining: Bool)
    /// `let c = parent.timeout(on: ctx, delay: delay)`
    case timeout(c: Int, parent: Int, ctx: Ctx, delay: Double)
    /// `let c = parent.delay(on: ctx, delay)`
    case delay(c: Int, parent: Int, ctx: Ctx, delay: Double)
    /// `let p = Promise<Int, TE>(on: ctx, with: result, after: delay)`; with `object`, a
    /// `Promise<Obj, TE>` whose value is an object the test watches (`v<p>`).
    case after(p: Int, ctx: Ctx, result: RSpec, delay: Double, object: Bool)
    /// Advances the virtual clock.
    case advance(by: Double)
    /// `let d = DelayedPromise<Int, TE>(on: ctx) { r in d<n> }` (its promise is `p<d>`)
    case delayed(d: Int, n: Int, ctx: Ctx, act: Act)
    /// `let p<d> = d.promise`
    case access(d: Int)
    case dropDelayed(d: Int)
    /// `let o = PromiseOperation<Int, TE>(on: ctx) { r in o<n> }` (its promise is `p<o>`)
    case operation(o: Int, n: Int, ctx: Ctx, act: Act)
    case start(o: Int)
    case cancelOperation(o: Int)
    /// `let p<o> = o.promise`
    case operationPromise(o: Int)
    case dropOperation(o: Int)
    /// `let t = p.withToken(k)`
    case withToken(t: Int, p: Int, k: Int)
    /// `let t = from.<kind>(on: ctx) { cb<n> }` on a `TokenPromise` (its promise is `p<c>`)
    case tokenChain(t: Int, c: Int, from: Int, kind: ChainKind, n: Int, ctx: Ctx, act: Act)
    /// `let t = from.tap() / ignoringCancel()` on a `TokenPromise` (its promise is `p<c>`)
    case tokenPass(t: Int, c: Int, from: Int, kind: PassKind)
    case dropTokenPromise(t: Int)
    /// `let p = retry(on: ctx, attempts: attempts, delay: delay, while: rs<n>) { rb<n> }`; with
    /// `holdAttempts` the program keeps a handle to each pending attempt too.
    case retry(p: Int, n: Int, ctx: Ctx, attempts: Int, delay: Double, specs: [AttemptSpec], holdAttempts: Bool)

    /// Operations user code may make (they create nothing).
    var isSimple: Bool {
        switch self {
        case .resolve, .requestCancel, .dropHandle, .dropResolver, .invalidate, .cancelWithoutInvalidating,
             .readRequested, .access, .start, .cancelOperation, .dropDelayed, .dropOperation, .requestCancelOnInvalidate:
            return true
        default:
            return false
        }
    }

    /// The rules of Rules.md an operation exercises (for the report of a failure).
    var rules: Set<Int> {
        switch self {
        case .make, .resolved: return [1, 2]
        case .initOn: return [1, 11, 12, 13]
        case .chain(_, _, let kind, _, _, let token, let act):
            var rules: Set<Int> = [5, 11, 12, 13, 18, 19]
            if token != nil { rules.formUnion([14, 15]) }
            rules.formUnion(kind.rules)
            return rules.union(act.ops.flatMap(\.rules))
        case .pass(_, _, let kind): return kind == .makeChild ? [5] : [7]
        case .propagating: return [8]
        case .onRequestCancel(_, _, _, let act): return Set([3, 4, 12, 19]).union(act.ops.flatMap(\.rules))
        case .resolve(_, let how): if case .with = how { return [2, 27] } else { return [2] }
        case .requestCancel, .readRequested: return [3, 5]
        case .dropHandle: return [5, 6]
        case .dropResolver: return [1]
        case .newToken, .dropToken: return [16]
        case .invalidate, .cancelWithoutInvalidating, .requestCancelOnInvalidate, .chainTokens: return [14, 15]
        case .drain, .mark, .drainTo: return [11, 12]
        case .whenAll: return [20]
        case .whenFirst: return [21]
        case .timeout: return [22]
        case .delay, .after: return [23]
        case .advance: return [22, 23]
        case .delayed, .access, .dropDelayed: return [25]
        case .operation, .start, .cancelOperation, .operationPromise, .dropOperation: return [26]
        case .withToken, .tokenChain, .tokenPass, .dropTokenPromise: return [29]
        case .retry: return [1, 5]
        }
    }

    var swift: String {
        func token(_ k: Int?) -> String { k.map { ", token: k\($0)" } ?? "" }
        func body(_ act: Act, own: String) -> String {
            let action = act.swift(own: own)
            return action.isEmpty ? "" : "; \(action)"
        }
        switch self {
        case .make(let p): return "let (p\(p), r\(p)) = Promise<Int, TE>.makeWithResolver()"
        case .resolved(let p, let result): return "let p\(p) = Promise<Int, TE>(with: \(result.swift))"
        case .initOn(let p, let n, let ctx, let act):
            return "let p\(p) = Promise<Int, TE>(on: \(ctx.swift)) { r in record(\"i\(n)\")\(body(act, own: "r")) }"
        case .chain(let c, let parent, let kind, let n, let ctx, let k, let act):
            let lhs = kind == .tapOn ? "" : "let p\(c) = "
            let inner: String
            if case .flatMap(let i) = kind { inner = " (returns p\(i))" } else { inner = "" }
            return "\(lhs)p\(parent).\(kind.name)(on: \(ctx.swift)\(token(k))) { record(\"cb\(n)\")\(body(act, own: "?"))\(inner) }"
        case .pass(let c, let parent, let kind): return "let p\(c) = p\(parent).\(kind)()"
        case .propagating(let c, let parent, let n, let ctx, let act):
            return "let p\(c) = p\(parent).propagatingCancellation(on: \(ctx.swift)) { _ in record(\"pc\(n)\")\(body(act, own: "?")) }"
        case .onRequestCancel(let r, let n, let ctx, let act):
            return "r\(r).onRequestCancel(on: \(ctx.swift)) { r in record(\"h\(n)\")\(body(act, own: "r")) }"
        case .resolve(let r, let how): return how.swift("r\(r)")
        case .requestCancel(let p): return "p\(p).requestCancel()"
        case .readRequested(let r): return "record(r\(r).hasRequestedCancel)"
        case .dropHandle(let p): return "p\(p) = nil"
        case .dropResolver(let r): return "r\(r) = nil"
        case .newToken(let k, let onDeinit): return "let k\(k) = PromiseInvalidationToken(invalidateOnDeinit: \(onDeinit))"
        case .invalidate(let k): return "k\(k).invalidate()"
        case .cancelWithoutInvalidating(let k): return "k\(k).cancelWithoutInvalidating()"
        case .requestCancelOnInvalidate(let p, let k): return "p\(p).requestCancelOnInvalidate(k\(k))"
        case .dropToken(let k): return "k\(k) = nil"
        case .chainTokens(let k, let from, let including):
            return "k\(k).chainInvalidation(from: k\(from), includingCancelWithoutInvalidating: \(including))"
        case .drain: return "drain(q, g)"
        case .mark(let m): return "q.async { marker \(m) }"
        case .drainTo(let m): return "drain(q, upTo: marker \(m))"
        case .whenAll(let p, let inputs, let cancel):
            return "let p\(p) = when(fulfilled: [\(inputs.map { "p\($0)" }.joined(separator: ", "))], cancelOnFailure: \(cancel))"
        case .whenFirst(let p, let inputs, let cancel):
            return "let p\(p) = when(first: [\(inputs.map { "p\($0)" }.joined(separator: ", "))], cancelRemaining: \(cancel))"
        case .timeout(let c, let parent, let ctx, let delay): return "let p\(c) = p\(parent).timeout(on: \(ctx.swift), delay: \(delay))"
        case .delay(let c, let parent, let ctx, let delay): return "let p\(c) = p\(parent).delay(on: \(ctx.swift), \(delay))"
        case .after(let p, let ctx, let result, let delay, let object):
            let value = object ? "Obj" : "Int"
            return "let p\(p) = Promise<\(value), TE>(on: \(ctx.swift), with: \(result.swift), after: \(delay))\(object ? "  // v\(p)" : "")"
        case .advance(let by): return "clock.advance(by: \(by))"
        case .delayed(let d, let n, let ctx, let act):
            return "let d\(d) = DelayedPromise<Int, TE>(on: \(ctx.swift)) { r in record(\"d\(n)\")\(body(act, own: "r")) }"
        case .access(let d): return "p\(d) = d\(d).promise"
        case .dropDelayed(let d): return "d\(d) = nil"
        case .operation(let o, let n, let ctx, let act):
            return "let o\(o) = PromiseOperation<Int, TE>(on: \(ctx.swift)) { r in record(\"o\(n)\")\(body(act, own: "r")) }"
        case .start(let o): return "o\(o).start()"
        case .cancelOperation(let o): return "o\(o).cancel()"
        case .operationPromise(let o): return "p\(o) = o\(o).promise"
        case .dropOperation(let o): return "o\(o) = nil"
        case .withToken(let t, let p, let k): return "let t\(t) = p\(p).withToken(k\(k))"
        case .tokenChain(let t, let c, let from, let kind, let n, let ctx, let act):
            return "let t\(t) = t\(from).\(kind.name)(on: \(ctx.swift)) { record(\"cb\(n)\")\(body(act, own: "?")) }  // p\(c)"
        case .tokenPass(let t, let c, let from, let kind): return "let t\(t) = t\(from).\(kind)()  // p\(c)"
        case .dropTokenPromise(let t): return "t\(t) = nil"
        case .retry(let p, let n, let ctx, let attempts, let delay, let specs, let hold):
            let returns = specs.map { spec -> String in
                switch spec {
                case .pending(let id, let handler, let act, let cancels):
                    let onRequest = handler.map { " with h\($0) { r in \(act.swift(own: "r")) }" } ?? ""
                    return "\(cancels ? "output.requestCancel(), " : "")p\(id)\(onRequest)"
                case .fulfilled(let v): return "fulfilled(\(v))"
                case .rejected(let e): return "rejected(TE(\(e)))"
                }
            }.joined(separator: ", ")
            return "let p\(p) = retry(on: \(ctx.swift), attempts: \(attempts), delay: \(delay), while: rs\(n)) "
                + "{ rb\(n): \(returns) }\(hold ? "  // attempts held" : "")"
        }
    }
}

/// A program: its operations, and the seed that wrote it.
struct Program {
    var ops: [Op]

    var swift: String {
        ops.enumerated().map { "    \(String(format: "%3d", $0.offset)): \($0.element.swift)" }.joined(separator: "\n")
    }

    var rules: [Int] {
        Array(ops.reduce(into: Set<Int>()) { $0.formUnion($1.rules) }).sorted()
    }
}

/// SplitMix64: small, fast, and the same sequence on every platform.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
#endif
