// Runs a program on the library (TomorrowlandExplored, the library's own sources), writing the
// same observations as the model.
//
// Determinism: the program's own thread `T` makes every call; `q` (a serial queue, suspended
// except while the program drains it) runs every callback given a context other than
// `.immediate`; `g` (suspended too) runs what the library would dispatch on a global queue
// (`when`'s deferred resolutions, handed over by the schedule-point handler); timers run on the
// virtual clock (VirtualClock.swift), which hands their work to `q` when the program advances
// it. So one thread runs at a time, in an order the program decides, and a drain knows when `q`
// is idle: every piece of library work reaches a schedule point, which the handler counts.

#if TOMORROWLAND_SCHEDULE_POINTS
import Dispatch
import Foundation
import Synchronization
@testable import TomorrowlandExplored

// MARK: Values

struct TE: Swift.Error, Equatable {
    let n: Int
}

/// A promise value type of the programs: `Int` or `[Int]`.
protocol ModelValue: Sendable {
    var desc: String { get }
    func bumped(_ k: Int) -> Self
    static func fromCode(_ code: Int) -> Self
    static var zero: Self { get }
}

extension Int: ModelValue {
    var desc: String { "\(self)" }
    func bumped(_ k: Int) -> Int { self + k }
    static func fromCode(_ code: Int) -> Int { code }
    static var zero: Int { 0 }
}

extension Array: ModelValue where Element == Int {
    var desc: String { "[\(map(String.init).joined(separator: ","))]" }
    func bumped(_ k: Int) -> [Int] { map { $0 + k } }
    static func fromCode(_ code: Int) -> [Int] { [code] }
    static var zero: [Int] { [] }
}

/// A value whose release the test watches (the result `init(on:with:after:)` holds, rule 23).
final class Obj: ModelValue {
    let n: Int
    let tracked: Tracked?
    init(_ n: Int, _ tracked: Tracked? = nil) {
        self.n = n
        self.tracked = tracked
    }

    var desc: String { "o\(n)" }
    func bumped(_ k: Int) -> Obj { Obj(n + k) }
    static func fromCode(_ code: Int) -> Obj { Obj(code) }
    static var zero: Obj { Obj(0) }
}

/// A promise error type of the programs: `TE`, `NoError`, `PromiseTimeoutError<…>`.
protocol ModelError: Sendable {
    var desc: String { get }
    var code: Int { get }
    func bumped(_ k: Int) -> Self
}

extension TE: ModelError {
    var desc: String { "te\(n)" }
    var code: Int { n }
    func bumped(_ k: Int) -> TE { TE(n: n + k) }
}

extension NoError: ModelError {
    var desc: String { switch self {} }
    var code: Int { switch self {} }
    func bumped(_ k: Int) -> NoError { switch self {} }
}

extension PromiseTimeoutError: ModelError where Error: ModelError {
    var desc: String {
        switch self {
        case .timedOut: return "timedOut"
        case .rejected(let e): return "rej(\(e.desc))"
        }
    }

    var code: Int {
        switch self {
        case .timedOut: return 77
        case .rejected(let e): return e.code
        }
    }

    func bumped(_ k: Int) -> PromiseTimeoutError<Error> {
        switch self {
        case .timedOut: return .timedOut
        case .rejected(let e): return .rejected(e.bumped(k))
        }
    }
}

func describe<V: ModelValue, E: ModelError>(_ result: PromiseResult<V, E>) -> String {
    switch result {
    case .value(let v): return "v(\(v.desc))"
    case .error(let e): return "e(\(e.desc))"
    case .cancelled: return "c"
    }
}

// MARK: The test's hooks into the library

/// The schedule-point handler of these tests: counts library steps (so a drain can tell when
/// `q` is idle) and takes the work the library would dispatch on a global queue, for `g`.
final class ModelHooks: SchedulePointHandler, @unchecked Sendable {
    static let shared = ModelHooks()
    let activity = Atomic<Int>(0)
    /// Where deferred work goes: the current run's `g`. Set between runs only.
    nonisolated(unsafe) var deferredQueue: DispatchQueue?

