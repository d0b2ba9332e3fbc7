// Thread-safety expectations of the original suite: racing resolutions (first wins, callbacks
// run once), callbacks registered while the promise resolves, concurrent token registration,
// concurrent DelayedPromise access, and deep callback-free chains resolved on a small stack.

import Foundation
import TestSupport
import Tomorrowland
import XCTest

final class ConcurrencyTests: XCTestCase {
    func testRacingResolutionsFirstWins() {
        for _ in 0..<200 {
            let (promise, resolver) = Promise<Int, String>.makeWithResolver()
            let calls = Locked(0)
            promise.always(on: .immediate, { _ in calls.modify({ $0 += 1 }) })
            DispatchQueue.concurrentPerform(iterations: 4) { (i) in
                switch i {
                case 0: resolver.fulfill(with: 1)
                case 1: resolver.reject(with: "two")
                case 2: resolver.cancel()
                default: resolver.fulfill(with: 4)
                }
            }
            XCTAssertEqual(calls.value, 1)
            let result = promise.result
            XCTAssertNotNil(result)
            XCTAssertEqual(promise.result, result, "the result never changes")
        }
    }

    func testCallbacksRegisteredWhileResolvingRunOnce() {
        for _ in 0..<100 {
            let (promise, resolver) = Promise<Int, String>.makeWithResolver()
            let calls = Locked(0)
            let group = DispatchGroup()
            DispatchQueue.concurrentPerform(iterations: 8) { (i) in
                if i == 4 {
                    resolver.fulfill(with: 42)
                    return
                }
                for _ in 0..<10 {
                    group.enter()
                    _ = promise.then(on: .immediate, { (x) in
                        XCTAssertEqual(x, 42)
                        calls.modify({ $0 += 1 })
                        group.leave()
                    })
                }
            }
            XCTAssertEqual(group.wait(timeout: .now() + 5), .success)
            XCTAssertEqual(calls.value, 70)
        }
    }

    func testConcurrentRequestCancelOnInvalidate() {
        let token = PromiseInvalidationToken()
        let requested = Locked(0)
        var keep: [(Promise<Int, String>, Promise<Int, String>.Resolver)] = []
        for _ in 0..<200 {
            let (promise, resolver) = Promise<Int, String>.makeWithResolver()
            resolver.onRequestCancel(on: .immediate, { _ in requested.modify({ $0 += 1 }) })
            keep.append((promise, resolver))
        }
        let pairs = keep
        DispatchQueue.concurrentPerform(iterations: 4) { (i) in
            for (n, pair) in pairs.enumerated() where n % 4 == i {
                token.requestCancelOnInvalidate(pair.0)
            }
        }
        token.invalidate()
        XCTAssertEqual(requested.value, 200)
    }

    func testConcurrentInvalidationAndCallbacks() {
        for _ in 0..<50 {
            let token = PromiseInvalidationToken()
            let (promise, resolver) = Promise<Int, String>.makeWithResolver()
            let ran = Locked(0)
            var children: [Promise<Int, String>] = []
            for _ in 0..<20 {
                children.append(promise.map(on: .utility, token: token, { (x) -> Int in
                    ran.modify({ $0 += 1 })
                    return x
                }))
            }
            DispatchQueue.concurrentPerform(iterations: 2) { (i) in
                if i == 0 { token.invalidate() } else { resolver.fulfill(with: 1) }
            }
            let expectations = children.map({ XCTestExpectation(on: $0, handler: { _ in }) })
            wait(for: expectations, timeout: 5)
            let values = children.filter({ $0.result == .value(1) }).count
            let cancelled = children.filter({ $0.result == .cancelled }).count
            XCTAssertEqual(values + cancelled, 20)
            XCTAssertEqual(values, ran.value, "a transformer either ran or its promise was cancelled")
        }
    }

    func testConcurrentDelayedPromiseAccess() {
        for _ in 0..<50 {
            let calls = Locked(0)
            let dp = DelayedPromise<Int, String>(on: .utility, { (resolver) in
                calls.modify({ $0 += 1 })
                resolver.fulfill(with: 1)
            })
            let promises = Locked<[Promise<Int, String>]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let promise = dp.promise
                promises.modify({ $0.append(promise) })
            }
            let all = promises.value
            XCTAssertTrue(all.allSatisfy({ $0 == all[0] }))
            let expectation = XCTestExpectation(onSuccess: all[0], expectedValue: 1)
            wait(for: [expectation], timeout: 10)
            XCTAssertEqual(calls.value, 1)
        }
    }

    func testDeepCallbackFreeChainsOnSmallStack() {
        let (root, resolver) = Promise<Int, String>.makeWithResolver()
        var tapped = root
        for _ in 0..<3000 {
            tapped = tapped.tap()
        }
        var piped = root
        for _ in 0..<3000 {
            let previous = piped
            piped = Promise<Int, String>(on: .immediate, { $0.resolve(with: previous) })
        }
        var children = root
        for _ in 0..<3000 {
            children = children.makeChild().ignoringCancel()
        }
        let done = XCTestExpectation(description: "resolved on a small stack")
        let thread = Thread {
            resolver.fulfill(with: 9)
            done.fulfill()
        }
        thread.stackSize = 64 * 1024
        thread.start()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(tapped.result, .value(9))
        XCTAssertEqual(piped.result, .value(9))
        XCTAssertEqual(children.result, .value(9))
    }
}
