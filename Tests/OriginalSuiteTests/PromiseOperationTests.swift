// The original suite's PromiseOperationTests: the handler runs when the operation starts (by
// `start()` or a queue), cancellation before and after start, dependencies, queue width, and
// the finish/observer order.

import Foundation
import TestSupport
import Tomorrowland
import XCTest

final class PromiseOperationTests: XCTestCase {
    func testOperationDoesNotRunUntilStarted() {
        var invoked = false
        let op = PromiseOperation<Int, String>(on: .immediate, { (resolver) in
            invoked = true
            resolver.fulfill(with: 42)
        })
        XCTAssertFalse(invoked)
        XCTAssertNil(op.promise.result)
        XCTAssertFalse(op.isExecuting)
        XCTAssertFalse(op.isFinished)
        XCTAssertTrue(op.isAsynchronous)
        op.start()
        XCTAssertTrue(invoked)
        XCTAssertEqual(op.promise.result, .value(42))
        XCTAssertTrue(op.isFinished)
        XCTAssertFalse(op.isExecuting)
    }

    func testOperationPromiseIsTheSameEveryTime() {
        let op = PromiseOperation<Int, String>(on: .immediate, { $0.fulfill(with: 1) })
        XCTAssertEqual(op.promise, op.promise)
        let promise = op.promise
        op.start()
        XCTAssertEqual(promise, op.promise)
        XCTAssertEqual(promise.result, .value(1))
    }

    func testOperationOnQueue() {
        let queue = OperationQueue()
        let op = PromiseOperation<Int, String>(on: .utility, { (resolver) in
            resolver.fulfill(with: 42)
        })
        let expectation = XCTestExpectation(onSuccess: op.promise, expectedValue: 42)
        queue.addOperation(op)
        wait(for: [expectation], timeout: 10)
    }

    func testOperationImmediateRunsOnQueue() {
        let queue = OperationQueue()
        let op = PromiseOperation<Bool, String>(on: .immediate, { (resolver) in
            resolver.fulfill(with: OperationQueue.current === queue)
        })
        let expectation = XCTestExpectation(onSuccess: op.promise, expectedValue: true)
        queue.addOperation(op)
        wait(for: [expectation], timeout: 10)
    }

    func testOperationUsesContext() {
        let testQueue = TestQueue()
        let op = PromiseOperation<Bool, String>(on: .queue(testQueue.queue), { (resolver) in
            resolver.fulfill(with: testQueue.isCurrent)
        })
        let expectation = XCTestExpectation(onSuccess: op.promise, expectedValue: true)
        op.start()
        wait(for: [expectation], timeout: 10)
    }

    func testOperationStaysExecutingUntilPromiseResolves() {
        var resolver: Promise<Int, String>.Resolver?
        let op = PromiseOperation<Int, String>(on: .immediate, { resolver = $0 })
        op.start()
        XCTAssertTrue(op.isExecuting)
        XCTAssertFalse(op.isFinished)
        XCTAssertNil(op.promise.result)
        resolver?.fulfill(with: 1)
        XCTAssertTrue(op.isFinished)
        XCTAssertFalse(op.isExecuting)
        XCTAssertEqual(op.promise.result, .value(1))
    }

    func testOperationIsFinishedBeforeObserversRun() {
        let op = PromiseOperation<Int, String>(on: .utility, { $0.fulfill(with: 1) })
        let expectation = XCTestExpectation(description: "observer")
        _ = op.promise.then(on: .immediate, { [unowned op] _ in
            XCTAssertTrue(op.isFinished)
            expectation.fulfill()
        })
        op.start()
        wait(for: [expectation], timeout: 10)
    }

    func testOperationStartTwiceRunsOnce() {
        var count = 0
        let op = PromiseOperation<Int, String>(on: .immediate, { (resolver) in
            count += 1
            resolver.fulfill(with: count)
        })
        op.start()
        op.start()
        XCTAssertEqual(count, 1)
        XCTAssertEqual(op.promise.result, .value(1))
    }

    func testCancelBeforeStart() {
        let op = PromiseOperation<Int, String>(on: .immediate, { (resolver) in
            XCTFail("handler of a cancelled operation ran")
            resolver.fulfill(with: 1)
        })
        op.cancel()
        XCTAssertTrue(op.isCancelled)
        XCTAssertNil(op.promise.result, "the promise waits for the operation to finish")
        op.start()
        XCTAssertEqual(op.promise.result, .cancelled)
        XCTAssertTrue(op.isFinished)
    }

    func testCancelBeforeStartOnQueue() {
        let queue = OperationQueue()
        let op = PromiseOperation<Int, String>(on: .utility, { (resolver) in
            XCTFail("handler of a cancelled operation ran")
            resolver.fulfill(with: 1)
        })
        let expectation = XCTestExpectation(onCancel: op.promise)
        op.cancel()
        queue.addOperation(op)
        wait(for: [expectation], timeout: 10)
    }

    func testRequestCancelOnPromiseCancelsOperation() {
        let op = PromiseOperation<Int, String>(on: .immediate, { (resolver) in
            XCTFail("handler of a cancelled operation ran")
        })
        op.promise.requestCancel()
        XCTAssertTrue(op.isCancelled)
        op.start()
        XCTAssertEqual(op.promise.result, .cancelled)
    }

