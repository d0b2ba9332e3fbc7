// Raw Swift concurrency's side of (e-exec): a continuation resumed after the Task
// suspended, deterministically, on a one-thread FIFOTaskExecutor (as e-exec.Tomorrowland).

import ScenarioKit

/// The continuation of the suspended Task and the value to resume it with. Touched only on
/// the executors' threads.
nonisolated(unsafe) var stashedContinuation: UnsafeContinuation<Int, Never>?
nonisolated(unsafe) var stashedValue = 0

/// Keeps the continuation for later: out of line, as a callback API would.
@inline(never)
func stash(_ continuation: UnsafeContinuation<Int, Never>, _ value: Int) {
    stashedContinuation = continuation
    stashedValue = value
}

/// Resumes the stashed continuation, if any.
@inline(never)
func resumeStashed() {
    guard let continuation = stashedContinuation.take() else { return }
    continuation.resume(returning: stashedValue)
}

/// Runs the awaiting Task's jobs and, after each one, resumes the continuation it suspended on.
let pendingAwaitPeerExecutor = FIFOTaskExecutor(afterEachJob: resumeStashed)

let pendingAwaitPeerScenarios: [Scenario] = [
    Scenario("e-exec", "cancellable-unsafe", "withTaskCancellationHandler + withUnsafeContinuation, resumed after the Task suspended (same executor)", async: { n in
        await withTaskExecutorPreference(pendingAwaitPeerExecutor) {
            for i in 0..<n {
                tally &+= await withTaskCancellationHandler {
                    await withUnsafeContinuation { stash($0, i) }
                } onCancel: {}
            }
        }
        return checked(n)
    }),
    Scenario("e-exec", "unsafe", "withUnsafeContinuation alone, resumed after the Task suspended (same executor)", async: { n in
        await withTaskExecutorPreference(pendingAwaitPeerExecutor) {
            for i in 0..<n { tally &+= await withUnsafeContinuation { stash($0, i) } }
        }
        return checked(n)
    }),
]