    override func reached(_ label: StaticString) { activity.add(1, ordering: .relaxed) }
    override func acquiring(_ lock: ObjectIdentifier) { activity.add(1, ordering: .relaxed) }
    override func released(_ lock: ObjectIdentifier) { activity.add(1, ordering: .relaxed) }
    override func takesDeferredWork() -> Bool { true }
    override func deferred(_ work: @escaping @Sendable () -> Void) {
        activity.add(1, ordering: .relaxed)
        deferredQueue!.async(execute: work)
    }
}

/// The virtual clock of these tests: timers fire, in the order of their deadlines, when the
/// program advances it.
final class ModelClock: VirtualClock, @unchecked Sendable {
    static let shared = ModelClock()
    private var now = 0.0
    private var seq = 0
    /// NaN and infinite deadlines stay here for good, as the dispatch source would keep its
    /// handler (and with it the timer and its work).
    private var timers: [(deadline: Double, seq: Int, fire: @Sendable () -> Void)] = []

    override func timerArmed(after delay: TimeInterval, fire: @escaping @Sendable () -> Void) {
        seq += 1
        timers.append((delay.isNaN ? .infinity : now + delay, seq, fire))
    }

    func advance(by dt: Double) {
        now += dt
        while let index = timers.indices.filter({ timers[$0].deadline <= now })
            .min(by: { (timers[$0].deadline, timers[$0].seq) < (timers[$1].deadline, timers[$1].seq) }) {
            timers.remove(at: index).fire()
        }
    }

    /// Forgets the last run's timers (with what they hold).
    func reset() {
        let old = timers
        timers = []
        now = 0
        seq = 0
        withExtendedLifetime(old) {}
    }
}

/// A closure's captured object: its release is recorded, with the thread it happened on.
final class Tracked: @unchecked Sendable {
    let name: String
    let runner: LibraryRunner
    init(_ name: String, _ runner: LibraryRunner) {
        self.name = name
        self.runner = runner
    }
    deinit { runner.released(name) }
    func touch() {}
}

// MARK: Type-erased handles

/// A `Promise<V, E>` handle the program holds.
protocol AnyHandle: AnyObject {
    var type: PType { get }
    func requestCancel()
    func requestCancelOnInvalidate(_ token: PromiseInvalidationToken)
    func chain(_ kind: ChainKind, n: Int, ctx: PromiseContext, token: PromiseInvalidationToken?, act: Act, in r: LibraryRunner) -> AnyHandle?
    func pass(_ kind: PassKind) -> AnyHandle
    func propagating(n: Int, ctx: PromiseContext, act: Act, in r: LibraryRunner) -> AnyHandle
    func timeout(ctx: PromiseContext, delay: Double) -> AnyHandle
    func delay(ctx: PromiseContext, delay: Double) -> AnyHandle
    func withToken(_ token: PromiseInvalidationToken) -> AnyTokenPromise
    /// Reads the result through a weak reference to the promise's box.
    var observe: () -> String { get }
}

/// Reads a box's result weakly: `gone` once nothing holds it.
func weakObserver<V: ModelValue, E: ModelError>(_ promise: Promise<V, E>) -> () -> String {
    weak let box = promise._box
    return {
        guard let box else { return "gone" }
        guard let result = box.result else { return "pending" }
        return describe(result)
    }
}

final class Handle<V: ModelValue, E: ModelError>: AnyHandle {
    let promise: Promise<V, E>
    let type: PType

    init(_ promise: Promise<V, E>, _ type: PType) {
        self.promise = promise
        self.type = type
    }

    var observe: () -> String { weakObserver(promise) }

    func requestCancel() { promise.requestCancel() }

    func requestCancelOnInvalidate(_ token: PromiseInvalidationToken) { promise.requestCancelOnInvalidate(token) }

