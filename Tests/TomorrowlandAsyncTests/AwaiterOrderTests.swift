// Where an awaiting Task is resumed relative to the promise's callbacks, for a Task-backed
// promise (the box's await slot) and for a plain promise (an awaiter node): an awaiting Task
// registered before an `.immediate` callback is resumed before that callback runs, so a
// callback that waits for the awaiting Task does not stall.

import Foundation
import TestSupport
import Testing
@testable import Tomorrowland
import TomorrowlandAsync

private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// Whether a Task waits on `promise`: armed in a Task-backed box's slot, or as a node in
/// the callback list (the only registration in these tests).
private func isAwaited(_ promise: Promise<Int, NoError>) -> Bool {
    if let box = promise._box as? TaskPromiseBox<Int, NoError> {
        return box.awaitPhase.load(ordering: .acquiring) == .armed
    }
    return promise._box.callbacks.load(ordering: .acquiring) != nil
}

@Suite("Awaiting Tasks are resumed before later callbacks")
struct AwaiterOrderTests {
    /// An awaiting Task registered before an `.immediate` callback: is it resumed before that
    /// callback runs? The callback waits (up to 10 s) for the awaiting Task to get past its await.
    func awaiterResumedBeforeLaterCallback(taskBacked: Bool) async throws -> Bool {
        let open = Flag()
        let promise: Promise<Int, NoError>
        var resolver: Promise<Int, NoError>.Resolver? = nil
        if taskBacked {
            promise = Promise<Int, NoError> {
                while !open.isSet { try? await Task.sleep(for: .milliseconds(1)) }
                return 1
            }
        } else {
            let (p, r) = Promise<Int, NoError>.makeWithResolver()
            promise = p
            resolver = r
        }
        let resumed = DispatchSemaphore(value: 0)
        let awaiter = Task { _ = await promise.resolvedResult; resumed.signal() }
        // The awaiter is registered first: its continuation waits in the box's slot, or its
        // node is in the callback list (no wall-clock bound: a sleep flaked under load).
        #expect(await eventually(seconds: 30) { isAwaited(promise) })
        let sawAwaiter = Flag()
        let done = promise.then(on: .immediate) { _ in
            if resumed.wait(timeout: .now() + 10) == .success { sawAwaiter.set() }
        }
        open.set()
        // Fulfilled from a thread of its own: the `.immediate` callback then blocks that thread,
        // not one of the cooperative pool's (two here), which the awaiting Task needs to run.
        if let resolver { Thread { resolver.fulfill(with: 1) }.start() }
        _ = try await withDeadline(30) { await done.resolvedResult }
        _ = try await withDeadline(30) { await awaiter.value }
        return sawAwaiter.isSet
    }

    @Test func plainPromise() async throws {
        #expect(try await awaiterResumedBeforeLaterCallback(taskBacked: false))
    }

    @Test func taskBackedPromise() async throws {
        #expect(try await awaiterResumedBeforeLaterCallback(taskBacked: true))
    }
}
