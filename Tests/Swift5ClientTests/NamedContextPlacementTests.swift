// A context that names a queue is where the code runs, for every API that takes a context and
// a closure: a closure written in a `@MainActor` class or in an actor, given `.utility`,
// `.queue(q)`, `.operationQueue(q)`, … or a `PromiseContext` held in a value (a stored
// property, a parameter with a default, `PromiseContext(qos:)`, a custom `PromiseContext.x`, a
// ternary, `.nowOr(value)`) runs on that context, not on the main queue or the actor; the
// same closure with no context, `.auto` or `.immediate` runs on the caller's actor, and with
// `.main` or `.nowOr(.main)` on the main actor, in every isolation.
//
// One file, compiled in both language modes: this is the Swift 5 client target's file, and
// Tests/Swift6ClientTests/NamedContextPlacementTests.swift is a symbolic link to it. Where a
// closure ran is read with `DispatchQueue.getSpecific(key:)` (the main queue and the test's
// own queue carry a key; `Thread.isMainThread` lies after `dispatchMain()`) or, on an
// operation queue, with `OperationQueue.current`.

import Foundation
import Tomorrowland
import TomorrowlandAsync
import XCTest

// MARK: - Where a closure runs

/// Names the queues the tests recognise: `"main"` on the main queue, the label of the
/// test's own dispatch queue there.
let placementKey = DispatchSpecificKey<String>()

/// The main queue, the tests' dispatch queue and their operation queue's name.
enum PlacementQueues {
    static let main = "main"
    static let queue = "placement.queue"
    static let operations = "placement.operations"
    static let actor = "placement.actor"
    static let globalActor = "placement.globalActor"

    /// Marks the main queue (idempotent; `setUp` calls it).
    static func markMainQueue() { DispatchQueue.main.setSpecific(key: placementKey, value: main) }

    /// One serial queue that answers `queue`, for contexts held in static members.
    static let shared = makeQueue()

    /// A serial queue that answers `queue` to `currentPlace()`.
    static func makeQueue() -> DispatchQueue {
        let queue = DispatchQueue(label: Self.queue)
        queue.setSpecific(key: placementKey, value: Self.queue)
        return queue
    }

    /// An operation queue whose operations answer `operations` to `currentPlace()`.
    static func makeOperationQueue() -> OperationQueue {
        let queue = OperationQueue()
        queue.name = operations
        return queue
    }
}

/// Where the calling code runs: `"main"`, a test queue's name, or `"elsewhere"` (a global
/// queue, the cooperative pool).
func currentPlace() -> String {
    if let name = DispatchQueue.getSpecific(key: placementKey) { return name }
    if let name = OperationQueue.current?.name, name == PlacementQueues.operations { return name }
    return "elsewhere"
}

/// Where a case's closures must run.
enum PlacementExpectation: Equatable, Sendable, CustomStringConvertible {
    /// On the main queue (and, written in main-actor code, on the main actor).
    case main
    /// On a global queue or the pool: anywhere but the main queue, the test queues and the
    /// test actor's queue.
    case offMain
    /// On the named test queue.
    case queue(String)

    func accepts(_ place: String) -> Bool {
        switch self {
        case .main: return place == PlacementQueues.main
        case .offMain: return place == "elsewhere"
        case .queue(let name): return place == name
        }
    }

    var description: String {
        switch self {
        case .main: return "main"
        case .offMain: return "off the main queue"
        case .queue(let name): return name
        }
    }
}

/// Records where each closure ran; `done` is fulfilled once, when as many records as
/// `expect(_:)` announced are in (whichever comes first).
final class PlacementLog: @unchecked Sendable { // safe: `records` and `target` only under `lock`
    private let lock = NSLock()
    private var records: [(label: String, place: String)] = []
    private var target: Int?
    let done = XCTestExpectation(description: "every closure ran")

    /// Records where the caller runs under `label`; returns how many times `label` was recorded.
    @discardableResult
    func record(_ label: String) -> Int {
        let place = currentPlace()
        lock.lock()
        records.append((label, place))
        let seen = records.filter { $0.label == label }.count
        let complete = records.count == target
        lock.unlock()
        if complete { done.fulfill() }
        return seen
    }

    /// Announces how many records make the run complete.
    func expect(_ count: Int) {
        lock.lock()
        target = count
        let complete = records.count == count
        lock.unlock()
        if complete { done.fulfill() }
    }

    /// How many times `label` was recorded.
    func count(of label: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return records.filter { $0.label == label }.count
    }

    var snapshot: [(label: String, place: String)] {
        lock.lock()
        defer { lock.unlock() }
        return records
    }
}

/// One registration of a closure, run by `runAll()`: `label` is recorded `records` times by
/// closures that must run as `expected` says.
struct PlacementCase {
    let label: String
    let records: Int
    let expected: PlacementExpectation
    let register: () -> Void

    init(_ label: String, records: Int = 1, _ expected: PlacementExpectation, _ register: @escaping () -> Void) {
        self.label = label
        self.records = records
        self.expected = expected
        self.register = register
    }
}

