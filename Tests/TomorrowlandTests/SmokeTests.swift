import XCTest
import Foundation
@testable import Tomorrowland

final class SmokeTests: XCTestCase {
    func testImmediateChain() {
        let (p, r) = Promise<Int, String>.makeWithResolver()
        let q = p.map(on: .immediate) { $0 + 1 }.then(on: .immediate) { _ in }
        r.fulfill(with: 1)
        XCTAssertEqual(q.result, .value(2))
    }

    func testDroppedResolverCancels() {
        var p: Promise<Int, String>!
        do {
            let (pp, _) = Promise<Int, String>.makeWithResolver()
            p = pp
        }
        XCTAssertEqual(p.result, .cancelled)
    }

    func testPropagationWaitsForHandles() {
        let flag = LockedFlag()
        var child: Promise<Int, String>!
        var resolverKeep: Promise<Int, String>.Resolver!
        do {
            let (parent, resolver) = Promise<Int, String>.makeWithResolver()
            resolverKeep = resolver
            resolver.onRequestCancel(on: .immediate) { _ in flag.set() }
            child = parent.map(on: .immediate) { $0 }
            child.requestCancel()
            XCTAssertFalse(flag.value)
        }
        XCTAssertTrue(flag.value)
        _ = resolverKeep
    }

    func testDeepFlatMapOnSmallStack() {
        let done = expectation(description: "done")
        let thread = Thread {
            let (root, resolver) = Promise<Int, String>.makeWithResolver()
            var p = root
            for _ in 0..<100_000 { p = p.flatMap(on: .immediate) { Promise(fulfilled: $0 + 1) } }
            var t = root
            for _ in 0..<100_000 { t = t.tap() }
            resolver.fulfill(with: 0)
            XCTAssertEqual(p.result, .value(100_000))
            XCTAssertEqual(t.result, .value(0))
            var (outer, outerResolver) = Promise<Int, String>.makeWithResolver()
            let first = outer
            for _ in 0..<100_000 {
                let (next, nextResolver) = Promise<Int, String>.makeWithResolver()
                outerResolver.resolve(with: next)
                outer = next
                outerResolver = nextResolver
            }
            outerResolver.fulfill(with: 7)
            XCTAssertEqual(first.result, .value(7))
            done.fulfill()
        }
        thread.stackSize = 64 * 1024
        thread.start()
        wait(for: [done], timeout: 60)
    }
}

final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var _value = false
    func set() { lock.lock(); _value = true; lock.unlock() }
    var value: Bool { lock.lock(); defer { lock.unlock() }; return _value }
}
