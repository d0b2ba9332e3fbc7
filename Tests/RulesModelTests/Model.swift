// The reference model: a single-threaded interpreter of the rules of Rules.md, written from
// the rules (and, where they are silent, from the documented behaviour of the API), with plain
// arrays and counters instead of atomics. It runs a program and writes the same observations
// the library run writes (Observation.swift), which the test compares step by step.
//
// Threads are labels: `T` (the test thread), `q` (the serial test queue, which runs only while
// the program drains it) and `g` (the stand-in for the global queues `when` resolves on). Each
// has its own delivery and cancel stacks (rule 19) and its own `isExecutingNow` (rule 13).

#if TOMORROWLAND_SCHEDULE_POINTS

// MARK: Values

/// A value of a promise: `Int`, `[Int]` or `Obj` (an object, `o<n>`).
enum MValue: Equatable {
    case int(Int)
    case array([Int])
    case object(Int)

    var desc: String {
        switch self {
        case .int(let v): return "\(v)"
        case .array(let vs): return "[\(vs.map(String.init).joined(separator: ","))]"
        case .object(let v): return "o\(v)"
        }
    }

    func bumped(_ k: Int) -> MValue {
        switch self {
        case .int(let v): return .int(v + k)
        case .array(let vs): return .array(vs.map { $0 + k })
        case .object(let v): return .object(v + k)
        }
    }

    static func fromCode(_ code: Int, kind: String) -> MValue {
        kind == "[Int]" ? .array([code]) : kind == "Obj" ? .object(code) : .int(code)
    }

    static func zero(kind: String) -> MValue { kind == "[Int]" ? .array([]) : fromCode(0, kind: kind) }
}

/// An error of a promise: `TE(n)`, or `PromiseTimeoutError` around one.
indirect enum MError: Equatable {
    case te(Int)
    case timedOut
    case rejected(MError)

    var desc: String {
        switch self {
        case .te(let n): return "te\(n)"
        case .timedOut: return "timedOut"
        case .rejected(let e): return "rej(\(e.desc))"
        }
    }

    var code: Int {
        switch self {
        case .te(let n): return n
        case .timedOut: return 77
        case .rejected(let e): return e.code
        }
    }

    func bumped(_ k: Int) -> MError {
        switch self {
        case .te(let n): return .te(n + k)
        case .timedOut: return .timedOut
        case .rejected(let e): return .rejected(e.bumped(k))
        }
    }
}

enum MResult: Equatable {
    case value(MValue)
    case error(MError)
    case cancelled

    var desc: String {
        switch self {
        case .value(let v): return "v(\(v.desc))"
        case .error(let e): return "e(\(e.desc))"
        case .cancelled: return "c"
        }
    }

    var isCancelled: Bool { self == .cancelled }
}

// MARK: Promises and nodes

/// One promise: what the rules say it has.
final class MPromise {
    /// The program's number for it (negative for promises the library makes inside).
    let id: Int
    let type: PType
    var array: Bool { type.array }
    var result: MResult?
    /// Rule 3: a cancel request is pending (while pending), or the promise was cancelled.
    var cancelRequested = false
    // Rule 5.
    var observers = 0
    var cancelledObservers = 0
    /// `Promise` handles (copies share one): the program's, a `TokenPromise`'s, a delayed
    /// promise's or an operation's.
    var handles = 0
    /// No handle is left (or the promise is sealed from the start, rule 8).
    var sealed = false
    var propagated = false
    /// The promise this one is a propagating observer of (rule 5), until it asks or resolves.
    var upstream: MPromise?
    /// `onCancel`: the link counts only once this promise is asked to cancel (rule 7).
    var linkCountsOnlyOnCancel = false
    /// Callbacks in registration order; `nil` once resolved.
    var callbacks: [MNode]? = []
    /// Cancel handlers in registration order, until a request takes them or resolution drops them.
    var handlers: [MHandler] = []
    /// Rule 1: what can still resolve it (its resolver, a pending parent, a pipe, a timer).
    var keepers = 1
    /// Copies of its `Resolver` (they share one keeper).
    var resolverCopies = 0

    init(id: Int, type: PType = .main) {
        self.id = id
        self.type = type
    }

    var isPending: Bool { result == nil }
    var isFulfilledOrRejected: Bool { result != nil && result != .cancelled }
}

/// Something registered on a promise's callback list.
class MNode {
    func fire(_ m: Model, _ parent: MPromise, synchronously: Bool) {}
}

/// A cancel handler (`onRequestCancel`, `propagatingCancellation`'s hook, the library's own).
final class MHandler {
    let ctx: Ctx
    /// Runs the handler; `queued`: it was scheduled (so it is skipped if the promise was
    /// fulfilled or rejected meanwhile, rule 4).
    let run: (Model, _ queued: Bool) -> Void
    /// Releases what the handler holds without running it.
    let drop: (Model) -> Void
    /// The library's own handlers run where the request is made, with no context.
    let inline: Bool

    init(ctx: Ctx, inline: Bool = false, run: @escaping (Model, Bool) -> Void, drop: @escaping (Model) -> Void) {
        self.ctx = ctx
        self.inline = inline
        self.run = run
        self.drop = drop
    }
}

/// A token: its generation and its lists (rule 15).
final class MToken {
    let invalidateOnDeinit: Bool
    var generation = 0
    var promises: [MPromise] = []
    var chained: [(token: MToken, including: Bool)] = []
    /// Copies of the token: the program's and those `TokenPromise`s hold.
    var copies = 1

    init(invalidateOnDeinit: Bool) { self.invalidateOnDeinit = invalidateOnDeinit }
}

/// A model thread: its delivery and cancel stacks (rule 19) and `isExecutingNow` (rule 13).
final class MThread {
    let label: String
    var delivering = false
    var pushedDeliveries: [(MPromise, [MNode])] = []
    var cancelling = false
    var pushedRequests: [(MPromise, [MHandler])] = []
    var executingNow = false
    init(_ label: String) { self.label = label }
}

/// A virtual timer (the library's ContextTimer).
final class MTimer {
    /// The work, until it runs or the timer is cancelled.
    var work: ((Model) -> Void)?
    /// Releases what the work holds (a resolver copy) without running it.
    var release: ((Model) -> Void)?
    /// Cancelled, or its work taken: arming it does nothing.
    var done = false

    func cancel(_ m: Model) {
        done = true
        guard work != nil else { return }
        work = nil
        let release = self.release
        self.release = nil
        release?(m)
    }

    func runWork(_ m: Model) {
        guard let work else { return }
        done = true
        self.work = nil
        let release = self.release
        self.release = nil
        work(m)
        release?(m)
    }
}

