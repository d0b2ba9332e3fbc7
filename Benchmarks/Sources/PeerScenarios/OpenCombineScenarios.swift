// OpenCombine's Future doing what the Tomorrowland scenarios do. Subscribers run inline
// on the thread that fulfils, like `.immediate`.

import OpenCombine
import ScenarioKit

let openCombineScenarios: [Scenario] = [
    Scenario("a", "OpenCombine", "Future, map + sink, fulfil", sync: combineCreateMapSink),
    Scenario("a-capture", "OpenCombine", "(a) with callbacks that capture an object", sync: combineCreateMapSinkCapturing),
    Scenario("b", "OpenCombine", "Future, 10 maps + sink, fulfil", sync: combineTenMaps),
    Scenario("c", "OpenCombine", "already-fulfilled Future + sink", sync: combineFulfilledSink),
    Scenario("l", "OpenCombine", "n pending Futures with one sink each, held, then fulfilled", sync: combinePending),
]

@inline(never)
func combineCreateMapSink(_ n: Int) -> Int {
    for i in 0..<n {
        var fulfil: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { fulfil = $0 }
        let subscription = future.map { $0 &+ 1 }.sink { tally &+= $0 }
        fulfil!(.success(i))
        blackHole(subscription)
    }
    return checkTally(expectedTally(n, plus: 1))
}

@inline(never)
func combineCreateMapSinkCapturing(_ n: Int) -> Int {
    let state = CapturedState()
    for i in 0..<n {
        var fulfil: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { fulfil = $0 }
        let subscription = future.map { $0 &+ state.offset }.sink { state.sum &+= $0 }
        fulfil!(.success(i))
        blackHole(subscription)
    }
    tally = state.sum
    return checkTally(expectedTally(n, plus: 1))
}

@inline(never)
func combineTenMaps(_ n: Int) -> Int {
    for i in 0..<n {
        var fulfil: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { fulfil = $0 }
        let subscription = future
            .map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }
            .map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }
            .sink { tally &+= $0 }
        fulfil!(.success(i))
        blackHole(subscription)
    }
    return checkTally(expectedTally(n, plus: 10))
}

@inline(never)
func combineFulfilledSink(_ n: Int) -> Int {
    for i in 0..<n {
        let subscription = Future<Int, Never> { $0(.success(i)) }.sink { tally &+= $0 }
        blackHole(subscription)
    }
    return checkTally(expectedTally(n))
}

@inline(never)
func combinePending(_ n: Int) -> Int {
    var held: [(Future<Int, Never>.Promise, AnyCancellable)] = []
    held.reserveCapacity(n)
    for _ in 0..<n {
        var fulfil: Future<Int, Never>.Promise?
        let future = Future<Int, Never> { fulfil = $0 }
        held.append((fulfil!, future.sink { tally &+= $0 }))
    }
    atPeak()
    for (i, (fulfil, _)) in held.enumerated() { fulfil(.success(i)) }
    held.removeAll()
    return checkTally(expectedTally(n))
}