    func testCancelAfterStartRequestsCancelOfPromise() {
        let op = PromiseOperation<Int, String>(on: .immediate, { (resolver) in
            resolver.onRequestCancel(on: .immediate, { $0.cancel() })
        })
        op.start()
        XCTAssertNil(op.promise.result)
        op.cancel()
        XCTAssertEqual(op.promise.result, .cancelled)
        XCTAssertTrue(op.isFinished)
    }

    func testCancelAfterStartIsOnlyARequest() {
        var resolver: Promise<Int, String>.Resolver?
        let op = PromiseOperation<Int, String>(on: .immediate, { resolver = $0 })
        op.start()
        op.cancel()
        XCTAssertEqual(resolver?.hasRequestedCancel, true)
        XCTAssertNil(op.promise.result)
        resolver?.fulfill(with: 3)
        XCTAssertEqual(op.promise.result, .value(3))
    }

    func testDroppingUnstartedOperationCancelsPromise() {
        let promise: Promise<Int, String>
        do {
            let op = PromiseOperation<Int, String>(on: .immediate, { (resolver) in
                XCTFail("handler ran")
                resolver.fulfill(with: 1)
            })
            promise = op.promise
        }
        let expectation = XCTestExpectation(onCancel: promise)
        wait(for: [expectation], timeout: 10)
    }

    func testOperationDependencies() {
        let queue = OperationQueue()
        let op1 = PromiseOperation<Int, String>(on: .utility, { (resolver) in
            usleep(20_000)
            resolver.fulfill(with: 1)
        })
        let op1Promise = op1.promise
        let op2 = PromiseOperation<Int, String>(on: .utility, { (resolver) in
            XCTAssertEqual(op1Promise.result, .value(1), "op2 runs after op1 finished")
            resolver.fulfill(with: 2)
        })
        op2.addDependency(op1)
        let expectation = XCTestExpectation(onSuccess: op2.promise, expectedValue: 2)
        queue.addOperation(op2)
        queue.addOperation(op1)
        wait(for: [expectation], timeout: 10)
    }

    func testSerialQueueWaitsForPromise() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let resolverBox = Locked<Promise<Int, String>.Resolver?>(nil)
        let started = XCTestExpectation(description: "op1 started")
        let handlerQueue = DispatchQueue(label: "op1")
        let op1 = PromiseOperation<Int, String>(on: .queue(handlerQueue), { (resolver) in
            resolverBox.value = resolver
            started.fulfill()
        })
        let op2Ran = Locked(false)
        let op2 = PromiseOperation<Int, String>(on: .utility, { (resolver) in
            op2Ran.value = true
            resolver.fulfill(with: 2)
        })
        queue.addOperation(op1)
        queue.addOperation(op2)
        wait(for: [started], timeout: 10)
        // Upstream slept here; a gate instead: once this empty block ran on op1's serial
        // queue, op1's handler has returned, and the queue (one operation at a time) can start
        // op2 only once op1 finished.
        handlerQueue.sync {}
        XCTAssertFalse(op1.isFinished, "the queue is blocked until op1's promise resolves")
        XCTAssertFalse(op2Ran.value)
        let expectation = XCTestExpectation(onSuccess: op2.promise, expectedValue: 2)
        resolverBox.value?.fulfill(with: 1)
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(op1.promise.result, .value(1))
    }

    func testOperationChaining() {
        let op = PromiseOperation<Int, String>(on: .utility, { $0.fulfill(with: 20) })
        let promise = op.promise.map(on: .utility, { $0 + 1 })
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 21)
        op.start()
        wait(for: [expectation], timeout: 10)
    }

    func testOperationNowOrMeansItsContext() {
        var invoked = false
        let op = PromiseOperation<Int, String>(on: .nowOr(.main), { (resolver) in
            XCTAssertTrue(Thread.isMainThread)
            XCTAssertFalse(PromiseContext.isExecutingNow)
            invoked = true
            resolver.fulfill(with: 1)
        })
        op.start()
        XCTAssertFalse(invoked, ".nowOr(.main) in a PromiseOperation means .main")
        let expectation = XCTestExpectation(onSuccess: op.promise, expectedValue: 1)
        wait(for: [expectation], timeout: 10)
    }

    func testWaitUntilAllOperationsAreFinished() {
        let queue = OperationQueue()
        let ops = (0..<3).map({ i in
            PromiseOperation<Int, String>(on: .utility, { (resolver) in
                DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 0.05) {
                    resolver.fulfill(with: i)
                }
            })
        })
        queue.addOperations(ops, waitUntilFinished: false)
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertEqual(ops.map({ $0.promise.result }), [.value(0), .value(1), .value(2)], "finished operations have resolved promises")
        XCTAssertTrue(ops.allSatisfy({ $0.isFinished }))
    }

    func testStdPromiseOperation() {
        let op = StdPromiseOperation<Int>(on: .immediate, { $0.reject(with: TestError(4)) })
        op.start()
        XCTAssertEqual(op.promise.result?.error as? TestError, TestError(4))
    }
}