    func chain(_ kind: ChainKind, n: Int, ctx: PromiseContext, token: PromiseInvalidationToken?, act: Act, in r: LibraryRunner) -> AnyHandle? {
        let tracked = Tracked("cb\(n)", r)
        let run: @Sendable (String) -> Void = { arg in r.userCode("cb\(n)", arg, act) }
        switch kind {
        case .then:
            return Handle(promise.then(on: ctx, token: token) { v in tracked.touch(); run(v.desc) }, type)
        case .catch:
            return Handle(promise.catch(on: ctx, token: token) { e in tracked.touch(); run(e.desc) }, type)
        case .always:
            return Handle(promise.always(on: ctx, token: token) { result in tracked.touch(); run(describe(result)) }, type)
        case .map:
            return Handle(promise.map(on: ctx, token: token) { v -> V in tracked.touch(); run(v.desc); return v.bumped(n) }, type)
        case .recover:
            let recovered = promise.recover(on: ctx, token: token) { e -> V in tracked.touch(); run(e.desc); return V.fromCode(e.code) }
            return Handle<V, NoError>(recovered, PType(value: type.value, error: "NoError"))
        case .mapError:
            return Handle(promise.mapError(on: ctx, token: token) { e -> E in tracked.touch(); run(e.desc); return e.bumped(n) }, type)
        case .mapResult:
            return Handle(promise.mapResult(on: ctx, token: token) { result -> PromiseResult<V, E> in
                tracked.touch()
                run(describe(result))
                switch result {
                case .value(let v): return .value(v.bumped(n))
                case .error(let e): return .error(e.bumped(n))
                case .cancelled: return .value(V.zero)
                }
            }, type)
        case .onCancel:
            return Handle(promise.onCancel(on: ctx, token: token) { tracked.touch(); run("") }, type)
        case .tapOn:
            _ = promise.tap(on: ctx, token: token) { result in tracked.touch(); run(describe(result)) }
            return nil
        case .flatMap(let inner):
            let type = self.type
            return Handle(promise.flatMap(on: ctx, token: token) { v -> Promise<V, E> in
                tracked.touch()
                run(v.desc)
                if let held = r.handles[inner], held.type == type, let handle = held as? Handle<V, E> { return handle.promise }
                return Promise(fulfilled: v.bumped(n))
            }, type)
        }
    }

    func pass(_ kind: PassKind) -> AnyHandle {
        switch kind {
        case .tap: return Handle(promise.tap(), type)
        case .makeChild: return Handle(promise.makeChild(), type)
        case .ignoringCancel: return Handle(promise.ignoringCancel(), type)
        }
    }

    func propagating(n: Int, ctx: PromiseContext, act: Act, in r: LibraryRunner) -> AnyHandle {
        let tracked = Tracked("pc\(n)", r)
        return Handle(promise.propagatingCancellation(on: ctx) { p in
            tracked.touch()
            r.userCode("pc\(n)", p.result.map(describe) ?? "-", act)
        }, type)
    }

    func timeout(ctx: PromiseContext, delay: Double) -> AnyHandle {
        Handle<V, PromiseTimeoutError<E>>(promise.timeout(on: ctx, delay: delay), PType(value: type.value, error: "TO<\(type.error)>"))
    }

    func delay(ctx: PromiseContext, delay: Double) -> AnyHandle {
        Handle(promise.delay(on: ctx, delay), type)
    }

    func withToken(_ token: PromiseInvalidationToken) -> AnyTokenPromise {
        TokenHandle(promise.withToken(token), type)
    }
}

/// A `TokenPromise<V, E>` the program holds.
protocol AnyTokenPromise: AnyObject {
    func chain(_ kind: ChainKind, n: Int, ctx: PromiseContext, act: Act, in r: LibraryRunner) -> AnyTokenPromise
    func pass(_ kind: PassKind) -> AnyTokenPromise
    var observe: () -> String { get }
}

final class TokenHandle<V: ModelValue, E: ModelError>: AnyTokenPromise {
    let wrapper: TokenPromise<V, E>
    let type: PType

    init(_ wrapper: TokenPromise<V, E>, _ type: PType) {
        self.wrapper = wrapper
        self.type = type
    }

    var observe: () -> String { weakObserver(wrapper.inner) }

