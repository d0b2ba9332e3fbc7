// Rule 19: registration order, depth-first order across a chain, and deep chains that
// resolve in constant stack on a thread with a small stack.

import Foundation
import TestSupport
import XCTest
@testable import Tomorrowland

final class OrderAndDepthTests: XCTestCase {
    typealias P = Promise<Int, String>

    func testRule19_callbacksRunInRegistrationOrder() {
        let (promise, resolver) = P.makeWithResolver()
        let order = Recorder<Int>()
        for i in 0..<100 { _ = promise.then(on: .immediate) { _ in order.append(i) } }
        resolver.fulfill(with: 0)
        XCTAssertEqual(order.values, Array(0..<100))
    }

    func testRule19_depthFirstAcrossAChain() {
        let (root, resolver) = P.makeWithResolver()
        let order = Recorder<String>()
        _ = root.then(on: .immediate) { _ in order.append("A") }
        let child = root.map(on: .immediate) { v -> Int in order.append("child"); return v }
        _ = child.then(on: .immediate) { _ in order.append("child.1") }
        let grandchild = child.then(on: .immediate) { _ in order.append("child.2") }
        _ = grandchild.then(on: .immediate) { _ in order.append("child.2.1") }
        _ = child.then(on: .immediate) { _ in order.append("child.3") }
        _ = root.then(on: .immediate) { _ in order.append("B") }
        resolver.fulfill(with: 1)
        XCTAssertEqual(order.values, ["A", "child", "child.1", "child.2", "child.2.1", "child.3", "B"])
    }

    func testRule19_depthFirstThroughPipes() {
        let (root, resolver) = P.makeWithResolver()
        let order = Recorder<String>()
        let tapped = root.tap()
        _ = tapped.then(on: .immediate) { _ in order.append("tap child") }
        let (outer, outerResolver) = P.makeWithResolver()
        outerResolver.resolve(with: root)
        _ = outer.then(on: .immediate) { _ in order.append("piped child") }
        _ = root.then(on: .immediate) { _ in order.append("after") }
        resolver.fulfill(with: 1)
        XCTAssertEqual(order.values, ["tap child", "piped child", "after"])
    }

    func testRule19_resolveInsideImmediateCallbackDeliversAfterTheCallbackReturns() {
        let (first, firstResolver) = P.makeWithResolver()
        let (second, secondResolver) = P.makeWithResolver()
        let order = Recorder<String>()
        _ = second.then(on: .immediate) { _ in order.append("second") }
        _ = first.then(on: .immediate) { _ in
            secondResolver.fulfill(with: 2)
            order.append("after fulfill: \(second.result == .value(2) ? "resolved" : "pending")")
        }
        firstResolver.fulfill(with: 1)
        XCTAssertEqual(order.values, ["after fulfill: resolved", "second"],
                       "the result is visible at once; its callbacks run when the current one returns")
    }

    func testRule19_resolveWithResolvedPromiseInsideCallbackDeliversAfterTheCallbackReturns() {
        let (first, firstResolver) = P.makeWithResolver()
        let (second, secondResolver) = P.makeWithResolver()
        let order = Recorder<String>()
        _ = second.then(on: .immediate) { _ in order.append("second") }
        _ = first.then(on: .immediate) { _ in
            secondResolver.resolve(with: P(fulfilled: 2))
            order.append("after resolve(with:)")
        }
        firstResolver.fulfill(with: 1)
        XCTAssertEqual(order.values, ["after resolve(with:)", "second"])
        XCTAssertEqual(second.result, .value(2))
    }

