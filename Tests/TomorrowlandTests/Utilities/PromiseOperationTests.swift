import Dispatch
import Foundation
import XCTest
@testable import Tomorrowland

final class UtilitiesPromiseOperationTests: XCTestCase {
    func testRunsOnAQueueAndFinishes() {
        let queue = OperationQueue()
        let operation = PromiseOperation<Int, UtilError>(on: .utility) { $0.fulfill(with: 5) }
        XCTAssertTrue(operation.isAsynchronous)
        XCTAssertFalse(operation.isExecuting)
        XCTAssertFalse(operation.isFinished)
        XCTAssertEqual(operation.promise, operation.promise)
        queue.addOperation(operation)
        XCTAssertEqual(utilAwait(operation.promise), .value(5))
        utilEventually { operation.isFinished }
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertFalse(operation.isExecuting)
        XCTAssertEqual(queue.operationCount, 0)
    }

    func testPromiseStaysUnresolvedUntilStart() {
        let operation = PromiseOperation<Int, UtilError>(on: .immediate) { $0.fulfill(with: 1) }
        Thread.sleep(forTimeInterval: 0.01)
        XCTAssertNil(operation.promise.result)
        operation.start()
        XCTAssertEqual(operation.promise.result, .value(1), ".immediate runs on the thread that calls start()")
        XCTAssertTrue(operation.isFinished)
    }

    func testIsFinishedBeforeObserversRun() {
        let operation = PromiseOperation<Int, UtilError>(on: .immediate) { $0.fulfill(with: 1) }
        let seen = UtilBox<[Bool]>([])
        _ = operation.promise.then(on: .immediate) { [weak operation] _ in
            seen.mutate { $0.append(operation?.isFinished ?? false) }
        }
        _ = operation.promise.always(on: .utility) { [weak operation] _ in
            seen.mutate { $0.append(operation?.isFinished ?? false) }
        }
        operation.start()
        utilEventually { seen.value.count == 2 }
        XCTAssertEqual(seen.value, [true, true])
        withExtendedLifetime(operation) {}
    }

    func testQueueStaysBlockedUntilThePromiseResolves() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let (gate, openGate) = Promise<Int, UtilError>.makeWithResolver()
        let order = UtilBox<[String]>([])
        let first = PromiseOperation<Int, UtilError>(on: .utility) { resolver in
            order.append("first started")
            resolver.resolve(with: gate)
        }
        let second = PromiseOperation<Int, UtilError>(on: .immediate) { resolver in
            order.append("second started")
            resolver.fulfill(with: 2)
        }
        queue.addOperation(first)
        queue.addOperation(second)
        utilEventually { order.value == ["first started"] }
        Thread.sleep(forTimeInterval: 0.05)
        XCTAssertEqual(order.value, ["first started"], "the handler returned but the promise is pending")
        openGate.fulfill(with: 1)
        XCTAssertEqual(utilAwait(second.promise), .value(2))
        XCTAssertEqual(order.value, ["first started", "second started"])
        XCTAssertEqual(first.promise.result, .value(1))
    }

    func testSerialQueueOrdering() {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let order = UtilBox<[Int]>([])
        let operations = (0..<10).map { index in
            PromiseOperation<Int, UtilError>(on: .utility) { resolver in
                order.mutate { $0.append(index) }
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.002) { resolver.fulfill(with: index) }
            }
        }
        queue.addOperations(operations, waitUntilFinished: false)
        XCTAssertEqual(utilAwait(when(fulfilled: operations.map(\.promise))), .value(Array(0..<10)))
        XCTAssertEqual(order.value, Array(0..<10))
    }

    func testDependencies() {
        let queue = OperationQueue()
        let order = UtilBox<[String]>([])
        let a = PromiseOperation<Int, UtilError>(on: .utility) { resolver in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) {
                order.append("a")
                resolver.fulfill(with: 1)
            }
        }
        let b = PromiseOperation<Int, UtilError>(on: .utility) { resolver in
            order.append("b")
            resolver.fulfill(with: 2)
        }
        b.addDependency(a)
        queue.addOperation(b)
        queue.addOperation(a)
        XCTAssertEqual(utilAwait(b.promise), .value(2))
        XCTAssertEqual(order.value, ["a", "b"])
    }

    func testCancelBeforeStartNeverRunsTheHandler() {
        let ran = UtilBox(false)
        let operation = PromiseOperation<Int, UtilError>(on: .immediate) { resolver in
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
        let ran = UtilBox(false)
        let operation = PromiseOperation<Int, UtilError>(on: .utility) { _ in ran.value = true }
        queue.addOperation(operation)
        operation.promise.requestCancel()
        XCTAssertTrue(operation.isCancelled, "promise.requestCancel() cancels the operation")
        queue.isSuspended = false
        XCTAssertEqual(utilAwait(operation.promise), .cancelled)
        queue.waitUntilAllOperationsAreFinished()
        XCTAssertFalse(ran.value)
    }

    func testCancelWhileRunningRequestsCancelOfThePromise() {
        let operation = PromiseOperation<Int, UtilError>(on: .immediate) { resolver in
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
        let runs = UtilBox(0)
        let operation = PromiseOperation<Int, UtilError>(on: .immediate) { resolver in
            runs.increment()
            resolver.fulfill(with: 1)
        }
        operation.start()
        operation.start()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in operation.start() }
        XCTAssertEqual(runs.value, 1)
    }

    func testDroppingANeverStartedOperationCancelsThePromise() {
        var promise: Promise<Int, UtilError>!
        weak var weakOperation: PromiseOperation<Int, UtilError>?
        do {
            let operation = PromiseOperation<Int, UtilError>(on: .utility) { $0.fulfill(with: 1) }
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
        let operation = PromiseOperation<Int, UtilError>(on: .utility) { resolver in
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) { resolver.fulfill(with: 1) }
        }
        queue.addOperation(operation)
        operation.waitUntilFinished()
        XCTAssertTrue(operation.isFinished)
        XCTAssertEqual(operation.promise.result, .value(1))
    }
}
