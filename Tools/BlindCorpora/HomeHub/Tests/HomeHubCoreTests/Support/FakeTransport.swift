import Foundation
import XCTest
import Tomorrowland
@testable import HomeHubCore

/// A transport that answers from canned replies, can hold requests pending until the test
/// releases them, and records every request and every cancel request that reaches it.
final class FakeTransport: HubTransport, @unchecked Sendable {
    let name = "fake"

    private struct Pending {
        let request: HubRequest
        let resolver: HubPromise<Data>.Resolver
    }

    private let lock = NSLock()
    private var replies: [String: PromiseResult<Data, HubError>] = [:]
    private var oneShots: [String: [PromiseResult<Data, HubError>]] = [:]
    private var held: [String] = []
    private var pending: [Pending] = []
    private var sent: [HubRequest] = []
    private var cancelled: [HubRequest] = []
    private var waiters: [(prefix: String, count: Int, expectation: XCTestExpectation)] = []
    private var cancelWaiters: [(prefix: String, expectation: XCTestExpectation)] = []

    /// Replies to `path` (exact) with `value`, JSON-encoded.
    func reply<T: Encodable>(_ path: String, _ value: T) {
        let data = try! JSONEncoder().encode(value)
        lock.withLock { replies[path] = .value(data) }
    }

    /// Replies to `path` with raw bytes.
    func replyRaw(_ path: String, _ data: Data) {
        lock.withLock { replies[path] = .value(data) }
    }

    /// Fails requests to `path` with `error`.
    func fail(_ path: String, with error: HubError) {
        lock.withLock { replies[path] = .error(error) }
    }

    /// Fails only the next request to `path` with `error`; later ones get the usual reply.
    func failNext(_ path: String, with error: HubError) {
        lock.withLock { oneShots[path, default: []].append(.error(error)) }
    }

    /// Requests whose path starts with `prefix` stay pending until `releaseOldest()`.
    func hold(_ prefix: String) {
        lock.withLock { held.append(prefix) }
    }

    func stopHolding() {
        lock.withLock { held.removeAll() }
    }

    var requests: [HubRequest] {
        lock.withLock { sent }
    }

    var paths: [String] {
        requests.map(\.path)
    }

    var cancelledPaths: [String] {
        lock.withLock { cancelled.map(\.path) }
    }

    var pendingCount: Int {
        lock.withLock { pending.count }
    }

    /// Fulfilled once `count` requests whose path starts with `prefix` have been sent.
    func expectRequest(_ prefix: String, count: Int = 1, in test: XCTestCase) -> XCTestExpectation {
        let expectation = test.expectation(description: "request \(prefix) ×\(count)")
        let already = lock.withLock { () -> Bool in
            if sent.filter({ $0.path.hasPrefix(prefix) }).count >= count { return true }
            waiters.append((prefix, count, expectation))
            return false
        }
        if already { expectation.fulfill() }
        return expectation
    }

    /// Fulfilled once a cancel request reaches a request whose path starts with `prefix`.
    func expectCancel(_ prefix: String, in test: XCTestCase) -> XCTestExpectation {
        let expectation = test.expectation(description: "cancel \(prefix)")
        let already = lock.withLock { () -> Bool in
            if cancelled.contains(where: { $0.path.hasPrefix(prefix) }) { return true }
            cancelWaiters.append((prefix, expectation))
            return false
        }
        if already { expectation.fulfill() }
        return expectation
    }

    /// Answers the oldest held request with its canned reply.
    func releaseOldest() {
        let next = lock.withLock { () -> (Pending, PromiseResult<Data, HubError>)? in
            guard !pending.isEmpty else { return nil }
            let first = pending.removeFirst()
            return (first, reply(for: first.request))
        }
        if let (pending, result) = next {
            pending.resolver.resolve(with: result)
        }
    }

    func send(_ request: HubRequest) -> HubPromise<Data> {
        let (promise, resolver) = HubPromise<Data>.makeWithResolver()
        resolver.onRequestCancel(on: .immediate) { resolver in
            self.recordCancel(of: request)
            resolver.cancel()
        }
        let (isHeld, result, ready) = lock.withLock { () -> (Bool, PromiseResult<Data, HubError>, [XCTestExpectation]) in
            sent.append(request)
            let isHeld = held.contains { request.path.hasPrefix($0) }
            if isHeld {
                pending.append(Pending(request: request, resolver: resolver))
            }
            var ready: [XCTestExpectation] = []
            waiters.removeAll { waiter in
                guard sent.filter({ $0.path.hasPrefix(waiter.prefix) }).count >= waiter.count else { return false }
                ready.append(waiter.expectation)
                return true
            }
            let result: PromiseResult<Data, HubError>
            if var queued = oneShots[request.path], !queued.isEmpty {
                result = queued.removeFirst()
                oneShots[request.path] = queued
            } else {
                result = reply(for: request)
            }
            return (isHeld, result, ready)
        }
        ready.forEach { $0.fulfill() }
        if !isHeld {
            DispatchQueue.global().async {
                resolver.resolve(with: result)
            }
        }
        return promise
    }

    private func reply(for request: HubRequest) -> PromiseResult<Data, HubError> {
        replies[request.path] ?? .error(.rejectedByDevice(code: 404))
    }

    private func recordCancel(of request: HubRequest) {
        let ready = lock.withLock { () -> [XCTestExpectation] in
            cancelled.append(request)
            var ready: [XCTestExpectation] = []
            cancelWaiters.removeAll { waiter in
                guard request.path.hasPrefix(waiter.prefix) else { return false }
                ready.append(waiter.expectation)
                return true
            }
            return ready
        }
        ready.forEach { $0.fulfill() }
    }
}

extension NSLock {
    func withLock<R>(_ body: () throws -> R) rethrows -> R {
        lock()
        defer { unlock() }
        return try body()
    }
}