    func chain(_ kind: ChainKind, n: Int, ctx: PromiseContext, act: Act, in r: LibraryRunner) -> AnyTokenPromise {
        let tracked = Tracked("cb\(n)", r)
        let run: @Sendable (String) -> Void = { arg in r.userCode("cb\(n)", arg, act) }
        switch kind {
        case .then, .tapOn:
            return TokenHandle(wrapper.then(on: ctx) { v in tracked.touch(); run(v.desc) }, type)
        case .catch:
            return TokenHandle(wrapper.catch(on: ctx) { e in tracked.touch(); run(e.desc) }, type)
        case .always:
            return TokenHandle(wrapper.always(on: ctx) { result in tracked.touch(); run(describe(result)) }, type)
        case .map:
            return TokenHandle(wrapper.map(on: ctx) { v -> V in tracked.touch(); run(v.desc); return v.bumped(n) }, type)
        case .recover:
            let recovered = wrapper.recover(on: ctx) { e -> V in tracked.touch(); run(e.desc); return V.fromCode(e.code) }
            return TokenHandle<V, NoError>(recovered, PType(value: type.value, error: "NoError"))
        case .mapError:
            return TokenHandle(wrapper.mapError(on: ctx) { e -> E in tracked.touch(); run(e.desc); return e.bumped(n) }, type)
        case .mapResult:
            return TokenHandle(wrapper.mapResult(on: ctx, onComplete: { result -> PromiseResult<V, E> in
                tracked.touch()
                run(describe(result))
                switch result {
                case .value(let v): return .value(v.bumped(n))
                case .error(let e): return .error(e.bumped(n))
                case .cancelled: return .value(V.zero)
                }
            }), type)
        case .onCancel:
            return TokenHandle(wrapper.onCancel(on: ctx) { tracked.touch(); run("") }, type)
        case .flatMap(let inner):
            let type = self.type
            return TokenHandle(wrapper.flatMap(on: ctx) { v -> Promise<V, E> in
                tracked.touch()
                run(v.desc)
                if let held = r.handles[inner], held.type == type, let handle = held as? Handle<V, E> { return handle.promise }
                return Promise(fulfilled: v.bumped(n))
            }, type)
        }
    }

    func pass(_ kind: PassKind) -> AnyTokenPromise {
        switch kind {
        case .tap, .makeChild: return TokenHandle(wrapper.tap(), type)
        case .ignoringCancel: return TokenHandle(wrapper.ignoringCancel(), type)
        }
    }
}

// MARK: The runner

/// Safety of `@unchecked Sendable`: one thread at a time runs the program (the test thread, or
/// `q` or `g` while the test thread waits for it in a drain), each hand-over ordered by Dispatch.
final class LibraryRunner: Runner, @unchecked Sendable {
    static let labelKey = DispatchSpecificKey<String>()

    let q = DispatchQueue(label: "rules-model.q")
    let g = DispatchQueue(label: "rules-model.g")
    private let hooks = ModelHooks.shared
    private let clock = ModelClock.shared

    var observation = Observation()

    var handles: [Int: AnyHandle] = [:]
    private var observers: [Int: () -> String] = [:]
    private var resolvers: [Int: Promise<Int, TE>.Resolver] = [:]
    private var tokens: [Int: PromiseInvalidationToken] = [:]
    private var delayed: [Int: DelayedPromise<Int, TE>] = [:]
    private var operations: [Int: PromiseOperation<Int, TE>] = [:]
    private var tokenPromises: [Int: AnyTokenPromise] = [:]
    private var pendingMarkers: Set<Int> = []
    private var targetMarker: Int?
    private let markerReached = DispatchSemaphore(value: 0)

    init() {
        q.setSpecific(key: Self.labelKey, value: "q")
        g.setSpecific(key: Self.labelKey, value: "g")
        q.suspend()
        g.suspend()
        hooks.deferredQueue = g
    }

    /// Forgets the clock's timers (what they hold is released now, on this thread, and what
    /// that triggers runs in a last drain), then leaves both queues running: a suspended queue
    /// must not be released, and nothing of this run can reach the next one.
    func finish() {
        clock.reset()
        drainAll()
        q.resume()
        g.resume()
    }

    func run(_ op: Op) {
        observation = Observation()
        perform(op)
        observation.states = states()
    }