/// A delayed promise's storage (rule 25).
final class MDelayed {
    let promise: MPromise
    let name: Int
    let ctx: Ctx
    let act: Act
    var started = false
    var copies = 1
    init(promise: MPromise, name: Int, ctx: Ctx, act: Act) {
        self.promise = promise
        self.name = name
        self.ctx = ctx
        self.act = act
    }
}

/// A `PromiseOperation` (rule 26).
final class MOperation {
    let promise: MPromise
    let name: Int
    let ctx: Ctx
    let act: Act
    enum Phase { case ready, executing, finished }
    var phase = Phase.ready
    var isCancelled = false
    var alive = true
    var isStarted = false
    init(promise: MPromise, name: Int, ctx: Ctx, act: Act) {
        self.promise = promise
        self.name = name
        self.ctx = ctx
        self.act = act
    }

    var state: String {
        "\(phase == .finished ? "finished" : phase == .executing ? "executing" : "ready")\(isCancelled ? ",cancelled" : "")"
    }
}

/// A `TokenPromise`: its promise, its token, and whether its children are registered (rule 29).
struct MTokenPromise {
    let promise: MPromise
    let token: MToken
    let registersChildren: Bool
}

// MARK: The model

final class Model: Runner {
    // The threads.
    let t = MThread("T"), qThread = MThread("q"), gThread = MThread("g")
    private(set) var current: MThread
    /// `q`'s FIFO: work, or a marker (`nil` work).
    private var q: [(marker: Int?, work: ((Model) -> Void)?)] = []
    private var g: [(Model) -> Void] = []

    // The clock.
    private var now = 0.0
    private var timers: [(deadline: Double, seq: Int, fire: (Model) -> Void)] = []
    private var timerSeq = 0

    // The program's entities.
    private var promises: [Int: MPromise] = [:]
    /// The program holds a handle to these promises.
    private var held: Set<Int> = []
    /// The program holds a resolver copy of these promises.
    fileprivate var resolvers: [Int: MPromise] = [:]
    private var tokens: [Int: MToken] = [:]
    private var delayed: [Int: MDelayed] = [:]
    private var operations: [Int: MOperation] = [:]
    private var tokenPromises: [Int: MTokenPromise] = [:]
    /// Operations the program dropped: still observed (`isFinished`) through nothing.
    private var internalID = 0

    // Observations of the current step.
    var observation = Observation()
    /// Watched objects whose release the rules do not time (a value once it is a result).
    var ignored: Set<String> = []

    init() {
        current = t
    }

    // MARK: Running

    func run(_ op: Op) {
        observation = Observation()
        perform(op)
        observation.states = states()
    }

    fileprivate func record(_ event: String) {
        observation.events.append(event)
    }

    /// What user code releases: the tracked object its closure captured.
    fileprivate func released(_ name: String) {
        observation.released.append("\(name)@\(current.label)")
    }

    private func on(_ thread: MThread, _ body: () -> Void) {
        let saved = current
        current = thread
        body()
        current = saved
    }

    private func withExecutingNow(_ flag: Bool, _ body: () -> Void) {
        let saved = current.executingNow
        current.executingNow = flag
        body()
        current.executingNow = saved
    }

    fileprivate var x: String { current.executingNow ? "1" : "0" }

    fileprivate func newInternalID() -> Int {
        internalID -= 1
        return internalID
    }

    // MARK: Scheduling

    private func enqueueQ(_ work: @escaping (Model) -> Void) {
        q.append((nil, work))
    }

    private func enqueueG(_ work: @escaping (Model) -> Void) {
        g.append(work)
    }

    /// Schedules `work` on `ctx`'s queue (every scheduled context is `q`).
    fileprivate func schedule(_ ctx: Ctx, _ work: @escaping (Model) -> Void) {
        enqueueQ(work)
    }

    private func drainQ(upTo marker: Int? = nil) {
        on(qThread) {
            while !q.isEmpty {
                let item = q.removeFirst()
                if let work = item.work { work(self) }
                if let marker, item.marker == marker { return }
            }
        }
    }

    private func drainG() {
        on(gThread) {
            while !g.isEmpty { g.removeFirst()(self) }
        }
    }

    private func drainAll() {
        while !q.isEmpty || !g.isEmpty {
            drainQ()
            drainG()
        }
    }

    private func advance(by dt: Double) {
        now += dt
        while let index = timers.indices.filter({ timers[$0].deadline <= now })
            .min(by: { (timers[$0].deadline, timers[$0].seq) < (timers[$1].deadline, timers[$1].seq) }) {
            let timer = timers.remove(at: index)
            timer.fire(self)
        }
    }

    // MARK: Resolution (rules 1, 2, 19)

    @discardableResult
    func resolve(_ p: MPromise, _ result: MResult) -> Bool {
        guard p.isPending else { return false }
        p.result = result
        p.cancelRequested = result.isCancelled
        // Pending cancel handlers are released; the link upstream is dropped (rules 4, 5).
        let handlers = p.handlers
        p.handlers = []
        for handler in handlers { handler.drop(self) }
        p.upstream = nil
        let list = p.callbacks ?? []
        p.callbacks = nil
        deliver(p, list)
        return true
    }

    /// Rule 19: a resolution made while this thread delivers callbacks does not nest; its
    /// callbacks run right after the current callback returns.
    private func deliver(_ p: MPromise, _ list: [MNode]) {
        guard !list.isEmpty else { return }
        let thread = current
        if thread.delivering {
            thread.pushedDeliveries.append((p, list))
            return
        }
        thread.delivering = true
        let saved = thread.executingNow
        thread.executingNow = false  // rule 13: callbacks fired by resolution see false
        runDeliveries(p, list)
        thread.delivering = false
        thread.executingNow = saved
    }

    private func runDeliveries(_ p: MPromise, _ list: [MNode]) {
        let thread = current
        for node in list {
            node.fire(self, p, synchronously: false)
            let pushed = thread.pushedDeliveries
            thread.pushedDeliveries = []
            for (promise, nodes) in pushed { runDeliveries(promise, nodes) }
        }
    }

    /// Registers a callback node; on a resolved promise it fires at once (rule 11).
    private func register(_ node: MNode, on p: MPromise) {
        if p.callbacks != nil {
            p.callbacks!.append(node)
        } else {
            node.fire(self, p, synchronously: true)
        }
    }

    /// Rule 1: something that could resolve `p` is gone.
    func releaseKeeper(_ p: MPromise) {
        p.keepers -= 1
        if p.keepers == 0, p.isPending { resolve(p, .cancelled) }
    }