/// What a run of cases expects: a label (once per record) and where it must run.
struct PlacementRecordExpectation: Sendable {
    let label: String
    let expected: PlacementExpectation
}

extension Array where Element == PlacementCase {
    /// Registers every case and returns what the log must then hold.
    func runAll() -> [PlacementRecordExpectation] {
        flatMap { item -> [PlacementRecordExpectation] in
            item.register()
            return Array<PlacementRecordExpectation>(
                repeating: PlacementRecordExpectation(label: item.label, expected: item.expected), count: item.records)
        }
    }
}

enum PlacementError: Error, Sendable {
    case failed
}

/// A `with:` owner.
final class PlacementOwner: Sendable {}

/// A throwing call, so that a closure picks the throwing overload.
func placementMayThrow() throws {}

/// A promise already fulfilled with 1, one rejected, one cancelled.
func placementPromises() -> (value: StdPromise<Int>, error: StdPromise<Int>, cancelled: StdPromise<Int>) {
    let (cancelled, resolver) = StdPromise<Int>.makeWithResolver()
    resolver.cancel()
    return (StdPromise(fulfilled: 1), StdPromise(rejected: PlacementError.failed), cancelled)
}

/// A promise fulfilled with 1 from a global queue after `register` ran, so that a `.nowOr`
/// callback registered on it cannot run synchronously.
func placementPending(_ register: (StdPromise<Int>) -> Void) {
    let (promise, resolver) = StdPromise<Int>.makeWithResolver()
    register(promise)
    DispatchQueue.global().async { resolver.fulfill(with: 1) }
}

extension PromiseContext {
    /// A 1.x-style custom context: `PromiseContext.placementSerial` is a value.
    static let placementSerial = PromiseContext.queue(PlacementQueues.shared)
}

// MARK: - Closures written in a @MainActor class

@MainActor final class MainActorPlacementClient {
    var mainState = 0
    let owner = PlacementOwner()
    let token = PromiseInvalidationToken()
    let operations = OperationQueue()
    /// A context held in a stored property, as 1.x view controllers do.
    var transformContext: PromiseContext = .utility
    /// Picks the first branch of the ternaries below.
    var fast = false

    /// Every API that takes a context and a closure, given the named context `ctx` (with
    /// `token` on the operators that take one).
    func namedCases(_ ctx: PromiseContext.Named, token: PromiseInvalidationToken?, expected: PlacementExpectation,
                    _ log: PlacementLog) -> [PlacementCase] {
        let operations = self.operations
        // The promise operators' cases are generated from the callback API table (CallbackAPICases.swift).
        return operatorCases(ctx, token: token, expected: expected, log) + [
            // Promise bodies, cancel handlers, retry and async operations.
            PlacementCase("Promise(on:)", expected) {
                _ = Promise<Int, PlacementError>(on: ctx) { resolver in log.record("Promise(on:)"); resolver.fulfill(with: 1) }
            },
            PlacementCase("Promise(on:) throwing", expected) {
                _ = StdPromise<Int>(on: ctx) { resolver in
                    log.record("Promise(on:) throwing")
                    try placementMayThrow()
                    resolver.fulfill(with: 1)
                }
            },
            PlacementCase("DelayedPromise(on:)", expected) {
                _ = DelayedPromise<Int, PlacementError>(on: ctx) { resolver in
                    log.record("DelayedPromise(on:)"); resolver.fulfill(with: 1)
                }.promise
            },
            PlacementCase("PromiseOperation(on:)", expected) {
                operations.addOperation(PromiseOperation<Int, PlacementError>(on: ctx) { resolver in
                    log.record("PromiseOperation(on:)"); resolver.fulfill(with: 1)
                })
            },
            PlacementCase("onRequestCancel(on:)", expected) {
                let (promise, resolver) = Promise<Int, PlacementError>.makeWithResolver()
                resolver.onRequestCancel(on: ctx) { resolver in log.record("onRequestCancel(on:)"); resolver.cancel() }
                promise.requestCancel()
            },
            PlacementCase("propagatingCancellation(on:)", expected) {
                let (promise, resolver) = Promise<Int, PlacementError>.makeWithResolver()
                promise.propagatingCancellation(on: ctx) { _ in
                    log.record("propagatingCancellation(on:)"); resolver.cancel()
                }.requestCancel()
            },
            PlacementCase("retry(on:)", records: 2, expected) {
                _ = retry(on: ctx, attempts: 2) { () -> StdPromise<Int> in
                    log.record("retry(on:)") == 1 ? StdPromise(rejected: PlacementError.failed) : StdPromise(fulfilled: 1)
                }
            },
            PlacementCase("retry(on:while:)", expected) {
                _ = retry(on: ctx, attempts: 2, while: { _ in log.record("retry(on:while:)"); return true }) { () -> StdPromise<Int> in
                    log.count(of: "retry(on:while:)") == 0 ? StdPromise(rejected: PlacementError.failed) : StdPromise(fulfilled: 1)
                }
            },
            PlacementCase("Promise(on:priority:operation:)", expected) {
                _ = StdPromise<Int>(on: ctx.context, priority: .utility) { () async throws -> Int in
                    log.record("Promise(on:priority:operation:)"); return 1
                }
            },
            PlacementCase("Promise(on:operation:) non-throwing", expected) {
                _ = Promise<Int, NoError>(on: ctx.context) { () async -> Int in
                    log.record("Promise(on:operation:) non-throwing"); return 1
                }
            },
        ]
    }

