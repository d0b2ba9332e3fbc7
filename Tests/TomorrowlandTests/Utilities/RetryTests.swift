import Dispatch
import Foundation
import XCTest
@testable import Tomorrowland

final class UtilitiesRetryTests: XCTestCase {
    /// A body that rejects with 1, 2, … and fulfils on attempt `succeedOn` (if any).
    private func failing(_ calls: UtilBox<Int>, succeedOn: Int? = nil) -> @Sendable () -> Promise<Int, UtilError> {
        { () -> Promise<Int, UtilError> in
            let call = calls.increment()
            if call == succeedOn { return Promise(fulfilled: call * 100) }
            return Promise(rejected: UtilError(call))
        }
    }

    func testFulfilsOnAFirstSuccess() {
        let calls = UtilBox(0)
        let promise = retry(on: .immediate, attempts: 5, failing(calls, succeedOn: 3))
        XCTAssertEqual(promise.result, .value(300))
        XCTAssertEqual(calls.value, 3)
    }

    func testRejectsWithTheLastErrorWhenAttemptsRunOut() {
        let calls = UtilBox(0)
        let promise = retry(on: .immediate, attempts: 4, failing(calls))
        XCTAssertEqual(promise.result, .error(UtilError(4)))
        XCTAssertEqual(calls.value, 4)
    }

    func testAttemptsBelowOneMeanOne() {
        let calls = UtilBox(0)
        XCTAssertEqual(retry(on: .immediate, attempts: 0, failing(calls)).result, .error(UtilError(1)))
        XCTAssertEqual(retry(on: .immediate, attempts: -3, failing(calls)).result, .error(UtilError(2)))
        XCTAssertEqual(calls.value, 2)
    }

    func testPredicateStopsRetrying() {
        let calls = UtilBox(0)
        let promise = retry(on: .immediate, attempts: 10, while: { $0.code < 2 }, failing(calls))
        XCTAssertEqual(promise.result, .error(UtilError(2)))
        XCTAssertEqual(calls.value, 2)
    }

    func testSynchronousRejectionsDoNotRecurse() {
        let calls = UtilBox(0)
        let done = expectation(description: "done")
        let thread = Thread {
            let promise = retry(on: .immediate, attempts: 20_000, { () -> Promise<Int, UtilError> in
                calls.increment()
                return Promise(rejected: UtilError(0))
            })
            XCTAssertEqual(promise.result, .error(UtilError(0)))
            done.fulfill()
        }
        thread.stackSize = 64 << 10
        thread.start()
        wait(for: [done], timeout: 60)
        XCTAssertEqual(calls.value, 20_000)
    }

    func testRunsOnTheContext() {
        let queue = DispatchQueue(label: "util.retry")
        queue.setSpecific(key: utilQueueKey, value: "retry")
        let onQueue = UtilBox<[Bool]>([])
        let calls = UtilBox(0)
        let promise = retry(on: .queue(queue), attempts: 3, delay: 0.001, while: { _ in
            onQueue.mutate { $0.append(DispatchQueue.getSpecific(key: utilQueueKey) == "retry") }
            return true
        }, { () -> Promise<Int, UtilError> in
            onQueue.mutate { $0.append(DispatchQueue.getSpecific(key: utilQueueKey) == "retry") }
            calls.increment()
            return Promise(on: .utility, rejected: UtilError(calls.value), after: 0.001)
        })
        XCTAssertEqual(utilAwait(promise), .error(UtilError(3)))
        XCTAssertEqual(onQueue.value, [Bool](repeating: true, count: 5), "3 bodies and 2 predicate calls on the queue")
    }

    func testDelayBetweenAttempts() {
        let calls = UtilBox(0)
        let start = utilNow()
        let promise = retry(on: .utility, attempts: 3, delay: 0.03, failing(calls))
        XCTAssertEqual(utilAwait(promise), .error(UtilError(3)))
        XCTAssertGreaterThanOrEqual(utilNow() - start, 0.055, "two delays of 30 ms")
    }

    func testNegativeDelayRetriesAtOnce() {
        let calls = UtilBox(0)
        XCTAssertEqual(retry(on: .immediate, attempts: 3, delay: -1, failing(calls)).result, .error(UtilError(3)))
    }

    func testCancelledAttemptCancelsWithoutRetrying() {
        let calls = UtilBox(0)
        let promise = retry(on: .immediate, attempts: 5, { () -> Promise<Int, UtilError> in
            calls.increment()
            return Promise(with: .cancelled)
        })
        XCTAssertEqual(promise.result, .cancelled)
        XCTAssertEqual(calls.value, 1)
    }

    func testCancelRequestStopsAtOnceAndCancelsTheInFlightAttempt() {
        let asked = UtilBox(false)
        let calls = UtilBox(0)
        let promise = retry(on: .immediate, attempts: 5, { () -> Promise<Int, UtilError> in
            calls.increment()
            return utilCancellable(Int.self, asked: asked)
        })
        XCTAssertNil(promise.result)
        promise.requestCancel()
        XCTAssertEqual(promise.result, .cancelled, "stops at once")
        XCTAssertTrue(asked.value, "the in-flight attempt was asked to cancel")
        XCTAssertEqual(calls.value, 1, "no retry after the cancelled attempt")
    }

    func testCancelDuringTheDelayDropsTheTimerAndStartsNoAttempt() {
        let calls = UtilBox(0)
        weak var weakCapture: UtilObject?
        var promise: Promise<Int, UtilError>!
        do {
            let capture = UtilObject()
            weakCapture = capture
            promise = retry(on: .utility, attempts: 3, delay: 30, { () -> Promise<Int, UtilError> in
                _ = capture
                calls.increment()
                return Promise(rejected: UtilError(1))
            })
        }
        utilEventually { calls.value == 1 }
        Thread.sleep(forTimeInterval: 0.02)
        let start = utilNow()
        promise.requestCancel()
        XCTAssertEqual(promise.result, .cancelled)
        XCTAssertLessThan(utilNow() - start, 1)
        utilEventually { weakCapture == nil }
        XCTAssertEqual(calls.value, 1)
    }

    /// A cancel request stops at once: racing it against the rejection of the first of four
    /// attempts, the returned promise ends cancelled, never rejected with that intermediate
    /// error (which the documentation says would have been retried).
    func testCancelRequestRacingAnAttemptsRejectionNeverRejectsWithTheIntermediateError() {
        let racer = Racer()
        defer { racer.stop() }
        let failures = Recorder<String>()
        for round in 0..<150_000 {
            let (first, firstResolver) = Promise<Int, UtilError>.makeWithResolver()
            let calls = Counter()
            let unused = UtilBox(false)
            let promise = retry(on: .immediate, attempts: 4, { () -> Promise<Int, UtilError> in
                calls.increment() == 1 ? first : utilCancellable(Int.self, asked: unused)
            })
            racer.race({ promise.requestCancel() }, { firstResolver.reject(with: UtilError(1)) })
            if promise.result != .cancelled {
                failures.append("round \(round): \(String(describing: promise.result)) after \(calls.value) of 4 attempts")
                if failures.values.count >= 5 { break }
            }
        }
        XCTAssertEqual(failures.values, [])
        print("retry race: \(racer.overlaps) rounds with both sides running at once")
    }

    func testStdPromiseRetry() {
        let calls = UtilBox(0)
        let promise: StdPromise<String> = retry(on: .utility, attempts: 3, while: { $0 is UtilError }) {
            calls.increment() < 2 ? StdPromise(rejected: UtilError(0)) : StdPromise(fulfilled: "ok")
        }
        XCTAssertEqual(utilAwait(promise)?.value, "ok")
    }
}