    func retainResolver(_ p: MPromise) { p.resolverCopies += 1 }

    func releaseResolver(_ p: MPromise) {
        p.resolverCopies -= 1
        if p.resolverCopies == 0 { releaseKeeper(p) }
    }

    // MARK: Cancellation (rules 3, 4, 5, 7, 19)

    func requestCancel(_ p: MPromise) {
        guard p.isPending, !p.cancelRequested else { return }
        p.cancelRequested = true
        let handlers = p.handlers
        p.handlers = []
        let thread = current
        if thread.cancelling {
            thread.pushedRequests.append((p, handlers))
            return
        }
        thread.cancelling = true
        runRequest(p, handlers)
        thread.cancelling = false
    }

    /// The handlers in registration order, each followed by the requests it made (rule 19);
    /// then the request is passed upstream (rule 5).
    private func runRequest(_ p: MPromise, _ handlers: [MHandler]) {
        let thread = current
        for handler in handlers {
            fire(handler, of: p, synchronously: false)
            let pushed = thread.pushedRequests
            thread.pushedRequests = []
            for (promise, more) in pushed { runRequest(promise, more) }
        }
        if let up = notifyUpstream(p), up.isPending, !up.cancelRequested {
            up.cancelRequested = true
            let more = up.handlers
            up.handlers = []
            runRequest(up, more)
        }
    }

    /// `p` was asked to cancel: as an observer of its upstream, it has requested (rule 5).
    private func notifyUpstream(_ p: MPromise) -> MPromise? {
        guard let up = p.upstream else { return nil }
        p.upstream = nil
        if p.linkCountsOnlyOnCancel { up.observers += 1 }
        up.cancelledObservers += 1
        return propagates(up) ? up : nil
    }

    /// Rule 5: every observer asked and no handle is left.
    private func propagates(_ p: MPromise) -> Bool {
        guard p.isPending, !p.propagated, p.sealed, p.observers > 0, p.cancelledObservers >= p.observers else { return false }
        p.propagated = true
        return true
    }

    private func observerRequestedCancel(_ up: MPromise) {
        up.cancelledObservers += 1
        if propagates(up) { requestCancel(up) }
    }

    /// Makes `child` a propagating observer of `up` (rules 5, 7, 27).
    private func link(_ child: MPromise, to up: MPromise, onlyOnCancel: Bool = false) {
        if onlyOnCancel { child.linkCountsOnlyOnCancel = true } else { up.observers += 1 }
        child.upstream = up
        if !child.isPending {
            child.upstream = nil
        } else if child.cancelRequested, let next = notifyUpstream(child) {
            requestCancel(next)
        }
    }

    private func addHandle(_ p: MPromise) {
        p.handles += 1
    }

    /// The last handle is gone: propagation may go on (rule 5).
    private func dropHandle(_ p: MPromise) {
        p.handles -= 1
        guard p.handles == 0, p.isPending else { return }
        p.sealed = true
        if propagates(p) { requestCancel(p) }
    }

    /// Registers a cancel handler: run at once after a request or a cancellation, dropped
    /// after a fulfilment or rejection (rule 4).
    private func registerHandler(_ handler: MHandler, on p: MPromise) {
        if p.isFulfilledOrRejected {
            handler.drop(self)
        } else if p.cancelRequested {
            fire(handler, of: p, synchronously: true)
        } else {
            p.handlers.append(handler)
        }
    }

    private func fire(_ handler: MHandler, of p: MPromise, synchronously: Bool) {
        if handler.inline {
            handler.run(self, false)
            return
        }
        switch handler.ctx {
        case .imm:
            if synchronously { handler.run(self, false) } else { withExecutingNow(false) { handler.run(self, false) } }
        case .nowOrQ where synchronously:
            withExecutingNow(true) { handler.run(self, false) }
        case .nowOrQ, .q:
            schedule(handler.ctx) { m in m.on(m.qThread) { handler.run(m, true) } }
        }
    }

    // MARK: User code

    /// Does what user code does. `own`: its own resolver, if any.
    private func act(_ action: Act, own: MPromise?) {
        switch action {
        case .none: break
        case .own(let how): if let own { resolve(own, how) }
        case .keepOwn:
            if let own, resolvers[own.id] == nil {
                resolvers[own.id] = own
                retainResolver(own)
            }
        case .op(let op): perform(op)
        case .both(let a, let b):
            act(a, own: own)
            act(b, own: own)
        }
    }

    private func resolve(_ p: MPromise, _ how: How) {
        switch how {
        case .fulfill(let v): resolve(p, .value(.int(v)))
        case .reject(let e): resolve(p, .error(.te(e)))
        case .cancel: resolve(p, .cancelled)
        case .with(let id):
            guard held.contains(id), let inner = promises[id], inner.type == .main else { return }
            if let result = inner.result { resolve(p, result) } else { pipe(p, from: inner) }
        }
    }

    /// Rule 27: `target` adopts `inner`'s result with no hop, as one of its observers.
    private func pipe(_ target: MPromise, from inner: MPromise) {
        guard inner !== target, target.isPending else { return }
        target.keepers += 1
        link(target, to: inner)
        register(PipeNode(target: target), on: inner)
    }

    private final class PipeNode: MNode {
        let target: MPromise
        init(target: MPromise) { self.target = target }
        override func fire(_ m: Model, _ parent: MPromise, synchronously: Bool) {
            m.resolve(target, parent.result!)
            m.releaseKeeper(target)
        }
    }

    // MARK: Operators

    /// What a callback child does once its callback ran (or was passed by).
    enum Step {
        case resolve(MResult)
        /// `sealAfter`: the only handle to `inner` was the callback's own, gone after the adoption.
        case adopt(MPromise, sealAfter: Bool = false)
    }

    /// A child made with a callback (rules 11–14, 18): which results invoke it, where it runs,
    /// its token, and what it makes of the parent's result.
    final class ChildNode: MNode {
        let child: MPromise
        let ctx: Ctx
        let token: MToken?
        let generation: Int
        let triggers: (MResult) -> Bool
        /// observer: an invalidated token passes the result on; transformer: cancels (rule 14).
        let observer: Bool
        /// The callback: runs user code (for an invoked result) and says what the child does.
        let step: (Model, MResult, _ invoked: Bool) -> Step
        /// The tracked name the callback's closure releases, if any.
        let tracked: String?

        init(child: MPromise, ctx: Ctx, token: MToken?, observer: Bool, tracked: String?,
             triggers: @escaping (MResult) -> Bool, step: @escaping (Model, MResult, Bool) -> Step) {
            self.child = child
            self.ctx = ctx
            self.token = token
            generation = token?.generation ?? 0
            self.observer = observer
            self.tracked = tracked
            self.triggers = triggers
            self.step = step
        }

