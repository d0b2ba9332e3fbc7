import Dispatch
import Foundation
import XCTest
@testable import Tomorrowland

final class UtilitiesTimeTests: XCTestCase {
    // MARK: init(on:fulfilled:after:) and friends

    func testFulfilledAfterResolvesAfterTheDelay() {
        let start = utilNow()
        let promise = Promise<Int, UtilError>(on: .utility, fulfilled: 42, after: 0.05)
        XCTAssertEqual(utilAwait(promise), .value(42))
        XCTAssertGreaterThanOrEqual(utilNow() - start, 0.045)
    }

    func testRejectedAfterAndWithAfter() {
        let rejected = Promise<Int, UtilError>(on: .default, rejected: UtilError(1), after: 0.01)
        let result = Promise<Int, UtilError>(on: .userInitiated, with: .cancelled, after: 0.01)
        XCTAssertEqual(utilAwait(rejected), .error(UtilError(1)))
        XCTAssertEqual(utilAwait(result), .cancelled)
    }

    @available(*, deprecated)
    func testDeprecatedResultAfter() {
        let promise = Promise<Int, UtilError>(on: .utility, result: .value(3), after: 0.01)
        XCTAssertEqual(utilAwait(promise), .value(3))
    }

    func testZeroOrNegativeDelayWithImmediateOrNowOrIsAlreadyResolved() {
        XCTAssertEqual(Promise<Int, UtilError>(on: .immediate, fulfilled: 1, after: 0).result, .value(1))
        XCTAssertEqual(Promise<Int, UtilError>(on: .nowOr(.main), fulfilled: 2, after: -5).result, .value(2))
        XCTAssertEqual(Promise<Int, UtilError>(on: .immediate, rejected: UtilError(3), after: -1).result, .error(UtilError(3)))
    }

    func testNegativeDelayOnAQueueIsDispatchedAtOnce() {
        let queue = DispatchQueue(label: "util.negative")
        queue.setSpecific(key: utilQueueKey, value: "negative")
        let onQueue = UtilBox(false)
        queue.suspend() // so the callback below is registered before the timer's work runs
        let timer = Promise<Int, UtilError>(on: .queue(queue), fulfilled: 1, after: -10)
        let promise = timer.then(on: .immediate) { _ in onQueue.value = DispatchQueue.getSpecific(key: utilQueueKey) == "negative" }
        XCTAssertNil(timer.result, "dispatched, not synchronous")
        let start = utilNow()
        queue.resume()
        XCTAssertEqual(utilAwait(promise), .value(1))
        XCTAssertLessThan(utilNow() - start, 5)
        XCTAssertTrue(onQueue.value)
    }

    func testRequestCancelDuringAfterCancelsAtOnceAndDropsTheValue() {
        weak var weakValue: UtilObject?
        var promise: Promise<UtilObject, UtilError>!
        do {
            let value = UtilObject()
            weakValue = value
            promise = Promise(on: .utility, fulfilled: value, after: 30)
        }
        XCTAssertNotNil(weakValue, "the timer keeps the value until it fires")
        let start = utilNow()
        promise.requestCancel()
        XCTAssertEqual(promise.result?.isCancelled, true, "cancelled synchronously")
        XCTAssertNil(weakValue, "the stored value is released at once")
        XCTAssertLessThan(utilNow() - start, 1)
    }

    func testAfterTimerKeepsThePromiseResolvableWithoutHandles() {
        let fired = expectation(description: "fired")
        _ = Promise<Int, UtilError>(on: .utility, fulfilled: 5, after: 0.02).then(on: .immediate) { value in
            XCTAssertEqual(value, 5)
            fired.fulfill()
        }
        wait(for: [fired], timeout: 10)
    }

    func testAfterOnMainRunsOnTheMainQueue() {
        let onMain = UtilBox(false)
        let promise = Promise<Int, UtilError>(on: .main, fulfilled: 1, after: 0.01)
            .then(on: .immediate) { _ in onMain.value = MainQueue.isCurrent }
        XCTAssertEqual(utilAwait(promise), .value(1))
        XCTAssertTrue(onMain.value)
    }

