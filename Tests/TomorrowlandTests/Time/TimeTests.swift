import Dispatch
import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class UtilitiesTimeTests: XCTestCase {
    // MARK: init(on:fulfilled:after:) and friends

    func testFulfilledAfterResolvesAfterTheDelay() {
        let start = monotonicNow()
        let promise = Promise<Int, TestError>(on: .utility, fulfilled: 42, after: 0.05)
        XCTAssertEqual(waitForResult(promise), .value(42))
        XCTAssertGreaterThanOrEqual(monotonicNow() - start, 0.045)
    }

    func testRejectedAfterAndWithAfter() {
        let rejected = Promise<Int, TestError>(on: .default, rejected: TestError(1), after: 0.01)
        let result = Promise<Int, TestError>(on: .userInitiated, with: .cancelled, after: 0.01)
        XCTAssertEqual(waitForResult(rejected), .error(TestError(1)))
        XCTAssertEqual(waitForResult(result), .cancelled)
    }

    @available(*, deprecated)
    func testDeprecatedResultAfter() {
        let promise = Promise<Int, TestError>(on: .utility, result: .value(3), after: 0.01)
        XCTAssertEqual(waitForResult(promise), .value(3))
    }

    func testRule24_zeroDelayTimerWithImmediateIsDispatchedOnAuto() {
        // `.immediate` means `.auto` (here `.main`) for init(after:), also with a delay <= 0:
        // the result is dispatched, never there before the initializer returns.
        XCTAssertTrue(MainQueue.isCurrent)
        let fulfilled = Promise<Int, TestError>(on: .immediate, fulfilled: 1, after: 0)
        let rejected = Promise<Int, TestError>(on: .immediate, rejected: TestError(3), after: -1)
        XCTAssertNil(fulfilled.result)
        XCTAssertNil(rejected.result)
        let onMain = Slot(false)
        fulfilled.tap(on: .immediate) { _ in onMain.value = MainQueue.isCurrent }
        XCTAssertEqual(waitForResult(fulfilled), .value(1))
        XCTAssertEqual(waitForResult(rejected), .error(TestError(3)))
        XCTAssertTrue(onMain.value)
    }

    func testRule12_zeroDelayTimerWithNowOrIsDispatchedOnItsContext() {
        // `.nowOr(c)` means plain `c` for init(after:) and delay, also with a delay <= 0.
        let timer = Promise<Int, TestError>(on: .nowOr(.main), fulfilled: 2, after: -5)
        let delayed = Promise<Int, TestError>(fulfilled: 4).delay(on: .nowOr(.main), 0)
        XCTAssertNil(timer.result)
        XCTAssertNil(delayed.result)
        XCTAssertEqual(waitForResult(timer), .value(2))
        XCTAssertEqual(waitForResult(delayed), .value(4))
    }

    func testNegativeDelayOnAQueueIsDispatchedAtOnce() {
        let queue = DispatchQueue(label: "util.negative")
        queue.setSpecific(key: queueNameKey, value: "negative")
        let onQueue = Slot(false)
        queue.suspend() // so the callback below is registered before the timer's work runs
        let timer = Promise<Int, TestError>(on: .queue(queue), fulfilled: 1, after: -10)
        let promise = timer.then(on: .immediate) { _ in onQueue.value = DispatchQueue.getSpecific(key: queueNameKey) == "negative" }
        XCTAssertNil(timer.result, "dispatched, not synchronous")
        let start = monotonicNow()
        queue.resume()
        XCTAssertEqual(waitForResult(promise), .value(1))
        XCTAssertLessThan(monotonicNow() - start, 5)
        XCTAssertTrue(onQueue.value)
    }

    func testRequestCancelDuringAfterCancelsAtOnceAndDropsTheValue() {
        weak var weakValue: TestObject?
        var promise: Promise<TestObject, TestError>!
        do {
            let value = TestObject()
            weakValue = value
            promise = Promise(on: .utility, fulfilled: value, after: 30)
        }
        XCTAssertNotNil(weakValue, "the timer keeps the value until it fires")
        let start = monotonicNow()
        promise.requestCancel()
        XCTAssertEqual(promise.result?.isCancelled, true, "cancelled synchronously")
        XCTAssertNil(weakValue, "the stored value is released at once")
        XCTAssertLessThan(monotonicNow() - start, 1)
    }

    func testAfterTimerKeepsThePromiseResolvableWithoutHandles() {
        let fired = expectation(description: "fired")
        _ = Promise<Int, TestError>(on: .utility, fulfilled: 5, after: 0.02).then(on: .immediate) { value in
            XCTAssertEqual(value, 5)
            fired.fulfill()
        }
        wait(for: [fired], timeout: 10)
    }

    func testAfterOnMainRunsOnTheMainQueue() {
        let onMain = Slot(false)
        let promise = Promise<Int, TestError>(on: .main, fulfilled: 1, after: 0.01)
            .then(on: .immediate) { _ in onMain.value = MainQueue.isCurrent }
        XCTAssertEqual(waitForResult(promise), .value(1))
        XCTAssertTrue(onMain.value)
    }

    func testImmediateMeansAutoForTimers() {
        // Registered off the main queue, `.auto` is `.default`: not the calling thread.
        let done = expectation(description: "done")
        DispatchQueue.global().async {
            let promise = Promise<Int, TestError>(on: .immediate, fulfilled: 1, after: 0.01)
            _ = promise.then(on: .immediate) { _ in
                XCTAssertFalse(MainQueue.isCurrent)
                done.fulfill()
            }
        }
        wait(for: [done], timeout: 10)
        // On the main queue `.immediate` means `.main`.
        let onMain = Slot(false)
        let timer = Promise<Int, TestError>(on: .immediate, fulfilled: 1, after: 0.01)
        let promise = timer.then(on: .immediate) { _ in onMain.value = MainQueue.isCurrent }
        XCTAssertNil(timer.result, "not synchronous: it waits for the main queue, which this test holds")
        XCTAssertEqual(waitForResult(promise), .value(1))
        XCTAssertTrue(onMain.value)
    }

    // MARK: OperationQueue keeps its place in line (rule 24)

    func testOperationQueueTimerIsAddedAtOnceAndKeepsItsPlace() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let order = Recorder<String>()
        let timed = Promise<Int, TestError>(on: .operationQueue(queue), fulfilled: 1, after: 0.05)
            .then(on: .immediate) { _ in order.append("timer") }
        XCTAssertEqual(queue.operationCount, 1, "the timer's operation is in the queue at once")
        queue.addOperation { order.append("A") }
        queue.isSuspended = false
        XCTAssertEqual(waitForResult(timed), .value(1))
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(order.values, ["A", "timer"], "a not-ready timer does not block ready work")
    }

    func testOperationQueueTimerRunsBeforeLaterWorkOnceReady() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let order = Recorder<String>()
        let gate = DispatchSemaphore(value: 0)
        queue.addOperation { gate.wait() } // holds the queue while the timer fires
        let timed = Promise<Int, TestError>(on: .operationQueue(queue), fulfilled: 1, after: 0.01)
            .then(on: .immediate) { _ in order.append("timer") }
        // The timer fires while the queue is busy.
        waitUntil { queue.operations.contains { $0 is TimerOperation && $0.isReady } }
        queue.addOperation { order.append("later") }
        gate.signal()
        XCTAssertEqual(waitForResult(timed), .value(1))
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(order.values, ["timer", "later"])
    }

    func testCancelledOperationQueueTimerLeavesTheQueue() {
        let queue = OperationQueue()
        let promise = Promise<Int, TestError>(on: .operationQueue(queue), fulfilled: 1, after: 30)
        XCTAssertEqual(queue.operationCount, 1)
        promise.requestCancel()
        XCTAssertEqual(promise.result, .cancelled)
        waitUntil { queue.operationCount == 0 }
    }

    // MARK: NaN and infinite delays: never fire, as `DispatchTime.now() + delay` in 1.4

    func testNaNAndInfiniteDelaysNeverFireAndStayCancellable() {
        for delay in [TimeInterval.nan, .infinity] {
            for context in [PromiseContext.utility, .queue(DispatchQueue(label: "t")), .immediate, .nowOr(.utility)] {
                let after = Promise<Int, TestError>(on: context, fulfilled: 1, after: delay)
                let delayed = Promise<Int, TestError>(fulfilled: 2).delay(on: context, delay)
                let (upstream, resolver) = Promise<Int, TestError>.makeWithResolver()
                let timedOut = upstream.timeout(on: context, delay: delay)
                settle(0.2)
                XCTAssertNil(after.result, "init(after: \(delay)) on \(context)")
                XCTAssertNil(delayed.result, "delay(\(delay)) on \(context)")
                XCTAssertNil(timedOut.result, "timeout(delay: \(delay)) on \(context)")
                // The timer is still cancellable, and the receiver still decides the timeout.
                after.requestCancel()
                XCTAssertEqual(after.result, .cancelled)
                resolver.fulfill(with: 3)
                XCTAssertEqual(waitForResult(timedOut), .value(3))
            }
        }
    }

    func testNaNDelayOnOperationQueueNeverBecomesReadyAndLeavesTheQueueWhenCancelled() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let promise = Promise<Int, TestError>(on: .operationQueue(queue), fulfilled: 1, after: .nan)
        settle(0.2)
        XCTAssertNil(promise.result)
        XCTAssertEqual(queue.operationCount, 1)
        promise.requestCancel()
        XCTAssertEqual(promise.result, .cancelled)
        waitUntil { queue.operationCount == 0 }
    }

    // MARK: delay (rule 23)

    func testDelayDelaysEachResult() {
        let start = monotonicNow()
        let value = Promise<Int, TestError>(fulfilled: 1).delay(on: .utility, 0.05)
        let error = Promise<Int, TestError>(rejected: TestError(2)).delay(on: .utility, 0.05)
        let cancelled = Promise<Int, TestError>(with: .cancelled).delay(on: .utility, 0.05)
        XCTAssertEqual(waitForResult(value), .value(1))
        XCTAssertEqual(waitForResult(error), .error(TestError(2)))
        XCTAssertEqual(waitForResult(cancelled), .cancelled)
        XCTAssertGreaterThanOrEqual(monotonicNow() - start, 0.045)
    }

    func testDelayStartsWhenUpstreamResolves() {
        let (upstream, resolver) = Promise<Int, TestError>.makeWithResolver()
        let delayed = upstream.delay(on: .utility, 0.05)
        // Time passing is what this test is about, so it cannot be a gate: a delay counted
        // from creation would be over after this sleep. A slow machine only sleeps longer,
        // which makes that wrong delay more visible, never the check flaky.
        Thread.sleep(forTimeInterval: 0.06)
        let start = monotonicNow()
        resolver.fulfill(with: 7)
        XCTAssertEqual(waitForResult(delayed), .value(7))
        XCTAssertGreaterThanOrEqual(monotonicNow() - start, 0.045)
    }

    func testRule24_delayZeroWithImmediateIsDispatchedOnAuto() {
        XCTAssertTrue(MainQueue.isCurrent)
        let (upstream, resolver) = Promise<Int, TestError>.makeWithResolver()
        let delayed = upstream.delay(on: .immediate, 0)
        let negative = upstream.delay(on: .nowOr(.main), -1)
        resolver.fulfill(with: 3)
        XCTAssertNil(delayed.result, "`.immediate` means `.auto` (`.main` here): dispatched, not synchronous")
        XCTAssertNil(negative.result, "`.nowOr(.main)` means `.main`")
        XCTAssertEqual(waitForResult(delayed), .value(3))
        XCTAssertEqual(waitForResult(negative), .value(3))
    }

    func testDelayCancelRequestDoesNotShortenAFulfilledDelay() {
        let start = monotonicNow()
        let delayed = Promise<Int, TestError>(fulfilled: 1).delay(on: .utility, 0.1)
        delayed.requestCancel()
        XCTAssertEqual(waitForResult(delayed), .value(1))
        XCTAssertGreaterThanOrEqual(monotonicNow() - start, 0.09)
    }

    func testDelayCancelRequestCancelsACancelledResultAtOnce() {
        let delayed = Promise<Int, TestError>(with: .cancelled).delay(on: .utility, 30)
        XCTAssertNil(delayed.result)
        delayed.requestCancel()
        XCTAssertEqual(delayed.result, .cancelled, "cancelled synchronously, without waiting 30 s")
    }

    func testDelayPassesCancelRequestsUpstream() {
        let (upstream, resolver) = Promise<Int, TestError>.makeWithResolver()
        let asked = Slot(false)
        resolver.onRequestCancel(on: .immediate) { resolver in
            asked.value = true
            resolver.cancel()
        }
        var delayed: Promise<Int, TestError>? = upstream.delay(on: .utility, 30)
        _ = upstream // the handle must be gone for propagation (rule 5)
        delayed!.requestCancel()
        XCTAssertFalse(asked.value, "upstream handle still alive")
        _ = delayed
        delayed = nil
        withExtendedLifetime(resolver) {}
    }

    func testDelayPropagatesOnceUpstreamHandleIsGone() {
        let asked = Slot(false)
        var delayed: Promise<Int, TestError>!
        do {
            let upstream = cancellablePromise(Int.self, asked: asked)
            delayed = upstream.delay(on: .utility, 30)
        }
        let start = monotonicNow()
        delayed.requestCancel()
        XCTAssertTrue(asked.value)
        XCTAssertEqual(delayed.result, .cancelled, "an upstream cancelled during the request cancels at once")
        XCTAssertLessThan(monotonicNow() - start, 1)
    }

    func testDelayOnOperationQueueAddsTheOperationWhenDelayIsCalled() {
        let queue = OperationQueue()
        queue.isSuspended = true
        let (upstream, resolver) = Promise<Int, TestError>.makeWithResolver()
        let delayed = upstream.delay(on: .operationQueue(queue), 0.01)
        XCTAssertEqual(queue.operationCount, 1, "added at once, before the upstream resolves (rule 24)")
        resolver.fulfill(with: 1)
        XCTAssertEqual(queue.operationCount, 1, "the same operation, not a second one")
        queue.isSuspended = false
        XCTAssertEqual(waitForResult(delayed), .value(1))
        let resolved = Promise<Int, TestError>(fulfilled: 2).delay(on: .operationQueue(queue), 0)
        XCTAssertEqual(waitForResult(resolved), .value(2))
    }

    func testDelayOnOperationQueueKeepsItsPlaceAheadOfLaterWork() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let order = Recorder<String>()
        let gate = DispatchSemaphore(value: 0)
        queue.addOperation { gate.wait() } // holds the queue until the delay's timer has fired
        let (upstream, resolver) = Promise<Int, TestError>.makeWithResolver()
        let delayed = upstream.delay(on: .operationQueue(queue), 0.01).then(on: .immediate) { _ in order.append("delay") }
        queue.addOperation { order.append("later") } // added after `delay` was called
        resolver.fulfill(with: 1)
        waitUntil { queue.operations.contains { $0 is TimerOperation && $0.isReady } }
        gate.signal()
        XCTAssertEqual(waitForResult(delayed), .value(1))
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(order.values, ["delay", "later"])
    }

    func testDelayOnOperationQueueLeavesTheQueueWhenACancelledResultIsCancelled() {
        let queue = OperationQueue()
        let delayed = Promise<Int, TestError>(with: .cancelled).delay(on: .operationQueue(queue), 30)
        XCTAssertEqual(queue.operationCount, 1)
        delayed.requestCancel()
        XCTAssertEqual(delayed.result, .cancelled)
        waitUntil { queue.operationCount == 0 }
    }

    func testAReservedOperationLeavesTheQueueIfItsTimerIsNeverArmed() {
        let queue = OperationQueue()
        var reservation: TimerReservation? = ContextTimer().reservePlace(on: .operationQueue(queue))
        XCTAssertNotNil(reservation)
        XCTAssertEqual(queue.operationCount, 1)
        reservation = nil
        waitUntil { queue.operationCount == 0 }
    }

    func testRule12_delayZeroOnNowOrOperationQueueRunsOnTheQueue() {
        // `.nowOr(.operationQueue(q))` means `.operationQueue(q)`, also with a zero delay: the
        // result is delivered by an operation on `q`, not passed through synchronously.
        let queue = OperationQueue()
        queue.isSuspended = true
        let delayed = Promise<Int, TestError>(fulfilled: 1).delay(on: .nowOr(.operationQueue(queue)), 0)
        XCTAssertNil(delayed.result)
        XCTAssertEqual(queue.operationCount, 1)
        let onQueue = Slot(false)
        delayed.tap(on: .immediate) { _ in onQueue.value = OperationQueue.current === queue }
        queue.isSuspended = false
        XCTAssertEqual(waitForResult(delayed), .value(1))
        XCTAssertTrue(onQueue.value)
        waitUntil { queue.operationCount == 0 }
    }

    // MARK: timeout (rule 22)

    func testTimeoutTimesOut() {
        let (upstream, resolver) = Promise<Int, TestError>.makeWithResolver()
        let start = monotonicNow()
        let timed = upstream.timeout(on: .utility, delay: 0.05)
        XCTAssertEqual(waitForResult(timed), .error(.timedOut))
        XCTAssertGreaterThanOrEqual(monotonicNow() - start, 0.045)
        XCTAssertNil(upstream.result, "the receiver is not cancelled directly")
        withExtendedLifetime(resolver) {}
    }

    func testTimeoutPassesValuesAndWrapsErrors() {
        let value = Promise<Int, TestError>(on: .utility, fulfilled: 1, after: 0.01).timeout(on: .utility, delay: 10)
        let error = Promise<Int, TestError>(on: .utility, rejected: TestError(4), after: 0.01).timeout(on: .utility, delay: 10)
        XCTAssertEqual(waitForResult(value), .value(1))
        XCTAssertEqual(waitForResult(error), .error(.rejected(TestError(4))))
    }

    func testTimeoutDefaultContextGivesAResolvedPromiseForAResolvedReceiver() {
        XCTAssertEqual(Promise<Int, TestError>(fulfilled: 1).timeout(delay: 10).result, .value(1))
        XCTAssertEqual(Promise<Int, TestError>(rejected: TestError(1)).timeout(delay: 10).result, .error(.rejected(TestError(1))))
        XCTAssertEqual(Promise<Int, TestError>(with: .cancelled).timeout(delay: 10).result, .cancelled)
    }

    func testTimeoutZeroDelayIsSynchronousForImmediateAndNowOr() {
        let (upstream, resolver) = Promise<Int, TestError>.makeWithResolver()
        XCTAssertEqual(upstream.timeout(on: .immediate, delay: 0).result, .error(.timedOut))
        XCTAssertEqual(upstream.timeout(delay: -1).result, .error(.timedOut))
        XCTAssertEqual(upstream.timeout(on: .nowOr(.utility), delay: 0).result, .error(.timedOut))
        let dispatched = upstream.timeout(on: .utility, delay: 0)
        XCTAssertEqual(waitForResult(dispatched), .error(.timedOut))
        withExtendedLifetime(resolver) {}
    }

    func testTimeoutGivesUpItsObserverSlotSoTheReceiverCanAutoCancel() {
        let asked = Slot(false)
        var timed: Promise<Int, PromiseTimeoutError<TestError>>!
        do {
            let upstream = cancellablePromise(Int.self, asked: asked)
            timed = upstream.timeout(on: .immediate, delay: 0)
        }
        XCTAssertEqual(timed.result, .error(.timedOut), "the timeout wins, not the cancellation")
        XCTAssertTrue(asked.value, "the receiver's only observer gave up: it is asked to cancel")
    }

    func testTimeoutDoesNotCancelAReceiverWithOtherObservers() {
        let asked = Slot(false)
        var timed: Promise<Int, PromiseTimeoutError<TestError>>!
        var other: Promise<Int, TestError>!
        do {
            let upstream = cancellablePromise(Int.self, asked: asked, cancels: false)
            other = upstream.then(on: .immediate) { _ in }
            timed = upstream.timeout(on: .immediate, delay: 0)
        }
        XCTAssertEqual(timed.result, .error(.timedOut))
        XCTAssertFalse(asked.value)
        other.requestCancel()
        XCTAssertTrue(asked.value, "the other observer's request completes the vote")
    }

    func testTimeoutCancelRequestPropagatesUpstream() {
        let asked = Slot(false)
        var timed: Promise<Int, PromiseTimeoutError<TestError>>!
        do {
            let upstream = cancellablePromise(Int.self, asked: asked)
            timed = upstream.timeout(on: .utility, delay: 30)
        }
        timed.requestCancel()
        XCTAssertTrue(asked.value)
        XCTAssertEqual(waitForResult(timed), .cancelled)
    }

    func testTimeoutTimerDoesNotKeepAResolvedPromiseAlive() {
        weak var weakValue: TestObject?
        do {
            let value = TestObject()
            weakValue = value
            let timed = Promise<TestObject, TestError>(fulfilled: value).timeout(on: .immediate, delay: 30)
            XCTAssertTrue(timed.result?.value === value)
        }
        XCTAssertNil(weakValue, "the resolved result is not held by a pending 30 s timer")
    }

    func testStdTimeoutOverloadPassesErrorsThrough() {
        let (upstream, resolver) = Promise<Int, Swift.Error>.makeWithResolver()
        let timed = upstream.timeout(on: .immediate, delay: 30)
        XCTAssertTrue(type(of: timed) == Promise<Int, Swift.Error>.self, "the Swift.Error overload wins")
        resolver.reject(with: TestError(9))
        XCTAssertEqual(timed.result?.error as? TestError, TestError(9), "passed through unchanged")

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
        let failures = Recorder<String>()
        for round in 0..<2_000 {
            let gate = DispatchSemaphore(value: 0)
            queue.async { gate.wait() }
            let asked = Slot(false)
            let receiver = cancellablePromise(Int.self, asked: asked)
            let stdReceiver = StdPromise<Int>(on: .immediate) { resolver in
                resolver.onRequestCancel(on: .immediate) { $0.cancel() }
            }
            let timed = receiver.timeout(on: .queue(queue), delay: 0)
            let stdTimed = stdReceiver.timeout(on: .queue(queue), delay: 0)
            receiver.requestCancel()
            stdReceiver.requestCancel()
            gate.signal()
            let result = waitForResult(timed)
            let stdResult = waitForResult(stdTimed)
            if result != .cancelled || stdResult?.isCancelled != true {
                failures.append("round \(round): \(String(describing: result)), \(String(describing: stdResult))")
                if failures.values.count >= 5 { break }
            }
        }
        XCTAssertEqual(failures.values, [])
    }

    /// Rule 22 with a delay: the timer fires (its operation is ready at the head of the
    /// serial queue) just after the receiver resolved; the receiver's result wins.
    func testTimeoutFiringJustAfterTheReceiverResolvedLosesToIt() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let failures = Recorder<String>()
        for round in 0..<20 {
            let gate = DispatchSemaphore(value: 0)
            queue.addOperation { gate.wait() }
            let (receiver, resolver) = Promise<Int, TestError>.makeWithResolver()
            let (stdReceiver, stdResolver) = StdPromise<Int>.makeWithResolver()
            let timed = receiver.timeout(on: .operationQueue(queue), delay: 0.002)
            let stdTimed = stdReceiver.timeout(on: .operationQueue(queue), delay: 0.002)
            resolver.fulfill(with: round)
            stdResolver.reject(with: TestError(round))
            Thread.sleep(forTimeInterval: 0.005) // the timers' due time passes while the queue is held
            gate.signal()
            let result = waitForResult(timed)
            let stdResult = waitForResult(stdTimed)
            if result != .value(round) || stdResult?.error as? TestError != TestError(round) {
                failures.append("round \(round): \(String(describing: result)), \(String(describing: stdResult))")
                if failures.values.count >= 5 { break }
            }
        }
        XCTAssertEqual(failures.values, [])
    }

    func testTimeoutOnOperationQueueAddsTheOperationAtOnce() {
        let queue = OperationQueue()
        queue.isSuspended = true
        let (upstream, resolver) = Promise<Int, TestError>.makeWithResolver()
        let timed = upstream.timeout(on: .operationQueue(queue), delay: 0.01)
        XCTAssertEqual(queue.operationCount, 1)
        queue.isSuspended = false
        XCTAssertEqual(waitForResult(timed), .error(.timedOut))
        withExtendedLifetime(resolver) {}
    }

    // MARK: PromiseTimeoutError (rule 30)

    func testTimeoutErrorUserInfo() {
        let timedOut = PromiseTimeoutError<TestError>.timedOut.errorUserInfo
        XCTAssertEqual(timedOut[NSLocalizedFailureReasonErrorKey] as? String, "The operation timed out.")
        let rejected = PromiseTimeoutError<TestError>.rejected(TestError(3)).errorUserInfo
        XCTAssertNotNil(rejected[NSLocalizedDescriptionKey] as? String)
        XCTAssertNotNil(rejected[NSUnderlyingErrorKey])
        let string = PromiseTimeoutError<String>.rejected("boom").errorUserInfo
        XCTAssertEqual(string[NSLocalizedFailureReasonErrorKey] as? String, "boom")
        XCTAssertNil(string[NSUnderlyingErrorKey])
    }

    func testTimeoutErrorEquatableAndHashable() {
        XCTAssertEqual(PromiseTimeoutError<TestError>.timedOut, .timedOut)
        XCTAssertEqual(PromiseTimeoutError<TestError>.rejected(TestError(1)), .rejected(TestError(1)))
        XCTAssertNotEqual(PromiseTimeoutError<TestError>.rejected(TestError(1)), .rejected(TestError(2)))
        XCTAssertTrue(PromiseTimeoutError<TestError>.timedOut != .rejected(TestError(1)))
        let set: Set<PromiseTimeoutError<TestError>> = [.timedOut, .timedOut, .rejected(TestError(1))]
        XCTAssertEqual(set.count, 2)
    }
}