        override func fire(_ m: Model, _ parent: MPromise, synchronously: Bool) {
            let result = parent.result!
            guard triggers(result) else {
                // Not invoked: passed through on the resolving thread, the callback released there.
                let step = self.step(m, result, false)
                m.releaseTracked(tracked)
                finish(m, step)
                return
            }
            switch ctx {
            case .imm:
                invoke(m, result)
            case .nowOrQ where synchronously:
                m.withExecutingNow(true) { invoke(m, result) }
            case .nowOrQ, .q:
                m.schedule(ctx) { m in m.on(m.qThread) { self.invoke(m, result) } }
            }
        }

        private func invoke(_ m: Model, _ result: MResult) {
            if let token, token.generation != generation {
                m.releaseTracked(tracked)
                finish(m, .resolve(observer ? result : .cancelled))
                return
            }
            let step = self.step(m, result, true)
            m.releaseTracked(tracked)
            finish(m, step)
        }

        private func finish(_ m: Model, _ step: Step) {
            switch step {
            case .resolve(let result): m.resolve(child, result)
            case .adopt(let inner, _): m.pipe(child, from: inner)
            }
            m.releaseKeeper(child)
            if case .adopt(let inner, true) = step { m.sealIfUnheld(inner) }
        }
    }

    fileprivate func releaseTracked(_ name: String?) {
        if let name { released(name) }
    }

    /// Registers `node` for `child` on `parent` with its cancel link (rules 5–7).
    fileprivate func registerChild(_ node: MNode, child: MPromise, on parent: MPromise, link kind: LinkKind) {
        if parent.isPending { apply(kind, child: child, parent: parent) }
        register(node, on: parent)
    }

    enum LinkKind { case propagating, onlyWhenCancelled, none, blocking }

    private func apply(_ kind: LinkKind, child: MPromise, parent: MPromise) {
        switch kind {
        case .propagating: link(child, to: parent)
        case .onlyWhenCancelled: link(child, to: parent, onlyOnCancel: true)
        case .blocking: parent.observers += 1
        case .none: break
        }
    }

    fileprivate func newPromise(_ id: Int, _ type: PType, visible: Bool = true) -> MPromise {
        let p = MPromise(id: id, type: type)
        if visible { promises[id] = p }
        return p
    }

    /// The handle the program keeps to a promise the operation made.
    fileprivate func hold(_ p: MPromise) {
        held.insert(p.id)
        addHandle(p)
    }