    func testRule19_resolutionsInsideACallbackRunDepthFirstInResolutionOrder() {
        let (root, resolver) = P.makeWithResolver()
        let (q1, r1) = P.makeWithResolver()
        let (q2, r2) = P.makeWithResolver()
        let (q3, r3) = P.makeWithResolver()
        let order = Recorder<String>()
        _ = q1.then(on: .immediate) { _ in order.append("q1"); r3.fulfill(with: 3) }
        _ = q3.then(on: .immediate) { _ in order.append("q3") }
        _ = q1.then(on: .immediate) { _ in order.append("q1 again") }
        _ = q2.then(on: .immediate) { _ in order.append("q2") }
        let child = root.map(on: .immediate) { value -> Int in
            r1.fulfill(with: 1)
            r2.fulfill(with: 2)
            order.append("callback returns")
            return value
        }
        _ = child.then(on: .immediate) { _ in order.append("child") }
        _ = root.then(on: .immediate) { _ in order.append("after") }
        resolver.fulfill(with: 0)
        XCTAssertEqual(order.values, ["callback returns", "q1", "q3", "q1 again", "q2", "child", "after"])
    }

    func testRule13_resolutionQueuedInsideANowOrBlockDeliversWithExecutingNowFalse() {
        let (first, firstResolver) = P.makeWithResolver()
        let (second, secondResolver) = P.makeWithResolver()
        let flags = Recorder<Bool>()
        _ = second.then(on: .immediate) { _ in flags.append(PromiseContext.isExecutingNow) }
        _ = first.then(on: .immediate) { _ in
            _ = P(fulfilled: 0).then(on: .nowOr(.main)) { _ in
                flags.append(PromiseContext.isExecutingNow)
                secondResolver.fulfill(with: 2)
            }
        }
        firstResolver.fulfill(with: 1)
        XCTAssertEqual(flags.values, [true, false])
    }

    // MARK: Deep chains

    private static func deepFlatMap(levels: Int) -> Bool {
        let (root, resolver) = P.makeWithResolver()
        var p = root
        for _ in 0..<levels { p = p.flatMap(on: .immediate) { P(fulfilled: $0 + 1) } }
        resolver.fulfill(with: 0)
        return p.result == .value(levels)
    }

    private static func deepPendingFlatMap(levels: Int) -> Bool {
        // Each level adopts a promise that is still pending when the callback returns.
        let (root, resolver) = P.makeWithResolver()
        let inners = Recorder<P.Resolver>()
        var p = root
        for _ in 0..<levels {
            p = p.flatMap(on: .immediate) { _ in
                let (inner, r) = P.makeWithResolver()
                inners.append(r)
                return inner
            }
        }
        resolver.fulfill(with: 0)
        // Resolve innermost-first order is forced by the chain: level k only runs after k-1.
        for index in 0..<levels {
            guard let inner = inners[index] else { return false }
            inner.fulfill(with: index)
        }
        return p.result == .value(levels - 1)
    }

    private static func deepTap(levels: Int) -> Bool {
        let (root, resolver) = P.makeWithResolver()
        var t = root
        for _ in 0..<levels { t = t.tap() }
        resolver.fulfill(with: 3)
        return t.result == .value(3)
    }

    private static func deepResolveWith(levels: Int) -> Bool {
        var (outer, outerResolver) = P.makeWithResolver()
        let first = outer
        for _ in 0..<levels {
            let (next, nextResolver) = P.makeWithResolver()
            outerResolver.resolve(with: next)
            outer = next
            outerResolver = nextResolver
        }
        outerResolver.fulfill(with: 7)
        return first.result == .value(7)
    }

    private static func deepResolveWithReversed(levels: Int) -> Bool {
        // Built from the resolved end: each resolve(with:) adopts an already-resolved promise.
        var p = P(fulfilled: 5)
        for _ in 0..<levels {
            let (next, r) = P.makeWithResolver()
            r.resolve(with: p)
            p = next
        }
        return p.result == .value(5)
    }

    private static func deepMixed(levels: Int) -> Bool {
        let (root, resolver) = P.makeWithResolver()
        var p = root
        for i in 0..<levels {
            switch i % 4 {
            case 0: p = p.map(on: .immediate) { $0 + 1 }
            case 1: p = p.then(on: .immediate) { _ in }
            case 2: p = p.makeChild()
            default: p = p.always(on: .immediate) { _ in }
            }
        }
        resolver.fulfill(with: 0)
        return p.result == .value((levels + 3) / 4)
    }

