import Dispatch
import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class UtilitiesDelayedPromiseTests: XCTestCase {
    func testHandlerRunsOnlyOnFirstAccess() {
        let runs = Counter()
        let queue = DispatchQueue(label: "delayed-promise-tests")
        let delayed = DelayedPromise<Int, TestError>(on: .queue(queue)) { resolver in
            runs.increment()
            resolver.fulfill(with: 1)
        }
        // The gate, not a sleep: a handler scheduled by the initializer would have run on
        // the serial queue by the time this empty block did.
        queue.sync {}
        XCTAssertEqual(runs.value, 0)
        let first = delayed.promise
        let second = delayed.promise
        XCTAssertEqual(first, second, "every access returns an equal promise")
        XCTAssertEqual(waitForResult(first), .value(1))
        XCTAssertEqual(runs.value, 1)
    }

    func testHandlerIsAsynchronousExceptForImmediate() {
        let asyncDelayed = DelayedPromise<Int, TestError>(on: .nowOr(.utility)) { $0.fulfill(with: 1) }
        let asyncPromise = asyncDelayed.promise
        XCTAssertEqual(waitForResult(asyncPromise), .value(1))
        let ran = Slot(false)
        let immediate = DelayedPromise<Int, TestError>(on: .immediate) { resolver in
            ran.value = true
            resolver.fulfill(with: 2)
        }
        XCTAssertFalse(ran.value)
        XCTAssertEqual(immediate.promise.result, .value(2), "runs synchronously on the accessing thread")
    }

    func testMainContextRunsOnTheMainQueue() {
        let onMain = Slot(false)
        let delayed = DelayedPromise<Int, TestError>(on: .main) { resolver in
            onMain.value = MainQueue.isCurrent
            resolver.fulfill(with: 1)
        }
        XCTAssertNil(delayed.promise.result, "never synchronous for .main")
        XCTAssertEqual(waitForResult(delayed.promise), .value(1))
        XCTAssertTrue(onMain.value)
    }

    func testEquatableByIdentity() {
        let a = DelayedPromise<Int, TestError>(on: .immediate) { $0.fulfill(with: 1) }
        let b = DelayedPromise<Int, TestError>(on: .immediate) { $0.fulfill(with: 1) }
        let copy = a
        XCTAssertEqual(a, copy)
        XCTAssertNotEqual(a, b)
        let std = StdDelayedPromise<Int>(on: .immediate) { $0.fulfill(with: 3) }
        XCTAssertEqual(std.promise.result?.value, 3)
    }

    func testHandlerIsReleasedAfterRunning() {
        weak var weakCapture: TestObject?
        let delayed: DelayedPromise<Int, TestError>
        do {
            let capture = TestObject()
            weakCapture = capture
            delayed = DelayedPromise(on: .immediate) { resolver in
                resolver.fulfill(with: capture.name.count)
            }
        }
        XCTAssertNotNil(weakCapture)
        XCTAssertEqual(delayed.promise.result, .value(6))
        XCTAssertNil(weakCapture, "released right after it ran, while the DelayedPromise lives")
        withExtendedLifetime(delayed) {}
    }

    func testDroppedWithoutAccessReleasesTheHandler() {
        weak var weakCapture: TestObject?
        let ran = Slot(false)
        do {
            let capture = TestObject()
            weakCapture = capture
            let delayed = DelayedPromise<Int, TestError>(on: .immediate) { _ in
                ran.value = true
                _ = capture
            }
            _ = delayed
        }
        XCTAssertNil(weakCapture)
        XCTAssertFalse(ran.value)
    }

    func testHandlerThatDropsTheResolverCancels() {
        let delayed = DelayedPromise<Int, TestError>(on: .utility) { _ in }
        XCTAssertEqual(waitForResult(delayed.promise), .cancelled)
    }

    func testCancelRequestReachesTheHandler() {
        let delayed = DelayedPromise<Int, TestError>(on: .utility) { resolver in
            resolver.onRequestCancel(on: .immediate) { $0.cancel() }
        }
        let promise = delayed.promise
        promise.requestCancel()
        XCTAssertEqual(waitForResult(promise), .cancelled)
    }

    func testConcurrentFirstAccessRunsTheHandlerOnce() {
        let runs = Counter()
        let delayed = DelayedPromise<Int, TestError>(on: .immediate) { resolver in
            runs.increment()
            resolver.fulfill(with: 1)
        }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in _ = delayed.promise }
        XCTAssertEqual(runs.value, 1)
        XCTAssertEqual(delayed.promise.result, .value(1))
    }
}