    /// A child with a callback: `kind` on `parent`.
    private func chain(_ c: Int, _ parent: MPromise, _ kind: ChainKind, n: Int, ctx: Ctx, token: MToken?, act action: Act) -> MPromise? {
        let trackedName = "cb\(n)"
        func run(_ m: Model, _ arg: String) {
            m.record("cb\(n)@\(m.current.label) \(arg) x\(m.x)")
            m.act(action, own: nil)
            m.record("cb\(n)> x\(m.x)")
        }
        let triggers: (MResult) -> Bool
        let observer: Bool
        var linkKind = LinkKind.propagating
        let step: (Model, MResult, Bool) -> Step
        switch kind {
        case .then, .catch:
            let onValue = kind == .then
            triggers = { if case .value = $0 { return onValue }; if case .error = $0 { return !onValue }; return false }
            observer = true
            step = { m, result, invoked in
                if invoked {
                    switch result {
                    case .value(let v): run(m, v.desc)
                    case .error(let e): run(m, e.desc)
                    case .cancelled: break
                    }
                }
                return .resolve(result)
            }
        case .always, .tapOn:
            triggers = { _ in true }
            observer = true
            if kind == .tapOn { linkKind = .none }
            step = { m, result, invoked in
                if invoked { run(m, result.desc) }
                return .resolve(result)
            }
        case .onCancel:
            triggers = { $0.isCancelled }
            observer = true
            linkKind = .onlyWhenCancelled
            step = { m, result, invoked in
                if invoked { run(m, "") }
                return .resolve(result)
            }
        case .map:
            triggers = { if case .value = $0 { return true }; return false }
            observer = false
            step = { m, result, invoked in
                guard invoked, case .value(let v) = result else { return .resolve(result) }
                run(m, v.desc)
                return .resolve(.value(v.bumped(n)))
            }
        case .recover:
            triggers = { if case .error = $0 { return true }; return false }
            observer = false
            step = { m, result, invoked in
                guard invoked, case .error(let e) = result else { return .resolve(result) }
                run(m, e.desc)
                return .resolve(.value(.fromCode(e.code, kind: parent.type.value)))
            }
        case .mapError:
            triggers = { if case .error = $0 { return true }; return false }
            observer = false
            step = { m, result, invoked in
                guard invoked, case .error(let e) = result else { return .resolve(result) }
                run(m, e.desc)
                return .resolve(.error(e.bumped(n)))
            }
        case .mapResult:
            triggers = { _ in true }
            observer = false
            step = { m, result, invoked in
                run(m, result.desc)
                switch result {
                case .value(let v): return .resolve(.value(v.bumped(n)))
                case .error(let e): return .resolve(.error(e.bumped(n)))
                case .cancelled: return .resolve(.value(.zero(kind: parent.type.value)))
                }
            }
        case .flatMap(let inner):
            triggers = { if case .value = $0 { return true }; return false }
            observer = false
            step = { m, result, invoked in
                guard invoked, case .value(let v) = result else { return .resolve(result) }
                run(m, v.desc)
                // The program's promise `inner` if it holds a handle to it, else a fulfilled one.
                if m.held.contains(inner), let p = m.promises[inner], p.type == parent.type { return .adopt(p) }
                let fulfilled = MPromise(id: m.newInternalID(), type: parent.type)
                fulfilled.result = .value(v.bumped(n))
                fulfilled.callbacks = nil
                return .adopt(fulfilled)
            }
        }
        let type = kind == .recover ? PType(value: parent.type.value, error: "NoError") : parent.type
        let child = kind == .tapOn ? MPromise(id: newInternalID(), type: type) : newPromise(c, type)
        let node = ChildNode(child: child, ctx: ctx, token: token, observer: observer, tracked: trackedName,
                             triggers: triggers, step: step)
        registerChild(node, child: child, on: parent, link: linkKind)
        return kind == .tapOn ? nil : child
    }

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    fileprivate func perform(_ op: Op) {
        switch op {
        case .make(let id):
            let p = newPromise(id, .main)
            hold(p)
            resolvers[id] = p
            retainResolver(p)
        case .resolved(let id, let spec):
            let p = newPromise(id, .main)
            p.result = result(spec)
            p.callbacks = nil
            p.keepers = 0
            held.insert(id)  // a resolved promise's handle has no seal: nothing to count
        case .initOn(let id, let n, let ctx, let action):
            let p = newPromise(id, .main)
            retainResolver(p)  // the handler's resolver
            let handler: (Model) -> Void = { m in
                m.record("i\(n)@\(m.current.label) x\(m.x)")
                m.act(action, own: p)
                m.record("i\(n)> x\(m.x)")
            }
            switch ctx {
            case .imm:
                handler(self)
                released("i\(n)")
                releaseResolver(p)
            case .nowOrQ:
                withExecutingNow(true) { handler(self) }
                released("i\(n)")
                releaseResolver(p)
            case .q:
                schedule(.q) { m in
                    handler(m)
                    m.released("i\(n)")
                    m.releaseResolver(p)
                }
            }
            hold(p)
        case .chain(let c, let parentID, let kind, let n, let ctx, let tokenID, let action):
            guard let parent = promises[parentID], held.contains(parentID) else { return }
            let token = tokenID.flatMap { tokens[$0] }
            if tokenID != nil, token == nil { return }
            if let child = chain(c, parent, kind, n: n, ctx: ctx, token: token, act: action) { hold(child) }
        case .pass(let c, let parentID, let kind):
            guard let parent = promises[parentID], held.contains(parentID) else { return }
            let child = newPromise(c, parent.type)
            apply(kind == .tap ? .none : kind == .makeChild ? .propagating : .blocking, child: child, parent: parent)
            register(PipeNode(target: child), on: parent)
            hold(child)
        case .propagating(let c, let parentID, let n, let ctx, let action):
            guard let parent = promises[parentID], held.contains(parentID) else { return }
            let child = newPromise(c, parent.type)
            apply(.blocking, child: child, parent: parent)
            child.sealed = true  // rule 8: handles never hold the request back
            var hook: String? = "pc\(n)"
            let handler = MHandler(ctx: ctx, run: { m, queued in
                if queued, child.isFulfilledOrRejected {
                    m.releaseTracked(hook); hook = nil
                    return
                }
                m.record("pc\(n)@\(m.current.label) \(child.result?.desc ?? "-") x\(m.x)")
                m.act(action, own: nil)
                m.record("pc\(n)> x\(m.x)")
                m.observerRequestedCancel(parent)
                m.releaseTracked(hook); hook = nil
            }, drop: { m in m.releaseTracked(hook); hook = nil })
            registerHandler(handler, on: child)
            register(PipeNode(target: child), on: parent)
            hold(child)
        case .onRequestCancel(let r, let n, let ctx, let action):
            guard let p = resolvers[r] else { return }
            retainResolver(p)  // the handler's node holds a copy
            var done = false
            let handler = MHandler(ctx: ctx, run: { m, queued in
                guard !done else { return }
                done = true
                if !(queued && p.isFulfilledOrRejected) {
                    m.record("h\(n)@\(m.current.label) x\(m.x)")
                    m.act(action, own: p)
                    m.record("h\(n)> x\(m.x)")
                }
                m.releaseResolver(p)
                m.released("h\(n)")
            }, drop: { m in
                guard !done else { return }
                done = true
                m.released("h\(n)")
                m.releaseResolver(p)
            })
            registerHandler(handler, on: p)
        case .resolve(let r, let how):
            guard let p = resolvers[r] else { return }
            resolve(p, how)
        case .requestCancel(let id):
            guard held.contains(id), let p = promises[id] else { return }
            requestCancel(p)
        case .readRequested(let r):
            guard let p = resolvers[r] else { return }
            record("r\(r).hasRequestedCancel \(p.cancelRequested)")
        case .dropHandle(let id):
            guard held.remove(id) != nil, let p = promises[id], p.handles > 0 else { return }
            dropHandle(p)
        case .dropResolver(let r):
            guard let p = resolvers.removeValue(forKey: r) else { return }
            releaseResolver(p)
        case .newToken(let k, let onDeinit):
            tokens[k] = MToken(invalidateOnDeinit: onDeinit)
        case .invalidate(let k):
            guard let token = tokens[k] else { return }
            walk(token, invalidating: true)
        case .cancelWithoutInvalidating(let k):
            guard let token = tokens[k] else { return }
            walk(token, invalidating: false)
        case .requestCancelOnInvalidate(let id, let k):
            guard held.contains(id), let p = promises[id], let token = tokens[k] else { return }
            token.promises.append(p)
        case .dropToken(let k):
            guard let token = tokens.removeValue(forKey: k) else { return }
            releaseToken(token)
        case .chainTokens(let k, let from, let including):
            guard let token = tokens[k], let source = tokens[from], token !== source else { return }
            source.chained.append((token, including))
        case .drain:
            drainAll()
        case .mark(let marker):
            q.append((marker, nil))
        case .drainTo(let marker):
            guard q.contains(where: { $0.marker == marker }) else { return }
            drainQ(upTo: marker)
        case .whenAll(let id, let inputIDs, let cancelOnFailure):
            let inputs = inputIDs.compactMap { held.contains($0) ? promises[$0] : nil }
            guard inputs.count == inputIDs.count, inputs.allSatisfy({ $0.type == .main }) else { return }
            hold(whenAll(id, inputs, cancelOnFailure: cancelOnFailure))
        case .whenFirst(let id, let inputIDs, let cancelRemaining):
            let inputs = inputIDs.compactMap { held.contains($0) ? promises[$0] : nil }
            guard inputs.count == inputIDs.count, inputs.allSatisfy({ $0.type == .main }) else { return }
            hold(whenFirst(id, inputs, cancelRemaining: cancelRemaining))
        case .timeout(let c, let parentID, let ctx, let delay):
            guard let parent = promises[parentID], held.contains(parentID) else { return }
            hold(timeout(c, parent, ctx: ctx, delay: delay))
        case .delay(let c, let parentID, let ctx, let delay):
            guard let parent = promises[parentID], held.contains(parentID) else { return }
            hold(self.delay(c, parent, ctx: ctx, delay: delay))
        case .after(let id, _, let spec, let delay, let object):
            let p = newPromise(id, object ? PType(value: "Obj", error: "TE") : .main)
            let timer = MTimer()
            cancelsOnRequest(p, timer)
            retainResolver(p)  // the timer's work
            var result = self.result(spec)
            if object, case .value(.int(let v)) = result { result = .value(.object(v)) }
            var watched = false
            if object, case .value = result { watched = true }
            arm(timer, after: delay, work: { m in
                // From now on the value is in the promise's result, kept as long as its box is.
                if watched { m.ignored.insert("v\(id)") }
                m.resolve(p, result)
            }, release: { m in
                m.releaseResolver(p)
                // Rule 23: a cancelled timer drops the result it holds at once.
                if watched, !m.ignored.contains("v\(id)") { m.released("v\(id)") }
            })
            hold(p)
        case .advance(let by):
            advance(by: by)
        case .delayed(let d, let n, let ctx, let action):
            let p = newPromise(d, .main, visible: false)
            // The storage keeps a handle to the promise (not a rule: the library's choice, which
            // holds rule 5's propagation back while the delayed promise lives).
            addHandle(p)
            retainResolver(p)  // the storage's
            delayed[d] = MDelayed(promise: p, name: n, ctx: ctx, act: action)
        case .access(let d):
            guard let storage = delayed[d] else { return }
            start(storage)
            promises[d] = storage.promise
            if !held.contains(d) { hold(storage.promise) }
        case .dropDelayed(let d):
            guard let storage = delayed.removeValue(forKey: d) else { return }
            if !storage.started {
                released("d\(storage.name)")
                releaseResolver(storage.promise)
            }
            dropHandle(storage.promise)
        case .operation(let o, let n, let ctx, let action):
            let p = newPromise(o, .main)
            // The operation keeps a handle to its promise (as for a delayed promise).
            addHandle(p)
            retainResolver(p)  // the operation's
            let operation = MOperation(promise: p, name: n, ctx: ctx, act: action)
            operations[o] = operation
            // Registered first: the operation finishes before the promise's observers run (rule 26).
            register(ClosureNode { m, _, _ in if operation.alive { operation.phase = .finished } }, on: p)
            registerHandler(MHandler(ctx: .imm, inline: true, run: { m, _ in
                if operation.alive { operation.isCancelled = true; m.requestCancel(p) }
            }, drop: { _ in }), on: p)
        case .start(let o):
            guard let operation = operations[o] else { return }
            start(operation)
        case .cancelOperation(let o):
            guard let operation = operations[o] else { return }
            // `Operation.cancel()` does nothing once the operation finished.
            if operation.phase != .finished { operation.isCancelled = true }
            requestCancel(operation.promise)
        case .operationPromise(let o):
            guard let operation = operations[o], !held.contains(o) else { return }
            hold(operation.promise)
        case .dropOperation(let o):
            guard let operation = operations.removeValue(forKey: o) else { return }
            operation.alive = false
            dropHandle(operation.promise)
            if !operation.isStarted {
                released("o\(operation.name)")
                releaseResolver(operation.promise)
            }
        case .withToken(let t, let id, let k):
            guard let p = promises[id], held.contains(id), let token = tokens[k] else { return }
            addHandle(p)
            token.copies += 1
            tokenPromises[t] = MTokenPromise(promise: p, token: token, registersChildren: true)
        case .tokenChain(let t, let c, let from, let kind, let n, let ctx, let action):
            guard let wrapper = tokenPromises[from] else { return }
            guard let child = chain(c, wrapper.promise, kind, n: n, ctx: ctx, token: wrapper.token, act: action) else { return }
            if wrapper.registersChildren { wrapper.token.promises.append(child) }
            addHandle(child)
            wrapper.token.copies += 1
            tokenPromises[t] = MTokenPromise(promise: child, token: wrapper.token, registersChildren: false)
        case .tokenPass(let t, let c, let from, let kind):
            guard let wrapper = tokenPromises[from] else { return }
            let parent = wrapper.promise
            let child = newPromise(c, parent.type)
            apply(kind == .tap ? .none : .blocking, child: child, parent: parent)
            register(PipeNode(target: child), on: parent)
            addHandle(child)
            wrapper.token.copies += 1
            tokenPromises[t] = MTokenPromise(promise: child, token: wrapper.token, registersChildren: false)
        case .dropTokenPromise(let t):
            guard let wrapper = tokenPromises.removeValue(forKey: t) else { return }
            dropHandle(wrapper.promise)
            releaseToken(wrapper.token)
        case .retry(let id, let n, let ctx, let attempts, let delay, let specs, let hold):
            self.hold(retry(id, n: n, ctx: ctx, attempts: attempts, delay: delay, specs: specs, holdAttempts: hold))
        }
    }