    private static func deepCancelByDroppingResolver(levels: Int) -> Bool {
        var leaf: P
        do {
            let (root, _) = P.makeWithResolver() // resolver dropped at the end of the scope…
            leaf = root
            for _ in 0..<levels { leaf = leaf.map(on: .immediate) { $0 } }
        }
        return leaf.result == .cancelled // …which cancelled the whole chain
    }

    /// Each level forwarded by hand from an `.immediate` callback (rule 19: resolutions do not nest).
    private static func deepHandForwarded(levels: Int) -> Bool {
        let (root, resolver) = P.makeWithResolver()
        var current = root
        for level in 0..<levels {
            let (next, r) = P.makeWithResolver()
            if level % 2 == 0 {
                _ = current.always(on: .immediate) { r.resolve(with: $0) }
            } else {
                _ = current.then(on: .immediate) { r.fulfill(with: $0 + 1) }
            }
            current = next
        }
        resolver.fulfill(with: 0)
        return current.result == .value(levels / 2)
    }

    /// The depth of the `100k` tests: 100,000 levels, a tenth under the thread sanitizer. Ten
    /// thousand is still far beyond what a recursion could reach in 64 KiB: its frames take
    /// a hundred bytes or more each, so it would overflow within a few hundred levels.
    static let fullDepth = reducedUnderThreadSanitizer(100_000)

    func testRule19_100kLevelsForwardedByHandInImmediateCallbacksOn64KiBStack() {
        let ok = Slot<Bool?>()
        runOnSmallStack(self, stackSize: 64 * 1024) { ok.value = Self.deepHandForwarded(levels: Self.fullDepth) }
        XCTAssertEqual(ok.value, true)
    }

    func testRule19_2000LevelChainsOn32KiBStack() {
        let results = Slot<[Bool]?>()
        runOnSmallStack(self, stackSize: 32 * 1024) {
            results.value = [Self.deepFlatMap(levels: 2000), Self.deepTap(levels: 2000), Self.deepResolveWith(levels: 2000),
                             Self.deepResolveWithReversed(levels: 2000), Self.deepMixed(levels: 2000),
                             Self.deepPendingFlatMap(levels: 2000), Self.deepCancelByDroppingResolver(levels: 2000)]
        }
        XCTAssertEqual(results.value, Array(repeating: true, count: 7))
    }

    func testRule19_100kFlatMapOn64KiBStack() {
        let ok = Slot<Bool?>()
        runOnSmallStack(self, stackSize: 64 * 1024) { ok.value = Self.deepFlatMap(levels: Self.fullDepth) }
        XCTAssertEqual(ok.value, true)
    }

    func testRule19_100kTapOn64KiBStack() {
        let ok = Slot<Bool?>()
        runOnSmallStack(self, stackSize: 64 * 1024) { ok.value = Self.deepTap(levels: Self.fullDepth) }
        XCTAssertEqual(ok.value, true)
    }

    func testRule19_100kResolveWithOn64KiBStack() {
        let ok = Slot<Bool?>()
        runOnSmallStack(self, stackSize: 64 * 1024) {
            ok.value = Self.deepResolveWith(levels: Self.fullDepth) && Self.deepResolveWithReversed(levels: Self.fullDepth)
        }
        XCTAssertEqual(ok.value, true)
    }

    func testRule19_100kMixedAndCancelledChainsOn64KiBStack() {
        let ok = Slot<[Bool]?>()
        runOnSmallStack(self, stackSize: 64 * 1024) {
            ok.value = [Self.deepMixed(levels: Self.fullDepth), Self.deepCancelByDroppingResolver(levels: Self.fullDepth),
                        Self.deepPendingFlatMap(levels: Self.fullDepth)]
        }
        XCTAssertEqual(ok.value, [true, true, true])
    }
}
