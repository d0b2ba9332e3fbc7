// ContextTimer's edges: cancelled before it is armed, cancelled twice, cancelled after it
// fired, a reservation released before or after arming.

import Dispatch
import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class ContextTimerTests: XCTestCase {
    func testATimerCancelledBeforeItIsArmedNeverRunsAndReleasesTheWorkAtOnce() {
        let timer = ContextTimer()
        timer.cancel()
        let ran = Counter()
        let released = Counter()
        do {
            let spy = DeinitSpy { released.increment() }
            timer.arm(on: .utility, after: 0) { spy.touch(); ran.increment() }
        }
        XCTAssertEqual(released.value, 1, "arming a cancelled timer keeps nothing")
        settle()
        XCTAssertEqual(ran.value, 0)
    }

    func testCancellingAnArmedTimerReleasesItsWorkAtOnceAndTwiceIsHarmless() {
        for context: PromiseContext in [.utility, .main, .queue(DispatchQueue(label: "timer.cancel")), .operationQueue(OperationQueue())] {
            let timer = ContextTimer()
            let ran = Counter()
            let released = Counter()
            do {
                let spy = DeinitSpy { released.increment() }
                timer.arm(on: context, after: 30) { spy.touch(); ran.increment() }
            }
            XCTAssertEqual(released.value, 0, "\(context): the armed timer holds its work")
            timer.cancel()
            XCTAssertEqual(released.value, 1, "\(context): released by cancel(), not at the deadline")
            timer.cancel()
            XCTAssertEqual(released.value, 1)
            XCTAssertEqual(ran.value, 0)
        }
    }

    func testATimerRunsItsWorkOnceAndCancelAfterwardsChangesNothing() {
        for context: PromiseContext in [.utility, .main, .queue(DispatchQueue(label: "timer.fire")), .operationQueue(OperationQueue())] {
            for delay: TimeInterval in [0, 0.01] {
                let timer = ContextTimer()
                let ran = Counter()
                timer.arm(on: context, after: delay) { ran.increment() }
                waitUntil { ran.value == 1 }
                timer.cancel()
                timer.arm(on: context, after: 0) { ran.increment() }
                settle(0.05)
                XCTAssertEqual(ran.value, 1, "\(context) after \(delay)")
            }
        }
    }

    func testAReservationCancelledBeforeArmingLeavesTheQueueAndArmingLaterDoesNothing() {
        let queue = OperationQueue()
        let timer = ContextTimer()
        let reservation = timer.reservePlace(on: .operationQueue(queue))
        XCTAssertNotNil(reservation)
        XCTAssertNil(timer.reservePlace(on: .operationQueue(queue)), "one place per timer")
        timer.cancel()
        waitUntil { queue.operationCount == 0 }
        let ran = Counter()
        timer.arm(on: .operationQueue(queue), after: 0) { ran.increment() }
        settle(0.05)
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(queue.operationCount, 0)
        withExtendedLifetime(reservation) {}
    }

    func testAReservationReleasedAfterArmingDoesNotCancelAndKeepsItsPlace() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.isSuspended = true
        let order = Recorder<String>()
        let timer = ContextTimer()
        var reservation = timer.reservePlace(on: .operationQueue(queue))
        queue.addOperation { order.append("later") }
        timer.arm(on: .operationQueue(queue), after: 0.01) { order.append("timer") }
        reservation = nil
        XCTAssertEqual(queue.operationCount, 2, "the armed timer reuses its reserved operation")
        queue.isSuspended = false
        waitUntil { order.count == 2 }
        XCTAssertEqual(order.values.sorted(), ["later", "timer"])
        _ = reservation
    }

    func testAnOperationCancelledByItsQueueReleasesTheWorkUnrunAtOnce() {
        let queue = OperationQueue()
        let timer = ContextTimer()
        let ran = Counter()
        weak var weakCapture: TestObject?
        do {
            let capture = TestObject()
            weakCapture = capture
            timer.arm(on: .operationQueue(queue), after: 60) { withExtendedLifetime(capture) { _ = ran.increment() } }
        }
        XCTAssertNotNil(weakCapture)
        queue.cancelAllOperations()
        waitUntil { weakCapture == nil }  // not in 60 s, when the timer would have fired
        waitUntil { queue.operationCount == 0 }
        XCTAssertEqual(ran.value, 0)
    }

    func testRule01_aDelayedPromiseWhoseTimerOperationIsCancelledIsCancelled() {
        let queue = OperationQueue()
        let promise = Promise<Int, TestError>(on: .operationQueue(queue), fulfilled: 1, after: 60)
        queue.cancelAllOperations()
        XCTAssertEqual(waitForResult(promise), .cancelled, "nothing can fulfil it any more (rule 1)")
    }

    func testArmingOnAnOperationQueueWithoutAReservationAddsOneOperation() {
        let queue = OperationQueue()
        queue.isSuspended = true
        let timer = ContextTimer()
        let ran = Counter()
        timer.arm(on: .operationQueue(queue), after: 0) { ran.increment() }
        XCTAssertEqual(queue.operationCount, 1)
        queue.isSuspended = false
        waitUntil { ran.value == 1 }
        waitUntil { queue.operationCount == 0 }
    }

    func testCancelRacingTheFiringRunsTheWorkAtMostOnceAndAlwaysReleasesIt() {
        let timers = 2_000
        let ran = Counter()
        let released = Counter()
        let tooMany = Counter()
        for index in 0..<timers {
            let timer = ContextTimer()
            let runs = Counter()
            let spy = DeinitSpy { released.increment() }
            let context: PromiseContext = index.isMultiple(of: 2) ? .utility : .operationQueue(racingQueue)
            timer.arm(on: context, after: 0) {
                spy.touch()
                ran.increment()
                if runs.increment() > 1 { tooMany.increment() }
            }
            DispatchQueue.global().async { timer.cancel() }
        }
        waitUntil(timeout: 30) { released.value == timers }
        XCTAssertEqual(released.value, timers, "every work closure is released, run or cancelled")
        XCTAssertEqual(tooMany.value, 0)
        XCTAssertLessThanOrEqual(ran.value, timers)
    }

    private let racingQueue: OperationQueue = {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        return queue
    }()
}