    private func result(_ spec: RSpec) -> MResult {
        switch spec {
        case .value(let v): return .value(.int(v))
        case .error(let e): return .error(.te(e))
        case .cancelled: return .cancelled
        }
    }

    private final class ClosureNode: MNode {
        let body: (Model, MPromise, Bool) -> Void
        init(_ body: @escaping (Model, MPromise, Bool) -> Void) { self.body = body }
        override func fire(_ m: Model, _ parent: MPromise, synchronously: Bool) { body(m, parent, synchronously) }
    }

    // MARK: Tokens (rules 14–16)

    /// Rule 15: bumps the generation (invalidating), asks the registered promises to cancel and
    /// clears the list, then goes on to the chained tokens. The rules leave the order of a chain
    /// open: the model walks it as the library does, depth first, in the order the chains were made,
    /// each token once.
    private func walk(_ token: MToken, invalidating: Bool) {
        var stack = [token]
        var visited: [ObjectIdentifier] = []
        while let box = stack.popLast() {
            guard !visited.contains(ObjectIdentifier(box)) else { continue }
            visited.append(ObjectIdentifier(box))
            if invalidating { box.generation += 1 }
            let promises = box.promises
            box.promises = []
            for p in promises { requestCancel(p) }
            for (next, including) in box.chained.reversed() where invalidating || including { stack.append(next) }
        }
    }

    private func releaseToken(_ token: MToken) {
        token.copies -= 1
        if token.copies == 0, token.invalidateOnDeinit { walk(token, invalidating: true) }
    }

    // MARK: Timers (rules 22–24)

    /// Arms a timer on `q`: after `delay` on the virtual clock (never for NaN or infinity), or
    /// dispatched at once for a delay ≤ 0.
    fileprivate func arm(_ timer: MTimer, after delay: Double, work: @escaping (Model) -> Void, release: @escaping (Model) -> Void) {
        guard !timer.done else {
            release(self)
            return
        }
        timer.work = work
        timer.release = release
        if !(delay > 0) && !delay.isNaN {
            schedule(.q) { m in m.on(m.qThread) { timer.runWork(m) } }
            return
        }
        guard delay.isFinite else { return }
        timerSeq += 1
        timers.append((now + delay, timerSeq, { m in m.schedule(.q) { m in m.on(m.qThread) { timer.runWork(m) } } }))
    }

