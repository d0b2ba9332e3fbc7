// Rule 18: callback lifetime. Every closure is released once the promise resolves; an
// invoked callback is released on its own context, right after it runs; a callback that
// is not invoked is released on the resolving thread.

import Dispatch
import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class CallbackLifetimeTests: XCTestCase {
    typealias P = Promise<Int, String>

    func testRule18_invokedCallbackReleasedOnItsQueue() {
        let queue = TaggedQueue("core.lifetime")
        let releasedOnQueue = Slot<Bool?>()
        let (promise, resolver) = P.makeWithResolver()
        do {
            let spy = DeinitSpy { releasedOnQueue.value = queue.isCurrent }
            _ = promise.then(on: .queue(queue.queue)) { _ in spy.touch() }
        }
        resolver.fulfill(with: 1)
        waitUntil { releasedOnQueue.value != nil }
        XCTAssertEqual(releasedOnQueue.value, true)
    }

    func testRule18_invokedMainCallbackReleasedOnMainQueue() {
        let releasedOnMain = Slot<Bool?>()
        let (promise, resolver) = P.makeWithResolver()
        do {
            let spy = DeinitSpy { releasedOnMain.value = MainQueue.isCurrent }
            _ = promise.map(on: .main) { _ in spy.touch() }
        }
        let done = expectation(description: "resolved off main")
        DispatchQueue.global().async { resolver.fulfill(with: 1); done.fulfill() }
        wait(for: [done], timeout: 10)
        waitUntil { releasedOnMain.value != nil }
        XCTAssertEqual(releasedOnMain.value, true)
    }

    func testRule18_releasedBeforeTheNextChainedMainCallbackStarts() {
        let releasedBeforeNext = Slot<Bool?>()
        let released = Counter()
        let (promise, resolver) = P.makeWithResolver()
        do {
            let spy = DeinitSpy { released.increment() }
            _ = promise.then(on: .main) { _ in spy.touch() }
                .then(on: .main) { _ in releasedBeforeNext.value = released.value == 1 }
        }
        resolver.fulfill(with: 1)
        waitUntil { releasedBeforeNext.value != nil }
        XCTAssertEqual(releasedBeforeNext.value, true)
    }

    func testRule18_invalidatedCallbackReleasedOnItsContext() {
        let queue = TaggedQueue("core.lifetime.token")
        let releasedOnQueue = Slot<Bool?>()
        let token = PromiseInvalidationToken()
        let (promise, resolver) = P.makeWithResolver()
        do {
            let spy = DeinitSpy { releasedOnQueue.value = queue.isCurrent }
            _ = promise.then(on: .queue(queue.queue), token: token) { _ in spy.touch() }
        }
        token.invalidate()
        resolver.fulfill(with: 1)
        waitUntil { releasedOnQueue.value != nil }
        XCTAssertEqual(releasedOnQueue.value, true, "invoked ignoring tokens: released on the context")
    }

    func testRule18_notInvokedCallbackReleasedOnResolvingThread() {
        let queue = TaggedQueue("core.lifetime.resolver")
        let releasedOnResolver = Slot<Bool?>()
        let (promise, resolver) = P.makeWithResolver()
        do {
            let spy = DeinitSpy { releasedOnResolver.value = queue.isCurrent }
            _ = promise.then(on: .main) { _ in spy.touch() }
        }
        queue.queue.sync { resolver.reject(with: "e") }
        XCTAssertEqual(releasedOnResolver.value, true, "released synchronously while rejecting")
    }

    func testRule18_allClosuresReleasedWhenPromiseResolves() {
        let released = Counter()
        let (promise, resolver) = P.makeWithResolver()
        do {
            let spies = (0..<4).map { _ in DeinitSpy { released.increment() } }
            _ = promise.catch(on: .immediate) { _ in spies[0].touch() }
            _ = promise.recover(on: .main) { _ in spies[1].touch(); return 0 }
            _ = promise.onCancel(on: .default) { spies[2].touch() }
            resolver.onRequestCancel(on: .main) { _ in spies[3].touch() }
        }
        XCTAssertEqual(released.value, 0)
        resolver.fulfill(with: 1)
        XCTAssertEqual(released.value, 4, "none was invoked: all released at once")
    }

    func testRule18_cancelHandlerReleasedOnItsContextAfterRunning() {
        let queue = TaggedQueue("core.lifetime.cancel")
        let releasedOnQueue = Slot<Bool?>()
        let (promise, resolver) = P.makeWithResolver()
        do {
            let spy = DeinitSpy { releasedOnQueue.value = queue.isCurrent }
            resolver.onRequestCancel(on: .queue(queue.queue)) { _ in spy.touch() }
        }
        promise.requestCancel()
        waitUntil { releasedOnQueue.value != nil }
        XCTAssertEqual(releasedOnQueue.value, true)
        _ = resolver
    }

    func testRule18_resolvedChainReleasesItsLinks() {
        // After resolution nothing in the chain keeps the others alive (upstream links and
        // callback lists are broken), so dropping the handles frees every promise.
        weak var weakParent: PromiseBox<Int, String>?
        weak var weakChild: PromiseBox<Int, String>?
        weak var weakInner: PromiseBox<Int, String>?
        do {
            let (parent, resolver) = P.makeWithResolver()
            let (inner, innerResolver) = P.makeWithResolver()
            let child = parent.flatMap(on: .immediate) { _ in inner }
            weakParent = parent._box
            weakChild = child._box
            weakInner = inner._box
            resolver.fulfill(with: 1)
            innerResolver.fulfill(with: 2)
            XCTAssertEqual(child.result, .value(2))
        }
        XCTAssertNil(weakParent)
        XCTAssertNil(weakChild)
        XCTAssertNil(weakInner)
    }

    func testRule18_cancelledChildBreaksUpstreamCycle() {
        weak var weakChild: PromiseBox<Int, String>?
        let (parent, resolver) = P.makeWithResolver()
        do {
            let child = parent.map(on: .immediate) { $0 }
            weakChild = child._box
        }
        XCTAssertNotNil(weakChild, "a pending child sits in its parent's list")
        resolver.fulfill(with: 1)
        XCTAssertNil(weakChild, "fired and released")
    }
}