    /// Every named context, spelled as users write it.
    func namedContextsSpelledOut(queue q: DispatchQueue, operationQueue oq: OperationQueue, _ log: PlacementLog) -> [PlacementCase] {
        let value = StdPromise<Int>(fulfilled: 1)
        let (pending, resolver) = StdPromise<Int>.makeWithResolver()
        return [
            PlacementCase("map(on: .utility)", .offMain) { _ = value.map(on: .utility) { x in log.record("map(on: .utility)"); return x } },
            PlacementCase("map(on: .background)", .offMain) {
                _ = value.map(on: .background) { x in log.record("map(on: .background)"); return x }
            },
            PlacementCase("map(on: .default)", .offMain) { _ = value.map(on: .default) { x in log.record("map(on: .default)"); return x } },
            PlacementCase("map(on: .userInitiated)", .offMain) {
                _ = value.map(on: .userInitiated) { x in log.record("map(on: .userInitiated)"); return x }
            },
            PlacementCase("map(on: .userInteractive)", .offMain) {
                _ = value.map(on: .userInteractive) { x in log.record("map(on: .userInteractive)"); return x }
            },
            PlacementCase("then(on: .queue(q))", .queue(PlacementQueues.queue)) {
                _ = value.then(on: .queue(q)) { _ in log.record("then(on: .queue(q))") }
            },
            PlacementCase("then(on: .operationQueue(q))", .queue(PlacementQueues.operations)) {
                _ = value.then(on: .operationQueue(oq)) { _ in log.record("then(on: .operationQueue(q))") }
            },
            // Pending when registered, resolved from a global queue: runs on `q`.
            PlacementCase("then(on: .nowOr(.queue(q)))", .queue(PlacementQueues.queue)) {
                _ = pending.then(on: .nowOr(.queue(q))) { _ in log.record("then(on: .nowOr(.queue(q)))") }
                DispatchQueue.global().async { resolver.fulfill(with: 1) }
            },
            PlacementCase("tryMap(on: .utility, {…})", .offMain) {
                _ = value.tryMap(on: .utility, { (x) -> Int in log.record("tryMap(on: .utility, {…})"); return x })
            },
            PlacementCase("Promise(on: .utility)", .offMain) {
                _ = StdPromise<Int>(on: .utility) { resolver in log.record("Promise(on: .utility)"); resolver.fulfill(with: 1) }
            },
            PlacementCase("StdPromise(on: .queue(q)) { async }", .queue(PlacementQueues.queue)) {
                _ = StdPromise<Int>(on: .queue(q)) { () async throws -> Int in log.record("StdPromise(on: .queue(q)) { async }"); return 1 }
            },
            PlacementCase("withToken.then(on: .utility)", .offMain) {
                _ = value.withToken(self.token).then(on: .utility) { _ in log.record("withToken.then(on: .utility)") }
            },
        ]
    }

    /// A representative API of each family, given a context held in a value
    /// (`PromiseContext.utility` spelled out, a stored `PromiseContext`): the closure is
    /// nonisolated, as with a named context, and runs where the value says.
    func contextValueCases(_ ctx: any PromiseContextConvertible, expected: PlacementExpectation,
                           _ log: PlacementLog) -> [PlacementCase] {
        let (value, error, cancelled) = placementPromises()
        let owner = self.owner, operations = self.operations
        return [
            PlacementCase("then", expected) { _ = value.then(on: ctx) { _ in log.record("then") } },
            PlacementCase("map", expected) { _ = value.map(on: ctx) { x in log.record("map"); return x } },
            PlacementCase("catch", expected) { _ = error.catch(on: ctx) { _ in log.record("catch") } },
            PlacementCase("always", expected) { _ = value.always(on: ctx) { _ in log.record("always") } },
            PlacementCase("onCancel", expected) { _ = cancelled.onCancel(on: ctx) { log.record("onCancel") } },
            PlacementCase("then(token:)", expected) {
                _ = value.then(on: ctx, token: self.token) { _ in log.record("then(token:)") }
            },
            PlacementCase("then(with:)", expected) {
                _ = value.then(on: ctx, with: owner) { _, _ in log.record("then(with:)") }
            },
            PlacementCase("token.then", expected) {
                _ = value.withToken(self.token).then(on: ctx) { _ in log.record("token.then") }
            },
            PlacementCase("Promise(on:)", expected) {
                _ = StdPromise<Int>(on: ctx) { resolver in log.record("Promise(on:)"); resolver.fulfill(with: 1) }
            },
            PlacementCase("DelayedPromise(on:)", expected) {
                _ = StdDelayedPromise<Int>(on: ctx) { resolver in
                    log.record("DelayedPromise(on:)"); resolver.fulfill(with: 1)
                }.promise
            },
            PlacementCase("PromiseOperation(on:)", expected) {
                operations.addOperation(StdPromiseOperation<Int>(on: ctx) { resolver in
                    log.record("PromiseOperation(on:)"); resolver.fulfill(with: 1)
                })
            },
            PlacementCase("onRequestCancel(on:)", expected) {
                let (promise, resolver) = StdPromise<Int>.makeWithResolver()
                resolver.onRequestCancel(on: ctx) { resolver in log.record("onRequestCancel(on:)"); resolver.cancel() }
                promise.requestCancel()
            },
            PlacementCase("propagatingCancellation(on:)", expected) {
                let (promise, resolver) = StdPromise<Int>.makeWithResolver()
                promise.propagatingCancellation(on: ctx) { _ in
                    log.record("propagatingCancellation(on:)"); resolver.cancel()
                }.requestCancel()
            },
            PlacementCase("retry(on:)", expected) {
                _ = retry(on: ctx, attempts: 1) { () -> StdPromise<Int> in
                    log.record("retry(on:)"); return StdPromise(fulfilled: 1)
                }
            },
        ]
    }

