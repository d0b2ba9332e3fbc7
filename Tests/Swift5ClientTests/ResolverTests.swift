// 1.x-style use of `Promise.Resolver`: wrapping callback APIs, cancellation requests.

import Foundation
import Tomorrowland
import XCTest

/// A 1.x-era callback API (think `CLGeocoder`) holding a non-Sendable completion handler.
class FakeGeocoder {
    enum GeocodeError: Swift.Error { case canceled, failed }
    var pending: ((String?, Swift.Error?) -> Void)?

    func reverseGeocode(_ location: Int, completionHandler: @escaping (String?, Swift.Error?) -> Void) {
        pending = completionHandler
    }

    func complete(_ placemark: String?, _ error: Swift.Error?) {
        pending?(placemark, error)
        pending = nil
    }
}

final class ResolverTests: XCTestCase {
    func testHandleCallbackWrapsCompletionHandler() {
        let geocoder = FakeGeocoder()
        func geocode(_ location: Int) -> StdPromise<String> {
            return Promise(on: .immediate) { resolver in
                geocoder.reverseGeocode(location, completionHandler: resolver.handleCallback(isCancelError: {
                    if case FakeGeocoder.GeocodeError.canceled = $0 { return true }
                    return false
                }))
            }
        }
        let found = geocode(1)
        geocoder.complete("Paris", nil)
        XCTAssertEqual(found.result?.value, "Paris")

        let cancelled = geocode(2)
        geocoder.complete(nil, FakeGeocoder.GeocodeError.canceled)
        XCTAssertEqual(cancelled.result?.isCancelled, true)

        let failed = geocode(3)
        geocoder.complete(nil, FakeGeocoder.GeocodeError.failed)
        XCTAssertNotNil(failed.result?.error as? FakeGeocoder.GeocodeError)

        let mismatch = geocode(4)
        geocoder.complete(nil, nil)
        XCTAssertEqual(mismatch.result?.error as? PromiseCallbackError, .apiMismatch)

        // Default `isCancelError`; a value wins over an error.
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        let callback = resolver.handleCallback()
        callback(42, FakeGeocoder.GeocodeError.failed)
        XCTAssertEqual(promise.result?.value, 42)
    }

    func testOnRequestCancelAndHasRequestedCancel() {
        var cancelledTasks = 0
        var sawRequest = false
        let promise = Promise<Int, String>(on: .immediate) { resolver in
            XCTAssertFalse(resolver.hasRequestedCancel)
            resolver.onRequestCancel(on: .immediate) { resolver in
                cancelledTasks += 1
                sawRequest = resolver.hasRequestedCancel
                resolver.cancel()
            }
        }
        XCTAssertNil(promise.result)
        promise.requestCancel()
        XCTAssertEqual(cancelledTasks, 1)
        XCTAssertTrue(sawRequest)
        XCTAssertEqual(promise.result, .cancelled)
        promise.requestCancel()
        XCTAssertEqual(cancelledTasks, 1, "handlers are dropped once resolved")
    }

    /// `requestCancel()` is only a request: the body may still fulfil.
    func testRequestCancelIsOnlyARequest() {
        var storedResolver: Promise<Int, String>.Resolver?
        let promise = Promise<Int, String>(on: .immediate) { resolver in
            storedResolver = resolver
        }
        promise.requestCancel()
        XCTAssertNil(promise.result)
        XCTAssertEqual(storedResolver?.hasRequestedCancel, true)
        storedResolver?.fulfill(with: 1)
        storedResolver?.reject(with: "too late")
        XCTAssertEqual(promise.result, .value(1))
    }

    func testResolveWithResultPromiseAndSwiftResult() {
        let (a, ra) = Promise<Int, String>.makeWithResolver()
        ra.resolve(with: .error("nope"))
        XCTAssertEqual(a.result, .error("nope"))

        let (b, rb) = Promise<Int, String>.makeWithResolver()
        let (inner, innerResolver) = Promise<Int, String>.makeWithResolver()
        rb.resolve(with: inner)
        XCTAssertNil(b.result)
        innerResolver.fulfill(with: 8)
        XCTAssertEqual(b.result, .value(8))

        let (c, rc) = StdPromise<Int>.makeWithResolver()
        rc.resolve(with: PromiseResult<Int, APIError>.error(.notFound))
        XCTAssertEqual(c.result?.error as? APIError, .notFound)

        let (d, rd) = Promise<Int, APIError>.makeWithResolver()
        rd.resolve(with: Result<Int, APIError>.success(3))
        XCTAssertEqual(d.result, .value(3))
    }

    /// A resolver that goes out of scope unused cancels the promise (the README's promise).
    func testDroppedResolverCancels() {
        var cancelledCalled = false
        let promise = Promise<User, String>(on: .immediate) { _ in }
        promise.onCancel(on: .immediate) { cancelledCalled = true }
        XCTAssertEqual(promise.result?.isCancelled, true)
        XCTAssertTrue(cancelledCalled)
    }

    /// Resolving from a plain `DispatchQueue` callback, the way 1.x code did it.
    func testResolverCapturedByDispatchQueueBlock() {
        var values: [Int] = []
        let done = expectation(description: "done")
        let promise = Promise<[Int], String>(on: .default) { resolver in
            let queue = DispatchQueue(label: "worker")
            queue.async {
                var collected: [Int] = []
                for i in 0..<5 { collected.append(i) }
                resolver.fulfill(with: collected)
            }
        }
        promise.then { values = $0 }.always { _ in done.fulfill() }
        wait(for: [done], timeout: 10)
        XCTAssertEqual(values, [0, 1, 2, 3, 4])
    }
}
