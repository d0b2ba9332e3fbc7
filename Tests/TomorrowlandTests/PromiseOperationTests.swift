import Dispatch
import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class UtilitiesPromiseOperationTests: XCTestCase {
    func testRunsOnAQueueAndFinishes() {
        let queue = OperationQueue()
        let operation = PromiseOperation<Int, TestError>(on: .utility) { $0.fulfill(with: 5) }
        XCTAssertTrue(operation.isAsynchronous)
        XCTAssertFalse(operation.isExecuting)
        XCTAssertFalse(operation.isFinished)
        XCTAssertEqual(operation.promise, operation.promise)
        queue.addOperation(operation)
        XCTAssertEqual(waitForResult(operation.promise), .value(5))
        waitUntil { operation.isFinished }
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertFalse(operation.isExecuting)
        XCTAssertEqual(queue.operationCount, 0)
    }

    func testPromiseStaysUnresolvedUntilStart() {
        let operation = PromiseOperation<Int, TestError>(on: .immediate) { $0.fulfill(with: 1) }
        // No wait: with `.immediate` nothing but a thread calling `start()` can run the
        // handler, so no time passing could change this check (the control follows).
        XCTAssertNil(operation.promise.result)
        operation.start()
        XCTAssertEqual(operation.promise.result, .value(1), ".immediate runs on the thread that calls start()")
        XCTAssertTrue(operation.isFinished)
    }

    func testIsFinishedBeforeObserversRun() {
        let operation = PromiseOperation<Int, TestError>(on: .immediate) { $0.fulfill(with: 1) }
        let seen = Recorder<Bool>()
        _ = operation.promise.then(on: .immediate) { [weak operation] _ in
            seen.append(operation?.isFinished ?? false)
        }
        _ = operation.promise.always(on: .utility) { [weak operation] _ in
            seen.append(operation?.isFinished ?? false)
        }
        operation.start()
        waitUntil { seen.values.count == 2 }
        XCTAssertEqual(seen.values, [true, true])
        withExtendedLifetime(operation) {}
    }

    func testQueueStaysBlockedUntilThePromiseResolves() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let (gate, openGate) = Promise<Int, TestError>.makeWithResolver()
        let order = Recorder<String>()
        let handlerQueue = DispatchQueue(label: "promise-operation-tests")
        let first = PromiseOperation<Int, TestError>(on: .queue(handlerQueue)) { resolver in
            order.append("first started")
            resolver.resolve(with: gate)
        }
        let second = PromiseOperation<Int, TestError>(on: .immediate) { resolver in
            order.append("second started")
            resolver.fulfill(with: 2)
        }
        queue.addOperation(first)
        queue.addOperation(second)
        waitUntil { order.values == ["first started"] }
        // The gate, not a sleep: once this empty block ran on the handler's serial queue, the
        // handler has returned. The queue (one operation at a time) can start `second` only
        // after `first` finishes, so `first` unfinished is the queue still blocked.
        handlerQueue.sync {}
        XCTAssertFalse(first.isFinished, "the handler returned but the promise is pending")
        XCTAssertEqual(order.values, ["first started"])
        openGate.fulfill(with: 1)
        XCTAssertEqual(waitForResult(second.promise), .value(2))
        XCTAssertEqual(order.values, ["first started", "second started"])
        XCTAssertEqual(first.promise.result, .value(1))
    }

    func testSerialQueueOrdering() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let order = Recorder<Int>()
        let operations = (0..<10).map { index in
            PromiseOperation<Int, TestError>(on: .utility) { resolver in
                order.append(index)
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.002) { resolver.fulfill(with: index) }
            }
        }
        queue.addOperations(operations, waitUntilFinished: false)
        XCTAssertEqual(waitForResult(when(fulfilled: operations.map(\.promise))), .value(Array(0..<10)))
        XCTAssertEqual(order.values, Array(0..<10))
    }

    func testDependencies() {
        let queue = OperationQueue()
        let order = Recorder<String>()
        let a = PromiseOperation<Int, TestError>(on: .utility) { resolver in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) {
                order.append("a")
                resolver.fulfill(with: 1)
            }
        }
        let b = PromiseOperation<Int, TestError>(on: .utility) { resolver in
            order.append("b")
            resolver.fulfill(with: 2)
        }
        b.addDependency(a)
        queue.addOperation(b)
        queue.addOperation(a)
        XCTAssertEqual(waitForResult(b.promise), .value(2))
        XCTAssertEqual(order.values, ["a", "b"])
    }

    func testCancelBeforeStartNeverRunsTheHandler() {
        let ran = Slot(false)
        let operation = PromiseOperation<Int, TestError>(on: .immediate) { resolver in
            ran.value = true
            resolver.fulfill(with: 1)
        }
        operation.cancel()
        XCTAssertTrue(operation.isCancelled)
        XCTAssertNil(operation.promise.result, "still pending until start() runs")
        operation.start()
        XCTAssertFalse(ran.value)
        XCTAssertEqual(operation.promise.result, .cancelled)
        XCTAssertTrue(operation.isFinished)
    }

    func testCancelledOperationOnAQueueCancelsThePromise() {
        let queue = OperationQueue()
        queue.isSuspended = true
        let ran = Slot(false)
        let operation = PromiseOperation<Int, TestError>(on: .utility) { _ in ran.value = true }
        queue.addOperation(operation)
        operation.promise.requestCancel()
        XCTAssertTrue(operation.isCancelled, "promise.requestCancel() cancels the operation")
        queue.isSuspended = false
        XCTAssertEqual(waitForResult(operation.promise), .cancelled)
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertFalse(ran.value)
    }

    func testAChildsCancelRequestStopsAtTheOperationsPromise() {
        // The operation holds its promise, as 1.4's did, so automatic propagation from a child
        // stops there while the operation lives: only `cancel()` or `promise.requestCancel()`
        // cancel an operation that has not started.
        let ran = Slot(false)
        let operation = PromiseOperation<Int, TestError>(on: .immediate) { resolver in
            ran.value = true
            resolver.fulfill(with: 1)
        }
        let child = operation.promise.then(on: .immediate) { _ in }
        child.requestCancel()
        XCTAssertFalse(operation.isCancelled, "a child's request does not reach the operation")
        operation.start()
        XCTAssertTrue(ran.value)
        XCTAssertEqual(child.result, .value(1))
        XCTAssertTrue(operation.isFinished)
    }

    func testCancelWhileRunningRequestsCancelOfThePromise() {
        let operation = PromiseOperation<Int, TestError>(on: .immediate) { resolver in
            resolver.onRequestCancel(on: .immediate) { $0.cancel() }
        }
        operation.start()
        XCTAssertTrue(operation.isExecuting)
        operation.cancel()
        XCTAssertEqual(operation.promise.result, .cancelled)
        XCTAssertTrue(operation.isFinished)
        XCTAssertFalse(operation.isExecuting)
    }

    func testExtraStartsDoNothing() {
        let runs = Counter()
        let operation = PromiseOperation<Int, TestError>(on: .immediate) { resolver in
            runs.increment()
            resolver.fulfill(with: 1)
        }
        operation.start()
        operation.start()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in operation.start() }
        XCTAssertEqual(runs.value, 1)
    }

    func testRacingFirstStartsRunTheHandlerOnceThenExecutingThenFinished() {
        for _ in 0..<200 {
            let runs = Counter()
            let stashed = Slot<Promise<Int, TestError>.Resolver?>()
            let operation = PromiseOperation<Int, TestError>(on: .immediate) { resolver in
                runs.increment()
                stashed.value = resolver
            }
            XCTAssertFalse(operation.isExecuting)
            XCTAssertFalse(operation.isFinished)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in operation.start() }
            XCTAssertEqual(runs.value, 1)
            XCTAssertTrue(operation.isExecuting)
            XCTAssertFalse(operation.isFinished)
            stashed.value!.fulfill(with: 1)
            XCTAssertFalse(operation.isExecuting)
            XCTAssertTrue(operation.isFinished)
            XCTAssertEqual(operation.promise.result, .value(1))
        }
    }

    func testDroppingANeverStartedOperationCancelsThePromise() {
        var promise: Promise<Int, TestError>!
        weak var weakOperation: PromiseOperation<Int, TestError>?
        do {
            let operation = PromiseOperation<Int, TestError>(on: .utility) { $0.fulfill(with: 1) }
            weakOperation = operation
            promise = operation.promise
            XCTAssertNil(promise.result, "the operation keeps it resolvable")
        }
        XCTAssertNil(weakOperation)
        XCTAssertEqual(promise.result, .cancelled)
    }

    func testHandlerThatDropsTheResolverCancelsAndFinishes() {
        let operation = StdPromiseOperation<Int>(on: .immediate) { _ in }
        operation.start()
        XCTAssertEqual(operation.promise.result?.isCancelled, true)
        XCTAssertTrue(operation.isFinished)
    }

    func testWaitUntilFinished() {
        let queue = OperationQueue()
        let operation = PromiseOperation<Int, TestError>(on: .utility) { resolver in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { resolver.fulfill(with: 1) }
        }
        queue.addOperation(operation)
        operation.waitUntilFinished()
        XCTAssertTrue(operation.isFinished)
        XCTAssertEqual(operation.promise.result, .value(1))
    }
}