    func testImmediateMeansAutoForTimers() {
        // Registered off the main queue, `.auto` is `.default`: not the calling thread.
        let done = expectation(description: "done")
        DispatchQueue.global().async {
            let promise = Promise<Int, UtilError>(on: .immediate, fulfilled: 1, after: 0.01)
            _ = promise.then(on: .immediate) { _ in
                XCTAssertFalse(MainQueue.isCurrent)
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
        // On the main queue `.immediate` means `.main`.
        let onMain = UtilBox(false)
        let timer = Promise<Int, UtilError>(on: .immediate, fulfilled: 1, after: 0.01)
        let promise = timer.then(on: .immediate) { _ in onMain.value = MainQueue.isCurrent }
        XCTAssertNil(timer.result, "not synchronous: it waits for the main queue, which this test holds")
        XCTAssertEqual(utilAwait(promise), .value(1))
        XCTAssertTrue(onMain.value)
    }

    // MARK: OperationQueue keeps its place in line (rule 24)

    func testOperationQueueTimerIsAddedAtOnceAndKeepsItsPlace() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let order = UtilBox<[String]>([])
        let timed = Promise<Int, UtilError>(on: .operationQueue(queue), fulfilled: 1, after: 0.05)
            .then(on: .immediate) { _ in order.append("timer") }
        XCTAssertEqual(queue.operationCount, 1, "the timer's operation is in the queue at once")
        queue.addOperation { order.append("A") }
        queue.isSuspended = false
        XCTAssertEqual(utilAwait(timed), .value(1))
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(order.value, ["A", "timer"], "a not-ready timer does not block ready work")
    }

    func testOperationQueueTimerRunsBeforeLaterWorkOnceReady() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let order = UtilBox<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        queue.addOperation { gate.wait() } // holds the queue while the timer fires
        let timed = Promise<Int, UtilError>(on: .operationQueue(queue), fulfilled: 1, after: 0.01)
            .then(on: .immediate) { _ in order.append("timer") }
        // The timer fires while the queue is busy.
        utilEventually { queue.operations.contains { $0 is TimerOperation && $0.isReady } }
        queue.addOperation { order.append("later") }
        gate.signal()
        XCTAssertEqual(utilAwait(timed), .value(1))
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(order.value, ["timer", "later"])
    }

    func testCancelledOperationQueueTimerLeavesTheQueue() {
        let queue = OperationQueue()
        let promise = Promise<Int, UtilError>(on: .operationQueue(queue), fulfilled: 1, after: 30)
        XCTAssertEqual(queue.operationCount, 1)
        promise.requestCancel()
        XCTAssertEqual(promise.result, .cancelled)
        utilEventually { queue.operationCount == 0 }
    }

    // MARK: delay (rule 23)

    func testDelayDelaysEachResult() {
        let start = utilNow()
        let value = Promise<Int, UtilError>(fulfilled: 1).delay(on: .utility, 0.05)
        let error = Promise<Int, UtilError>(rejected: UtilError(2)).delay(on: .utility, 0.05)
        let cancelled = Promise<Int, UtilError>(with: .cancelled).delay(on: .utility, 0.05)
        XCTAssertEqual(utilAwait(value), .value(1))
        XCTAssertEqual(utilAwait(error), .error(UtilError(2)))
        XCTAssertEqual(utilAwait(cancelled), .cancelled)
        XCTAssertGreaterThanOrEqual(utilNow() - start, 0.045)
    }

    func testDelayStartsWhenUpstreamResolves() {
        let (upstream, resolver) = Promise<Int, UtilError>.makeWithResolver()
        let delayed = upstream.delay(on: .utility, 0.05)
        Thread.sleep(forTimeInterval: 0.06)
        let start = utilNow()
        resolver.fulfill(with: 7)
        XCTAssertEqual(utilAwait(delayed), .value(7))
        XCTAssertGreaterThanOrEqual(utilNow() - start, 0.045)
    }

