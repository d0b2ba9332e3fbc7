// The seeded generator of random programs, and the shrinker.

#if TOMORROWLAND_SCHEDULE_POINTS

/// The type of a promise entity: `Promise<V, E>`, spelled as the library's types are.
struct PType: Hashable, Sendable {
    /// `Int`, `[Int]` or `Obj` (an object whose release the test watches).
    var value: String
    /// `TE`, `NoError`, `PromiseTimeoutError<…>` nesting, as a string.
    var error: String

    var array: Bool { value == "[Int]" }

    static let main = PType(value: "Int", error: "TE")
}

/// Writes a random program from a seed. The same seed always gives the same program.
struct ProgramGenerator {
    private var random: SeededRandom
    private var ops: [Op] = []
    private var nextID = 1
    private var nextName = 1

    // What the program has made so far (as far as the generator knows: an entity a handler
    // makes may not exist yet when an operation names it, which is fine).
    fileprivate var types: [Int: PType] = [:]
    fileprivate var held: Set<Int> = []
    fileprivate var resolvers: [Int] = []
    fileprivate var tokens: [Int] = []
    /// Tokens that must live to the end: dropping one whose box a chain or a callback may still
    /// reach would make what a later invalidation reaches depend on object lifetimes.
    fileprivate var pinnedTokens: Set<Int> = []
    fileprivate var delayed: [Int] = []
    fileprivate var operations: [Int] = []
    fileprivate var tokenPromises: [Int: PType] = [:]
    private var markers: [Int] = []

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    fileprivate mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }
    fileprivate mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    fileprivate mutating func pick<T>(_ array: [T]) -> T? { array.isEmpty ? nil : array[int(0...array.count - 1)] }
    fileprivate mutating func newID() -> Int { defer { nextID += 1 }; return nextID }
    fileprivate mutating func newName() -> Int { defer { nextName += 1 }; return nextName }
    fileprivate mutating func ctx() -> Ctx { Ctx.allCases[int(0...2)] }
    /// A timer context: `q` or `.nowOr(q)` (`.immediate` means `.auto` for timers, a global queue).
    fileprivate mutating func timerCtx() -> Ctx { chance(0.5) ? .q : .nowOrQ }
    fileprivate mutating func delayValue() -> Double {
        [0, -1, 0.5, 1, 1, 2, 2, 3, .nan, .infinity][int(0...9)]
    }

    private var promiseIDs: [Int] { types.keys.sorted() }
    fileprivate mutating func promise() -> Int? { pick(promiseIDs) }
    private mutating func promise(of type: PType) -> Int? { pick(promiseIDs.filter { types[$0] == type }) }

    fileprivate mutating func how() -> How {
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

    fileprivate mutating func handlerAct(keep: Bool) -> Act {
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

    fileprivate mutating func add(_ op: Op) { ops.append(op) }

    fileprivate mutating func addPromise(_ id: Int, _ type: PType, held isHeld: Bool = true) {
        types[id] = type
        if isHeld { held.insert(id) }
    }

    fileprivate mutating func chainType(_ kind: ChainKind, _ parent: PType) -> PType {
        switch kind {
        case .recover: return PType(value: parent.value, error: "NoError")
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
        if chance(0.12) {
            motif()
            return
        }
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
                addPromise(p, PType(value: "[Int]", error: "TE"))
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
                addPromise(c, PType(value: types[parent]!.value, error: "TO<\(types[parent]!.error)>"))
            case 3...4:
                guard let parent = promise() else { return }
                let c = newID()
                add(.delay(c: c, parent: parent, ctx: timerCtx(), delay: delayValue()))
                addPromise(c, types[parent]!)
            case 5:
                let p = newID()
                let result: RSpec = [.value(int(1...9)), .error(int(1...9)), .cancelled][int(0...2)]
                let object = result != .cancelled && chance(0.5)
                add(.after(p: p, ctx: timerCtx(), result: result, delay: delayValue(), object: object))
                addPromise(p, object ? PType(value: "Obj", error: "TE") : .main)
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
                        specs.append(.pending(id, handler: chance(0.5) ? newName() : nil, act: attemptHandlerAct(), cancelsOutput: chance(0.15)))
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

// MARK: Motifs

extension ProgramGenerator {
    private mutating func makeP() -> Int {
        let p = newID()
        add(.make(p: p))
        addPromise(p, .main)
        resolvers.append(p)
        return p
    }

    private mutating func resolvedP() -> Int {
        let p = newID()
        add(.resolved(p: p, result: chance(0.6) ? .value(int(1...9)) : .error(int(1...9))))
        addPromise(p, .main)
        return p
    }

    private mutating func handler(on r: Int, ctx: Ctx, act: Act) {
        add(.onRequestCancel(r: r, n: newName(), ctx: ctx, act: act))
    }

    private mutating func child(_ parent: Int, _ kind: ChainKind, ctx: Ctx, token: Int? = nil, act: Act = .none) -> Int {
        let c = newID()
        add(.chain(c: c, parent: parent, kind: kind, n: newName(), ctx: ctx, token: token, act: act))
        addPromise(c, chainType(kind, types[parent] ?? .main))
        return c
    }

    /// What the cancel handler of a retry's attempt does: nothing, or settle it at once.
    fileprivate mutating func attemptHandlerAct() -> Act {
        [.none, .own(.cancel), .own(.reject([1, 2, 4, 5][int(0...3)])), .own(.fulfill(int(1...9)))][int(0...3)]
    }

    private mutating func dropHandle(_ p: Int) {
        add(.dropHandle(p: p))
        held.remove(p)
    }

    private mutating func pinnedToken() -> Int {
        let k = newID()
        add(.newToken(k: k, invalidateOnDeinit: chance(0.5)))
        tokens.append(k)
        pinnedTokens.insert(k)
        return k
    }

    /// A small shape that exercises one clause of a rule (the rule in each comment): random
    /// programs rarely line up the three or four calls some clauses need. The model checks
    /// whatever happens; a motif only makes the interesting case likely, and the random
    /// operations around it vary it.
    // swiftlint:disable:next cyclomatic_complexity function_body_length
    mutating func motif() {
        switch int(0...13) {
        case 0:
            // Rule 4: queued handlers that each cancel; a request; perhaps a resolution meanwhile.
            let p = makeP()
            for _ in 0..<int(2...3) { handler(on: p, ctx: chance(0.6) ? .q : ctx(), act: chance(0.7) ? .own(.cancel) : .none) }
            if chance(0.5) { _ = child(p, .then, ctx: ctx()) }
            add(.requestCancel(p: p))
            if chance(0.4) { add(.resolve(r: p, how: how())) }
            if chance(0.6) { add(.drain) }
        case 1:
            // Rule 19: one handler (or callback) asks several promises to cancel.
            let a = makeP(), b = makeP()
            handler(on: a, ctx: .imm, act: chance(0.5) ? .none : .own(.cancel))
            handler(on: b, ctx: .imm, act: .none)
            let x = makeP()
            let both = Act.both(.op(.requestCancel(p: a)), .op(.requestCancel(p: b)))
            if chance(0.5) {
                handler(on: x, ctx: chance(0.7) ? .imm : ctx(), act: both)
                add(.requestCancel(p: x))
            } else {
                _ = child(x, .always, ctx: ctx(), act: both)
                add(.resolve(r: x, how: how()))
            }
        case 2:
            // Rule 19: one callback resolves several promises that have callbacks.
            let a = makeP(), b = makeP()
            _ = child(a, .always, ctx: .imm)
            _ = child(b, .always, ctx: .imm)
            if chance(0.5) { _ = child(a, .then, ctx: .imm, act: .op(.resolve(r: b, how: .fulfill(int(1...9))))) }
            let x = makeP()
            _ = child(x, .always, ctx: ctx(), act: .both(.op(.resolve(r: a, how: how())), .op(.resolve(r: b, how: how()))))
            add(.resolve(r: x, how: how()))
        case 3:
            // Rule 8: propagatingCancellation's hook, its upstream cancelling itself on the request.
            let p = makeP()
            handler(on: p, ctx: .imm, act: .own(.cancel))
            let c = newID()
            add(.propagating(c: c, parent: p, n: newName(), ctx: chance(0.7) ? .q : ctx(), act: .none))
            addPromise(c, .main)
            if chance(0.8) { dropHandle(p) }
            if chance(0.5) { add(.requestCancel(p: child(c, .then, ctx: .imm))) } else { add(.requestCancel(p: c)) }
            add(.drain)
        case 4:
            // Rule 15: an invalidation's own cancel request does not run its callbacks.
            let p = makeP()
            handler(on: p, ctx: .imm, act: .own(.cancel))
            let k = pinnedToken()
            _ = child(p, [.onCancel, .always, .catch][int(0...2)], ctx: chance(0.7) ? .imm : ctx(), token: k)
            add(.requestCancelOnInvalidate(p: p, k: k))
            add(chance(0.8) ? .invalidate(k: k) : .cancelWithoutInvalidating(k: k))
        case 5:
            // Rule 13: a nested run inside a synchronous `.nowOr` block.
            let x = makeP()
            handler(on: x, ctx: .imm, act: .none)
            switch int(0...2) {
            case 0:
                _ = child(resolvedP(), .always, ctx: .nowOrQ, act: .op(.requestCancel(p: x)))
            case 1:
                let p = newID()
                add(.initOn(p: p, n: newName(), ctx: .nowOrQ, act: .both(.op(.requestCancel(p: x)), .own(.fulfill(1)))))
                addPromise(p, .main)
                resolvers.append(p)
            default:
                _ = child(x, .always, ctx: .imm)
                _ = child(resolvedP(), .always, ctx: .nowOrQ, act: .op(.resolve(r: x, how: how())))
            }
        case 6:
            // Rules 5 and 21: when(first:) with an input already decided.
            let decided = resolvedP(), b = makeP()
            handler(on: b, ctx: .imm, act: .none)
            let w = newID()
            add(.whenFirst(p: w, inputs: chance(0.5) ? [decided, b] : [b, decided], cancelRemaining: chance(0.3)))
            addPromise(w, .main)
            let c = child(b, .map, ctx: .imm)
            dropHandle(b)
            add(.requestCancel(p: c))
        case 7:
            // Rule 20: when(fulfilled:) with failures at once and later, cancelOnFailure.
            var inputs: [Int] = []
            for _ in 0..<int(2...3) {
                if chance(0.3) {
                    inputs.append(resolvedP())
                } else {
                    let p = makeP()
                    handler(on: p, ctx: chance(0.5) ? .imm : ctx(), act: chance(0.5) ? .own(.cancel) : .none)
                    inputs.append(p)
                }
            }
            let w = newID()
            add(.whenAll(p: w, inputs: inputs, cancelOnFailure: chance(0.6)))
            addPromise(w, PType(value: "[Int]", error: "TE"))
            _ = child(w, .always, ctx: .imm)
            for input in inputs where resolvers.contains(input) && chance(0.6) { add(.resolve(r: input, how: how())) }
            if chance(0.4) { add(.requestCancel(p: w)) }
            add(.drain)
        case 8:
            // Rule 22: a timeout racing its receiver and a cancel request.
            let p = makeP()
            handler(on: p, ctx: chance(0.5) ? .imm : ctx(), act: chance(0.6) ? .own(.cancel) : .none)
            let delay = delayValue()
            let t = newID()
            add(.timeout(c: t, parent: p, ctx: delay <= 0 && chance(0.5) ? .imm : timerCtx(), delay: delay))
            addPromise(t, PType(value: "Int", error: "TO<TE>"))
            _ = child(t, .always, ctx: .imm)
            if chance(0.5) { dropHandle(p) }
            switch int(0...2) {
            case 0: add(.requestCancel(p: t))
            case 1: add(.resolve(r: p, how: how()))
            default: add(.advance(by: [1, 2, 5][int(0...2)]))
            }
            if chance(0.5) { add(.advance(by: 2)) }
            add(.drain)
        case 9:
            // Rule 23: the delay of a resolved promise, then a request.
            let p: Int
            if chance(0.5) {
                p = resolvedP()
            } else {
                p = makeP()
                add(.resolve(r: p, how: how()))
            }
            let d = newID()
            add(.delay(c: d, parent: p, ctx: timerCtx(), delay: delayValue()))
            addPromise(d, .main)
            _ = child(d, .always, ctx: .imm)
            if chance(0.5) { add(.drain) }
            add(.requestCancel(p: d))
            if chance(0.5) { add(.advance(by: 2)) }
            add(.drain)
        case 10:
            // Rules 25 and 26: a delayed promise and an operation, through their lives.
            if chance(0.5) {
                let d = newID()
                add(.delayed(d: d, n: newName(), ctx: ctx(), act: handlerAct(keep: true)))
                delayed.append(d)
                resolvers.append(d)
                add(.access(d: d))
                addPromise(d, .main)
                if chance(0.5) { add(.requestCancel(p: d)) }
                add(.drain)
                if chance(0.5) { add(.dropDelayed(d: d)) }
            } else {
                let o = newID()
                add(.operation(o: o, n: newName(), ctx: ctx(), act: handlerAct(keep: true)))
                operations.append(o)
                resolvers.append(o)
                if chance(0.5) { add(.operationPromise(o: o)); addPromise(o, .main) }
                if chance(0.4) { add(.cancelOperation(o: o)) }
                if chance(0.7) { add(.start(o: o)) }
                add(.drain)
                if chance(0.5) { add(.dropOperation(o: o)) }
            }
        case 11:
            // Rule 29: a TokenPromise's children are registered, its grandchildren are not.
            let p = makeP(), x = makeP()
            handler(on: x, ctx: .imm, act: .none)
            let k = pinnedToken()
            let t = newID()
            add(.withToken(t: t, p: p, k: k))
            tokenPromises[t] = .main
            let t2 = newID(), c2 = newID()
            add(.tokenChain(t: t2, c: c2, from: t, kind: chance(0.5) ? .then : .map, n: newName(), ctx: .imm, act: .none))
            types[c2] = .main
            tokenPromises[t2] = .main
            let t3 = newID(), c3 = newID()
            add(.tokenChain(t: t3, c: c3, from: t2, kind: .flatMap(inner: x), n: newName(), ctx: .imm, act: .none))
            types[c3] = .main
            tokenPromises[t3] = .main
            add(.resolve(r: p, how: .fulfill(int(1...9))))
            dropHandle(x)
            add(.invalidate(k: k))
        case 12:
            // Rule 27: a pipe and cancel requests.
            let a = makeP(), b = makeP()
            handler(on: b, ctx: .imm, act: chance(0.5) ? .own(.cancel) : .none)
            add(.resolve(r: a, how: .with(b)))
            if chance(0.5) { dropHandle(b) }
            add(.requestCancel(p: a))
        default:
            // `retry` (rule 5): a cancel request while an attempt runs or starts; the attempt's
            // handler may settle it at once.
            let p = newID(), id = newID()
            types[id] = .main
            resolvers.append(id)
            let cancelsOutput = chance(0.5)
            let attempt = AttemptSpec.pending(id, handler: newName(), act: attemptHandlerAct(), cancelsOutput: cancelsOutput)
            let specs: [AttemptSpec] = cancelsOutput ? [.rejected([1, 2, 4, 5][int(0...3)]), attempt] : [attempt]
            let delay: Double = chance(0.7) ? 0 : 1
            add(.retry(p: p, n: newName(), ctx: delay == 0 ? ctx() : timerCtx(), attempts: int(2...3), delay: delay, specs: specs,
                       holdAttempts: chance(0.3)))
            addPromise(p, .main)
            if !cancelsOutput {
                if chance(0.5) { add(.drain) }
                add(.requestCancel(p: p))
            }
            add(.drain)
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