    /// `init(on:with:after:)` and a delayed cancellation: a request cancels at once (rule 23).
    private func cancelsOnRequest(_ p: MPromise, _ timer: MTimer) {
        retainResolver(p)
        var done = false
        registerHandler(MHandler(ctx: .imm, run: { m, _ in
            guard !done else { return }
            done = true
            timer.cancel(m)
            m.resolve(p, .cancelled)
            m.releaseResolver(p)
        }, drop: { m in
            guard !done else { return }
            done = true
            m.releaseResolver(p)
        }), on: p)
    }

    private func delay(_ c: Int, _ parent: MPromise, ctx: Ctx, delay: Double) -> MPromise {
        let child = newPromise(c, parent.type)
        let node = ChildNode(child: child, ctx: .imm, token: nil, observer: false, tracked: nil, triggers: { _ in true }) { m, result, _ in
            let delayed = MPromise(id: m.newInternalID(), type: parent.type)
            let timer = MTimer()
            if result.isCancelled { m.cancelsOnRequest(delayed, timer) }
            m.retainResolver(delayed)
            m.arm(timer, after: delay, work: { m in m.resolve(delayed, result) }, release: { m in m.releaseResolver(delayed) })
            // The handle `delay` made for the delayed promise is gone once it is adopted.
            return .adopt(delayed, sealAfter: true)
        }
        registerChild(node, child: child, on: parent, link: .propagating)
        return child
    }

    private func timeout(_ c: Int, _ parent: MPromise, ctx: Ctx, delay: Double) -> MPromise {
        let timer = MTimer()
        // Disarms the timer where the parent resolves, before the output's hop (rule 22).
        register(ClosureNode { m, _, _ in timer.cancel(m) }, on: parent)
        let output = newPromise(c, PType(value: parent.type.value, error: "TO<\(parent.type.error)>"))
        let node = ChildNode(child: output, ctx: ctx, token: nil, observer: false, tracked: nil, triggers: { _ in true }) { _, result, _ in
            switch result {
            case .value: return .resolve(result)
            case .error(let e): return .resolve(.error(.rejected(e)))
            case .cancelled: return .resolve(.cancelled)
            }
        }
        registerChild(node, child: output, on: parent, link: .propagating)
        guard output.isPending else { return output }
        let timesOut: (Model) -> Void = { m in
            // Gives up its observer slot on the parent (rule 22).
            let up = output.upstream
            output.upstream = nil
            if m.resolve(output, .error(.timedOut)), let up { m.observerRequestedCancel(up) }
        }
        if !(delay > 0) && !delay.isNaN && ctx != .q {
            timesOut(self)
            return output
        }
        arm(timer, after: delay, work: timesOut, release: { _ in })
        return output
    }

    // MARK: when (rules 20, 21)

    private func whenAll(_ id: Int, _ inputs: [MPromise], cancelOnFailure: Bool) -> MPromise {
        let output = newPromise(id, PType(value: "[Int]", error: "TE"))
        guard !inputs.isEmpty else {
            output.result = .value(.array([]))
            output.callbacks = nil
            return output
        }
        retainResolver(output)  // the aggregate's, for good
        var values = [Int?](repeating: nil, count: inputs.count)
        var remaining = inputs.count + 1
        var decided = false
        let assemble: (Model) -> Void = { m in m.resolve(output, .value(.array(values.map { $0! }))) }
        let decide: (Model, MResult) -> Void = { m, result in
            if cancelOnFailure { for input in inputs { m.requestCancel(input) } }
            m.resolve(output, result)
        }
        var observers: [MPromise] = []
        for (index, input) in inputs.enumerated() {
            if !output.isPending { break }
            let observer = MPromise(id: newInternalID())
            observers.append(observer)
            link(observer, to: input)
            register(ClosureNode { m, input, synchronously in
                switch input.result! {
                case .value(let v):
                    if case .int(let int) = v { values[index] = int }
                    remaining -= 1
                    if remaining == 0 { m.enqueueG(assemble) }
                case let failure:
                    if !decided {
                        decided = true
                        if synchronously { decide(m, failure) } else { m.enqueueG { m in decide(m, failure) } }
                    }
                }
                observer.result = .value(.int(0))  // done observing: its link is dropped
                observer.upstream = nil
            }, on: input)
        }
        remaining -= 1
        if remaining == 0 { assemble(self) }
        if output.isPending {
            registerHandler(MHandler(ctx: .imm, run: { m, _ in
                for observer in observers { m.requestCancel(observer) }
            }, drop: { _ in }), on: output)
        }
        return output
    }

    private func whenFirst(_ id: Int, _ inputs: [MPromise], cancelRemaining: Bool) -> MPromise {
        let output = newPromise(id, .main)
        guard !inputs.isEmpty else {
            output.result = .cancelled
            output.callbacks = nil
            return output
        }
        retainResolver(output)  // the race's, for good
        var cancellations = inputs.count + 1
        var observers: [MPromise] = []
        for input in inputs {
            if !output.isPending { break }
            let observer = MPromise(id: newInternalID())
            observers.append(observer)
            let node = ChildNode(child: observer, ctx: .imm, token: nil, observer: false, tracked: nil, triggers: { _ in true }) { m, result, _ in
                if result.isCancelled {
                    cancellations -= 1
                    if cancellations == 0 { m.enqueueG { m in m.resolve(output, .cancelled) } }
                } else if m.resolve(output, result), cancelRemaining {
                    for input in inputs { m.requestCancel(input) }
                }
                return .resolve(.value(.int(0)))
            }
            registerChild(node, child: observer, on: input, link: .propagating)
        }
        cancellations -= 1
        if cancellations == 0 { resolve(output, .cancelled) }
        if output.isPending {
            registerHandler(MHandler(ctx: .imm, run: { m, _ in
                for observer in observers { m.requestCancel(observer) }
            }, drop: { _ in }), on: output)
        }
        return output
    }

    // MARK: DelayedPromise and PromiseOperation (rules 25, 26)

    private func start(_ storage: MDelayed) {
        guard !storage.started else { return }
        storage.started = true
        let p = storage.promise, n = storage.name, action = storage.act
        let work: (Model) -> Void = { m in
            m.record("d\(n)@\(m.current.label) x\(m.x)")
            m.act(action, own: p)
            m.record("d\(n)> x\(m.x)")
        }
        if storage.ctx == .imm {
            work(self)
            released("d\(n)")
            releaseResolver(p)
        } else {
            schedule(.q) { m in
                m.on(m.qThread) {
                    work(m)
                    m.released("d\(n)")
                    m.releaseResolver(p)
                }
            }
        }
    }