    func testDelayZeroWithImmediateIsSynchronous() {
        let (upstream, resolver) = Promise<Int, UtilError>.makeWithResolver()
        let delayed = upstream.delay(on: .immediate, 0)
        let negative = upstream.delay(on: .nowOr(.utility), -1)
        resolver.fulfill(with: 3)
        XCTAssertEqual(delayed.result, .value(3))
        XCTAssertEqual(negative.result, .value(3))
    }

    func testDelayCancelRequestDoesNotShortenAFulfilledDelay() {
        let start = utilNow()
        let delayed = Promise<Int, UtilError>(fulfilled: 1).delay(on: .utility, 0.1)
        delayed.requestCancel()
        XCTAssertEqual(utilAwait(delayed), .value(1))
        XCTAssertGreaterThanOrEqual(utilNow() - start, 0.09)
    }

    func testDelayCancelRequestCancelsACancelledResultAtOnce() {
        let delayed = Promise<Int, UtilError>(with: .cancelled).delay(on: .utility, 30)
        XCTAssertNil(delayed.result)
        delayed.requestCancel()
        XCTAssertEqual(delayed.result, .cancelled, "cancelled synchronously, without waiting 30 s")
    }

    func testDelayPassesCancelRequestsUpstream() {
        let (upstream, resolver) = Promise<Int, UtilError>.makeWithResolver()
        let asked = UtilBox(false)
        resolver.onRequestCancel(on: .immediate) { resolver in
            asked.value = true
            resolver.cancel()
        }
        var delayed: Promise<Int, UtilError>? = upstream.delay(on: .utility, 30)
        _ = upstream // the handle must be gone for propagation (rule 5)
        delayed!.requestCancel()
        XCTAssertFalse(asked.value, "upstream handle still alive")
        _ = delayed
        delayed = nil
        withExtendedLifetime(resolver) {}
    }

    func testDelayPropagatesOnceUpstreamHandleIsGone() {
        let asked = UtilBox(false)
        var delayed: Promise<Int, UtilError>!
        do {
            let upstream = utilCancellable(Int.self, asked: asked)
            delayed = upstream.delay(on: .utility, 30)
        }
        let start = utilNow()
        delayed.requestCancel()
        XCTAssertTrue(asked.value)
        XCTAssertEqual(delayed.result, .cancelled, "an upstream cancelled during the request cancels at once")
        XCTAssertLessThan(utilNow() - start, 1)
    }

    func testDelayOnOperationQueueAddsTheOperationWhenDelayIsCalled() {
        let queue = OperationQueue()
        queue.isSuspended = true
        let (upstream, resolver) = Promise<Int, UtilError>.makeWithResolver()
        let delayed = upstream.delay(on: .operationQueue(queue), 0.01)
        XCTAssertEqual(queue.operationCount, 1, "added at once, before the upstream resolves (rule 24)")
        resolver.fulfill(with: 1)
        XCTAssertEqual(queue.operationCount, 1, "the same operation, not a second one")
        queue.isSuspended = false
        XCTAssertEqual(utilAwait(delayed), .value(1))
        let resolved = Promise<Int, UtilError>(fulfilled: 2).delay(on: .operationQueue(queue), 0)
        XCTAssertEqual(utilAwait(resolved), .value(2))
    }