    /// Each way 1.x code holds a context in a value, from main-actor code: a stored
    /// property, a parameter with a default, `PromiseContext(qos:)`, a custom static member, a
    /// ternary and `.nowOr(value)`. Each closure runs on the context the value holds.
    func heldValueCases(_ log: PlacementLog) -> [PlacementCase] {
        let value = StdPromise<Int>(fulfilled: 1)
        let onQueue = PlacementExpectation.queue(PlacementQueues.queue)
        return [
            PlacementCase("stored property", .offMain) {
                _ = value.map(on: self.transformContext) { x in log.record("stored property"); return x }
            },
            PlacementCase("parameter with a default", onQueue) { self.load(value, log) },
            PlacementCase("PromiseContext(qos:)", .offMain) {
                _ = value.then(on: PromiseContext(qos: .utility)) { _ in log.record("PromiseContext(qos:)") }
            },
            PlacementCase("PromiseContext.placementSerial", onQueue) {
                _ = value.then(on: PromiseContext.placementSerial) { _ in log.record("PromiseContext.placementSerial") }
            },
            PlacementCase("ternary", onQueue) {
                _ = value.map(on: self.fast ? PromiseContext.immediate : .placementSerial) { x in log.record("ternary"); return x }
            },
            // `.immediate` from the ternary: synchronously, here on the main queue.
            PlacementCase("ternary, immediate", .main) {
                _ = value.map(on: !self.fast ? PromiseContext.immediate : .utility) { x in log.record("ternary, immediate"); return x }
            },
            PlacementCase(".nowOr(stored property)", .offMain) {
                placementPending { _ = $0.then(on: .nowOr(self.transformContext)) { _ in log.record(".nowOr(stored property)") } }
            },
            PlacementCase(".nowOr(PromiseContext.placementSerial)", onQueue) {
                placementPending { _ = $0.then(on: .nowOr(PromiseContext.placementSerial)) { _ in log.record(".nowOr(PromiseContext.placementSerial)") } }
            },
            PlacementCase("DelayedPromise(on: ternary)", onQueue) {
                _ = StdDelayedPromise<Int>(on: self.fast ? .immediate : PromiseContext.placementSerial) { resolver in
                    log.record("DelayedPromise(on: ternary)"); resolver.fulfill(with: 1)
                }.promise
            },
        ]
    }

    /// A parameter with a default, as 1.x services take their context.
    func load(_ value: StdPromise<Int>, on context: PromiseContext = .placementSerial, _ log: PlacementLog) {
        _ = value.then(on: context) { _ in log.record("parameter with a default") }
    }

    /// The contrast with no context, `.main` and the other contexts that name no executor:
    /// the closure touches main-actor state and runs on the main actor.
    func callerIsolatedCases(_ log: PlacementLog) -> [PlacementCase] {
        let value = StdPromise<Int>(fulfilled: 1)
        return [
            PlacementCase("then", .main) { _ = value.then { _ in self.mainState += 1; log.record("then") } },
            PlacementCase("map(on: .main)", .main) { _ = value.map(on: .main) { x in self.mainState += 1; log.record("map(on: .main)"); return x } },
            PlacementCase("then(on: .auto)", .main) { _ = value.then(on: .auto) { _ in self.mainState += 1; log.record("then(on: .auto)") } },
            PlacementCase("then(on: .immediate)", .main) {
                _ = value.then(on: .immediate) { _ in self.mainState += 1; log.record("then(on: .immediate)") }
            },
            PlacementCase("then(on: .nowOr(.main))", .main) {
                _ = value.then(on: .nowOr(.main)) { _ in self.mainState += 1; log.record("then(on: .nowOr(.main))") }
            },
            PlacementCase("withToken.then", .main) {
                _ = value.withToken(self.token).then { _ in self.mainState += 1; log.record("withToken.then") }
            },
            PlacementCase("Promise(on: .main)", .main) {
                _ = StdPromise<Int>(on: .main) { resolver in self.mainState += 1; log.record("Promise(on: .main)"); resolver.fulfill(with: 1) }
            },
            PlacementCase("StdPromise { async }", .main) {
                _ = StdPromise<Int> { () async throws -> Int in self.mainState += 1; log.record("StdPromise { async }"); return 1 }
            },
        ]
    }
}

