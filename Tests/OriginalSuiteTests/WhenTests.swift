// The original suite's WhenTests: `when(fulfilled:)` over arrays and tuples of 2 to 6 promises,
// `cancelOnFailure`, already-resolved inputs, cancel propagation; `when(first:)` with
// `cancelRemaining`.

import Foundation
import TestSupport
import Tomorrowland
import XCTest

final class WhenTests: XCTestCase {
    private func randomDelayedPromise<T>(_ value: T) -> Promise<T, String> {
        return Promise(on: .utility, { (resolver) in
            usleep(UInt32.random(in: 0..<5) * 1000)
            resolver.fulfill(with: value)
        })
    }

    // MARK: - when(fulfilled:) over arrays

    func testWhen() {
        let promises = (1...5).map({ x -> Promise<Int, String> in
            return randomDelayedPromise(x * 2)
        })
        let promise = when(fulfilled: promises)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: [2, 4, 6, 8, 10])
        wait(for: [expectation], timeout: 10)
    }

    func testWhenManyInputs() {
        let promises = (1...100).map({ x -> Promise<Int, String> in
            return Promise(on: .utility, { $0.fulfill(with: x) })
        })
        let promise = when(fulfilled: promises, qos: .utility)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: Array(1...100))
        wait(for: [expectation], timeout: 10)
    }

    func testWhenRejected() {
        let promises = (1...5).map({ x -> Promise<Int, String> in
            return Promise(on: .utility, { (resolver) in
                if x == 3 {
                    resolver.reject(with: "error")
                } else {
                    resolver.fulfill(with: x * 2)
                }
            })
        })
        let promise = when(fulfilled: promises)
        let expectation = XCTestExpectation(onError: promise, expectedError: "error")
        wait(for: [expectation], timeout: 10)
    }

    func testWhenCancelled() {
        let promises = (1...5).map({ x -> Promise<Int, String> in
            return Promise(on: .utility, { (resolver) in
                if x == 3 {
                    resolver.cancel()
                } else {
                    resolver.fulfill(with: x * 2)
                }
            })
        })
        let promise = when(fulfilled: promises)
        let expectation = XCTestExpectation(onCancel: promise)
        wait(for: [expectation], timeout: 10)
    }

    func testWhenEmpty() {
        let promise = when(fulfilled: [] as [Promise<Int, String>])
        XCTAssertEqual(promise.result, .value([]))
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: [])
        wait(for: [expectation], timeout: 10)
    }

    func testWhenDuplicateInputs() {
        let (input, resolver) = Promise<Int, String>.makeWithResolver()
        let promise = when(fulfilled: [input, input, input])
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: [7, 7, 7])
        resolver.fulfill(with: 7)
        wait(for: [expectation], timeout: 10)
    }

    func testWhenFirstFailureDecides() {
        let (a, resolverA) = Promise<Int, String>.makeWithResolver()
        let (b, resolverB) = Promise<Int, String>.makeWithResolver()
        let (c, resolverC) = Promise<Int, String>.makeWithResolver()
        let promise = when(fulfilled: [a, b, c])
        let expectation = XCTestExpectation(onError: promise, expectedError: "b")
        resolverB.reject(with: "b")
        resolverA.reject(with: "a")
        resolverC.cancel()
        wait(for: [expectation], timeout: 10)
    }

    func testWhenAlreadyFulfilledInputsGiveResolvedPromise() {
        let promise = when(fulfilled: [Promise<Int, String>(fulfilled: 1), Promise(fulfilled: 2)])
        XCTAssertEqual(promise.result, .value([1, 2]))
    }

    func testWhenAlreadyRejectedInputGivesResolvedPromise() {
        let (pending, resolver) = Promise<Int, String>.makeWithResolver()
        let promise = when(fulfilled: [pending, Promise(rejected: "foo")])
        XCTAssertEqual(promise.result, .error("foo"))
        let promise2 = when(fulfilled: [pending, Promise(with: .cancelled)])
        XCTAssertEqual(promise2.result, .cancelled)
        withExtendedLifetime(resolver) {}
    }

    func testWhenCancelOnFailure() {
        let cancelled = Locked(0)
        let pending = Locked<[Promise<Int, String>.Resolver]>([])
        let promises = (1...5).map({ x -> Promise<Int, String> in
            return Promise(on: .utility, { (resolver) in
                if x == 3 {
                    resolver.reject(with: "error")
                    return
                }
                resolver.onRequestCancel(on: .immediate, { (resolver) in
                    cancelled.modify({ $0 += 1 })
                    resolver.cancel()
                })
                pending.modify({ $0.append(resolver) })
            })
        })
        let promise = when(fulfilled: promises, cancelOnFailure: true)
        let expectation = XCTestExpectation(onError: promise, expectedError: "error")
        wait(for: [expectation], timeout: 10)
        // Inputs whose handler had not run yet when the failure came are fulfilled now.
        let deadline = Date().addingTimeInterval(10)
        while pending.value.count + cancelled.value < 4 && Date() < deadline {
            usleep(1000)
        }
        for resolver in pending.value {
            resolver.fulfill(with: 0)
        }
        let expectations = promises.enumerated().filter({ $0.offset != 2 }).map({ XCTestExpectation(on: $0.element, handler: { _ in }) })
        wait(for: expectations, timeout: 10)
        XCTAssertEqual(promise.result, .error("error"), "the output keeps the first failure")
        XCTAssertEqual(promises.filter({ $0.result == .cancelled }).count, cancelled.value)
        XCTAssertGreaterThan(cancelled.value, 0)
    }

    func testWhenCancelOnFailureRequestsCancelOfRemainingInputs() {
        let (inputs, resolvers, requested) = makeCancellableInputs(3)
        let promise = when(fulfilled: inputs, cancelOnFailure: true)
        resolvers[1].reject(with: "foo")
        let expectation = XCTestExpectation(onError: promise, expectedError: "foo")
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(requested.value.sorted(), [0, 2])
        XCTAssertEqual(inputs[0].result, .cancelled)
        XCTAssertEqual(inputs[2].result, .cancelled)
        XCTAssertEqual(promise.result, .error("foo"))
    }

    func testWhenCancelOnFailureWithCancelledInput() {
        let (inputs, resolvers, requested) = makeCancellableInputs(3)
        let promise = when(fulfilled: inputs, cancelOnFailure: true)
        resolvers[0].cancel()
        let expectation = XCTestExpectation(onCancel: promise)
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(requested.value.sorted(), [1, 2])
    }

    func testWhenWithoutCancelOnFailureLeavesInputsAlone() {
        let (inputs, resolvers, requested) = makeCancellableInputs(3)
        let promise = when(fulfilled: inputs)
        resolvers[1].reject(with: "foo")
        let expectation = XCTestExpectation(onError: promise, expectedError: "foo")
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(requested.value, [])
        resolvers[0].fulfill(with: 1)
        XCTAssertEqual(inputs[0].result, .value(1))
    }

    func testWhenRequestCancelPropagatesToInputs() {
        let requested = Locked(0)
        let promise: Promise<[Int], String>
        var resolvers: [Promise<Int, String>.Resolver] = []
        do {
            let inputs = (0..<3).map({ _ -> Promise<Int, String> in
                let (promise, resolver) = Promise<Int, String>.makeWithResolver()
                resolver.onRequestCancel(on: .immediate, { (resolver) in
                    requested.modify({ $0 += 1 })
                    resolver.cancel()
                })
                resolvers.append(resolver)
                return promise
            })
            promise = when(fulfilled: inputs)
        }
        let expectation = XCTestExpectation(onCancel: promise)
        promise.requestCancel()
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(requested.value, 3)
    }

    func testWhenRequestCancelDoesNotCancelInputWithOtherChildren() {
        let requested = Locked(0)
        let promise: Promise<[Int], String>
        let otherChild: Promise<Int, String>
        var resolvers: [Promise<Int, String>.Resolver] = []
        do {
            let inputs = (0..<2).map({ _ -> Promise<Int, String> in
                let (promise, resolver) = Promise<Int, String>.makeWithResolver()
                resolver.onRequestCancel(on: .immediate, { (resolver) in
                    requested.modify({ $0 += 1 })
                    resolver.cancel()
                })
                resolvers.append(resolver)
                return promise
            })
            otherChild = inputs[1].map(on: .immediate, { $0 })
            promise = when(fulfilled: inputs)
        }
        promise.requestCancel()
        let expectation = XCTestExpectation(onCancel: promise)
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(requested.value, 1)
        XCTAssertNil(otherChild.result)
        resolvers[1].fulfill(with: 5)
        XCTAssertEqual(otherChild.result, .value(5))
    }

    // MARK: - when(fulfilled:) over tuples

    func testWhenTuple2() {
        let a = randomDelayedPromise(1)
        let b = randomDelayedPromise("two")
        let promise = when(fulfilled: a, b)
        let expectation = XCTestExpectation(onSuccess: promise, handler: { (values) in
            XCTAssertEqual(values.0, 1)
            XCTAssertEqual(values.1, "two")
        })
        wait(for: [expectation], timeout: 10)
    }

    func testWhenTuple3() {
        let promise = when(fulfilled: randomDelayedPromise(1), randomDelayedPromise("two"), randomDelayedPromise(3.0))
        let expectation = XCTestExpectation(onSuccess: promise, handler: { (values) in
            XCTAssertEqual(values.0, 1)
            XCTAssertEqual(values.1, "two")
            XCTAssertEqual(values.2, 3.0)
        })
        wait(for: [expectation], timeout: 10)
    }

    func testWhenTuple4() {
        let promise = when(fulfilled: randomDelayedPromise(1), randomDelayedPromise("two"), randomDelayedPromise(3.0), randomDelayedPromise(true))
        let expectation = XCTestExpectation(onSuccess: promise, handler: { (values) in
            XCTAssertEqual(values.0, 1)
            XCTAssertEqual(values.1, "two")
            XCTAssertEqual(values.2, 3.0)
            XCTAssertEqual(values.3, true)
        })
        wait(for: [expectation], timeout: 10)
    }

    func testWhenTuple5() {
        let promise = when(fulfilled: randomDelayedPromise(1), randomDelayedPromise("two"), randomDelayedPromise(3.0), randomDelayedPromise(true), randomDelayedPromise([5]))
        let expectation = XCTestExpectation(onSuccess: promise, handler: { (values) in
            XCTAssertEqual(values.0, 1)
            XCTAssertEqual(values.1, "two")
            XCTAssertEqual(values.2, 3.0)
            XCTAssertEqual(values.3, true)
            XCTAssertEqual(values.4, [5])
        })
        wait(for: [expectation], timeout: 10)
    }

    func testWhenTuple6() {
        let promise = when(fulfilled: randomDelayedPromise(1), randomDelayedPromise("two"), randomDelayedPromise(3.0), randomDelayedPromise(true), randomDelayedPromise([5]), randomDelayedPromise(Int8(6)), qos: .utility)
        let expectation = XCTestExpectation(onSuccess: promise, handler: { (values) in
            XCTAssertEqual(values.0, 1)
            XCTAssertEqual(values.1, "two")
            XCTAssertEqual(values.2, 3.0)
            XCTAssertEqual(values.3, true)
            XCTAssertEqual(values.4, [5])
            XCTAssertEqual(values.5, 6)
        })
        wait(for: [expectation], timeout: 10)
    }

    func testWhenTupleRejected() {
        let a = randomDelayedPromise(1)
        let b = Promise<String, String>(on: .utility, { $0.reject(with: "error") })
        let c = randomDelayedPromise(3.0)
        let expectation = XCTestExpectation(onError: when(fulfilled: a, b, c), expectedError: "error")
        let expectation2 = XCTestExpectation(onError: when(fulfilled: a, b), expectedError: "error")
        let expectation3 = XCTestExpectation(onError: when(fulfilled: a, c, c, b), expectedError: "error")
        let expectation4 = XCTestExpectation(onError: when(fulfilled: a, c, c, c, b), expectedError: "error")
        let expectation5 = XCTestExpectation(onError: when(fulfilled: b, a, c, c, c, c), expectedError: "error")
        wait(for: [expectation, expectation2, expectation3, expectation4, expectation5], timeout: 10)
    }

    func testWhenTupleCancelled() {
        let a = randomDelayedPromise(1)
        let b = Promise<String, String>(on: .utility, { $0.cancel() })
        let expectation = XCTestExpectation(onCancel: when(fulfilled: a, b))
        let expectation2 = XCTestExpectation(onCancel: when(fulfilled: b, a, a))
        wait(for: [expectation, expectation2], timeout: 10)
    }

    func testWhenTupleAlreadyResolved() {
        let promise = when(fulfilled: Promise<Int, String>(fulfilled: 1), Promise<String, String>(fulfilled: "a"))
        XCTAssertEqual(promise.result?.value?.0, 1)
        XCTAssertEqual(promise.result?.value?.1, "a")
        let (pending, resolver) = Promise<Int, String>.makeWithResolver()
        let promise2 = when(fulfilled: pending, Promise<String, String>(rejected: "x"))
        XCTAssertEqual(promise2.result?.error, "x")
        withExtendedLifetime(resolver) {}
    }

    func testWhenTupleCancelOnFailure() {
        var requested = 0
        let (a, resolverA) = Promise<Int, String>.makeWithResolver()
        resolverA.onRequestCancel(on: .immediate, { requested += 1; $0.cancel() })
        let (b, resolverB) = Promise<String, String>.makeWithResolver()
        resolverB.onRequestCancel(on: .immediate, { requested += 1; $0.cancel() })
        let (c, resolverC) = Promise<Double, String>.makeWithResolver()
        let promise = when(fulfilled: a, b, c, cancelOnFailure: true)
        resolverC.reject(with: "c")
        let expectation = XCTestExpectation(onError: promise, expectedError: "c")
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(requested, 2)
        XCTAssertEqual(a.result, .cancelled)
        XCTAssertEqual(b.result, .cancelled)
    }

    func testWhenTupleRequestCancelPropagates() {
        let requested = Locked(0)
        let promise: Promise<(Int, String), String>
        let resolverA: Promise<Int, String>.Resolver
        let resolverB: Promise<String, String>.Resolver
        do {
            let (a, rA) = Promise<Int, String>.makeWithResolver()
            rA.onRequestCancel(on: .immediate, { requested.modify({ $0 += 1 }); $0.cancel() })
            let (b, rB) = Promise<String, String>.makeWithResolver()
            rB.onRequestCancel(on: .immediate, { requested.modify({ $0 += 1 }); $0.cancel() })
            resolverA = rA
            resolverB = rB
            promise = when(fulfilled: a, b)
        }
        let expectation = XCTestExpectation(onCancel: promise)
        promise.requestCancel()
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(requested.value, 2)
        withExtendedLifetime((resolverA, resolverB)) {}
    }

    // MARK: - when(first:)

    func testWhenFirst() {
        let (a, resolverA) = Promise<Int, String>.makeWithResolver()
        let (b, resolverB) = Promise<Int, String>.makeWithResolver()
        let (c, resolverC) = Promise<Int, String>.makeWithResolver()
        let promise = when(first: [a, b, c])
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 2)
        resolverB.fulfill(with: 2)
        resolverA.fulfill(with: 1)
        resolverC.reject(with: "c")
        wait(for: [expectation], timeout: 10)
    }

    func testWhenFirstRandomDelays() {
        // The slower inputs start their 0.5 s delay only once input 2 fulfilled: on a loaded
        // machine input 2's handler may start more than 0.5 s after theirs.
        let (secondFulfilled, secondFulfilledResolver) = Promise<Void, String>.makeWithResolver()
        let promises = (1...3).map({ x -> Promise<Int, String> in
            return Promise(on: .utility, { (resolver) in
                if x == 2 {
                    resolver.fulfill(with: x)
                    secondFulfilledResolver.fulfill(with: ())
                } else {
                    secondFulfilled.always(on: .utility, { _ in
                        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + 0.5) {
                            resolver.fulfill(with: x)
                        }
                    })
                }
            })
        })
        let promise = when(first: promises)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 2)
        wait(for: [expectation], timeout: 10)
    }

    func testWhenFirstRejected() {
        let (a, resolverA) = Promise<Int, String>.makeWithResolver()
        let (b, resolverB) = Promise<Int, String>.makeWithResolver()
        let promise = when(first: [a, b])
        let expectation = XCTestExpectation(onError: promise, expectedError: "b")
        resolverB.reject(with: "b")
        resolverA.fulfill(with: 1)
        wait(for: [expectation], timeout: 10)
    }

    func testWhenFirstIgnoresCancelledInputs() {
        let (a, resolverA) = Promise<Int, String>.makeWithResolver()
        let (b, resolverB) = Promise<Int, String>.makeWithResolver()
        let promise = when(first: [a, b])
        resolverA.cancel()
        XCTAssertNil(promise.result)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 2)
        resolverB.fulfill(with: 2)
        wait(for: [expectation], timeout: 10)
    }

    func testWhenFirstAllCancelled() {
        let (a, resolverA) = Promise<Int, String>.makeWithResolver()
        let (b, resolverB) = Promise<Int, String>.makeWithResolver()
        let promise = when(first: [a, b])
        let expectation = XCTestExpectation(onCancel: promise)
        resolverA.cancel()
        resolverB.cancel()
        wait(for: [expectation], timeout: 10)
    }

    func testWhenFirstEmpty() {
        let promise = when(first: [] as [Promise<Int, String>])
        XCTAssertEqual(promise.result, .cancelled)
    }

    func testWhenFirstAllAlreadyCancelled() {
        let promise = when(first: [Promise<Int, String>(with: .cancelled), Promise(with: .cancelled)])
        XCTAssertEqual(promise.result, .cancelled)
    }

    func testWhenFirstAlreadyFulfilledInput() {
        let (pending, resolver) = Promise<Int, String>.makeWithResolver()
        let promise = when(first: [pending, Promise(fulfilled: 3)])
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 3)
        wait(for: [expectation], timeout: 10)
        withExtendedLifetime(resolver) {}
    }

    func testWhenFirstCancelRemaining() {
        let (inputs, resolvers, requested) = makeCancellableInputs(3)
        let promise = when(first: inputs, cancelRemaining: true)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 10)
        resolvers[1].fulfill(with: 10)
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(requested.value.sorted(), [0, 2])
        XCTAssertEqual(inputs[0].result, .cancelled)
        XCTAssertEqual(inputs[2].result, .cancelled)
        XCTAssertEqual(promise.result, .value(10))
    }

    func testWhenFirstWithoutCancelRemainingLeavesInputsAlone() {
        let (inputs, resolvers, requested) = makeCancellableInputs(3)
        let promise = when(first: inputs)
        let expectation = XCTestExpectation(onSuccess: promise, expectedValue: 10)
        resolvers[1].fulfill(with: 10)
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(requested.value, [])
        XCTAssertNil(inputs[0].result)
    }

    func testWhenFirstRequestCancelPropagates() {
        let requested = Locked(0)
        let promise: Promise<Int, String>
        var resolvers: [Promise<Int, String>.Resolver] = []
        do {
            let inputs = (0..<2).map({ _ -> Promise<Int, String> in
                let (promise, resolver) = Promise<Int, String>.makeWithResolver()
                resolver.onRequestCancel(on: .immediate, { (resolver) in
                    requested.modify({ $0 += 1 })
                    resolver.cancel()
                })
                resolvers.append(resolver)
                return promise
            })
            promise = when(first: inputs)
        }
        let expectation = XCTestExpectation(onCancel: promise)
        promise.requestCancel()
        wait(for: [expectation], timeout: 10)
        XCTAssertEqual(requested.value, 2)
    }
}