    func testDelayOnOperationQueueKeepsItsPlaceAheadOfLaterWork() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let order = UtilBox<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        queue.addOperation { gate.wait() } // holds the queue until the delay's timer has fired
        let (upstream, resolver) = Promise<Int, UtilError>.makeWithResolver()
        let delayed = upstream.delay(on: .operationQueue(queue), 0.01).then(on: .immediate) { _ in order.append("delay") }
        queue.addOperation { order.append("later") } // added after `delay` was called
        resolver.fulfill(with: 1)
        utilEventually { queue.operations.contains { $0 is TimerOperation && $0.isReady } }
        gate.signal()
        XCTAssertEqual(utilAwait(delayed), .value(1))
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(order.value, ["delay", "later"])
    }

    func testDelayOnOperationQueueLeavesTheQueueWhenACancelledResultIsCancelled() {
        let queue = OperationQueue()
        let delayed = Promise<Int, UtilError>(with: .cancelled).delay(on: .operationQueue(queue), 30)
        XCTAssertEqual(queue.operationCount, 1)
        delayed.requestCancel()
        XCTAssertEqual(delayed.result, .cancelled)
        utilEventually { queue.operationCount == 0 }
    }

    func testAReservedOperationLeavesTheQueueIfItsTimerIsNeverArmed() {
        let queue = OperationQueue()
        var reservation: TimerReservation? = ContextTimer().reservePlace(on: .operationQueue(queue))
        XCTAssertNotNil(reservation)
        XCTAssertEqual(queue.operationCount, 1)
        reservation = nil
        utilEventually { queue.operationCount == 0 }
    }

    func testDelayZeroOnNowOrOperationQueueAddsNoOperation() {
        let queue = OperationQueue()
        queue.isSuspended = true
        let delayed = Promise<Int, UtilError>(fulfilled: 1).delay(on: .nowOr(.operationQueue(queue)), 0)
        XCTAssertEqual(delayed.result, .value(1))
        XCTAssertEqual(queue.operationCount, 0, "passed through: no operation left behind in the queue")
    }

    // MARK: timeout (rule 22)

    func testTimeoutTimesOut() {
        let (upstream, resolver) = Promise<Int, UtilError>.makeWithResolver()
        let start = utilNow()
        let timed = upstream.timeout(on: .utility, delay: 0.05)
        XCTAssertEqual(utilAwait(timed), .error(.timedOut))
        XCTAssertGreaterThanOrEqual(utilNow() - start, 0.045)
        XCTAssertNil(upstream.result, "the receiver is not cancelled directly")
        withExtendedLifetime(resolver) {}
    }

    func testTimeoutPassesValuesAndWrapsErrors() {
        let value = Promise<Int, UtilError>(on: .utility, fulfilled: 1, after: 0.01).timeout(on: .utility, delay: 10)
        let error = Promise<Int, UtilError>(on: .utility, rejected: UtilError(4), after: 0.01).timeout(on: .utility, delay: 10)
        XCTAssertEqual(utilAwait(value), .value(1))
        XCTAssertEqual(utilAwait(error), .error(.rejected(UtilError(4))))
    }

    func testTimeoutDefaultContextGivesAResolvedPromiseForAResolvedReceiver() {
        XCTAssertEqual(Promise<Int, UtilError>(fulfilled: 1).timeout(delay: 10).result, .value(1))
        XCTAssertEqual(Promise<Int, UtilError>(rejected: UtilError(1)).timeout(delay: 10).result, .error(.rejected(UtilError(1))))
        XCTAssertEqual(Promise<Int, UtilError>(with: .cancelled).timeout(delay: 10).result, .cancelled)
    }

    func testTimeoutZeroDelayIsSynchronousForImmediateAndNowOr() {
        let (upstream, resolver) = Promise<Int, UtilError>.makeWithResolver()
        XCTAssertEqual(upstream.timeout(on: .immediate, delay: 0).result, .error(.timedOut))
        XCTAssertEqual(upstream.timeout(delay: -1).result, .error(.timedOut))
        XCTAssertEqual(upstream.timeout(on: .nowOr(.utility), delay: 0).result, .error(.timedOut))
        let dispatched = upstream.timeout(on: .utility, delay: 0)
        XCTAssertEqual(utilAwait(dispatched), .error(.timedOut))
        withExtendedLifetime(resolver) {}
    }

    func testTimeoutGivesUpItsObserverSlotSoTheReceiverCanAutoCancel() {
        let asked = UtilBox(false)
        var timed: Promise<Int, PromiseTimeoutError<UtilError>>!
        do {
            let upstream = utilCancellable(Int.self, asked: asked)
            timed = upstream.timeout(on: .immediate, delay: 0)
        }
        XCTAssertEqual(timed.result, .error(.timedOut), "the timeout wins, not the cancellation")
        XCTAssertTrue(asked.value, "the receiver's only observer gave up: it is asked to cancel")
    }

    func testTimeoutDoesNotCancelAReceiverWithOtherObservers() {
        let asked = UtilBox(false)
        var timed: Promise<Int, PromiseTimeoutError<UtilError>>!
        var other: Promise<Int, UtilError>!
        do {
            let upstream = utilCancellable(Int.self, asked: asked, cancels: false)
            other = upstream.then(on: .immediate) { _ in }
            timed = upstream.timeout(on: .immediate, delay: 0)
        }
        XCTAssertEqual(timed.result, .error(.timedOut))
        XCTAssertFalse(asked.value)
        other.requestCancel()
        XCTAssertTrue(asked.value, "the other observer's request completes the vote")
    }

    func testTimeoutCancelRequestPropagatesUpstream() {
        let asked = UtilBox(false)
        var timed: Promise<Int, PromiseTimeoutError<UtilError>>!
        do {
            let upstream = utilCancellable(Int.self, asked: asked)
            timed = upstream.timeout(on: .utility, delay: 30)
        }
        timed.requestCancel()
        XCTAssertTrue(asked.value)
        XCTAssertEqual(utilAwait(timed), .cancelled)
    }

    func testTimeoutTimerDoesNotKeepAResolvedPromiseAlive() {
        weak var weakValue: UtilObject?
        do {
            let value = UtilObject()
            weakValue = value
            let timed = Promise<UtilObject, UtilError>(fulfilled: value).timeout(on: .immediate, delay: 30)
            XCTAssertTrue(timed.result?.value === value)
        }
        XCTAssertNil(weakValue, "the resolved result is not held by a pending 30 s timer")
    }

    func testStdTimeoutOverloadPassesErrorsThrough() {
        let (upstream, resolver) = Promise<Int, Swift.Error>.makeWithResolver()
        let timed = upstream.timeout(on: .immediate, delay: 30)
        XCTAssertTrue(type(of: timed) == Promise<Int, Swift.Error>.self, "the Swift.Error overload wins")
        resolver.reject(with: UtilError(9))
        XCTAssertEqual(timed.result?.error as? UtilError, UtilError(9), "passed through unchanged")

        let never = StdPromise<Int>(on: .immediate) { resolver in resolver.onRequestCancel(on: .immediate) { _ in } }
        let timedOut = never.timeout(delay: 0)
        guard case .error(let error)? = timedOut.result, case PromiseTimeoutError<Swift.Error>.timedOut = error else {
            return XCTFail("expected PromiseTimeoutError<Swift.Error>.timedOut, got \(String(describing: timedOut.result))")
        }
    }

    /// Rule 22: a receiver that resolves first disarms the timeout on the resolving thread,
    /// before the hop. Each round holds the queue so that the zero-delay timeout's work is
    /// already queued when the receiver is cancelled; it must not win.
    func testTimeoutWorkAlreadyQueuedLosesToAReceiverThatCancelledFirst() {
        let queue = DispatchQueue(label: "util.timeout.race")
        let failures = UtilBox<[String]>([])
        for round in 0..<2_000 {
            let gate = DispatchSemaphore(value: 0)
            queue.async { gate.wait() }
            let asked = UtilBox(false)
            let receiver = utilCancellable(Int.self, asked: asked)
            let stdReceiver = StdPromise<Int>(on: .immediate) { resolver in
                resolver.onRequestCancel(on: .immediate) { $0.cancel() }
            }
            let timed = receiver.timeout(on: .queue(queue), delay: 0)
            let stdTimed = stdReceiver.timeout(on: .queue(queue), delay: 0)
            receiver.requestCancel()
            stdReceiver.requestCancel()
            gate.signal()
            let result = utilAwait(timed)
            let stdResult = utilAwait(stdTimed)
            if result != .cancelled || stdResult?.isCancelled != true {
                failures.mutate { $0.append("round \(round): \(String(describing: result)), \(String(describing: stdResult))") }
                if failures.value.count >= 5 { break }
            }
        }
        XCTAssertEqual(failures.value, [])
    }

    /// Rule 22 with a delay: the timer fires (its operation is ready at the head of the
    /// serial queue) just after the receiver resolved; the receiver's result wins.
    func testTimeoutFiringJustAfterTheReceiverResolvedLosesToIt() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let failures = UtilBox<[String]>([])
        for round in 0..<20 {
            let gate = DispatchSemaphore(value: 0)
            queue.addOperation { gate.wait() }
            let (receiver, resolver) = Promise<Int, UtilError>.makeWithResolver()
            let (stdReceiver, stdResolver) = StdPromise<Int>.makeWithResolver()
            let timed = receiver.timeout(on: .operationQueue(queue), delay: 0.002)
            let stdTimed = stdReceiver.timeout(on: .operationQueue(queue), delay: 0.002)
            resolver.fulfill(with: round)
            stdResolver.reject(with: UtilError(round))
            Thread.sleep(forTimeInterval: 0.005) // the timers' due time passes while the queue is held
            gate.signal()
            let result = utilAwait(timed)
            let stdResult = utilAwait(stdTimed)
            if result != .value(round) || stdResult?.error as? UtilError != UtilError(round) {
                failures.mutate { $0.append("round \(round): \(String(describing: result)), \(String(describing: stdResult))") }
                if failures.value.count >= 5 { break }
            }
        }
        XCTAssertEqual(failures.value, [])
    }

    func testTimeoutOnOperationQueueAddsTheOperationAtOnce() {
        let queue = OperationQueue()
        queue.isSuspended = true
        let (upstream, resolver) = Promise<Int, UtilError>.makeWithResolver()
        let timed = upstream.timeout(on: .operationQueue(queue), delay: 0.01)
        XCTAssertEqual(queue.operationCount, 1)
        queue.isSuspended = false
        XCTAssertEqual(utilAwait(timed), .error(.timedOut))
        withExtendedLifetime(resolver) {}
    }

    // MARK: PromiseTimeoutError (rule 30)

    func testTimeoutErrorUserInfo() {
        let timedOut = PromiseTimeoutError<UtilError>.timedOut.errorUserInfo
        XCTAssertEqual(timedOut[NSLocalizedFailureReasonErrorKey] as? String, "The operation timed out.")
        let rejected = PromiseTimeoutError<UtilError>.rejected(UtilError(3)).errorUserInfo
        XCTAssertNotNil(rejected[NSLocalizedDescriptionKey] as? String)
        XCTAssertNotNil(rejected[NSUnderlyingErrorKey])
        let string = PromiseTimeoutError<String>.rejected("boom").errorUserInfo
        XCTAssertEqual(string[NSLocalizedFailureReasonErrorKey] as? String, "boom")
        XCTAssertNil(string[NSUnderlyingErrorKey])
    }

    func testTimeoutErrorEquatableAndHashable() {
        XCTAssertEqual(PromiseTimeoutError<UtilError>.timedOut, .timedOut)
        XCTAssertEqual(PromiseTimeoutError<UtilError>.rejected(UtilError(1)), .rejected(UtilError(1)))
        XCTAssertNotEqual(PromiseTimeoutError<UtilError>.rejected(UtilError(1)), .rejected(UtilError(2)))
        XCTAssertTrue(PromiseTimeoutError<UtilError>.timedOut != .rejected(UtilError(1)))
        let set: Set<PromiseTimeoutError<UtilError>> = [.timedOut, .timedOut, .rejected(UtilError(1))]
        XCTAssertEqual(set.count, 2)
    }
}

let utilQueueKey = DispatchSpecificKey<String>()
