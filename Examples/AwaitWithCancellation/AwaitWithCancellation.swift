// AwaitWithCancellation: awaiting a promise from async code, and what cancelling the awaiting
// Task does to it.
//
// An awaiting Task is one observer of the promise. Cancelling it counts as that observer
// asking to cancel: the promise's work is asked to stop only when *every* observer asked, so
// one uninterested Task never cancels work that another still waits for. The await itself is
// cooperative: it keeps waiting for the promise's real outcome.

import Foundation
import TomorrowlandAsync

/// A render that takes `duration` and stops early if asked to cancel.
func render(_ name: String, duration: TimeInterval) -> Promise<String, NoError> {
    Promise(on: .utility) { resolver in
        let done = DispatchTime.now() + duration
        resolver.onRequestCancel(on: .immediate) { resolver in
            print("  [\(name)] asked to cancel: stopping")
            resolver.cancel()
        }
        DispatchQueue.global().asyncAfter(deadline: done) {
            resolver.fulfill(with: "\(name) rendered")
        }
    }
}

/// Work that cannot be interrupted: it has no `onRequestCancel` handler.
func uninterruptible(_ name: String, duration: TimeInterval) -> Promise<String, NoError> {
    Promise(on: .utility) { resolver in
        DispatchQueue.global().asyncAfter(deadline: .now() + duration) {
            resolver.fulfill(with: "\(name) finished anyway")
        }
    }
}

@main
enum AwaitWithCancellation {
    static func main() async {
        print("1. One awaiting Task, cancelled: the promise is asked to cancel.")
        let single = Task { try await render("poster", duration: 5).value }
        try? await Task.sleep(for: .milliseconds(50))
        single.cancel()
        await report(single)

        print("2. Two Tasks await one promise; cancelling one leaves the work running.")
        let shared = render("banner", duration: 0.2)
        let first = Task { try await shared.value }
        let second = Task { try await shared.value }
        try? await Task.sleep(for: .milliseconds(50))  // both are awaiting now
        first.cancel()
        await report(second, "second")
        await report(first, "first (cancelled, but the value came anyway)")

        print("3. Cancelling every awaiting Task cancels the work.")
        let both = render("thumbnail", duration: 5)
        let third = Task { try await both.value }
        let fourth = Task { try await both.value }
        try? await Task.sleep(for: .milliseconds(50))
        third.cancel()
        fourth.cancel()
        await report(third, "third")
        await report(fourth, "fourth")

        print("4. Work that ignores cancellation keeps a cancelled Task waiting for its value.")
        let start = ContinuousClock.now
        let stubborn = Task { try await uninterruptible("migration", duration: 0.2).value }
        stubborn.cancel()
        await report(stubborn)
        print("  waited at least 0.2 s: \(ContinuousClock.now - start >= .milliseconds(200))")

        print("5. value(onTaskCancel: .stopWaiting) gives up at once instead.")
        let impatientStart = ContinuousClock.now
        let impatient = Task { try await uninterruptible("report", duration: 2).value(onTaskCancel: .stopWaiting) }
        try? await Task.sleep(for: .milliseconds(50))
        impatient.cancel()
        await report(impatient)
        print("  gave up before the work finished: \(ContinuousClock.now - impatientStart < .seconds(2))")
    }

    static func report(_ task: Task<String, Error>, _ label: String = "task") async {
        do {
            print("  \(label): \(try await task.value)")
        } catch is CancellationError {
            print("  \(label): CancellationError")
        } catch {
            print("  \(label): \(error)")
        }
    }
}