// MARK: - Closures written in an actor

actor PlacementActor {
    var state = 0

    /// The actor runs on its own serial queue, tagged `actor`, so a closure that ran on the
    /// actor says so to `currentPlace()`: `.offMain` rejects it, `.queue(actor)` requires it.
    private static let queue: DispatchQueue = {
        let queue = DispatchQueue(label: PlacementQueues.actor)
        queue.setSpecific(key: placementKey, value: PlacementQueues.actor)
        return queue
    }()
    private let executor = PromiseContext.queue(PlacementActor.queue).serialExecutor!
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Registers, from this actor, closures given the named context `ctx` that touch no actor
    /// state; returns what the log must then hold.
    func registerNamed(_ ctx: PromiseContext.Named, expected: PlacementExpectation, _ log: PlacementLog) -> [PlacementRecordExpectation] {
        let (value, error, _) = placementPromises()
        let token = PromiseInvalidationToken(invalidateOnDeinit: false)
        return [
            PlacementCase("then", expected) { _ = value.then(on: ctx) { _ in log.record("then") } },
            PlacementCase("map", expected) { _ = value.map(on: ctx) { x in log.record("map"); return x } },
            PlacementCase("catch", expected) { _ = error.catch(on: ctx) { _ in log.record("catch") } },
            PlacementCase("always(token:)", expected) { _ = value.always(on: ctx, token: token) { _ in log.record("always(token:)") } },
            PlacementCase("token.map", expected) { _ = value.withToken(token).map(on: ctx) { x in log.record("token.map"); return x } },
            PlacementCase("Promise(on:)", expected) {
                _ = StdPromise<Int>(on: ctx) { resolver in log.record("Promise(on:)"); resolver.fulfill(with: 1) }
            },
            PlacementCase("DelayedPromise(on:)", expected) {
                _ = StdDelayedPromise<Int>(on: ctx) { resolver in log.record("DelayedPromise(on:)"); resolver.fulfill(with: 1) }.promise
            },
            PlacementCase("onRequestCancel(on:)", expected) {
                let (promise, resolver) = StdPromise<Int>.makeWithResolver()
                resolver.onRequestCancel(on: ctx) { resolver in log.record("onRequestCancel(on:)"); resolver.cancel() }
                promise.requestCancel()
            },
            PlacementCase("retry(on:)", expected) {
                _ = retry(on: ctx, attempts: 1) { () -> StdPromise<Int> in log.record("retry(on:)"); return StdPromise(fulfilled: 1) }
            },
            PlacementCase("Promise(on:operation:)", expected) {
                _ = StdPromise<Int>(on: ctx.context) { () async throws -> Int in log.record("Promise(on:operation:)"); return 1 }
            },
        ].runAll()
    }

    /// The contrast: the same kinds of closures with no context (or `.auto`), using `self`:
    /// isolated to this actor, and run on it. (`.main` with `self` does not compile here:
    /// its closure runs on the main actor; Tests/CompileFailures.)
    func registerUsingSelf(_ log: PlacementLog) -> [PlacementRecordExpectation] {
        let (value, error, _) = placementPromises()
        let onActor = PlacementExpectation.queue(PlacementQueues.actor)
        return [
            PlacementCase("then", onActor) { _ = value.then { _ in self.preconditionIsolated(); self.state += 1; log.record("then") } },
            PlacementCase("map(on: .auto)", onActor) {
                _ = value.map(on: .auto) { x in self.preconditionIsolated(); self.state += 1; log.record("map(on: .auto)"); return x }
            },
            PlacementCase("catch", onActor) { _ = error.catch { _ in self.preconditionIsolated(); self.state += 1; log.record("catch") } },
            PlacementCase("Promise(on: .immediate)", onActor) {
                _ = StdPromise<Int>(on: .immediate) { resolver in
                    self.preconditionIsolated(); self.state += 1; log.record("Promise(on: .immediate)"); resolver.fulfill(with: 1)
                }
            },
        ].runAll()
    }

    /// A context held in the actor's stored property, a parameter, a static member, a
    /// ternary and `.nowOr(value)`: the closures use `self` (which would make them isolated
    /// to this actor with no context or `.main`) but no actor state, and run on that context,
    /// never on the actor.
    func registerHeldValues(_ log: PlacementLog, on context: PromiseContext = .placementSerial) -> [PlacementRecordExpectation] {
        let (value, error, _) = placementPromises()
        let onQueue = PlacementExpectation.queue(PlacementQueues.queue)
        return [
            PlacementCase("stored property", .offMain) {
                _ = value.map(on: self.storedContext) { x in self.touch(); log.record("stored property"); return x }
            },
            PlacementCase("parameter with a default", onQueue) {
                _ = error.catch(on: context) { _ in self.touch(); log.record("parameter with a default") }
            },
            PlacementCase("PromiseContext(qos:)", .offMain) {
                _ = StdPromise<Int>(on: PromiseContext(qos: .userInitiated)) { resolver in
                    self.touch(); log.record("PromiseContext(qos:)"); resolver.fulfill(with: 1)
                }
            },
            PlacementCase("PromiseContext.placementSerial", onQueue) {
                _ = value.then(on: PromiseContext.placementSerial) { _ in self.touch(); log.record("PromiseContext.placementSerial") }
            },
            PlacementCase("ternary", onQueue) {
                _ = value.always(on: self.fast ? PromiseContext.immediate : .placementSerial) { _ in
                    self.touch(); log.record("ternary")
                }
            },
            PlacementCase(".nowOr(value)", onQueue) {
                placementPending { _ = $0.then(on: .nowOr(PromiseContext.placementSerial)) { _ in self.touch(); log.record(".nowOr(value)") } }
            },
            PlacementCase("retry(on: stored)", .offMain) {
                _ = retry(on: self.storedContext, attempts: 1) { () -> StdPromise<Int> in
                    self.touch(); log.record("retry(on: stored)"); return StdPromise(fulfilled: 1)
                }
            },
        ].runAll()
    }

    /// Uses `self` without touching actor state, so that a closure calling it would be
    /// isolated to this actor if its context kept the caller's actor.
    nonisolated func touch() {}

    /// A context held in a stored property of the actor.
    nonisolated let storedContext: PromiseContext = .utility
    /// Picks the second branch of the ternary.
    nonisolated let fast = false
}

