// Tomorrowland's side of (e-exec): awaiting a pending promise that is fulfilled after the
// awaiting Task suspended, deterministically, on a one-thread FIFOTaskExecutor.

import ScenarioKit
import TomorrowlandAsync

/// The resolver of the promise being awaited and the value to fulfil it with. Touched only
/// on `pendingAwaitExecutor`'s thread.
nonisolated(unsafe) var stashedResolver: StdPromise<Int>.Resolver?
nonisolated(unsafe) var stashedValue = 0

/// Keeps the resolver for later: out of line, so it escapes as a real caller's would.
@inline(never)
func stash(_ resolver: StdPromise<Int>.Resolver, _ value: Int) {
    stashedResolver = resolver
    stashedValue = value
}

/// Fulfils the stashed promise, if any.
@inline(never)
func fulfilStashed() {
    guard let resolver = stashedResolver.take() else { return }
    resolver.fulfill(with: stashedValue)
}

/// Runs the awaiting Task's jobs and, after each one, fulfils the promise it suspended on.
let pendingAwaitExecutor = FIFOTaskExecutor(afterEachJob: fulfilStashed)

let pendingAwaitScenarios: [Scenario] = [
    Scenario("e-exec", "Tomorrowland", "create pending, try await value; fulfilled after the Task suspended (one-thread FIFO executor)", async: { n in
        await withTaskExecutorPreference(pendingAwaitExecutor) {
            for i in 0..<n {
                let (promise, resolver) = StdPromise<Int>.makeWithResolver()
                stash(resolver, i)
                tally &+= try! await promise.value
            }
        }
        return checkTally(expectedTally(n))
    }),
    Scenario("e-exec-base", "Tomorrowland", "e-exec without the wait: create, stash, fulfil, then try await value (fast path)", async: { n in
        await withTaskExecutorPreference(pendingAwaitExecutor) {
            for i in 0..<n {
                let (promise, resolver) = StdPromise<Int>.makeWithResolver()
                stash(resolver, i)
                fulfilStashed()
                tally &+= try! await promise.value
            }
        }
        return checkTally(expectedTally(n))
    }),
]
