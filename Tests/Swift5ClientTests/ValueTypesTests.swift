// 1.x-style use of the value types: PromiseResult, PromiseContext, NoError, errors.

import Foundation
import Tomorrowland
import XCTest

final class ValueTypesTests: XCTestCase {
    func testPromiseResultAccessorsAndTransforms() {
        let value: PromiseResult<Int, String> = .value(2)
        let error: PromiseResult<Int, String> = .error("bad")
        let cancelled: PromiseResult<Int, String> = .cancelled
        XCTAssertEqual(value.value, 2)
        XCTAssertNil(value.error)
        XCTAssertEqual(error.error, "bad")
        XCTAssertTrue(cancelled.isCancelled)
        XCTAssertFalse(value.isCancelled)
        XCTAssertEqual(value.map { $0 * 3 }, .value(6))
        XCTAssertEqual(error.mapError { $0.count }, .error(3))
        XCTAssertEqual(value.flatMap { $0 > 1 ? .error("too big") : .value($0) }, .error("too big"))
        XCTAssertEqual(error.flatMapError { _ in PromiseResult<Int, NoError>.value(0) }.value, 0)
        XCTAssertEqual(cancelled.map { $0 + 1 }, .cancelled)
        XCTAssertTrue(value != error)
        XCTAssertThrowsError(try value.map { _ -> Int in throw APIError.badData })

        let fromResult = PromiseResult<Int, APIError>(Result<Int, APIError>.failure(.notFound))
        XCTAssertEqual(fromResult, .error(.notFound))
        XCTAssertEqual(Set([value, value, error, cancelled]).count, 3)
    }

    func testPromiseResultCodableRoundTrip() throws {
        let results: [PromiseResult<Int, String>] = [.value(1), .error("e"), .cancelled]
        let data = try JSONEncoder().encode(results)
        let decoded = try JSONDecoder().decode([PromiseResult<Int, String>].self, from: data)
        XCTAssertEqual(decoded, results)
        XCTAssertThrowsError(try JSONDecoder().decode(NoError.self, from: Data("{}".utf8)))
    }

    func testContextsEqualityAndHashing() {
        let queue = DispatchQueue(label: "a")
        let otherQueue = DispatchQueue(label: "a")
        let operationQueue = OperationQueue()
        XCTAssertEqual(PromiseContext.queue(queue), .queue(queue))
        XCTAssertNotEqual(PromiseContext.queue(queue), .queue(otherQueue))
        XCTAssertEqual(PromiseContext.operationQueue(operationQueue), .operationQueue(operationQueue))
        XCTAssertEqual(PromiseContext.nowOr(.main), .nowOr(.main))
        XCTAssertNotEqual(PromiseContext.nowOr(.main), .main)
        XCTAssertEqual(PromiseContext(qos: .utility), .utility)
        XCTAssertEqual(PromiseContext(qos: .background), .background)
        XCTAssertEqual(PromiseContext(qos: .userInitiated), .userInitiated)
        XCTAssertEqual(PromiseContext(qos: .userInteractive), .userInteractive)
        XCTAssertEqual(PromiseContext(qos: .default), .default)
        let all: Set<PromiseContext> = [.main, .background, .utility, .default, .userInitiated, .userInteractive,
                                        .queue(queue), .queue(queue), .operationQueue(operationQueue), .immediate, .nowOr(.utility)]
        XCTAssertEqual(all.count, 10)
        XCTAssertEqual(PromiseContext.auto, .main, "tests run on the main thread")
        var backgroundAuto: PromiseContext?
        let done = expectation(description: "auto")
        DispatchQueue.global().async {
            backgroundAuto = .auto
            done.fulfill()
        }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(backgroundAuto, .default)
    }

    func testCallbacksRunOnTheirContext() {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "client.queue")
        queue.setSpecific(key: key, value: "client.queue")
        let operationQueue = OperationQueue()
        operationQueue.maxConcurrentOperationCount = 1
        var onQueue: String?
        var onOperationQueue = false
        var onMain = false
        var immediateThread: Thread?
        let (promise, resolver) = Promise<Int, String>.makeWithResolver()
        let done = expectation(description: "all contexts")
        done.expectedFulfillmentCount = 4
        promise.then(on: .queue(queue)) { _ in
            onQueue = DispatchQueue.getSpecific(key: key)
            done.fulfill()
        }
        promise.then(on: .operationQueue(operationQueue)) { _ in
            onOperationQueue = OperationQueue.current === operationQueue
            done.fulfill()
        }
        promise.then(on: .main) { _ in
            onMain = Thread.isMainThread
            done.fulfill()
        }
        promise.then(on: .immediate) { _ in
            immediateThread = Thread.current
            done.fulfill()
        }
        let resolvingThread = Thread {
            resolver.fulfill(with: 1)
        }
        resolvingThread.start()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(onQueue, "client.queue")
        XCTAssertTrue(onOperationQueue)
        XCTAssertTrue(onMain, "XCTest drains the main queue on the main thread")
        XCTAssertTrue(immediateThread === resolvingThread, ".immediate ran on the resolving thread")
    }

    func testDeprecatedInitResultStillCompiles() {
        // 1.x code written before v0.6 used `init(result:)`; it is deprecated, not removed.
        let promise = Promise<Int, String>(result: .value(4))
        XCTAssertEqual(promise.result, .value(4))
    }

    func testErrorTypes() {
        XCTAssertEqual(PromiseCallbackError.apiMismatch.rawValue, 0)
        let error: Swift.Error = PromiseCallbackError.apiMismatch
        XCTAssertTrue(error is PromiseCallbackError)
    }
}