// MARK: - Closures written in a class isolated to another global actor

/// A global actor of the tests' own, running on a serial queue tagged `globalActor`, as an app's
/// playback or database actor does.
@globalActor actor PlacementGlobalActor {
    static let shared = PlacementGlobalActor()

    private static let queue: DispatchQueue = {
        let queue = DispatchQueue(label: PlacementQueues.globalActor)
        queue.setSpecific(key: placementKey, value: PlacementQueues.globalActor)
        return queue
    }()
    private let executor = PromiseContext.queue(PlacementGlobalActor.queue).serialExecutor!
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
}

/// 1.x code moved into a class on `PlacementGlobalActor`: `.main` still means the main queue.
@PlacementGlobalActor final class GlobalActorPlacementClient {
    var state = 0
    let owner = PlacementOwner()
    let token = PromiseInvalidationToken(invalidateOnDeinit: false)
    let operations = OperationQueue()

    nonisolated init() {}

    /// Every API that takes a context and a closure, given `.main` or `.nowOr(.main)`: the closures
    /// touch no state of this actor, are isolated to the main actor and run on the main queue.
    func registerMain(_ ctx: PromiseContext.Main, token: PromiseInvalidationToken?, _ log: PlacementLog) -> [PlacementRecordExpectation] {
        let operations = self.operations
        return (mainOperatorCases(ctx, token: token, expected: .main, log) + [
            PlacementCase("Promise(on:)", .main) {
                _ = Promise<Int, PlacementError>(on: ctx) { resolver in log.record("Promise(on:)"); resolver.fulfill(with: 1) }
            },
            PlacementCase("Promise(on:) throwing", .main) {
                _ = StdPromise<Int>(on: ctx) { resolver in
                    log.record("Promise(on:) throwing")
                    try placementMayThrow()
                    resolver.fulfill(with: 1)
                }
            },
            PlacementCase("DelayedPromise(on:)", .main) {
                _ = DelayedPromise<Int, PlacementError>(on: ctx) { resolver in
                    log.record("DelayedPromise(on:)"); resolver.fulfill(with: 1)
                }.promise
            },
            PlacementCase("PromiseOperation(on:)", .main) {
                operations.addOperation(PromiseOperation<Int, PlacementError>(on: ctx) { resolver in
                    log.record("PromiseOperation(on:)"); resolver.fulfill(with: 1)
                })
            },
            PlacementCase("onRequestCancel(on:)", .main) {
                let (promise, resolver) = Promise<Int, PlacementError>.makeWithResolver()
                resolver.onRequestCancel(on: ctx) { resolver in log.record("onRequestCancel(on:)"); resolver.cancel() }
                promise.requestCancel()
            },
            PlacementCase("propagatingCancellation(on:)", .main) {
                let (promise, resolver) = Promise<Int, PlacementError>.makeWithResolver()
                promise.propagatingCancellation(on: ctx) { _ in
                    log.record("propagatingCancellation(on:)"); resolver.cancel()
                }.requestCancel()
            },
            PlacementCase("retry(on:)", records: 2, .main) {
                _ = retry(on: ctx, attempts: 2) { () -> StdPromise<Int> in
                    log.record("retry(on:)") == 1 ? StdPromise(rejected: PlacementError.failed) : StdPromise(fulfilled: 1)
                }
            },
            PlacementCase("retry(on:while:)", .main) {
                _ = retry(on: ctx, attempts: 2, while: { _ in log.record("retry(on:while:)"); return true }) { () -> StdPromise<Int> in
                    log.count(of: "retry(on:while:)") == 0 ? StdPromise(rejected: PlacementError.failed) : StdPromise(fulfilled: 1)
                }
            },
            // Held in a value of its own type: the same main-actor closure.
            PlacementCase("then(on: held PromiseContext.Main)", .main) {
                let held: PromiseContext.Main = ctx
                _ = StdPromise(fulfilled: 1).then(on: held) { _ in log.record("then(on: held PromiseContext.Main)") }
            },
        ]).runAll()
    }