    private func start(_ operation: MOperation) {
        guard operation.phase == .ready, !operation.isStarted else { return }
        operation.isStarted = true
        operation.phase = .executing
        let p = operation.promise, n = operation.name, action = operation.act
        if operation.isCancelled {
            resolve(p, .cancelled)
            releaseResolver(p)
            released("o\(n)")
            return
        }
        let work: (Model) -> Void = { m in
            m.record("o\(n)@\(m.current.label) x\(m.x)")
            m.act(action, own: p)
            m.record("o\(n)> x\(m.x)")
        }
        if operation.ctx == .imm {
            work(self)
            releaseResolver(p)
            released("o\(n)")
        } else {
            schedule(.q) { m in
                m.on(m.qThread) {
                    work(m)
                    m.releaseResolver(p)
                    m.released("o\(n)")
                }
            }
        }
    }

    // MARK: retry

    /// A `retry`'s driver: attempts never overlap; a cancel request stops it at once.
    private final class RetryDriver {
        let output: MPromise
        let n: Int
        let ctx: Ctx
        let delay: Double
        let specs: [AttemptSpec]
        let holdAttempts: Bool
        var left: Int
        var started = 0
        var resolvedCount = 0
        var stopped = false
        var inFlight: MPromise?
        var timer: MTimer?
        var pendingRuns = 0

        init(output: MPromise, n: Int, ctx: Ctx, attempts: Int, delay: Double, specs: [AttemptSpec], holdAttempts: Bool) {
            self.output = output
            self.n = n
            self.ctx = ctx
            left = max(attempts, 1)
            self.delay = delay
            self.specs = specs
            self.holdAttempts = holdAttempts
        }

        /// Runs attempts one after the other, never nested (a trampoline).
        func requestAttempt(_ m: Model) {
            pendingRuns += 1
            guard pendingRuns == 1 else { return }
            repeat {
                runAttempt(m)
                pendingRuns -= 1
            } while pendingRuns != 0
        }

        func stop(_ m: Model) {
            let wasRunning = !stopped
            stopped = true
            m.resolve(output, .cancelled)
            guard wasRunning else { return }
            timer?.cancel(m)
            if let inFlight { m.requestCancel(inFlight) }
        }

        private func runAttempt(_ m: Model) {
            guard !stopped else { return }
            left -= 1
            started += 1
            let number = started
            m.record("rb\(n)#\(number)@\(m.current.label) x\(m.x)")
            let attempt: MPromise
            let spec = number <= specs.count ? specs[number - 1] : .rejected(99)
            switch spec {
            case .pending(let pid, let handler, let act, let cancelsOutput):
                if cancelsOutput { m.perform(.requestCancel(p: output.id)) }
                attempt = m.newPromise(pid, .main)
                m.resolvers[pid] = attempt
                m.retainResolver(attempt)
                if let handler { m.perform(.onRequestCancel(r: pid, n: handler, ctx: .imm, act: act)) }
                if holdAttempts { m.hold(attempt) }
            case .fulfilled(let v):
                attempt = MPromise(id: m.newInternalID())
                attempt.result = .value(.int(v))
                attempt.callbacks = nil
            case .rejected(let e):
                attempt = MPromise(id: m.newInternalID())
                attempt.result = .error(.te(e))
                attempt.callbacks = nil
            }
            // The attempt's observer: errors go to `ctx` (`while` runs there), the rest pass through.
            let observer = MPromise(id: m.newInternalID())
            let node = ChildNode(child: observer, ctx: ctx, token: nil, observer: false, tracked: nil, triggers: {
                if case .error = $0 { return true }
                return false
            }) { [self] m, result, _ in
                attemptResolved(m, result, number: number)
                return .resolve(.value(.int(0)))
            }
            m.registerChild(node, child: observer, on: attempt, link: .propagating)
            if !stopped, resolvedCount < number { inFlight = observer }
            if stopped { m.requestCancel(observer) }
            // The handle the body returned is gone once the attempt started.
            if case .pending = spec, !holdAttempts { m.sealIfUnheld(attempt) }
        }

        private func attemptResolved(_ m: Model, _ result: MResult, number: Int) {
            guard !stopped else {
                m.resolve(output, .cancelled)
                return
            }
            resolvedCount = number
            inFlight = nil
            guard case .error(let error) = result, left > 0 else {
                m.resolve(output, result)
                return
            }
            m.record("rs\(n)@\(m.current.label) \(error.desc) x\(m.x)")
            guard error.code % 3 != 0 else {
                m.resolve(output, result)
                return
            }
            if !(delay > 0) && !delay.isNaN {
                requestAttempt(m)
                return
            }
            let timer = MTimer()
            self.timer = timer
            m.arm(timer, after: delay, work: { [self] m in
                self.timer = nil
                requestAttempt(m)
            }, release: { _ in })
        }
    }

    private func retry(_ id: Int, n: Int, ctx: Ctx, attempts: Int, delay: Double, specs: [AttemptSpec], holdAttempts: Bool) -> MPromise {
        let output = newPromise(id, .main)
        retainResolver(output)  // the driver's, for good
        let driver = RetryDriver(output: output, n: n, ctx: ctx, attempts: attempts, delay: delay, specs: specs, holdAttempts: holdAttempts)
        registerHandler(MHandler(ctx: .imm, run: { m, _ in driver.stop(m) }, drop: { _ in }), on: output)
        // The first attempt: at once for `.immediate` and `.nowOr`, else on the context.
        switch ctx {
        case .imm: driver.requestAttempt(self)
        case .nowOrQ: withExecutingNow(true) { driver.requestAttempt(self) }
        case .q: schedule(.q) { m in m.on(m.qThread) { driver.requestAttempt(m) } }
        }
        return output
    }

    fileprivate func sealIfUnheld(_ p: MPromise) {
        guard p.handles == 0, p.isPending else { return }
        p.sealed = true
        if propagates(p) { requestCancel(p) }
    }

    // MARK: Observing

    /// The state of every entity the program can see, compared after each step.
    private func states() -> [Int: String] {
        var states: [Int: String] = [:]
        for (id, p) in promises { states[StateKey.promise(id)] = p.result?.desc ?? "pending" }
        for (id, p) in resolvers { states[StateKey.resolver(id)] = p.cancelRequested ? "true" : "false" }
        for (id, operation) in operations { states[StateKey.operation(id)] = operation.state }
        return states
    }
}

#endif
