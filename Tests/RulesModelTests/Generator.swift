// The seeded generator of random programs, and the shrinker.

#if TOMORROWLAND_SCHEDULE_POINTS

/// The type of a promise entity: `Promise<V, E>`, spelled as the library's types are.
struct PType: Hashable, Sendable {
    /// `Int` or `[Int]`.
    var array: Bool
    /// `TE`, `NoError`, `PromiseTimeoutError<…>` nesting, as a string.
    var error: String

    static let main = PType(array: false, error: "TE")
}

/// Writes a random program from a seed. The same seed always gives the same program.
struct ProgramGenerator {
    private var random: SeededRandom
    private var ops: [Op] = []
    private var nextID = 1
    private var nextName = 1

    // What the program has made so far (as far as the generator knows: an entity a handler
    // makes may not exist yet when an operation names it, which is fine).
    private var types: [Int: PType] = [:]
    private var held: Set<Int> = []
    private var resolvers: [Int] = []
    private var tokens: [Int] = []
    /// Tokens that must live to the end: dropping one whose box a chain or a callback may still
    /// reach would make what a later invalidation reaches depend on object lifetimes.
    private var pinnedTokens: Set<Int> = []
    private var delayed: [Int] = []
    private var operations: [Int] = []
    private var tokenPromises: [Int: PType] = [:]
    private var markers: [Int] = []

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    private mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }
    private mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func pick<T>(_ array: [T]) -> T? { array.isEmpty ? nil : array[int(0...array.count - 1)] }
    private mutating func newID() -> Int { defer { nextID += 1 }; return nextID }
    private mutating func newName() -> Int { defer { nextName += 1 }; return nextName }
    private mutating func ctx() -> Ctx { Ctx.allCases[int(0...2)] }
    /// A timer context: `q` or `.nowOr(q)` (`.immediate` means `.auto` for timers, a global queue).
    private mutating func timerCtx() -> Ctx { chance(0.5) ? .q : .nowOrQ }
    private mutating func delayValue() -> Double {
        [0, -1, 0.5, 1, 1, 2, 2, 3, .nan, .infinity][int(0...9)]
    }

    private var promiseIDs: [Int] { types.keys.sorted() }
    private mutating func promise() -> Int? { pick(promiseIDs) }
    private mutating func promise(of type: PType) -> Int? { pick(promiseIDs.filter { types[$0] == type }) }

    private mutating func how() -> How {
        switch int(0...9) {
        case 0...3: return .fulfill(int(1...9))
        case 4...5: return .reject(int(1...9))
        case 6...7: return .cancel
        default: return promise(of: .main).map { .with($0) } ?? .cancel
        }
    }

    /// A simple operation for user code to make.
    private mutating func simpleOp() -> Op? {
        switch int(0...9) {
        case 0...2: return pick(resolvers).map { .resolve(r: $0, how: how()) }
        case 3...4: return promise().map { .requestCancel(p: $0) }
        case 5: return pick(Array(held).sorted()).map { .dropHandle(p: $0) }
        case 6: return pick(resolvers).map { .dropResolver(r: $0) }
        case 7: return pick(tokens).map { chance(0.7) ? .invalidate(k: $0) : .cancelWithoutInvalidating(k: $0) }
        case 8: return pick(resolvers).map { .readRequested(r: $0) }
        default:
            if chance(0.5) { return pick(delayed).map { .access(d: $0) } }
            return pick(operations).map { chance(0.5) ? .start(o: $0) : .cancelOperation(o: $0) }
        }
    }

    private mutating func callbackAct() -> Act {
        if chance(0.6) { return .none }
        guard let op = simpleOp() else { return .none }
        if chance(0.15), let second = simpleOp() { return .both(.op(op), .op(second)) }
        return .op(op)
    }

    private mutating func handlerAct(keep: Bool) -> Act {
        switch int(0...9) {
        case 0...3: return .own(.cancel)
        case 4: return .own(.fulfill(int(1...9)))
        case 5: return .own(.reject(int(1...9)))
        case 6: return keep ? .keepOwn : .none
        case 7: return .none
        default:
            let act = callbackAct()
            return chance(0.3) ? .both(act, .own(.cancel)) : act
        }
    }

    private mutating func add(_ op: Op) { ops.append(op) }

    private mutating func addPromise(_ id: Int, _ type: PType, held isHeld: Bool = true) {
        types[id] = type
        if isHeld { held.insert(id) }
    }

    private mutating func chainType(_ kind: ChainKind, _ parent: PType) -> PType {
        switch kind {
        case .recover: return PType(array: parent.array, error: "NoError")
        default: return parent
        }
    }

    mutating func program(length: Int) -> Program {
        // Some programs leave whole areas out, so that what remains is exercised more deeply.
        let useTimers = chance(0.7), useTokens = chance(0.7), useHelpers = chance(0.6), useWhen = chance(0.6)
        while ops.count < length {
            step(useTimers: useTimers, useTokens: useTokens, useHelpers: useHelpers, useWhen: useWhen)
        }
        return Program(ops: ops)
    }

    private mutating func chainKind(_ parent: Int) -> ChainKind {
        switch int(0...10) {
        case 0: return .then
        case 1: return .catch
        case 2: return .always
        case 3: return .map
        case 4: return .recover
        case 5: return .mapResult
        case 6: return .mapError
        case 7: return .onCancel
        case 8: return .tapOn
        default: return .flatMap(inner: promise(of: types[parent] ?? .main) ?? parent)
        }
    }

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    private mutating func step(useTimers: Bool, useTokens: Bool, useHelpers: Bool, useWhen: Bool) {
        switch int(0...99) {
        case 0...7:
            let p = newID()
            add(.make(p: p))
            addPromise(p, .main)
            resolvers.append(p)
        case 8...9:
            let p = newID()
            let result: RSpec = [.value(int(1...9)), .error(int(1...9)), .cancelled][int(0...2)]
            add(.resolved(p: p, result: result))
            addPromise(p, .main)
        case 10...12:
            let p = newID()
            add(.initOn(p: p, n: newName(), ctx: ctx(), act: handlerAct(keep: true)))
            addPromise(p, .main)
            resolvers.append(p)
        case 13...32:
            guard let parent = promise() else { return }
            let kind = chainKind(parent)
            let token = useTokens && chance(0.3) ? pick(tokens) : nil
            let c = kind == .tapOn ? parent : newID()
            add(.chain(c: c, parent: parent, kind: kind, n: newName(), ctx: ctx(), token: token, act: callbackAct()))
            if kind != .tapOn { addPromise(c, chainType(kind, types[parent]!)) }
        case 33...36:
            guard let parent = promise() else { return }
            let c = newID()
            add(.pass(c: c, parent: parent, kind: [.tap, .makeChild, .ignoringCancel, .makeChild][int(0...3)]))
            addPromise(c, types[parent]!)
        case 37...38:
            guard let parent = promise() else { return }
            let c = newID()
            add(.propagating(c: c, parent: parent, n: newName(), ctx: ctx(), act: callbackAct()))
            addPromise(c, types[parent]!)
        case 39...46:
            guard let r = pick(resolvers) else { return }
            add(.onRequestCancel(r: r, n: newName(), ctx: ctx(), act: handlerAct(keep: false)))
        case 47...54:
            guard let r = pick(resolvers) else { return }
            add(.resolve(r: r, how: how()))
        case 55...61:
            guard let p = promise() else { return }
            add(.requestCancel(p: p))
        case 62:
            guard let r = pick(resolvers) else { return }
            add(.readRequested(r: r))
        case 63...66:
            guard let p = pick(Array(held).sorted()) else { return }
            add(.dropHandle(p: p))
            held.remove(p)
        case 67...68:
            guard let r = pick(resolvers) else { return }
            add(.dropResolver(r: r))
        case 69...74:
            if !useTokens { return }
            switch int(0...9) {
            case 0...2:
                let k = newID()
                let onDeinit = chance(0.7)
                add(.newToken(k: k, invalidateOnDeinit: onDeinit))
                tokens.append(k)
                if !onDeinit { pinnedTokens.insert(k) }
            case 3...4:
                guard let k = pick(tokens) else { return }
                add(.invalidate(k: k))
            case 5: guard let k = pick(tokens) else { return }; add(.cancelWithoutInvalidating(k: k))
            case 6...7:
                guard let k = pick(tokens), let p = promise() else { return }
                add(.requestCancelOnInvalidate(p: p, k: k))
            case 8:
                guard let k = pick(tokens.filter { !pinnedTokens.contains($0) }) else { return }
                add(.dropToken(k: k))
                tokens.removeAll { $0 == k }
            default:
                guard let k = pick(tokens), let from = pick(tokens), k != from || chance(0.2) else { return }
                add(.chainTokens(k: k, from: from, including: chance(0.6)))
                pinnedTokens.formUnion([k, from])
            }
        case 75...81:
            if let m = pick(markers), chance(0.3) {
                add(.drainTo(m: m))
                markers.removeAll { $0 <= m }
            } else if chance(0.25) {
                let m = newID()
                add(.mark(m: m))
                markers.append(m)
            } else {
                add(.drain)
                markers = []
            }
        case 82...84:
            if !useWhen { return }
            let mains = promiseIDs.filter { types[$0] == .main }
            guard !mains.isEmpty else { return }
            let inputs = (0..<int(1...3)).compactMap { _ in pick(mains) }
            let p = newID()
            if chance(0.5) {
                add(.whenAll(p: p, inputs: inputs, cancelOnFailure: chance(0.5)))
                addPromise(p, PType(array: true, error: "TE"))
            } else {
                add(.whenFirst(p: p, inputs: inputs, cancelRemaining: chance(0.5)))
                addPromise(p, .main)
            }
        case 85...90:
            if !useTimers { return }
            switch int(0...9) {
            case 0...2:
                guard let parent = promise() else { return }
                let c = newID()
                // `.immediate` only with a delay that fires at once (otherwise its timer is `.auto`'s).
                let delay = delayValue()
                let ctx: Ctx = delay <= 0 && chance(0.5) ? .imm : timerCtx()
                add(.timeout(c: c, parent: parent, ctx: ctx, delay: delay))
                addPromise(c, PType(array: types[parent]!.array, error: "TO<\(types[parent]!.error)>"))
            case 3...4:
                guard let parent = promise() else { return }
                let c = newID()
                add(.delay(c: c, parent: parent, ctx: timerCtx(), delay: delayValue()))
                addPromise(c, types[parent]!)
            case 5:
                let p = newID()
                add(.after(p: p, ctx: timerCtx(), result: [.value(int(1...9)), .error(int(1...9)), .cancelled][int(0...2)],
                           delay: delayValue()))
                addPromise(p, .main)
            default:
                add(.advance(by: [0.5, 1, 1, 2, 5][int(0...4)]))
            }
        case 91...96:
            if !useHelpers { return }
            switch int(0...11) {
            case 0:
                let d = newID()
                add(.delayed(d: d, n: newName(), ctx: ctx(), act: handlerAct(keep: true)))
                delayed.append(d)
                resolvers.append(d)
            case 1...2:
                guard let d = pick(delayed) else { return }
                add(.access(d: d))
                addPromise(d, .main)
            case 3:
                guard let d = pick(delayed) else { return }
                add(.dropDelayed(d: d))
            case 4:
                let o = newID()
                add(.operation(o: o, n: newName(), ctx: ctx(), act: handlerAct(keep: true)))
                operations.append(o)
                resolvers.append(o)
            case 5:
                guard let o = pick(operations) else { return }
                add(.start(o: o))
            case 6:
                guard let o = pick(operations) else { return }
                add(chance(0.5) ? .cancelOperation(o: o) : .operationPromise(o: o))
                addPromise(o, .main)
            case 7:
                guard let o = pick(operations) else { return }
                add(.dropOperation(o: o))
            case 8...9:
                guard useTokens, let k = pick(tokens) else { return }
                if let from = pick(tokenPromises.keys.sorted()), chance(0.6) {
                    let t = newID(), c = newID()
                    let type = tokenPromises[from]!
                    if chance(0.2) {
                        add(.tokenPass(t: t, c: c, from: from, kind: chance(0.5) ? .tap : .ignoringCancel))
                        types[c] = type
                        tokenPromises[t] = type
                    } else {
                        var kind = chainKind(from)
                        if kind == .tapOn { kind = .then }
                        if case .flatMap = kind { kind = .flatMap(inner: promise(of: type) ?? from) }
                        add(.tokenChain(t: t, c: c, from: from, kind: kind, n: newName(), ctx: ctx(), act: callbackAct()))
                        types[c] = chainType(kind, type)
                        tokenPromises[t] = chainType(kind, type)
                    }
                } else if let p = promise() {
                    let t = newID()
                    add(.withToken(t: t, p: p, k: k))
                    tokenPromises[t] = types[p]!
                    pinnedTokens.insert(k)
                }
            case 10:
                guard let t = pick(tokenPromises.keys.sorted()) else { return }
                add(.dropTokenPromise(t: t))
            default:
                let p = newID(), n = newName()
                let attempts = int(1...3)
                var specs: [AttemptSpec] = []
                for _ in 0..<attempts {
                    switch int(0...3) {
                    case 0...1:
                        let id = newID()
                        specs.append(.pending(id))
                        types[id] = .main
                        resolvers.append(id)
                    case 2: specs.append(.rejected(int(1...9)))
                    default: specs.append(.fulfilled(int(1...9)))
                    }
                }
                let delay: Double = [0, 0, 1, 2, .nan][int(0...4)]
                add(.retry(p: p, n: n, ctx: delay == 0 ? ctx() : timerCtx(), attempts: attempts, delay: delay,
                           specs: specs, holdAttempts: chance(0.4)))
                addPromise(p, .main)
            }
        default:
            // Something more to resolve or cancel: most promises should see some action.
            if chance(0.5), let r = pick(resolvers) { add(.resolve(r: r, how: how())) } else { add(.drain) }
        }
    }
}

