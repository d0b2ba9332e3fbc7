// Contexts under XCTest (the test methods run on the main thread and main queue):
// rules 9–13, every `PromiseContext` case, equality and hashing.

import Dispatch
import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class ContextTests: XCTestCase {
    // MARK: Rule 9: .auto

    func testRule09_autoIsMainOnTheMainQueue() {
        XCTAssertEqual(PromiseContext.auto, .main)
        let off = Slot<PromiseContext?>()
        let done = expectation(description: "background")
        DispatchQueue.global().async {
            off.value = .auto
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(off.value, .default)
        let inMainBlock = Slot<PromiseContext?>()
        let mainDone = expectation(description: "main block")
        DispatchQueue.main.async {
            inMainBlock.value = .auto
            mainDone.fulfill()
        }
        wait(for: [mainDone], timeout: 10)
        XCTAssertEqual(inMainBlock.value, .main)
    }

    func testRule09_autoIsEvaluatedAtRegistration() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let ranOnMain = Slot<Bool?>()
        _ = promise.then { _ in ranOnMain.value = MainQueue.isCurrent } // registered on main: .main
        let fromBackground = Slot<Bool?>()
        let registered = expectation(description: "registered")
        DispatchQueue.global().async {
            _ = promise.then { _ in fromBackground.value = MainQueue.isCurrent } // .default
            registered.fulfill()
        }
        wait(for: [registered], timeout: 10)
        DispatchQueue.global().async { resolver.fulfill(with: 1) } // resolved off main
        waitUntil { ranOnMain.value != nil && fromBackground.value != nil }
        XCTAssertEqual(ranOnMain.value, true)
        XCTAssertEqual(fromBackground.value, false)
    }

    // MARK: Rule 10: .main FIFO

    func testRule10_mainCallbacksChainInSameTurnInOrderNeverNested() {
        let log = Recorder<String>()
        let (first, firstResolver) = Promise<Int, String>.makeWithResolver()
        let (second, secondResolver) = Promise<Int, String>.makeWithResolver()
        _ = first.then(on: .main) { _ in
            log.append("A begin")
            DispatchQueue.main.async { log.append("next turn") }
            secondResolver.fulfill(with: 2) // triggers B and C: queued, not nested
            log.append("A end")
        }
        _ = second.then(on: .main) { _ in log.append("B \(MainQueue.isCurrent)") }
        _ = second.then(on: .main) { _ in log.append("C") }
        firstResolver.fulfill(with: 1)
        XCTAssertEqual(log.values, [], ".main never runs synchronously")
        waitUntil { log.count == 5 }
        XCTAssertEqual(log.values, ["A begin", "A end", "B true", "C", "next turn"])
    }

    func testRule10_chainedMainCallbacksRunInOneTurn() {
        let log = Recorder<String>()
        let (root, resolver) = Promise<Int, String>.makeWithResolver()
        root.map(on: .main) { value -> Int in
            DispatchQueue.main.async { log.append("other") }
            log.append("map")
            return value + 1
        }.then(on: .main) { _ in log.append("then") }
            .always(on: .main) { _ in log.append("always") }
        resolver.fulfill(with: 0)
        waitUntil { log.count == 4 }
        XCTAssertEqual(log.values, ["map", "then", "always", "other"])
    }

    func testRule10_queueMainAlwaysDoesAFreshAsync() {
        let log = Recorder<String>()
        let resolved = Promise<Int, String>(fulfilled: 1)
        let (root, resolver) = Promise<Int, String>.makeWithResolver()
        _ = root.then(on: .main) { _ in
            DispatchQueue.main.async { log.append("async") }
            _ = resolved.then(on: .queue(.main)) { _ in log.append("queue(.main)") }
            _ = resolved.then(on: .main) { _ in log.append("main") }
        }
        resolver.fulfill(with: 0)
        waitUntil { log.count == 3 }
        XCTAssertEqual(log.values, ["main", "async", "queue(.main)"])
    }

    func testRule10_mainCallbacksAreFIFOAcrossRegistration() {
        let log = Recorder<Int>()
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        for i in 0..<50 { _ = promise.then(on: .main) { _ in log.append(i) } }
        resolver.fulfill(with: 0)
        waitUntil { log.count == 50 }
        XCTAssertEqual(log.values, Array(0..<50))
    }

    // MARK: Rule 11: .immediate

    func testRule11_immediateRunsOnResolvingThread() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let queue = TaggedQueue("core.resolver")
        let ranOnQueue = Slot<Bool?>()
        _ = promise.then(on: .immediate) { _ in ranOnQueue.value = queue.isCurrent }
        queue.queue.sync { resolver.fulfill(with: 1) }
        XCTAssertEqual(ranOnQueue.value, true)
    }

    func testRule11_immediateOnResolvedRunsOnRegisteringThread() {
        let promise = Promise<Int, String>(fulfilled: 1)
        let ran = Slot<Bool?>()
        _ = promise.then(on: .immediate) { _ in ran.value = MainQueue.isCurrent }
        XCTAssertEqual(ran.value, true, "ran synchronously during registration")
    }

    func testRule11_initOnImmediateRunsBeforeInitReturns() {
        let ran = Counter()
        let promise = Promise<Int, String>(on: .immediate) { resolver in
            ran.increment()
            resolver.fulfill(with: 1)
        }
        XCTAssertEqual(ran.value, 1)
        XCTAssertEqual(promise.result, .value(1))
    }

    // MARK: Rule 12: .nowOr

    func testRule12_nowOrIsSynchronousOnlyIfAlreadyResolved() {
        let resolved = Promise<Int, String>(fulfilled: 1)
        let sync = Slot<Bool?>()
        _ = resolved.then(on: .nowOr(.main)) { _ in sync.value = true }
        XCTAssertEqual(sync.value, true)

        let (pending, resolver) = Promise<Int, String>.makeWithResolver()
        let queue = TaggedQueue("core.nowOr")
        let onQueue = Slot<Bool?>()
        _ = pending.then(on: .nowOr(.queue(queue.queue))) { _ in onQueue.value = queue.isCurrent }
        resolver.fulfill(with: 2)
        waitUntil { onQueue.value != nil }
        XCTAssertEqual(onQueue.value, true, "not resolved at registration: runs on the wrapped context")
    }

    func testRule12_nowOrInInitIsSynchronous() {
        let ran = Slot<Bool?>()
        _ = Promise<Int, String>(on: .nowOr(.main)) { resolver in
            ran.value = PromiseContext.isExecutingNow
            resolver.fulfill(with: 1)
        }
        XCTAssertEqual(ran.value, true)
    }

    func testRule12_nowOrCancelHandlerSynchronousOnlyIfAlreadyRequested() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let queue = TaggedQueue("core.cancel")
        let later = Slot<Bool?>()
        resolver.onRequestCancel(on: .nowOr(.queue(queue.queue))) { _ in later.value = queue.isCurrent }
        promise.requestCancel()
        let now = Slot<Bool?>()
        resolver.onRequestCancel(on: .nowOr(.queue(queue.queue))) { _ in now.value = PromiseContext.isExecutingNow }
        XCTAssertEqual(now.value, true)
        waitUntil { later.value != nil }
        XCTAssertEqual(later.value, true)
    }

    // MARK: Rule 13: isExecutingNow

    func testRule13_isExecutingNowFalseByDefault() {
        XCTAssertFalse(PromiseContext.isExecutingNow)
        let resolved = Promise<Int, String>(fulfilled: 1)
        let flags = Recorder<Bool>()
        _ = resolved.then(on: .immediate) { _ in flags.append(PromiseContext.isExecutingNow) }
        _ = resolved.then(on: .main) { _ in flags.append(PromiseContext.isExecutingNow) }
        waitUntil { flags.count == 2 }
        XCTAssertEqual(flags.values, [false, false])
    }

    func testRule13_trueInsideSynchronousNowOr() {
        let resolved = Promise<Int, String>(fulfilled: 1)
        let flag = Slot<Bool?>()
        _ = resolved.then(on: .nowOr(.main)) { _ in flag.value = PromiseContext.isExecutingNow }
        XCTAssertEqual(flag.value, true)
        XCTAssertFalse(PromiseContext.isExecutingNow, "restored afterwards")
    }

    func testRule13_falseInsideAsynchronousNowOr() {
        let (pending, resolver) = Promise<Int, String>.makeWithResolver()
        let flag = Slot<Bool?>()
        _ = pending.then(on: .nowOr(.main)) { _ in flag.value = PromiseContext.isExecutingNow }
        resolver.fulfill(with: 1)
        waitUntil { flag.value != nil }
        XCTAssertEqual(flag.value, false)
    }

    func testRule13_synchronousImmediateInheritsCallersFlag() {
        let resolved = Promise<Int, String>(fulfilled: 1)
        let inherited = Slot<Bool?>()
        let initInherited = Slot<Bool?>()
        let after = Slot<Bool?>()
        _ = resolved.then(on: .nowOr(.main)) { _ in
            _ = resolved.then(on: .immediate) { _ in inherited.value = PromiseContext.isExecutingNow }
            _ = Promise<Int, String>(on: .immediate) { r in
                initInherited.value = PromiseContext.isExecutingNow
                r.fulfill(with: 0)
            }
            after.value = PromiseContext.isExecutingNow
        }
        XCTAssertEqual(inherited.value, true)
        XCTAssertEqual(initInherited.value, true)
        XCTAssertEqual(after.value, true)
    }

    func testRule13_immediateFiredByResolutionInsideNowOrSeesFalse() {
        let resolved = Promise<Int, String>(fulfilled: 1)
        let (pending, resolver) = Promise<Int, String>.makeWithResolver()
        let fired = Slot<Bool?>()
        let nowOrFired = Slot<Bool?>()
        _ = pending.then(on: .immediate) { _ in fired.value = PromiseContext.isExecutingNow }
        _ = pending.then(on: .nowOr(.immediate)) { _ in nowOrFired.value = PromiseContext.isExecutingNow }
        let outerAfter = Slot<Bool?>()
        _ = resolved.then(on: .nowOr(.main)) { _ in
            resolver.fulfill(with: 2)
            outerAfter.value = PromiseContext.isExecutingNow
        }
        XCTAssertEqual(fired.value, false)
        XCTAssertEqual(nowOrFired.value, false)
        XCTAssertEqual(outerAfter.value, true, "the outer value comes back")
    }

    /// Rule 13's "the outer value comes back": inside a synchronous `.nowOr` block, code that
    /// runs another block synchronously (a nested `.nowOr` init handler, an `.immediate`
    /// cancel handler run by a request, which sees `false`, a `.nowOr` callback on a resolved
    /// promise) leaves the flag `true` when it returns.
    func testRule13_theOuterValueComesBackAfterNestedSynchronousBlocks() {
        let seen = Recorder<String>()
        let (other, otherResolver) = Promise<Int, String>.makeWithResolver()
        otherResolver.onRequestCancel(on: .immediate) { _ in seen.append("cancel handler \(PromiseContext.isExecutingNow)") }
        _ = Promise<Int, String>(on: .nowOr(.utility)) { resolver in
            seen.append("outer \(PromiseContext.isExecutingNow)")
            _ = Promise<Int, String>(on: .nowOr(.utility)) { inner in
                seen.append("nested init \(PromiseContext.isExecutingNow)")
                inner.fulfill(with: 0)
            }
            seen.append("after nested init \(PromiseContext.isExecutingNow)")
            other.requestCancel()
            seen.append("after cancel request \(PromiseContext.isExecutingNow)")
            _ = Promise<Int, String>(fulfilled: 1).then(on: .nowOr(.utility)) { _ in
                seen.append("nested callback \(PromiseContext.isExecutingNow)")
            }
            seen.append("after nested callback \(PromiseContext.isExecutingNow)")
            resolver.fulfill(with: 1)
        }
        XCTAssertEqual(seen.values, [
            "outer true", "nested init true", "after nested init true", "cancel handler false", "after cancel request true",
            "nested callback true", "after nested callback true",
        ], "after each nested block the outer value comes back (rule 13)")
        withExtendedLifetime(otherResolver) {}
    }

    func testRule13_falseOnOtherThreadsEvenInsideMainSync() {
        let insideSync = Slot<Bool?>()
        let inside = Slot<Bool?>()
        let done = expectation(description: "background nowOr")
        DispatchQueue.global().async {
            _ = Promise<Int, String>(fulfilled: 1).then(on: .nowOr(.default)) { _ in
                inside.value = PromiseContext.isExecutingNow
                DispatchQueue.main.sync { insideSync.value = PromiseContext.isExecutingNow }
            }
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(inside.value, true)
        XCTAssertEqual(insideSync.value, false)
    }

    func testRule13_cancelHandlersSeeTheFlag() {
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let immediate = Slot<Bool?>()
        resolver.onRequestCancel(on: .immediate) { _ in immediate.value = PromiseContext.isExecutingNow }
        _ = Promise<Int, String>(fulfilled: 1).then(on: .nowOr(.main)) { _ in promise.requestCancel() }
        XCTAssertEqual(immediate.value, false, "fired by the request, not during registration")
    }

    // MARK: Every case runs where it says

    func testQueueAndOperationQueueContexts() {
        let queue = TaggedQueue("core.queue")
        let operationQueue = OperationQueue()
        operationQueue.maxConcurrentOperationCount = 1
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let onQueue = Slot<Bool?>()
        let onOperationQueue = Slot<Bool?>()
        _ = promise.then(on: .queue(queue.queue)) { _ in onQueue.value = queue.isCurrent }
        _ = promise.then(on: .operationQueue(operationQueue)) { _ in
            onOperationQueue.value = OperationQueue.current === operationQueue
        }
        resolver.fulfill(with: 1)
        waitUntil { onQueue.value != nil && onOperationQueue.value != nil }
        XCTAssertEqual(onQueue.value, true)
        XCTAssertEqual(onOperationQueue.value, true)
    }

    func testGlobalQoSContextsRunAsynchronouslyOffMain() {
        let contexts: [PromiseContext] = [.background, .utility, .default, .userInitiated, .userInteractive]
        let results = Recorder<Bool>()
        let promise = Promise<Int, String>(fulfilled: 1)
        for context in contexts {
            _ = promise.then(on: context) { _ in results.append(MainQueue.isCurrent) }
        }
        waitUntil { results.count == contexts.count }
        XCTAssertEqual(results.values, Array(repeating: false, count: contexts.count))
    }

    func testInitQoS() {
        XCTAssertEqual(PromiseContext(qos: .background), .background)
        XCTAssertEqual(PromiseContext(qos: .utility), .utility)
        XCTAssertEqual(PromiseContext(qos: .default), .default)
        XCTAssertEqual(PromiseContext(qos: .userInitiated), .userInitiated)
        XCTAssertEqual(PromiseContext(qos: .userInteractive), .userInteractive)
        XCTAssertEqual(PromiseContext(qos: .unspecified), .default)
    }

    func testEqualityAndHashing() {
        let q1 = DispatchQueue(label: "a"), q2 = DispatchQueue(label: "a")
        let o1 = OperationQueue(), o2 = OperationQueue()
        let all: [PromiseContext] = [.main, .background, .utility, .default, .userInitiated, .userInteractive,
                                     .queue(q1), .queue(q2), .operationQueue(o1), .operationQueue(o2),
                                     .immediate, .nowOr(.main), .nowOr(.queue(q1)), .nowOr(.nowOr(.main))]
        for (i, a) in all.enumerated() {
            for (j, b) in all.enumerated() {
                XCTAssertEqual(a == b, i == j, "\(a) vs \(b)")
            }
        }
        XCTAssertEqual(PromiseContext.queue(q1), .queue(q1))
        XCTAssertEqual(Set(all + all).count, all.count)
        XCTAssertEqual(PromiseContext.nowOr(.queue(q1)).hashValue, PromiseContext.nowOr(.queue(q1)).hashValue)
        XCTAssertNotEqual(PromiseContext.main, .queue(.main), ".main is not .queue(.main)")
    }
}
