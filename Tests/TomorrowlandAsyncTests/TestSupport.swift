// Test helpers: every await in these tests is guarded by a deadline, so a hang fails the
// test instead of blocking CI.

import Foundation
import TestSupport
import Testing
import TomorrowlandAsync

struct TimedOut: Error, CustomStringConvertible {
    let seconds: Double
    var description: String { "timed out after \(seconds)s" }
}

/// Resumes a continuation at most once. NSLock (not `Mutex`) so that TSan sees the handoff.
final class OnceResumer<T: Sendable>: @unchecked Sendable {
    // Safety: `continuation` is only touched under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = continuation }

    func resume(_ result: Result<T, any Error>) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        lock.unlock()
        continuation?.resume(with: result)
    }
}

/// Runs `body` in an unstructured Task and returns its result, or throws `TimedOut` after
/// `seconds` (the body may be stuck in an uncancellable await; it is cancelled and left).
func withDeadline<T: Sendable>(
    _ seconds: Double = 10,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let once = OnceResumer(continuation)
        let work = Task {
            do { once.resume(.success(try await body())) } catch { once.resume(.failure(error)) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
            work.cancel()
            once.resume(.failure(TimedOut(seconds: seconds)))
        }
    }
}

/// Starts a Task that runs `awaitPromise` on the main actor and returns once that Task is
/// suspended in its first await, so a test can cancel it knowing it already observes the
/// promise (a sleep cannot know that on a loaded machine). `awaitPromise` must await the
/// promise first thing.
///
/// Why this works: the Task signals just before it awaits, and the await runs on the caller's
/// isolation (`nonisolated(nonsending)`), registering the Task as an observer before it
/// suspends. This function resumes on the main actor, so only once the Task let go of it.
@MainActor
func startAwaiting<T: Sendable>(_ awaitPromise: @escaping @MainActor () async -> T) async -> Task<T, Never> {
    let (started, signal) = AsyncStream.makeStream(of: Void.self)
    let task = Task { @MainActor in
        signal.finish()
        return await awaitPromise()
    }
    for await _ in started {}
    return task
}

/// `startAwaiting` for a throwing await (`try await promise.value`).
@MainActor
func startAwaiting<T: Sendable>(_ awaitPromise: @escaping @MainActor () async throws -> T) async -> Task<T, any Error> {
    let (started, signal) = AsyncStream.makeStream(of: Void.self)
    let task = Task { @MainActor in
        signal.finish()
        return try await awaitPromise()
    }
    for await _ in started {}
    return task
}
