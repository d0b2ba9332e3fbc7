// Tomorrowland's isolated-callback variants of (a): callbacks written in `@MainActor` code and
// in an actor, which run on their actor (issue 9). Not allocation-gated: the actor variant
// hops through a Task.

import Dispatch
import Foundation
import ScenarioKit
import TomorrowlandAsync

/// The isolated variants of (a).
let isolatedScenarios: [Scenario] = [
    Scenario("a-main", "Tomorrowland", "(a) with main-actor callbacks on .immediate, registered and fulfilled on the main queue", sync: { n in
        // The harness runs sync scenarios on the main thread; package-benchmark (after
        // dispatchMain) on another thread, from which the main queue is reachable.
        Thread.isMainThread ? MainActor.assumeIsolated { mainActorCallbacks(n) } : DispatchQueue.main.sync { MainActor.assumeIsolated { mainActorCallbacks(n) } }
    }),
    Scenario("a-value-main", "Tomorrowland", "(a-resolved) written in @MainActor code with a PromiseContext value (.immediate)", sync: { n in
        // A context value gives nonisolated callbacks (once isolated to the main actor here).
        Thread.isMainThread ? MainActor.assumeIsolated { valueContextCallbacks(n) } : DispatchQueue.main.sync { MainActor.assumeIsolated { valueContextCallbacks(n) } }
    }),
    Scenario("a-actor", "Tomorrowland", "(a) with callbacks isolated to an actor, fulfilled outside it, awaited", async: { n in
        let actor = CallbackActor()
        for i in 0..<n {
            let (promise, resolver) = StdPromise<Int>.makeWithResolver()
            let done = await actor.observe(promise)
            resolver.fulfill(with: i)
            _ = try! await done.value
        }
        tally = await actor.sum
        return checkTally(expectedTally(n, plus: 1))
    }),
]

@MainActor final class MainCallbackState {
    var offset = 1
    var sum = 0
}

@MainActor
func mainActorCallbacks(_ n: Int) -> Int {
    let state = MainCallbackState()
    for i in 0..<n {
        let (promise, resolver) = StdPromise<Int>.makeWithResolver()
        _ = promise.map(on: .immediate) { $0 &+ state.offset }.then(on: .immediate) { state.sum &+= $0 }
        resolver.fulfill(with: i)
    }
    tally = state.sum
    return checkTally(expectedTally(n, plus: 1))
}

/// (a-resolved) given a context held in a value, written in `@MainActor` code.
@MainActor
func valueContextCallbacks(_ n: Int) -> Int {
    let context: PromiseContext = .immediate
    for i in 0..<n {
        _ = StdPromise<Int>(fulfilled: i).map(on: context) { $0 &+ 1 }.then(on: context) { tally &+= $0 }
    }
    return checkTally(expectedTally(n, plus: 1))
}

actor CallbackActor {
    var offset = 1
    var sum = 0

    func observe(_ promise: StdPromise<Int>) -> StdPromise<Int> {
        promise.map(on: .immediate) { $0 &+ self.offset }.then(on: .immediate) { self.sum &+= $0 }
    }
}
