// AwaitWithCancellation: awaiting a promise from async code, and what cancelling the awaiting
// Task does to it.
//
// An awaiting Task is one observer of the promise. Cancelling it counts as that observer
// asking to cancel: the promise's work is asked to stop only when *every* observer asked, so
// one uninterested Task never cancels work that another still waits for. The await itself is
// cooperative: it keeps waiting for the promise's real outcome.
//
// The story is ordered by a signal, not by sleeps: `startAwaiting` returns once its Task is
// suspended in the await, so every `cancel()` below finds the Task already observing the
// promise, on a loaded machine too.

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
    @MainActor
    static func main() async {
        print("1. One awaiting Task, cancelled: the promise is asked to cancel.")
        let single = await startAwaiting { try await render("poster", duration: 5).value }
        single.cancel()
        await report(single)

        print("2. Two Tasks await one promise; cancelling one leaves the work running.")
        let shared = render("banner", duration: 0.2)
        let first = await startAwaiting { try await shared.value }
        let second = await startAwaiting { try await shared.value }
        first.cancel()  // both are awaiting now
        await report(second, "second")
        await report(first, "first (cancelled, but the value came anyway)")

        print("3. Cancelling every awaiting Task cancels the work.")
        let both = render("thumbnail", duration: 5)
        let third = await startAwaiting { try await both.value }
        let fourth = await startAwaiting { try await both.value }
        third.cancel()
        fourth.cancel()
        await report(third, "third")
        await report(fourth, "fourth")

        print("4. Work that ignores cancellation keeps a cancelled Task waiting for its value.")
        let start = ContinuousClock.now
        let stubborn = await startAwaiting { try await uninterruptible("migration", duration: 0.2).value }
        stubborn.cancel()
        await report(stubborn)
        print("  waited at least 0.2 s: \(ContinuousClock.now - start >= .milliseconds(200))")

        print("5. value(onTaskCancel: .stopWaiting) gives up at once instead.")
        let work = uninterruptible("report", duration: 10)
        let impatient = await startAwaiting { try await work.value(onTaskCancel: .stopWaiting) }
        impatient.cancel()
        await report(impatient)
        print("  gave up before the work finished: \(work.result == nil)")
    }

    /// Starts a Task running `awaitPromise` (which must await its promise first thing) and
    /// returns once that Task is suspended in the await.
    ///
    /// The Task runs on the main actor, like `main()`. It signals just before it awaits, and
    /// the await registers it as an observer before it suspends; `main()` resumes on the main
    /// actor, so only after the Task let go of it: by then the Task is awaiting.
    @MainActor
    static func startAwaiting(_ awaitPromise: @escaping @MainActor () async throws -> String) async -> Task<String, Error> {
        let (started, signal) = AsyncStream.makeStream(of: Void.self)
        let task = Task { @MainActor in
            signal.finish()
            return try await awaitPromise()
        }
        for await _ in started {}
        return task
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
