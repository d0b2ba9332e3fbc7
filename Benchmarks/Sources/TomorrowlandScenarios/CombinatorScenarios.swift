// Tomorrowland's side of the combinator scenario (j).

import Dispatch
import ScenarioKit
import Tomorrowland

let combinatorScenarios: [Scenario] = [
    Scenario("j", "Tomorrowland", "when(fulfilled:) over n pending promises, fulfil them all, await the array", sync: whenFulfilled),
]

@inline(never)
func whenFulfilled(_ n: Int) -> Int {
    var promises: [StdPromise<Int>] = []
    var resolvers: [StdPromise<Int>.Resolver] = []
    promises.reserveCapacity(n)
    resolvers.reserveCapacity(n)
    for _ in 0..<n {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        promises.append(promise)
        resolvers.append(resolver)
    }
    let done = DispatchSemaphore(value: 0)
    _ = when(fulfilled: promises).then(on: .immediate) { values in
        tally &+= values.reduce(0, &+)
        done.signal()
    }
    for (i, resolver) in resolvers.enumerated() { resolver.fulfill(with: i) }
    done.wait()
    return checkTally(expectedTally(n))
}
