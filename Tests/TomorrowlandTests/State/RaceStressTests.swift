// Stress: resolution, cancel requests, observer registration, keeper release and
// cancellation propagation racing on two threads. Every observer must be called exactly
// once, with the one winning result. Under the thread sanitizer each loop runs a tenth of its
// rounds (`reducedUnderThreadSanitizer`): the sanitizer reports an unordered pair of accesses
// whatever their timing, while the ordinary run keeps the rounds the outcome races need.

import Dispatch
import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class RaceStressTests: XCTestCase {
    typealias P = Promise<Int, String>

    private var racer: Racer!

    override func setUp() {
        super.setUp()
        racer = Racer()
    }

    override func tearDown() {
        let overlaps = racer.overlaps
        racer.stop()
        racer = nil
        // Not asserted: on a loaded machine the scheduler may run both threads on one core
        // for a whole test (measured: anywhere from 0 to 95% of rounds overlap). The
        // per-round assertions hold for every interleaving, so they stay meaningful.
        print("\(name): \(overlaps) rounds with both sides running at once")
        super.tearDown()
    }

    /// Runs `a` on this thread and `b` on the racer's thread, started together.
    private func race(_ a: () -> Void, _ b: @escaping @Sendable () -> Void) {
        racer.race(a, b)
    }

    func testStress_fulfillRejectCancelRequestCancelAndRegistrationRace() {
        let iterations = reducedUnderThreadSanitizer(10_000)
        let failures = Recorder<String>()
        for i in 0..<iterations {
            let (promise, resolver) = P.makeWithResolver()
            let seen = Recorder<String>()
            let record: @Sendable (String, PromiseResult<Int, String>) -> Void = { name, result in
                seen.append("\(name)=\(result)")
            }
            _ = promise.always(on: .immediate) { record("before", $0) }
            let mapped = promise.map(on: .immediate) { $0 + 1 }
            let handlerRuns = Counter()
            race({
                _ = promise.always(on: .immediate) { record("A", $0) }
                switch i % 4 {
                case 0: resolver.fulfill(with: i)
                case 1: resolver.reject(with: "r\(i)")
                case 2: resolver.cancel()
                default: resolver.resolve(with: P(fulfilled: i))
                }
            }, {
                promise.requestCancel()
                resolver.onRequestCancel(on: .immediate) { r in handlerRuns.increment(); r.reject(with: "handler") }
                _ = promise.always(on: .immediate) { record("B", $0) }
                if i % 3 == 0 { resolver.fulfill(with: -i) }
            })
            guard let result = promise.result else {
                failures.append("\(i): unresolved")
                continue
            }
            let expected = ["before", "A", "B"].map { "\($0)=\(result)" }
            if seen.values.sorted() != expected.sorted() {
                failures.append("\(i): observers saw \(seen.values), result \(result)")
            }
            let allowed: [PromiseResult<Int, String>] = [.value(i), .error("r\(i)"), .cancelled, .value(-i), .error("handler")]
            if !allowed.contains(result) { failures.append("\(i): impossible result \(result)") }
            if mapped.result != result.map({ $0 + 1 }) { failures.append("\(i): child got \(String(describing: mapped.result))") }
            if handlerRuns.value > 1 { failures.append("\(i): cancel handler ran \(handlerRuns.value) times") }
            if result == .error("handler") && handlerRuns.value != 1 { failures.append("\(i): handler result without handler") }
            if failures.count > 10 { break }
        }
        XCTAssertEqual(failures.values, [])
    }

    func testStress_droppedResolverRacesPipeResolution() {
        // Rule 1: the pipe keeps the target resolvable, so dropping the target's resolver
        // while the inner promise resolves must never cancel the target.
        let failures = Recorder<String>()
        for i in 0..<reducedUnderThreadSanitizer(5_000) {
            let (inner, innerResolver) = P.makeWithResolver()
            let target: P
            let holder = Slot<P.Resolver?>()
            do {
                let (t, r) = P.makeWithResolver()
                target = t
                r.resolve(with: inner)
                holder.value = r
            }
            let seen = Counter()
            _ = target.always(on: .immediate) { _ in seen.increment() }
            race({ innerResolver.fulfill(with: i) }, { holder.value = nil })
            if target.result != .value(i) { failures.append("\(i): target \(String(describing: target.result))") }
            if seen.value != 1 { failures.append("\(i): observer called \(seen.value) times") }
            if failures.count > 10 { break }
        }
        XCTAssertEqual(failures.values, [])
    }

    func testStress_lastKeeperRacesResolve() {
        // Two resolver copies: one fulfils, the other is dropped. Whatever the order, the
        // first resolution wins and observers see it once.
        let failures = Recorder<String>()
        for i in 0..<reducedUnderThreadSanitizer(5_000) {
            let a = Slot<P.Resolver?>(), b = Slot<P.Resolver?>()
            let promise: P
            do {
                let (p, r) = P.makeWithResolver()
                promise = p
                a.value = r
                b.value = r
            }
            let seen = Recorder<PromiseResult<Int, String>>()
            _ = promise.always(on: .immediate) { seen.append($0) }
            race({
                let r = a.value
                a.value = nil
                r?.fulfill(with: i)
            }, { b.value = nil })
            if promise.result != .value(i) { failures.append("\(i): \(String(describing: promise.result))") }
            if seen.values != [.value(i)] { failures.append("\(i): observer saw \(seen.values)") }
            if failures.count > 10 { break }
        }
        XCTAssertEqual(failures.values, [])
    }

    func testStress_cancelPropagationRacesChildrenAndHandles() {
        let failures = Recorder<String>()
        for i in 0..<reducedUnderThreadSanitizer(5_000) {
            let handlerRuns = Counter()
            let c1: P, c2: P
            let parentHolder = Slot<P?>()
            do {
                let (parent, r) = P.makeWithResolver()
                r.onRequestCancel(on: .immediate) { handlerRuns.increment(); $0.cancel() }
                c1 = parent.map(on: .immediate) { $0 }
                c2 = parent.then(on: .immediate) { _ in }
                parentHolder.value = parent
            }
            race({ c1.requestCancel() }, {
                c2.requestCancel()
                parentHolder.value = nil // the last handle goes concurrently
            })
            if handlerRuns.value != 1 { failures.append("\(i): handler ran \(handlerRuns.value) times") }
            if c1.result != .cancelled || c2.result != .cancelled {
                failures.append("\(i): children \(String(describing: c1.result)) \(String(describing: c2.result))")
            }
            if failures.count > 10 { break }
        }
        XCTAssertEqual(failures.values, [])
    }

    func testStress_tokenInvalidationRacesCallbacks() {
        let failures = Recorder<String>()
        let token = PromiseInvalidationToken()
        for i in 0..<reducedUnderThreadSanitizer(5_000) {
            let (promise, resolver) = P.makeWithResolver()
            let ran = Counter()
            let observer = promise.then(on: .immediate, token: token) { _ in ran.increment() }
            let transformer = promise.map(on: .immediate, token: token) { $0 + 1 }
            token.requestCancelOnInvalidate(transformer)
            race({ resolver.fulfill(with: i) }, { token.invalidate() })
            if observer.result != .value(i) { failures.append("\(i): observer \(String(describing: observer.result))") }
            let t = transformer.result
            if t != .value(i + 1) && t != .cancelled { failures.append("\(i): transformer \(String(describing: t))") }
            if ran.value > 1 { failures.append("\(i): ran twice") }
            if failures.count > 10 { break }
        }
        XCTAssertEqual(failures.values, [])
    }

    func testStress_pipeRacesCancelRequest() {
        // linkUpstream vs requestCancel: however they interleave, the cancel request on the
        // target reaches the inner promise exactly once (rule 27).
        let failures = Recorder<String>()
        for i in 0..<reducedUnderThreadSanitizer(5_000) {
            let requests = Counter()
            let innerHolder = Slot<P?>()
            do {
                let (inner, r) = P.makeWithResolver()
                r.onRequestCancel(on: .immediate) { _ in requests.increment() }
                innerHolder.value = inner
            }
            let (target, targetResolver) = P.makeWithResolver()
            race({
                targetResolver.resolve(with: innerHolder.value!)
                innerHolder.value = nil // the inner promise's last handle
            }, { target.requestCancel() })
            if requests.value != 1 { failures.append("\(i): inner asked \(requests.value) times") }
            if failures.count > 10 { break }
        }
        XCTAssertEqual(failures.values, [])
    }

    /// Rule 18: a pipe's upstream link stored while another thread resolves the target is
    /// dropped by one side or the other (resolution takes it, or the link sees the target
    /// resolved and drops it): however they interleave, the resolved target does not keep
    /// the inner promise alive, and the direct fulfilment wins.
    func testStress_pipeLinkRacesResolution() {
        let failures = Recorder<String>()
        for i in 0..<reducedUnderThreadSanitizer(5_000) {
            weak var weakInner: PromiseBox<Int, String>?
            let (target, targetResolver) = P.makeWithResolver()
            do {
                let (inner, innerResolver) = P.makeWithResolver()
                weakInner = inner._box
                let innerSlot = Slot<P?>()
                innerSlot.value = inner
                race({
                    targetResolver.resolve(with: innerSlot.value!)
                    innerSlot.value = nil
                }, { targetResolver.fulfill(with: i) })
                innerResolver.fulfill(with: -i) // too late: the target was fulfilled directly
            }
            let result = target.result
            if result != .value(i) { failures.append("\(i): target \(String(describing: result))") }
            if weakInner != nil { failures.append("\(i): the resolved target keeps the inner promise") }
            withExtendedLifetime(target) {}
            if failures.count > 10 { break }
        }
        XCTAssertEqual(failures.values, [])
    }

    /// The same race at the core, with the whole of `linkUpstream` against the whole of
    /// `publish` (a pipe checks the target's state first, which narrows the window): the link
    /// is taken by publish or dropped by the link, never left on the resolved promise.
    func testStress_linkUpstreamRacesPublish() {
        let failures = Recorder<String>()
        for i in 0..<reducedUnderThreadSanitizer(5_000) {
            weak var weakUp: PromiseBox<Int, String>?
            let (promise, resolver) = P.makeWithResolver()
            do {
                let up = PromiseBox<Int, String>()
                weakUp = up
                let box = promise._box
                race({ box.linkUpstream(up) }, { resolver.fulfill(with: i) })
                up.releaseKeeper() // cancels it: nothing else refers to it but a leftover link
            }
            if promise.result != .value(i) { failures.append("\(i): \(String(describing: promise.result))") }
            if weakUp != nil { failures.append("\(i): the resolved promise keeps its upstream") }
            withExtendedLifetime(promise) {}
            if failures.count > 10 { break }
        }
        XCTAssertEqual(failures.values, [])
    }

    func testStress_cancelHandlerRegistrationRacesRequest() {
        let failures = Recorder<String>()
        for i in 0..<reducedUnderThreadSanitizer(5_000) {
            let (promise, resolver) = P.makeWithResolver()
            let runs = Counter()
            race({ resolver.onRequestCancel(on: .immediate) { _ in runs.increment() } }, { promise.requestCancel() })
            if runs.value != 1 { failures.append("\(i): handler ran \(runs.value) times") }
            if failures.count > 10 { break }
        }
        XCTAssertEqual(failures.values, [])
    }

    /// Rules 3 and 4: a cancel handler registered while the promise is being cancelled or
    /// fulfilled runs at most once and is always released; afterwards `hasRequestedCancel`
    /// and late handlers agree with how the promise ended.
    func testStress_cancelHandlerRegistrationRacesCancellationAndFulfilment() {
        let failures = Recorder<String>()
        for i in 0..<reducedUnderThreadSanitizer(5_000) {
            let (promise, resolver) = P.makeWithResolver()
            let runs = Counter()
            let released = Counter()
            race({
                if i % 2 == 0 { resolver.cancel() } else { resolver.fulfill(with: i) }
            }, {
                promise.requestCancel()
                let spy = DeinitSpy { released.increment() }
                resolver.onRequestCancel(on: .immediate) { _ in spy.touch(); runs.increment() }
            })
            let cancelled = promise.result == .cancelled
            let late = Counter()
            resolver.onRequestCancel(on: .immediate) { _ in late.increment() }
            if runs.value > 1 { failures.append("\(i): racing handler ran \(runs.value) times") }
            if released.value != 1 { failures.append("\(i): racing handler released \(released.value) times") }
            if resolver.hasRequestedCancel != cancelled { failures.append("\(i): hasRequestedCancel \(resolver.hasRequestedCancel) for \(String(describing: promise.result))") }
            if late.value != (cancelled ? 1 : 0) { failures.append("\(i): late handler ran \(late.value) times for \(String(describing: promise.result))") }
            if failures.count > 10 { break }
        }
        XCTAssertEqual(failures.values, [])
    }

    /// Rule 19: resolutions made inside `.immediate` callbacks are queued on the
    /// resolving thread's delivery stack. Two threads resolve the same hand-forwarded chain
    /// from two points: every level resolves once, consistently, and every callback runs once.
    func testStress_handForwardedChainResolvedFromTwoThreads() {
        let failures = Recorder<String>()
        let levels = 20
        for i in 0..<reducedUnderThreadSanitizer(3_000) {
            let (root, rootResolver) = P.makeWithResolver()
            var promises = [root]
            var resolvers: [P.Resolver] = []
            let calls = Counter()
            for _ in 0..<levels {
                let (next, r) = P.makeWithResolver()
                _ = promises.last!.always(on: .immediate) { result in
                    calls.increment()
                    r.resolve(with: result)
                }
                promises.append(next)
                resolvers.append(r)
            }
            _ = promises.last!.always(on: .immediate) { _ in calls.increment() }
            let middle = resolvers[levels / 2]
            race({ rootResolver.fulfill(with: i) }, { middle.cancel() })
            let results = promises.map(\.result)
            let downstream = results[levels / 2 + 1]
            if results[...(levels / 2)].contains(where: { $0 != .value(i) }) {
                failures.append("\(i): upstream half \(results[...(levels / 2)])")
            }
            if downstream != .value(i) && downstream != .cancelled {
                failures.append("\(i): middle \(String(describing: downstream))")
            }
            if results[(levels / 2 + 1)...].contains(where: { $0 != downstream }) {
                failures.append("\(i): downstream half \(results[(levels / 2 + 1)...])")
            }
            if calls.value != levels + 1 { failures.append("\(i): \(calls.value) callbacks ran") }
            if failures.count > 10 { break }
        }
        XCTAssertEqual(failures.values, [])
    }

    /// Rule 19: cancel requests made by handlers are queued on the requesting
    /// thread's cancel stack. Two threads request cancel at two points of a chain whose
    /// handlers each ask the previous level: every handler runs exactly once.
    func testStress_handlerChainedCancelRequestsFromTwoThreads() {
        let failures = Recorder<String>()
        let levels = 100
        for i in 0..<reducedUnderThreadSanitizer(1_000) {
            let runs = (0...levels).map { _ in Counter() }
            let (root, rootResolver) = P.makeWithResolver()
            rootResolver.onRequestCancel(on: .immediate) { runs[0].increment(); $0.cancel() }
            var promises = [root]
            var resolvers = [rootResolver]
            for level in 1...levels {
                let (next, r) = P.makeWithResolver()
                let upstream = promises.last!
                r.onRequestCancel(on: .immediate) { resolver in
                    runs[level].increment()
                    upstream.requestCancel()
                    if level % 5 == 0 { resolver.cancel() }
                }
                promises.append(next)
                resolvers.append(r)
            }
            let leaf = promises[levels], middle = promises[levels / 2]
            race({ leaf.requestCancel() }, { middle.requestCancel() })
            let counts = runs.map(\.value)
            if counts != Array(repeating: 1, count: levels + 1) { failures.append("\(i): handler runs \(counts)") }
            if root.result != .cancelled { failures.append("\(i): root \(String(describing: root.result))") }
            withExtendedLifetime(resolvers) {}
            if failures.count > 10 { break }
        }
        XCTAssertEqual(failures.values, [])
    }
}