    /// The contrast: no context, `.auto` and `.immediate` keep this actor, and may use its state.
    func registerCallerIsolated(_ log: PlacementLog) -> [PlacementRecordExpectation] {
        let value = StdPromise<Int>(fulfilled: 1)
        let onActor = PlacementExpectation.queue(PlacementQueues.globalActor)
        return [
            PlacementCase("then", onActor) { _ = value.then { _ in self.state += 1; log.record("then") } },
            PlacementCase("map(on: .auto)", onActor) { _ = value.map(on: .auto) { x in self.state += 1; log.record("map(on: .auto)"); return x } },
            PlacementCase("then(on: .immediate)", onActor) {
                _ = value.then(on: .immediate) { _ in self.state += 1; log.record("then(on: .immediate)") }
            },
            PlacementCase("Promise(on: .immediate)", onActor) {
                _ = StdPromise<Int>(on: .immediate) { resolver in self.state += 1; log.record("Promise(on: .immediate)"); resolver.fulfill(with: 1) }
            },
            PlacementCase("then(on: .utility)", .offMain) { _ = value.then(on: .utility) { _ in log.record("then(on: .utility)") } },
        ].runAll()
    }
}

extension PlacementActor {
    /// `.main` written in an actor: the closure (which uses no actor state) runs on the main
    /// queue, as in 1.x, not on the actor.
    func registerMain(_ log: PlacementLog) -> [PlacementRecordExpectation] {
        let (value, error, _) = placementPromises()
        return [
            PlacementCase("then(on: .main)", .main) { _ = value.then(on: .main) { _ in log.record("then(on: .main)") } },
            PlacementCase("catch(on: .nowOr(.main))", .main) { _ = error.catch(on: .nowOr(.main)) { _ in log.record("catch(on: .nowOr(.main))") } },
            PlacementCase("Promise(on: .main)", .main) {
                _ = StdPromise<Int>(on: .main) { resolver in log.record("Promise(on: .main)"); resolver.fulfill(with: 1) }
            },
        ].runAll()
    }
}

/// `.main` written in nonisolated code: on the main queue.
func registerMainFromNonisolatedCode(_ log: PlacementLog) -> [PlacementRecordExpectation] {
    let (value, _, cancelled) = placementPromises()
    return [
        PlacementCase("then(on: .main)", .main) { _ = value.then(on: .main) { _ in log.record("then(on: .main)") } },
        PlacementCase("onCancel(on: .nowOr(.main))", .main) { _ = cancelled.onCancel(on: .nowOr(.main)) { log.record("onCancel(on: .nowOr(.main))") } },
    ].runAll()
}

// MARK: - Tests

final class NamedContextPlacementTests: XCTestCase {
    override func setUp() {
        super.setUp()
        PlacementQueues.markMainQueue()
    }

    /// Registers cases (on the main actor or an actor), waits until every closure ran, and
    /// checks where each one ran.
    private func check(_ name: String, file: StaticString = #filePath, line: UInt = #line,
                       _ register: @escaping @Sendable @MainActor (PlacementLog) async -> [PlacementRecordExpectation]) {
        let log = PlacementLog()
        let expectations = PlacementBox<[PlacementRecordExpectation]>([])
        Task { @MainActor in
            let expected = await register(log)
            expectations.withLock { $0 = expected }
            log.expect(expected.count)
        }
        wait(for: [log.done], timeout: 30)
        let expected = expectations.withLock { $0 }
        let records = log.snapshot
        XCTAssertEqual(records.map { $0.label }.sorted(), expected.map { $0.label }.sorted(), "\(name): every closure ran once",
                       file: file, line: line)
        for record in records {
            guard let expectation = expected.first(where: { $0.label == record.label })?.expected else { continue }
            XCTAssertTrue(expectation.accepts(record.place), "\(name): \(record.label) ran on \(record.place), not \(expectation)",
                          file: file, line: line)
        }
    }

    /// The named contexts a table runs with, and where its closures must then run.
    private func namedContexts() -> [(String, PromiseContext.Named, PlacementExpectation)] {
        [
            ("utility", .utility, .offMain), ("background", .background, .offMain), ("default", .default, .offMain),
            ("userInitiated", .userInitiated, .offMain), ("userInteractive", .userInteractive, .offMain),
            ("queue(q)", .queue(PlacementQueues.makeQueue()), .queue(PlacementQueues.queue)),
            ("operationQueue(q)", .operationQueue(PlacementQueues.makeOperationQueue()), .queue(PlacementQueues.operations)),
        ]
    }