    private func label() -> String {
        DispatchQueue.getSpecific(key: Self.labelKey) ?? "T"
    }

    private func record(_ event: String) {
        hooks.activity.add(1, ordering: .relaxed)
        observation.events.append(event)
    }

    func released(_ name: String) {
        hooks.activity.add(1, ordering: .relaxed)
        observation.released.append("\(name)@\(label())")
    }

    private var x: String { PromiseContext.isExecutingNow ? "1" : "0" }

    /// User code: records itself (and `isExecutingNow`), does what it was told, records its end.
    func userCode(_ name: String, _ arg: String?, _ act: Act, own: (id: Int, resolver: Promise<Int, TE>.Resolver)? = nil) {
        record("\(name)@\(label())\(arg.map { " \($0)" } ?? "") x\(x)")
        perform(act, own: own)
        record("\(name)> x\(x)")
    }

    private func perform(_ act: Act, own: (id: Int, resolver: Promise<Int, TE>.Resolver)?) {
        switch act {
        case .none: break
        case .own(let how): if let own { resolve(own.resolver, how) }
        case .keepOwn: if let own, resolvers[own.id] == nil { resolvers[own.id] = own.resolver }
        case .op(let op): perform(op)
        case .both(let a, let b):
            perform(a, own: own)
            perform(b, own: own)
        }
    }

    private func resolve(_ resolver: Promise<Int, TE>.Resolver, _ how: How) {
        switch how {
        case .fulfill(let v): resolver.fulfill(with: v)
        case .reject(let e): resolver.reject(with: TE(n: e))
        case .cancel: resolver.cancel()
        case .with(let id):
            guard let handle = handles[id], handle.type == .main else { return }
            resolver.resolve(with: (handle as! Handle<Int, TE>).promise)
        }
    }

    private func context(_ ctx: Ctx) -> PromiseContext {
        switch ctx {
        case .imm: return .immediate
        case .nowOrQ: return .nowOr(.queue(q))
        case .q: return .queue(q)
        }
    }

    private func keep(_ id: Int, _ handle: AnyHandle) {
        handles[id] = handle
        observers[id] = handle.observe
    }

    /// Releases a removed table entry, after the table access ended: a release may run user
    /// code that changes the table.
    private func release<V>(_ value: V?) {
        withExtendedLifetime(value) {}
    }

    // MARK: Queues

    private func drainQueue(_ queue: DispatchQueue) {
        // A round runs everything enqueued before it; one in which no library code and no user
        // code ran found the queue empty (every piece of library work reaches a schedule point).
        queue.resume()
        while true {
            let before = hooks.activity.load(ordering: .relaxed)
            queue.sync {}
            if hooks.activity.load(ordering: .relaxed) == before { break }
        }
        queue.suspend()
    }

    private func drainAll() {
        while true {
            let before = hooks.activity.load(ordering: .relaxed)
            drainQueue(q)
            drainQueue(g)
            if hooks.activity.load(ordering: .relaxed) == before { return }
        }
    }

    // MARK: Operations