/// Shrinks a failing program: removes runs of operations, then single ones, then simplifies
/// what user code does, for as long as the program still fails.
struct Shrinker {
    let fails: (Program) -> Bool
    var budget = 1_500

    mutating func shrink(_ program: Program) -> Program {
        var best = program
        var chunk = max(1, best.ops.count / 2)
        while chunk >= 1, budget > 0 {
            var index = 0
            var removedAny = false
            while index < best.ops.count, budget > 0 {
                var candidate = best
                candidate.ops.removeSubrange(index..<min(index + chunk, candidate.ops.count))
                budget -= 1
                if fails(candidate) {
                    best = candidate
                    removedAny = true
                } else {
                    index += chunk
                }
            }
            if !removedAny { chunk /= 2 }
        }
        // Simplify what callbacks and handlers do.
        for index in best.ops.indices where budget > 0 {
            guard let simpler = Self.simplified(best.ops[index]) else { continue }
            var candidate = best
            candidate.ops[index] = simpler
            budget -= 1
            if fails(candidate) { best = candidate }
        }
        return best
    }

    private static func simplified(_ op: Op) -> Op? {
        switch op {
        case .chain(let c, let p, let kind, let n, let ctx, let token, let act) where act != .none:
            return .chain(c: c, parent: p, kind: kind, n: n, ctx: ctx, token: token, act: .none)
        case .onRequestCancel(let r, let n, let ctx, let act) where act != .none:
            return .onRequestCancel(r: r, n: n, ctx: ctx, act: .none)
        case .initOn(let p, let n, let ctx, let act) where act != .none:
            return .initOn(p: p, n: n, ctx: ctx, act: .none)
        case .propagating(let c, let p, let n, let ctx, let act) where act != .none:
            return .propagating(c: c, parent: p, n: n, ctx: ctx, act: .none)
        default:
            return nil
        }
    }
}
#endif