    /// Every API, written in a `@MainActor` class, with every named context (and with a
    /// token on the operators that take one): the closure runs on that context, never on the
    /// main queue.
    func testMainActorClosuresWithANamedContextRunOnIt() {
        let client = MainActor.assumeIsolated { MainActorPlacementClient() }
        for (name, ctx, expected) in namedContexts() {
            check(name) { log in client.namedCases(ctx, token: nil, expected: expected, log).runAll() }
        }
        let q = PlacementQueues.makeQueue()
        check("queue(q) with a token") { log in
            client.namedCases(.queue(q), token: client.token, expected: .queue(PlacementQueues.queue), log).runAll()
        }
    }

    /// Each named context spelled as users write it (`.utility`, `.queue(q)`, `.nowOr(…)`,
    /// `tryMap(on: .utility, { … })`, `StdPromise(on: .queue(q)) { async }`).
    func testMainActorClosuresWithNamedContextsSpelledOut() {
        let client = MainActor.assumeIsolated { MainActorPlacementClient() }
        let q = PlacementQueues.makeQueue(), oq = PlacementQueues.makeOperationQueue()
        check("spelled out") { log in client.namedContextsSpelledOut(queue: q, operationQueue: oq, log).runAll() }
    }

    /// A context held in a value (`PromiseContext.utility`, `.queue(q)`, even `.main`) runs a
    /// closure written in main-actor code where the value says, as in 1.x: nonisolated, like a
    /// named context.
    func testMainActorClosuresGivenAContextValueRunWhereItSays() {
        let client = MainActor.assumeIsolated { MainActorPlacementClient() }
        let values: [(String, PromiseContext, PlacementExpectation)] = [
            ("PromiseContext.utility", PromiseContext.utility, .offMain),
            ("PromiseContext.queue(q)", PromiseContext.queue(PlacementQueues.makeQueue()), .queue(PlacementQueues.queue)),
            ("PromiseContext.operationQueue(q)", PromiseContext.operationQueue(PlacementQueues.makeOperationQueue()),
             .queue(PlacementQueues.operations)),
            ("PromiseContext.main", PromiseContext.main, .main),
        ]
        for (name, ctx, expected) in values {
            check(name) { log in client.contextValueCases(ctx, expected: expected, log).runAll() }
        }
    }

    /// Every way of holding a context value, in main-actor code: each closure runs where the
    /// value says.
    func testMainActorClosuresGivenHeldContextValuesRunWhereTheySay() {
        let client = MainActor.assumeIsolated { MainActorPlacementClient() }
        check("held values") { log in client.heldValueCases(log).runAll() }
    }

    /// The contrast: no context, `.main`, `.auto`, `.immediate` and `.nowOr(.main)`, spelled at
    /// the call site, keep the main actor.
    func testMainActorClosuresWithoutAContextOfTheirOwnRunOnTheMainActor() {
        let client = MainActor.assumeIsolated { MainActorPlacementClient() }
        check("no context, .main, .auto, .immediate, .nowOr(.main)") { log in client.callerIsolatedCases(log).runAll() }
        MainActor.assumeIsolated { XCTAssertGreaterThan(client.mainState, 0) }
    }

    /// Written in an actor: with a named context the closure runs on it (never on the main
    /// queue; on `q` for `.queue(q)`); with no context and using `self`, on the actor.
    func testActorClosuresWithANamedContextRunOnItAndOthersOnTheActor() {
        let actor = PlacementActor()
        for (name, ctx, expected) in namedContexts() {
            check("actor, \(name)") { log in await actor.registerNamed(ctx, expected: expected, log) }
        }
        check("actor, using self") { log in await actor.registerUsingSelf(log) }
        check("actor, held values") { log in await actor.registerHeldValues(log) }
        check("actor, .main") { log in await actor.registerMain(log) }
    }

    /// `.main` and `.nowOr(.main)` mean the main queue in every isolation: every API, written in
    /// a class isolated to another global actor (with a token on the operators that take one),
    /// runs its closure on the main queue, not on that actor; with no context, `.auto` or
    /// `.immediate` the closure keeps that actor (and uses its state); written in nonisolated code,
    /// `.main` runs on the main queue too.
    func testMainIsTheMainQueueInAClassOnAnotherGlobalActor() {
        let client = GlobalActorPlacementClient()
        check("global actor, .main") { log in await client.registerMain(.main, token: nil, log) }
        check("global actor, .nowOr(.main)") { log in await client.registerMain(.nowOr(.main), token: nil, log) }
        check("global actor, .main with a token") { log in await client.registerMain(.main, token: client.token, log) }
        check("global actor, no context, .auto, .immediate") { log in await client.registerCallerIsolated(log) }
        check("nonisolated, .main") { log in await Task.detached { registerMainFromNonisolatedCode(log) }.value }
    }
}

/// A value shared with a Task, under a lock.
private final class PlacementBox<State>: @unchecked Sendable { // safe: `state` only under `lock`
    private let lock = NSLock()
    private var state: State
    init(_ state: State) { self.state = state }
    func withLock<R>(_ body: (inout State) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }
}