    // swiftlint:disable:next cyclomatic_complexity function_body_length
    private func perform(_ op: Op) {
        switch op {
        case .make(let id):
            let (promise, resolver) = Promise<Int, TE>.makeWithResolver()
            keep(id, Handle(promise, .main))
            resolvers[id] = resolver
        case .resolved(let id, let spec):
            keep(id, Handle(Promise<Int, TE>(with: result(spec)), .main))
        case .initOn(let id, let n, let ctx, let act):
            let tracked = Tracked("i\(n)", self)
            let promise = Promise<Int, TE>(on: context(ctx)) { [self] resolver in
                tracked.touch()
                userCode("i\(n)", nil, act, own: (id, resolver))
            }
            keep(id, Handle(promise, .main))
        case .chain(let c, let parent, let kind, let n, let ctx, let tokenID, let act):
            guard let handle = handles[parent] else { return }
            let token = tokenID.flatMap { tokens[$0] }
            if tokenID != nil, token == nil { return }
            if let child = handle.chain(kind, n: n, ctx: context(ctx), token: token, act: act, in: self) { keep(c, child) }
        case .pass(let c, let parent, let kind):
            guard let handle = handles[parent] else { return }
            keep(c, handle.pass(kind))
        case .propagating(let c, let parent, let n, let ctx, let act):
            guard let handle = handles[parent] else { return }
            keep(c, handle.propagating(n: n, ctx: context(ctx), act: act, in: self))
        case .onRequestCancel(let r, let n, let ctx, let act):
            guard let resolver = resolvers[r] else { return }
            let tracked = Tracked("h\(n)", self)
            resolver.onRequestCancel(on: context(ctx)) { [self] resolver in
                tracked.touch()
                userCode("h\(n)", nil, act, own: (r, resolver))
            }
        case .resolve(let r, let how):
            guard let resolver = resolvers[r] else { return }
            resolve(resolver, how)
        case .requestCancel(let id):
            handles[id]?.requestCancel()
        case .readRequested(let r):
            guard let resolver = resolvers[r] else { return }
            record("r\(r).hasRequestedCancel \(resolver.hasRequestedCancel)")
        case .dropHandle(let id):
            release(handles.removeValue(forKey: id))
        case .dropResolver(let r):
            release(resolvers.removeValue(forKey: r))
        case .newToken(let k, let onDeinit):
            tokens[k] = PromiseInvalidationToken(invalidateOnDeinit: onDeinit)
        case .invalidate(let k):
            tokens[k]?.invalidate()
        case .cancelWithoutInvalidating(let k):
            tokens[k]?.cancelWithoutInvalidating()
        case .requestCancelOnInvalidate(let id, let k):
            guard let handle = handles[id], let token = tokens[k] else { return }
            handle.requestCancelOnInvalidate(token)
        case .dropToken(let k):
            release(tokens.removeValue(forKey: k))
        case .chainTokens(let k, let from, let including):
            guard let token = tokens[k], let source = tokens[from], token != source else { return }
            token.chainInvalidation(from: source, includingCancelWithoutInvalidating: including)
        case .drain:
            drainAll()
        case .mark(let m):
            pendingMarkers.insert(m)
            q.async { [self] in
                pendingMarkers.remove(m)
                if targetMarker == m {
                    targetMarker = nil
                    q.suspend()
                    markerReached.signal()
                }
            }
        case .drainTo(let m):
            guard pendingMarkers.contains(m) else { return }
            targetMarker = m
            q.resume()
            markerReached.wait()
        case .whenAll(let id, let inputIDs, let cancelOnFailure):
            let inputs = inputIDs.compactMap { handles[$0] as? Handle<Int, TE> }
            guard inputs.count == inputIDs.count, inputs.allSatisfy({ $0.type == .main }) else { return }
            keep(id, Handle(when(fulfilled: inputs.map(\.promise), cancelOnFailure: cancelOnFailure), PType(value: "[Int]", error: "TE")))
        case .whenFirst(let id, let inputIDs, let cancelRemaining):
            let inputs = inputIDs.compactMap { handles[$0] as? Handle<Int, TE> }
            guard inputs.count == inputIDs.count, inputs.allSatisfy({ $0.type == .main }) else { return }
            keep(id, Handle(when(first: inputs.map(\.promise), cancelRemaining: cancelRemaining), .main))
        case .timeout(let c, let parent, let ctx, let delay):
            guard let handle = handles[parent] else { return }
            keep(c, handle.timeout(ctx: context(ctx), delay: delay))
        case .delay(let c, let parent, let ctx, let delay):
            guard let handle = handles[parent] else { return }
            keep(c, handle.delay(ctx: context(ctx), delay: delay))
        case .after(let id, let ctx, let spec, let delay, let object):
            if object {
                let result = self.result(spec).map { Obj($0, Tracked("v\(id)", self)) }
                keep(id, Handle(Promise<Obj, TE>(on: context(ctx), with: result, after: delay), PType(value: "Obj", error: "TE")))
            } else {
                keep(id, Handle(Promise<Int, TE>(on: context(ctx), with: result(spec), after: delay), .main))
            }
        case .advance(let by):
            clock.advance(by: by)
        case .delayed(let d, let n, let ctx, let act):
            let tracked = Tracked("d\(n)", self)
            delayed[d] = DelayedPromise<Int, TE>(on: context(ctx)) { [self] resolver in
                tracked.touch()
                userCode("d\(n)", nil, act, own: (d, resolver))
            }
        case .access(let d):
            guard let storage = delayed[d] else { return }
            let promise = storage.promise
            if handles[d] == nil { keep(d, Handle(promise, .main)) }
        case .dropDelayed(let d):
            release(delayed.removeValue(forKey: d))
        case .operation(let o, let n, let ctx, let act):
            let tracked = Tracked("o\(n)", self)
            let operation = PromiseOperation<Int, TE>(on: context(ctx)) { [self] resolver in
                tracked.touch()
                userCode("o\(n)", nil, act, own: (o, resolver))
            }
            operations[o] = operation
            observers[o] = weakObserver(operation.promise)
        case .start(let o):
            operations[o]?.start()
        case .cancelOperation(let o):
            operations[o]?.cancel()
        case .operationPromise(let o):
            guard let operation = operations[o], handles[o] == nil else { return }
            keep(o, Handle(operation.promise, .main))
        case .dropOperation(let o):
            release(operations.removeValue(forKey: o))
        case .withToken(let t, let id, let k):
            guard let handle = handles[id], let token = tokens[k] else { return }
            tokenPromises[t] = handle.withToken(token)
        case .tokenChain(let t, let c, let from, let kind, let n, let ctx, let act):
            guard let wrapper = tokenPromises[from] else { return }
            let child = wrapper.chain(kind, n: n, ctx: context(ctx), act: act, in: self)
            tokenPromises[t] = child
            observers[c] = child.observe
        case .tokenPass(let t, let c, let from, let kind):
            guard let wrapper = tokenPromises[from] else { return }
            let child = wrapper.pass(kind)
            tokenPromises[t] = child
            observers[c] = child.observe
        case .dropTokenPromise(let t):
            release(tokenPromises.removeValue(forKey: t))
        case .retry(let id, let n, let ctx, let attempts, let delay, let specs, let holdAttempts):
            let calls = Atomic<Int>(0)
            let promise = TomorrowlandExplored.retry(on: context(ctx), attempts: attempts, delay: delay, while: { [self] (e: TE) in
                record("rs\(n)@\(label()) \(e.desc) x\(x)")
                return e.code % 3 != 0
            }) { [self] () -> Promise<Int, TE> in
                let number = calls.add(1, ordering: .relaxed).newValue
                record("rb\(n)#\(number)@\(label()) x\(x)")
                switch number <= specs.count ? specs[number - 1] : .rejected(99) {
                case .pending(let pid, let handler, let act, let cancelsOutput):
                    if cancelsOutput { perform(.requestCancel(p: id)) }
                    let (attempt, resolver) = Promise<Int, TE>.makeWithResolver()
                    resolvers[pid] = resolver
                    observers[pid] = weakObserver(attempt)
                    if let handler { perform(.onRequestCancel(r: pid, n: handler, ctx: .imm, act: act)) }
                    if holdAttempts { handles[pid] = Handle(attempt, .main) }
                    return attempt
                case .fulfilled(let v): return Promise(fulfilled: v)
                case .rejected(let e): return Promise(rejected: TE(n: e))
                }
            }
            keep(id, Handle(promise, .main))
        }
    }

    private func result(_ spec: RSpec) -> PromiseResult<Int, TE> {
        switch spec {
        case .value(let v): return .value(v)
        case .error(let e): return .error(TE(n: e))
        case .cancelled: return .cancelled
        }
    }

    private func states() -> [Int: String] {
        var states: [Int: String] = [:]
        for (id, observe) in observers { states[StateKey.promise(id)] = observe() }
        for (id, resolver) in resolvers { states[StateKey.resolver(id)] = resolver.hasRequestedCancel ? "true" : "false" }
        for (id, operation) in operations {
            let phase = operation.isFinished ? "finished" : operation.isExecuting ? "executing" : "ready"
            states[StateKey.operation(id)] = phase + (operation.isCancelled ? ",cancelled" : "")
        }
        return states
    }
}
#endif
